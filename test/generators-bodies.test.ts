// Self-tests of generators/bodies.ts (JSON Schema → fast-check), judged by ajv 2020 + ajv-formats:
// every validBody sample validates; every single-rule mutant fails, with every ajv error at the
// mutated path; every rule the converter lists is reachable.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { isValidCnpj as buCnpj, isValidCpf as buCpf } from '@brazilian-utils/brazilian-utils';
import {
  OMIT,
  card,
  cardCustomer,
  contractOverrides,
  listRules,
  pixCustomer,
  pixKey,
  resolvePointer,
  singleRuleMutants,
  validBody,
} from '../generators/index.js';
import type { ContractOperation, JsonSchema, Mutant, Overrides } from '../generators/index.js';

const addFormats = addFormatsModule.default;

function makeAjv(strict: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

/** Where an ajv error points: the instance path, plus the property for required/additionalProperties. */
function errorLocation(e: ErrorObject): string {
  const base = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') base.push(params.missingProperty);
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') base.push(params.additionalProperty);
  return base.join('.');
}

const strings = (names: string[]): Record<string, JsonSchema> => Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
const ADDRESS = ['street', 'number', 'neighborhood', 'city', 'state', 'zipCode'];

// Inline schemas mirroring the contract's request bodies (gateway-api.md, partner-cashin-api.md).
const gatewayDefs: Record<string, JsonSchema> = {
  DocumentType: { type: 'string', enum: ['cpf', 'cnpj'] },
  BillingAddress: { type: 'object', properties: strings(ADDRESS) },
  CompleteBillingAddress: { allOf: [{ $ref: '#/$defs/BillingAddress' }, { type: 'object', required: ADDRESS }] },
  TrackingParameters: { type: 'object', properties: strings(['src', 'sck', 'utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term']) },
  Uri: { type: 'string', format: 'uri' },
  Description140: { type: 'string', maxLength: 140 },
};

const pixChargeSchema: JsonSchema = {
  type: 'object',
  required: ['amountInCents', 'customer'],
  additionalProperties: false,
  properties: {
    amountInCents: { type: 'integer', minimum: 100 },
    customer: {
      type: 'object',
      required: ['documentType', 'document'],
      properties: {
        documentType: { $ref: '#/$defs/DocumentType' },
        document: { type: 'string', pattern: '^(\\d{11}|[0-9A-Z]{12}\\d{2})$' },
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string' },
        billingAddress: { $ref: '#/$defs/BillingAddress' },
      },
    },
    description: { $ref: '#/$defs/Description140' },
    postbackUrl: { $ref: '#/$defs/Uri' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'tangible', 'quantity', 'amountInCents'],
        properties: { title: { type: 'string' }, tangible: { type: 'boolean' }, quantity: { type: 'integer' }, amountInCents: { type: 'integer' }, shippingAddress: { type: 'object' } },
      },
    },
    trackingParameters: { $ref: '#/$defs/TrackingParameters' },
    splits: {
      type: 'array',
      maxItems: 10,
      items: { type: 'object', required: ['email', 'percentage'], properties: { email: { type: 'string', format: 'email' }, percentage: { type: 'number', exclusiveMinimum: 0, maximum: 100 } } },
    },
  },
  $defs: gatewayDefs,
};

const transferSchema: JsonSchema = {
  type: 'object',
  required: ['pixKey', 'amount'],
  properties: {
    pixKey: { type: 'string', minLength: 1 },
    amount: { type: 'integer', minimum: 1 },
    currency: { type: 'string', enum: ['BRL'] },
    description: { $ref: '#/$defs/Description140' },
    postbackUrl: { $ref: '#/$defs/Uri' },
  },
  $defs: gatewayDefs,
};

const cardSchema: JsonSchema = {
  type: 'object',
  required: ['amountInCents', 'currency', 'card', 'customer'],
  properties: {
    amountInCents: { type: 'integer', minimum: 100 },
    currency: { type: 'string', enum: ['USD', 'EUR'] },
    description: { type: 'string' },
    postbackUrl: { $ref: '#/$defs/Uri' },
    card: {
      type: 'object',
      required: ['token', 'last4', 'brand', 'holderName'],
      properties: { token: { type: 'string', pattern: '^ctoken_' }, last4: { type: 'string' }, brand: { type: 'string' }, holderName: { type: 'string' }, installments: { type: 'integer', minimum: 1 } },
    },
    customer: {
      type: 'object',
      required: ['name', 'documentType', 'document', 'email', 'billingAddress'],
      properties: {
        name: { type: 'string' },
        documentType: { $ref: '#/$defs/DocumentType' },
        document: { type: 'string' },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string' },
        billingAddress: { $ref: '#/$defs/CompleteBillingAddress' },
      },
    },
    trackingParameters: { $ref: '#/$defs/TrackingParameters' },
  },
  $defs: gatewayDefs,
};

