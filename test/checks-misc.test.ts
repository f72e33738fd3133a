import type { RuleContext } from '../harness/rules/judgement.js';
import { found } from './harness-fixtures.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import { verifyBalanceString, verifyIntegerCents } from '../harness/rules/money.js';
import { parseIsoDateTime, verifyIsoTimestamp, verifyUtcTimestamp } from '../harness/rules/time.js';
import {
  ensureErrorShapeIdempotencyConflict,
  ensureErrorShapeNotFound,
  fieldNameVariants,
  verifyDetailNamesField,
  verifyGatewayErrorShape,
  verifyPartnerErrorShape,
} from '../harness/rules/errors.js';
import { expectStatus } from '../harness/rules/status.js';
import { TargetUnreachableError } from '../harness/http/transport.js';
import { verifyEndToEndId, verifyUuid } from '../harness/rules/identifiers.js';

const ctx: RuleContext = { requirements: ['GW-MONEY-CENTS'] };

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
  it('verifyBalanceString: strings with exactly 2 decimals', () => {
    for (const ok of ['0.00', '10.50', '-3.10', '1234567.89']) expect(found(verifyBalanceString(ok, ctx))).toBeUndefined();
    for (const bad of [10.5, 10, '10.5', '10', '10,50', '1.000', null, undefined]) {
      expect(found(verifyBalanceString(bad, ctx))).toMatchObject({ code: 'money.balance-string', severity: 'failure' });
    }
    expect(found(verifyBalanceString(10.5, ctx))?.actual).toBe('number 10.5');
  });
  it('verifyIntegerCents: JSON integers, optional minimum', () => {
    expect(found(verifyIntegerCents(1050, ctx))).toBeUndefined();
    expect(found(verifyIntegerCents(100, ctx, { min: 100 }))).toBeUndefined();
    expect(found(verifyIntegerCents(99, ctx, { min: 100 }))).toMatchObject({ code: 'money.minimum' });
    for (const bad of ['1050', 10.5, Number.NaN, null]) expect(found(verifyIntegerCents(bad, ctx))?.code).toBe('money.integer-cents');
  });
});

describe('time', () => {
  it('verifyIsoTimestamp accepts ISO 8601 date-times, with or without zone', () => {
    for (const ok of ['2026-11-22T10:15:00Z', '2026-11-22T10:15:00.123+03:00', '2026-11-22T10:15', '20261122T101500Z', '2024-02-29T00:00:00-0300']) {
      expect(found(verifyIsoTimestamp(ok, ctx)), ok).toBeUndefined();
    }
  });
  it('verifyIsoTimestamp fails non-dates, warns on a space separator', () => {
    for (const bad of ['2026-13-01T00:00:00Z', '2025-02-29T00:00:00Z', '22/11/2026', 1763800000, '', '2026-11-22']) {
      expect(found(verifyIsoTimestamp(bad, ctx)), String(bad)).toMatchObject({ code: 'time.iso8601', severity: 'failure' });
    }
    expect(found(verifyIsoTimestamp('2026-11-22 10:15:00Z', ctx))).toMatchObject({ code: 'time.space-separator', severity: 'warning' });
    expect(parseIsoDateTime('2026-11-22T25:00:00Z')).toBeUndefined();
  });
  it('verifyUtcTimestamp needs Z or +00:00', () => {
    for (const ok of ['2026-11-22T10:15:00Z', '2026-11-22T10:15:00.5+00:00', '2026-11-22T10:15:00+0000']) expect(found(verifyUtcTimestamp(ok, ctx))).toBeUndefined();
    expect(found(verifyUtcTimestamp('2026-11-22T10:15:00-03:00', ctx))).toMatchObject({ code: 'time.not-utc', severity: 'failure' });
    expect(found(verifyUtcTimestamp('2026-11-22T10:15:00', ctx))?.actual).toMatch(/no zone/);
    expect(found(verifyUtcTimestamp('2026-11-22T10:15:00-00:00', ctx))?.severity).toBe('warning');
    expect(found(verifyUtcTimestamp('yesterday', ctx))?.code).toBe('time.iso8601');
  });
});

