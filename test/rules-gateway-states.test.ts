import { describe, expect, it } from 'vitest';
import {
  ensureConfirmedStatus,
  ensureRepeatedConfirmationRefused,
  ensureStateAsModelled,
  verifyChargeCreatedPending,
  verifySandboxCardOutcome,
} from '../harness/rules/gateway/states.js';
import { answer, found } from './rules-gateway-fixtures.js';

const data = (d: Record<string, unknown>) => ({ success: true, data: d });

describe('charges', () => {
  it('verifyChargeCreatedPending: pending with an id passes; no id or another status fails', () => {
    expect(found(verifyChargeCreatedPending(answer(200, data({ id: 'c1', status: 'pending' }))))).toEqual([]);
    expect(found(verifyChargeCreatedPending(answer(200, data({ status: 'paid' }))))).toEqual(['failure:pixin.lookup-id', 'failure:charge.not-pending']);
  });
  it('ensureConfirmedStatus: paid / completed pass; others fail', () => {
    expect(found(ensureConfirmedStatus('pay', answer(200, data({ status: 'paid' }))))).toEqual([]);
    expect(found(ensureConfirmedStatus('complete', answer(200, data({ status: 'banking_processing' }))))).toEqual(['failure:pixout.complete-status']);
  });
  it('ensureRepeatedConfirmationRefused: 400 passes; a 2xx fails; 404 fails by the status rule', () => {
    expect(found(ensureRepeatedConfirmationRefused('pay', answer(400, { success: false })))).toEqual([]);
    expect(found(ensureRepeatedConfirmationRefused('complete', answer(200, data({}))))).toEqual(['failure:state.confirmed-again']);
    expect(found(ensureRepeatedConfirmationRefused('pay', answer(404, {})))).toEqual(['failure:status.unexpected']);
  });
  it('ensureStateAsModelled: the modelled status passes; another status or amount fails', () => {
    expect(found(ensureStateAsModelled('charge', answer(200, data({ status: 'paid' })), { status: 'paid' }))).toEqual([]);
    expect(found(ensureStateAsModelled('charge', answer(200, data({ status: 'pending' })), { status: 'paid' }))).toEqual(['failure:model.state']);
    expect(found(ensureStateAsModelled('transfer', answer(200, data({ status: 'completed', amount: 2 })), { status: 'completed', amount: 1 }))).toEqual(['failure:pixout.amount-echo']);
  });
});

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
