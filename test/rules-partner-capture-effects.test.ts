// harness/rules/partner/capture-effects.ts: the effects of a capture beyond its posting (issue 15).
import { describe, expect, it } from 'vitest';
import { accountMovements, ensureCreditFollowsLedger, ensureOnePaidEvent } from '../harness/rules/partner/capture-effects.js';
import type { Judgement } from '../harness/rules/finding.js';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const decided = (j: Judgement): boolean => j.requirements.length > 0;

const split = { id: 'txn_1', entries: [
  { account_code: 'psp_clearing', direction: 'debit', amount_cents: 10_000 },
  { account_code: 'merchant_available', direction: 'credit', amount_cents: 9_901 },
  { account_code: 'fee_revenue', direction: 'credit', amount_cents: 99 },
] };
const whole = { id: 'txn_2', entries: [
  { account_code: 'psp_clearing', direction: 'debit', amount_cents: 10_000 },
  { account_code: 'merchant_available', direction: 'credit', amount_cents: 10_000 },
] };
const ctx = { requirements: ['PT-FIN-AVAILABLE-RELIABLE'] as const };

describe('accountMovements', () => {
  it('nets credits minus debits per account over several postings', () => {
    const fee = { entries: [{ account_code: 'merchant_available', direction: 'debit', amount_cents: 99 }, { account_code: 'fee_revenue', direction: 'credit', amount_cents: 99 }] };
    expect(Object.fromEntries(accountMovements([whole, fee]))).toEqual({ psp_clearing: -10_000, merchant_available: 9_901, fee_revenue: 99 });
  });
});

describe('ensureCreditFollowsLedger', () => {
  it('accepts a move by the net the posting credits, and the gross when the gross is credited whole (no fee is shown)', () => {
    expect(codes(ensureCreditFollowsLedger({ amount: 10_000, delta: 9_901, postings: [split], quiet: true }, ctx))).toEqual([]);
    expect(codes(ensureCreditFollowsLedger({ amount: 10_000, delta: 10_000, postings: [whole], quiet: true }, ctx))).toEqual([]);
    // debit-normal layout with a fee: the clearing side is credited the gross, nothing contradicts a gross move
    const debitNormal = { entries: [{ account_code: 'merchant', direction: 'debit', amount_cents: 9_901 }, { account_code: 'fee', direction: 'debit', amount_cents: 99 }, { account_code: 'clearing', direction: 'credit', amount_cents: 10_000 }] };
    expect(codes(ensureCreditFollowsLedger({ amount: 10_000, delta: 10_000, postings: [debitNormal], quiet: true }, ctx))).toEqual([]);
  });
  it('reports a gross move when the posting splits a fee off and credits no account the whole amount (a warning: PT-FIN-AVAILABLE-RELIABLE carries latitude: warning)', () => {
    expect(codes(ensureCreditFollowsLedger({ amount: 10_000, delta: 10_000, postings: [split], quiet: true }, ctx))).toEqual(['warning:finance.credited-gross']);
  });
  it('decides nothing in a noisy window, without a balance move, or without postings', () => {
    expect(decided(ensureCreditFollowsLedger({ amount: 10_000, delta: 10_000, postings: [split], quiet: false }, ctx))).toBe(false);
    expect(decided(ensureCreditFollowsLedger({ amount: 10_000, delta: undefined, postings: [split], quiet: true }, ctx))).toBe(false);
    expect(decided(ensureCreditFollowsLedger({ amount: 10_000, delta: 10_000, postings: [], quiet: true }, ctx))).toBe(false);
  });
});

describe('ensureOnePaidEvent', () => {
  const atomic = { requirements: ['PT-ATOMIC-CAPTURE'] as const };
  it('accepts one event id, delivered any number of times', () => {
    expect(codes(ensureOnePaidEvent([{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_1', e2eId: 'E1' }], atomic))).toEqual([]);
    expect(codes(ensureOnePaidEvent([], atomic))).toEqual([]);
  });
  it('fails two paid events with different e2e_ids (two confirmations), warns two ids for one e2e_id', () => {
    expect(codes(ensureOnePaidEvent([{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_2', e2eId: 'E2' }], atomic))).toEqual(['failure:atomicity.event-twice']);
    expect(codes(ensureOnePaidEvent([{ id: 'evt_1', e2eId: 'E1' }, { id: 'evt_2', e2eId: 'E1' }], atomic))).toEqual(['warning:atomicity.event-twice']);
  });
});
