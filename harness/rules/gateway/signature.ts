/**
 * The gateway's callback signature (gateway-api.md, "Authentication" 5: "Webhook callbacks are
 * signed with the webhook `signatureSecret` (see Events)"; "Callback headers": "ServiceGateway-Signature
 * | `t=<epoch>,v1=<hmac>`, sent only when the webhook has a signatureSecret"; "Signature: `v1` is the
 * lowercase hex HMAC-SHA256, keyed with the signatureSecret, over the text `<timestamp>.<JSON of
 * the payload>`. Compare in constant time.").
 *
 * The facts come from harness/webhooks/signatures.ts (`readSignature`): the header's items and
 * which of its (t, v1) pairs verifies, over the raw body or only over its compact re-serialisation.
 */
import type { Delivery } from '../../webhooks/types.js';
import { GATEWAY_SIGNATURE_HEADER, readSignature } from '../../webhooks/signatures.js';
import type { SignatureFacts } from '../../webhooks/signatures.js';
import { defineRule } from '../rule.js';
import { show } from '../judgement.js';

/** One callback's signature as received, with where it came from. */
export interface GatewaySignedCallback {
  /** what `ServiceGateway-Signature` holds, read with the webhook's signatureSecret */
  signature: SignatureFacts;
  delivery: Pick<Delivery, 'seq' | 'path'>;
}

/** Reads the `ServiceGateway-Signature` of a delivery with the webhook's signatureSecret (facts, no judgement). */
export function gatewayCallbackSignature(d: Pick<Delivery, 'seq' | 'path' | 'headers' | 'rawBody'>, secret: string): GatewaySignedCallback {
  return { signature: readSignature({ header: d.headers[GATEWAY_SIGNATURE_HEADER], rawBody: d.rawBody, secret }), delivery: { seq: d.seq, path: d.path } };
}

/** The unit the signature's `t` reads as: 12 digits or more are milliseconds (the epoch in seconds has 10 until 2286). */
export function timestampUnit(t: string): 'seconds' | 'milliseconds' | undefined {
  if (!/^\d+$/.test(t)) return undefined;
  return t.length >= 12 ? 'milliseconds' : 'seconds';
}

const EXPECTED = 'ServiceGateway-Signature: t=<epoch>,v1=<lowercase hex HMAC-SHA256(signatureSecret, "<t>.<JSON of the payload>")>';

/**
 * A callback of a webhook with a signatureSecret carries `ServiceGateway-Signature: t=<epoch>,v1=<hmac>`
 * whose v1 is the lowercase hex HMAC-SHA256 of `<t>.<JSON of the payload>` keyed with that secret.
 * - Failures: no header (GW-AUTH-CALLBACKS-SIGNED); a header without `t=` or `v1=`; v1 not 64 hex
 *   digits, or not lowercase; a v1 that verifies over neither the raw
 *   body nor its compact re-serialisation with any t of the header (the secret, the input or the t
 *   is wrong: each sentence is named).
 * - Accepted: `t` in milliseconds ("`<epoch>`" names no unit, and the gateway states no tolerance:
 *   `t` is only the text the HMAC covers; the suite notes the unit).
 * - Warnings: a `t` that is not an integer (a fraction, an ISO date: "`<epoch>`" states no form,
 *   as for the partner's); a match only over the compact re-serialisation ("JSON of the payload" may mean
 *   either; the raw body is the likelier reading); a parseable header that is not exactly
 *   `t=…,v1=…`; a header with two `t` values (see GW-WH-SIGNATURE-HEADER's ambiguity: the grammar
 *   shows one, verifiers differ on which of two they take).
 */
