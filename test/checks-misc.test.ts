import { found } from './harness-fixtures.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import { integerCentsProblem, reaisStringProblem } from '../harness/rules/money.js';
import { parseIsoDateTime, timestampProblem, writeIsoTimestamps } from '../harness/rules/time.js';
import { bodyNamesField, fieldNameVariants } from '../harness/rules/field-names.js';
import { judgeStatus, type StatusExpectation } from '../harness/rules/status.js';
import { defineRule } from '../harness/rules/rule.js';
import { endToEndIdProblem, uuidProblem } from '../harness/rules/identifiers.js';

function exchange(status: number | undefined, body = '{}', headers: Record<string, string> = {}): Exchange {
  const ex: Exchange = {
    seq: 7,
    api: 'gateway',
    operation: 'GET /api/v1/balance',
    request: { method: 'GET', url: 'http://127.0.0.1:1/api/v1/balance', headers: {} },
    startedAt: '2026-11-22T10:00:00.000Z',
    durationMs: 3,
    curl: 'curl http://127.0.0.1:1/api/v1/balance',
  };
  if (status === undefined) ex.error = 'ECONNRESET';
  else ex.response = { status, headers, body };
  return ex;
}

describe('money', () => {
  it('reaisStringProblem: strings with exactly 2 decimals', () => {
    for (const ok of ['0.00', '10.50', '-3.10', '1234567.89']) expect(reaisStringProblem(ok)).toBeUndefined();
    for (const bad of [10.5, 10, '10.5', '10', '10,50', '1.000', null, undefined]) expect(reaisStringProblem(bad)).toMatchObject({ kind: 'balance-string' });
    expect(reaisStringProblem(10.5)?.actual).toBe('number 10.5');
  });
  it('integerCentsProblem: JSON integers, optional minimum', () => {
    expect(integerCentsProblem(1050)).toBeUndefined();
    expect(integerCentsProblem(100, { min: 100 })).toBeUndefined();
    expect(integerCentsProblem(99, { min: 100 })).toMatchObject({ kind: 'minimum' });
    for (const bad of ['1050', 10.5, Number.NaN, null]) expect(integerCentsProblem(bad)?.kind).toBe('integer-cents');
  });
});

describe('time', () => {
  it('timestampProblem accepts ISO 8601 date-times, with or without zone', () => {
    for (const ok of ['2026-11-22T10:15:00Z', '2026-11-22T10:15:00.123+03:00', '2026-11-22T10:15', '20261122T101500Z', '2024-02-29T00:00:00-0300']) {
      expect(timestampProblem(ok), ok).toBeUndefined();
    }
  });
  it('timestampProblem: non-dates are iso8601, a space separator its own kind', () => {
    for (const bad of ['2026-13-01T00:00:00Z', '2025-02-29T00:00:00Z', '22/11/2026', 1763800000, '', '2026-11-22']) {
      expect(timestampProblem(bad), String(bad)).toMatchObject({ kind: 'iso8601' });
    }
    expect(timestampProblem('2026-11-22 10:15:00Z')).toMatchObject({ kind: 'space-separator' });
    expect(parseIsoDateTime('2026-11-22T25:00:00Z')).toBeUndefined();
  });
  it('timestampProblem with utc needs Z or +00:00', () => {
    for (const ok of ['2026-11-22T10:15:00Z', '2026-11-22T10:15:00.5+00:00', '2026-11-22T10:15:00+0000']) expect(timestampProblem(ok, { utc: true })).toBeUndefined();
    expect(timestampProblem('2026-11-22T10:15:00-03:00', { utc: true })).toMatchObject({ kind: 'not-utc' });
    expect(timestampProblem('2026-11-22T10:15:00', { utc: true })?.actual).toMatch(/no zone/);
    expect(timestampProblem('yesterday', { utc: true })?.kind).toBe('iso8601');
  });
});

describe('money and time readers (facts), and writeIsoTimestamps', () => {
  it('integerCentsProblem / reaisStringProblem', () => {
    expect(integerCentsProblem(1050)).toBeUndefined();
    expect(integerCentsProblem(100, { min: 100 })).toBeUndefined();
    expect(integerCentsProblem(99, { min: 100 })).toMatchObject({ kind: 'minimum' });
    expect(integerCentsProblem('1050', { subject: 'data.fees' })).toMatchObject({ kind: 'integer-cents', title: 'data.fees is not an integer number of cents', actual: 'string "1050"' });
    expect(reaisStringProblem('-0.01')).toBeUndefined();
    expect(reaisStringProblem('10.5')).toMatchObject({ kind: 'balance-string' });
  });
  it('timestampProblem: ISO 8601, UTC when asked; a space separator and an unknown offset warn', () => {
    expect(timestampProblem('2026-11-22T10:15')).toBeUndefined();
    expect(timestampProblem('2026-11-22T10:15', { utc: true })).toMatchObject({ kind: 'not-utc', actual: expect.stringMatching(/no zone/) });
    expect(timestampProblem('2026-11-22 10:15:00Z')).toMatchObject({ kind: 'space-separator' });
    expect(timestampProblem('2026-11-22T10:15:00-00:00', { utc: true })).toMatchObject({ kind: 'unknown-offset' });
    expect(timestampProblem('2026-02-30T00:00:00Z')).toMatchObject({ kind: 'iso8601' });
  });
  it('writeIsoTimestamps decides its row and files each field at its pointer', () => {
    const j = writeIsoTimestamps.judge({ row: 'partner-charge', fields: { created_at: '2026-11-22T10:15:00Z', expires_at: '2026-11-22T10:15:00-00:00' }, pointerBase: '/data' });
    expect(j.requirements).toEqual(['PT-CHARGE-TIMESTAMPS-UTC']);
    expect(j.findings).toMatchObject([{ code: 'time.unknown-offset', severity: 'warning', pointer: '/data/expires_at' }]);
  });
});

