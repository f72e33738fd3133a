/**
 * What the endpoint did with the events, as its read-back hook (RECEIVER_STATE_URL) reports it.
 *
 * - gateway-api.md, Payload shapes: "The same event id can arrive more than once; processing is
 *   idempotent by event id or `endToEndId`."; Events: "transaction_paid | PIX charge paid (this one
 *   credits the customer)".
 * - partner-cashin-api.md, Events: "The same event id can arrive more than once; crediting is
 *   idempotent by `external_ref` or `e2e_id`."; "business.pix.paid | payment confirmed; the one that
 *   credits the player wallet".
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { judge, makeFinding } from '../judgement.js';
import type { ReceiverScheme } from './observation.js';

export interface ProcessedObservation {
  /** what was delivered, e.g. `transaction_paid delivered 3 times` */
  label: string;
  /** how the deliveries relate: the same event id, or distinct ids with one end-to-end id */
  sameBy: 'event-id' | 'end-to-end-id';
  /** the event ids delivered */
  eventIds: readonly string[];
  /** times the endpoint says it applied their effect, summed over those ids */
  count: number;
  exchanges?: readonly Exchange[];
}

function idFor(scheme: ReceiverScheme, sameBy: ProcessedObservation['sameBy']): RequirementId {
  if (scheme === 'partner') return 'PT-RCV-IDEMPOTENT-CREDIT';
  return sameBy === 'event-id' ? 'GW-RCV-IDEMPOTENT-EVENT-ID' : 'GW-RCV-IDEMPOTENT-E2E';
}

/**
 * Duplicates are processed once. Failure when the same event id was processed more than once (both
 * schemes), and, partner, when distinct events with one `e2e_id` and `external_ref` were credited
 * more than once ("crediting is idempotent by external_ref or e2e_id"). Gateway, distinct ids with
 * one `endToEndId`: "idempotent by event id or endToEndId" lets the endpoint pick its key, so
 * processing both is a warning (the stricter reading).
 */
export function judgeProcessedOnce(o: ProcessedObservation, scheme: ReceiverScheme): Judgement {
  const id = idFor(scheme, o.sameBy);
  const ctx = { requirements: [id], exchanges: [...(o.exchanges ?? [])] };
  if (o.count <= 1) return judge(ctx);
  const firm = scheme === 'partner' || o.sameBy === 'event-id';
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.processed-twice',
      title: `the effect of one payment was applied ${o.count} times (${o.label})`,
      severity: firm ? 'failure' : 'warning',
      expected:
        scheme === 'partner'
          ? 'applied once: "crediting is idempotent by external_ref or e2e_id"'
          : o.sameBy === 'event-id'
            ? 'processed once: "processing is idempotent by event id or endToEndId"'
            : 'processed once (idempotent by endToEndId), or by event id only (allowed: a warning)',
      actual: `read-back reports count ${o.count} over event id(s) ${o.eventIds.join(', ')}`,
    }),
  );
}

export interface PaidProcessedObservation {
  label: string;
  eventId: string;
  /** the read-back's count for the paid event; undefined when it never listed it */
  count: number | undefined;
  /** how long the suite waited for it */
  waitedMs: number;
  exchanges?: readonly Exchange[];
}

/**
 * The paid event is the one that credits: an acknowledged paid event should show as processed.
 * Processing is asynchronous and order is not stated, so one not seen within the suite's patience
 * (or after an out-of-order delivery) is a warning.
 */
export function judgePaidProcessed(o: PaidProcessedObservation, scheme: ReceiverScheme): Judgement {
  const id: RequirementId = scheme === 'gateway' ? 'GW-RCV-PAID-PROCESSED' : 'PT-RCV-PAID-CREDITS';
  const ctx = { requirements: [id], exchanges: [...(o.exchanges ?? [])] };
  if (o.count !== undefined && o.count >= 1) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'receiver.not-processed',
      title: `an acknowledged paid event was not reported processed within ${Math.round(o.waitedMs / 1000)} s (${o.label})`,
      severity: 'warning',
      expected: `event ${o.eventId} in the read-back with count 1 ("${scheme === 'gateway' ? 'this one credits the customer' : 'the one that credits the player wallet'}")`,
      actual: o.count === undefined ? 'not listed' : `count ${o.count}`,
    }),
  );
}
