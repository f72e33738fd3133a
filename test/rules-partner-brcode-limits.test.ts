// verifyChargeBrCode (harness/rules/partner/charges.ts) of a charge beyond what field 54 can hold.
import { describe, expect, it } from 'vitest';
import { UNREPRESENTABLE_AMOUNT_CENTS, verifyChargeBrCode } from '../harness/rules/partner/charges.js';
import { buildDynamicBrCode } from '../generators/brcode-fields.js';
import { centsToDecimal } from '../harness/rules/emv.js';
import type { Judgement } from '../harness/rules/finding.js';
import { answer } from './rules-partner-fixtures.js';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const exchange = answer(200).exchange;
const parts = { url: 'pix.example.com/qr/v2/abcdef0123', name: 'LOJA', city: 'SAO PAULO', txid: '***', mcc: '0000' };

describe('verifyChargeBrCode of an amount beyond field 54', () => {
  it('accepts a BR Code that leaves the amount to the payload location (no field 54)', () => {
    expect(codes(verifyChargeBrCode.judge({ charge: { qr_code: buildDynamicBrCode(parts) }, exchange, amountCents: UNREPRESENTABLE_AMOUNT_CENTS }))).toEqual([]);
  });
  it('fails a BR Code whose field 54 holds the whole amount (14 characters)', () => {
    const amount = centsToDecimal(UNREPRESENTABLE_AMOUNT_CENTS);
    expect(amount.length).toBe(14);
    expect(codes(verifyChargeBrCode.judge({ charge: { qr_code: buildDynamicBrCode({ ...parts, amount }) }, exchange, amountCents: UNREPRESENTABLE_AMOUNT_CENTS }))).toEqual(['failure:emv.structure']);
  });
});
