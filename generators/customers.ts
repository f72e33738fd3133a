/**
 * Customers (buyers) and billing addresses, with pt_BR names from faker.
 *
 * Contract (gateway-api.md):
 * - Customer (PIX IN request): documentType `cpf`|`cnpj` (required), document (required; "digits only;
 *   must be valid for PIX"), name, email, phone, billingAddress (all optional).
 * - Customer (card request): name, documentType, document ("may be empty for international card"),
 *   email ("payer e-mail") and billingAddress ("complete BillingAddress") required; phone optional.
 *   "Customer (card), billingAddress required; without it the charge is refused before reaching the issuer."
 * - BillingAddress: "All strings: street, number, neighborhood, city, state, zipCode."
 * - "PIX and BRL card payments require a valid CPF or CNPJ. International payments do not."
 *
 * faker is driven by an `fc.integer()` seed inside `.map`, so a value is a pure function of the
 * fast-check stream: deterministic per seed, replayable, and shrinkable (the seed shrinks to 0,
 * still a complete customer). Documents come from fast-check (documents.ts), not faker, so check
 * digits are guaranteed.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
// the pt_BR faker alone (the package's index loads every locale: ~0.12 s of CPU per worker)
import { faker as fakerPT_BR } from '@faker-js/faker/locale/pt_BR';
import type { Faker } from '@faker-js/faker';
import { cnpj, cpf, invalidCnpj, invalidCpf } from './documents.js';
import { phone } from './phones.js';

export type DocumentType = 'cpf' | 'cnpj';

export interface BillingAddress {
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  /** Two-letter UF, e.g. `SP`. */
  state: string;
  /** CEP, 8 digits. */
  zipCode: string;
}

export interface PixCustomer {
  documentType: DocumentType;
  document: string;
  name?: string;
  email?: string;
  phone?: string;
  billingAddress?: BillingAddress;
}

export interface CardCustomer {
  name: string;
  documentType: DocumentType;
  document: string;
  email: string;
  phone?: string;
  billingAddress: BillingAddress;
}

/** The 27 federative units. */
export const UFS: readonly string[] = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR',
  'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
];

const NEIGHBORHOOD_PREFIXES = ['Jardim', 'Vila', 'Parque', 'Residencial', 'Conjunto'];

/** Runs `f` on the shared pt_BR faker after seeding it: the result depends only on `seed`. */
function withFaker<T>(seed: number, f: (faker: Faker) => T): T {
  fakerPT_BR.seed(seed);
  return f(fakerPT_BR);
}

/** faker e-mails can carry accents from pt_BR names; keep the plain-ASCII subset validators agree on. */
function asciiEmail(faker: Faker): string {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  const local = `${clean(first) || 'cliente'}.${clean(last) || 'teste'}${faker.number.int({ min: 1, max: 999 })}`;
  const domain = faker.helpers.arrayElement(['example.com', 'example.com.br', 'example.org']);
  return `${local}@${domain}`;
}

function fakeAddress(faker: Faker): BillingAddress {
  const neighborhood = faker.datatype.boolean({ probability: 0.2 })
    ? 'Centro'
    : `${faker.helpers.arrayElement(NEIGHBORHOOD_PREFIXES)} ${faker.person.lastName()}`;
  return {
    street: faker.location.street(),
    number: String(faker.number.int({ min: 1, max: 9999 })),
    neighborhood,
    city: faker.location.city(),
    state: faker.helpers.arrayElement(UFS),
    zipCode: faker.string.numeric(8),
  };
}

/** A complete billing address (all six fields, state a UF, zipCode 8 digits). */
export function billingAddress(): Arbitrary<BillingAddress> {
  return fc.integer().map((seed) => withFaker(seed, fakeAddress));
}

/** A person's full name (pt_BR). */
export function personName(): Arbitrary<string> {
  return fc.integer().map((seed) => withFaker(seed, (f) => f.person.fullName()));
}

export interface DocumentChoice {
  /** Restrict the document type; default: both. */
  documentType?: DocumentType;
  /** CNPJ variant for `cnpj` documents (default `numeric`; `alphanumeric` is the July 2026 format). */
  cnpjVariant?: 'numeric' | 'alphanumeric' | 'any';
}

