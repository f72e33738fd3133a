/**
 * "The receiver answers HTTP 2xx quickly and processes asynchronously." (gateway-api.md, Payload
 * shapes); "The receiver answers 2xx quickly and processes asynchronously." and "10 s timeout per
 * call" (partner-cashin-api.md, Events).
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding } from '../judgement.js';
import type { DeliveryObservation, ReceiverScheme, SchemeIds } from './observation.js';
import { describeAnswer, exchangesOf, is2xxStatus, timedOut } from './observation.js';

const ACK: SchemeIds = { gateway: 'GW-RCV-ACK-2XX', partner: 'PT-RCV-ACK-2XX' };
const QUICK: SchemeIds = { gateway: 'GW-RCV-ACK-QUICK', partner: 'PT-RCV-ACK-QUICK' };

/** The suite's reading of "quickly": 2 s. The contract gives no number, so lateness is a warning. */
export const QUICK_BOUND_MS = 2_000;
/** partner "10 s timeout per call": an answer later than this is a failed delivery. */
export const PARTNER_CALL_TIMEOUT_MS = 10_000;

/**
 * A valid, correctly signed event is answered 2xx ("The receiver answers HTTP 2xx"). Failure for
 * any other status or no answer at all. A gateway delivery cut off by the suite's own patience is
 * left to {@link judgeAnsweredQuickly} (the gateway's delivery timeout is "not shown").
 */
export function ensureAcknowledged(o: DeliveryObservation, scheme: ReceiverScheme): Judgement {
  const ctx = { requirements: [ACK[scheme]], exchanges: exchangesOf(o) };
  if (is2xxStatus(o.status) || (scheme === 'gateway' && timedOut(o))) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.not-acknowledged',
      title: `a valid, correctly signed event was not acknowledged with 2xx (${o.label})`,
      severity: 'failure',
      expected: 'HTTP 2xx ("The receiver answers 2xx quickly and processes asynchronously")',
      actual: describeAnswer(o),
    }),
  );
}

/**
 * The answer comes quickly. "quickly" is not a number: slower than {@link QUICK_BOUND_MS} is a
 * warning. Partner only: "10 s timeout per call", so an answer later than 10 s (or none within it)
 * is a failed delivery: failure. Gateway: "Retry schedule and delivery timeout: not shown", so even
 * no answer within the suite's patience is only a warning.
 */
export function judgeAnsweredQuickly(o: DeliveryObservation, scheme: ReceiverScheme, boundMs: number = QUICK_BOUND_MS): Judgement {
  const ctx = { requirements: [QUICK[scheme]], exchanges: exchangesOf(o) };
  const late = timedOut(o) || o.durationMs > boundMs;
  if (o.status === 0 && !timedOut(o)) return judge(ctx); // refused connection: ensureAcknowledged's business
  if (!late) return judge(ctx);
  const overCall = scheme === 'partner' && (timedOut(o) || o.durationMs > PARTNER_CALL_TIMEOUT_MS);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: overCall ? 'receiver.timeout' : 'receiver.slow',
      title: overCall ? `the answer took longer than the platform's 10 s call timeout (${o.label})` : `the answer took longer than ${boundMs} ms (${o.label})`,
      severity: overCall ? 'failure' : 'warning',
      expected: overCall ? 'an answer within 10 s ("10 s timeout per call"), quickly' : `an answer within ${boundMs} ms (the suite's reading of "answers 2xx quickly")`,
      actual: describeAnswer(o),
    }),
  );
}
