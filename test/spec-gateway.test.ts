/**
 * The gateway OpenAPI document (specs/gateway.openapi.yaml) and the gateway half of the requirement
 * catalogue (specs/requirements.yaml) agree with the contract and with each other:
 * - the document is valid OpenAPI 3.1 and names every documented route, method and status;
 * - every JSON Schema in it compiles with ajv (2020-12, strict), which swagger-parser does not check;
 * - every `x-requirement` resolves to a catalogue entry, and every constrained schema names one;
 * - documented examples validate, and near-misses do not.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { REQUIREMENT_KEYS } from '../harness/contract/requirements.js';

const specPath = fileURLToPath(new URL('../specs/gateway.openapi.yaml', import.meta.url));
const catalogPath = fileURLToPath(new URL('../specs/requirements.yaml', import.meta.url));
const SPEC_ID = 'urn:paygate-conformance:gateway-openapi';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface CatalogueEntry {
  id: string;
  api: string;
  section: string;
  quote: string;
  kind: string;
  reason?: string;
  ambiguity?: string;
  severity?: string;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(value: Json | undefined, ...keys: string[]): Json | undefined {
  let current = value;
  for (const key of keys) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

const loadSpec = (): JsonObject => parse(readFileSync(specPath, 'utf8')) as JsonObject;
const spec = loadSpec();
const catalogue = (parse(readFileSync(catalogPath, 'utf8')) as CatalogueEntry[]).filter((entry) => entry.id.startsWith('GW-'));
const catalogueIds = new Set(catalogue.map((entry) => entry.id));

/** JSON-pointer escaping (RFC 6901) for building `$ref`s into the registered document. */
const escapePointer = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

// ajv-formats is CommonJS (`module.exports = plugin; exports.default = plugin`): under NodeNext the
// default import is module.exports, whose `.default` is the plugin.
const addFormats = addFormatsModule.default;

function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI-only keywords and our own annotation, as vocabulary (annotations: no validation).
  for (const keyword of ['x-requirement', 'x-body', 'example', 'discriminator', 'xml', 'externalDocs']) {
    ajv.addKeyword({ keyword });
  }
  // ajv compiles the root of a registered document before resolving a pointer into it, so the
  // OpenAPI document's own top-level fields must be known (as annotations) too.
  for (const keyword of ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'paths', 'webhooks', 'components']) {
    ajv.addKeyword({ keyword });
  }
  // The whole document is registered once under a URN; schemas are compiled as refs into it so
  // its internal `#/components/...` refs resolve. It is not itself a schema: skip meta-validation.
  ajv.addSchema({ ...loadSpec(), $id: SPEC_ID } as object, undefined, undefined, false);
  return ajv;
}

const ajv = makeAjv();
const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${SPEC_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}
const schemaPointer = (name: string): string => `/components/schemas/${escapePointer(name)}`;
const validatorFor = (name: string): ValidateFunction => validatorAt(schemaPointer(name));

