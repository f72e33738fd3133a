// harness/rules/partner/finance.ts: the statement, its postings, and a capture judged as conservation of money.
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  accountMovements,
  balancePostings,
  capturePostingsOf,
  captureDestinations,
  captureOnPay,
  keepAvailableReliable,
  ledgerTotals,
  newPostings,
  readCaptureWindow,
  returnFinanceStatement,
  showLastFiftyPostings,
  statementOf,
  verifyCaptureWindow,
  verifyStatementFields,
} from '../harness/rules/partner/index.js';
import type { CaptureWindow, Statement } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

const entry = (account_code: string, direction: 'debit' | 'credit', amount_cents: number) => ({ account_code, direction, amount_cents });
const posting = (id: string, amount: number, extra: Record<string, unknown> = {}) => ({
  id, event_type: 'payment.captured', description: `capture chg_${id}`, created_at: '2026-11-22T10:00:00Z',
  entries: [entry('cash', 'debit', amount), entry('merchant', 'credit', amount)],
  ...extra,
});
const statement = (available: number, transactions: unknown[], reserve: unknown = 0) => ({ merchant_id: 'm1', currency: 'BRL', available_cents: available, reserve_cents: reserve, transactions });
const read = (json: unknown): Statement => statementOf(json, answer(200, json).exchange);
const shape = (json: unknown) => verifyStatementFields.judge({ json, exchange: answer(200, json).exchange });

describe('returnFinanceStatement', () => {
  it('accepts the statement object (any 2xx); decides nothing on a 429', () => {
    expect(conforms(returnFinanceStatement.judge(answer(200, statement(10, []))))).toBe(true);
    expect(returnFinanceStatement.judge(answer(429, {})).requirements).toEqual([]);
  });
  it('fails a statement inside an envelope once, a non-object, a 5xx', () => {
    expect(codes(returnFinanceStatement.judge(answer(200, { data: statement(10, []) })))).toEqual(['finance.not-statement']);
    expect(codes(returnFinanceStatement.judge(answer(200, [])))).toEqual(['finance.not-object']);
    expect(codes(returnFinanceStatement.judge(answer(503, {})))).toEqual(['finance.status']);
  });
});

describe('verifyStatementFields', () => {
  it('accepts a conforming statement (reserve absent or null too, ISO 8601 in any form)', () => {
    expect(conforms(shape(statement(10, [posting('a', 5, { created_at: '20261122T100000Z' })])))).toBe(true);
    // a posting dated hours after the statement showing it (a zone offset applied the wrong way) fails; drift passes
    const dated = (created: string) => {
      const json = statement(10, [posting('a', 5, { created_at: created })]);
      const exchange = answer(200, json).exchange;
      if (exchange.response) exchange.response.headers['date'] = 'Sun, 22 Nov 2026 12:00:00 GMT';
      return verifyStatementFields.judge({ json, exchange });
    };
    expect(codes(dated('2026-11-22T15:00:00-03:00'))).toEqual(['finance.created-at-future']);
    expect(conforms(dated('2026-11-22T09:10:00-03:00'))).toBe(true);
    expect(conforms(shape({ ...statement(10, []), reserve_cents: null }))).toBe(true);
    const { reserve_cents: _none, ...withoutReserve } = statement(10, []);
    expect(conforms(shape(withoutReserve))).toBe(true);
  });
  it('fails USD, amounts as strings, a bad direction', () => {
    const bad = { ...statement(10, [{ ...posting('a', 5), entries: [{ account_code: 'x', direction: 'in', amount_cents: '5' }] }]), currency: 'USD', available_cents: '10' };
    expect(codes(shape(bad))).toEqual(expect.arrayContaining(['finance.currency', 'finance.entry-direction', 'finance.not-cents']));
  });
  it('fails ORM-rendered rows under their own requirements: integer merchant_id and posting id, a Decimal reserve string', () => {
    const j = shape({ ...statement(10, [{ ...posting('a', 5), id: 1 }]), merchant_id: 7, reserve_cents: '0.00' });
    const byRequirement = (id: string) => j.findings.filter((f) => f.severity === 'failure' && f.requirements.includes(id as never)).length;
    expect(byRequirement('PT-FIN-MERCHANT-ID')).toBe(1);
    expect(byRequirement('PT-FIN-RESERVE')).toBe(1);
    expect(byRequirement('PT-FIN-TX-SHAPE')).toBe(1);
  });
  it('a posting created_at that is no ISO 8601 fails; a space for the T only warns', () => {
    const at = (created_at: unknown) => shape(statement(10, [posting('a', 5, { created_at })]));
    expect(severities(at('22/11/2026 10:00'))).toEqual(['finance.created-at:failure']);
    expect(at(1_795_000_000).findings[0]).toMatchObject({ requirements: ['PT-FIN-TX-SHAPE'], pointer: '/transactions/0/created_at' });
    expect(severities(at('2026-11-22 10:00:00Z'))).toEqual(['finance.created-at-spaced:warning']);
  });
  it('judges a statement with only some fields field by field, and nothing of a body that is not one', () => {
    expect(codes(shape({ available_cents: 10, transactions: [] }))).toEqual(['finance.currency', 'finance.merchant-id']);
    expect(shape({ data: statement(10, []) }).requirements).toEqual([]);
  });
});

