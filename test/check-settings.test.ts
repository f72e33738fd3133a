import { describe, expect, it } from 'vitest';
import { checkBudgetMs, runSettings } from '../harness/run/check.js';

describe('run settings', () => {
  it('reads the PAYGATE_ variables the CLI sets, with defaults for a bare vitest', () => {
    expect(runSettings({})).toMatchObject({ profile: 'quick', seed: 42, runs: undefined, strict: false, api: 'both', maxRps: undefined, timeoutMs: undefined });
    expect(runSettings({ PAYGATE_PROFILE: 'certify', PAYGATE_SEED: '7', PAYGATE_RUNS: '100', PAYGATE_STRICT: '1', PAYGATE_API: 'partner', PAYGATE_MAX_RPS: '2.5', PAYGATE_TEST_TIMEOUT_MS: '90000' })).toMatchObject({
      profile: 'certify', seed: 7, runs: 100, strict: true, api: 'partner', maxRps: 2.5, timeoutMs: 90_000,
    });
  });
});

describe('a check\'s time limit', () => {
  const quick = { profile: 'quick', runs: undefined, maxRps: undefined, timeoutMs: undefined } as const;
  it('is the check\'s own in quick without a rate cap', () => {
    expect(checkBudgetMs({}, quick)).toBe(60_000);
    expect(checkBudgetMs({ timeoutMs: 180_000 }, quick)).toBe(180_000);
  });
  it('grows with the property runs and under a rate cap, so a slow conforming target is not cut off', () => {
    expect(checkBudgetMs({}, { ...quick, profile: 'full' })).toBe(240_000);
    expect(checkBudgetMs({}, { ...quick, runs: 80 })).toBe(600_000);
    expect(checkBudgetMs({}, { ...quick, profile: 'certify', maxRps: 2.5 })).toBe(60_000 * 4 * 8);
    expect(checkBudgetMs({}, { ...quick, maxRps: 100 })).toBe(60_000);
  });
  it('keeps timer checks\' own limit; PAYGATE_TEST_TIMEOUT_MS replaces every limit', () => {
    expect(checkBudgetMs({ tier: 'timer' }, { ...quick, profile: 'full', maxRps: 1 })).toBe(15 * 60_000);
    expect(checkBudgetMs({ tier: 'timer', timeoutMs: 30 * 60_000 }, quick)).toBe(30 * 60_000);
    expect(checkBudgetMs({ tier: 'timer' }, { ...quick, timeoutMs: 5_000 })).toBe(5_000);
  });
});
