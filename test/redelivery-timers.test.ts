import { describe, expect, it } from 'vitest';
import { CONTRACT_CALL_TIMEOUT_MS, CONTRACT_RETRY_CAP_MS, gapSlackMs, redeliveryTimers, redeliveryToleranceMs, timersFromReferenceEnv } from '../harness/webhooks/redelivery-timers.js';

describe('partner redelivery timers', () => {
  it('are the contract values by default', () => {
    expect(redeliveryTimers({})).toEqual({ capMs: CONTRACT_RETRY_CAP_MS, callTimeoutMs: CONTRACT_CALL_TIMEOUT_MS, compressed: false });
    expect(gapSlackMs(redeliveryTimers({}))).toBe(30_000);
  });

  it('can only be shortened', () => {
    expect(redeliveryTimers({ PAYGATE_PARTNER_RETRY_CAP_MS: '800', PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS: '2000' })).toEqual({ capMs: 800, callTimeoutMs: 2000, compressed: true });
    for (const bad of ['600000', '0', '-5', 'soon', ' ']) {
      expect(redeliveryTimers({ PAYGATE_PARTNER_RETRY_CAP_MS: bad, PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS: bad })).toMatchObject({ capMs: CONTRACT_RETRY_CAP_MS, callTimeoutMs: CONTRACT_CALL_TIMEOUT_MS, compressed: false });
    }
    expect(gapSlackMs(redeliveryTimers({ PAYGATE_PARTNER_RETRY_CAP_MS: '800' }))).toBe(1_000);
  });

  it("an embedded run takes the reference's timers unless the operator set them", () => {
    expect(timersFromReferenceEnv({ REFERENCE_PARTNER_RETRY_CAP_MS: '800', REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS: '2000' })).toEqual({ PAYGATE_PARTNER_RETRY_CAP_MS: '800', PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS: '2000' });
    expect(timersFromReferenceEnv({ REFERENCE_PARTNER_RETRY_CAP_MS: '800', PAYGATE_PARTNER_RETRY_CAP_MS: '1000' })).toEqual({});
    expect(timersFromReferenceEnv({})).toEqual({});
  });
});

describe('redeliveryToleranceMs', () => {
  it('is the contract\'s 300 s, compressed with the cap (plus 1 s for whole-second t and the slack), never more than 300 s', () => {
    expect(redeliveryToleranceMs(redeliveryTimers({}))).toBe(300_000);
    expect(redeliveryToleranceMs(redeliveryTimers({ PAYGATE_PARTNER_RETRY_CAP_MS: '800' }))).toBe(800 + 1_000 + 1_000);
    expect(redeliveryToleranceMs(redeliveryTimers({ PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS: '2000' }))).toBe(300_000);
  });
});