const partnerChargeSchema: JsonSchema = {
  type: 'object',
  required: ['amount_cents'],
  additionalProperties: false,
  properties: {
    amount_cents: { type: 'integer', exclusiveMinimum: 0 },
    description: { type: 'string', maxLength: 300 },
    external_ref: { type: 'string', maxLength: 120 },
    customer_email: { type: 'string', format: 'email' },
    expires_in_seconds: { type: 'integer', minimum: 60, maximum: 86400 },
  },
};

// Keywords the contract's schemas do not use but the converter claims to support.
const kitchenSinkSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'kind', 'when', 'tags', 'either', 'merged', 'version'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { const: 'charge' },
    when: { type: 'string', format: 'date-time' },
    code: { type: 'string', minLength: 3, maxLength: 8 },
    tags: { type: 'array', items: { type: 'string', maxLength: 5 }, minItems: 1, maxItems: 3 },
    either: { oneOf: [{ type: 'string', maxLength: 4 }, { type: 'integer', minimum: 0 }] },
    merged: { allOf: [{ type: 'object', properties: { a: { type: 'integer', minimum: 0 } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] }] },
    ratio: { type: 'number', minimum: 0.5, exclusiveMaximum: 2 },
    nullable: { type: ['string', 'null'] },
    version: { type: 'integer', enum: [1, 2] },
  },
};

interface Case {
  name: string;
  schema: JsonSchema;
  overrides?: Overrides;
  mustList: string[];
}

const cases: Case[] = [
  {
    name: 'gateway PIX charge',
    schema: pixChargeSchema,
    overrides: { customer: pixCustomer() },
    mustList: [
      'missing-required:amountInCents',
      'below-minimum:amountInCents',
      'not-integer:amountInCents',
      'wrong-type:customer.document',
      'bad-enum:customer.documentType',
      'too-long:description',
      'bad-format:postbackUrl',
      'missing-required:items.0.title',
      'unexpected-property:unexpectedProperty',
      'below-minimum:splits.0.percentage',
      'too-many-items:splits',
    ],
  },
  {
    name: 'gateway PIX transfer',
    schema: transferSchema,
    overrides: { pixKey: pixKey().map((k) => k.value) },
    mustList: ['missing-required:pixKey', 'too-short:pixKey', 'below-minimum:amount', 'bad-enum:currency', 'too-long:description'],
  },
  {
    name: 'gateway card',
    schema: cardSchema,
    overrides: { card: card(), customer: cardCustomer() },
    mustList: ['bad-enum:currency', 'bad-pattern:card.token', 'below-minimum:card.installments', 'missing-required:customer.billingAddress', 'missing-required:customer.billingAddress.zipCode'],
  },
  {
    name: 'partner charge',
    schema: partnerChargeSchema,
    mustList: ['below-minimum:amount_cents', 'too-long:description', 'too-long:external_ref', 'bad-format:customer_email', 'below-minimum:expires_in_seconds', 'above-maximum:expires_in_seconds'],
  },
  {
    name: 'kitchen sink',
    schema: kitchenSinkSchema,
    mustList: ['bad-format:id', 'bad-const:kind', 'bad-format:when', 'too-short:code', 'too-long:code', 'too-few-items:tags', 'too-many-items:tags', 'too-long:tags.0', 'wrong-type:either', 'missing-required:merged.b', 'below-minimum:merged.a', 'below-minimum:ratio', 'above-maximum:ratio', 'wrong-type:nullable', 'bad-enum:version'],
  },
];

function judge(schema: JsonSchema) {
  return makeAjv(true).compile(schema as object);
}

function expectMutantRejected(validate: ReturnType<typeof judge>, m: Mutant): void {
  const ok = validate(m.body);
  expect(ok, `${m.rule} should be rejected: ${JSON.stringify(m.body)}`).toBe(false);
  const locations = (validate.errors ?? []).map(errorLocation);
  expect(locations, m.rule).toContain(m.path);
  // Exactly one rule broken: no ajv error anywhere else.
  expect(locations.filter((l) => l !== m.path), `${m.rule}: ${JSON.stringify(validate.errors)}`).toEqual([]);
}

