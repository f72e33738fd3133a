// harness/rules/partner/brcode-limits.ts: a charge beyond what field 54 can hold (issue 15).
import { describe, expect, it } from 'vitest';
import { UNREPRESENTABLE_AMOUNT_CENTS, verifyLargeAmountBrCode } from '../harness/rules/partner/brcode-limits.js';
import { buildDynamicBrCode } from '../generators/brcode-fields.js';
import { centsToDecimal } from '../harness/rules/emv.js';
import type { Judgement } from '../harness/rules/finding.js';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const parts = { url: 'pix.example.com/qr/v2/abcdef0123', name: 'LOJA', city: 'SAO PAULO', txid: '***', mcc: '0000' };

describe('verifyLargeAmountBrCode', () => {
  it('accepts a BR Code that leaves the amount to the payload location (no field 54)', () => {
    expect(codes(verifyLargeAmountBrCode(buildDynamicBrCode(parts), {}))).toEqual([]);
  });
  it('fails a BR Code whose field 54 holds the whole amount (14 characters)', () => {
    const amount = centsToDecimal(UNREPRESENTABLE_AMOUNT_CENTS);
    expect(amount.length).toBe(14);
    expect(codes(verifyLargeAmountBrCode(buildDynamicBrCode({ ...parts, amount }), {}))).toEqual(['failure:emv.structure']);
  });
});
