import { describe, expect, it } from 'vitest';
import {
  approveTokensOfAnyForm,
  echoCardBrandAndLast4,
  ensureSandboxCardOutcome,
  honourCardRequest,
  keepCardSalesOffPixBalance,
  usesCardPlaceholder,
  type CardSaleWindow,
} from '../harness/rules/gateway/card.js';
import { answer, answered, found } from './rules-gateway-fixtures.js';

const envelope = (data: Record<string, unknown>) => ({ success: true, data });
const card = (status: number, data: Record<string, unknown>) => answered(status, envelope(data), { path: '/api/v1/card' });
const ERR = { success: false, message: 'invalid body' };
const own = (j: { requirements: readonly string[] }) => j.requirements.filter((id) => !id.startsWith('GW-ERR-'));
const body = { amountInCents: 2500, currency: 'USD', card: { token: 'ctoken_1', last4: '4242', brand: 'visa', holderName: 'J' }, customer: { document: '', billingAddress: {} } };

describe('honourCardRequest: a valid body ("the sample success status code is 201")', () => {
  it('accepts any 2xx (201 is a sample) and decides the parts the body shows', () => {
    for (const status of [200, 201, 202]) expect(found(honourCardRequest.judge({ case: 'valid', body, answer: answer(status, envelope({ status: 'refused' })) }))).toEqual([]);
    const j = honourCardRequest.judge({ case: 'valid', body, answer: answer(201, envelope({})), exercises: ['document', 'tracking', 'placeholder', 'installments'] });
    expect(j.requirements).toEqual(['GW-CARD-SUCCESS-STATUS', 'GW-CARD-DOC-OPTIONAL', 'GW-CARD-TRACKING-OPTIONAL']);
    const placeholder = honourCardRequest.judge({ case: 'valid', body: { ...body, card: { ...body.card, last4: 'xxxx', installments: 1 } }, answer: answer(201, envelope({})), exercises: ['placeholder', 'installments'] });
    expect(placeholder.requirements).toEqual(['GW-CARD-SUCCESS-STATUS', 'GW-CARD-PLACEHOLDER-ALLOWED', 'GW-CARD-INSTALLMENTS-ACCEPTED']);
  });
  it('fails a 4xx or 5xx', () => {
    expect(found(honourCardRequest.judge({ case: 'valid', body, answer: answer(402, {}) }))).toEqual(['failure:card.create-status']);
    expect(found(honourCardRequest.judge({ case: 'valid', body, answer: answer(503, {}) }))).toEqual(['failure:card.create-status']);
  });
});

describe('honourCardRequest: an invalid body is never charged', () => {
  const breaks = (path: string, kind: string, status: number, data?: Record<string, unknown>, value?: unknown) => honourCardRequest.judge({ case: 'breaks', path, kind, value, what: path, answer: answer(status, data ? envelope(data) : ERR) });
  it('fails a paid or pending charge whatever the rule', () => {
    expect(found(breaks('customer.billingAddress', 'missing-required', 201, { status: 'paid' }))).toEqual(['failure:card.invalid-charged']);
    expect(found(breaks('card', 'raw-card-data', 201, { status: 'pending' }))).toEqual(['failure:card.invalid-charged']);
    expect(found(breaks('amountInCents', 'min-1', 201, { status: 'paid' }))).toEqual(['failure:card.invalid-charged']);
  });
  it('a refused charge passes a missing billing address or raw data, warns on another field', () => {
    expect(found(breaks('customer.billingAddress', 'missing-required', 201, { status: 'refused' }))).toEqual([]);
    expect(found(breaks('card', 'raw-card-data', 201, { status: 'refused' }))).toEqual([]);
    expect(found(breaks('card.holderName', 'missing-required', 201, { status: 'refused' }))).toEqual(['warning:card.invalid-refused-charge']);
  });
  it('billing address and raw data pass any 4xx; another field 400/422 (another 4xx warns); BRL or no currency only 400', () => {
    expect(found(breaks('customer', 'missing-required', 403))).toEqual([]);
    expect(found(breaks('card.token', 'missing-required', 422))).toEqual(['warning:validation.field-not-named']);
    expect(found(breaks('card.token', 'missing-required', 403))).toEqual(['warning:validation.other-4xx']);
    expect(found(breaks('currency', 'bad-enum', 400, undefined, 'BRL'))).toEqual([]);
    expect(found(breaks('currency', 'bad-enum', 422, undefined, 'BRL'))).toEqual(['failure:validation.status']);
    expect(found(breaks('currency', 'bad-enum', 422))).toEqual(['warning:validation.field-not-named']);
  });
  it('decides the clause broken', () => {
    expect(own(breaks('currency', 'missing-required', 400))).toEqual(['GW-CARD-CURRENCY-BRL-400']);
    expect(own(breaks('currency', 'bad-enum', 400))).toEqual(['GW-CARD-CURRENCY']);
    expect(own(breaks('customer.billingAddress.street', 'missing-required', 400))).toEqual(['GW-CARD-BILLING-REQUIRED']);
    expect(own(breaks('customer.email', 'missing-email', 400))).toEqual(['GW-CARD-CUSTOMER-REQUIRED']);
    expect(own(breaks('card.cvv', 'unexpected-property', 400))).toEqual(['GW-CARD-RAW-DATA-REJECTED']);
    expect(own(breaks('amountInCents', 'fractional', 400))).toEqual(['GW-CARD-AMOUNT-INT']);
  });
  it('a value of no row of the table decides nothing', () => {
    expect(breaks('description', 'wrong-type', 201, { status: 'paid' }).requirements).toEqual([]);
  });
  it('an open value passes any 2xx or 4xx', () => {
    expect(found(honourCardRequest.judge({ case: 'open', part: 'currency', what: 'usd', answer: answer(400, {}) }))).toEqual([]);
    expect(found(honourCardRequest.judge({ case: 'open', part: 'currency', what: 'usd', answer: answer(500, {}) }))).toEqual(['failure:card.open-status']);
  });
});