describe('showLastFiftyPostings', () => {
  const n = (k: number) => statement(0, Array.from({ length: k }, (_, i) => posting(`p${i}`, 1)));
  const count = (json: unknown, ledgerHoldsMore: boolean) => showLastFiftyPostings.judge({ kind: 'count', json, exchange: answer(200, json).exchange, ledgerHoldsMore });
  it('accepts 50 of a longer ledger and 3 of a short one', () => {
    expect(conforms(count(n(50), true))).toBe(true);
    expect(conforms(count(n(3), false))).toBe(true);
  });
  it('fails 51, 20 of a ledger known to hold more than 50, and transactions that are no array', () => {
    expect(codes(count(n(51), true))).toEqual(['finance.over-50']);
    expect(codes(count(n(20), true))).toEqual(['finance.under-50']);
    expect(codes(count({ ...n(0), transactions: {} }, false))).toEqual(['finance.transactions']);
  });
  const window = (beforeIds: number, afterIds: number, balances: [number, number]) => showLastFiftyPostings.judge({
    kind: 'window',
    before: read(statement(balances[0], Array.from({ length: 50 }, (_, i) => posting(`t${beforeIds + i}`, 1)))),
    after: read(statement(balances[1], Array.from({ length: 50 }, (_, i) => posting(`t${afterIds + i}`, 1)))),
  });
  it('accepts a full statement whose shown postings changed with the balance', () => {
    expect(conforms(window(0, 1, [100, 190]))).toBe(true);
  });
  it('fails a full statement that shows the same 50 postings although the balance moved', () => {
    expect(codes(window(0, 0, [100, 190]))).toEqual(['finance.not-last-50']);
  });
  it('decides nothing when the balance did not move', () => {
    expect(window(0, 0, [100, 100]).requirements).toEqual([]);
  });
});

describe('balancePostings', () => {
  const judge = (p: Record<string, unknown>) => balancePostings.judge({ posting: p, exchange: answer(200).exchange });
  it('ledgerTotals sums debits, credits and the volume', () => {
    expect(ledgerTotals(posting('a', 5))).toEqual({ debits: 5, credits: 5, negative: false, volume: 10 });
  });
  it('accepts a balanced posting, fails an unbalanced one, only warns on a negative amount', () => {
    expect(conforms(judge(posting('a', 5)))).toBe(true);
    expect(severities(judge({ ...posting('a', 5), entries: [entry('x', 'credit', 5)] }))).toEqual(['finance.unbalanced:failure']);
    expect(severities(judge({ ...posting('a', 5), entries: [entry('cash', 'debit', -5), entry('merchant', 'credit', -5)] }))).toEqual(['finance.negative-entry:warning']);
  });
});