/** Every place where the document holds a JSON Schema (as JSON pointers), outside components.schemas. */
function schemaLocations(): string[] {
  const found: string[] = [];
  const visitContent = (content: Json | undefined, base: string): void => {
    if (!isObject(content)) return;
    for (const [mediaType, media] of Object.entries(content)) {
      if (isObject(media) && media.schema !== undefined) found.push(`${base}/content/${escapePointer(mediaType)}/schema`);
    }
  };
  const visitOperation = (operation: Json | undefined, base: string): void => {
    if (!isObject(operation)) return;
    const body = operation.requestBody;
    if (isObject(body) && body.$ref === undefined) visitContent(body.content, `${base}/requestBody`);
    for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
      if (isObject(response) && response.$ref === undefined) visitContent(response.content, `${base}/responses/${status}`);
    }
    const parameters = operation.parameters;
    if (Array.isArray(parameters)) {
      parameters.forEach((parameter, index) => {
        if (isObject(parameter) && parameter.schema !== undefined) found.push(`${base}/parameters/${index}/schema`);
      });
    }
  };
  for (const group of ['paths', 'webhooks']) {
    for (const [route, item] of Object.entries(isObject(spec[group]) ? spec[group] : {})) {
      if (!isObject(item)) continue;
      const itemBase = `/${group}/${escapePointer(route)}`;
      visitOperation({ parameters: item.parameters ?? [] }, itemBase);
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) visitOperation(item[method], `${itemBase}/${method}`);
    }
  }
  const components = spec.components;
  for (const [name, response] of Object.entries(isObject(child(components, 'responses')) ? (child(components, 'responses') as JsonObject) : {})) {
    visitContent(child(response, 'content'), `/components/responses/${escapePointer(name)}`);
  }
  for (const [name, body] of Object.entries(isObject(child(components, 'requestBodies')) ? (child(components, 'requestBodies') as JsonObject) : {})) {
    visitContent(child(body, 'content'), `/components/requestBodies/${escapePointer(name)}`);
  }
  for (const [name, parameter] of Object.entries(isObject(child(components, 'parameters')) ? (child(components, 'parameters') as JsonObject) : {})) {
    if (child(parameter, 'schema') !== undefined) found.push(`/components/parameters/${escapePointer(name)}/schema`);
  }
  return found;
}

/** Calls `visit` on every object node, skipping literal values (examples, defaults, consts, enums). */
function walk(node: Json | undefined, path: string, visit: (node: JsonObject, path: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => walk(item, `${path}/${index}`, visit));
    return;
  }
  if (!isObject(node)) return;
  visit(node, path);
  for (const [key, value] of Object.entries(node)) {
    if (['examples', 'example', 'default', 'const', 'enum'].includes(key)) continue;
    walk(value, `${path}/${escapePointer(key)}`, visit);
  }
}

/**
 * Every route and method the contract names, with the statuses it documents for it (route text,
 * plus the Errors table: 403/404/422 where the table's meaning applies). `2XX` where the contract
 * leaves the success status unstated ("Response body: not shown").
 */
const DOCUMENTED: Record<string, Record<string, string[]>> = {
  '/api/auth': { post: ['200', '401', '429'] },
  '/api/v1/pix/in/qrcode': { post: ['200', '400', '401', '429'] },
  '/api/v1/pix/in/qrcode/{transactionId}': { get: ['200', '401', '404', '429'] },
  '/api/v1/pix/in/qrcode/{transactionId}/pay': { post: ['200', '400', '401', '403', '404', '429'] },
  '/api/v1/pix/out/pixkey': { post: ['200', '400', '401', '409', '429'] },
  '/api/v1/pix/out/pixkey/{transferId}': { get: ['200', '401', '404', '429'] },
  '/api/v1/pix/out/pixkey/{transferId}/complete': { post: ['200', '400', '401', '403', '404', '429'] },
  '/api/v1/card': { post: ['201', '200', '400', '401', '429'] },
  '/api/v1/transactions/{transactionId}': { get: ['2XX', '401', '429'] },
  '/api/v1/balance': { get: ['200', '401', '429'] },
  '/api/v1/webhook': { get: ['2XX', '401', '429'], post: ['200', '401', '429'] },
  '/api/v1/webhook/{id}': { delete: ['2XX', '401', '429'] },
};

const EVENTS = [
  'transaction_created',
  'transaction_paid',
  'transaction_refunded',
  'transaction_updated',
  'infraction',
  'transfer_created',
  'transfer_updated',
  'transfer_completed',
  'transfer_canceled',
];

function resolveLocal(ref: Json | undefined): Json | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<Json | undefined>((node, key) => child(node, key), spec);
}

