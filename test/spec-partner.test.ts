// specs/partner.openapi.yaml: a valid OpenAPI 3.1 document, every documented route/status present,
// every schema compiles under ajv 2020 strict mode, examples validate and near-misses fail.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const SPEC_PATH = fileURLToPath(new URL('../specs/partner.openapi.yaml', import.meta.url));
const URN = 'urn:paygate-conformance:partner-openapi';

type Json = Record<string, unknown>;
const spec = parse(readFileSync(SPEC_PATH, 'utf8')) as Json;

// ajv-formats is CommonJS; under NodeNext its default import can arrive as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value as Json;
}

/** Rewrites document-relative `$ref`s to the URN under which the whole document is registered. */
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${URN}${value}` : absoluteRefs(value),
    ]),
  );
}

function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI-only and project keywords, plus the document's top-level fields (it is registered whole).
  ajv.addVocabulary(['x-requirement', 'x-body', 'example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'webhooks', 'components']);
  ajv.addSchema({ ...structuredClone(spec), $id: URN });
  return ajv;
}

const ajv = makeAjv();
const componentSchemas = object(object(spec['components'], 'components')['schemas'], 'components.schemas');
const validators = new Map<string, ValidateFunction>();
function validatorFor(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    if (!(name in componentSchemas)) throw new Error(`no schema ${name}`);
    validate = ajv.compile({ $ref: `${URN}#/components/schemas/${name}` });
    validators.set(name, validate);
  }
  return validate;
}
const valid = (name: string, data: unknown): boolean => validatorFor(name)(data);

