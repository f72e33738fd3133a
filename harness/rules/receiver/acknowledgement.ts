/**
 * "The receiver answers HTTP 2xx quickly and processes asynchronously." (gateway-api.md, Payload
 * shapes); "The receiver answers 2xx quickly and processes asynchronously." and "10 s timeout per
 * call" (partner-cashin-api.md, Events). One rule per document: a rule stated for one API does not
 * carry over to the other.
 */
import { defineRule } from '../rule.js';
import type { Rule } from '../rule.js';
import type { RequirementId, Severity } from '../finding.js';
import type { DeliveryObservation } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus, timedOut } from './observation.js';

/** The suite's reading of "quickly": 2 s. The contract gives no number, so lateness is a warning. */
export const QUICK_BOUND_MS = 2_000;
/** partner "10 s timeout per call": an answer later than this is a failed delivery. */
export const PARTNER_CALL_TIMEOUT_MS = 10_000;

/**
 * One document's "answers 2xx": any other status or a refused connection is `code` (a failure); a
 * delivery cut off by the suite's own patience too, unless `patienceIsNoRefusal` (the document
 * states no delivery timeout: lateness is then the "quickly" rule's).
 */
function acknowledge<C extends string>(name: string, requirement: RequirementId, code: C, patienceIsNoRefusal: boolean): Rule<DeliveryObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: 'failure' } as { [K in C]: Severity },
    judge(o: DeliveryObservation, v) {
      v.shows(...exchangesOf(o));
      if (is2xxStatus(o.status) || (patienceIsNoRefusal && timedOut(o))) return;
      v.find(code, { title: `a valid, correctly signed event was not acknowledged with 2xx (${o.label})`, expected: 'HTTP 2xx ("The receiver answers 2xx quickly and processes asynchronously")', actual: describeAnswer(o) });
    },
  });
}

/**
 * One document's "answers … quickly": "quickly" is not a number, so an answer slower than
 * {@link QUICK_BOUND_MS} (or none within the suite's patience) is `slow`, a warning. With a `timeout`
 * code (partner "10 s timeout per call"), an answer later than 10 s, or none within it, is a failed
 * delivery: a failure. A refused connection is not a matter of speed.
 */
function answerQuickly<S extends string, T extends string>(name: string, requirement: RequirementId, slow: S, timeout?: T): Rule<DeliveryObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [slow]: 'warning', ...(timeout !== undefined && { [timeout]: 'failure' }) } as { [K in S | T]: Severity },
    judge(o: DeliveryObservation, v) {
      v.shows(...exchangesOf(o));
      if (o.status === 0 && !timedOut(o)) return;
      if (!timedOut(o) && o.durationMs <= QUICK_BOUND_MS) return;
      if (timeout !== undefined && (timedOut(o) || o.durationMs > PARTNER_CALL_TIMEOUT_MS)) {
        v.find(timeout, { title: `the answer took longer than the platform's 10 s call timeout (${o.label})`, expected: 'an answer within 10 s ("10 s timeout per call"), quickly', actual: describeAnswer(o) });
        return;
      }
      v.find(slow, { title: `the answer took longer than ${QUICK_BOUND_MS} ms (${o.label})`, expected: `an answer within ${QUICK_BOUND_MS} ms (the suite's reading of "answers 2xx quickly")`, actual: describeAnswer(o) });
    },
  });
}

/**
 * Gateway: a valid, correctly signed event is answered 2xx. Failure for any other status or a
 * refused connection; a delivery cut off by the suite's own patience is left to
 * {@link answerGatewayEventsQuickly} (the gateway's delivery timeout is "not shown").
 */
export const acknowledgeGatewayEvents = acknowledge('acknowledgeGatewayEvents', 'GW-RCV-ACK-2XX', 'gateway-receiver.not-acknowledged', true);

/** Partner: a valid, correctly signed event is answered 2xx; any other status or no answer (within the 10 s call timeout) is a failure. */
export const acknowledgePartnerEvents = acknowledge('acknowledgePartnerEvents', 'PT-RCV-ACK-2XX', 'partner-receiver.not-acknowledged', false);

/** Gateway "answers HTTP 2xx quickly", delivery timeout "not shown": lateness, or no answer within the suite's patience, is a warning. */
export const answerGatewayEventsQuickly = answerQuickly('answerGatewayEventsQuickly', 'GW-RCV-ACK-QUICK', 'gateway-receiver.slow');

/** Partner "answers 2xx quickly", "10 s timeout per call": later than 2 s warns, later than 10 s (or no answer within it) fails. */
export const answerPartnerEventsQuickly = answerQuickly('answerPartnerEventsQuickly', 'PT-RCV-ACK-QUICK', 'partner-receiver.slow', 'partner-receiver.timeout');
