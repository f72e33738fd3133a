import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Contract } from '../harness/contract/validator.js';
import type { RawResponse } from '../harness/contract/validator.js';
import { conformToContract } from '../harness/rules/contract.js';
import type { Judgement } from '../harness/rules/finding.js';
import { loadSpec } from '../harness/contract/spec.js';
import type { Exchange } from '../harness/core/exchange.js';
import { Redactor } from '../harness/http/redact.js';
import { HttpClient } from '../harness/http/client.js';
import { CheckRun } from '../harness/run/check-run.js';
import { fixtureIds, sendJson, startServer } from './harness-fixtures.js';
import type { TestServer } from './harness-fixtures.js';

const fixture = {
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1.0.0' },
  paths: {
    '/api/v1/things': {
      post: {
        'x-requirement': ['GW-OP-THINGS'],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'data'],
                  example: { success: true },
                  properties: {
                    success: { type: 'boolean', 'x-requirement': 'GW-SUCCESS' },
                    data: { $ref: '#/components/schemas/Thing', 'x-requirement': 'GW-THING-REF' },
                  },
                },
              },
            },
          },
          '400': { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/api/v1/things/{thingId}': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/api/v1/things/search': {
      get: { 'x-other': true, responses: { '2XX': { description: 'any', content: { 'application/json': { schema: {} } } } } },
    },
    '/api/v1/open': { delete: { responses: { '200': { description: 'not shown' } } } },
    '/api/v1/optional': { post: { responses: { '2XX': { description: 'body not shown', content: { 'application/json': { schema: { 'x-body': 'optional' } } } } } } },
    '/api/v1/anything': { post: { responses: { '2XX': { description: 'body not shown', content: { 'application/json': { schema: { 'x-body': 'any' } } } } } } },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        'x-requirement': 'GW-THING',
        required: ['id', 'status'],
        properties: {
          id: { type: 'string', 'x-requirement': 'GW-THING-ID' },
          status: { type: 'string', enum: ['pending', 'paid'], 'x-requirement': 'GW-THING-STATUS' },
          fees: { type: 'integer', minimum: 0 },
          doc: { type: 'string', format: 'cpf-digits' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    responses: {
      Error: {
        description: 'error',
        'x-requirement': 'GW-ERR',
        content: { 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } },
      },
    },
  },
};

let contract: Contract;
let specPath: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-contract-'));
  specPath = join(dir, 'fixture.openapi.yaml');
  writeFileSync(specPath, stringify(fixture));
  contract = await Contract.load({ apis: ['gateway'], specPaths: { gateway: specPath }, redactor: new Redactor() });
});

/** The contract rules on one exchange's facts (what CheckRun.observe does). */
function validate(ex: Exchange, raw?: RawResponse): Judgement {
  const facts = contract.responseFacts(ex, raw);
  return facts ? conformToContract.judge(facts) : { requirements: [], findings: [] };
}

function exchange(method: string, path: string, status: number, body: unknown, contentType = 'application/json'): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    seq: 1,
    api: 'gateway',
    request: { method, url: `http://127.0.0.1:1${path}`, path, headers: {} },
    response: { status, headers: { 'content-type': contentType }, body: text, ...(json === undefined ? {} : { json }) },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    curl: `curl http://127.0.0.1:1${path}`,
  };
}

describe('matchOperation', () => {
  it('maps concrete paths to templates, literals before parameters', () => {
    expect(contract.matchOperation('gateway', 'GET', '/api/v1/things/abc%20d')).toMatchObject({
      operation: 'GET /api/v1/things/{thingId}',
      pathParams: { thingId: 'abc d' },
    });
    expect(contract.matchOperation('gateway', 'GET', '/api/v1/things/search?x=1')?.operation).toBe('GET /api/v1/things/search');
    expect(contract.matchOperation('gateway', 'get', '/prefix/api/v1/things/x')?.operation).toBe('GET /api/v1/things/{thingId}');
    expect(contract.matchOperation('gateway', 'PUT', '/api/v1/things')).toBeUndefined();
    expect(contract.matchOperation('gateway', 'GET', '/api/v1/nothing')).toBeUndefined();
  });
});

