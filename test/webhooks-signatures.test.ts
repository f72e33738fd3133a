// Known vectors: every expected HMAC below was computed once in the shell with
//   printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac '<secret>'
// and pasted here, so the verifier is judged by an independent implementation.
import { describe, expect, it } from 'vitest';
import {
  hmacSha256Hex,
  parseSignatureHeader,
  signGateway,
  signPartner,
  verifyGatewaySignature,
  verifyPartnerSignature,
} from '../harness/webhooks/signatures.js';

const T = 1763800000;
const GW_SECRET = 'whsec_gateway_test_123';
const GW_RAW =
  '{"id": "0b8f5a52-8d5e-4c1e-9a51-0f8a4f1c2d3e", "type": "transaction", "event": "transaction_paid", "scope": "user", "transaction": {"id": "tx_1", "amount": 1050, "status": "paid"}}';
const GW_HMAC_RAW = '71a4c3283b6f5c6e6d1dcc43c28ffa52ec15b61ec14a88c149580af998ec4c92';
const GW_HMAC_COMPACT = '08a2e67c2e3fedcdec795879af8d6717292db297d3ff51c1e3cc91b7e9fc1e1f';
const GW_HMAC_MS = '9ded4f4f9c654fbe2d2b28a74f406494f3e63332355833f585566fefaf70b645'; // t = 1763800000123

const P_SECRET = 'psec_partner_test_456';
const P_RAW =
  '{"id":"evt_01","type":"business.pix.paid","created_at":"2026-11-22T10:00:00Z","data":{"amount_cents":1050,"e2e_id":"E12345678202611221000abcdefghijk","external_ref":"order-1"}}';
const P_PRETTY =
  '{ "id": "evt_01", "type": "business.pix.paid", "created_at": "2026-11-22T10:00:00Z", "data": { "amount_cents": 1050, "e2e_id": "E12345678202611221000abcdefghijk", "external_ref": "order-1" } }';
const P_HMAC_RAW = '9c4f3a785103d0a2d140d3952bc2cffc555ab3856efee610eaa782b264f6a9f8';
const P_HMAC_PRETTY = '09114f997a395d7a7b52dcca9c95ba0c42ec3eca0d3d4a2af4820027aa1ad8cb';
const P_HMAC_MS = 'f2446a2feccf3314b01c9003b324194b6b7df3b44513613e41d482af7e94f40a'; // t = 1763800000123
const ARRIVAL = T * 1000 + 2_000;

describe('known vectors (openssl)', () => {
  it('hmacSha256Hex reproduces the openssl digests', () => {
    expect(hmacSha256Hex(GW_SECRET, T, GW_RAW)).toBe(GW_HMAC_RAW);
    expect(hmacSha256Hex(GW_SECRET, T, JSON.stringify(JSON.parse(GW_RAW)))).toBe(GW_HMAC_COMPACT);
    expect(hmacSha256Hex(P_SECRET, T, Buffer.from(P_RAW))).toBe(P_HMAC_RAW);
    expect(hmacSha256Hex(P_SECRET, T, P_PRETTY)).toBe(P_HMAC_PRETTY);
    expect(signGateway({ secret: GW_SECRET, timestamp: T, body: GW_RAW })).toBe(`t=${T},v1=${GW_HMAC_RAW}`);
    expect(signPartner({ secret: P_SECRET, timestamp: T, body: P_RAW })).toBe(`t=${T},v1=${P_HMAC_RAW}`);
  });
});

describe('verifyGatewaySignature', () => {
  it('accepts a match over the raw body', () => {
    const r = verifyGatewaySignature({ header: `t=${T},v1=${GW_HMAC_RAW}`, rawBody: Buffer.from(GW_RAW), secret: GW_SECRET });
    expect(r).toMatchObject({ ok: true, conforms: true, matchedOver: 'raw-body', timestamp: T });
  });

  it('accepts a match over the compact JSON and says so (ambiguous "JSON of the payload")', () => {
    const r = verifyGatewaySignature({ header: `t=${T},v1=${GW_HMAC_COMPACT}`, rawBody: GW_RAW, secret: GW_SECRET });
    expect(r).toMatchObject({ ok: true, conforms: true, matchedOver: 'compact-json' });
  });

  it('rejects a changed body, a wrong secret and a changed t', () => {
    const header = `t=${T},v1=${GW_HMAC_RAW}`;
    expect(verifyGatewaySignature({ header, rawBody: GW_RAW.replace('1050', '1051'), secret: GW_SECRET })).toMatchObject({ ok: false, code: 'signature.mismatch' });
    expect(verifyGatewaySignature({ header, rawBody: GW_RAW, secret: 'other' })).toMatchObject({ ok: false, code: 'signature.mismatch' });
    expect(verifyGatewaySignature({ header: `t=${T + 1},v1=${GW_HMAC_RAW}`, rawBody: GW_RAW, secret: GW_SECRET })).toMatchObject({ ok: false, code: 'signature.mismatch' });
  });

  it('flags uppercase hex as a deviation (the text says lowercase) while the HMAC matches', () => {
    const r = verifyGatewaySignature({ header: `t=${T},v1=${GW_HMAC_RAW.toUpperCase()}`, rawBody: GW_RAW, secret: GW_SECRET });
    expect(r.ok).toBe(true);
    expect(r.conforms).toBe(false);
    expect(r.format.v1).toMatchObject({ ok: false, code: 'signature.v1-not-lowercase', severity: 'failure' });
  });

  it('flags a 13-digit millisecond timestamp', () => {
    const r = verifyGatewaySignature({ header: `t=${T}123,v1=${GW_HMAC_MS}`, rawBody: GW_RAW, secret: GW_SECRET });
    expect(r.ok).toBe(true);
    expect(r.format.timestamp).toMatchObject({ ok: false, code: 'signature.timestamp-ms' });
    expect(r.format.timestamp.detail).toMatch(/milliseconds/);
  });

  it('reports grammar: missing header, garbage, tolerated variants', () => {
    expect(verifyGatewaySignature({ header: undefined, rawBody: GW_RAW, secret: GW_SECRET })).toMatchObject({ ok: false, code: 'signature.missing-header' });
    expect(verifyGatewaySignature({ header: 'garbage', rawBody: GW_RAW, secret: GW_SECRET })).toMatchObject({ ok: false, code: 'signature.header-grammar' });
    expect(verifyGatewaySignature({ header: `v1=${GW_HMAC_RAW}`, rawBody: GW_RAW, secret: GW_SECRET })).toMatchObject({ ok: false, code: 'signature.header-grammar' });
    const spaced = verifyGatewaySignature({ header: `v1=${GW_HMAC_RAW}, t=${T}`, rawBody: GW_RAW, secret: GW_SECRET });
    expect(spaced.ok).toBe(true);
    expect(spaced.format.grammar).toMatchObject({ ok: false, code: 'signature.header-grammar', severity: 'warning' });
  });

  it('never throws on malformed input', () => {
    for (const header of [42, null, {}, ['a', 'b'], 't=,v1=', 't=abc,v1=zz', 't=1,v1=' + 'g'.repeat(64), ',,,', '=']) {
      expect(() => verifyGatewaySignature({ header, rawBody: 'not json', secret: GW_SECRET })).not.toThrow();
      expect(verifyGatewaySignature({ header, rawBody: 'not json', secret: GW_SECRET }).ok).toBe(false);
    }
    expect(parseSignatureHeader(undefined)).toBeUndefined();
  });
});

