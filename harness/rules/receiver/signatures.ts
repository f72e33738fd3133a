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
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding } from '../judgement.js';
import type { DeliveryObservation, ReceiverScheme, SchemeIds } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus } from './observation.js';

const VERIFY: SchemeIds = { gateway: 'GW-RCV-VERIFY-SIGNATURE', partner: 'PT-RCV-VERIFY-SIGNATURE' };
const UNSIGNED: SchemeIds = { gateway: 'GW-RCV-UNSIGNED', partner: 'PT-RCV-REQUIRE-SIGNATURE' };
const INPUT: SchemeIds = { gateway: 'GW-RCV-SIGNATURE-INPUT', partner: 'PT-RCV-RAW-BODY' };
const DIGEST: SchemeIds = { gateway: 'GW-RCV-DIGEST-HEX', partner: 'PT-RCV-DIGEST-HEX' };

/**
 * An event whose signature does not verify with the endpoint's secret (a wrong HMAC) is refused
 * (any non-2xx). Both documents make verification the secret's purpose ("used to verify
 * signatures", "Compare in constant time"; partner: the raw body "must be used" in the
 * verification): accepting a forged event is a failure on both.
 */
export function ensureForgeryRefused(o: DeliveryObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [VERIFY[scheme]], exchanges: exchangesOf(o) };
  if (!is2xxStatus(o.status)) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.accepted-forged',
      title: `an event whose signature does not verify was accepted (${o.label})`,
      severity: 'failure',
      expected: 'a refusal (non-2xx): the HMAC does not match the endpoint secret',
      actual: describeAnswer(o),
    }),
  );
}

/**
 * An event without the signature header. Partner: "Every state change sends a signed POST", so an
 * unsigned POST is never the platform's: accepting it is a failure. Gateway: the header is "sent
 * only when the webhook has a signatureSecret", and a charge's postbackUrl has none, so an endpoint
 * may receive unsigned events by design: accepting one is only a warning.
 */
export function judgeUnsignedDelivery(o: DeliveryObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [UNSIGNED[scheme]], exchanges: exchangesOf(o) };
  if (!is2xxStatus(o.status)) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.accepted-unsigned',
      title: `an event without the signature header was accepted (${o.label})`,
      severity: scheme === 'partner' ? 'failure' : 'warning',
      expected:
        scheme === 'partner'
          ? 'a refusal: "Every state change sends a signed POST"'
          : 'a refusal when the endpoint has a signatureSecret (postbackUrl deliveries are unsigned: a warning only)',
      actual: describeAnswer(o),
    }),
  );
}

export interface SignatureInputObservation {
  /** a correctly signed event whose raw body is not the compact re-serialisation (extra whitespace) */
  exactBytes: DeliveryObservation;
  /** the same raw body, signed over its compact re-serialisation instead of its bytes */
  reserialized: DeliveryObservation;
}

/**
 * The signature covers the bytes received. Partner: "The raw body, not a re-serialized JSON, must
 * be used": refusing the exactly signed body, or accepting the one signed over a re-serialisation,
 * is a failure. Gateway: "`<JSON of the payload>`" may be either (contract README), so refusing the
 * exactly signed body is a warning and accepting the re-serialised signature is allowed.
 */
export function judgeSignatureInput(o: SignatureInputObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [INPUT[scheme]], exchanges: exchangesOf(o.exactBytes, o.reserialized) };
  const exact =
    is2xxStatus(o.exactBytes.status) || o.exactBytes.status === 0
      ? undefined
      : makeFinding(
          { ...ctx, exchanges: exchangesOf(o.exactBytes) },
          {
            code: 'receiver.rejected-exact-body',
            title: `an event signed over its exact raw body was refused: the endpoint verifies something else (${o.exactBytes.label})`,
            severity: scheme === 'partner' ? 'failure' : 'warning',
            expected: scheme === 'partner' ? 'HTTP 2xx: "The raw body, not a re-serialized JSON, must be used"' : 'HTTP 2xx (a signature over the bytes sent verifies)',
            actual: describeAnswer(o.exactBytes),
          },
        );
  const reserialized =
    scheme === 'partner' && is2xxStatus(o.reserialized.status)
      ? makeFinding(
          { ...ctx, exchanges: exchangesOf(o.reserialized) },
          {
            code: 'receiver.accepted-reserialized',
            title: `an event signed over a re-serialisation of its body, not its raw bytes, was accepted (${o.reserialized.label})`,
            severity: 'failure',
            expected: 'a refusal: "The raw body, not a re-serialized JSON, must be used"',
            actual: describeAnswer(o.reserialized),
          },
        )
      : undefined;
  return judge(ctx, exact, reserialized);
}

export interface DigestEncodingObservation {
  /** the correct digest in lowercase hex (what the suite always signs with) */
  lowercase: DeliveryObservation;
  /** the same digest in uppercase hex */
  uppercase: DeliveryObservation;
}

/**
 * The digest's encoding. Gateway: "`v1` is the lowercase hex HMAC-SHA256": refusing the lowercase
 * hex digest is a failure; accepting uppercase (or not) is the endpoint's choice. Partner: "`v1` is
 * the hex HMAC-SHA256", case not stated: refusing either case of the correct digest, while the
 * other is accepted, is a warning. (Base64 is another encoding of the same HMAC: the suite records
 * what the endpoint does with it and judges nothing.)
 */
export function judgeDigestEncoding(o: DigestEncodingObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [DIGEST[scheme]], exchanges: exchangesOf(o.lowercase, o.uppercase) };
  const lowerOk = is2xxStatus(o.lowercase.status);
  const upperOk = is2xxStatus(o.uppercase.status);
  if (scheme === 'gateway') {
    if (lowerOk || o.lowercase.status === 0) return judge(ctx);
    return judge(
      ctx,
      makeFinding(ctx, {
        code: 'receiver.digest-case',
        title: 'a correct signature in lowercase hex was refused',
        severity: 'failure',
        expected: 'HTTP 2xx: "`v1` is the lowercase hex HMAC-SHA256"',
        actual: `lowercase: ${describeAnswer(o.lowercase)}; uppercase: ${describeAnswer(o.uppercase)}`,
      }),
    );
  }
  if (lowerOk === upperOk) return judge(ctx); // both accepted, or both refused (then ensureAcknowledged fails)
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.digest-case',
      title: `a correct signature in ${lowerOk ? 'uppercase' : 'lowercase'} hex was refused while the other case was accepted`,
      severity: 'warning',
      expected: 'either case of the hex digest accepted ("`v1` is the hex HMAC-SHA256", case not stated)',
      actual: `lowercase: ${describeAnswer(o.lowercase)}; uppercase: ${describeAnswer(o.uppercase)}`,
    }),
  );
}

/**
 * Partner: "A timestamp tolerance of 300 seconds is the default in the reference verification." A
 * correctly signed event whose `t` is well past 300 s (the suite uses 10 minutes) accepted: a
 * warning (a default, not a must; the endpoint may have chosen a longer tolerance).
 */
export function judgeStaleTimestamp(o: DeliveryObservation, ageSeconds: number): Judgement {
  const ctx = { requirements: ['PT-RCV-TOLERANCE' as const], exchanges: exchangesOf(o) };
  if (!is2xxStatus(o.status)) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.accepted-stale',
      title: `an event signed ${ageSeconds} s ago was accepted (tolerance 300 s by default)`,
      severity: 'warning',
      expected: 'a refusal: t is outside the default 300-second tolerance',
      actual: describeAnswer(o),
    }),
  );
}