describe('the contract rules on responseFacts', () => {
  it('accepts a conforming response and leaves undocumented fields open', () => {
    const ex = exchange('POST', '/api/v1/things', 200, { success: true, data: { id: 'a', status: 'paid', fees: 0, extra: { any: 1 }, doc: '1', createdAt: '2026-01-01T00:00:00Z' }, more: 1 });
    expect(validate(ex).findings).toEqual([]);
  });

  it('gives one finding per schema error, located, with the nearest x-requirement', () => {
    const ex = exchange('POST', '/api/v1/things', 200, { success: 'yes', data: { id: 7, status: 'weird', fees: -1 } });
    const findings = validate(ex).findings;
    const byPointer = Object.fromEntries(findings.map((f) => [f.pointer, f]));
    expect(Object.keys(byPointer).sort()).toEqual(['/data/fees', '/data/id', '/data/status', '/success']);
    expect(findings.every((f) => f.code === 'contract.schema' && f.severity === 'failure')).toBe(true);
    expect(byPointer['/success']?.requirements).toEqual(['GW-SUCCESS']);
    expect(byPointer['/data/id']?.requirements).toEqual(['GW-THING-ID']);
    expect(byPointer['/data/status']?.requirements).toEqual(['GW-THING-STATUS']);
    expect(byPointer['/data/status']?.expected).toContain('enum');
    expect(byPointer['/data/status']?.actual).toBe('"weird"');
    // no x-requirement on `fees`: the deepest one along the path (the Thing component)
    expect(byPointer['/data/fees']?.requirements).toEqual(['GW-THING']);
    expect(byPointer['/data/fees']?.exchanges[0]).toBe(ex);
  });

  it('names the missing property requirement on `required`', () => {
    const findings = validate(exchange('POST', '/api/v1/things', 200, { success: true, data: { id: 'a' } })).findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ pointer: '/data', requirements: ['GW-THING-STATUS'], actual: 'property "status" absent' });
    const top = validate(exchange('POST', '/api/v1/things', 200, { success: true })).findings;
    expect(top[0]?.requirements).toEqual(['GW-THING-REF', 'GW-THING']);
  });

  it('validates $ref responses (error tables) and falls back to the operation requirement', () => {
    const findings = validate(exchange('GET', '/api/v1/things/x', 404, { error: 'NOT_FOUND' })).findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'contract.schema', requirements: ['GW-ERR'] });
  });

  it('reports an undocumented status as a warning; 401 and 429 are always allowed', () => {
    const w = validate(exchange('GET', '/api/v1/things/x', 409, { message: 'x' })).findings;
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ code: 'contract.status-undocumented', severity: 'warning' });
    expect(w[0]?.title).toContain('Errors table');
    const other = validate(exchange('GET', '/api/v1/things/x', 418, {})).findings;
    expect(other[0]).toMatchObject({ code: 'contract.status-undocumented', severity: 'warning' });
    expect(validate(exchange('GET', '/api/v1/things/x', 401, 'nope', 'text/plain')).findings).toEqual([]);
    // a 429 the client retries is not the check's answer; one its retries did not get past warns, once
    const limited = exchange('GET', '/api/v1/things/x', 429, '');
    expect(validate(limited, { text: '', retried: true })).toMatchObject({ requirements: [], findings: [] });
    const persisting = validate(limited).findings;
    expect(persisting).toHaveLength(1);
    expect(persisting[0]).toMatchObject({ code: 'status.rate-limited', severity: 'warning', rule: 'answerDocumentedStatuses' });
    // 2XX range key
    expect(validate(exchange('GET', '/api/v1/things/search', 201, { any: 1 })).findings).toEqual([]);
  });

  it('decides the operation requirements and every x-requirement of the validated schema, found or not', () => {
    const clean = validate(exchange('POST', '/api/v1/things', 200, { success: true, data: { id: 'a', status: 'paid' } }));
    expect(clean.findings).toEqual([]);
    expect(clean.requirements).toEqual(expect.arrayContaining(['GW-OP-THINGS', 'GW-SUCCESS', 'GW-THING-ID', 'GW-THING-STATUS']));
    const broken = validate(exchange('POST', '/api/v1/things', 200, { success: true, data: { id: 7, status: 'paid' } }));
    expect(broken.requirements).toEqual(expect.arrayContaining(['GW-THING-ID']));
    expect(broken.findings.map((f) => f.requirements)).toEqual([['GW-THING-ID']]);
  });

  it("x-body: 'optional' tolerates no body (204) but not a non-JSON one; 'any' tolerates anything", () => {
    expect(validate(exchange('POST', '/api/v1/optional', 204, '', '')).findings).toEqual([]);
    expect(validate(exchange('POST', '/api/v1/optional', 200, '<html>', 'text/html')).findings.map((f) => f.code)).toEqual(['contract.not-json']);
    expect(validate(exchange('POST', '/api/v1/anything', 200, '<html>', 'text/html')).findings).toEqual([]);
    expect(validate(exchange('POST', '/api/v1/anything', 204, '', '')).findings).toEqual([]);
  });

  it('reports 5xx as a failure', () => {
    const f = validate(exchange('POST', '/api/v1/things', 503, 'down', 'text/plain')).findings;
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ code: 'target.5xx', severity: 'failure', requirements: ['GW-OP-THINGS'] });
  });

  it('reports a non-JSON body where JSON is documented as a failure, a wrong Content-Type as a warning', () => {
    const f = validate(exchange('GET', '/api/v1/things/x', 200, '<html>', 'text/html')).findings;
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ code: 'contract.not-json', severity: 'failure' });
    const w = validate(exchange('GET', '/api/v1/things/x', 200, { id: 'a', status: 'paid' }, 'text/plain')).findings;
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ code: 'contract.content-type', severity: 'warning' });
    // a response documented without content accepts anything
    expect(validate(exchange('DELETE', '/api/v1/open', 200, 'whatever', 'text/plain')).findings).toEqual([]);
  });

  it('ignores exchanges without a response or outside the spec', () => {
    const ex = exchange('GET', '/api/v1/unknown', 200, {});
    expect(validate(ex).findings).toEqual([]);
    const { response: _r, ...noResponse } = exchange('GET', '/api/v1/things/x', 200, {});
    expect(validate({ ...noResponse, error: 'timeout after 1 ms' }).findings).toEqual([]);
  });

  it('compiles each validator once and every documented response', () => {
    const a = contract.responseValidator('gateway', 'GET /api/v1/things/{thingId}', 200);
    expect(a).toBeDefined();
    expect(contract.responseValidator('gateway', 'GET /api/v1/things/{thingId}', 200)).toBe(a);
    expect(contract.compileAll().length).toBeGreaterThanOrEqual(5);
  });
});

