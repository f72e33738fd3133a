/**
 * "The receiver answers HTTP 2xx quickly and processes asynchronously." (gateway-api.md, Payload
 * shapes); "The receiver answers 2xx quickly and processes asynchronously." and "10 s timeout per
 * call" (partner-cashin-api.md, Events). One rule per document: a rule stated for one API does not
 * carry over to the other.
 */
import { defineRule } from '../rule.js';
import type { DeliveryObservation } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus, timedOut } from './observation.js';

/** The suite's reading of "quickly": 2 s. The contract gives no number, so lateness is a warning. */
export const QUICK_BOUND_MS = 2_000;
/** partner "10 s timeout per call": an answer later than this is a failed delivery. */
export const PARTNER_CALL_TIMEOUT_MS = 10_000;

const NOT_ACKNOWLEDGED = (o: DeliveryObservation) => ({
  title: `a valid, correctly signed event was not acknowledged with 2xx (${o.label})`,
  expected: 'HTTP 2xx ("The receiver answers 2xx quickly and processes asynchronously")',
  actual: describeAnswer(o),
});

/**
 * Gateway: a valid, correctly signed event is answered 2xx. Failure for any other status or a
 * refused connection; a delivery cut off by the suite's own patience is left to
 * {@link answerGatewayEventsQuickly} (the gateway's delivery timeout is "not shown").
 */
export const acknowledgeGatewayEvents = defineRule({
  name: 'acknowledgeGatewayEvents',
  requirements: ['GW-RCV-ACK-2XX'],
  codes: { 'gateway-receiver.not-acknowledged': 'failure' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if (is2xxStatus(o.status) || timedOut(o)) return;
    v.find('gateway-receiver.not-acknowledged', NOT_ACKNOWLEDGED(o));
  },
});

/** Partner: a valid, correctly signed event is answered 2xx; any other status or no answer (within the 10 s call timeout) is a failure. */
export const acknowledgePartnerEvents = defineRule({
  name: 'acknowledgePartnerEvents',
  requirements: ['PT-RCV-ACK-2XX'],
  codes: { 'partner-receiver.not-acknowledged': 'failure' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if (is2xxStatus(o.status)) return;
    v.find('partner-receiver.not-acknowledged', NOT_ACKNOWLEDGED(o));
  },
});

function late(o: DeliveryObservation): boolean {
  return timedOut(o) || o.durationMs > QUICK_BOUND_MS;
}

/**
 * Gateway "answers HTTP 2xx quickly": "quickly" is not a number and the delivery timeout is "not
 * shown", so an answer slower than {@link QUICK_BOUND_MS}, or none within the suite's patience, is
 * a warning. A refused connection is not a matter of speed.
 */
export const answerGatewayEventsQuickly = defineRule({
  name: 'answerGatewayEventsQuickly',
  requirements: ['GW-RCV-ACK-QUICK'],
  codes: { 'gateway-receiver.slow': 'warning' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if ((o.status === 0 && !timedOut(o)) || !late(o)) return;
    v.find('gateway-receiver.slow', { title: `the answer took longer than ${QUICK_BOUND_MS} ms (${o.label})`, expected: `an answer within ${QUICK_BOUND_MS} ms (the suite's reading of "answers 2xx quickly")`, actual: describeAnswer(o) });
  },
});

/**
 * Partner "answers 2xx quickly", "10 s timeout per call": slower than {@link QUICK_BOUND_MS} is a
 * warning ("quickly" is not a number); later than 10 s, or no answer within it, is a failed
 * delivery: a failure. A refused connection is not a matter of speed.
 */
export const answerPartnerEventsQuickly = defineRule({
  name: 'answerPartnerEventsQuickly',
  requirements: ['PT-RCV-ACK-QUICK'],
  codes: { 'partner-receiver.slow': 'warning', 'partner-receiver.timeout': 'failure' },
  judge(o: DeliveryObservation, v) {
    v.shows(...exchangesOf(o));
    if ((o.status === 0 && !timedOut(o)) || !late(o)) return;
    if (timedOut(o) || o.durationMs > PARTNER_CALL_TIMEOUT_MS) {
      v.find('partner-receiver.timeout', { title: `the answer took longer than the platform's 10 s call timeout (${o.label})`, expected: 'an answer within 10 s ("10 s timeout per call"), quickly', actual: describeAnswer(o) });
      return;
    }
    v.find('partner-receiver.slow', { title: `the answer took longer than ${QUICK_BOUND_MS} ms (${o.label})`, expected: `an answer within ${QUICK_BOUND_MS} ms (the suite's reading of "answers 2xx quickly")`, actual: describeAnswer(o) });
  },
});