describe('error texts naming a field', () => {
  it('bodyNamesField: any spelling of the field, in a text or a structured detail', () => {
    expect(fieldNameVariants('amount_cents')).toEqual(expect.arrayContaining(['amount_cents', 'amountCents', 'amount cents']));
    expect(bodyNamesField({ detail: 'amount_cents must be greater than zero' }, 'detail', 'amount_cents')).toBe(true);
    expect(bodyNamesField({ detail: [{ loc: ['body', 'expires_in_seconds'] }] }, 'detail', 'expires_in_seconds')).toBe(true);
    expect(bodyNamesField({ message: 'customer.document is invalid' }, 'message', 'customer.document')).toBe(true);
    expect(bodyNamesField({ message: 'Invalid document' }, 'message', 'customer.document')).toBe(true);
    expect(bodyNamesField({ detail: 'invalid request' }, 'detail', 'amount_cents')).toBe(false);
    expect(bodyNamesField({}, 'detail', 'amount_cents')).toBe(false);
  });
});

/** A rule judging one status expectation with {@link judgeStatus}, as section rules do. */
const statusRule = defineRule({
  name: 'fixtureStatus',
  requirements: ['GW-MONEY-CENTS'],
  codes: { 'fixture.status': 'failure', 'fixture.other-4xx': 'warning' },
  judge(o: { exchange: Exchange; expected: StatusExpectation; soft?: boolean }, v) {
    judgeStatus(v, o.exchange, o.expected, { unexpected: 'fixture.status', ...(o.soft ? { otherClientError: 'fixture.other-4xx' } : {}) });
  },
});

describe('judgeStatus', () => {
  const judged = (e: Exchange, expected: StatusExpectation, soft = false) => statusRule.judge({ exchange: e, expected, soft });
  it('passes matching statuses and classes', () => {
    expect(found(judged(exchange(200), 200))).toBeUndefined();
    expect(found(judged(exchange(201), [200, 201]))).toBeUndefined();
    expect(found(judged(exchange(204), '2xx'))).toBeUndefined();
    expect(found(judged(exchange(422), '4xx'))).toBeUndefined();
    expect(found(judged(exchange(429), [200, 429]))).toBeUndefined();
  });
  it('finds other statuses under the rule\'s code, with the exchange attached; a 5xx is always unexpected', () => {
    const f = found(judged(exchange(404, '{"error":"NOT_FOUND"}'), 200));
    expect(f).toMatchObject({ code: 'fixture.status', severity: 'failure', expected: 'HTTP 200' });
    expect(f?.actual).toMatch(/HTTP 404/);
    expect(f?.exchanges.map((e) => e.seq)).toEqual([7]);
    expect(found(judged(exchange(503), '4xx'))?.title).toMatch(/server error \(503\)/);
  });
  it('a 429 decides nothing; no response is unanswered (the check is inconclusive), not a finding', () => {
    expect(judged(exchange(429, '', { 'retry-after': '2' }), 200)).toMatchObject({ requirements: [], findings: [] });
    const silent = exchange(undefined);
    expect(judged(silent, 200)).toMatchObject({ findings: [], unanswered: [silent] });
  });
  it('otherClientError only softens another 4xx', () => {
    expect(found(judged(exchange(403), [400, 422], true))).toMatchObject({ code: 'fixture.other-4xx', severity: 'warning' });
    expect(found(judged(exchange(200), [400, 422], true))).toMatchObject({ code: 'fixture.status', severity: 'failure' });
    expect(found(judged(exchange(302), [400, 422], true))?.code).toBe('fixture.status');
    expect(found(judged(exchange(502), [400, 422], true))?.code).toBe('fixture.status');
  });
});

describe('identifiers', () => {
  it('endToEndIdProblem: BCB layout passes; other strings are a layout problem; non-strings a type problem', () => {
    expect(endToEndIdProblem('E12345678202611221015abcDEF12345')).toBeUndefined();
    expect(endToEndIdProblem('e2e_123')?.kind).not.toBe('type');
    expect(endToEndIdProblem('E1234567820261122101abcDEF12345')?.kind).not.toBe('type');
    expect(endToEndIdProblem(undefined)?.kind).toBe('type');
    expect(endToEndIdProblem('')?.kind).toBe('type');
  });
  it('uuidProblem', () => {
    expect(uuidProblem('0b8f5a52-8d5e-4c1e-9a51-0f8a4f1c2d3e')).toBeUndefined();
    expect(uuidProblem('0B8F5A52-8D5E-4C1E-9A51-0F8A4F1C2D3E')).toBeUndefined();
    expect(uuidProblem('0b8f5a528d5e4c1e9a510f8a4f1c2d3e')?.kind).toBe('uuid');
    expect(uuidProblem(12)?.kind).toBe('uuid');
  });
});
