import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  announceStateChanges,
  isEventTypeVariant,
  keepEventIdAcrossAttempts,
  nameEventsAsDocumented,
  serviceClockOffsetMs,
  shapeEventBodies,
  timeOutSlowDeliveries,
  verifyRedeliveries,
} from '../harness/rules/partner/index.js';
import type { PartnerDelivery } from '../harness/rules/partner/index.js';
import { answer, codes, delivery, severities } from './rules-partner-fixtures.js';

const paid = { id: 'evt_1', type: 'business.pix.paid', created_at: '2026-11-22T10:00:00Z', data: { amount_cents: 1050, e2e_id: 'E1', external_ref: ' ref ' } };
const expected = { type: 'business.pix.paid', amount: 1050, externalRef: ' ref ', e2eId: 'E1' };

/** An event judged as verifyDelivery (suites/partner/webhooks.test.ts) does: name, body, external_ref, e2e_id. */
const body = (d: PartnerDelivery, type = expected.type) => [nameEventsAsDocumented.judge({ delivery: d, type }), shapeEventBodies.judge({ delivery: d, amount: expected.amount })];

describe('nameEventsAsDocumented / shapeEventBodies', () => {
  it('accept the documented body; created events may omit e2e_id', () => {
    expect(conforms(body(delivery(paid)))).toBe(true);
    const created = { ...paid, type: 'business.pix.created', data: { amount_cents: 1050, external_ref: ' ref ', e2e_id: null } };
    expect(conforms(body(delivery(created), 'business.pix.created'))).toBe(true);
  });
  it('fail another type, another amount, no id, a non-event (judged once, by its shape)', () => {
    expect(body(delivery({ ...paid, type: 'pix.paid' })).flatMap(codes)).toEqual(['webhook.event-type']);
    expect(body(delivery({ ...paid, data: { ...paid.data, amount_cents: 105 } })).flatMap(codes)).toEqual(['webhook.amount']);
    expect(body(delivery({ ...paid, id: '' })).flatMap(codes)).toEqual(['webhook.event-id']);
    expect(body(delivery([1])).flatMap(codes)).toEqual(['webhook.payload']);
  });
  it('fail a created_at that is no ISO 8601; a space for the T only warns', () => {
    expect(body(delivery({ ...paid, created_at: 1_795_000_000 })).flatMap(severities)).toEqual(['webhook.created-at:failure']);
    expect(body(delivery({ ...paid, created_at: '2026-11-22 10:00:00Z' })).flatMap(severities)).toEqual(['webhook.created-at-spaced:warning']);
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
    const failing = body(delivery({ ...paid, type: 'BUSINESS_PIX_PAID', created_at: 1_795_000_000 })).flatMap((j) => j.findings).filter((f) => f.severity === 'failure').flatMap((f) => f.requirements);
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

describe('announceStateChanges (our wait is patience, not a contract timer)', () => {
  const arrival = { kind: 'arrival' as const, type: 'business.pix.paid', ref: 'r', waitedMs: 20_000 };
  it('accepts an arrival, deciding the event\'s row', () => {
    const j = announceStateChanges.judge({ ...arrival, delivery: delivery(paid) });
    expect(conforms(j)).toBe(true);
    expect(j.requirements).toEqual(['PT-WH-STATE-CHANGE', 'PT-EVT-PAID', 'PT-CHARGE-PAY-WEBHOOK']);
  });
  it('warns without evidence, fails when a later event arrived', () => {
    expect(severities(announceStateChanges.judge({ ...arrival, delivery: undefined }))).toEqual(['webhook.not-delivered:warning']);
    expect(severities(announceStateChanges.judge({ ...arrival, delivery: undefined, laterEvent: 'business.pix.created' }))).toEqual(['webhook.missing:failure']);
  });
  it('a delivery is a POST with a JSON body', () => {
    const d = { ...delivery(paid), path: '/partner', method: 'POST' };
    expect(conforms(announceStateChanges.judge({ kind: 'post', delivery: d }))).toBe(true);
    expect(announceStateChanges.judge({ kind: 'post', delivery: { ...d, method: 'PUT' } }).findings.map((f) => f.requirements)).toEqual([['PT-WH-STATE-CHANGE']]);
  });
});

describe('verifyRedeliveries / timeOutSlowDeliveries', () => {
  const at = (gaps: number[], ids?: string[]) => {
    let t = 0;
    return [0, ...gaps].map((g, i) => ({ receivedAt: (t += g), json: { id: ids?.[i] ?? 'evt_1' } }));
  };
  const base = { capMs: 300_000, slackMs: 5_000, longestGapMs: 320_000, compressed: false, concludedMissing: false };
  it('accepts 8 attempts with doubling gaps under the cap, and doubling that reaches the cap', () => {
    expect(conforms(verifyRedeliveries.judge({ ...base, attempts: at([1000, 2000, 4000, 8000, 16000, 32000, 64000]) }))).toBe(true);
    const j = verifyRedeliveries.judge({ ...base, capMs: 4000, slackMs: 500, attempts: at([1014, 2003, 4004, 4006, 4008, 4010, 4005]) });
    expect(conforms(j)).toBe(true);
    expect(j.requirements).toContain('PT-WH-BACKOFF');
  });
  it('fails constant gaps, a 9th attempt, new ids, an uncapped gap, no retry at all; warns on fewer than 8', () => {
    expect(codes(verifyRedeliveries.judge({ ...base, attempts: at([1000, 1000, 1000, 1000]) }))).toEqual(['webhook.backoff']);
    expect(codes(verifyRedeliveries.judge({ ...base, attempts: at([1, 2, 4, 8, 16, 32, 64, 128]) }))).toEqual(['webhook.too-many-attempts']);
    expect(codes(verifyRedeliveries.judge({ ...base, attempts: at([1000], ['a', 'b']) }))).toEqual(['webhook.redelivery-new-id']);
    expect(codes(verifyRedeliveries.judge({ ...base, attempts: at([100_000, 200_000, 400_000]) }))).toEqual(['webhook.backoff-cap']);
    expect(severities(verifyRedeliveries.judge({ ...base, attempts: at([]), concludedMissing: true }))).toEqual(['webhook.never-retried:failure']);
    expect(severities(verifyRedeliveries.judge({ ...base, attempts: at([1000, 2000]), concludedMissing: true }))).toEqual(['webhook.few-attempts:warning']);
  });
  it('a call answered after the timeout: redelivered under one id passes, not redelivered warns', () => {
    expect(conforms(timeOutSlowDeliveries.judge({ found: at([15_000]), answeredAfterMs: 15_000, timeoutMs: 10_000 }))).toBe(true);
    expect(severities(timeOutSlowDeliveries.judge({ found: at([]), answeredAfterMs: 15_000, timeoutMs: 10_000 }))).toEqual(['webhook.no-timeout:warning']);
    expect(codes(keepEventIdAcrossAttempts.judge(at([15_000], ['a', 'b'])))).toEqual(['webhook.redelivery-new-id']);
  });
});