export const signGatewayCallbacks = defineRule({
  name: 'signGatewayCallbacks',
  requirements: ['GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER', 'GW-WH-SIGNATURE-LOWER-HEX', 'GW-WH-SIGNATURE-HMAC'],
  codes: {
    'gateway-signature.missing': 'failure',
    'gateway-signature.header-grammar': 'failure',
    'gateway-signature.header-form': 'warning',
    'gateway-signature.several-t': 'warning',
    'gateway-signature.timestamp-format': 'warning',
    'gateway-signature.v1-format': 'failure',
    'gateway-signature.v1-not-lowercase': 'failure',
    'gateway-signature.mismatch': 'failure',
    'gateway-signature.reserialized-body': 'warning',
  },
  judge(o: GatewaySignedCallback, v) {
    const { signature } = o;
    const where = `delivery #${o.delivery.seq} to ${o.delivery.path}`;
    const header = signature.header;
    if (header === undefined) {
      v.find('gateway-signature.missing', { title: 'a webhook callback carries no ServiceGateway-Signature', expected: EXPECTED, actual: `no ServiceGateway-Signature header (${where})`, requirements: ['GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER'] });
      return;
    }
    const parsed = signature.parsed;
    if (parsed === undefined || parsed.t.length === 0 || parsed.v1.length === 0) {
      const lacks = parsed === undefined ? 'is not t=<epoch>,v1=<hmac>' : `lacks ${parsed.t.length === 0 ? 't=' : 'v1='}`;
      v.find('gateway-signature.header-grammar', { title: 'the ServiceGateway-Signature header is not t=<epoch>,v1=<hmac>', expected: EXPECTED, actual: `header ${show(header, 200)} ${lacks} (${where})`, requirements: ['GW-WH-SIGNATURE-HEADER'] });
      return;
    }
    const badT = parsed.t.find((t) => timestampUnit(t) === undefined);
    if (badT !== undefined) {
      v.find('gateway-signature.timestamp-format', { title: 'the signature t is not an integer epoch', expected: 't=<integer epoch>', actual: `t=${show(badT)} (${where})`, requirements: ['GW-WH-SIGNATURE-HEADER'] });
    }
    const notHex = parsed.v1.find((v1) => !/^[0-9A-Fa-f]{64}$/.test(v1));
    if (notHex !== undefined) {
      v.find('gateway-signature.v1-format', { title: 'the signature v1 is not 64 hex digits (a hex HMAC-SHA256)', expected: 'v1=<64 lowercase hex digits>', actual: `v1=${show(notHex)} (${where})`, requirements: ['GW-WH-SIGNATURE-LOWER-HEX'] });
    } else {
      const upper = parsed.v1.find((v1) => /[A-F]/.test(v1));
      if (upper !== undefined) {
        v.find('gateway-signature.v1-not-lowercase', { title: 'the signature v1 has uppercase hex digits', expected: 'v1 in lowercase hex ("`v1` is the lowercase hex HMAC-SHA256")', actual: `v1=${upper} (${where})`, requirements: ['GW-WH-SIGNATURE-LOWER-HEX'] });
      }
    }
    const match = signature.match;
    if (match === undefined) {
      const expectedHex = signature.expected.map((e) => `t=${e.t}: ${e.hex}`).join('; ');
      v.find('gateway-signature.mismatch', {
        title: 'the webhook signature does not verify with the signatureSecret',
        expected: `v1 = HMAC-SHA256(signatureSecret, "<t>.<JSON of the payload>") with the header's t (over the raw body: ${expectedHex})`,
        actual: `v1=${show(parsed.v1.join(','), 140)} verifies neither over <t>.<raw body> nor over its compact re-serialisation (${where})`,
        requirements: ['GW-WH-SIGNATURE-HMAC', 'GW-AUTH-CALLBACKS-SIGNED', 'GW-WH-SIGNATURE-HEADER'],
      });
      return;
    }
    if (match.over === 'compact-json') {
      v.find('gateway-signature.reserialized-body', {
        title: 'the signature verifies only over re-serialised JSON, not over the raw body',
        expected: 'HMAC over "<t>.<raw request body>" (the likeliest reading of "JSON of the payload")',
        actual: `matched over compact JSON.stringify(JSON.parse(body)) only (${where})`,
        requirements: ['GW-WH-SIGNATURE-HMAC'],
      });
    }
    if (parsed.t.length > 1) {
      v.find('gateway-signature.several-t', {
        title: 'the signature header carries more than one t',
        expected: 'one t ("`t=<epoch>,v1=<hmac>`")',
        actual: `t=${parsed.t.join(', t=')}; v1 verifies with t=${match.t} (${where})`,
        requirements: ['GW-WH-SIGNATURE-HEADER'],
      });
    } else if (!parsed.exact && badT === undefined && notHex === undefined) {
      // (a t or v1 of another form is found above, on its own)
      v.find('gateway-signature.header-form', { title: 'the signature header is parseable but not exactly t=<epoch>,v1=<hmac>', expected: EXPECTED, actual: `header ${show(header, 200)} (${where})`, requirements: ['GW-WH-SIGNATURE-HEADER'] });
    }
  },
});