function typedDocument(options: DocumentChoice): Arbitrary<{ documentType: DocumentType; document: string }> {
  const forCpf = cpf().map((document) => ({ documentType: 'cpf' as const, document }));
  const forCnpj = cnpj({ variant: options.cnpjVariant ?? 'numeric' }).map((document) => ({ documentType: 'cnpj' as const, document }));
  if (options.documentType === 'cpf') return forCpf;
  if (options.documentType === 'cnpj') return forCnpj;
  if (options.documentType !== undefined) throw new Error(`generators.customers: unknown documentType ${JSON.stringify(options.documentType)}`);
  return fc.oneof(forCpf, forCnpj);
}

export interface PixCustomerOptions extends DocumentChoice {
  /** `random` (default): each optional field present or not; `all`: every optional field; `none`: only the required two. */
  optionalFields?: 'random' | 'all' | 'none';
}

/** A valid PIX IN customer: documentType + a valid document of that type (digits only), optional extras. */
export function pixCustomer(options: PixCustomerOptions = {}): Arbitrary<PixCustomer> {
  const mode = options.optionalFields ?? 'random';
  if (mode !== 'random' && mode !== 'all' && mode !== 'none') throw new Error(`generators.pixCustomer: unknown optionalFields ${JSON.stringify(mode)}`);
  const presence = mode === 'random' ? fc.boolean() : fc.constant(mode === 'all');
  return fc
    .record({
      doc: typedDocument(options),
      seed: fc.integer(),
      phone: phone(),
      name: presence,
      email: presence,
      withPhone: presence,
      address: presence,
    })
    .map((r) =>
      withFaker(r.seed, (faker) => {
        // Draw every faker value unconditionally so one field's presence does not change the others.
        const name = faker.person.fullName();
        const email = asciiEmail(faker);
        const address = fakeAddress(faker);
        const customer: PixCustomer = { documentType: r.doc.documentType, document: r.doc.document };
        if (r.name) customer.name = name;
        if (r.email) customer.email = email;
        if (r.withPhone) customer.phone = r.phone;
        if (r.address) customer.billingAddress = address;
        return customer;
      }),
    );
}

export interface CardCustomerOptions extends DocumentChoice {
  /** Document: `valid` (a valid CPF/CNPJ), `empty` ("may be empty for international card"), `any` (default). */
  document?: 'valid' | 'empty' | 'any';
  /** Include the optional phone: `random` (default), `always`, `never`. */
  phone?: 'random' | 'always' | 'never';
}

/** A valid card customer: name, documentType, document (valid or empty), email, complete billingAddress. */
export function cardCustomer(options: CardCustomerOptions = {}): Arbitrary<CardCustomer> {
  const docMode = options.document ?? 'any';
  if (docMode !== 'valid' && docMode !== 'empty' && docMode !== 'any') throw new Error(`generators.cardCustomer: unknown document ${JSON.stringify(docMode)}`);
  const phoneMode = options.phone ?? 'random';
  const emptyDoc = docMode === 'empty' ? fc.constant(true) : docMode === 'valid' ? fc.constant(false) : fc.boolean();
  return fc
    .record({
      doc: typedDocument(options),
      emptyDoc,
      seed: fc.integer(),
      phone: phone(),
      withPhone: phoneMode === 'random' ? fc.boolean() : fc.constant(phoneMode === 'always'),
    })
    .map((r) =>
      withFaker(r.seed, (faker) => {
        const customer: CardCustomer = {
          name: faker.person.fullName(),
          documentType: r.doc.documentType,
          document: r.emptyDoc ? '' : r.doc.document,
          email: asciiEmail(faker),
          billingAddress: fakeAddress(faker),
        };
        if (r.withPhone) customer.phone = r.phone;
        return customer;
      }),
    );
}

export type InvalidPixCustomerKind =
  | 'missing-documentType'
  | 'missing-document'
  | 'invalid-document'
  | 'documentType-mismatch'
  | 'bad-documentType';

/** A customer object that breaks one rule, labelled; `customer` is a plain JSON object. */
export interface LabelledCustomer<K extends string> {
  kind: K;
  /** Dotted path inside the customer of the field at fault. */
  field: string;
  /** More detail (e.g. the invalid-document kind). */
  detail: string;
  customer: Record<string, unknown>;
}

const INVALID_PIX_KINDS: readonly InvalidPixCustomerKind[] = [
  'missing-documentType',
  'missing-document',
  'invalid-document',
  'documentType-mismatch',
  'bad-documentType',
];

