import { describe, expect, it } from 'vitest';
import { ensureCardOutcome, expectCardChargeCreated, judgeCardSaleWindows, judgeCtokenForms, judgeTokenWithoutPrefix, usesCardPlaceholder, verifyCardEcho, type CardSaleWindow } from '../harness/rules/gateway/card.js';
import { answered, codes, severities } from './rules-gateway-fixtures.js';

const envelope = (data: Record<string, unknown>) => ({ success: true, data });
const card = (status: number, data: Record<string, unknown>) => answered(status, envelope(data), { path: '/api/v1/card' });

describe('expectCardChargeCreated ("the sample success status code is 201")', () => {
  const c = { requirements: ['GW-CARD-SUCCESS-STATUS'] as const };
  it('accepts any 2xx (201 is a sample)', () => {
    for (const status of [200, 201, 202]) expect(expectCardChargeCreated(card(status, { status: 'refused' }), c).findings).toEqual([]);
  });
  it('fails a 4xx or 5xx', () => {
    expect(severities(expectCardChargeCreated(answered(402), c))).toEqual(['failure']);
    expect(codes(expectCardChargeCreated(answered(503), c))).toEqual(['target.5xx']);
  });
});

describe('ensureCardOutcome (sandbox: paid, or refused with "decline"; "Usually synchronous")', () => {
  const c = { requirements: ['GW-CARD-SANDBOX-APPROVE'] as const };
  it('accepts the expected outcome', () => {
    expect(ensureCardOutcome(envelope({ status: 'paid' }), 'paid', c).findings).toEqual([]);
    expect(ensureCardOutcome(envelope({ status: 'refused' }), 'refused', c).findings).toEqual([]);
  });
  it('warns on pending (GW-CARD-SYNC), fails another status', () => {
    const pending = ensureCardOutcome(envelope({ status: 'pending' }), 'paid', c);
    expect(severities(pending)).toEqual(['warning']);
    expect(pending.findings[0]?.requirements).toEqual(['GW-CARD-SYNC']);
    expect(severities(ensureCardOutcome(envelope({ status: 'paid' }), 'refused', c))).toEqual(['failure']);
    expect(severities(ensureCardOutcome(envelope({}), 'paid', c))).toEqual(['failure']);
  });
});

describe('verifyCardEcho ("echoed exactly as sent, never validated or extracted")', () => {
  const c = { requirements: ['GW-CARD-ECHO-BRAND-LAST4'] as const };
  it('accepts placeholders echoed exactly', () => {
    expect(verifyCardEcho(envelope({ card: { brand: 'Placeholder Brand', last4: 'xxxx' } }), { brand: 'Placeholder Brand', last4: 'xxxx' }, c).findings).toEqual([]);
  });
  it('fails a normalised or missing echo', () => {
    expect(codes(verifyCardEcho(envelope({ card: { brand: 'VISA', last4: '4242' } }), { brand: 'visa', last4: '4242' }, c))).toEqual(['card.echo']);
    expect(codes(verifyCardEcho(envelope({}), { brand: 'visa', last4: '4242' }, c))).toEqual(['card.echo']);
  });
});

describe('judgeTokenWithoutPrefix ("format ctoken_..." vs "any token is approved")', () => {
  const c = { requirements: ['GW-CARD-TOKEN-FORMAT'] as const };
  it('accepts an approved charge', () => {
    expect(judgeTokenWithoutPrefix(card(201, { status: 'paid' }), c).findings).toEqual([]);
  });
  it('only warns on a refusal (4xx or refused charge); fails a 5xx', () => {
    expect(severities(judgeTokenWithoutPrefix(answered(400), c))).toEqual(['warning']);
    expect(severities(judgeTokenWithoutPrefix(card(201, { status: 'refused' }), c))).toEqual(['warning']);
    expect(severities(judgeTokenWithoutPrefix(answered(500), c))).toEqual(['failure']);
  });
});