describe('ensureSandboxCardOutcome (sandbox: paid, or refused with "decline"; "Usually synchronous")', () => {
  it('accepts the outcome the token rule gives, and a pending 3DS challenge', () => {
    expect(found(ensureSandboxCardOutcome.judge({ answer: answer(201, envelope({ status: 'paid' })), token: 'ctoken_ok' }))).toEqual([]);
    expect(found(ensureSandboxCardOutcome.judge({ answer: answer(200, envelope({ status: 'refused' })), token: 'ctoken_decline' }))).toEqual([]);
    expect(found(ensureSandboxCardOutcome.judge({ answer: answer(200, envelope({ status: 'pending', requiresAction: true, clientSecret: 'x' })), token: 'ctoken_ok' }))).toEqual([]);
  });
  it('warns on pending without a challenge; fails another status, naming the states for an undocumented one', () => {
    const pending = ensureSandboxCardOutcome.judge({ answer: answer(201, envelope({ status: 'pending', requiresAction: false })), token: 'ctoken_ok' });
    expect(found(pending)).toEqual(['warning:card.pending']);
    expect(pending.findings[0]?.requirements).toEqual(['GW-CARD-SYNC']);
    expect(found(ensureSandboxCardOutcome.judge({ answer: answer(201, envelope({ status: 'paid' })), token: 'ctoken_decline' }))).toEqual(['failure:card.status']);
    const approved = ensureSandboxCardOutcome.judge({ answer: answer(201, envelope({ status: 'approved' })), token: 'ctoken_ok' });
    expect(approved.findings[0]?.requirements).toEqual(['GW-CARD-SANDBOX-APPROVE', 'GW-CARD-RESP-STATUS-ENUM', 'GW-CARD-STATES']);
  });
});

describe('echoCardBrandAndLast4 ("echoed exactly as sent, never validated or extracted")', () => {
  it('accepts placeholders echoed exactly', () => {
    expect(found(echoCardBrandAndLast4.judge({ answer: answer(201, envelope({ card: { brand: 'Placeholder Brand', last4: 'xxxx' } })), sent: { brand: 'Placeholder Brand', last4: 'xxxx' } }))).toEqual([]);
  });
  it('fails a normalised or missing echo', () => {
    expect(found(echoCardBrandAndLast4.judge({ answer: answer(201, envelope({ card: { brand: 'VISA', last4: '4242' } })), sent: { brand: 'visa', last4: '4242' } }))).toEqual(['failure:card.echo']);
    expect(found(echoCardBrandAndLast4.judge({ answer: answer(201, envelope({})), sent: { brand: 'visa', last4: '4242' } }))).toEqual(['failure:card.echo']);
  });
});

