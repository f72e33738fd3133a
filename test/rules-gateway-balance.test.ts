import { describe, expect, it } from 'vitest';
import { answerBalance, creditPaidPixCharge, debitCompletedTransfer, effectsAgree, reaisToCents, type BalanceWindow } from '../harness/rules/gateway/balance.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

const body = (data: Record<string, unknown>) => ({ success: true, data });
const NOTHING = { rule: 'debitCompletedTransfer', requirements: [], findings: [] };

describe('answerBalance ("strings in reais, 2 decimals"; reserve "if applicable")', () => {
  it('accepts the three buckets as 2-decimal strings, and an absent or null reserve', () => {
    const j = answerBalance.judge(answer(200, body({ pix: { balance: '10.50' }, pixBlocked: { balance: '0.00' }, reserve: { balance: '-3.25' } })));
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-BAL-200-SHAPE', 'GW-BAL-STRINGS-2DP']);
    expect(found(answerBalance.judge(answer(200, body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' } }))))).toEqual([]);
    expect(found(answerBalance.judge(answer(200, body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' }, reserve: null }))))).toEqual([]);
  });
  it('fails numbers, one decimal, a present reserve without a string, a missing pixBlocked, another status', () => {
    const number = answerBalance.judge(answer(200, body({ pix: { balance: 10.5 }, pixBlocked: { balance: '0.00' } })));
    expect(found(number)).toEqual(['failure:balance.not-reais']);
    expect(number.findings[0]?.requirements).toEqual(['GW-BAL-STRINGS-2DP']);
    expect(found(answerBalance.judge(answer(200, body({ pix: { balance: '10.5' }, pixBlocked: { balance: '0.00' } }))))).toEqual(['failure:balance.not-reais']);
    expect(found(answerBalance.judge(answer(200, body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' }, reserve: { balance: 0 } }))))).toEqual(['failure:balance.not-reais']);
    const missing = answerBalance.judge(answer(200, body({ pix: { balance: '1.00' } })));
    expect(found(missing)).toEqual(['failure:balance.bucket']);
    expect(missing.findings[0]?.pointer).toBe('/data/pixBlocked');
    expect(found(answerBalance.judge(answer(401, {})))).toEqual(['failure:balance.status']);
  });
  it('reaisToCents reads only 2-decimal strings', () => {
    expect(reaisToCents('10.50')).toBe(1050);
    expect(reaisToCents('-3.00')).toBe(-300);
    expect(reaisToCents('10.5')).toBeUndefined();
    expect(reaisToCents(10.5)).toBeUndefined();
  });
});

const w = (amount: number, fees: number, delta: number, quiet = true): BalanceWindow => ({ amount, fees, delta, quiet, exchange: exchange(200, {}), text: `${amount}→${delta}` });

describe('creditPaidPixCharge ("Paid PIX credit goes into the balance")', () => {
  it('passes a credit anywhere between net and gross', () => {
    expect(creditPaidPixCharge.judge([w(10_000, 100, 10_000)])).toMatchObject({ rule: 'creditPaidPixCharge', requirements: ['GW-PIXIN-PAID-CREDITS-BALANCE'], findings: [] });
    expect(found(creditPaidPixCharge.judge([w(10_000, 100, 9_900)]))).toEqual([]);
  });
  it('decides nothing on one wrong window or on unrelated ones', () => {
    expect(creditPaidPixCharge.judge([w(10_000, 100, 0)]).requirements).toEqual([]);
    expect(creditPaidPixCharge.judge([w(10_000, 100, 20_000), w(30_000, 100, 31_777)]).requirements).toEqual([]);
  });
  it('fails two quiet windows whose wrong credits agree (a systematic deviation)', () => {
    expect(found(creditPaidPixCharge.judge([w(10_000, 100, 20_000), w(30_000, 100, 60_000)]))).toEqual(['failure:balance.pix-credit']);
    expect(found(creditPaidPixCharge.judge([w(10_000, 100, 0), w(30_000, 100, 0)]))).toEqual(['failure:balance.pix-credit']);
  });
  it('effectsAgree: the same ratio or the same offset', () => {
    expect(effectsAgree({ delta: 200, amount: 100, expected: 100 }, { delta: 600, amount: 300, expected: 300 })).toBe(true);
    expect(effectsAgree({ delta: 150, amount: 100, expected: 100 }, { delta: 350, amount: 300, expected: 300 })).toBe(true);
    expect(effectsAgree({ delta: 150, amount: 100, expected: 100 }, { delta: 990, amount: 300, expected: 300 })).toBe(false);
  });
});

describe('debitCompletedTransfer ("pix.balance | available balance" pays a completed transfer)', () => {
  it('passes a debit of the amount, or within the fees either side', () => {
    expect(found(debitCompletedTransfer.judge([w(500, 0, -500)]))).toEqual([]);
    expect(found(debitCompletedTransfer.judge([w(500, 10, -510)]))).toEqual([]);
    expect(debitCompletedTransfer.judge([w(500, 10, -490)]).requirements).toEqual(['GW-BAL-FIELDS']);
  });
  it('fails two quiet windows without a debit, decides nothing on one, on noisy ones, or on disagreeing ones', () => {
    expect(debitCompletedTransfer.judge([w(500, 0, 0)])).toEqual(NOTHING);
    expect(debitCompletedTransfer.judge([w(500, 0, 0, false), w(700, 0, 0, false)])).toEqual(NOTHING);
    expect(found(debitCompletedTransfer.judge([w(500, 0, 0), w(700, 0, 0)]))).toEqual(['failure:balance.pix-debit']);
    expect(debitCompletedTransfer.judge([w(500, 0, 1_234), w(700, 0, -3)])).toEqual(NOTHING);
  });
});
