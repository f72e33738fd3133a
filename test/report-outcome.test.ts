// The end of a check: the pure function deciding its one outcome, the outcome on the vitest task,
// findings as reports carry them (the stable key), replay lines, Allure text.
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import { HarnessError } from '../harness/core/errors.js';
import type { Finding } from '../harness/rules/finding.js';
import { readOutcome, writeOutcome } from '../harness/report/outcome.js';
import type { CheckOutcome } from '../harness/report/outcome.js';
import { reportFinding } from '../harness/report/finding.js';
import { replayCommand } from '../harness/report/format.js';
import { endCheck, exercisedBy } from '../harness/run/outcome.js';
import type { CheckIdentity, RecordedRun } from '../harness/run/outcome.js';
import { ConformanceFailure, NotRunError } from '../harness/run/check-run.js';
import { parseBaseline } from '../harness/report/baseline.js';
import { exchangeTitle, formatExchange, formatRequest, formatResponse, outcomeFindingsText } from '../harness/report/allure.js';
import { fixtureIds } from './harness-fixtures.js';

const exchange = (seq: number, status?: number): Exchange => ({
  seq,
  api: 'gateway',
  operation: 'POST /api/v1/pix/in/qrcode',
  request: { method: 'POST', url: 'http://127.0.0.1:1/api/v1/pix/in/qrcode?x=1', headers: { authorization: 'Bearer <redacted:token>' }, body: '{"amountInCents":99}' },
  ...(status !== undefined ? { response: { status, headers: { 'content-type': 'application/json' }, body: '{"id":"c1"}', json: { id: 'c1' } } } : { error: 'ECONNRESET' }),
  startedAt: '2026-11-23T10:00:00.000Z',
  durationMs: 41.6,
  curl: `curl -X POST 'http://127.0.0.1:1/api/v1/pix/in/qrcode' # ${seq}`,
});

const finding = (severity: Finding['severity'], over: Partial<Finding> = {}): Finding => ({
  code: 'status.unexpected',
  title: 'amount below minimum accepted',
  severity,
  requirements: fixtureIds('GW-PIXIN-AMOUNT-MIN'),
  expected: '400',
  actual: '201',
  exchanges: [exchange(1, 201)],
  pointer: '/amountInCents',
  ...over,
});

const identity: CheckIdentity = { check: 'gateway.pixin.amount', name: 'pix > amount', title: "amount isn't below 100", file: 'suites/gateway/pix.test.ts', api: 'gateway', area: 'PIX cash-in', severity: 'critical', requirements: ['GW-PIXIN-AMOUNT-MIN'] };
const settings = { profile: 'quick', seed: 42, strict: false, durationMs: 10 };
const recorded = (over: Partial<RecordedRun> = {}): RecordedRun => ({ requirements: [], failures: [], warnings: [], notes: [], exchanges: [exchange(1, 201)], evaluations: { 'GW-PIXIN-AMOUNT-MIN': { evaluations: 1, failed: 0, warned: 0 } }, ...over });

describe('the outcome on the vitest task', () => {
  test('stores a JSON copy on the test context task, and on the current test without one', (ctx) => {
    const outcome: CheckOutcome = { check: 'c', name: 'c', file: 'f', requirements: ['GW-X'], state: 'passed', failures: [], warnings: [], requests: 0, durationMs: 1 };
    writeOutcome(outcome, ctx);
    expect(ctx.task.meta.paygateOutcome).toEqual(outcome);
    expect(ctx.task.meta.paygateOutcome).not.toBe(outcome);
    writeOutcome({ ...outcome, check: 'd' });
    expect(readOutcome(ctx)?.check).toBe('d');
  });
});

