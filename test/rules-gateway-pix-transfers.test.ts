import { describe, expect, it } from 'vitest';
import {
  ensureNotCompletedWithoutBalance,
  ensureTransferStatus,
  expectPixKeyRejected,
  expectTransferCurrencyRejected,
  verifyCreatedTransfer,
  verifyDefaultCurrency,
  verifyIdempotentReplay,
  verifyTransferTimestamps,
} from '../harness/rules/gateway/pix-transfers.js';
import { answered, codes, severities } from './rules-gateway-fixtures.js';

const envelope = (data: Record<string, unknown>) => ({ success: true, message: 'ok', data });
const created = (data: Record<string, unknown>) => answered(200, envelope(data), { path: '/api/v1/pix/out/pixkey' });

describe('expectPixKeyRejected ("CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key")', () => {
  const c = { requirements: ['GW-PIXOUT-KEY-INVALID-REJECTED'] as const };
  it('accepts a refusal; fails a key of no format accepted', () => {
    expect(expectPixKeyRejected(answered(400), { kind: 'garbage', value: 'not a key' }, c).findings).toEqual([]);
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'garbage', value: 'not a key' }, c))).toEqual(['failure']);
  });
  it('fails a CPF-shaped key with wrong check digits, or 11 bare digits, accepted (none of the five formats)', () => {
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'cpf-bad-check-digit', value: '52998224724' }, c))).toEqual(['failure']);
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'phone-without-prefix', value: '11987654321' }, c))).toEqual(['failure']);
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'cpf-same-digits', value: '11111111111' }, c))).toEqual(['failure']);
  });
  it('only warns when a borderline key is accepted', () => {
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'cnpj-alphanumeric', value: '12ABC34501DE35' }, c))).toEqual(['warning']);
    expect(severities(expectPixKeyRejected(created({ id: 't' }), { kind: 'phone-with-separators', value: '+55 11 98765-4321' }, c))).toEqual(['warning']);
  });
});

describe('expectTransferCurrencyRejected ("only BRL; default BRL")', () => {
  const c = { requirements: ['GW-PIXOUT-CURRENCY-BRL'] as const };
  it('fails USD accepted, warns on "brl" or "" accepted, accepts refusals', () => {
    expect(severities(expectTransferCurrencyRejected(created({}), 'USD', c))).toEqual(['failure']);
    expect(severities(expectTransferCurrencyRejected(created({}), 'brl', c))).toEqual(['warning']);
    expect(severities(expectTransferCurrencyRejected(created({}), '', c))).toEqual(['warning']);
    expect(expectTransferCurrencyRejected(answered(422), 'USD', c).findings).toEqual([]);
  });
});

describe('verifyIdempotentReplay ("returns the original response and never duplicates the transfer")', () => {
  const c = { requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'] as const };
  const first = { amount: 100, netAmount: 100, fees: 0, pixKey: 'k', id: 't1' };
  const obs = (data: Record<string, unknown>, status = 200) => { const e = answered(status, envelope(data)); return { exchange: e, json: e.response?.json }; };
  it('accepts the same transfer', () => {
    expect(verifyIdempotentReplay(obs(first), obs(first), c).findings).toEqual([]);
  });
  it('fails another transfer; warns on differing fields or another 2xx', () => {
    expect(codes(verifyIdempotentReplay(obs(first), obs({ ...first, id: 't2' }), c))).toEqual(['idempotency.new-transfer']);
    expect(severities(verifyIdempotentReplay(obs(first), obs({ ...first, fees: 5 }), c))).toEqual(['warning']);
    expect(severities(verifyIdempotentReplay(obs(first), obs(first, 201), c))).toEqual(['warning']);
    expect(severities(verifyIdempotentReplay(obs(first), obs(first, 409), c))).toEqual(['failure']);
  });
});

describe('verifyCreatedTransfer ("sandbox credentials; no manual review | banking_processing")', () => {
  const c = { requirements: ['GW-PIXOUT-CREATE-BANKING-PROCESSING'] as const };
  it('accepts banking_processing, and pending (held for manual review)', () => {
    expect(verifyCreatedTransfer(envelope({ status: 'banking_processing', amount: 1234 }), { amount: 1234 }, c).findings).toEqual([]);
    expect(verifyCreatedTransfer(envelope({ status: 'pending', amount: 1234 }), { amount: 1234 }, c).findings).toEqual([]);
  });
  it('warns on another documented status, fails an undocumented one or another amount', () => {
    expect(severities(verifyCreatedTransfer(envelope({ status: 'completed', amount: 1 }), { amount: 1 }, c))).toEqual(['warning']);
    expect(severities(verifyCreatedTransfer(envelope({ status: 'queued', amount: 1 }), { amount: 1 }, c))).toEqual(['failure']);
    expect(codes(verifyCreatedTransfer(envelope({ status: 'pending', amount: 2 }), { amount: 1 }, c))).toEqual(['pixout.amount-echo']);
  });
});

describe('ensureTransferStatus, verifyDefaultCurrency, ensureNotCompletedWithoutBalance', () => {
  const c = { requirements: ['GW-PIXOUT-COMPLETE-COMPLETED'] as const };
  it('accept what conforms', () => {
    expect(ensureTransferStatus(envelope({ status: 'completed' }), 'completed', c, 'complete').findings).toEqual([]);
    expect(verifyDefaultCurrency(envelope({ currency: 'BRL' }), c).findings).toEqual([]);
    expect(verifyDefaultCurrency(envelope({}), c).requirements).toEqual([]);
    expect(ensureNotCompletedWithoutBalance(envelope({ status: 'banking_processing' }), 5, c).findings).toEqual([]);
  });
  it('fail what does not', () => {
    expect(codes(ensureTransferStatus(envelope({ status: 'banking_processing' }), 'completed', c, 'lookup'))).toEqual(['pixout.lookup-status']);
    expect(codes(verifyDefaultCurrency(envelope({ currency: 'USD' }), c))).toEqual(['pixout.currency-default']);
    expect(codes(ensureNotCompletedWithoutBalance(envelope({ status: 'completed' }), 5, c))).toEqual(['pixout.completed-without-balance']);
  });
});

describe('verifyTransferTimestamps (ISO 8601; processedAt not shown before processing)', () => {
  const c = { requirements: ['GW-PIXOUT-TIMESTAMPS-ISO'] as const };
  const t = '2026-11-24T10:00:00.000Z';
  it('tolerates a null or absent processedAt until completed', () => {
    expect(verifyTransferTimestamps(envelope({ status: 'banking_processing', createdAt: t, updatedAt: t, processedAt: null }), c).findings).toEqual([]);
    expect(verifyTransferTimestamps(envelope({ status: 'banking_processing', createdAt: t, updatedAt: t }), c).findings).toEqual([]);
  });
  it('requires all three once completed, and fails a non-ISO value', () => {
    expect(verifyTransferTimestamps(envelope({ status: 'completed', createdAt: t, updatedAt: t }), c).findings.length).toBe(1);
    expect(verifyTransferTimestamps(envelope({ status: 'pending', createdAt: 'yesterday', updatedAt: t }), c).findings.length).toBe(1);
  });
});