describe('CheckRun validates every exchange its clients make', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_req, _body, res) => sendJson(res, 200, { success: true, data: { id: 1, status: 'paid' } }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('records the schema failure and finish() throws an AssertionError', async () => {
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor: new Redactor() });
    try {
      const run = new CheckRun('things', fixtureIds('GW-OP-THINGS'), { contract, seed: 42 });
      await http.request({ api: 'gateway', method: 'POST', path: '/api/v1/things', json: {}, observers: [run] });
      expect(run.exchanges).toHaveLength(1);
      expect(run.failures.map((f) => f.pointer)).toEqual(['/data/id']);
      let thrown: unknown;
      try {
        run.finish();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as Error).name).toBe('AssertionError');
      expect((thrown as Error).message).toContain('Reproduce with:');
      expect((thrown as Error).message).toContain('--seed 42');
      expect(JSON.parse(JSON.stringify(run.summary()))).toMatchObject({ verdict: 'fail', requirements: expect.arrayContaining(['GW-OP-THINGS', 'GW-THING-ID']) as unknown });
    } finally {
      await http.destroy();
    }
  });

  it('judges each 429 attempt once: the retried ones decide nothing, the one the retries did not get past warns', async () => {
    const limited = await startServer((_req, _body, res) => sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '0' }));
    const http = new HttpClient({ baseUrl: limited.url, api: 'gateway', redactor: new Redactor(), max429Retries: 2, maxRetryAfterMs: 0 });
    try {
      const run = new CheckRun('things', fixtureIds('GW-OP-THINGS'), { contract });
      const result = await http.request({ api: 'gateway', method: 'POST', path: '/api/v1/things', json: {}, observers: [run] });
      expect(result.status).toBe(429);
      expect(result.retried).toBeUndefined();
      expect(run.exchanges).toHaveLength(3);
      expect(run.failures).toEqual([]);
      expect(run.warnings.map((f) => f.code)).toEqual(['status.rate-limited']);
      expect(run.warnings[0]?.exchanges).toEqual([result.exchange]);
    } finally {
      await http.destroy();
      await limited.close();
    }
  });
});

describe('what the contract rules show of a response is redacted, though only a finding reads it', () => {
  const secret = 'sk_sekret_value_0123456789';
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((req, _body, res) => {
      const kind = req.headers['x-answer'];
      if (kind === 'text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`not json, key ${secret}`);
      } else if (kind === '5xx') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`boom ${secret}`);
      } else {
        sendJson(res, 200, { success: true, data: { id: 'a', status: 'paid' } }, { 'content-type': `text/plain; key=${secret}` });
      }
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('not JSON, a 5xx, a JSON body under another Content-Type: each finding shows the secret redacted', async () => {
    const redactor = new Redactor();
    redactor.register(secret, 'API_KEY');
    const shared = await Contract.load({ apis: ['gateway'], specPaths: { gateway: specPath }, redactor });
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor });
    try {
      const run = new CheckRun('things', fixtureIds('GW-OP-THINGS'), { contract: shared, redactor });
      for (const answer of ['text', '5xx', 'label']) {
        await http.request({ api: 'gateway', method: 'POST', path: '/api/v1/things', json: {}, headers: { 'x-answer': answer }, observers: [run] });
      }
      const findings = [...run.failures, ...run.warnings];
      expect(findings.map((f) => f.code).sort()).toEqual(['contract.content-type', 'contract.not-json', 'target.5xx']);
      for (const f of findings) expect(f.actual).toContain('<redacted:API_KEY>');
      expect(JSON.stringify(run.summary())).not.toContain(secret);
    } finally {
      await http.destroy();
    }
  });
});

const specsDir = fileURLToPath(new URL('../specs/', import.meta.url));
for (const api of ['gateway', 'partner'] as const) {
  const path = join(specsDir, `${api}.openapi.yaml`);
  describe.runIf(existsSync(path))(`specs/${api}.openapi.yaml`, () => {
    it('loads once and compiles every documented response schema', async () => {
      expect(await loadSpec(api)).toBe(await loadSpec(api));
      const c = await Contract.load({ apis: [api] });
      const compiled = c.compileAll();
      expect(compiled.length).toBeGreaterThan(0);
      expect(c.operations(api).length).toBeGreaterThan(0);
    });
  });
}
