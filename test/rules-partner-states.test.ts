// harness/rules/partner/states.ts: the transition table row by row, and "never capture the value twice".
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  cancelPendingCharge,
  carryE2eWhenPaid,
  confirmPendingCharge,
  expireLazily,
  keepPaidTerminal,
  moveOnceFromPending,
  neverCaptureTwice,
  readCaptureWindow,
  refuseCancelUnlessPending,
  refusePayAfterExpiry,
  statementOf,
} from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

const seen = (state: unknown, status = 200) => ({ answer: answer(status), state });

describe('confirmPendingCharge', () => {
  it('accepts a 2xx pay with any body (204 included) and paid afterwards', () => {
    expect(conforms(confirmPendingCharge.judge({ kind: 'pay', answer: answer(204) }))).toBe(true);
    expect(conforms(confirmPendingCharge.judge({ kind: 'pay', answer: answer(200, { ok: true }) }))).toBe(true);
    expect(conforms(confirmPendingCharge.judge({ kind: 'state', seen: seen('paid'), why: 'x' }))).toBe(true);
  });
  it('fails a refused pay, a charge not paid afterwards, concurrent pays none of which succeeded', () => {
    expect(codes(confirmPendingCharge.judge({ kind: 'pay', answer: answer(404, { detail: 'x' }) }))).toEqual(['pay.status']);
    expect(codes(confirmPendingCharge.judge({ kind: 'state', seen: seen('pending'), why: 'x' }))).toEqual(['pay.not-paid']);
    expect(codes(confirmPendingCharge.judge({ kind: 'race', answers: [answer(409), answer(409)] }))).toEqual(['pay.no-winner']);
    expect(conforms(confirmPendingCharge.judge({ kind: 'race', answers: [answer(200), answer(409)] }))).toBe(true);
  });
  it('decides nothing on a lookup rate limited, nor on a race with a 429', () => {
    expect(confirmPendingCharge.judge({ kind: 'state', seen: seen(undefined, 429), why: 'x' }).requirements).toEqual([]);
    expect(confirmPendingCharge.judge({ kind: 'race', answers: [answer(429), answer(409)] }).requirements).toEqual([]);
  });
});

describe('cancelPendingCharge', () => {
  it('accepts 204 with no body, and canceled afterwards', () => {
    expect(conforms(cancelPendingCharge.judge({ kind: 'cancel', answer: answer(204) }))).toBe(true);
    expect(conforms(cancelPendingCharge.judge({ kind: 'state', seen: seen('canceled'), why: 'x' }))).toBe(true);
  });
  it('fails a 409 and a charge still pending', () => {
    expect(codes(cancelPendingCharge.judge({ kind: 'cancel', answer: answer(409, { detail: 'x' }) }))).toEqual(['cancel.status']);
    expect(codes(cancelPendingCharge.judge({ kind: 'state', seen: seen('pending'), why: 'x' }))).toEqual(['cancel.not-canceled']);
  });
});

describe('refuseCancelUnlessPending ("Cancel from paid, expired or canceled answers 409.")', () => {
  it('accepts 409 {detail}, deciding the expired clause for an expired charge', () => {
    expect(conforms(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: answer(409, { detail: 'paid' }), state: 'paid' }))).toBe(true);
    expect(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: answer(409, { detail: 'x' }), state: 'expired' }).requirements).toContain('PT-CHARGE-CANCEL-EXPIRED-409');
  });
  it('fails a 2xx, a 422, an expired charge canceled', () => {
    expect(codes(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: answer(200, {}), state: 'paid' }))).toEqual(['cancel.not-409']);
    expect(codes(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: answer(422, { detail: 'x' }), state: 'canceled' }))).toEqual(['cancel.not-409']);
    expect(codes(refuseCancelUnlessPending.judge({ kind: 'state', seen: seen('canceled') }))).toEqual(['cancel.expired-canceled']);
  });
  it('in a race: a 2xx cancel that won or a 409 that lost pass; a 2xx while the pay won fails', () => {
    expect(conforms(refuseCancelUnlessPending.judge({ kind: 'race', cancel: answer(204), finalState: 'canceled' }))).toBe(true);
    expect(conforms(refuseCancelUnlessPending.judge({ kind: 'race', cancel: answer(409, { detail: 'x' }), finalState: 'paid' }))).toBe(true);
    expect(codes(refuseCancelUnlessPending.judge({ kind: 'race', cancel: answer(200), finalState: 'paid' }))).toEqual(['cancel.accepted-when-paid']);
  });
});