describe('capturePostingsOf (one attribution)', () => {
  it('finds a posting by charge id or e2e_id, else a new one with the distinctive amount', () => {
    const ps = [posting('x', 7), { ...posting('y', 9), description: 'capture E2E1' }, { ...posting('z', 7_123_456), description: 'capture' }];
    expect(capturePostingsOf(ps, { id: 'chg_x' }).map((p) => p.id)).toEqual(['x']);
    expect(capturePostingsOf(ps, { id: 'nope', e2eId: 'E2E1' }).map((p) => p.id)).toEqual(['y']);
    expect(capturePostingsOf(ps, { id: 'nope', distinctiveAmount: 7_123_456 }, new Set(['z'])).map((p) => p.id)).toEqual(['z']);
    expect(capturePostingsOf(ps, { id: 'nope', distinctiveAmount: 7_123_456 }, new Set(['x']))).toEqual([]);
  });
  it('newPostings is undefined when the 50 shown moved past every earlier posting', () => {
    const before = read(statement(0, [posting('a', 1)]));
    expect(newPostings(before, read(statement(0, [posting('b', 1), posting('a', 1)])))?.map((p) => p.id)).toEqual(['b']);
    expect(newPostings(before, read(statement(0, [posting('b', 1)])))).toBeUndefined();
  });
  it('accountMovements nets credits minus debits per account over several postings', () => {
    const fee = { entries: [entry('merchant_available', 'debit', 99), entry('fee_revenue', 'credit', 99)] };
    const whole = { entries: [entry('psp_clearing', 'debit', 10_000), entry('merchant_available', 'credit', 10_000)] };
    expect(Object.fromEntries(accountMovements([whole, fee]))).toEqual({ psp_clearing: -10_000, merchant_available: 9_901, fee_revenue: 99 });
  });
});

/**
 * A capture of 10 000 cents under the layouts the text allows: any account names, a fee or none, a
 * reserve withheld in the capture posting, in entries added to it, in a posting of its own, or
 * outside the ledger; postings credit-normal or debit-normal.
 */
