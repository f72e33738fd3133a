/**
 * What event bodies the endpoint must take. gateway-api.md, Payload shapes ("Transaction events:
 * `id` (string UUID), `type` (`transaction`), `event`, `scope` (`user`), `transaction{…}`") and
 * partner-cashin-api.md, Webhook event body ("`id` (string), `type` (event name), `created_at`
 * (ISO 8601), `data{amount_cents, e2e_id, external_ref}`") list what an event carries, not that it
 * carries nothing else: an event with an extra field is still an event the endpoint answers 2xx.
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding } from '../judgement.js';
import type { DeliveryObservation, ReceiverScheme, SchemeIds } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus } from './observation.js';

const EXTRA: SchemeIds = { gateway: 'GW-RCV-EXTRA-FIELDS', partner: 'PT-RCV-EXTRA-FIELDS' };
const SIZE: SchemeIds = { gateway: 'GW-RCV-BODY-SIZE', partner: 'PT-RCV-BODY-SIZE' };

/** A correctly signed event with unknown extra fields (top level and nested) is acknowledged 2xx: failure otherwise. */
export function ensureExtraFieldsAccepted(o: DeliveryObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [EXTRA[scheme]], exchanges: exchangesOf(o) };
  if (is2xxStatus(o.status) || o.status === 0) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.rejected-extra-fields',
      title: `a correctly signed event with unknown extra fields was refused (${o.label})`,
      severity: 'failure',
      expected: 'HTTP 2xx: the documented fields are there; the contract does not say an event carries nothing else',
      actual: describeAnswer(o),
    }),
  );
}

/** A correctly signed, large event (the suite sends 256 KiB) is acknowledged; no size is stated, so a refusal is a warning. */
export function judgeLargeBodyAccepted(o: DeliveryObservation, scheme: ReceiverScheme, bytes: number): Judgement {
  const ctx = { requirements: [SIZE[scheme]], exchanges: exchangesOf(o) };
  if (is2xxStatus(o.status)) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.rejected-large-body',
      title: `a correctly signed ${Math.round(bytes / 1024)} KiB event was not acknowledged (${o.label})`,
      severity: 'warning',
      expected: 'HTTP 2xx (no body size limit is stated)',
      actual: describeAnswer(o),
    }),
  );
}