/** Every inline `schema` of a parameter, header or media type in paths, webhooks and components. */
function inlineSchemas(node: unknown, at: string): { at: string; schema: unknown }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => inlineSchemas(item, `${at}/${index}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'schema' ? [{ at: `${at}/schema`, schema: value }] : inlineSchemas(value, `${at}/${key}`),
  );
}

/** A deep copy of the first `examples` entry of a component schema. */
function firstExample(name: string): Json {
  const examples = object(componentSchemas[name], name)['examples'];
  if (!Array.isArray(examples)) throw new Error(`${name} has no examples`);
  return structuredClone(object(examples[0], `${name}.examples[0]`));
}
const exampleCharge = (): Json => firstExample('PixCharge');
const exampleStatement = (): Json => firstExample('FinanceStatement');
const examplePaidEvent = (): Json => firstExample('PixPaidEvent');

describe('partner.openapi.yaml is a valid OpenAPI 3.1 document', () => {
  it('passes swagger-parser validation', async () => {
    const api = await SwaggerParser.validate(SPEC_PATH);
    expect((api as { openapi?: string }).openapi).toBe('3.1.0');
  });

  it('states its own version and that the contract version is the /v1 segment', () => {
    const info = object(spec['info'], 'info');
    expect(info['version']).toBe('1.0.0');
    expect(String(info['description'])).toMatch(/\/v1/);
    const servers = spec['servers'] as Json[];
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) expect(String(server['url'])).toMatch(/\/v1$/);
  });

  it('secures every route with the bearer API key', () => {
    expect(spec['security']).toEqual([{ bearer: [] }]);
    const bearer = object(object(object(spec['components'], 'c')['securitySchemes'], 's')['bearer'], 'bearer');
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('documented routes, methods and statuses', () => {
  // Success statuses the contract does not name are `2XX`; only creation documents 200.
  const expected: [method: string, path: string, statuses: string[]][] = [
    ['post', '/business/pix-charges', ['200', '401', '409', '422']],
    ['get', '/business/pix-charges', ['2XX', '401', '422']],
    ['get', '/business/pix-charges/{id}', ['2XX', '401', '404']],
    ['post', '/business/pix-charges/{id}/cancel', ['2XX', '401', '404', '409']],
    ['post', '/business/pix-charges/{id}/pay', ['2XX', '401', '403', '404', '409']],
    ['get', '/business/finance', ['2XX', '401']],
  ];
  const paths = object(spec['paths'], 'paths');

  it.each(expected)('%s %s', (method, path, statuses) => {
    const operation = object(object(paths[path], path)[method], `${method} ${path}`);
    const responses = object(operation['responses'], 'responses');
    expect(Object.keys(responses).sort()).toEqual([...statuses].sort());
  });

  it('documents no other route (payouts are not available)', () => {
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(object(item, path))
        .filter((key) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(key))
        .map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(expected.map(([method, path]) => `${method} ${path}`).sort());
    expect(Object.keys(paths).some((path) => path.includes('payouts'))).toBe(false);
  });

  it('takes an optional Idempotency-Key on creation and an optional status filter on the list', () => {
    const idem = object(object(object(spec['components'], 'c')['parameters'], 'p')['IdempotencyKey'], 'idem');
    expect(idem).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    const list = object(object(paths['/business/pix-charges'], 'list')['get'], 'get');
    const status = (list['parameters'] as Json[])[0];
    expect(status).toMatchObject({ name: 'status', in: 'query', required: false });
  });

  it('declares the three signed webhooks', () => {
    const webhooks = object(spec['webhooks'], 'webhooks');
    expect(Object.keys(webhooks).sort()).toEqual(['business.pix.canceled', 'business.pix.created', 'business.pix.paid']);
    const signature = object(object(object(spec['components'], 'c')['parameters'], 'p')['ServiceSignature'], 'sig');
    expect(signature).toMatchObject({ name: 'X-Service-Signature', in: 'header', required: true });
    for (const name of Object.keys(webhooks)) {
      const post = object(object(webhooks[name], name)['post'], `${name}.post`);
      expect(post['parameters']).toEqual([{ $ref: '#/components/parameters/ServiceSignature' }]);
    }
  });
});

describe('every schema compiles with ajv 2020 in strict mode', () => {
  it.each(Object.keys(componentSchemas))('components.schemas.%s', (name) => {
    expect(() => validatorFor(name)).not.toThrow();
  });

  const inline = inlineSchemas({ paths: spec['paths'], webhooks: spec['webhooks'], components: spec['components'] }, '');
  it('finds the inline schemas', () => expect(inline.length).toBeGreaterThan(15));
  it.each(inline.map(({ at, schema }) => [at, schema] as const))('%s', (_at, schema) => {
    expect(() => ajv.compile(object(absoluteRefs(schema), 'schema'))).not.toThrow();
  });
});

describe('examples validate', () => {
  it.each(Object.entries(componentSchemas).filter(([, schema]) => Array.isArray((schema as Json)['examples'])))(
    'components.schemas.%s examples',
    (name, schema) => {
      for (const example of (schema as Json)['examples'] as unknown[]) {
        const validate = validatorFor(name);
        expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      }
    },
  );

  it('the example statement has balanced postings', () => {
    for (const posting of exampleStatement()['transactions'] as { entries: Json[] }[]) {
      const sum = (direction: string) =>
        posting.entries.filter((e) => e['direction'] === direction).reduce((n, e) => n + Number(e['amount_cents']), 0);
      expect(sum('debit')).toBe(sum('credit'));
    }
  });

  it('allows what the contract does not forbid', () => {
    expect(valid('PixCharge', { ...exampleCharge(), vendor_extra: { anything: true } })).toBe(true);
    const { e2e_id: _e, provider: _p, description: _d, external_ref: _x, customer_email: _c, ...bare } = exampleCharge();
    expect(valid('PixCharge', bare)).toBe(true);
    expect(valid('PixCharge', { ...exampleCharge(), status: 'paid', e2e_id: 'E1234', provider: 'acme' })).toBe(true);
    expect(valid('PixCharge', { ...exampleCharge(), created_at: '2026-12-01T13:00:00.123+00:00' })).toBe(true);
    expect(valid('PixChargeLookup', { status: 'expired' })).toBe(true);
    const { reserve_cents: _r, ...noReserve } = exampleStatement();
    expect(valid('FinanceStatement', noReserve)).toBe(true);
    expect(valid('FinanceStatement', { ...exampleStatement(), reserve_cents: null, transactions: [] })).toBe(true);
    expect(valid('FinanceStatement', { ...exampleStatement(), transactions: Array(50).fill(exampleStatement()['transactions'] as unknown[]).map((t) => (t as Json[])[0]) })).toBe(true);
    expect(valid('PixCreatedEvent', { ...examplePaidEvent(), type: 'business.pix.created', data: { amount_cents: 1500, e2e_id: null } })).toBe(true);
    expect(valid('PixCanceledEvent', { ...examplePaidEvent(), type: 'business.pix.canceled', created_at: '2026-12-01T10:05:00-03:00' })).toBe(true);
    expect(valid('CreatePixChargeRequest', { amount_cents: 1, description: 'x'.repeat(300), external_ref: 'r'.repeat(120) })).toBe(true);
    expect(valid('CreatePixChargeRequest', { amount_cents: 1, expires_in_seconds: 60 })).toBe(true);
    expect(valid('CreatePixChargeRequest', { amount_cents: 1, expires_in_seconds: 86400 })).toBe(true);
    expect(valid('AnyJson', [1, 'two', null])).toBe(true);
  });
});

describe('near-misses fail', () => {
  it.each<[string, string, () => unknown]>([
    ['amount_cents as a string', 'PixCharge', () => ({ ...exampleCharge(), amount_cents: '1500' })],
    ['amount_cents zero', 'PixCharge', () => ({ ...exampleCharge(), amount_cents: 0 })],
    ['an unknown status', 'PixCharge', () => ({ ...exampleCharge(), status: 'PAID' })],
    ['a missing qr_code', 'PixCharge', () => ({ ...exampleCharge(), qr_code: undefined })],
    ['a qr_code that is not an EMV payload', 'PixCharge', () => ({ ...exampleCharge(), qr_code: 'data:image/png;base64,AAAA' })],
    ['a non-UTC created_at', 'PixCharge', () => ({ ...exampleCharge(), created_at: '2026-12-01T10:00:00-03:00' })],
    ['a created_at without zone', 'PixCharge', () => ({ ...exampleCharge(), created_at: '2026-12-01T13:00:00' })],
    ['a lookup without status', 'PixChargeLookup', () => ({ id: 'chg_1' })],
    ['a missing currency', 'FinanceStatement', () => ({ ...exampleStatement(), currency: undefined })],
    ['a currency other than BRL', 'FinanceStatement', () => ({ ...exampleStatement(), currency: 'USD' })],
    ['available_cents as a float', 'FinanceStatement', () => ({ ...exampleStatement(), available_cents: 14.55 })],
    ['direction "DEBIT"', 'FinanceStatement', () => {
      const statement = exampleStatement();
      ((statement['transactions'] as Json[])[0]!['entries'] as Json[])[0]!['direction'] = 'DEBIT';
      return statement;
    }],
    ['more than 50 postings', 'FinanceStatement', () => {
      const statement = exampleStatement();
      const posting = (statement['transactions'] as Json[])[0];
      return { ...statement, transactions: Array.from({ length: 51 }, () => posting) };
    }],
    ['a posting without entries', 'FinanceStatement', () => {
      const statement = exampleStatement();
      delete (statement['transactions'] as Json[])[0]!['entries'];
      return statement;
    }],
    ['a 301-character description', 'CreatePixChargeRequest', () => ({ amount_cents: 100, description: 'x'.repeat(301) })],
    ['a 121-character external_ref', 'CreatePixChargeRequest', () => ({ amount_cents: 100, external_ref: 'r'.repeat(121) })],
    ['a request without amount_cents', 'CreatePixChargeRequest', () => ({ description: 'no amount' })],
    ['a negative amount', 'CreatePixChargeRequest', () => ({ amount_cents: -1 })],
    ['a fractional amount', 'CreatePixChargeRequest', () => ({ amount_cents: 10.5 })],
    ['expires_in_seconds below 60', 'CreatePixChargeRequest', () => ({ amount_cents: 100, expires_in_seconds: 59 })],
    ['expires_in_seconds above 86400', 'CreatePixChargeRequest', () => ({ amount_cents: 100, expires_in_seconds: 86401 })],
    ['an event without data', 'PixPaidEvent', () => ({ ...examplePaidEvent(), data: undefined })],
    ['a paid event typed as created', 'PixPaidEvent', () => ({ ...examplePaidEvent(), type: 'business.pix.created' })],
    ['an event amount as a string', 'PixPaidEvent', () => ({ ...examplePaidEvent(), data: { amount_cents: '1500' } })],
    ['an error without detail', 'Error', () => ({ message: 'nope' })],
    ['an error detail that is not a string', 'Error', () => ({ detail: { field: 'amount_cents' } })],
  ])('%s', (_label, name, make) => {
    // JSON round trip drops the `undefined` properties used above to delete a field.
    const data: unknown = JSON.parse(JSON.stringify(make()));
    expect(valid(name, data)).toBe(false);
  });
});

describe('X-Service-Signature header schema', () => {
  const parameters = object(object(spec['components'], 'c')['parameters'], 'p');
  const validate = ajv.compile(object(absoluteRefs(object(parameters['ServiceSignature'], 'sig')['schema']), 's'));
  const hex = 'a'.repeat(32) + 'B'.repeat(32);

  it('accepts t=<epoch>,v1=<64 hex> in either case', () => {
    expect(validate(`t=1767225600,v1=${hex}`)).toBe(true);
    expect(validate(`t=1767225600,v1=${hex.toLowerCase()}`)).toBe(true);
  });

  it.each([
    ['a short digest', `t=1767225600,v1=${hex.slice(1)}`],
    ['a non-hex digest', `t=1767225600,v1=${'g'.repeat(64)}`],
    ['a missing timestamp', `v1=${hex}`],
    ['the parts swapped', `v1=${hex},t=1767225600`],
    ['a base64 digest', `t=1767225600,v1=${Buffer.alloc(32, 7).toString('base64')}`],
  ])('rejects %s', (_label, header) => {
    expect(validate(header)).toBe(false);
  });
});
