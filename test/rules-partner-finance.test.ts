import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { capturePostingsOf, judgeCaptureWindow, ledgerTotals, newPostings, statementOf, verifyLastFifty, verifyPostingBalanced, verifyStatementShape } from '../harness/rules/partner/index.js';
import type { Statement } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

const posting = (id: string, amount: number, extra: Record<string, unknown> = {}) => ({
  id, event_type: 'payment.captured', description: `capture chg_${id}`, created_at: '2026-11-22T10:00:00Z',
  entries: [{ account_code: 'cash', direction: 'debit', amount_cents: amount }, { account_code: 'merchant', direction: 'credit', amount_cents: amount }],
  ...extra,
});
const statement = (available: number, transactions: unknown[]) => ({ merchant_id: 'm1', currency: 'BRL', available_cents: available, reserve_cents: 0, transactions });
const read = (json: unknown): Statement => statementOf(json, answer(200, json).exchange);

describe('verifyStatementShape', () => {
  it('accepts a conforming statement (reserve absent or null too, ISO 8601 in any form)', () => {
    expect(conforms(verifyStatementShape(statement(10, [posting('a', 5, { created_at: '20261122T100000Z' })]), {}))).toBe(true);
    expect(conforms(verifyStatementShape({ ...statement(10, []), reserve_cents: null }, {}))).toBe(true);
  });
  it('fails USD, amounts as strings, a bad direction, a non-object', () => {
    const bad = { ...statement(10, [{ ...posting('a', 5), entries: [{ account_code: 'x', direction: 'in', amount_cents: '5' }] }]), currency: 'USD', available_cents: '10' };
    expect(codes(verifyStatementShape(bad, {}))).toEqual(expect.arrayContaining(['finance.currency', 'finance.entry-direction', 'money.integer-cents']));
    expect(codes(verifyStatementShape([], {}))).toEqual(['finance.not-object']);
  });
  it('fails ORM-rendered rows under their own requirements: integer merchant_id and posting id, a Decimal reserve string', () => {
    const orm = { ...statement(10, [{ ...posting('a', 5), id: 1 }]), merchant_id: 7, reserve_cents: '0.00' };
    const j = verifyStatementShape(orm, {});
    const byRequirement = (id: string) => j.findings.filter((f) => f.severity === 'failure' && f.requirements.includes(id as never)).length;
    expect(byRequirement('PT-FIN-MERCHANT-ID')).toBe(1);
    expect(byRequirement('PT-FIN-RESERVE')).toBe(1);
    expect(byRequirement('PT-FIN-TX-SHAPE')).toBe(1);
  });
  it('fails a statement inside an envelope once, under PT-FIN-GET; a statement with only some fields is judged field by field', () => {
    const j = verifyStatementShape({ data: statement(10, []) }, {});
    expect(codes(j)).toEqual(['finance.not-statement']);
    expect(j.findings[0]?.requirements).toEqual(['PT-FIN-GET']);
    expect(codes(verifyStatementShape({ available_cents: 10, transactions: [] }, {}))).not.toContain('finance.not-statement');
  });
});

describe('verifyLastFifty', () => {
  const n = (k: number) => statement(0, Array.from({ length: k }, (_, i) => posting(`p${i}`, 1)));
  it('accepts 50 of a longer ledger and 3 of a short one', () => {
    expect(conforms(verifyLastFifty(n(50), { requirements: ['PT-FIN-LAST-50'], ledgerHoldsMore: true }))).toBe(true);
    expect(conforms(verifyLastFifty(n(3), { requirements: ['PT-FIN-LAST-50'], ledgerHoldsMore: false }))).toBe(true);
  });
  it('fails 51, and 20 of a ledger known to hold more than 50', () => {
    expect(codes(verifyLastFifty(n(51), { requirements: ['PT-FIN-LAST-50'], ledgerHoldsMore: true }))).toEqual(['finance.over-50']);
    expect(codes(verifyLastFifty(n(20), { requirements: ['PT-FIN-LAST-50'], ledgerHoldsMore: true }))).toEqual(['finance.under-50']);
  });
});

describe('ledger totals and balance (one computation)', () => {
  it('ledgerTotals sums debits, credits and the volume', () => {
    expect(ledgerTotals(posting('a', 5))).toEqual({ debits: 5, credits: 5, negative: false, volume: 10 });
  });
  it('verifyPostingBalanced accepts a balanced posting, fails an unbalanced one, only warns on a negative amount', () => {
    expect(conforms(verifyPostingBalanced(posting('a', 5), { requirements: ['PT-FIN-BALANCED'] }))).toBe(true);
    expect(severities(verifyPostingBalanced({ ...posting('a', 5), entries: [{ account_code: 'x', direction: 'credit', amount_cents: 5 }] }, { requirements: ['PT-FIN-BALANCED'] }))).toEqual(['finance.unbalanced:failure']);
    const negative = { ...posting('a', 5), entries: [{ account_code: 'cash', direction: 'debit', amount_cents: -5 }, { account_code: 'merchant', direction: 'credit', amount_cents: -5 }] };
    expect(severities(verifyPostingBalanced(negative, { requirements: ['PT-FIN-BALANCED'] }))).toEqual(['finance.unbalanced:warning']);
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
});

describe('judgeCaptureWindow', () => {
  const before = read(statement(100, [posting('old', 1)]));
  const window = (after: unknown, extra = {}) => judgeCaptureWindow({ before, after: read(after), charge: { id: 'chg_c' }, amount: 500, exchanges: [], ...extra });
  it('accepts one capture that raises the balance by its gross or net', () => {
    expect(conforms(window(statement(600, [posting('c', 500), posting('old', 1)])).judgement)).toBe(true);
    const net = { ...posting('c', 500), entries: [{ account_code: 'cash', direction: 'debit', amount_cents: 500 }, { account_code: 'merchant', direction: 'credit', amount_cents: 480 }, { account_code: 'fee', direction: 'credit', amount_cents: 20 }] };
    expect(conforms(window(statement(580, [net, posting('old', 1)])).judgement)).toBe(true);
  });
  it('accepts a move explained by concurrent postings of others', () => {
    expect(conforms(window(statement(650, [posting('other', 50), posting('c', 500), posting('old', 1)])).judgement)).toBe(true);
  });
  it('fails a double capture (two identical postings, or a doubled move under concurrency)', () => {
    expect(severities(window(statement(1100, [posting('c', 500), { ...posting('c', 500), id: 'c2', description: 'capture chg_c' }, posting('old', 1)])).judgement)).toContain('atomic.double-capture:failure');
    expect(severities(window(statement(1100, [posting('c', 500), posting('old', 1)]), { concurrent: true }).judgement)).toContain('atomic.double-capture:failure');
  });
  it('fails a capture of a charge that ended canceled', () => {
    expect(severities(window(statement(600, [posting('c', 500), posting('old', 1)]), { mustNotCapture: true }).judgement)).toEqual(['atomic.canceled-captured:failure']);
  });
  it('warns (ambiguous requirements) on no capture posting and a stale balance', () => {
    expect(severities(window(statement(100, [posting('old', 1)])).judgement)).toEqual(['finance.no-capture:warning', 'finance.balance-stale:warning']);
  });
});
