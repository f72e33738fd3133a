import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { ensureLiveChargeUnpaid, ensureNotVisibleAcross, verifyBaseAddressVersion, verifySameAddress } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('ensureNotVisibleAcross', () => {
  it('accepts 404 {detail}; another 4xx only warns', () => {
    expect(conforms(ensureNotVisibleAcross(answer(404, { detail: 'not found' }), { requirements: ['PT-ENV-ISOLATION'], what: 'x' }))).toBe(true);
    expect(severities(ensureNotVisibleAcross(answer(403, { detail: 'other env' }), { requirements: ['PT-ENV-ISOLATION'], what: 'x' }))).toEqual(['status.unexpected:warning']);
  });
  it('fails a visible charge', () => {
    expect(codes(ensureNotVisibleAcross(answer(200, { id: 'c' }), { requirements: ['PT-ENV-ISOLATION'], what: 'x' }))).toEqual(['env.shared-data']);
  });
});

describe('ensureLiveChargeUnpaid', () => {
  it('accepts pending, fails paid', () => {
    expect(conforms(ensureLiveChargeUnpaid('pending', { requirements: ['PT-CHARGE-PAY-PROD-403'] }))).toBe(true);
    expect(codes(ensureLiveChargeUnpaid('paid', { requirements: ['PT-CHARGE-PAY-PROD-403'] }))).toEqual(['env.live-paid']);
  });
});

describe('verifyBaseAddressVersion', () => {
  it('accepts /v1, warns otherwise', () => {
    expect(conforms(verifyBaseAddressVersion('https://psp.example/v1', { requirements: ['PT-VERSION-V1'] }))).toBe(true);
    expect(severities(verifyBaseAddressVersion('https://psp.example/v2', { requirements: ['PT-VERSION-V1'] }))).toEqual(['config.version:warning']);
  });
});

describe('verifySameAddress', () => {
  const ctx = { requirements: ['PT-ENV-SAME-ADDRESS', 'PT-VERSION-SAME'] as const };
  it('accepts both keys served at one /v1 address', () => {
    expect(conforms(verifySameAddress(answer(200, {}), answer(200, {}), ctx))).toBe(true);
  });
  it('fails a key refused there, and two addresses', () => {
    expect(codes(verifySameAddress(answer(200, {}), answer(401, { detail: 'x' }), ctx))).toEqual(['status.unexpected']);
    expect(codes(verifySameAddress(answer(200, {}), answer(200, {}, 'https://live.example/v1/business/pix-charges'), ctx))).toEqual(['env.address-differs']);
  });
});
