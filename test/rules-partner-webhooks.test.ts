import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { isEventTypeVariant, judgeEventArrival, judgeRedeliveries, judgeTimedOutDelivery, serviceClockOffsetMs, verifyPartnerEvent } from '../harness/rules/partner/index.js';
import { answer, codes, delivery, severities } from './rules-partner-fixtures.js';

const paid = { id: 'evt_1', type: 'business.pix.paid', created_at: '2026-11-22T10:00:00Z', data: { amount_cents: 1050, e2e_id: 'E1', external_ref: ' ref ' } };
const expected = { type: 'business.pix.paid', amount: 1050, externalRef: ' ref ', e2eId: 'E1' };

describe('verifyPartnerEvent', () => {
  it('accepts the documented body; created events may omit e2e_id', () => {
    expect(conforms(verifyPartnerEvent(delivery(paid), expected))).toBe(true);
    const created = { ...paid, type: 'business.pix.created', data: { amount_cents: 1050, external_ref: ' ref ', e2e_id: null } };
    expect(conforms(verifyPartnerEvent(delivery(created), { ...expected, type: 'business.pix.created' }))).toBe(true);
  });
  it('fails a trimmed external_ref, another type, a paid event without e2e_id, a non-event', () => {
    expect(codes(verifyPartnerEvent(delivery({ ...paid, data: { ...paid.data, external_ref: 'ref' } }), expected))).toEqual(['charge.external-ref-changed']);
    expect(codes(verifyPartnerEvent(delivery({ ...paid, type: 'pix.paid' }), expected))).toEqual(['webhook.events']);
    expect(severities(verifyPartnerEvent(delivery({ ...paid, data: { ...paid.data, e2e_id: '' } }), expected))).toEqual(['charge.e2e-missing:failure']);
    expect(codes(verifyPartnerEvent(delivery([1]), expected))).toEqual(['webhook.payload']);
  });
});

describe('an event serialised by a generic bus (enum constant type, epoch created_at)', () => {
  it('is found as a variant of its own name only, and fails PT-WH-EVENT-TYPES and PT-WH-BODY-SHAPE', () => {
    expect(isEventTypeVariant('BUSINESS_PIX_PAID', 'business.pix.paid')).toBe(true);
    expect(isEventTypeVariant('pix.paid', 'business.pix.paid')).toBe(true);
    expect(isEventTypeVariant('business.pix.cancelled', 'business.pix.canceled')).toBe(true);
    expect(isEventTypeVariant('business.pix.paid', 'business.pix.paid')).toBe(false);
    expect(isEventTypeVariant('BUSINESS_PIX_CREATED', 'business.pix.paid')).toBe(false);
    expect(isEventTypeVariant('paid', 'business.pix.paid')).toBe(false);
    expect(isEventTypeVariant('business.pix.updated', 'business.pix.paid')).toBe(false);
    expect(isEventTypeVariant(undefined, 'business.pix.paid')).toBe(false);
    const j = verifyPartnerEvent(delivery({ ...paid, type: 'BUSINESS_PIX_PAID', created_at: 1_795_000_000 }), expected);
    const failing = j.findings.filter((f) => f.severity === 'failure').flatMap((f) => f.requirements);
    expect(failing).toEqual(expect.arrayContaining(['PT-WH-EVENT-TYPES', 'PT-WH-BODY-SHAPE']));
  });
});

describe('serviceClockOffsetMs', () => {
  it('serviceClockOffsetMs reads the service clock from an answer', () => {
    const ex = answer(200).exchange; // started 2026-11-22T10:00:00Z, 20 ms
    expect(serviceClockOffsetMs(ex, '2026-11-22T10:00:10.010Z')).toBe(10_000);
    expect(serviceClockOffsetMs(ex, 'x')).toBeUndefined();
  });
});

describe('judgeEventArrival (our wait is patience, not a contract timer)', () => {
  const ctx = { requirements: ['PT-EVT-PAID'] as const, type: 'business.pix.paid', ref: 'r', waitedMs: 20_000 };
  it('accepts an arrival', () => {
    expect(conforms(judgeEventArrival(delivery(paid), ctx))).toBe(true);
  });
  it('warns without evidence, fails when a later event arrived', () => {
    expect(severities(judgeEventArrival(undefined, ctx))).toEqual(['webhook.not-delivered:warning']);
    expect(severities(judgeEventArrival(undefined, { ...ctx, laterEvent: 'business.pix.created' }))).toEqual(['webhook.missing:failure']);
  });
});

describe('judgeRedeliveries / judgeTimedOutDelivery', () => {
  const at = (gaps: number[], ids?: string[]) => {
    let t = 0;
    return [0, ...gaps].map((g, i) => ({ receivedAt: (t += g), json: { id: ids?.[i] ?? 'evt_1' } }));
  };
  const base = { capMs: 300_000, slackMs: 5_000, longestGapMs: 320_000, compressed: false, concludedMissing: false };
  it('accepts 8 attempts with doubling gaps under the cap, and doubling that reaches the cap', () => {
    expect(conforms(judgeRedeliveries({ ...base, attempts: at([1000, 2000, 4000, 8000, 16000, 32000, 64000]) }))).toBe(true);
    const j = judgeRedeliveries({ ...base, capMs: 4000, slackMs: 500, attempts: at([1014, 2003, 4004, 4006, 4008, 4010, 4005]) });
    expect(conforms(j)).toBe(true);
    expect(j.requirements).toContain('PT-WH-BACKOFF');
  });
  it('fails constant gaps, a 9th attempt, new ids, an uncapped gap, no retry at all', () => {
    expect(codes(judgeRedeliveries({ ...base, attempts: at([1000, 1000, 1000, 1000]) }))).toEqual(['webhook.backoff']);
    expect(codes(judgeRedeliveries({ ...base, attempts: at([1, 2, 4, 8, 16, 32, 64, 128]) }))).toEqual(['webhook.too-many-attempts']);
    expect(codes(judgeRedeliveries({ ...base, attempts: at([1000], ['a', 'b']) }))).toEqual(['webhook.redelivery-new-id']);
    expect(codes(judgeRedeliveries({ ...base, attempts: at([100_000, 200_000, 400_000]) }))).toEqual(['webhook.backoff-cap']);
    expect(codes(judgeRedeliveries({ ...base, attempts: at([]), concludedMissing: true }))).toEqual(['webhook.no-redelivery']);
  });
  it('a call answered after the timeout: redelivered passes, not redelivered warns', () => {
    expect(conforms(judgeTimedOutDelivery(at([15_000]), { answeredAfterMs: 15_000, timeoutMs: 10_000 }))).toBe(true);
    expect(severities(judgeTimedOutDelivery(at([]), { answeredAfterMs: 15_000, timeoutMs: 10_000 }))).toEqual(['webhook.no-timeout:warning']);
  });
});