describe('errors', () => {
  it('gateway shapes', () => {
    expect(found(verifyGatewayErrorShape({ success: false, message: 'bad' }, { shape: 'success-false' }, ctx))).toBeUndefined();
    expect(found(verifyGatewayErrorShape({ error: 'X', message: 'bad', extra: 1 }, { shape: 'error-code' }, ctx))).toBeUndefined();
    expect(found(verifyGatewayErrorShape({ success: false, message: 'bad' }, { shape: 'either' }, ctx))).toBeUndefined();
    expect(found(verifyGatewayErrorShape({ error: 'X', message: 'bad' }, { shape: 'either' }, ctx))).toBeUndefined();
    expect(found(verifyGatewayErrorShape({ success: false }, { shape: 'either' }, ctx))).toMatchObject({ code: 'error.shape', severity: 'failure' });
    expect(found(verifyGatewayErrorShape({ detail: 'x' }, { shape: 'either' }, ctx))?.code).toBe('error.shape');
    expect(found(verifyGatewayErrorShape({ success: false, message: 'x' }, { shape: 'error-code' }, ctx))?.code).toBe('error.shape');
    expect(found(verifyGatewayErrorShape(undefined, { shape: 'either' }, ctx))?.actual).toMatch(/not JSON/);
  });
  it('404 NOT_FOUND and 409 IDEMPOTENCY_CONFLICT', () => {
    expect(found(ensureErrorShapeNotFound({ error: 'NOT_FOUND', message: 'no such charge' }, ctx))).toBeUndefined();
    expect(found(ensureErrorShapeNotFound({ error: 'not_found', message: 'x' }, ctx))).toMatchObject({ code: 'error.code', expected: 'error = "NOT_FOUND"' });
    expect(found(ensureErrorShapeNotFound({ success: false, message: 'not found' }, ctx))?.code).toBe('error.shape');
    expect(found(ensureErrorShapeIdempotencyConflict({ error: 'IDEMPOTENCY_CONFLICT', message: 'x' }, ctx))).toBeUndefined();
    expect(found(ensureErrorShapeIdempotencyConflict({ error: 'CONFLICT', message: 'x' }, ctx))?.code).toBe('error.code');
  });
  it('partner {detail: string}', () => {
    expect(found(verifyPartnerErrorShape({ detail: 'charge not found' }, ctx))).toBeUndefined();
    expect(found(verifyPartnerErrorShape({ message: 'x' }, ctx))).toMatchObject({ code: 'error.partner-shape', severity: 'failure' });
    expect(found(verifyPartnerErrorShape({ detail: [{ loc: ['body', 'amount_cents'], msg: 'x' }] }, ctx))?.actual).toMatch(/FastAPI/);
    expect(found(verifyPartnerErrorShape({ detail: ' ' }, ctx))?.severity).toBe('warning');
  });
  it('detail names the field (warning only)', () => {
    expect(fieldNameVariants('amount_cents')).toEqual(expect.arrayContaining(['amount_cents', 'amountCents', 'amount cents']));
    expect(found(verifyDetailNamesField({ detail: 'amount_cents must be greater than zero' }, 'amount_cents', ctx))).toBeUndefined();
    expect(found(verifyDetailNamesField({ detail: [{ loc: ['body', 'expires_in_seconds'] }] }, 'expires_in_seconds', ctx))).toBeUndefined();
    expect(found(verifyDetailNamesField({ message: 'customer.document is invalid' }, 'customer.document', ctx, { key: 'message' }))).toBeUndefined();
    expect(found(verifyDetailNamesField({ message: 'Invalid document' }, 'customer.document', ctx, { key: 'message' }))).toBeUndefined();
    expect(found(verifyDetailNamesField({ detail: 'invalid request' }, 'amount_cents', ctx))).toMatchObject({ code: 'error.field-not-named', severity: 'warning' });
    expect(found(verifyDetailNamesField({}, 'amount_cents', ctx))?.severity).toBe('warning');
  });
});

