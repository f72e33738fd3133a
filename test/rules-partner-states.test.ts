import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  ensureCancelAccepted,
  ensureExpiredOnLookup,
  ensurePayAccepted,
  ensurePayRefused,
  expectChargeState,
  verifyListedExpired,
  verifyPaidChargeE2e,
} from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('expectChargeState', () => {
  it('accepts the expected state; decides nothing on a 429', () => {
    expect(conforms(expectChargeState({ answer: answer(200), state: 'paid' }, 'paid', { requirements: ['PT-CHARGE-GET-CURRENT'], why: 'x' }))).toBe(true);
    expect(expectChargeState({ answer: answer(429) }, 'paid', { requirements: ['PT-CHARGE-GET-CURRENT'], why: 'x' }).requirements).toEqual([]);
  });
  it('fails another state', () => {
    expect(codes(expectChargeState({ answer: answer(200), state: 'pending' }, 'canceled', { requirements: ['PT-CHARGE-CANCEL-PENDING'], why: 'after cancel' }))).toEqual(['charge.state']);
  });
});

describe('cancel and pay of a pending charge: "Response body: not shown"', () => {
  it('accept 204 with no body, and 200', () => {
    expect(conforms(ensureCancelAccepted(answer(204), { requirements: ['PT-CHARGE-CANCEL-PENDING'] }))).toBe(true);
    expect(conforms(ensurePayAccepted(answer(200, { ok: true }), { requirements: ['PT-CHARGE-PAY-CONFIRMS'] }))).toBe(true);
  });
  it('fail a 409 or a 5xx', () => {
    expect(codes(ensureCancelAccepted(answer(409, { detail: 'x' }), { requirements: ['PT-CHARGE-CANCEL-PENDING'] }))).toEqual(['status.unexpected']);
    expect(codes(ensurePayAccepted(answer(500), { requirements: ['PT-CHARGE-PAY-CONFIRMS'] }))).toEqual(['target.5xx']);
  });
});

describe('ensurePayRefused (pay of a non-pending charge: status not shown)', () => {
  it('accepts any 4xx', () => {
    expect(conforms(ensurePayRefused(answer(409), { requirements: ['PT-STATE-PAID-TERMINAL'], state: 'paid' }))).toBe(true);
    expect(conforms(ensurePayRefused(answer(422), { requirements: ['PT-STATE-PAID-TERMINAL'], state: 'paid' }))).toBe(true);
  });
  it('warns on a 2xx (the state lookup decides), fails a 5xx', () => {
    expect(severities(ensurePayRefused(answer(200), { requirements: ['PT-STATE-PAID-TERMINAL'], state: 'paid' }))).toEqual(['charge.pay-accepted:warning']);
    expect(severities(ensurePayRefused(answer(503), { requirements: ['PT-STATE-PAID-TERMINAL'], state: 'paid' }))).toEqual(['target.5xx:failure']);
  });
});

describe('verifyPaidChargeE2e', () => {
  it('accepts a paid charge with e2e_id', () => {
    expect(conforms(verifyPaidChargeE2e({ e2e_id: 'E12345678202611221000abcdefghijk' }, { requirements: ['PT-CHARGE-E2E-WHEN-PAID'] }))).toBe(true);
  });
  it('fails a paid charge without one (issue 15)', () => {
    expect(severities(verifyPaidChargeE2e({ e2e_id: null }, { requirements: ['PT-CHARGE-E2E-WHEN-PAID'] }))).toEqual(['charge.e2e-missing:failure']);
  });
});

describe('expiry rules', () => {
  it('ensureExpiredOnLookup fails a charge still pending past expires_at', () => {
    const at = new Date('2026-11-22T11:02:00Z');
    expect(conforms(ensureExpiredOnLookup({ lastState: 'expired', expiresAt: '2026-11-22T11:00:00Z', skewMs: 60_000, at }, { requirements: ['PT-CHARGE-EXPIRY-LAZY'] }))).toBe(true);
    expect(codes(ensureExpiredOnLookup({ lastState: 'pending', expiresAt: '2026-11-22T11:00:00Z', skewMs: 60_000, at }, { requirements: ['PT-CHARGE-EXPIRY-LAZY'] }))).toEqual(['charge.not-expired']);
  });
  it('verifyListedExpired only warns (whether a listing is a lookup is not stated)', () => {
    expect(conforms(verifyListedExpired({ status: 'expired' }, { requirements: ['PT-CHARGE-EXPIRY-LIST'] }))).toBe(true);
    expect(severities(verifyListedExpired({ status: 'pending' }, { requirements: ['PT-CHARGE-EXPIRY-LIST'] }))).toEqual(['list.stale-expiry:warning']);
    expect(verifyListedExpired(undefined, { requirements: ['PT-CHARGE-EXPIRY-LIST'] }).requirements).toEqual([]);
  });
});
