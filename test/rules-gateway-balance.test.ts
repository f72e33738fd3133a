import { describe, expect, it } from 'vitest';
import { verifyBalanceBuckets } from '../harness/rules/gateway/balance.js';

const c = { requirements: ['GW-BAL-STRINGS-2DP', 'GW-BAL-FIELDS'] as const };
const body = (data: Record<string, unknown>) => ({ success: true, data });

describe('verifyBalanceBuckets ("strings in reais, 2 decimals"; reserve "if applicable")', () => {
  it('accepts the three buckets as 2-decimal strings', () => {
    const j = verifyBalanceBuckets(body({ pix: { balance: '10.50' }, pixBlocked: { balance: '0.00' }, reserve: { balance: '-3.25' } }), c);
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(['GW-BAL-STRINGS-2DP', 'GW-BAL-FIELDS']);
  });
  it('accepts an absent or null reserve', () => {
    expect(verifyBalanceBuckets(body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' } }), c).findings).toEqual([]);
    expect(verifyBalanceBuckets(body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' }, reserve: null }), c).findings).toEqual([]);
  });
  it('fails numbers, one decimal, a present reserve without a string, a missing pixBlocked', () => {
    expect(verifyBalanceBuckets(body({ pix: { balance: 10.5 }, pixBlocked: { balance: '0.00' } }), c).findings.map((f) => f.code)).toEqual(['money.balance-string']);
    expect(verifyBalanceBuckets(body({ pix: { balance: '10.5' }, pixBlocked: { balance: '0.00' } }), c).findings).toHaveLength(1);
    expect(verifyBalanceBuckets(body({ pix: { balance: '1.00' }, pixBlocked: { balance: '0.00' }, reserve: { balance: 0 } }), c).findings).toHaveLength(1);
    expect(verifyBalanceBuckets(body({ pix: { balance: '1.00' } }), c).findings[0]?.pointer).toBe('/data/pixBlocked');
  });
});