describe('verifyPartnerSignature', () => {
  it('accepts a raw-body match within the tolerance, either hex case', () => {
    const r = verifyPartnerSignature({ header: `t=${T},v1=${P_HMAC_RAW}`, rawBody: Buffer.from(P_RAW), secret: P_SECRET, receivedAt: ARRIVAL });
    expect(r).toMatchObject({ ok: true, conforms: true, matchedOver: 'raw-body', skewSeconds: 2 });
    const upper = verifyPartnerSignature({ header: `t=${T},v1=${P_HMAC_RAW.toUpperCase()}`, rawBody: P_RAW, secret: P_SECRET, receivedAt: ARRIVAL });
    expect(upper).toMatchObject({ ok: true, conforms: true });
  });

  it('fails a match only over a re-serialised body, and says so explicitly', () => {
    // the body arrived pretty-printed, but the sender signed its compact re-serialisation
    const r = verifyPartnerSignature({ header: `t=${T},v1=${P_HMAC_RAW}`, rawBody: P_PRETTY, secret: P_SECRET, receivedAt: ARRIVAL });
    expect(r).toMatchObject({ ok: false, code: 'signature.reserialized-body', matchedOver: 'compact-json' });
    expect(r.detail).toMatch(/raw request body/);
    // signed over the pretty raw bytes it sent: fine
    expect(verifyPartnerSignature({ header: `t=${T},v1=${P_HMAC_PRETTY}`, rawBody: P_PRETTY, secret: P_SECRET, receivedAt: ARRIVAL }).ok).toBe(true);
  });

  it('fails outside the 300 s tolerance, in both directions', () => {
    const header = `t=${T},v1=${P_HMAC_RAW}`;
    expect(verifyPartnerSignature({ header, rawBody: P_RAW, secret: P_SECRET, receivedAt: (T + 300) * 1000 }).ok).toBe(true);
    expect(verifyPartnerSignature({ header, rawBody: P_RAW, secret: P_SECRET, receivedAt: (T + 301) * 1000 })).toMatchObject({ ok: false, code: 'signature.timestamp-outside-tolerance', matchedOver: 'raw-body' });
    expect(verifyPartnerSignature({ header, rawBody: P_RAW, secret: P_SECRET, receivedAt: (T - 301) * 1000 })).toMatchObject({ ok: false, code: 'signature.timestamp-outside-tolerance' });
  });

  it('fails a millisecond timestamp (outside tolerance, format says ms)', () => {
    const r = verifyPartnerSignature({ header: `t=${T}123,v1=${P_HMAC_MS}`, rawBody: P_RAW, secret: P_SECRET, receivedAt: ARRIVAL });
    expect(r).toMatchObject({ ok: false, code: 'signature.timestamp-outside-tolerance', matchedOver: 'raw-body' });
    expect(r.format.timestamp.code).toBe('signature.timestamp-ms');
  });

  it('fails a changed body, wrong secret, changed t, missing header', () => {
    const header = `t=${T},v1=${P_HMAC_RAW}`;
    expect(verifyPartnerSignature({ header, rawBody: P_RAW.replace('order-1', 'order-2'), secret: P_SECRET, receivedAt: ARRIVAL }).code).toBe('signature.mismatch');
    expect(verifyPartnerSignature({ header, rawBody: P_RAW, secret: 'nope', receivedAt: ARRIVAL }).code).toBe('signature.mismatch');
    expect(verifyPartnerSignature({ header: `t=${T - 1},v1=${P_HMAC_RAW}`, rawBody: P_RAW, secret: P_SECRET, receivedAt: ARRIVAL }).code).toBe('signature.mismatch');
    expect(verifyPartnerSignature({ header: '', rawBody: P_RAW, secret: P_SECRET, receivedAt: ARRIVAL }).code).toBe('signature.missing-header');
  });
});
