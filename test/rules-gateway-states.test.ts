import { describe, expect, it } from 'vitest';
import { verifySandboxCardOutcome } from '../harness/rules/gateway/states.js';
import { answer, found } from './rules-gateway-fixtures.js';

const data = (d: Record<string, unknown>) => ({ success: true, data: d });

describe('verifySandboxCardOutcome', () => {
  const sent = { token: 'ctoken_ok', brand: 'Visa', last4: '4242' };
  it('accepts paid for a plain token and refused for a decline token, with any 2xx', () => {
    expect(found(verifySandboxCardOutcome(answer(201, data({ status: 'paid', card: { brand: 'Visa', last4: '4242' } })), sent))).toEqual([]);
    expect(found(verifySandboxCardOutcome(answer(200, data({ status: 'refused', card: { brand: 'Visa', last4: '4242' } })), { ...sent, token: 'ctoken_decline' }))).toEqual([]);
    expect(found(verifySandboxCardOutcome(answer(202, data({ status: 'refused', card: { brand: 'Visa', last4: '4242' } })), { ...sent, token: 'ctoken_decline' }))).toEqual([]);
  });
  it('accepts a pending 3DS challenge', () => {
    expect(found(verifySandboxCardOutcome(answer(200, data({ status: 'pending', requiresAction: true })), sent))).toEqual([]);
  });
  it('fails the wrong status and a brand not echoed', () => {
    expect(found(verifySandboxCardOutcome(answer(201, data({ status: 'paid', card: { brand: 'Visa', last4: '4242' } })), { ...sent, token: 'ctoken_decline' }))).toEqual(['failure:card.status']);
    expect(found(verifySandboxCardOutcome(answer(201, data({ status: 'paid', card: { brand: 'visa', last4: '4242' } })), sent))).toEqual(['failure:card.echo']);
  });
});
