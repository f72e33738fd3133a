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
import type { DeliveryObservation } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus } from './observation.js';

/** A correctly signed event of this size (bytes) was delivered. */
export interface LargeDelivery extends DeliveryObservation {
  bytes: number;
}

const EXTRA_FIELDS = (o: DeliveryObservation) => ({
  title: `a correctly signed event with unknown extra fields was refused (${o.label})`,
  expected: 'HTTP 2xx: the documented fields are there; the contract does not say an event carries nothing else',
  actual: describeAnswer(o),
});

/** Gateway: a correctly signed event with unknown extra fields (top level and nested) is acknowledged 2xx: failure otherwise (no answer is the acknowledgement rule's). */
export const acceptGatewayExtraFields: Rule<DeliveryObservation> = defineRule({
  name: 'acceptGatewayExtraFields',
  requirements: ['GW-RCV-EXTRA-FIELDS'],
  codes: { 'gateway-receiver.rejected-extra-fields': 'failure' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if (!is2xxStatus(o.status) && o.status !== 0) v.find('gateway-receiver.rejected-extra-fields', EXTRA_FIELDS(o));
  },
});

/** Partner: as {@link acceptGatewayExtraFields}, for the partner event body. */
export const acceptPartnerExtraFields: Rule<DeliveryObservation> = defineRule({
  name: 'acceptPartnerExtraFields',
  requirements: ['PT-RCV-EXTRA-FIELDS'],
  codes: { 'partner-receiver.rejected-extra-fields': 'failure' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if (!is2xxStatus(o.status) && o.status !== 0) v.find('partner-receiver.rejected-extra-fields', EXTRA_FIELDS(o));
  },
});

const LARGE_BODY = (o: LargeDelivery) => ({
  title: `a correctly signed ${Math.round(o.bytes / 1024)} KiB event was not acknowledged (${o.label})`,
  expected: 'HTTP 2xx (no body size limit is stated)',
  actual: describeAnswer(o),
});

/** Gateway: a correctly signed, large event (the suite sends 256 KiB) is acknowledged; no size is stated, so a refusal is a warning. */
export const acceptGatewayLargeBodies: Rule<LargeDelivery> = defineRule({
  name: 'acceptGatewayLargeBodies',
  requirements: ['GW-RCV-BODY-SIZE'],
  codes: { 'gateway-receiver.rejected-large-body': 'warning' },
  judge(o: LargeDelivery, v) {
    v.shows(...exchangesOf(o));
    if (!is2xxStatus(o.status)) v.find('gateway-receiver.rejected-large-body', LARGE_BODY(o));
  },
});

/** Partner: as {@link acceptGatewayLargeBodies}. */
export const acceptPartnerLargeBodies: Rule<LargeDelivery> = defineRule({
  name: 'acceptPartnerLargeBodies',
  requirements: ['PT-RCV-BODY-SIZE'],
  codes: { 'partner-receiver.rejected-large-body': 'warning' },
  judge(o: LargeDelivery, v) {
    v.shows(...exchangesOf(o));
    if (!is2xxStatus(o.status)) v.find('partner-receiver.rejected-large-body', LARGE_BODY(o));
  },
});
