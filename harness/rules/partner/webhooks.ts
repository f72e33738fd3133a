/**
 * Partner webhooks (partner-cashin-api.md): "Every state change sends a signed POST to that URL"
 * (business.pix.created / paid / canceled); "Webhook event body": `id` (string), `type`, `created_at`
 * (ISO 8601), `data{amount_cents, e2e_id, external_ref}`; "Redelivery: up to 8
 * attempts per event, exponential backoff doubling per attempt with a cap of 5 minutes, 10 s timeout
 * per call"; "The same event id can arrive more than once". The signature ("Authentication" 4) is
 * judged by harness/rules/partner/signature.ts.
 */
import type { RequirementId } from '../finding.js';
import type { Delivery } from '../../webhooks/types.js';
import { parsesAsJson } from '../../webhooks/delivery-facts.js';
import { show } from '../judgement.js';
import { defineRule } from '../rule.js';
import { isRecord } from '../../core/json.js';
import type { Exchange } from '../../core/exchange.js';
import { timestampProblem } from '../time.js';
import { draftOf } from '../identifiers.js';

/** The parts of a delivery these rules read. */
export type PartnerDelivery = Pick<Delivery, 'seq' | 'headers' | 'rawBody' | 'bodyText' | 'receivedAt'> & { json?: unknown };

export interface PartnerEvent {
  id?: unknown;
  type?: unknown;
  created_at?: unknown;
  data?: Record<string, unknown>;
}

export function eventOf(d: Pick<Delivery, 'json'>): PartnerEvent | undefined {
  return isRecord(d.json) ? (d.json as PartnerEvent) : undefined;
}

/** A name reduced to its words: lower case, any separator a dot, British "cancelled" as "canceled". */
function eventWords(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '').replace(/\bcancelled\b/g, 'canceled');
}

/**
 * A spelling of the documented event name `expected` that is not it: another case or separator
 * (BUSINESS_PIX_CREATED), the `business.` prefix left out (pix.created), British "cancelled". Such an
 * event is the expected one mis-named: it is found and judged (PT-WH-EVENT-TYPES), never reported as
 * missing. Any other name (an extra event the contract does not list) is not a variant.
 */
export function isEventTypeVariant(actual: unknown, expected: string): boolean {
  if (typeof actual !== 'string' || actual === expected) return false;
  const a = eventWords(actual);
  const e = eventWords(expected);
  return a === e || (a !== '' && e.endsWith(`.${a}`) && a.includes('.'));
}

/** The documented events ("Event | Sent when") and the sentences their arrival shows. */
const EVENT_ROWS: Readonly<Record<string, readonly RequirementId[]>> = {
  'business.pix.created': ['PT-EVT-CREATED'],
  'business.pix.paid': ['PT-EVT-PAID', 'PT-CHARGE-PAY-WEBHOOK'],
  'business.pix.canceled': ['PT-EVT-CANCELED'],
};

/**
 * "Every state change sends a signed POST to that URL." with the Events table ("business.pix.created
 * | charge created", "business.pix.paid | payment confirmed", "business.pix.canceled | charge
 * canceled before payment") and the pay route's "same effect (capture plus webhook)":
 * - `arrival`: the event of a state change arrives. One that did not arrive within OUR wait is not a
 *   broken timer ("Retry schedule and delivery timeout: not shown"): without other evidence it only
 *   warns; it fails when `laterEvent` shows that the service delivered an event triggered AFTER it to
 *   the same receiver while it still had not arrived;
 * - `post`: a delivery is an HTTP POST with a JSON body.
 */