describe('gateway OpenAPI document', () => {
  it('passes swagger-parser validation (OpenAPI 3.1.0, info.version 1.0.0)', async () => {
    // validate() mutates its argument: hand it the path.
    await expect(SwaggerParser.validate(specPath)).resolves.toBeDefined();
    expect(spec.openapi).toBe('3.1.0');
    expect(child(spec, 'info', 'version')).toBe('1.0.0');
  });

  it('names exactly the documented routes, each method with its documented statuses', () => {
    const paths = spec.paths as JsonObject;
    expect(Object.keys(paths).sort()).toEqual(Object.keys(DOCUMENTED).sort());
    for (const [route, methods] of Object.entries(DOCUMENTED)) {
      for (const [method, statuses] of Object.entries(methods)) {
        const responses = child(paths, route, method, 'responses');
        expect(isObject(responses), `${method.toUpperCase()} ${route}`).toBe(true);
        for (const status of statuses) {
          expect(Object.keys(responses as JsonObject), `${method.toUpperCase()} ${route} ${status}`).toContain(status);
        }
      }
    }
  });

  it('lets every route answer 401 and 429, and gives 429 an open body (GW-ANY-401-429)', () => {
    for (const [route, methods] of Object.entries(DOCUMENTED)) {
      for (const method of Object.keys(methods)) {
        const responses = child(spec, 'paths', route, method, 'responses') as JsonObject;
        expect(responses['401'], `${method} ${route} 401`).toBeDefined();
        expect(child(responses, '429', '$ref')).toBe('#/components/responses/RateLimited');
      }
    }
    expect(validatorFor('NotShown')('anything at all')).toBe(true);
  });

  it('uses Basic only at /api/auth and Bearer elsewhere; requires x-idempotency-key on transfers', () => {
    expect(child(spec, 'components', 'securitySchemes', 'basicAuth', 'scheme')).toBe('basic');
    expect(child(spec, 'components', 'securitySchemes', 'bearerAuth', 'scheme')).toBe('bearer');
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    expect(child(spec, 'paths', '/api/auth', 'post', 'security')).toEqual([{ basicAuth: [] }]);
    for (const [route, methods] of Object.entries(DOCUMENTED)) {
      if (route === '/api/auth') continue;
      for (const method of Object.keys(methods)) {
        expect(child(spec, 'paths', route, method, 'security'), `${method} ${route}`).toBeUndefined();
      }
    }
    const parameters = child(spec, 'paths', '/api/v1/pix/out/pixkey', 'post', 'parameters') as Json[];
    const idempotency = parameters.map((parameter) => resolveLocal(child(parameter, '$ref')) ?? parameter);
    expect(idempotency).toContainEqual(expect.objectContaining({ name: 'x-idempotency-key', in: 'header', required: true }));
  });

  it('uses NOT_FOUND for 404 where the contract shows it, and IDEMPOTENCY_CONFLICT for 409', () => {
    // The `{error: NOT_FOUND, message}` body is stated for the two lookups only; elsewhere either shape is fair.
    const notFoundShown = new Set(['get /api/v1/pix/in/qrcode/{transactionId}', 'get /api/v1/pix/out/pixkey/{transferId}']);
    for (const [route, methods] of Object.entries(DOCUMENTED)) {
      for (const method of Object.keys(methods)) {
        const notFound = child(spec, 'paths', route, method, 'responses', '404');
        if (notFound === undefined) continue;
        const expected = notFoundShown.has(`${method} ${route}`) ? 'NotFound' : 'NotFoundEitherShape';
        expect(child(notFound, '$ref'), `${method} ${route}`).toBe(`#/components/responses/${expected}`);
      }
    }
    const conflict = child(spec, 'paths', '/api/v1/pix/out/pixkey', 'post', 'responses', '409', 'content', 'application/json', 'schema', '$ref');
    expect(conflict).toBe('#/components/schemas/IdempotencyConflictError');
    expect(validatorFor('IdempotencyConflictError')({ error: 'IDEMPOTENCY_CONFLICT', message: 'reused key' })).toBe(true);
    expect(validatorFor('IdempotencyConflictError')({ error: 'NOT_FOUND', message: 'x' })).toBe(false);
  });

  it('describes every event as a webhook with the callback headers and a JSON payload', () => {
    const webhooks = spec.webhooks as JsonObject;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const operation = child(webhooks, event, 'post');
      const parameters = (child(operation, 'parameters') as Json[]).map((p) => resolveLocal(child(p, '$ref')) ?? p);
      const names = parameters.map((parameter) => child(parameter, 'name'));
      expect(names, event).toEqual(expect.arrayContaining(['User-Agent', 'ServiceGateway-Signature']));
      const body = resolveLocal(child(operation, 'requestBody', '$ref'));
      expect(child(body, 'content', 'application/json', 'schema'), event).toBeDefined();
    }
  });

  it('compiles every component schema with ajv 2020 in strict mode', () => {
    const names = Object.keys(child(spec, 'components', 'schemas') as JsonObject);
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) expect(() => validatorFor(name), name).not.toThrow();
  });

  it('compiles every request, response, parameter and header schema with ajv 2020 in strict mode', () => {
    const locations = schemaLocations();
    expect(locations.length).toBeGreaterThan(40);
    for (const pointer of locations) expect(() => validatorAt(pointer), pointer).not.toThrow();
  });

  it('validates every example a schema documents', () => {
    let checked = 0;
    for (const pointer of [...Object.keys(child(spec, 'components', 'schemas') as JsonObject).map(schemaPointer), ...schemaLocations()]) {
      const schema = pointer
        .slice(1)
        .split('/')
        .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<Json | undefined>((node, key) => child(node, key), spec);
      const examples = child(schema, 'examples');
      if (!Array.isArray(examples)) continue;
      const validate = validatorAt(pointer);
      for (const example of examples) {
        checked += 1;
        expect(validate(example), `${pointer}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(15);
  });
});

describe('gateway requirement catalogue', () => {
  it('has well-formed, unique ids and complete entries', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(110);
    const seen = new Set<string>();
    for (const entry of catalogue) {
      expect(entry.id).toMatch(/^GW-[A-Z0-9]+(-[A-Z0-9]+)*$/);
      expect(seen.has(entry.id), `duplicate ${entry.id}`).toBe(false);
      seen.add(entry.id);
      expect(entry.api, entry.id).toBe('gateway');
      expect(entry.section.length, entry.id).toBeGreaterThan(0);
      expect(entry.quote.length, entry.id).toBeGreaterThan(0);
      expect(['checkable', 'timer', 'unobservable'], entry.id).toContain(entry.kind);
      if (entry.kind === 'unobservable') expect(entry.reason?.length ?? 0, `${entry.id} needs a reason`).toBeGreaterThan(0);
      else expect(entry.reason, `${entry.id}: reason is for unobservable entries`).toBeUndefined();
      if (entry.severity !== undefined) expect(['critical', 'normal', 'minor'], entry.id).toContain(entry.severity);
      if (entry.ambiguity !== undefined) expect(entry.ambiguity.length, entry.id).toBeGreaterThan(0);
      const keys = Object.keys(entry).filter((key) => !REQUIREMENT_KEYS.includes(key));
      expect(keys, entry.id).toEqual([]);
    }
  });

  it('marks token expiry as a timer and the README ambiguities as ambiguous', () => {
    const byId = new Map(catalogue.map((entry) => [entry.id, entry]));
    expect(byId.get('GW-AUTH-EXPIRY')?.kind).toBe('timer');
    for (const id of ['GW-PIXIN-DESC-MAX', 'GW-PIXOUT-DESC-MAX', 'GW-PIXIN-DOC-DIGITS', 'GW-PIXIN-DOC-CNPJ-ALNUM', 'GW-WH-SIGNATURE-HMAC', 'GW-CARD-SUCCESS-STATUS']) {
      expect(byId.get(id)?.ambiguity, id).toBeDefined();
    }
  });

  it('resolves every x-requirement in the document to a catalogue entry', () => {
    const referenced = new Set<string>();
    walk(spec, '', (node, path) => {
      const value = node['x-requirement'];
      if (value === undefined) return;
      const ids = Array.isArray(value) ? value : [value];
      for (const id of ids) {
        expect(typeof id, path).toBe('string');
        expect(catalogueIds.has(id as string), `${path}: unknown requirement ${String(id)}`).toBe(true);
        referenced.add(id as string);
      }
    });
    expect(referenced.size).toBeGreaterThan(100);
  });

  it('names a requirement on every constrained schema node', () => {
    const constraintKeywords = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'enum', 'const', 'format'];
    const missing: string[] = [];
    walk(spec, '', (node, path) => {
      const constrained = constraintKeywords.some((keyword) => keyword in node) || Array.isArray(node.required);
      if (constrained && node['x-requirement'] === undefined) missing.push(path);
    });
    expect(missing).toEqual([]);
  });
});

describe('gateway schemas accept the documented shapes and reject near-misses', () => {
  const pixChargeCreated = {
    success: true,
    message: 'PIX charge created',
    data: {
      id: 'b3c6a7e0-1f2d-4c5b-8a9e-0d1c2b3a4f5e',
      pix: { emv: '000201010212...6304AABD', qrCode: 'iVBORw0KGgo=' },
      status: 'pending',
      fees: 99,
    },
  };
  const transferLookup = {
    success: true,
    data: {
      id: 'tr_1',
      status: 'completed',
      amount: 500,
      netAmount: 450,
      fees: 50,
      pixKey: '+5511987654321',
      endToEndId: 'E12345678202611221016fedcba654321',
      createdAt: '2026-11-22T10:15:30Z',
      updatedAt: '2026-11-22T10:16:02.456-03:00',
      processedAt: '2026-11-22T10:16:02.456-03:00',
    },
  };
  const balance = { success: true, data: { pix: { balance: '10.50' }, pixBlocked: { balance: '0.00' }, reserve: { balance: '0.00' } } };
  const transactionPaid = {
    id: '0b6f2a8e-3c4d-4e5f-9a1b-2c3d4e5f6a7b',
    type: 'transaction',
    event: 'transaction_paid',
    scope: 'user',
    transaction: { id: 'tx_1', amount: 1050, status: 'paid', pix: { endToEndId: 'E1', payerInfo: { name: 'Maria', document: '52998224725' } } },
  };
  const transferCompleted = {
    id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
    type: 'transfer',
    event: 'transfer_completed',
    scope: 'user',
    transfer: { id: 'tr_1', amount: 500, status: 'paid', pix: { endToEndId: 'E2', creditorAccount: { name: 'Jose', document: null } } },
  };
  const clone = <T>(value: T): T => structuredClone(value);
  const signature = `t=1763806530,v1=${'0123456789abcdef'.repeat(4)}`;

  it('accepts a PIX charge creation response, and rejects it without pix.emv', () => {
    const validate = validatorFor('PixChargeEnvelope');
    expect(validate(pixChargeCreated), JSON.stringify(validate.errors)).toBe(true);
    const missing = clone(pixChargeCreated) as { data: { pix: Partial<typeof pixChargeCreated.data.pix> } };
    delete missing.data.pix.emv;
    expect(validate(missing)).toBe(false);
    expect(validate({ ...pixChargeCreated, data: { ...pixChargeCreated.data, status: 'approved' } })).toBe(false);
    expect(validate({ ...pixChargeCreated, data: { ...pixChargeCreated.data, fees: 0.99 } })).toBe(false);
    // "PNG image, base64": MIME-wrapped and URL-safe base64 are base64 too (the QR rule warns; issue 14)
    const withQr = (qrCode: string) => ({ ...pixChargeCreated, data: { ...pixChargeCreated.data, pix: { ...pixChargeCreated.data.pix, qrCode } } });
    expect(validate(withQr('iVBORw0K\r\nGgo='))).toBe(true);
    expect(validate(withQr('iVBORw0K_Ggo-'))).toBe(true);
    expect(validate(withQr('data:image/png;base64,iVBORw0KGgo='))).toBe(true);
    expect(validate(withQr('not base64!'))).toBe(false);
  });

  it('tolerates unknown fields everywhere ("not shown" parts stay open)', () => {
    expect(validatorFor('PixChargeEnvelope')({ ...pixChargeCreated, extra: { anything: 1 } })).toBe(true);
    expect(validatorFor('BalanceEnvelope')({ ...balance, data: { ...balance.data, other: { balance: 'n/a' } } })).toBe(true);
  });

  it('accepts a transfer lookup with endToEndId and ISO timestamps, and rejects near-misses', () => {
    const validate = validatorFor('PixTransferLookupEnvelope');
    expect(validate(transferLookup), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...transferLookup, data: { ...transferLookup.data, amount: '500' } })).toBe(false);
    expect(validate({ ...transferLookup, data: { ...transferLookup.data, createdAt: '22/11/2026 10:15' } })).toBe(false);
    const completedWithoutE2e = clone(transferLookup) as { data: Record<string, unknown> };
    delete completedWithoutE2e.data.endToEndId;
    expect(validate(completedWithoutE2e)).toBe(false);
    // Before completion endToEndId and processedAt are not shown: absence or null is tolerated.
    const processing = { ...transferLookup, data: { ...transferLookup.data, status: 'banking_processing', endToEndId: null, processedAt: null } };
    expect(validate(processing), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts the documented balance and rejects numbers and one-decimal strings', () => {
    const validate = validatorFor('BalanceEnvelope');
    expect(validate(balance), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...balance, data: { ...balance.data, pix: { balance: '-3.25' } } })).toBe(true);
    expect(validate({ ...balance, data: { ...balance.data, pix: { balance: 10.5 } } })).toBe(false);
    expect(validate({ ...balance, data: { ...balance.data, pix: { balance: '10.5' } } })).toBe(false);
    expect(validate({ ...balance, data: { ...balance.data, pix: { balance: '10,50' } } })).toBe(false);
    // "reserve.balance | held in risk reserve (if applicable)": absent or null where none applies (issue 14)
    const withoutReserve = clone(balance) as { data: Record<string, unknown> };
    delete withoutReserve.data.reserve;
    expect(validate(withoutReserve)).toBe(true);
    expect(validate({ ...balance, data: { ...balance.data, reserve: null } })).toBe(true);
    expect(validate({ ...balance, data: { ...balance.data, reserve: { balance: 1 } } })).toBe(false);
    const withoutBlocked = clone(balance) as { data: Record<string, unknown> };
    delete withoutBlocked.data.pixBlocked;
    expect(validate(withoutBlocked)).toBe(false);
  });

  it('accepts both error shapes and a NOT_FOUND error; rejects other shapes', () => {
    const notFound = validatorAt('/components/responses/NotFound/content/application~1json/schema');
    expect(notFound({ error: 'NOT_FOUND', message: 'Transaction not found' })).toBe(true);
    expect(notFound({ success: false, message: 'not found' })).toBe(false);
    expect(notFound({ error: 'NOT_FOUND' })).toBe(false);
    const errorBody = validatorFor('ErrorBody');
    expect(errorBody({ success: false, message: 'amountInCents must be at least 100' })).toBe(true);
    expect(errorBody({ error: 'VALIDATION', message: ['amountInCents must be at least 100'] })).toBe(true);
    expect(errorBody({ success: true, message: 'ok' })).toBe(false);
    expect(errorBody({ message: 'no shape' })).toBe(false);
  });

  it('accepts a card charge answered with 201 or 200, and rejects an undocumented status', () => {
    const card = { success: true, data: { id: 'ch_1', status: 'paid', card: { brand: 'PLACEHOLDER', last4: '0000' } } };
    for (const status of ['201', '200']) {
      const validate = validatorAt(`/paths/~1api~1v1~1card/post/responses/${status}/content/application~1json/schema`);
      expect(validate(card), status).toBe(true);
      expect(validate({ ...card, data: { ...card.data, status: 'approved' } }), status).toBe(false);
    }
  });

  it('accepts transaction and transfer webhook payloads, and rejects near-misses', () => {
    const paid = validatorFor('TransactionPaidEvent');
    expect(paid(transactionPaid), JSON.stringify(paid.errors)).toBe(true);
    expect(paid({ ...transactionPaid, transaction: { ...transactionPaid.transaction, amount: '1050' } })).toBe(false);
    expect(paid({ ...transactionPaid, scope: 'account' })).toBe(false);
    expect(paid({ ...transactionPaid, id: 'not-a-uuid' })).toBe(false);
    const noEvent = clone(transactionPaid) as Record<string, unknown>;
    delete noEvent.event;
    expect(paid(noEvent)).toBe(false);
    const created = validatorFor('TransactionCreatedEvent');
    const pending = { ...transactionPaid, event: 'transaction_created', transaction: { id: 'tx_1', amount: 1050, status: 'pending', pix: { endToEndId: null, payerInfo: null } } };
    expect(created(pending), JSON.stringify(created.errors)).toBe(true);

    const completed = validatorFor('TransferCompletedEvent');
    expect(completed(transferCompleted), JSON.stringify(completed.errors)).toBe(true);
    expect(completed({ ...transferCompleted, transfer: { ...transferCompleted.transfer, status: 'completed' } })).toBe(false);
    expect(completed({ ...transferCompleted, type: 'transaction' })).toBe(false);
  });

  it('accepts a lowercase-hex signature header and rejects uppercase hex or a missing timestamp', () => {
    const validate = validatorFor('SignatureHeader');
    expect(validate(signature)).toBe(true);
    expect(validate(signature.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='))).toBe(false);
    expect(validate(`v1=${'ab'.repeat(32)}`)).toBe(false);
    expect(validate(`t=1763806530,v1=${'ab'.repeat(31)}`)).toBe(false);
    expect(validatorAt('/components/parameters/CallbackUserAgent/schema')('Gateway')).toBe(true);
  });

  it('keeps request documents permissive (punctuation, alphanumeric CNPJ) but enforces amounts', () => {
    const request = validatorFor('PixChargeRequest');
    const body = { amountInCents: 100, customer: { documentType: 'cnpj', document: '12.ABC.345/01DE-35' } };
    expect(request(body), JSON.stringify(request.errors)).toBe(true);
    expect(request({ ...body, amountInCents: 99 })).toBe(false);
    expect(request({ ...body, amountInCents: '100' })).toBe(false);
    expect(request({ ...body, description: 'x'.repeat(141) })).toBe(false);
    expect(request({ ...body, customer: { documentType: 'rg', document: '1' } })).toBe(false);
    const transfer = validatorFor('PixTransferRequest');
    for (const pixKey of ['52998224725', '12ABC34501DE35', 'payee@example.com', '+5511987654321', '123e4567-e89b-42d3-a456-426614174000']) {
      expect(transfer({ pixKey, amount: 1 }), pixKey).toBe(true);
    }
    expect(transfer({ pixKey: 'not a key', amount: 1 })).toBe(false);
    expect(transfer({ pixKey: '52998224725', amount: 0 })).toBe(false);
    expect(transfer({ pixKey: '52998224725', amount: 1, currency: 'USD' })).toBe(false);
    const card = validatorFor('CardChargeRequest');
    const cardBody = (child(spec, 'components', 'schemas', 'CardChargeRequest', 'examples') as Json[])[0] as JsonObject;
    expect(card({ ...cardBody, currency: 'BRL' })).toBe(false);
    const withoutCurrency = { ...cardBody };
    delete withoutCurrency.currency;
    expect(card(withoutCurrency)).toBe(false);
  });
});