describe('a finding as reports carry it', () => {
  test('curl lines, the operation, evidence references', () => {
    expect(reportFinding(finding('failure'))).toMatchObject({ code: 'status.unexpected', severity: 'failure', operation: 'POST /api/v1/pix/in/qrcode', pointer: '/amountInCents', curl: ["curl -X POST 'http://127.0.0.1:1/api/v1/pix/in/qrcode' # 1"], exchanges: [1] });
  });

  test('the key names the deviation: code, requirements, operation, location and rule, not what was received', () => {
    const key = reportFinding(finding('failure')).key;
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    expect(reportFinding(finding('failure', { actual: '200', exchanges: [exchange(9, 200)] })).key).toBe(key);
    expect(reportFinding(finding('failure', { requirements: fixtureIds('GW-A', 'GW-B') })).key).toBe(reportFinding(finding('failure', { requirements: fixtureIds('GW-B', 'GW-A') })).key);
    for (const other of [{ code: 'contract.schema' }, { pointer: '/other' }, { requirements: fixtureIds('GW-A') }, { rule: 'ensureX' }, { exchanges: [{ ...exchange(1, 201), operation: 'GET /x' }] }]) {
      expect(reportFinding(finding('failure', other)).key).not.toBe(key);
    }
  });

  test('exercised operations are distinct pairs', () => {
    expect(exercisedBy([exchange(1, 201), exchange(2, 201), exchange(3, 400), exchange(4)])).toEqual([
      { operation: 'POST /api/v1/pix/in/qrcode', status: 201 },
      { operation: 'POST /api/v1/pix/in/qrcode', status: 400 },
      { operation: 'POST /api/v1/pix/in/qrcode', status: 0 },
    ]);
  });
});

