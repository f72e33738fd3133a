import { describe, expect, it } from 'vitest';
import {
  createdTransferState,
  ensureConfirmedStatus,
  ensureRepeatedConfirmationRefused,
  ensureStateAsModelled,
  ensureUncoveredCompletionRefused,
  judgeKeyReuseWithOtherBody,
  verifyChargeCreatedPending,
  verifySandboxCardOutcome,
  verifyTransferCreated,
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

describe('transfers', () => {
  it('verifyTransferCreated: banking_processing, completed and pending (manual review) pass', () => {
    for (const status of ['banking_processing', 'completed', 'pending']) {
      expect(found(verifyTransferCreated(answer(200, data({ id: 't1', status, amount: 10 })), 10))).toEqual([]);
    }
    expect(createdTransferState(answer(200, data({ id: 't1', status: 'pending', amount: 10 })))).toEqual({ id: 't1', status: 'pending' });
  });
  it('verifyTransferCreated: another status or amount fails', () => {
    expect(found(verifyTransferCreated(answer(200, data({ id: 't1', status: 'refused', amount: 10 })), 10))).toEqual(['failure:pixout.status-at-creation']);
    expect(found(verifyTransferCreated(answer(200, data({ id: 't1', status: 'pending', amount: 11 })), 10))).toEqual(['failure:pixout.amount-echo']);
  });
  it('judgeKeyReuseWithOtherBody: 409 IDEMPOTENCY_CONFLICT passes; a 2xx or 400 fails', () => {
    expect(found(judgeKeyReuseWithOtherBody(answer(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'x' }), 't1'))).toEqual([]);
    const twice = judgeKeyReuseWithOtherBody(answer(200, data({ id: 't2' })), 't1');
    expect(found(twice)).toEqual(['failure:idempotency.replay-differs']);
    expect(twice.findings[0]?.requirements).toContain('GW-PIXOUT-IDEM-NO-DUPLICATE');
    expect(found(judgeKeyReuseWithOtherBody(answer(400, {}), 't1'))).toEqual(['failure:status.unexpected']);
  });
  it('ensureUncoveredCompletionRefused: any 4xx passes; a 2xx fails', () => {
    expect(found(ensureUncoveredCompletionRefused(answer(422, {}), { amount: 10, balance: 0 }))).toEqual([]);
    expect(found(ensureUncoveredCompletionRefused(answer(200, data({})), { amount: 10, balance: 0 }))).toEqual(['failure:pixout.completed-without-balance']);
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
