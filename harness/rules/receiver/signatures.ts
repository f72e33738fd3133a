/**
 * How the endpoint treats signatures. The contracts state the duties on the verifying side, and
 * their firmness differs; each rule quotes its sentence and follows it:
 *
 * - gateway-api.md, Webhook resource: "signatureSecret | returned on creation; used to verify
 *   signatures"; Callback headers: "`v1` is the lowercase hex HMAC-SHA256, keyed with the
 *   signatureSecret, over the text `<timestamp>.<JSON of the payload>`. Compare in constant time."
 *   and "ServiceGateway-Signature … sent only when the webhook has a signatureSecret".
 * - partner-cashin-api.md, Authentication 4: "`v1` is the hex HMAC-SHA256, keyed with the endpoint
 *   secret, over `<timestamp>.<raw request body>`. The raw body, not a re-serialized JSON, must be
 *   used. Comparison is constant-time. A timestamp tolerance of 300 seconds is the default in the
 *   reference verification."; Events: "Every state change sends a signed POST to that URL."
 *
 * What a delivery is comes from the same facts the service-side signature rules read
 * (harness/webhooks/signatures.ts `readSignature`, with the endpoint's secret, in
 * `DeliveryObservation.signature`): a delivery that is not what a rule needs (a "forgery" that
 * verifies, an "unsigned" one with a header) decides nothing.
 */
import { defineRule } from '../rule.js';
import type { Rule } from '../rule.js';
import type { RequirementId, Severity } from '../finding.js';
import { PARTNER_TOLERANCE_SECONDS } from '../../webhooks/signatures.js';
import type { DeliveryObservation } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus } from './observation.js';

/** The delivery's signature does not verify with the endpoint's secret (or the facts were not read). */
function forged(o: DeliveryObservation): boolean {
  return o.signature === undefined || (o.signature.header !== undefined && o.signature.match === undefined);
}

/** One document's "the secret is used to verify signatures": an accepted forgery is `code` (a failure); a delivery that verifies decides nothing. */
function refuseForged<C extends string>(name: string, requirement: RequirementId, code: C): Rule<DeliveryObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: 'failure' } as { [K in C]: Severity },
    judge(o: DeliveryObservation, v) {
      if (!forged(o)) return v.nothingToJudge();
      v.shows(...exchangesOf(o));
      if (!is2xxStatus(o.status)) return;
      v.find(code, { title: `an event whose signature does not verify was accepted (${o.label})`, expected: 'a refusal (non-2xx): the HMAC does not match the endpoint secret', actual: describeAnswer(o) });
    },
  });
}

/**
 * Gateway: an event whose signature does not verify with the signatureSecret (a wrong HMAC) is
 * refused (any non-2xx): the secret is "used to verify signatures" ("Compare in constant time").
 */
export const refuseForgedGatewayEvents = refuseForged('refuseForgedGatewayEvents', 'GW-RCV-VERIFY-SIGNATURE', 'gateway-receiver.accepted-forged');

/** Partner: as {@link refuseForgedGatewayEvents}, with the endpoint secret over the raw body. */
export const refuseForgedPartnerEvents = refuseForged('refuseForgedPartnerEvents', 'PT-RCV-VERIFY-SIGNATURE', 'partner-receiver.accepted-forged');

const unsigned = (o: DeliveryObservation): boolean => o.signature === undefined || o.signature.header === undefined;

/** One document's word on unsigned events: accepting one is `code`, of `severity`; a signed delivery decides nothing. */
function refuseUnsigned<C extends string>(name: string, requirement: RequirementId, code: C, severity: Severity, expected: string): Rule<DeliveryObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: severity } as { [K in C]: Severity },
    judge(o: DeliveryObservation, v) {
      if (!unsigned(o)) return v.nothingToJudge();
      v.shows(...exchangesOf(o));
      if (is2xxStatus(o.status)) v.find(code, { title: `an event without the signature header was accepted (${o.label})`, expected, actual: describeAnswer(o) });
    },
  });
}

/**
 * Gateway: the header is "sent only when the webhook has a signatureSecret", and a charge's
 * postbackUrl has none, so an endpoint may receive unsigned events by design: accepting one is only
 * a warning.
 */
