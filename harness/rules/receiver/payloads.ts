/**
 * What event bodies the endpoint must take. gateway-api.md, Payload shapes ("Transaction events:
 * `id` (string UUID), `type` (`transaction`), `event`, `scope` (`user`), `transaction{…}`"; "Webhooks
 * are HTTP POST callbacks with a JSON body") and partner-cashin-api.md, Webhook event body ("`id`
 * (string), `type` (event name), `created_at` (ISO 8601), `data{amount_cents, e2e_id,
 * external_ref}`"; "Every state change sends a signed POST to that URL") list what an event carries,
 * not that it carries nothing else, and state no size: an event with an extra field, or a large
 * one, is still an event the endpoint answers 2xx. One rule per document.
 */
import type { Rule } from '../rule.js';
import { defineRule } from '../rule.js';
import type { RequirementId, Severity } from '../finding.js';
import type { DeliveryObservation } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus } from './observation.js';

/** A correctly signed event of this size (bytes) was delivered. */
export interface LargeDelivery extends DeliveryObservation {
  bytes: number;
}

/** One document's "an event carrying more than it lists is still an event": a refusal is `code` (a failure); no answer is the acknowledgement rule's. */
function acceptExtraFields<C extends string>(name: string, requirement: RequirementId, code: C): Rule<DeliveryObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: 'failure' } as { [K in C]: Severity },
    judge(o: DeliveryObservation, v) {
      v.shows(...exchangesOf(o));
      if (is2xxStatus(o.status) || o.status === 0) return;
      v.find(code, {
        title: `a correctly signed event with unknown extra fields was refused (${o.label})`,
        expected: 'HTTP 2xx: the documented fields are there; the contract does not say an event carries nothing else',
        actual: describeAnswer(o),
      });
    },
  });
}

/** One document's "no size is stated": a refused large event is `code` (a warning). */
function acceptLargeBodies<C extends string>(name: string, requirement: RequirementId, code: C): Rule<LargeDelivery> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: 'warning' } as { [K in C]: Severity },
    judge(o: LargeDelivery, v) {
      v.shows(...exchangesOf(o));
      if (is2xxStatus(o.status)) return;
      v.find(code, { title: `a correctly signed ${Math.round(o.bytes / 1024)} KiB event was not acknowledged (${o.label})`, expected: 'HTTP 2xx (no body size limit is stated)', actual: describeAnswer(o) });
    },
  });
}

/** Gateway: a correctly signed event with unknown extra fields (top level and nested) is acknowledged 2xx: failure otherwise. */
export const acceptGatewayExtraFields = acceptExtraFields('acceptGatewayExtraFields', 'GW-RCV-EXTRA-FIELDS', 'gateway-receiver.rejected-extra-fields');

/** Partner: as {@link acceptGatewayExtraFields}, for the partner event body. */
export const acceptPartnerExtraFields = acceptExtraFields('acceptPartnerExtraFields', 'PT-RCV-EXTRA-FIELDS', 'partner-receiver.rejected-extra-fields');

/** Gateway: a correctly signed, large event (the suite sends 256 KiB) is acknowledged; no size is stated, so a refusal is a warning. */
export const acceptGatewayLargeBodies = acceptLargeBodies('acceptGatewayLargeBodies', 'GW-RCV-BODY-SIZE', 'gateway-receiver.rejected-large-body');

/** Partner: as {@link acceptGatewayLargeBodies}. */
export const acceptPartnerLargeBodies = acceptLargeBodies('acceptPartnerLargeBodies', 'PT-RCV-BODY-SIZE', 'partner-receiver.rejected-large-body');
