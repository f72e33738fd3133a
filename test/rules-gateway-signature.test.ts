// harness/rules/gateway/signature.ts and harness/rules/gateway/callbacks.ts: the callback on the
// wire, on the facts of harness/webhooks/signatures.ts, at the edges of their latitude.
import { describe, expect, it } from 'vitest';
import { gatewayCallbackSignature, signGatewayCallbacks, timestampUnit } from '../harness/rules/gateway/signature.js';
import { deliverCallbacksAsJsonPosts, sendCallbackHeaders } from '../harness/rules/gateway/callbacks.js';
import { hmacSha256Hex } from '../harness/webhooks/signatures.js';
import type { GatewayDelivery } from '../harness/rules/gateway/webhooks.js';
import { delivery, found } from './rules-gateway-fixtures.js';

const SECRET = 'whsec_test';
const txnPaid = {
  id: '3f0c5a1e-6a43-4c53-9d0e-1d2b3c4d5e6f',
  type: 'transaction',
  event: 'transaction_paid',
  scope: 'user',
  transaction: { id: 'ch_1', amount: 1357, status: 'paid', pix: { endToEndId: 'E12345678202401011200abcdefghijk', payerInfo: { name: 'Ana', document: '52998224725' } } },
};
const RAW = JSON.stringify(txnPaid);
const T = String(Math.floor(Date.now() / 1000));
const judge = (d: GatewayDelivery) => signGatewayCallbacks.judge(gatewayCallbackSignature(d, SECRET));
const signed = (header: string, raw?: string) => delivery(txnPaid, { headers: { 'servicegateway-signature': header }, ...(raw !== undefined && { raw }) });

describe('signGatewayCallbacks', () => {
  it('accepts t=<seconds>,v1=<lowercase hex> over the raw body', () => {
    const j = judge(delivery(txnPaid, { secret: SECRET }));
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER', 'GW-WH-SIGNATURE-LOWER-HEX', 'GW-WH-SIGNATURE-HMAC']);
  });

  it('accepts a t in milliseconds (the unit of <epoch> is not stated); the facts show the unit', () => {
    const d = delivery(txnPaid, { secret: SECRET, t: String(Date.now()) });
    expect(found(judge(d))).toEqual([]);
    const facts = gatewayCallbackSignature(d, SECRET).signature;
    expect(facts.match?.over).toBe('raw-body');
    expect(timestampUnit(facts.match?.t ?? '')).toBe('milliseconds');
    expect(timestampUnit(T)).toBe('seconds');
  });

  it('fails another secret, a missing header, uppercase hex and a v1 that is not hex, each under its sentence', () => {
    const wrong = judge(delivery(txnPaid, { secret: 'other' }));
    expect(found(wrong)).toEqual(['failure:gateway-signature.mismatch']);
    expect(wrong.findings[0]?.requirements).toEqual(['GW-WH-SIGNATURE-HMAC', 'GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER']);
    const missing = judge(delivery(txnPaid));
    expect(found(missing)).toEqual(['failure:gateway-signature.missing']);
    expect(missing.findings[0]?.requirements).toEqual(['GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER']);
    const upper = judge(signed(`t=${T},v1=${hmacSha256Hex(SECRET, T, RAW).toUpperCase()}`));
    expect(found(upper)).toEqual(['failure:gateway-signature.v1-not-lowercase']);
    expect(upper.findings[0]?.requirements).toEqual(['GW-WH-SIGNATURE-LOWER-HEX']);
    expect(found(judge(signed(`t=${T},v1=${Buffer.from(hmacSha256Hex(SECRET, T, RAW), 'hex').toString('base64')}`)))).toEqual(['failure:gateway-signature.v1-format', 'failure:gateway-signature.mismatch']);
  });

  it('fails a header without t= or v1=', () => {
    expect(found(judge(signed('garbage')))).toEqual(['failure:gateway-signature.header-grammar']);
    expect(found(judge(signed(`v1=${hmacSha256Hex(SECRET, T, RAW)}`)))).toEqual(['failure:gateway-signature.header-grammar']);
  });

  it('warns on a t that is not an integer epoch ("<epoch>" states no form, as for the partner\'s)', () => {
    expect(found(judge(signed(`t=abc,v1=${hmacSha256Hex(SECRET, 'abc', RAW)}`)))).toEqual(['warning:gateway-signature.timestamp-format']);
    expect(found(judge(signed(`t=${T}.5,v1=${hmacSha256Hex(SECRET, `${T}.5`, RAW)}`)))).toEqual(['warning:gateway-signature.timestamp-format']);
    // a v1 that does not verify still fails, whatever the t
    expect(found(judge(signed(`t=${T}.5,v1=${hmacSha256Hex('other', `${T}.5`, RAW)}`)))).toEqual(['warning:gateway-signature.timestamp-format', 'failure:gateway-signature.mismatch']);
  });

  it('warns when only a compact re-serialisation of a pretty body verifies ("JSON of the payload")', () => {
    const j = judge(signed(`t=${T},v1=${hmacSha256Hex(SECRET, T, RAW)}`, JSON.stringify(txnPaid, null, 2)));
    expect(found(j)).toEqual(['warning:gateway-signature.reserialized-body']);
    expect(j.findings[0]?.requirements).toEqual(['GW-WH-SIGNATURE-HMAC']);
  });

  it('warns for a parseable header that is not exactly t=…,v1=…', () => {
    expect(found(judge(signed(`v1=${hmacSha256Hex(SECRET, T, RAW)}, t=${T}`)))).toEqual(['warning:gateway-signature.header-form']);
  });

  it('warns, never fails, for a header with two t values whose v1 verifies with one of them (ambiguous)', () => {
    const other = String(Number(T) + 5);
    expect(found(judge(signed(`t=${T},t=${other},v1=${hmacSha256Hex(SECRET, T, RAW)}`)))).toEqual(['warning:gateway-signature.several-t']);
    const second = judge(signed(`t=${other},t=${T},v1=${hmacSha256Hex(SECRET, T, RAW)}`));
    expect(found(second)).toEqual(['warning:gateway-signature.several-t']);
    expect(second.findings[0]?.requirements).toEqual(['GW-WH-SIGNATURE-HEADER']);
  });
});

