/**
 * PIX keys (destination of a PIX transfer).
 *
 * Contract (gateway-api.md, POST /api/v1/pix/out/pixkey): `pixKey` string, required —
 * "CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)".
 *
 * Phone keys are mobile numbers (`+55` + DDD + 9 + 8 digits), as the DICT registers them.
 * Malformed keys include the DICT's limits the contract's kinds carry (a phone of a digit count no
 * Brazilian number has, a UUID without its hyphens, an e-mail over the DICT's 77 characters).
 * Values are returned as `{ kind, value }` records so a test or report can say what was sent.
 * Malformed keys are chosen so that no malformed value is, by accident, a valid key of another
 * kind (an 11-digit "phone without +55" that happens to be a valid CPF is filtered out).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { cnpj, cnpjWithBadCheckDigit, cnpjWrongLength, cpf, cpfWithBadCheckDigit, cpfWrongLength, isValidCnpj, isValidCpf } from './documents.js';
import { email, malformedEmail } from './emails.js';
import { nationalPhoneNumber, phone } from './phones.js';

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';
export const PIX_KEY_KINDS: readonly PixKeyKind[] = ['cpf', 'cnpj', 'email', 'phone', 'evp'];

export interface PixKey {
  kind: PixKeyKind;
  value: string;
}

export interface PixKeyOptions {
  /** One kind, several kinds, or (default) all five. */
  kind?: PixKeyKind | readonly PixKeyKind[];
  /**
   * CNPJ keys: `numeric` (default; what "CNPJ (digits)" says), `alphanumeric` (Receita Federal
   * July 2026; rejecting it is a warning per the contract README), or `any`.
   */
  cnpjVariant?: 'numeric' | 'alphanumeric' | 'any';
}

/** A random key (EVP): a version-4 UUID in lower-case canonical form. */
export function evpKey(): Arbitrary<string> {
  return fc.uuid({ version: 4 });
}

