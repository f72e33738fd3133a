// Money leaving the balance and the sandbox's "never confirm by themselves"
// (harness/rules/gateway/{ledger,sandbox}.ts): each rule accepts and rejects, at the edges of its
// latitude. The separation of accounts and environments is in rules-gateway-isolation.test.ts.
import { describe, expect, it } from 'vitest';
import { judgeCompletionAboveBalance, judgeTransferDebitWindows, type DebitWindow } from '../harness/rules/gateway/ledger.js';
import { ensureNeverConfirmedBySelf } from '../harness/rules/gateway/sandbox.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

const NOTHING = { requirements: [], findings: [] };
describe('judgeTransferDebitWindows', () => {
  const win = (amount: number, delta: number, quiet = true, fees = 0): DebitWindow => ({ amount, fees, delta, quiet, exchange: exchange(200, {}), text: `${amount}→${delta}` });
  it('passes a debit of the amount, or within the fees either side', () => {
    expect(found(judgeTransferDebitWindows([win(500, -500)]))).toEqual([]);
    expect(found(judgeTransferDebitWindows([win(500, -510, true, 10)]))).toEqual([]);
    expect(judgeTransferDebitWindows([win(500, -490, true, 10)]).requirements).toEqual(['GW-PIXOUT-COMPLETE-BALANCE', 'GW-BAL-FIELDS']);
  });

  it('fails two quiet windows without a debit, decides nothing on one, or on noisy ones', () => {
    expect(judgeTransferDebitWindows([win(500, 0)])).toEqual(NOTHING);
    expect(judgeTransferDebitWindows([win(500, 0, false), win(700, 0, false)])).toEqual(NOTHING);
    expect(found(judgeTransferDebitWindows([win(500, 0), win(700, 0)]))).toEqual(['failure:balance.pix-debit']);
  });

  it('decides nothing on two quiet wrong windows that disagree (concurrent movements)', () => {
    expect(judgeTransferDebitWindows([win(500, 1_234), win(700, -3)])).toEqual(NOTHING);
  });
});

describe('judgeCompletionAboveBalance', () => {
  it('fails a completion that left the balance negative', () => {
    expect(found(judgeCompletionAboveBalance(answer(200, {}), { amount: 5_000, before: 990, after: -4_010 }))).toEqual(['failure:pixout.completed-without-balance']);
  });

  it('decides nothing on a refusal or when a concurrent credit covered it', () => {
    expect(judgeCompletionAboveBalance(answer(400, {}), { amount: 5_000, before: 990, after: 990 })).toEqual(NOTHING);
    expect(judgeCompletionAboveBalance(answer(200, {}), { amount: 5_000, before: 990, after: 10 })).toEqual(NOTHING);
  });
});

describe('ensureNeverConfirmedBySelf', () => {
  const look = (status: unknown) => ({ status, exchange: exchange(200, { data: { status } }) });
  it('passes a charge pending at every lookup', () => {
    const j = ensureNeverConfirmedBySelf([look('pending'), look('pending'), look('pending')]);
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-SANDBOX-NO-AUTO-CONFIRM']);
  });

  it('fails a charge paid at a later lookup', () => {
    expect(found(ensureNeverConfirmedBySelf([look('pending'), look('paid')]))).toEqual(['failure:charge.confirmed-by-itself']);
  });

  it('decides nothing without a readable status', () => {
    expect(ensureNeverConfirmedBySelf([look(undefined)])).toEqual(NOTHING);
  });
});