describe('approveTokensOfAnyForm ("format ctoken_..." vs "any token is approved")', () => {
  it('a token without the prefix: approved passes; a refusal only warns; a 5xx fails', () => {
    expect(found(approveTokensOfAnyForm.judge({ case: 'no-prefix', answer: answer(201, envelope({ status: 'paid' })) }))).toEqual([]);
    expect(found(approveTokensOfAnyForm.judge({ case: 'no-prefix', answer: answer(400, {}) }))).toEqual(['warning:card.token-refused']);
    expect(found(approveTokensOfAnyForm.judge({ case: 'no-prefix', answer: answer(201, envelope({ status: 'refused' })) }))).toEqual(['warning:card.token-refused']);
    expect(found(approveTokensOfAnyForm.judge({ case: 'no-prefix', answer: answer(500, {}) }))).toEqual(['failure:card.token-status']);
  });
  const paid = (token: string) => ({ token, exchange: card(201, { status: 'paid' }) });
  const refused = (token: string) => ({ token, exchange: answered(400, { success: false, message: 'card.token: must match' }, { path: '/api/v1/card' }) });
  it('ctoken_ forms: all approved passes; none approved decides nothing; one approved and one refused warns', () => {
    expect(found(approveTokensOfAnyForm.judge({ case: 'ctoken-forms', answers: [paid('ctoken_abc123'), paid('ctoken_0123456789abcdef')] }))).toEqual([]);
    expect(approveTokensOfAnyForm.judge({ case: 'ctoken-forms', answers: [refused('ctoken_abc123'), refused('ctoken_0123')] }).requirements).toEqual([]);
    const j = approveTokensOfAnyForm.judge({ case: 'ctoken-forms', answers: [paid('ctoken_abc123'), refused('ctoken_0123456789abcdef')] });
    expect(found(j)).toEqual(['warning:card.token-form-refused']);
    expect(j.findings[0]?.requirements).toEqual(['GW-CARD-TOKEN-FORMAT']);
  });
  it('a 429, a pending challenge or a refused charge beside an approved form', () => {
    const limited = { token: 'ctoken_0123', exchange: answered(429, { message: 'slow down' }, { path: '/api/v1/card' }) };
    const pending = { token: 'ctoken_ABCDEF012345', exchange: card(201, { status: 'pending', requiresAction: true, clientSecret: 'x' }) };
    expect(found(approveTokensOfAnyForm.judge({ case: 'ctoken-forms', answers: [paid('ctoken_abc123'), limited, pending] }))).toEqual([]);
    expect(found(approveTokensOfAnyForm.judge({ case: 'ctoken-forms', answers: [paid('ctoken_abc123'), { token: 'ctoken_ab', exchange: card(201, { status: 'refused' }) }] }))).toEqual(['warning:card.token-form-refused']);
  });
});

describe('keepCardSalesOffPixBalance ("Approved card payments do not become withdrawable balance immediately")', () => {
  const w = (amount: number, delta: number): CardSaleWindow => ({ amount, delta, exchange: answered(201), text: `${delta}` });
  it('passes a quiet window without a rise of half the sale', () => {
    expect(keepCardSalesOffPixBalance.judge([w(300_000, 0)])).toEqual({ rule: 'keepCardSalesOffPixBalance', requirements: ['GW-CARD-NO-PIX-BALANCE'], findings: [] });
  });
  it('decides nothing on one rise or on unrelated rises', () => {
    expect(keepCardSalesOffPixBalance.judge([w(300_000, 300_000)]).requirements).toEqual([]);
    expect(keepCardSalesOffPixBalance.judge([w(300_000, 300_000), w(500_000, 912_345)]).requirements).toEqual([]);
  });
  it('fails two agreeing rises (the sale credited at once)', () => {
    expect(found(keepCardSalesOffPixBalance.judge([w(300_000, 291_000), w(500_000, 485_000)]))).toEqual(['failure:card.credited-pix-balance']);
  });
});

describe('usesCardPlaceholder ("echoed, not validated; a placeholder is allowed")', () => {
  it('reads four digits and a card scheme as real card data, anything else as a placeholder', () => {
    expect(usesCardPlaceholder({ last4: '4242', brand: 'visa' })).toBe(false);
    expect(usesCardPlaceholder({ last4: '0005', brand: 'Mastercard' })).toBe(false);
    expect(usesCardPlaceholder({ last4: 'xxxx', brand: 'visa' })).toBe(true);
    expect(usesCardPlaceholder({ last4: '4242', brand: 'Placeholder Brand' })).toBe(true);
    expect(usesCardPlaceholder({})).toBe(true);
  });
});