export const announceStateChanges = defineRule({
  name: 'announceStateChanges',
  requirements: ['PT-WH-STATE-CHANGE', 'PT-EVT-CREATED', 'PT-EVT-PAID', 'PT-EVT-CANCELED', 'PT-CHARGE-PAY-WEBHOOK'],
  codes: { 'webhook.missing': 'failure', 'webhook.not-delivered': 'warning', 'webhook.method': 'failure', 'webhook.body-not-json': 'failure' },
  judge(observation: { kind: 'arrival'; delivery: PartnerDelivery | undefined; type: string; ref: string; waitedMs: number; laterEvent?: string | undefined } | { kind: 'post'; delivery: Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody' | 'receivedAt'> & { json?: unknown } }, v) {
    if (observation.kind === 'post') {
      const d = observation.delivery;
      const where = `delivery #${d.seq}`;
      v.decides('PT-WH-STATE-CHANGE');
      if (d.method !== 'POST') v.find('webhook.method', { title: 'a partner webhook is not a POST', expected: 'an HTTP POST', actual: `method ${d.method} (${where})` });
      if (!parsesAsJson(d)) v.find('webhook.body-not-json', { title: 'a partner webhook body is not JSON', expected: 'a JSON body', actual: `body ${show(d.rawBody.toString('utf8'), 200)} (${where})` });
      return;
    }
    const { type } = observation;
    v.decides('PT-WH-STATE-CHANGE', ...(EVENT_ROWS[type] ?? []));
    if (observation.delivery) return;
    const evidence = observation.laterEvent !== undefined;
    v.find(evidence ? 'webhook.missing' : 'webhook.not-delivered', {
      title: evidence ? `no ${type} event arrived, though a later event did` : `no ${type} event arrived within our wait`,
      expected: `a signed POST of ${type} with external_ref ${JSON.stringify(observation.ref)} at /partner`,
      actual: evidence ? `${observation.laterEvent} arrived; ${type} still absent ${observation.waitedMs / 1000} s later` : `nothing within ${observation.waitedMs / 1000} s (our patience; the contract states no delivery time)`,
    });
  },
});

/** What one of our events should carry: the charge it is about, as the suite knows it. */
export interface ExpectedEvent {
  type: string;
  amount: number;
  /** the external_ref sent at creation (undefined: none sent, nothing to compare) */
  externalRef?: string;
  /** the paid charge's e2e_id, when the lookup showed one */
  e2eId?: unknown;
}

/**
 * "`type` (event name)" with the Events table: an event of a state change carries the documented
 * name of its event (another case or separator, a missing `business.` prefix, British "cancelled"
 * are the event mis-named, found and judged here). A body that is no event object is
 * shapeEventBodies'.
 */
export const nameEventsAsDocumented = defineRule({
  name: 'nameEventsAsDocumented',
  requirements: ['PT-WH-EVENT-TYPES'],
  codes: { 'webhook.event-type': 'failure' },
  judge(observation: { delivery: PartnerDelivery; type: string }, v) {
    const event = eventOf(observation.delivery);
    if (event === undefined) return v.nothingToJudge();
    if (event.type === observation.type) return;
    const type = event.type;
    v.find('webhook.event-type', { title: `the event type is not ${observation.type}`, expected: `type "${observation.type}"`, actual: `type ${show(type)} (delivery #${observation.delivery.seq})` });
  },
});

/**
 * "Webhook event body": `{id (string), type, created_at (ISO 8601), data{amount_cents, e2e_id,
 * external_ref}}`: a non-empty string id, an ISO 8601 created_at (any ISO 8601 form) and a data
 * object whose amount_cents is the charge's. How e2e_id (assigned at payment) and an external_ref the
 * caller never sent appear in created and canceled events is not stated (PT-WH-DATA-FIELDS is
 * ambiguous): absent, null or empty are all accepted here; the external_ref sent is
 * verifyExternalRefUnchanged's, a paid event's e2e_id carryE2eWhenPaid's (charges.ts).
 */
export const shapeEventBodies = defineRule({
  name: 'shapeEventBodies',
  requirements: ['PT-WH-BODY-SHAPE', 'PT-WH-DATA-FIELDS'],
  codes: { 'webhook.payload': 'failure', 'webhook.event-id': 'failure', 'webhook.amount': 'failure', 'webhook.created-at': 'failure', 'webhook.created-at-spaced': 'warning' },
  judge(observation: { delivery: PartnerDelivery; amount: number }, v) {
    const d = observation.delivery;
    const event = eventOf(d);
    const where = `delivery #${d.seq}`;
    if (!event || !isRecord(event.data)) {
      return v.find('webhook.payload', { title: 'the webhook body is not {id, type, created_at, data{…}}', expected: '{id, type, created_at, data{amount_cents, e2e_id, external_ref}}', actual: `${show(d.bodyText, 300)} (${where})` });
    }
    if (typeof event.id !== 'string' || event.id === '') v.find('webhook.event-id', { title: 'the webhook has no string id', expected: 'id: non-empty string', actual: `id ${show(event.id)} (${where})`, requirements: ['PT-WH-BODY-SHAPE'] });
    if (event.data.amount_cents !== observation.amount) v.find('webhook.amount', { title: 'the event amount differs from the charge', expected: `data.amount_cents ${observation.amount}`, actual: `data.amount_cents ${show(event.data.amount_cents)} (${where})` });
    // "created_at (ISO 8601)": any ISO 8601 form; a space for the `T` (RFC 3339's variant) only warns
    const stamp = timestampProblem(event.created_at, { subject: 'event created_at' });
    if (stamp) v.find(stamp.kind === 'space-separator' ? 'webhook.created-at-spaced' : 'webhook.created-at', { ...draftOf(stamp), pointer: '/created_at', requirements: ['PT-WH-BODY-SHAPE'] });
  },
});

/**
 * The service's clock minus ours, estimated from an answer that carries the service's own time for
 * the moment of the request (e.g. a charge's created_at in its creation answer). Undefined when the
 * timestamp does not parse. Accurate to the exchange's duration.
 */
export function serviceClockOffsetMs(exchange: Pick<Exchange, 'startedAt' | 'durationMs'>, serviceTime: unknown): number | undefined {
  if (typeof serviceTime !== 'string') return undefined;
  const service = Date.parse(serviceTime);
  const ours = Date.parse(exchange.startedAt) + exchange.durationMs / 2;
  return Number.isFinite(service) && Number.isFinite(ours) ? service - ours : undefined;
}


export interface RedeliveryObservation {
  attempts: ReadonlyArray<Pick<Delivery, 'receivedAt' | 'json'>>;
  /** no further attempt came within the longest gap a conforming service may leave */
  concludedMissing: boolean;
  /** the backoff cap in force (5 min, or the operator's compressed value) */
  capMs: number;
  slackMs: number;
  /** the longest a conforming service may leave between attempts */
  longestGapMs: number;
  compressed: boolean;
}

/** "up to 8 attempts per event" */
export const MAX_ATTEMPTS = 8;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function gapsOf(o: Pick<RedeliveryObservation, 'attempts'>): number[] {
  const times = o.attempts.map((d) => d.receivedAt);
  return times.slice(1).map((at, i) => at - times[i]!);
}

/**
 * "Redelivery: up to 8 attempts per event": an event every attempt of which failed is retried. Never
 * retried fails; fewer than 8 attempts only warns ("up to 8" does not promise all are used).
 */
export const retryFailedDeliveries = defineRule({
  name: 'retryFailedDeliveries',
  requirements: ['PT-WH-REDELIVERY-RETRIES'],
  codes: { 'webhook.never-retried': 'failure', 'webhook.few-attempts': 'warning' },
  judge(o: RedeliveryObservation, v) {
    if (!o.concludedMissing) return;
    const n = o.attempts.length;
    v.find(n === 1 ? 'webhook.never-retried' : 'webhook.few-attempts', {
      title: n === 1 ? 'a failed delivery was never retried' : `a failing event was attempted only ${n} times`,
      expected: `redelivery while the receiver answers 500, up to ${MAX_ATTEMPTS} attempts, gaps at most the ${o.capMs / 1000} s cap`,
      actual: `${n} attempt(s), none for ${o.longestGapMs / 1000} s after the last`,
    });
  },
});

/** "up to 8 attempts per event": never a 9th. */
export const capDeliveryAttempts = defineRule({
  name: 'capDeliveryAttempts',
  requirements: ['PT-WH-REDELIVERY-ATTEMPTS'],
  codes: { 'webhook.too-many-attempts': 'failure' },
  judge(o: RedeliveryObservation, v) {
    if (o.attempts.length <= MAX_ATTEMPTS) return;
    v.find('webhook.too-many-attempts', { title: 'a failing event was attempted more than 8 times', expected: `at most ${MAX_ATTEMPTS} attempts`, actual: `${o.attempts.length} attempts` });
  },
});

/**
 * "exponential backoff doubling per attempt": each gap against what doubling predicts from the one
 * before, the cap included (min(2 × previous, cap)); the median ratio within 0.75–1.4 (the first gap
 * and jitter are not shown). Judged from three gaps on.
 */
export const doubleRedeliveryGaps = defineRule({
  name: 'doubleRedeliveryGaps',
  requirements: ['PT-WH-BACKOFF'],
  codes: { 'webhook.backoff': 'failure' },
  judge(o: RedeliveryObservation, v) {
    const gaps = gapsOf(o);
    const ratios: number[] = [];
    for (let i = 1; i < gaps.length; i++) if (gaps[i - 1]! > 0 && gaps[i - 1]! < o.capMs * 0.9) ratios.push(gaps[i]! / Math.min(2 * gaps[i - 1]!, o.capMs));
    if (ratios.length < 2) return v.nothingToJudge();
    const m = median(ratios);
    if (m >= 0.75 && m <= 1.4) return;
    v.find('webhook.backoff', { title: 'redelivery gaps do not double', expected: 'each gap about twice the previous one, up to the cap (median of gap ÷ min(2 × previous, cap) within 0.75–1.4)', actual: `gaps ${gaps.join(', ')} ms, median ${m.toFixed(2)}` });
  },
});

/** "with a cap of 5 minutes" (or the operator's compressed cap): no gap over the cap plus slack. */
export const capRedeliveryGaps = defineRule({
  name: 'capRedeliveryGaps',
  requirements: ['PT-WH-BACKOFF-CAP'],
  codes: { 'webhook.backoff-cap': 'failure' },
  judge(o: RedeliveryObservation, v) {
    const gaps = gapsOf(o);
    if (gaps.length === 0) return v.nothingToJudge();
    const longest = Math.max(...gaps);
    if (longest <= o.capMs + o.slackMs) return;
    v.find('webhook.backoff-cap', { title: `a redelivery gap exceeds the ${o.compressed ? 'configured' : '5-minute'} cap`, expected: `gaps of at most ${o.capMs} ms${o.compressed ? ' (PAYGATE_PARTNER_RETRY_CAP_MS; the contract says 5 minutes)' : ''}, ${o.slackMs} ms tolerance`, actual: `${longest} ms (gaps ${gaps.join(', ')} ms)` });
  },
});

/** "The same event id can arrive more than once": every attempt of one event carries one id. */
export const keepEventIdAcrossAttempts = defineRule({
  name: 'keepEventIdAcrossAttempts',
  requirements: ['PT-WH-EVENT-ID-STABLE'],
  codes: { 'webhook.redelivery-new-id': 'failure' },
  judge(attempts: ReadonlyArray<Pick<Delivery, 'json'>>, v) {
    if (attempts.length < 2) return v.nothingToJudge();
    const ids = [...new Set(attempts.map((d) => eventOf(d)?.id))];
    if (ids.length <= 1) return;
    v.find('webhook.redelivery-new-id', { title: 'redeliveries of one event carry different event ids', expected: 'the same event id on every attempt ("The same event id can arrive more than once")', actual: `ids ${show(ids)}` });
  },
});

/**
 * The attempts of one event every attempt of which failed: retried, at most 8 attempts, one event id,
 * gaps doubling up to the cap.
 */
export const verifyRedeliveries = defineRule({
  name: 'verifyRedeliveries',
  requirements: [],
  codes: {},
  uses: [retryFailedDeliveries, capDeliveryAttempts, keepEventIdAcrossAttempts, doubleRedeliveryGaps, capRedeliveryGaps],
  judge(o: RedeliveryObservation, v) {
    v.apply(retryFailedDeliveries, o);
    v.apply(capDeliveryAttempts, o);
    v.apply(keepEventIdAcrossAttempts, o.attempts);
    v.apply(doubleRedeliveryGaps, o);
    v.apply(capRedeliveryGaps, o);
  },
});

/**
 * "10 s timeout per call": a delivery answered only after the timeout counts as failed and is
 * redelivered. How a late 200 is treated is not spelled out beyond the timeout: a missing
 * redelivery only warns.
 */
export const timeOutSlowDeliveries = defineRule({
  name: 'timeOutSlowDeliveries',
  requirements: ['PT-WH-TIMEOUT'],
  codes: { 'webhook.no-timeout': 'warning' },
  judge(o: { found: ReadonlyArray<Pick<Delivery, 'receivedAt' | 'json'>>; answeredAfterMs: number; timeoutMs: number }, v) {
    if (o.found.length >= 2) return;
    v.find('webhook.no-timeout', { title: `a delivery answered after ${o.answeredAfterMs / 1000} s was not retried`, expected: `the call aborted after ${o.timeoutMs / 1000} s and the event redelivered`, actual: `${o.found.length} delivery(ies)` });
  },
});
