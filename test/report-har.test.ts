// The run's HTTP Archive (--har): it validates against the HAR 1.2 JSON schema (har-schema) and has
// one entry per exchange the checks recorded; unit-level for the entry shapes (a request without
// an answer, bodies, query strings), and through the real CLI against the embedded reference.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import { buildHar } from '../harness/report/har.js';
import type { Har } from '../harness/report/har.js';
import { ROOT, runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';

const addFormats = addFormatsModule.default;
const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;
const draft6 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

/** The HAR 1.2 schema validator (har-schema's draft-06 schemas; `optional`/`min` are its own annotations). */
function harValidator(): (data: unknown) => boolean {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(draft6);
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (validate === undefined) throw new Error('har-schema: no har.json#');
  return (data) => {
    const ok = validate(data);
    if (!ok) throw new Error(`not a valid HAR: ${ajv.errorsText(validate.errors)}`);
    return true;
  };
}

const exchange = (seq: number, over: Partial<Exchange> = {}): Exchange => ({
  seq,
  api: 'partner',
  operation: 'POST /pix-charges',
  request: { method: 'POST', url: 'http://127.0.0.1:1/v1/pix-charges?expand=qr&x=1', headers: { authorization: 'Bearer <redacted:PARTNER_API_KEY>', 'content-type': 'application/json' }, body: '{"amount_cents":1500}' },
  response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"id":"ch_1","description":"pão"}', json: { id: 'ch_1' } },
  startedAt: '2026-11-24T10:00:00.123Z',
  durationMs: 12.5,
  curl: 'curl …',
  ...over,
});

describe('HAR entries', () => {
  test('an archive of answered, unanswered and body-less requests validates against the HAR 1.2 schema', () => {
    const unanswered: Exchange = { ...exchange(3), response: undefined, error: 'ECONNRESET: socket hang up' };
    delete unanswered.response;
    const get = exchange(2, { request: { method: 'GET', url: 'http://127.0.0.1:1/v1/business/finance', headers: {} } });
    const har: Har = buildHar([{ check: 'partner.a', exchanges: [exchange(1), get] }, { check: 'partner.b', exchanges: [unanswered] }], '0.1.0');
    expect(harValidator()(har)).toBe(true);
    const [first, second, third] = har.log.entries;
    expect(first).toMatchObject({ _check: 'partner.a', _seq: 1, _operation: 'POST /pix-charges', request: { queryString: [{ name: 'expand', value: 'qr' }, { name: 'x', value: '1' }], postData: { mimeType: 'application/json', text: '{"amount_cents":1500}' }, bodySize: 21 }, response: { status: 200, content: { mimeType: 'application/json; charset=utf-8', size: 34 } } });
    expect(second?.request.postData).toBeUndefined();
    expect(third?.response).toMatchObject({ status: 0, _error: 'ECONNRESET: socket hang up', bodySize: -1 });
    // the secrets were redacted when recorded, and stay so
    expect(JSON.stringify(har)).toContain('<redacted:PARTNER_API_KEY>');
  });
});

describe('--har through the CLI', () => {
  const DIR = join(ROOT, 'reports', 'self-test', `har-${process.pid}`);
  let run: ConformanceRunResult;
  let har: Har;

  beforeAll(async () => {
    mkdirSync(DIR, { recursive: true });
    run = await runConformance({ label: 'har', files: [], via: 'cli', cliArgs: ['--grep', 'balance', '--seed', '4', '--no-allure', '--har'], reportsDir: join(DIR, 'out'), timeoutMs: 120_000 });
    har = JSON.parse(readFileSync(join(DIR, 'out', 'exchanges.har'), 'utf8')) as Har;
  }, 130_000);
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  test('the archive validates and has one entry per recorded exchange, grouped by check', () => {
    expect(run.exitCode, run.outputTail).toBe(0);
    expect(harValidator()(har)).toBe(true);
    const checks = run.report?.checks.filter((c) => c.requests > 0) ?? [];
    expect(checks.length).toBeGreaterThan(1);
    expect(har.log.entries).toHaveLength(checks.reduce((n, c) => n + c.requests, 0));
    for (const c of checks) expect(har.log.entries.filter((e) => e._check === c.check)).toHaveLength(c.requests);
    // no secret of the embedded reference leaks: credentials appear as redaction markers only
    expect(JSON.stringify(har)).not.toMatch(/ak_test_[A-Za-z0-9]{8,}/);
  });
});