describe('judgeCardSaleWindows ("Approved card payments do not become withdrawable balance immediately")', () => {
  const c = { requirements: ['GW-CARD-NO-PIX-BALANCE'] as const };
  const w = (amount: number, delta: number): CardSaleWindow => ({ amount, delta, exchange: answered(201), text: `${delta}` });
  it('passes a quiet window without a rise of half the sale', () => {
    expect(judgeCardSaleWindows([w(300_000, 0)], c)).toEqual({ requirements: ['GW-CARD-NO-PIX-BALANCE'], findings: [] });
  });
  it('decides nothing on one rise or on unrelated rises', () => {
    expect(judgeCardSaleWindows([w(300_000, 300_000)], c).requirements).toEqual([]);
    expect(judgeCardSaleWindows([w(300_000, 300_000), w(500_000, 912_345)], c).requirements).toEqual([]);
  });
  it('fails two agreeing rises (the sale credited at once)', () => {
    expect(codes(judgeCardSaleWindows([w(300_000, 291_000), w(500_000, 485_000)], c))).toEqual(['card.credited-pix-balance']);
  });
});

describe('usesCardPlaceholder ("echoed, not validated; a placeholder is allowed")', () => {
  it('reads four digits and a card scheme as real card data', () => {
    expect(usesCardPlaceholder({ last4: '4242', brand: 'visa' })).toBe(false);
    expect(usesCardPlaceholder({ last4: '0005', brand: 'Mastercard' })).toBe(false);
  });
  it('reads anything else as a placeholder', () => {
    expect(usesCardPlaceholder({ last4: 'xxxx', brand: 'visa' })).toBe(true);
    expect(usesCardPlaceholder({ last4: '4242', brand: 'Placeholder Brand' })).toBe(true);
    expect(usesCardPlaceholder({})).toBe(true);
  });
});

describe('judgeCtokenForms ("format ctoken_...", "any token is approved")', () => {
  const c = { requirements: ['GW-CARD-TOKEN-FORMAT'] as const };
  const paid = (token: string) => ({ token, exchange: card(201, { status: 'paid' }) });
  const refused = (token: string) => ({ token, exchange: answered(400, { success: false, message: 'card.token: must match' }, { path: '/api/v1/card' }) });
  it('accepts every ctoken_ form approved', () => {
    expect(judgeCtokenForms([paid('ctoken_abc123'), paid('ctoken_0123456789abcdef0123456789abcdef')], c).findings).toEqual([]);
  });
  it('decides nothing when no form is approved (the body itself is refused)', () => {
    const j = judgeCtokenForms([refused('ctoken_abc123'), refused('ctoken_0123')], c);
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual([]);
  });
  it('warns (the format sentence and "any token is approved" contradict each other) when one ctoken_ form is approved and another refused', () => {
    const j = judgeCtokenForms([paid('ctoken_abc123'), refused('ctoken_0123456789abcdef0123456789abcdef')], c);
    expect(codes(j)).toEqual(['card.token-form-refused']);
    expect(severities(j)).toEqual(['warning']);
    expect(j.findings[0]?.requirements).toEqual(['GW-CARD-TOKEN-FORMAT']);
  });
  it('a 429, a pending charge (3DS challenge) or no answer beside an approved form decides nothing against the form', () => {
    const limited = { token: 'ctoken_0123', exchange: answered(429, { message: 'slow down' }, { path: '/api/v1/card' }) };
    const pending = { token: 'ctoken_ABCDEF012345', exchange: card(201, { status: 'pending', requiresAction: true, clientSecret: 'x' }) };
    expect(judgeCtokenForms([paid('ctoken_abc123'), limited, pending], c).findings).toEqual([]);
  });
  it('counts a form answered 2xx with a refused charge as refused while another is approved', () => {
    expect(codes(judgeCtokenForms([paid('ctoken_abc123'), { token: 'ctoken_ab', exchange: card(201, { status: 'refused' }) }], c))).toEqual(['card.token-form-refused']);
  });
});