describe('expectStatus', () => {
  it('passes matching statuses and classes', () => {
    expect(found(expectStatus(exchange(200), 200, ctx))).toBeUndefined();
    expect(found(expectStatus(exchange(201), [200, 201], ctx))).toBeUndefined();
    expect(found(expectStatus(exchange(204), '2xx', ctx))).toBeUndefined();
    expect(found(expectStatus(exchange(422), '4xx', ctx))).toBeUndefined();
    expect(found(expectStatus(exchange(429), [200, 429], ctx))).toBeUndefined();
  });
  it('fails other statuses, with the exchange attached', () => {
    const f = found(expectStatus(exchange(404, '{"error":"NOT_FOUND"}'), 200, ctx));
    expect(f).toMatchObject({ code: 'status.unexpected', severity: 'failure', expected: 'HTTP 200' });
    expect(f?.actual).toMatch(/HTTP 404/);
    expect(f?.exchanges.map((e) => e.seq)).toEqual([7]);
    expect(found(expectStatus(exchange(200), '4xx', ctx))?.code).toBe('status.unexpected');
  });
  it('5xx is always target.5xx; 429 only a warning; no response is inconclusive (thrown), not a failure', () => {
    expect(found(expectStatus(exchange(500), [200, 500], ctx))).toMatchObject({ code: 'target.5xx', severity: 'failure' });
    expect(found(expectStatus(exchange(503), '4xx', ctx))?.code).toBe('target.5xx');
    expect(found(expectStatus(exchange(429, '', { 'retry-after': '2' }), 200, ctx))).toMatchObject({ code: 'status.rate-limited', severity: 'warning' });
    expect(() => expectStatus(exchange(undefined), 200, ctx)).toThrow(TargetUnreachableError);
  });
  it("otherClientError 'warning' only softens another 4xx", () => {
    const soft = { otherClientError: 'warning' } as const;
    expect(found(expectStatus(exchange(403), [400, 422], ctx, soft))).toMatchObject({ code: 'status.unexpected', severity: 'warning' });
    expect(found(expectStatus(exchange(200), [400, 422], ctx, soft))).toMatchObject({ code: 'status.unexpected', severity: 'failure' });
    expect(found(expectStatus(exchange(302), [400, 422], ctx, soft))).toMatchObject({ code: 'status.unexpected', severity: 'failure' });
    expect(found(expectStatus(exchange(502), [400, 422], ctx, soft))).toMatchObject({ code: 'target.5xx', severity: 'failure' });
    expect(() => expectStatus(exchange(undefined), [400, 422], ctx, soft)).toThrow(TargetUnreachableError);
  });
});

describe('identifiers', () => {
  it('verifyEndToEndId: BCB layout passes; other strings warn; non-strings fail', () => {
    expect(found(verifyEndToEndId('E12345678202611221015abcDEF12345', ctx))).toBeUndefined();
    expect(found(verifyEndToEndId('e2e_123', ctx))).toMatchObject({ code: 'id.e2e-format', severity: 'warning' });
    expect(found(verifyEndToEndId('E1234567820261122101abcDEF12345', ctx))?.code).toBe('id.e2e-format');
    expect(found(verifyEndToEndId(undefined, ctx))).toMatchObject({ code: 'id.e2e-type', severity: 'failure' });
    expect(found(verifyEndToEndId('', ctx))?.code).toBe('id.e2e-type');
  });
  it('verifyUuid', () => {
    expect(found(verifyUuid('0b8f5a52-8d5e-4c1e-9a51-0f8a4f1c2d3e', ctx))).toBeUndefined();
    expect(found(verifyUuid('0B8F5A52-8D5E-4C1E-9A51-0F8A4F1C2D3E', ctx))).toBeUndefined();
    expect(found(verifyUuid('0b8f5a528d5e4c1e9a510f8a4f1c2d3e', ctx))).toMatchObject({ code: 'id.uuid', severity: 'failure' });
    expect(found(verifyUuid(12, ctx))?.code).toBe('id.uuid');
  });
});