describe('the end of a check', () => {
  test('the findings decide: passed, warned, failed; --strict fails on warnings', () => {
    expect(endCheck(identity, recorded(), {}, settings).state).toBe('passed');
    expect(endCheck(identity, recorded({ warnings: [finding('warning')] }), {}, settings).state).toBe('warned');
    expect(endCheck(identity, recorded({ warnings: [finding('warning')] }), {}, { ...settings, strict: true }).state).toBe('failed');
    const failed = endCheck(identity, recorded({ failures: [finding('failure')], seed: 7, replay: '3:1:0' }), {}, { ...settings, profile: 'full' });
    expect(failed).toMatchObject({ state: 'failed', requests: 1, seed: 7, replayPath: '3:1:0', exercised: [{ operation: 'POST /api/v1/pix/in/qrcode', status: 201 }] });
    expect(failed.failures[0]?.curl).toHaveLength(1);
    expect(failed.replay).toBe('npm run conformance -- --profile full --seed 7 --replay 3:1:0 --check gateway.pixin.amount');
    expect(JSON.parse(JSON.stringify(failed))).toEqual(failed);
  });

  test('not run: before it starts, or a NotRunError before any failure; after one, the check fails and says why it stopped', () => {
    expect(endCheck(identity, undefined, { skipped: 'GATEWAY_SPLIT_EMAIL not set' }, settings)).toMatchObject({ state: 'not-run', notRun: 'GATEWAY_SPLIT_EMAIL not set', requests: 0 });
    expect(endCheck(identity, recorded(), { thrown: new NotRunError('partner', 'charge creation answered 500') }, settings)).toMatchObject({ state: 'not-run', notRun: 'charge creation answered 500' });
    const stopped = endCheck(identity, recorded({ failures: [finding('failure')] }), { thrown: new NotRunError('partner', 'charge creation answered 500') }, settings);
    expect(stopped.state).toBe('failed');
    expect(stopped.notes).toEqual(['stopped early: charge creation answered 500']);
  });

  test('inconclusive on the certifier\'s side, unless a failure about an answer stands; the run is never changed', () => {
    const silent = exchange(2);
    const run = recorded({ exchanges: [exchange(1, 201), silent], failures: [finding('failure', { exchanges: [silent] })] });
    const cut = endCheck(identity, run, {}, settings);
    expect(cut).toMatchObject({ state: 'inconclusive', failures: [] });
    expect(cut.inconclusive).toMatch(/got no response/);
    expect(cut.notes?.[0]).toMatch(/^not judged \(status\.unexpected/);
    expect(run.failures).toHaveLength(1);
    const out = endCheck(identity, recorded(), { outOfTimeMs: 3000 }, settings);
    expect(out).toMatchObject({ state: 'inconclusive', deadlineMs: 3000 });
    const stands = endCheck(identity, recorded({ exchanges: [exchange(1, 201), silent], failures: [finding('failure')] }), {}, settings);
    expect(stands.state).toBe('failed');
  });

  test('a harness error is no verdict; any other error fails the check with it; a stop on findings is no error', () => {
    expect(endCheck(identity, recorded(), { thrown: new HarnessError('receiver', 'receiver down') }, settings)).toMatchObject({ state: 'error', error: 'receiver down' });
    expect(endCheck(identity, recorded(), { thrown: new TypeError('x is undefined') }, settings)).toMatchObject({ state: 'failed', error: 'x is undefined' });
    const both = endCheck(identity, recorded({ failures: [finding('failure')] }), { thrown: new TypeError('x is undefined') }, settings);
    expect(both.error).toBeUndefined();
    expect(both.notes).toEqual(['stopped by an error: x is undefined']);
    const stop = endCheck(identity, recorded({ failures: [finding('failure')] }), { thrown: new ConformanceFailure('c: 1 finding(s)', [finding('failure')]) }, settings);
    expect(stop).toMatchObject({ state: 'failed' });
    expect(stop.error).toBeUndefined();
  });

  test('the baseline sets accepted findings apart before they decide', () => {
    const baseline = parseBaseline('accepted:\n  - {check: gateway.pixin.amount, code: status.unexpected, reason: known}', 'b.yaml');
    const ended = endCheck(identity, recorded({ failures: [finding('failure')] }), {}, { ...settings, baseline });
    expect(ended.state).toBe('passed');
    expect(ended.accepted?.map((a) => [a.code, a.reason])).toEqual([['status.unexpected', 'known']]);
  });

  test('a failing fuzz sequence is its own part of the outcome, not text appended to a finding', () => {
    const sequence = { steps: '1. create charge ⇒ 201\n2. pay ⇒ 500', exchanges: [exchange(1, 201), exchange(2, 500)] };
    const ended = endCheck(identity, recorded({ failures: [finding('failure')], failingSequence: sequence }), {}, settings);
    expect(ended.sequence).toEqual({ steps: sequence.steps, curl: [exchange(1).curl, exchange(2).curl] });
    expect(ended.failures[0]?.actual).toBe('201');
    expect(outcomeFindingsText(ended)).toMatch(/✗ amount below minimum accepted[\s\S]*Failing sequence:\n {2}1\. create charge[\s\S]*Replay with: /);
    expect(endCheck(identity, recorded({ failingSequence: sequence }), {}, settings).sequence).toBeUndefined();
  });

  test('replay lines', () => {
    expect(replayCommand({ profile: 'quick', seed: -1 })).toBe('npm run conformance -- --profile quick --seed -1');
  });
});

describe('allure text', () => {
  test('request, response and step title', () => {
    expect(formatRequest(exchange(3, 201))).toBe('POST http://127.0.0.1:1/api/v1/pix/in/qrcode?x=1\nauthorization: Bearer <redacted:token>\n\n{"amountInCents":99}');
    expect(formatResponse(exchange(3, 201))).toBe('HTTP 201\ncontent-type: application/json\n\n{"id":"c1"}');
    expect(formatResponse(exchange(3))).toBe('(no response) ECONNRESET');
    // one attachment per exchange: curl, request, response with its JSON body pretty-printed
    const one = formatExchange(exchange(3, 201));
    expect(one.startsWith('$ curl')).toBe(true);
    expect(one).toContain('POST http://127.0.0.1:1/api/v1/pix/in/qrcode?x=1');
    expect(one).toContain('HTTP 201\ncontent-type: application/json\n\n{\n  "id": "c1"\n}');
    expect(exchangeTitle(exchange(3, 201))).toBe('#3 POST /api/v1/pix/in/qrcode?x=1 → 201 (42 ms)');
    expect(exchangeTitle(exchange(4))).toBe('#4 POST /api/v1/pix/in/qrcode?x=1 → error: ECONNRESET (42 ms)');
  });
});
