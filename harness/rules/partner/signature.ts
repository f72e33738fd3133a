/**
 * The partner webhook signature (partner-cashin-api.md, "Authentication" 4): "Webhook signature:
 * header `X-Service-Signature` with `t=<epoch>,v1=<hmac>`. `v1` is the hex HMAC-SHA256, keyed with
 * the endpoint secret, over `<timestamp>.<raw request body>`. The raw body, not a re-serialized
 * JSON, must be used. Comparison is constant-time. A timestamp tolerance of 300 seconds is the
 * default in the reference verification."
 *
 * The facts come from harness/webhooks/signatures.ts (`readSignature`): the header's items and
 * which of its (t, v1) pairs verifies, over the raw body or only over its compact re-serialisation.
 */
import type { Delivery } from '../../webhooks/types.js';
import { PARTNER_SIGNATURE_HEADER, PARTNER_TOLERANCE_SECONDS, readSignature } from '../../webhooks/signatures.js';
import type { SignatureFacts } from '../../webhooks/signatures.js';
import type { RequirementId } from '../finding.js';
import { defineRule } from '../rule.js';
import type { Verdict } from '../rule.js';
import { show } from '../judgement.js';

/** One delivery's signature as received, and what the tolerance is measured against. */
export interface PartnerSignedDelivery {
  /** what `X-Service-Signature` holds, read with the endpoint secret */
  signature: SignatureFacts;
  /** `receivedAt`: ms epoch the delivery arrived, on our clock */
  delivery: Pick<Delivery, 'seq' | 'receivedAt'>;
  /** a redelivery: a t outside the tolerance decides PT-WH-REDELIVERY-FRESH-T (whether it is re-signed is not stated) */
  redelivery?: boolean;
  /** the service's clock minus ours (serviceClockOffsetMs, harness/rules/partner/webhooks.ts): clock skew is then no excuse */
  clockOffsetMs?: number;
  /**
   * a redelivery's tolerance in ms when the target's redelivery timers are compressed
   * (redeliveryToleranceMs, harness/webhooks/redelivery-timers.ts); used only with `clockOffsetMs`;
   * default the contract's 300 s
   */
  redeliveryToleranceMs?: number;
}

export type PartnerSignatureOptions = Pick<PartnerSignedDelivery, 'redelivery' | 'clockOffsetMs' | 'redeliveryToleranceMs'>;

/** Reads the `X-Service-Signature` of a delivery with the endpoint secret (facts, no judgement). */
export function partnerDeliverySignature(d: Pick<Delivery, 'seq' | 'headers' | 'rawBody' | 'receivedAt'>, secret: string, options: PartnerSignatureOptions = {}): PartnerSignedDelivery {
  return { signature: readSignature({ header: d.headers[PARTNER_SIGNATURE_HEADER], rawBody: d.rawBody, secret }), delivery: { seq: d.seq, receivedAt: d.receivedAt }, ...options };
}

const EXPECTED = 'X-Service-Signature: t=<epoch>,v1=<hex HMAC-SHA256(endpoint secret, "<t>.<raw request body>")>';
const SIGNED: readonly RequirementId[] = ['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER'];

/**
 * The signature of one delivery, as "Authentication" 4 states it: one rule for the paragraph, each
 * finding naming the clause it breaks.
 * - Failures: no header, or one without `t=` or `v1=`; a v1 that does not verify over `<t>.<raw
 *   body>` with the endpoint secret and any t of the header; a match only over re-serialised JSON
 *   ("The raw body, not a re-serialized JSON, must be used"); a first delivery whose `t` is more
 *   than 300 s before its arrival, measured on the service's own clock (`clockOffsetMs`: the
 *   reference verification would reject it).
 * - Warnings (the text is open or ambiguous): a parseable header that is not exactly
 *   `t=<epoch>,v1=<hmac>`; a header with two `t` values (PT-WH-SIGNATURE-HEADER's ambiguity); `t` in
 *   milliseconds (PT-WH-TIMESTAMP-EPOCH: the unit is not stated; the tolerance is then judged on
 *   t / 1000), or not an integer (a fraction, say: "`<epoch>`" states no form); a `t` more than
 *   300 s old without the service's clock known (skew), or on a redelivery (PT-WH-REDELIVERY-FRESH-T);
 *   a `t` ahead of arrival by more than 300 s (PT-WH-TOLERANCE's ambiguity: the direction of the
 *   tolerance is not stated, and reference verifications in the field reject only old timestamps).
 * - Hex of either case is accepted ("hex", no case stated).
 */
