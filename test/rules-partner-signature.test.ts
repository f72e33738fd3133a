// harness/rules/partner/signature.ts: the one partner signature rule, on the facts of
// harness/webhooks/signatures.ts, at the edges of its latitude (tolerance, unit of t, two t values).
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { partnerDeliverySignature, signPartnerWebhooks } from '../harness/rules/partner/index.js';
import type { PartnerSignatureOptions } from '../harness/rules/partner/index.js';
import { hmacSha256Hex, signPartner } from '../harness/webhooks/signatures.js';
import type { PartnerDelivery } from '../harness/rules/partner/index.js';
import { codes, delivery, severities, T } from './rules-partner-fixtures.js';

const paid = { id: 'evt_1', type: 'business.pix.paid', created_at: '2026-11-22T10:00:00Z', data: { amount_cents: 1050, e2e_id: 'E1', external_ref: ' ref ' } };
const judge = (d: PartnerDelivery, options: PartnerSignatureOptions = {}) => signPartnerWebhooks.judge(partnerDeliverySignature(d, 'whsec', options));
const withHeader = (header: string, lateS = 1): PartnerDelivery => delivery(paid, { header, lateS });
const hmac = (t: string | number): string => hmacSha256Hex('whsec', t, JSON.stringify(paid));

describe('signPartnerWebhooks', () => {
  it('accepts a raw-body signature within 300 s, hex of either case, and decides the paragraph', () => {
    const j = judge(delivery(paid));
    expect(conforms(j)).toBe(true);
    expect(j.requirements).toEqual(expect.arrayContaining(['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER', 'PT-WH-TIMESTAMP-EPOCH', 'PT-WH-TOLERANCE']));
    expect(conforms(judge(withHeader(`t=${T},v1=${hmac(T).toUpperCase()}`)))).toBe(true);
  });

  it('fails a missing header, a GitHub-style header (sha256=<hmac of the body>) and one without v1', () => {
    expect(severities(judge({ ...delivery(paid), headers: {} }))).toEqual(['partner-signature.missing:failure']);
    const github = judge(withHeader('sha256=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'));
    expect(severities(github)).toEqual(['partner-signature.header-grammar:failure']);
    expect(github.findings[0]?.requirements).toContain('PT-WH-SIGNATURE-HEADER');
    expect(codes(judge(withHeader(`t=${T}`)))).toEqual(['partner-signature.header-grammar']);
  });

  it('fails a wrong secret, a changed t and a re-serialised body, naming the clauses', () => {
    const wrong = judge(delivery(paid, { secret: 'other' }));
    expect(severities(wrong)).toEqual(['partner-signature.mismatch:failure']);
    expect(wrong.findings[0]?.requirements).toEqual(['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER']);
    expect(codes(judge(withHeader(`t=${T + 1},v1=${hmac(T)}`)))).toEqual(['partner-signature.mismatch']);
    const pretty = JSON.stringify(paid, null, 2);
    const d = { ...delivery(paid), rawBody: Buffer.from(pretty), bodyText: pretty, headers: { 'x-service-signature': signPartner({ secret: 'whsec', timestamp: T, body: JSON.stringify(paid) }) } };
    const reserialized = judge(d);
    expect(severities(reserialized)).toEqual(['partner-signature.reserialized-body:failure']);
    expect(reserialized.findings[0]?.requirements).toEqual(['PT-WH-RAW-BODY', 'PT-WH-SIGNATURE']);
  });

  it('warns for a parseable header that is not exactly t=<epoch>,v1=<hmac>', () => {
    expect(severities(judge(withHeader(`v1=${hmac(T)}, t=${T}`)))).toEqual(['partner-signature.header-form:warning']);
  });

  it('warns, never fails, for a header with two t values whose v1 verifies with one of them (ambiguous)', () => {
    // verifiers in the field keep the first t or the last: either may be the one signed
    expect(severities(judge(withHeader(`t=${T},t=${T + 7},v1=${hmac(T)}`)))).toEqual(['partner-signature.several-t:warning']);
    const second = judge(withHeader(`t=${T - 7},t=${T},v1=${hmac(T)}`));
    expect(severities(second)).toEqual(['partner-signature.several-t:warning']);
    expect(second.findings[0]?.requirements).toEqual(['PT-WH-SIGNATURE-HEADER']);
    // verifying with neither is still a mismatch
    expect(codes(judge(withHeader(`t=${T - 7},t=${T + 7},v1=${hmac(T)}`)))).toEqual(['partner-signature.mismatch']);
  });

  it('warns for a t that is not an integer, or in milliseconds ("<epoch>" states no unit or form)', () => {
    expect(severities(judge(withHeader(`t=${T}.5,v1=${hmac(`${T}.5`)}`)))).toEqual(['partner-signature.timestamp-format:warning']);
    expect(severities(judge(delivery(paid, { t: `${T}000` })))).toEqual(['partner-signature.timestamp-ms:warning']);
  });

  it('warns on t outside 300 s of arrival; fails when the service clock is known (no skew excuse)', () => {
    expect(severities(judge(delivery(paid, { lateS: 3600 })))).toEqual(['partner-signature.outside-tolerance:warning']);
    const known = judge(delivery(paid, { lateS: 3600 }), { clockOffsetMs: 0 });
    expect(severities(known)).toEqual(['partner-signature.outside-tolerance:failure']);
    expect(known.findings[0]?.requirements).toEqual(['PT-WH-TOLERANCE', 'PT-WH-SIGNATURE']);
    expect(conforms(judge(delivery(paid, { lateS: 300 }), { clockOffsetMs: 0 }))).toBe(true);
    // our clock is an hour behind the service's: arrival 3600 s "after" t is really on time
    expect(conforms(judge(delivery(paid, { lateS: -3599 }), { clockOffsetMs: 3600_000 }))).toBe(true);
    expect(severities(judge(delivery(paid, { lateS: 3600 }), { redelivery: true }))).toEqual(['partner-signature.outside-tolerance:warning']);
    // compressed redelivery timers compress the tolerance: 4 s old fails a 2.8 s tolerance (a warning: latitude), 1 s passes
    const compressed = { redelivery: true, redeliveryToleranceMs: 2_800, clockOffsetMs: 0 };
    expect(severities(judge(delivery(paid, { lateS: 4 }), compressed))).toEqual(['partner-signature.outside-tolerance:warning']);
    expect(conforms(judge(delivery(paid, { lateS: 1 }), compressed))).toBe(true);
    // without the service's clock a few seconds may be skew: only the contract's 300 s applies
    expect(conforms(judge(delivery(paid, { lateS: 4 }), { redelivery: true, redeliveryToleranceMs: 2_800 }))).toBe(true);
    // a first delivery is never judged on the compressed tolerance
    expect(conforms(judge(delivery(paid, { lateS: 4 }), { redeliveryToleranceMs: 2_800 }))).toBe(true);
  });

  it('a t a few minutes in the future: accepted within 300 s, a warning beyond, even on the service clock (ambiguous)', () => {
    expect(conforms(judge(delivery(paid, { lateS: -240 }), { clockOffsetMs: 0 }))).toBe(true);
    const ahead = judge(delivery(paid, { lateS: -420 }), { clockOffsetMs: 0 });
    expect(severities(ahead)).toEqual(['partner-signature.future-timestamp:warning']);
    expect(ahead.findings[0]?.requirements).toEqual(['PT-WH-TOLERANCE']);
    expect(severities(judge(delivery(paid, { lateS: -420 })))).toEqual(['partner-signature.future-timestamp:warning']);
  });
});