/** A PIX customer that breaks exactly one documented rule, labelled. */
export function invalidPixCustomer(options: { kind?: InvalidPixCustomerKind | readonly InvalidPixCustomerKind[] } = {}): Arbitrary<LabelledCustomer<InvalidPixCustomerKind>> {
  const kinds = options.kind === undefined ? INVALID_PIX_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) throw new Error('generators.invalidPixCustomer: kind list is empty');
  const arbs = kinds.map((kind): Arbitrary<LabelledCustomer<InvalidPixCustomerKind>> => {
    switch (kind) {
      case 'missing-documentType':
        return pixCustomer().map(({ documentType: _d, ...rest }) => ({ kind, field: 'documentType', detail: 'absent', customer: rest }));
      case 'missing-document':
        return pixCustomer().map(({ document: _d, ...rest }) => ({ kind, field: 'document', detail: 'absent', customer: rest }));
      case 'invalid-document':
        return fc
          .tuple(pixCustomer(), invalidCpf(), invalidCnpj())
          .map(([c, badCpf, badCnpj]) => {
            const bad = c.documentType === 'cpf' ? badCpf : badCnpj;
            return { kind, field: 'document', detail: bad.kind, customer: { ...c, document: bad.value } };
          });
      case 'documentType-mismatch':
        return fc.tuple(pixCustomer(), cpf(), cnpj()).map(([c, aCpf, aCnpj]) => ({
          kind,
          field: 'documentType',
          detail: c.documentType === 'cpf' ? 'cpf-type-with-cnpj' : 'cnpj-type-with-cpf',
          customer: { ...c, document: c.documentType === 'cpf' ? aCnpj : aCpf },
        }));
      case 'bad-documentType':
        return fc
          .tuple(pixCustomer(), fc.constantFrom('rg', 'passport', 'CPF_', ''))
          .map(([c, t]) => ({ kind, field: 'documentType', detail: JSON.stringify(t), customer: { ...c, documentType: t } }));
      default:
        throw new Error(`generators.invalidPixCustomer: unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<LabelledCustomer<InvalidPixCustomerKind>>) : fc.oneof(...arbs);
}

export type InvalidCardCustomerKind =
  | 'missing-billingAddress'
  | 'incomplete-billingAddress'
  | 'missing-documentType'
  | 'missing-name'
  | 'missing-email';

export const INVALID_CARD_KINDS: readonly InvalidCardCustomerKind[] = [
  'missing-billingAddress',
  'incomplete-billingAddress',
  'missing-documentType',
  'missing-name',
  'missing-email',
];

const ADDRESS_FIELDS: ReadonlyArray<keyof BillingAddress> = ['street', 'number', 'neighborhood', 'city', 'state', 'zipCode'];

/**
 * A card customer that breaks exactly one documented rule, labelled. An invalid (non-empty) document
 * is NOT generated: "International payments do not [require a valid CPF or CNPJ]".
 * `missing-billingAddress`: the contract says the charge "is refused before reaching the issuer" —
 * whether as a 4xx or a `refused` charge is the suite's call.
 */
export function invalidCardCustomer(options: { kind?: InvalidCardCustomerKind | readonly InvalidCardCustomerKind[] } = {}): Arbitrary<LabelledCustomer<InvalidCardCustomerKind>> {
  const kinds = options.kind === undefined ? INVALID_CARD_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) throw new Error('generators.invalidCardCustomer: kind list is empty');
  const drop = (c: CardCustomer, field: keyof CardCustomer): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...c };
    delete copy[field];
    return copy;
  };
  const arbs = kinds.map((kind): Arbitrary<LabelledCustomer<InvalidCardCustomerKind>> => {
    switch (kind) {
      case 'missing-billingAddress':
        return cardCustomer().map((c) => ({ kind, field: 'billingAddress', detail: 'absent', customer: drop(c, 'billingAddress') }));
      case 'incomplete-billingAddress':
        return fc.tuple(cardCustomer(), fc.constantFrom(...ADDRESS_FIELDS)).map(([c, f]) => {
          const address: Record<string, unknown> = { ...c.billingAddress };
          delete address[f];
          return { kind, field: `billingAddress.${f}`, detail: 'absent', customer: { ...c, billingAddress: address } };
        });
      case 'missing-documentType':
        return cardCustomer().map((c) => ({ kind, field: 'documentType', detail: 'absent', customer: drop(c, 'documentType') }));
      case 'missing-name':
        return cardCustomer().map((c) => ({ kind, field: 'name', detail: 'absent', customer: drop(c, 'name') }));
      case 'missing-email':
        return cardCustomer().map((c) => ({ kind, field: 'email', detail: 'absent', customer: drop(c, 'email') }));
      default:
        throw new Error(`generators.invalidCardCustomer: unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<LabelledCustomer<InvalidCardCustomerKind>>) : fc.oneof(...arbs);
}