export const signPartnerWebhooks = defineRule({
  name: 'signPartnerWebhooks',
  requirements: ['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER', 'PT-WH-TIMESTAMP-EPOCH', 'PT-WH-TOLERANCE', 'PT-WH-REDELIVERY-FRESH-T'],
  codes: {
    'partner-signature.missing': 'failure',
    'partner-signature.header-grammar': 'failure',
    'partner-signature.mismatch': 'failure',
    'partner-signature.reserialized-body': 'failure',
    'partner-signature.header-form': 'warning',
    'partner-signature.several-t': 'warning',
    'partner-signature.timestamp-format': 'warning',
    'partner-signature.timestamp-ms': 'warning',
    'partner-signature.outside-tolerance': 'failure',
    'partner-signature.future-timestamp': 'warning',
  },
  judge(o: PartnerSignedDelivery, v) {
    const { signature } = o;
    const where = `delivery #${o.delivery.seq}`;
    const header = signature.header;
    const decided: RequirementId[] = [...SIGNED];
    v.decides(...decided);
    if (header === undefined) {
      v.find('partner-signature.missing', { title: 'a partner webhook carries no X-Service-Signature', expected: EXPECTED, actual: `no X-Service-Signature header (${where})`, requirements: ['PT-WH-SIGNATURE-HEADER', 'PT-WH-SIGNATURE'] });
      return;
    }
    const parsed = signature.parsed;
    if (parsed === undefined || parsed.t.length === 0 || parsed.v1.length === 0) {
      const lacks = parsed === undefined ? 'is not t=<epoch>,v1=<hmac>' : `lacks ${parsed.t.length === 0 ? 't=' : 'v1='}`;
      v.find('partner-signature.header-grammar', { title: 'the X-Service-Signature header is not t=<epoch>,v1=<hmac>', expected: EXPECTED, actual: `header ${show(header, 200)} ${lacks} (${where})`, requirements: ['PT-WH-SIGNATURE-HEADER', 'PT-WH-SIGNATURE'] });
      return;
    }
    const match = signature.match;
    if (match === undefined) {
      const notHex = parsed.v1.find((v1) => !/^[0-9A-Fa-f]{64}$/.test(v1));
      v.find('partner-signature.mismatch', {
        title: 'the partner webhook signature does not verify with the endpoint secret',
        expected: `v1 = hex HMAC-SHA256(endpoint secret, "<t>.<raw request body>") with the header's t (${signature.expected.map((e) => `t=${e.t}: ${e.hex}`).join('; ')})`,
        actual: `${notHex !== undefined ? `v1=${show(notHex)} is not 64 hex digits` : `v1=${show(parsed.v1.join(','), 140)} does not verify over <t>.<raw body>`} (${where})`,
        requirements: SIGNED,
      });
      return;
    }
    if (match.over === 'compact-json') {
      v.find('partner-signature.reserialized-body', {
        title: 'the partner webhook signature verifies only over re-serialised JSON, not over the raw body',
        expected: 'HMAC over "<t>.<raw request body>": "The raw body, not a re-serialized JSON, must be used"',
        actual: `v1 matches over compact JSON.stringify(JSON.parse(body)) only (${where})`,
        requirements: ['PT-WH-RAW-BODY', 'PT-WH-SIGNATURE'],
      });
      return;
    }
    if (parsed.t.length > 1) {
      v.find('partner-signature.several-t', {
        title: 'the signature header carries more than one t',
        expected: 'one t ("`t=<epoch>,v1=<hmac>`")',
        actual: `t=${parsed.t.join(', t=')}; v1 verifies with t=${match.t} (${where})`,
        requirements: ['PT-WH-SIGNATURE-HEADER'],
      });
    } else if (!parsed.exact && parsed.t.every((t) => /^\d+$/.test(t))) {
      // (a t that is not an integer is found below, on its own)
      v.find('partner-signature.header-form', { title: 'the partner signature header is not exactly t=<epoch>,v1=<hmac>', expected: EXPECTED, actual: `header ${show(header, 200)} (${where})`, requirements: ['PT-WH-SIGNATURE-HEADER'] });
    }
    decided.push('PT-WH-TIMESTAMP-EPOCH');
    v.decides(...decided);
    const t = match.t;
    if (!/^\d+$/.test(t)) {
      v.find('partner-signature.timestamp-format', { title: 'the signature t is not an integer epoch', expected: 't=<Unix epoch in seconds>', actual: `t=${show(t)}: the tolerance cannot be judged (${where})`, requirements: ['PT-WH-TIMESTAMP-EPOCH'] });
      return;
    }
    const ms = t.length >= 12;
    if (ms) {
      v.find('partner-signature.timestamp-ms', { title: 'the signature t is in milliseconds', expected: 't=<Unix epoch in seconds> (the 300 s tolerance implies seconds)', actual: `t=${t} has ${t.length} digits: an epoch in milliseconds (${where})`, requirements: ['PT-WH-TIMESTAMP-EPOCH'] });
    }
    judgeTolerance(o, ms ? Number(t) : Number(t) * 1000, decided, v);
  },
});