describe('pay of a charge that is no longer pending (status not shown)', () => {
  it('accepts any 4xx; warns on a 2xx (the state lookup decides); fails a 5xx', () => {
    expect(conforms(keepPaidTerminal.judge({ kind: 'pay', answer: answer(409) }))).toBe(true);
    expect(conforms(keepPaidTerminal.judge({ kind: 'pay', answer: answer(422) }))).toBe(true);
    expect(severities(keepPaidTerminal.judge({ kind: 'pay', answer: answer(200) }))).toEqual(['paid-terminal.pay-accepted:warning']);
    expect(severities(keepPaidTerminal.judge({ kind: 'pay', answer: answer(503) }))).toEqual(['paid-terminal.pay-status:failure']);
    expect(severities(moveOnceFromPending.judge({ kind: 'pay', answer: answer(200), state: 'canceled' }))).toEqual(['one-transition.pay-accepted:warning']);
    expect(severities(refusePayAfterExpiry.judge({ kind: 'pay', answer: answer(200) }))).toEqual(['expired-pay.accepted:warning']);
  });
  it('fails the state changed afterwards', () => {
    expect(codes(keepPaidTerminal.judge({ kind: 'state', seen: seen('canceled'), why: 'x' }))).toEqual(['paid-terminal.changed']);
    expect(codes(moveOnceFromPending.judge({ kind: 'state', seen: seen('paid'), expected: 'canceled', why: 'x' }))).toEqual(['one-transition.state']);
    expect(codes(refusePayAfterExpiry.judge({ kind: 'state', seen: seen('paid') }))).toEqual(['expired-pay.not-expired']);
  });
});

describe('moveOnceFromPending: pay ‖ cancel, the list', () => {
  const race = (pay: number, cancel: number, finalState: unknown) => moveOnceFromPending.judge({ kind: 'race', pay: answer(pay), cancel: answer(cancel), finalState });
  it('accepts pay won (cancel 409) and cancel won (pay 4xx)', () => {
    expect(conforms(race(200, 409, 'paid'))).toBe(true);
    expect(conforms(race(409, 204, 'canceled'))).toBe(true);
  });
  it('fails another final state, no winner; warns when the pay answered 2xx but the cancel won', () => {
    expect(codes(race(200, 409, 'pending'))).toEqual(['one-transition.race-state']);
    expect(codes(race(409, 409, 'canceled'))).toEqual(['one-transition.no-winner']);
    expect(severities(race(200, 200, 'canceled'))).toEqual(['one-transition.pay-ignored:warning']);
  });
  it('fails a charge listed twice', () => {
    const list = { items: [{ id: 'a', status: 'pending' }, { id: 'a', status: 'paid' }], shape: 'top-level array', paged: false };
    expect(codes(moveOnceFromPending.judge({ kind: 'listed', list, exchange: answer(200).exchange }))).toEqual(['one-transition.listed-twice']);
  });
});

describe('expireLazily', () => {
  it('fails a charge still pending past expires_at, and one not expired on lookup', () => {
    const at = new Date('2026-11-22T11:02:00Z');
    expect(conforms(expireLazily.judge({ kind: 'still-pending', lastState: 'expired', expiresAt: '2026-11-22T11:00:00Z', skewMs: 60_000, at }))).toBe(true);
    expect(codes(expireLazily.judge({ kind: 'still-pending', lastState: 'pending', expiresAt: '2026-11-22T11:00:00Z', skewMs: 60_000, at }))).toEqual(['expiry.still-pending']);
    expect(codes(expireLazily.judge({ kind: 'state', seen: seen('pending'), why: 'x' }))).toEqual(['expiry.not-expired']);
  });
  it('only warns on a listing showing it pending (whether a listing is a lookup is not stated)', () => {
    expect(conforms(expireLazily.judge({ kind: 'listed', item: { status: 'expired' }, exchange: answer(200).exchange }))).toBe(true);
    expect(severities(expireLazily.judge({ kind: 'listed', item: { status: 'pending' }, exchange: answer(200).exchange }))).toEqual(['expiry.listed-pending:warning']);
    expect(expireLazily.judge({ kind: 'listed', item: undefined, exchange: answer(200).exchange }).requirements).toEqual([]);
  });
});