describe('a capture as conservation of money', () => {
  const G = 10_000;
  const capture = (entries: unknown[], id = 'c', description = 'PIX charge chg_c captured') => ({ id, event_type: 'payment.captured', description, created_at: '2026-11-22T10:00:00Z', entries });
  const before = read(statement(100_000, [posting('old', 1)], 500));
  const reading = (after: { available: number; reserve?: unknown; postings: unknown[] }, extra: Partial<CaptureWindow> = {}) =>
    readCaptureWindow({ before, after: read(statement(after.available, [...after.postings, posting('old', 1)], after.reserve ?? 500)), charge: { id: 'chg_c' }, amount: G, exchanges: [], ...extra });
  const judged = (after: { available: number; reserve?: unknown; postings: unknown[] }, extra: Partial<CaptureWindow> = {}) => verifyCaptureWindow.judge(reading(after, extra));

  // the layouts of a capture that credits the merchant 9 000 available and withholds 901 into the reserve, fee 99
  const split = capture([entry('psp_clearing', 'debit', G), entry('merchant_available', 'credit', 9_000), entry('risk_reserve', 'credit', 901), entry('fee_revenue', 'credit', 99)]);
  const holdEntries = capture([entry('clr', 'debit', G), entry('acct_1', 'credit', 9_901), entry('rev', 'credit', 99), entry('acct_1', 'debit', 901), entry('acct_2', 'credit', 901)]);
  const holdPosting = [capture([entry('clr', 'debit', G), entry('acct_1', 'credit', 9_901), entry('rev', 'credit', 99)]), capture([entry('acct_1', 'debit', 901), entry('acct_2', 'credit', 901)], 'h', 'PIX charge chg_c: risk reserve withheld')];

  it('accepts a reserve split, however it posts: the 9-cent part of a 10-cent net is not a double capture', () => {
    for (const postings of [[split], [holdEntries], holdPosting]) {
      expect(conforms(judged({ available: 109_000, reserve: 1_401, postings }))).toBe(true);
      expect(conforms(judged({ available: 109_000, reserve: 1_401, postings }, { concurrent: true }))).toBe(true);
    }
    // issue 26's case: +9 cents available on a 10-cent net, 1 cent withheld
    const tiny = readCaptureWindow({ before, after: read(statement(100_009, [capture([entry('a', 'debit', 10), entry('b', 'credit', 9), entry('c', 'credit', 1)]), posting('old', 1)], 501)), charge: { id: 'chg_c' }, amount: 10, exchanges: [], concurrent: true });
    expect(conforms(verifyCaptureWindow.judge(tiny))).toBe(true);
  });
  it('accepts a reserve withheld outside the ledger, and a reserve the statement does not show', () => {
    const gross = capture([entry('clr', 'debit', G), entry('merchant', 'credit', 9_901), entry('fee', 'credit', 99)]);
    expect(conforms(judged({ available: 109_000, reserve: 1_401, postings: [gross] }))).toBe(true);
    const unshown = read(statement(100_000, [posting('old', 1)], null));
    const noReserve = readCaptureWindow({ before: unshown, after: read(statement(109_000, [split, posting('old', 1)], null)), charge: { id: 'chg_c' }, amount: G, exchanges: [], concurrent: true });
    expect(noReserve.reserveMove).toBe(0);
    expect(conforms(verifyCaptureWindow.judge(noReserve))).toBe(true);
  });
  it('accepts fees and no fees, credit-normal or debit-normal, whatever the accounts are called', () => {
    const fee = capture([entry('x', 'debit', G), entry('y', 'credit', 9_901), entry('z', 'credit', 99)]);
    expect(conforms(judged({ available: 109_901, postings: [fee] }))).toBe(true);
    const free = capture([entry('x', 'debit', G), entry('y', 'credit', G)]);
    expect(conforms(judged({ available: 110_000, postings: [free] }))).toBe(true);
    const debitNormal = capture([entry('merchant', 'debit', 9_901), entry('fee', 'debit', 99), entry('clearing', 'credit', G)]);
    expect(conforms(judged({ available: 109_901, postings: [debitNormal] }))).toBe(true);
  });
  it('accepts a capture with no posting attributed to it (only warned) that moved the balance within the amount', () => {
    expect(severities(judged({ available: 109_000, postings: [] }))).toEqual(['finance.no-capture:warning']);
  });
  it('fails a true double capture under concurrency: the balances moved about twice what the charge brought in', () => {
    const fee = capture([entry('x', 'debit', G), entry('y', 'credit', 9_901), entry('z', 'credit', 99)]);
    expect(severities(judged({ available: 119_802, postings: [fee] }, { concurrent: true }))).toEqual(['atomic.double-capture:failure']);
    // with a reserve: each confirmation credited available and the reserve again
    expect(severities(judged({ available: 118_000, reserve: 2_302, postings: [split] }, { concurrent: true }))).toEqual(['atomic.double-capture:failure']);
    // two identical postings, in any window
    expect(severities(judged({ available: 120_000, postings: [posting('c', G), { ...posting('c', G), id: 'c2' }] }))).toContain('atomic.double-capture:failure');
  });
  it('bounds a window with other postings by what they could move', () => {
    const fee = capture([entry('x', 'debit', G), entry('y', 'credit', 9_901), entry('z', 'credit', 99)]);
    expect(conforms(judged({ available: 109_951, postings: [posting('other', 50), fee] }))).toBe(true);
    expect(conforms(judged({ available: 110_001, postings: [posting('other', 50), fee] }, { concurrent: true }))).toBe(true);
    expect(severities(judged({ available: 130_000, postings: [posting('other', 50), fee] }))).toEqual(['finance.balance-unexplained:warning']);
  });
  it('reports a balance the postings contradict (warnings: PT-FIN-AVAILABLE-RELIABLE is ambiguous)', () => {
    // the gross credited while the posting splits a fee off, in either layout
    expect(severities(judged({ available: 110_000, postings: [capture([entry('clr', 'debit', G), entry('m', 'credit', 9_901), entry('f', 'credit', 99)])] }))).toEqual(['finance.balance-off-ledger:warning']);
    expect(severities(judged({ available: 110_000, postings: [capture([entry('m', 'debit', 9_901), entry('f', 'debit', 99), entry('clr', 'credit', G)])] }))).toEqual(['finance.balance-off-ledger:warning']);
    // the balance doubled by one confirmation: more than the charge brought in
    expect(severities(judged({ available: 119_802, postings: [capture([entry('x', 'debit', G), entry('y', 'credit', 9_901), entry('z', 'credit', 99)])] }))).toEqual(['finance.balance-unexplained:warning']);
  });
  it('fails a capture that lowers the balances (PT-FIN-CAPTURE-NO-LOSS: no reading lets money received lower them)', () => {
    const fee = capture([entry('x', 'debit', G), entry('y', 'credit', 9_901), entry('z', 'credit', 99)]);
    // a sign error: the posting is right, available falls by the net
    expect(severities(judged({ available: 90_099, postings: [fee] }))).toEqual(['finance.balance-fell:failure']);
    expect(judged({ available: 90_099, postings: [fee] }).findings.map((f) => f.requirements)).toEqual([['PT-FIN-CAPTURE-NO-LOSS']]);
    // a fall other new postings of the window could explain is not judged a loss
    expect(severities(judged({ available: 99_960, postings: [posting('other', 50), fee] }))).not.toContain('finance.balance-fell:failure');
    // money moved from available to the reserve is still the merchant's
    expect(severities(judged({ available: 95_000, reserve: 15_000, postings: [fee] }))).not.toContain('finance.balance-fell:failure');
  });
  it('reports a stale balance, with or without a posting', () => {
    expect(severities(judged({ available: 100_000, postings: [split] }))).toEqual(['finance.balance-stale:warning']);
    expect(severities(judged({ available: 100_000, postings: [] }))).toEqual(['finance.no-capture:warning', 'finance.balance-stale:warning']);
    // everything withheld into the reserve: the money is accounted for
    expect(conforms(judged({ available: 100_000, reserve: 10_401, postings: [capture([entry('x', 'debit', G), entry('r', 'credit', 9_901), entry('f', 'credit', 99)])] }))).toBe(true);
  });
  it('decides nothing on a window that is not fully visible or a balance that is not an integer', () => {
    const full = read(statement(100_000, Array.from({ length: 50 }, (_, i) => posting(`p${i}`, 1))));
    const moved = readCaptureWindow({ before: full, after: read(statement(200_000, Array.from({ length: 50 }, (_, i) => posting(`q${i}`, 1)))), charge: { id: 'chg_c' }, amount: G, exchanges: [] });
    expect(keepAvailableReliable.judge(moved).requirements).toEqual([]);
    expect(captureOnPay.judge(moved).requirements).toEqual([]);
    expect(keepAvailableReliable.judge(readCaptureWindow({ before, after: read({ ...statement(0, []), available_cents: '1' }), charge: { id: 'chg_c' }, amount: G, exchanges: [] })).requirements).toEqual([]);
  });
  it('captureDestinations reads where the money went on the side opposite the clearing account', () => {
    expect(captureDestinations([split])?.sort((a, b) => a - b)).toEqual([99, 901, 9_000]);
    expect(captureDestinations([capture([entry('m', 'debit', 9_901), entry('f', 'debit', 99), entry('c', 'credit', G)])])?.sort((a, b) => a - b)).toEqual([99, 9_901]);
    expect(captureDestinations([capture([entry('a', 'credit', 5)])])).toBeUndefined();
  });
});
