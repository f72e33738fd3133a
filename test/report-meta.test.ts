// The test-side API: CheckMeta on the vitest task, finding summaries, replay lines.
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import type { Finding } from '../harness/rules/finding.js';
import { checkMetaFromRun, exercisedBy, getCheckMeta, replayCommand, setCheckMeta, splitFindings } from '../harness/report/meta.js';
import { exchangeTitle, formatExchange, formatRequest, formatResponse } from '../harness/report/allure.js';

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

const finding = (severity: Finding['severity']): Finding => ({
  code: 'status.unexpected',
  title: 'amount below minimum accepted',
  severity,
  requirements: ['GW-PIXIN-AMOUNT-MIN'],
  expected: '400',
  actual: '201',
  exchanges: [exchange(1, 201)],
  pointer: '/amountInCents',
});

describe('setCheckMeta', () => {
  test('stores a JSON copy on the test context task, and on the current test without one', (ctx) => {
    const meta = { checkId: 'c', api: 'gateway' as const, area: 'a', requirements: ['GW-X'], severity: 'minor' as const, failures: [], warnings: [], requests: 0 };
    setCheckMeta(meta, ctx);
    expect(ctx.task.meta.paygateCheck).toEqual(meta);
    expect(ctx.task.meta.paygateCheck).not.toBe(meta);
    setCheckMeta({ ...meta, checkId: 'd' });
    expect(getCheckMeta(ctx)?.checkId).toBe('d');
  });
});

describe('summaries', () => {
  test('findings split by severity with curl lines', () => {
    const { failures, warnings } = splitFindings([finding('failure'), finding('warning')]);
    expect(failures).toEqual([{ code: 'status.unexpected', title: 'amount below minimum accepted', requirements: ['GW-PIXIN-AMOUNT-MIN'], expected: '400', actual: '201', pointer: '/amountInCents', curl: ["curl -X POST 'http://127.0.0.1:1/api/v1/pix/in/qrcode' # 1"] }]);
    expect(warnings).toHaveLength(1);
  });

  test('exercised operations are distinct pairs', () => {
    expect(exercisedBy([exchange(1, 201), exchange(2, 201), exchange(3, 400), exchange(4)])).toEqual([
      { operation: 'POST /api/v1/pix/in/qrcode', status: 201 },
      { operation: 'POST /api/v1/pix/in/qrcode', status: 400 },
      { operation: 'POST /api/v1/pix/in/qrcode', status: 0 },
    ]);
  });

  test('checkMetaFromRun and its replay line', () => {
    const meta = checkMetaFromRun(
      { requirements: ['GW-PIXIN-AMOUNT-MIN'], failures: [finding('failure')], warnings: [], exchanges: [exchange(1, 201), exchange(2, 400)], seed: 42, replay: '3:1:0' },
      { checkId: 'gateway.pixin.amount', api: 'gateway', area: 'PIX cash-in', severity: 'critical', title: "amount isn't below 100", profile: 'full' },
    );
    expect(meta.requests).toBe(2);
    expect(meta.failures).toHaveLength(1);
    expect(meta.replay).toBe("npm run conformance -- --profile full --seed 42 --replay 3:1:0 --grep 'amount isn'\\''t below 100'");
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