describe('deliverCallbacksAsJsonPosts and sendCallbackHeaders', () => {
  it('accepts a JSON POST with Content-Type application/json (parameters tolerated) and User-Agent Gateway', () => {
    const d = delivery(txnPaid, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(found(deliverCallbacksAsJsonPosts.judge(d))).toEqual([]);
    expect(sendCallbackHeaders.judge(d)).toMatchObject({ requirements: ['GW-WH-CONTENT-TYPE', 'GW-WH-USER-AGENT'], findings: [] });
  });

  it('fails another method and a body that is not JSON', () => {
    expect(found(deliverCallbacksAsJsonPosts.judge({ ...delivery(txnPaid), method: 'PUT' }))).toEqual(['failure:callback.method']);
    const { json: _json, ...form } = delivery(txnPaid, { raw: 'payload=%7B%7D' });
    expect(found(deliverCallbacksAsJsonPosts.judge(form))).toEqual(['failure:callback.body-not-json']);
  });

  it('fails another Content-Type or User-Agent; a versioned "Gateway/1.2" only warns', () => {
    expect(found(sendCallbackHeaders.judge(delivery(txnPaid, { headers: { 'content-type': 'text/plain' } })))).toEqual(['failure:callback.content-type']);
    const axios = sendCallbackHeaders.judge(delivery(txnPaid, { headers: { 'user-agent': 'axios/1.7' } }));
    expect(found(axios)).toEqual(['failure:callback.user-agent']);
    expect(axios.findings[0]?.requirements).toEqual(['GW-WH-USER-AGENT']);
    expect(found(sendCallbackHeaders.judge(delivery(txnPaid, { headers: { 'user-agent': 'Gateway/1.2' } })))).toEqual(['warning:callback.user-agent-extended']);
  });
});