export const refuseUnsignedGatewayEvents = refuseUnsigned('refuseUnsignedGatewayEvents', 'GW-RCV-UNSIGNED', 'gateway-receiver.accepted-unsigned', 'warning', 'a refusal when the endpoint has a signatureSecret (postbackUrl deliveries are unsigned: a warning only)');

/** Partner: "Every state change sends a signed POST", so an unsigned POST is never the platform's: accepting it is a failure. */
export const requireSignedPartnerEvents = refuseUnsigned('requireSignedPartnerEvents', 'PT-RCV-REQUIRE-SIGNATURE', 'partner-receiver.accepted-unsigned', 'failure', 'a refusal: "Every state change sends a signed POST"');

export interface SignatureInputObservation {
  /** a correctly signed event whose raw body is not the compact re-serialisation (extra whitespace) */
  exactBytes: DeliveryObservation;
  /** the same raw body, signed over its compact re-serialisation instead of its bytes */
  reserialized: DeliveryObservation;
}

/** The pair is what the rule needs: a signature over the exact bytes of a re-serialisable body, and one only over its re-serialisation. */
function inputPair(o: SignatureInputObservation): boolean {
  const exact = o.exactBytes.signature;
  const other = o.reserialized.signature;
  return (exact === undefined || (exact.match?.over === 'raw-body' && exact.reserializable)) && (other === undefined || other.match?.over === 'compact-json');
}

const REJECTED_EXACT = (o: DeliveryObservation) => `an event signed over its exact raw body was refused: the endpoint verifies something else (${o.label})`;

/**
 * Gateway "over the text `<timestamp>.<JSON of the payload>`" may be the raw body or a
 * re-serialisation (contract README): refusing the body signed over its exact bytes is a warning;
 * accepting the signature over the re-serialisation is allowed (the suite notes it).
 */
export const verifyGatewaySignaturesOverTheBody = defineRule({
  name: 'verifyGatewaySignaturesOverTheBody',
  requirements: ['GW-RCV-SIGNATURE-INPUT'],
  codes: { 'gateway-receiver.rejected-exact-body': 'warning' },
  judge(o: SignatureInputObservation, v) {
    if (!inputPair(o)) return v.nothingToJudge();
    v.shows(...exchangesOf(o.exactBytes, o.reserialized));
    if (is2xxStatus(o.exactBytes.status) || o.exactBytes.status === 0) return;
    v.find('gateway-receiver.rejected-exact-body', { title: REJECTED_EXACT(o.exactBytes), expected: 'HTTP 2xx (a signature over the bytes sent verifies)', actual: describeAnswer(o.exactBytes), exchanges: exchangesOf(o.exactBytes) });
  },
});

/**
 * Partner "The raw body, not a re-serialized JSON, must be used": refusing the body signed over its
 * exact bytes, or accepting the one signed over a re-serialisation, is a failure.
 */
export const verifyPartnerSignaturesOverRawBody = defineRule({
  name: 'verifyPartnerSignaturesOverRawBody',
  requirements: ['PT-RCV-RAW-BODY'],
  codes: { 'partner-receiver.rejected-exact-body': 'failure', 'partner-receiver.accepted-reserialized': 'failure' },
  judge(o: SignatureInputObservation, v) {
    if (!inputPair(o)) return v.nothingToJudge();
    if (!is2xxStatus(o.exactBytes.status) && o.exactBytes.status !== 0) {
      v.find('partner-receiver.rejected-exact-body', { title: REJECTED_EXACT(o.exactBytes), expected: 'HTTP 2xx: "The raw body, not a re-serialized JSON, must be used"', actual: describeAnswer(o.exactBytes), exchanges: exchangesOf(o.exactBytes) });
    }
    if (is2xxStatus(o.reserialized.status)) {
      v.find('partner-receiver.accepted-reserialized', {
        title: `an event signed over a re-serialisation of its body, not its raw bytes, was accepted (${o.reserialized.label})`,
        expected: 'a refusal: "The raw body, not a re-serialized JSON, must be used"',
        actual: describeAnswer(o.reserialized),
        exchanges: exchangesOf(o.reserialized),
      });
    }
  },
});

export interface DigestEncodingObservation {
  /** the correct digest in lowercase hex (what the suite always signs with) */
  lowercase: DeliveryObservation;
  /** the same digest in uppercase hex */
  uppercase: DeliveryObservation;
}