describe('neverCaptureTwice', () => {
  it('concurrent pays: each 2xx or 4xx (several 2xx accepted); a 5xx fails', () => {
    expect(conforms(neverCaptureTwice.judge({ kind: 'answers', answers: [answer(200), answer(409), answer(200)] }))).toBe(true);
    expect(codes(neverCaptureTwice.judge({ kind: 'answers', answers: [answer(200), answer(500)] }))).toEqual(['atomic.pay-status']);
  });
  it('paid events: one id (however often delivered) passes; two ids with two e2e_ids fail, with one e2e_id warn', () => {
    expect(conforms(neverCaptureTwice.judge({ kind: 'events', events: [{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_1', e2eId: 'E1' }] }))).toBe(true);
    expect(conforms(neverCaptureTwice.judge({ kind: 'events', events: [] }))).toBe(true);
    expect(severities(neverCaptureTwice.judge({ kind: 'events', events: [{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_2', e2eId: 'E2' }] }))).toEqual(['atomic.event-twice:failure']);
    expect(severities(neverCaptureTwice.judge({ kind: 'events', events: [{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_2', e2eId: 'E1' }] }))).toEqual(['atomic.event-announced-twice:warning']);
  });
  it('fails a capture of a charge that ended canceled after a pay raced its cancel', () => {
    const p = { id: 'c', event_type: 'payment.captured', description: 'PIX charge chg_c captured', created_at: '2026-11-22T10:00:00Z', entries: [] };
    const before = statementOf({ available_cents: 0, transactions: [] }, answer(200).exchange);
    const after = statementOf({ available_cents: 0, transactions: [p] }, answer(200).exchange);
    expect(codes(neverCaptureTwice.judge({ kind: 'ledger', reading: readCaptureWindow({ before, after, charge: { id: 'chg_c' }, amount: 5, exchanges: [] }), endedCanceled: true }))).toEqual(['atomic.canceled-captured']);
    expect(conforms(neverCaptureTwice.judge({ kind: 'ledger', reading: readCaptureWindow({ before, after: before, charge: { id: 'chg_c' }, amount: 5, exchanges: [] }), endedCanceled: true }))).toBe(true);
  });
  it('a single confirmation\'s window decides nothing unless identical postings show (the ledger cases: rules-partner-finance)', () => {
    const before = statementOf({ available_cents: 0, transactions: [] }, answer(200).exchange);
    const after = statementOf({ available_cents: 20, transactions: [] }, answer(200).exchange);
    expect(neverCaptureTwice.judge({ kind: 'ledger', reading: readCaptureWindow({ before, after, charge: { id: 'c' }, amount: 10, exchanges: [] }) }).requirements).toEqual([]);
    expect(codes(neverCaptureTwice.judge({ kind: 'ledger', reading: readCaptureWindow({ before, after, charge: { id: 'c' }, amount: 10, exchanges: [], concurrent: true }) }))).toEqual(['atomic.double-capture']);
  });
});

describe('carryE2eWhenPaid', () => {
  it('accepts a paid charge and its paid event with one e2e_id', () => {
    expect(conforms(carryE2eWhenPaid.judge({ kind: 'charge', charge: { e2e_id: 'E12345678202611221000abcdefghijk' }, exchange: answer(200).exchange }))).toBe(true);
    expect(conforms(carryE2eWhenPaid.judge({ kind: 'event', e2eId: 'E1', chargeE2eId: 'E1', where: 'x' }))).toBe(true);
    expect(conforms(carryE2eWhenPaid.judge({ kind: 'event', e2eId: 'E1', chargeE2eId: undefined, where: 'x' }))).toBe(true);
  });
  it('fails a paid charge or a paid event without one, and two different ones', () => {
    expect(severities(carryE2eWhenPaid.judge({ kind: 'charge', charge: { e2e_id: null }, exchange: answer(200).exchange }))).toEqual(['e2e.missing-on-charge:failure']);
    expect(codes(carryE2eWhenPaid.judge({ kind: 'event', e2eId: '', chargeE2eId: 'E1', where: 'x' }))).toEqual(['e2e.missing-in-event']);
    expect(codes(carryE2eWhenPaid.judge({ kind: 'event', e2eId: 'E2', chargeE2eId: 'E1', where: 'x' }))).toEqual(['e2e.event-differs']);
  });
});