describe.each(cases)('$name', ({ schema, overrides, mustList }) => {
  const validate = judge(schema);

  test('every validBody sample validates', () => {
    fc.assert(
      fc.property(validBody(schema, { overrides }), (body) => {
        const ok = validate(body);
        expect(ok, JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  test('lists the documented rules', () => {
    const rules = listRules(schema, { overrides });
    for (const r of mustList) expect(rules).toContain(r);
    expect(new Set(rules).size).toBe(rules.length);
  });

  test('every mutant breaks exactly its rule, at its path (random mix)', () => {
    fc.assert(
      fc.property(singleRuleMutants(schema, { overrides }), (m) => {
        expect(m.rule).toBe(`${m.kind}:${m.path}`);
        expectMutantRejected(validate, m);
      }),
      { numRuns: 150 },
    );
  });

  test('every listed rule is reachable and judged by ajv', () => {
    for (const rule of listRules(schema, { overrides })) {
      for (const m of fc.sample(singleRuleMutants(schema, { overrides, rules: [rule] }), { seed: 17, numRuns: 5 })) {
        expect(m.rule).toBe(rule);
        expectMutantRejected(validate, m);
      }
    }
  });
});

describe('overrides', () => {
  test('documents in valid PIX charges keep their check digits (schema cannot express them)', () => {
    fc.assert(
      fc.property(validBody(pixChargeSchema, { overrides: { customer: pixCustomer() } }), (body) => {
        const c = (body as { customer: { documentType: string; document: string } }).customer;
        expect(c.documentType === 'cpf' ? buCpf(c.document) : buCnpj(c.document, { version: 2 })).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  test('array elements are addressed with *', () => {
    const bodies = fc.sample(validBody(pixChargeSchema, { overrides: { customer: pixCustomer(), 'items.*.title': fc.constant('T-shirt') } }), { seed: 4, numRuns: 60 });
    const titles = bodies.flatMap((b) => ((b as { items?: Array<{ title: string }> }).items ?? []).map((i) => i.title));
    expect(titles.length).toBeGreaterThan(0);
    expect(new Set(titles)).toEqual(new Set(['T-shirt']));
  });

  test('mutants below an override that omits the container still break their rule', () => {
    // pixCustomer() without billingAddress: the mutant must fill it in from the schema.
    const validate = judge(pixChargeSchema);
    const rules = ['wrong-type:customer.billingAddress.street'];
    for (const m of fc.sample(singleRuleMutants(pixChargeSchema, { overrides: { customer: pixCustomer({ optionalFields: 'none' }) }, rules }), { seed: 1, numRuns: 10 })) {
      expectMutantRejected(validate, m);
    }
  });
});

describe('contractOverrides', () => {
  test('PIX charge: splits omitted without a platform e-mail, else summing to at most 100 %', () => {
    const validate = judge(pixChargeSchema);
    for (const b of fc.sample(validBody(pixChargeSchema, { overrides: contractOverrides('gateway.pixCharge') }), { seed: 8, numRuns: 50 })) {
      expect(validate(b)).toBe(true);
      expect(b).not.toHaveProperty('splits');
    }
    const withSplits = fc.sample(validBody(pixChargeSchema, { overrides: contractOverrides('gateway.pixCharge', { splitEmail: 'split@example.com' }) }), { seed: 8, numRuns: 50 });
    for (const b of withSplits) {
      expect(validate(b), JSON.stringify(validate.errors)).toBe(true);
      const splits = (b as { splits?: Array<{ email: string; percentage: number }> }).splits ?? [];
      const hundredths = splits.reduce((a, x) => a + Math.round(x.percentage * 100), 0);
      expect(hundredths).toBeLessThanOrEqual(10000);
      expect(splits.every((x) => x.email === 'split@example.com')).toBe(true);
    }
    expect(withSplits.some((b) => 'splits' in (b as object))).toBe(true);
  });

  test('OMIT never leaks into a body and mutants below an omitted property still fill it in', () => {
    const overrides = contractOverrides('gateway.pixCharge');
    const validate = judge(pixChargeSchema);
    for (const m of fc.sample(singleRuleMutants(pixChargeSchema, { overrides, rules: ['below-minimum:splits.0.percentage'] }), { seed: 3, numRuns: 10 })) {
      expect(JSON.stringify(m.body)).not.toContain('Symbol');
      expectMutantRejected(validate, m);
    }
    expect(typeof OMIT).toBe('symbol');
  });

  test('every operation has overrides; unknown operations throw', () => {
    for (const op of ['gateway.pixCharge', 'gateway.pixTransfer', 'gateway.card', 'gateway.webhook', 'partner.pixCharge'] as const) {
      expect(Object.keys(contractOverrides(op)).length).toBeGreaterThan(0);
    }
    expect(() => contractOverrides('gateway.boleto' as never)).toThrow(/^generators\.contractOverrides:/);
  });
});

describe('constraints', () => {
  test('unsupported schemas and unknown rules throw generators.bodies:', () => {
    expect(() => validBody({ type: 'string', format: 'ipv6' })).toThrow(/^generators\.bodies:/);
    expect(() => validBody({ type: 'integer', multipleOf: 5 })).toThrow(/^generators\.bodies:/);
    expect(() => validBody({ $ref: 'other.json#/x' })).toThrow(/^generators\.bodies:/);
    expect(() => validBody({ $ref: '#/$defs/missing' })).toThrow(/^generators\.bodies:/);
    expect(() => singleRuleMutants(partnerChargeSchema, { rules: ['too-long:nope'] })).toThrow(/^generators\.bodies:/);
    expect(() => singleRuleMutants({ type: 'object', properties: { a: {} } })).toThrow(/^generators\.bodies:/);
  });
  test('resolvePointer decodes ~1 and ~0', () => {
    expect(resolvePointer({ a: { 'b/c': { 'd~e': 1 } } }, '#/a/b~1c/d~0e')).toBe(1);
  });
});

// The real specs (written by another engineer): run the converter on every JSON request body.
const SPECS = [
  { file: '../specs/gateway.openapi.yaml', urn: 'urn:paygate-conformance:test:gateway' },
  { file: '../specs/partner.openapi.yaml', urn: 'urn:paygate-conformance:test:partner' },
];
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-requirement'];

/** Operations whose contract-level overrides apply (fields the schema cannot express). */
const SPEC_OPERATIONS: Record<string, ContractOperation> = {
  'POST /api/v1/pix/in/qrcode': 'gateway.pixCharge',
  'POST /api/v1/pix/out/pixkey': 'gateway.pixTransfer',
  'POST /api/v1/card': 'gateway.card',
  'POST /api/v1/webhook': 'gateway.webhook',
  'POST /business/pix-charges': 'partner.pixCharge',
  'POST /v1/business/pix-charges': 'partner.pixCharge',
};

for (const spec of SPECS) {
  const path = fileURLToPath(new URL(spec.file, import.meta.url));
  const exists = existsSync(path);
  describe(`spec ${spec.file}`, () => {
    it.skipIf(!exists)('validBody and singleRuleMutants on every request body, judged by ajv', () => {
      const doc = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      const ajv = makeAjv(false);
      for (const k of OPENAPI_KEYWORDS) if (!ajv.getKeyword(k)) ajv.addKeyword(k);
      ajv.addSchema({ ...doc, $id: spec.urn });
      const paths = doc.paths as Record<string, Record<string, unknown>>;
      let checked = 0;
      for (const [route, item] of Object.entries(paths)) {
        for (const method of Object.keys(item)) {
          const pointer = ['paths', route, method, 'requestBody', 'content', 'application/json', 'schema'].map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'));
          const ref = `#/${pointer.join('/')}`;
          let schema: unknown;
          try {
            schema = resolvePointer(doc, ref);
          } catch {
            continue; // no JSON request body
          }
          const key = `${method.toUpperCase()} ${route}`;
          const operation = SPEC_OPERATIONS[key];
          const overrides = operation ? contractOverrides(operation, { splitEmail: 'split@example.com' }) : {};
          const validate = ajv.compile({ $ref: `${spec.urn}${ref}` });
          const arb: Arbitrary<unknown> = validBody(schema as JsonSchema, { root: doc, overrides });
          for (const body of fc.sample(arb, { seed: 1, numRuns: 40 })) {
            expect(validate(body), `${key}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(body)}`).toBe(true);
          }
          const rules = listRules(schema as JsonSchema, { root: doc, overrides });
          for (const rule of rules) {
            for (const m of fc.sample(singleRuleMutants(schema as JsonSchema, { root: doc, overrides, rules: [rule] }), { seed: 2, numRuns: 3 })) {
              expect(validate(m.body), `${key} ${m.rule}: ${JSON.stringify(m.body)}`).toBe(false);
              expect((validate.errors ?? []).map(errorLocation), `${key} ${m.rule}`).toContain(m.path);
            }
          }
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  });
}