/** The pair is what the rules need: the correct digest, in lowercase hex and in uppercase hex. */
function casePair(o: DigestEncodingObservation): boolean {
  const lower = o.lowercase.signature?.match;
  const upper = o.uppercase.signature?.match;
  return (o.lowercase.signature === undefined || (lower !== undefined && !/[A-F]/.test(lower.v1))) && (o.uppercase.signature === undefined || (upper !== undefined && /[A-F]/.test(upper.v1)));
}

const bothAnswers = (o: DigestEncodingObservation): string => `lowercase: ${describeAnswer(o.lowercase)}; uppercase: ${describeAnswer(o.uppercase)}`;

/**
 * Gateway "`v1` is the lowercase hex HMAC-SHA256": refusing the correct digest in lowercase hex is a
 * failure; accepting uppercase (or not) is the endpoint's choice. (Base64 is another encoding of
 * the same HMAC: the suite records what the endpoint does with it and judges nothing.)
 */
export const acceptLowercaseHexDigests = defineRule({
  name: 'acceptLowercaseHexDigests',
  requirements: ['GW-RCV-DIGEST-HEX'],
  codes: { 'gateway-receiver.lowercase-digest-refused': 'failure' },
  judge(o: DigestEncodingObservation, v) {
    if (!casePair(o)) return v.nothingToJudge();
    v.shows(...exchangesOf(o.lowercase, o.uppercase));
    if (is2xxStatus(o.lowercase.status) || o.lowercase.status === 0) return;
    v.find('gateway-receiver.lowercase-digest-refused', { title: 'a correct signature in lowercase hex was refused', expected: 'HTTP 2xx: "`v1` is the lowercase hex HMAC-SHA256"', actual: bothAnswers(o) });
  },
});

/**
 * Partner "`v1` is the hex HMAC-SHA256", case not stated: refusing either case of the correct
 * digest, while the other is accepted, is a warning (both refused: the acknowledgement rule fails).
 */
export const acceptHexDigestsOfEitherCase = defineRule({
  name: 'acceptHexDigestsOfEitherCase',
  requirements: ['PT-RCV-DIGEST-HEX'],
  codes: { 'partner-receiver.digest-case': 'warning' },
  judge(o: DigestEncodingObservation, v) {
    if (!casePair(o)) return v.nothingToJudge();
    v.shows(...exchangesOf(o.lowercase, o.uppercase));
    const lowerOk = is2xxStatus(o.lowercase.status);
    if (lowerOk === is2xxStatus(o.uppercase.status)) return;
    v.find('partner-receiver.digest-case', {
      title: `a correct signature in ${lowerOk ? 'uppercase' : 'lowercase'} hex was refused while the other case was accepted`,
      expected: 'either case of the hex digest accepted ("`v1` is the hex HMAC-SHA256", case not stated)',
      actual: bothAnswers(o),
    });
  },
});

/** How old the signature's t was when the delivery was sent, in seconds; undefined when unknown. */
function signatureAgeSeconds(o: DeliveryObservation): number | undefined {
  const t = o.signature?.match?.t;
  if (t === undefined || !/^\d+$/.test(t) || o.sentAt === undefined) return undefined;
  return Math.round(o.sentAt / 1000 - Number(t));
}

/**
 * Partner: "A timestamp tolerance of 300 seconds is the default in the reference verification." A
 * correctly signed event whose `t` is well past 300 s (the suite uses 10 minutes) accepted: a
 * warning (a default, not a must; the endpoint may have chosen a longer tolerance).
 */
export const refuseStalePartnerEvents = defineRule({
  name: 'refuseStalePartnerEvents',
  requirements: ['PT-RCV-TOLERANCE'],
  codes: { 'partner-receiver.accepted-stale': 'warning' },
  judge(o: DeliveryObservation, v) {
    const age = signatureAgeSeconds(o);
    if (age === undefined || age <= PARTNER_TOLERANCE_SECONDS) return v.nothingToJudge();
    v.shows(...exchangesOf(o));
    if (!is2xxStatus(o.status)) return;
    v.find('partner-receiver.accepted-stale', { title: `an event signed ${age} s ago was accepted (tolerance 300 s by default)`, expected: 'a refusal: t is outside the default 300-second tolerance', actual: describeAnswer(o) });
  },
});
