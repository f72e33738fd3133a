import { describe, expect, it } from 'vitest';
import { ensureNeverConfirmedBySelf } from '../harness/rules/gateway/sandbox.js';
import { exchange, found } from './rules-gateway-fixtures.js';

describe('ensureNeverConfirmedBySelf ("Sandbox: PIX payments never confirm by themselves")', () => {
  const look = (status: unknown) => ({ status, exchange: exchange(200, { data: { status } }) });
  it('passes a charge pending at every lookup', () => {
    const j = ensureNeverConfirmedBySelf.judge({ lookups: [look('pending'), look('pending'), look('pending')] });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-SANDBOX-NO-AUTO-CONFIRM']);
  });
  it('fails a charge paid (or refunded) at a later lookup', () => {
    expect(found(ensureNeverConfirmedBySelf.judge({ lookups: [look('pending'), look('paid')] }))).toEqual(['failure:sandbox.confirmed-by-itself']);
    expect(found(ensureNeverConfirmedBySelf.judge({ lookups: [look('refunded')] }))).toEqual(['failure:sandbox.confirmed-by-itself']);
  });
  it('decides nothing without a readable status', () => {
    expect(ensureNeverConfirmedBySelf.judge({ lookups: [look(undefined)] }).requirements).toEqual([]);
  });
});
