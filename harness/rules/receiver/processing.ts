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
import { defineRule } from '../rule.js';
import type { Rule } from '../rule.js';
import type { RequirementId, Severity } from '../finding.js';

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

const actual = (o: ProcessedObservation): string => `read-back reports count ${o.count} over event id(s) ${o.eventIds.join(', ')}`;

/**
 * Gateway: "processing is idempotent by event id or endToEndId". The same event id processed more
 * than once is a failure (GW-RCV-IDEMPOTENT-EVENT-ID). Distinct ids with one `endToEndId` processed
 * more than once is a warning (GW-RCV-IDEMPOTENT-E2E): "or" lets the endpoint pick its key, and
 * keying by event id alone is one reading.
 */
export const processGatewayEventsOnce = defineRule({
  name: 'processGatewayEventsOnce',
  requirements: ['GW-RCV-IDEMPOTENT-EVENT-ID', 'GW-RCV-IDEMPOTENT-E2E'],
  codes: { 'gateway-receiver.processed-twice': 'failure', 'gateway-receiver.processed-twice-by-e2e': 'warning' },
  judge(o: ProcessedObservation, v) {
    const byId = o.sameBy === 'event-id';
    v.decides(byId ? 'GW-RCV-IDEMPOTENT-EVENT-ID' : 'GW-RCV-IDEMPOTENT-E2E');
    v.shows(...(o.exchanges ?? []));
    if (o.count <= 1) return;
    v.find(byId ? 'gateway-receiver.processed-twice' : 'gateway-receiver.processed-twice-by-e2e', {
      title: `the effect of one payment was applied ${o.count} times (${o.label})`,
      expected: byId ? 'processed once: "processing is idempotent by event id or endToEndId"' : 'processed once (idempotent by endToEndId), or by event id only (allowed: a warning)',
      actual: actual(o),
    });
  },
});

/**
 * Partner: "crediting is idempotent by external_ref or e2e_id": the same event id, or distinct
 * events with one `e2e_id` and `external_ref`, credited more than once is a failure.
 */
export const creditPartnerPaymentsOnce = defineRule({
  name: 'creditPartnerPaymentsOnce',
  requirements: ['PT-RCV-IDEMPOTENT-CREDIT'],
  codes: { 'partner-receiver.credited-twice': 'failure' },
  judge(o: ProcessedObservation, v) {
    v.shows(...(o.exchanges ?? []));
    if (o.count <= 1) return;
    v.find('partner-receiver.credited-twice', { title: `the effect of one payment was applied ${o.count} times (${o.label})`, expected: 'applied once: "crediting is idempotent by external_ref or e2e_id"', actual: actual(o) });
  },
});

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
 * One document's "the paid event is the one that credits": an acknowledged paid event should show as
 * processed. Processing is asynchronous and order is not stated, so one not seen within the suite's
 * patience (or after an out-of-order delivery) is `code`, a warning.
 */
function processPaidEvents<C extends string>(name: string, requirement: RequirementId, code: C, quote: string): Rule<PaidProcessedObservation> {
  return defineRule({
    name,
    requirements: [requirement],
    codes: { [code]: 'warning' } as { [K in C]: Severity },
    judge(o: PaidProcessedObservation, v) {
      v.shows(...(o.exchanges ?? []));
      if (o.count !== undefined && o.count >= 1) return;
      v.find(code, {
        title: `an acknowledged paid event was not reported processed within ${Math.round(o.waitedMs / 1000)} s (${o.label})`,
        expected: `event ${o.eventId} in the read-back with count 1 ("${quote}")`,
        actual: o.count === undefined ? 'not listed' : `count ${o.count}`,
      });
    },
  });
}

/** Gateway "transaction_paid | PIX charge paid (this one credits the customer)". */
export const processGatewayPaidEvents = processPaidEvents('processGatewayPaidEvents', 'GW-RCV-PAID-PROCESSED', 'gateway-receiver.paid-not-processed', 'this one credits the customer');

/** Partner "business.pix.paid | payment confirmed; the one that credits the player wallet". */
export const creditPartnerPaidEvents = processPaidEvents('creditPartnerPaidEvents', 'PT-RCV-PAID-CREDITS', 'partner-receiver.paid-not-credited', 'the one that credits the player wallet');