/** The tolerance clause: how far `t` (ms) is from the arrival, on the service's clock when known. */
function judgeTolerance(o: PartnerSignedDelivery, tMs: number, decided: readonly RequirementId[], v: Verdict<'partner-signature.outside-tolerance' | 'partner-signature.future-timestamp'>): void {
  const where = `delivery #${o.delivery.seq}`;
  const offset = o.clockOffsetMs;
  const arrival = o.delivery.receivedAt + (offset ?? 0);
  const tolerance: RequirementId[] = o.redelivery ? ['PT-WH-REDELIVERY-FRESH-T'] : offset !== undefined ? ['PT-WH-TOLERANCE', 'PT-WH-SIGNATURE'] : ['PT-WH-TOLERANCE'];
  v.decides(...decided, ...tolerance.filter((id) => !decided.includes(id)));
  const clock = offset !== undefined ? ` (service clock offset ${Math.round(offset / 1000)} s removed)` : '';
  const aheadS = Math.round((tMs - arrival) / 1000);
  if (aheadS > PARTNER_TOLERANCE_SECONDS) {
    v.find('partner-signature.future-timestamp', {
      title: `the webhook signature timestamp is more than ${PARTNER_TOLERANCE_SECONDS} s ahead of its arrival`,
      expected: `t within ${PARTNER_TOLERANCE_SECONDS} s of arrival (whether the tolerance applies to a t in the future is not stated)`,
      actual: `t is ${aheadS} s after arrival${clock} (${where})`,
      requirements: ['PT-WH-TOLERANCE'],
    });
    return;
  }
  // a compressed tolerance is a few seconds: only with the service's clock known, else the unknown
  // skew between its clock and ours would decide it (the contract's 300 s then applies)
  const compressedMs = o.redelivery && offset !== undefined ? o.redeliveryToleranceMs : undefined;
  const lateMs = arrival - tMs;
  const late = compressedMs !== undefined ? lateMs > compressedMs : Math.round(lateMs / 1000) > PARTNER_TOLERANCE_SECONDS;
  if (!late) return;
  v.find('partner-signature.outside-tolerance', {
    title: `the webhook signature timestamp is outside the ${PARTNER_TOLERANCE_SECONDS} s tolerance${o.redelivery ? ' (a redelivery)' : ''}`,
    expected: `t within ${compressedMs !== undefined ? `${compressedMs} ms (the ${PARTNER_TOLERANCE_SECONDS} s tolerance compressed with the redelivery timers)` : `${PARTNER_TOLERANCE_SECONDS} s`} of arrival${offset !== undefined ? " (measured on the service's own clock)" : ''}`,
    actual: `t is ${compressedMs !== undefined ? `${Math.round(lateMs)} ms` : `${Math.round(lateMs / 1000)} s`} before arrival${clock} (${where})`,
    requirements: tolerance,
  });
}