/** A valid PIX key of the requested kind(s). */
export function pixKey(options: PixKeyOptions = {}): Arbitrary<PixKey> {
  const kinds = options.kind === undefined ? PIX_KEY_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) throw new Error('generators.pixKey: kind list is empty');
  const arbs = kinds.map((kind): Arbitrary<PixKey> => {
    switch (kind) {
      case 'cpf':
        return cpf().map((value) => ({ kind, value }));
      case 'cnpj':
        return cnpj({ variant: options.cnpjVariant ?? 'numeric' }).map((value) => ({ kind, value }));
      case 'email':
        return email().map((value) => ({ kind, value }));
      case 'phone':
        // Mobile only: the DICT registers mobile numbers, and "phone with +55 prefix" does not
        // settle whether a landline is a key, so a landline would lean on a choice left open.
        return phone({ type: 'mobile' }).map((value) => ({ kind, value }));
      case 'evp':
        return evpKey().map((value) => ({ kind, value }));
      default:
        throw new Error(`generators.pixKey: unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<PixKey>) : fc.oneof(...arbs);
}

export type MalformedPixKeyKind =
  | 'phone-without-plus55'
  | 'bad-email'
  | 'wrong-length-digits'
  | 'cpf-bad-check-digit'
  | 'cnpj-bad-check-digit'
  | 'non-uuid-evp'
  | 'empty'
  | 'phone-wrong-length'
  | 'evp-without-hyphens'
  | 'email-over-77';
export const MALFORMED_PIX_KEY_KINDS: readonly MalformedPixKeyKind[] = [
  'phone-without-plus55',
  'bad-email',
  'wrong-length-digits',
  'cpf-bad-check-digit',
  'cnpj-bad-check-digit',
  'non-uuid-evp',
  'empty',
  'phone-wrong-length',
  'evp-without-hyphens',
  'email-over-77',
];

export interface MalformedPixKey {
  kind: MalformedPixKeyKind;
  value: string;
  /** What exactly is wrong, for reports (e.g. `truncated`, `no-at-sign`). */
  detail: string;
}

/** A UUID made non-UUID: a non-hex letter, one character short, or one character too many. */
function nonUuid(): Arbitrary<{ value: string; detail: string }> {
  return fc
    .tuple(evpKey(), fc.constantFrom('non-hex-char', 'truncated', 'extra-char'), fc.nat({ max: 35 }), fc.constantFrom(...'ghjkmnpqrstuvwxyz'))
    .map(([uuid, detail, at, letter]) => {
      if (detail === 'truncated') return { value: uuid.slice(0, -1), detail };
      if (detail === 'extra-char') return { value: `${uuid}0`, detail };
      // Replace a hex position (never a hyphen) with a non-hex letter.
      const hexPositions = [...uuid].flatMap((c, i) => (c === '-' ? [] : [i]));
      const i = hexPositions[at % hexPositions.length] as number;
      return { value: uuid.slice(0, i) + letter + uuid.slice(i + 1), detail };
    });
}

/**
 * `+55` and a national number of a digit count no Brazilian phone has (8, 9, 12 or 13 digits: a
 * number is a 2-digit area code and 8 or 9 digits; the DICT registers 11).
 */
function phoneOfWrongLength(): Arbitrary<{ value: string; detail: string }> {
  return fc
    .tuple(nationalPhoneNumber({ type: 'mobile' }), fc.constantFrom(8, 9, 12, 13), fc.nat({ max: 9 }))
    .map(([national, digits, extra]) => {
      const value = digits <= national.length ? national.slice(0, digits) : national + String(extra).repeat(digits - national.length);
      return { value: `+55${value}`, detail: `${digits}-national-digits` };
    });
}

/** An e-mail of 78 to 100 characters: over the 77 the DICT registers (the address itself well formed). */
function emailOverDictLength(): Arbitrary<{ value: string; detail: string }> {
  return fc.tuple(email(), fc.integer({ min: 78, max: 100 })).map(([valid, length]) => {
    const [local, domain] = valid.split('@') as [string, string];
    const pad = Math.max(0, length - valid.length);
    // the local part stays within RFC 5321's 64, the rest goes to extra domain labels
    const room = Math.min(pad, 64 - local.length);
    const labels = 'x'.repeat(pad - room).match(/.{1,40}/g) ?? [];
    const longer = `${local}${'a'.repeat(room)}@${[...labels, domain].join('.')}`;
    return { value: longer, detail: `${longer.length}-characters` };
  });
}

/** Loose: could `value` be a valid key of some kind? Only keeps malformed keys honest; not a contract check. */
function couldBeValidPixKey(value: string): boolean {
  return (
    (/^\d{11}$/.test(value) && isValidCpf(value, { format: 'digits' })) ||
    (/^[0-9A-Z]{12}\d{2}$/.test(value) && isValidCnpj(value, { format: 'digits' })) ||
    /^\+55\d{10,11}$/.test(value) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ||
    (value.length <= 77 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
  );
}

/** A malformed PIX key of the requested kind(s), labelled. */
export function malformedPixKey(options: { kind?: MalformedPixKeyKind | readonly MalformedPixKeyKind[] } = {}): Arbitrary<MalformedPixKey> {
  const kinds = options.kind === undefined ? MALFORMED_PIX_KEY_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) throw new Error('generators.malformedPixKey: kind list is empty');
  const arbs = kinds.map((kind): Arbitrary<MalformedPixKey> => {
    switch (kind) {
      case 'phone-without-plus55':
        return fc
          .tuple(nationalPhoneNumber(), fc.boolean())
          .map(([n, keep55]) => (keep55 ? { kind, value: `55${n}`, detail: 'country-code-without-plus' } : { kind, value: n, detail: 'no-country-code' }))
          .filter((k) => !couldBeValidPixKey(k.value));
      case 'bad-email':
        return malformedEmail().map((m) => ({ kind, value: m.value, detail: m.kind }));
      case 'wrong-length-digits':
        return fc
          .oneof(
            cpfWrongLength().map((value) => ({ kind, value, detail: `cpf-${value.length}-digits` })),
            cnpjWrongLength().map((value) => ({ kind, value, detail: `cnpj-${value.length}-digits` })),
          )
          .filter((k) => !couldBeValidPixKey(k.value));
      case 'cpf-bad-check-digit':
        return cpfWithBadCheckDigit().map((value) => ({ kind, value, detail: 'check-digit' }));
      case 'cnpj-bad-check-digit':
        return cnpjWithBadCheckDigit().map((value) => ({ kind, value, detail: 'check-digit' }));
      case 'non-uuid-evp':
        return nonUuid().map((n) => ({ kind, value: n.value, detail: n.detail }));
      case 'empty':
        return fc.constant({ kind, value: '', detail: 'empty-string' });
      case 'phone-wrong-length':
        return phoneOfWrongLength().map((p) => ({ kind, ...p }));
      case 'evp-without-hyphens':
        return evpKey().map((uuid) => ({ kind, value: uuid.replace(/-/g, ''), detail: 'uuid-without-hyphens' }));
      case 'email-over-77':
        return emailOverDictLength().map((e) => ({ kind, ...e }));
      default:
        throw new Error(`generators.malformedPixKey: unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<MalformedPixKey>) : fc.oneof(...arbs);
}
