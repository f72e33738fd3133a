/**
 * Partner webhooks (partner-cashin-api.md): "Every state change sends a signed POST to that URL"
 * (business.pix.created / paid / canceled); "Webhook event body": `id` (string), `type`, `created_at`
 * (ISO 8601), `data{amount_cents, e2e_id, external_ref}`; "Authentication" 4: `X-Service-Signature`
 * `t=<epoch>,v1=<hmac>`, hex HMAC-SHA256 over `<timestamp>.<raw request body>`, "A timestamp
 * tolerance of 300 seconds is the default in the reference verification"; "Redelivery: up to 8
 * attempts per event, exponential backoff doubling per attempt with a cap of 5 minutes, 10 s timeout
 * per call"; "The same event id can arrive more than once".
 */
import type { Judgement } from '../finding.js';
import type { Delivery } from '../../webhooks/types.js';
import { PARTNER_SIGNATURE_HEADER, PARTNER_TOLERANCE_SECONDS, verifyPartnerSignature } from '../../webhooks/signatures.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { verifyIsoTimestamp } from '../time.js';
import { isRecord } from '../../core/json.js';
import type { Exchange } from '../../core/exchange.js';

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

export interface ExpectedEvent {
  type: string;
  amount: number;
  /** the external_ref sent at creation (undefined: none sent, nothing to compare) */
  externalRef?: string;
  /** the paid charge's e2e_id, when the lookup showed one */
  e2eId?: unknown;
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

/**
 * One of our events: `{id, type, created_at, data{amount_cents, e2e_id, external_ref}}` with the
 * expected type, the charge amount, the external_ref unchanged ("returned unchanged … in webhooks"),
 * an ISO 8601 created_at (any ISO 8601 form), and for business.pix.paid the payment's e2e_id (a paid
 * event without one fails: PT-CHARGE-E2E-WHEN-PAID; created and canceled may omit it).
 */
export function verifyPartnerEvent(d: PartnerDelivery, expected: ExpectedEvent): Judgement {
  const event = eventOf(d);
  const where = `delivery #${d.seq}`;
  const ctx = (requirements: RuleContext['requirements']): RuleContext => ({ requirements });
  const shape = ctx(['PT-WH-BODY-SHAPE']);
  if (!event || !isRecord(event.data)) {
    return judge(shape, makeFinding(shape, { code: 'webhook.payload', title: 'the webhook body is not {id, type, created_at, data{…}}', severity: 'failure', expected: '{id, type, created_at, data{amount_cents, e2e_id, external_ref}}', actual: `${show(d.bodyText, 300)} (${where})` }));
  }
  const parts: Judgement[] = [];
  const shapeFindings = [];
  if (typeof event.id !== 'string' || event.id === '') shapeFindings.push(makeFinding(shape, { code: 'webhook.payload', title: 'the webhook has no string id', severity: 'failure', expected: 'id: non-empty string', actual: `id ${show(event.id)} (${where})` }));
  if (event.data.amount_cents !== expected.amount) shapeFindings.push(makeFinding(shape, { code: 'webhook.payload', title: 'the event amount differs from the charge', severity: 'failure', expected: `data.amount_cents ${expected.amount}`, actual: `data.amount_cents ${show(event.data.amount_cents)} (${where})` }));
  parts.push(judge(shape, shapeFindings));
  parts.push(verifyIsoTimestamp(event.created_at, { requirements: ['PT-WH-BODY-SHAPE'], subject: 'event created_at', pointer: '/created_at' }));
  const types = ctx(['PT-WH-EVENT-TYPES']);
  parts.push(judge(types, event.type === expected.type ? undefined : makeFinding(types, { code: 'webhook.events', title: `the event type is not ${expected.type}`, severity: 'failure', expected: `type "${expected.type}"`, actual: `type ${show(event.type)} (${where})` })));
  if (expected.externalRef !== undefined) {
    const ref = ctx(['PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-DATA-FIELDS']);
    parts.push(judge(ref, event.data.external_ref === expected.externalRef ? undefined : makeFinding(ref, { code: 'charge.external-ref-changed', title: 'the event external_ref is not the one sent, unchanged', severity: 'failure', expected: `data.external_ref ${show(expected.externalRef)}`, actual: `data.external_ref ${show(event.data.external_ref)} (${where})` })));
  }
  if (expected.type === 'business.pix.paid') {
    const e2e = event.data.e2e_id;
    const paid = ctx(['PT-WH-DATA-FIELDS', 'PT-CHARGE-E2E-WHEN-PAID']);
    if (typeof e2e !== 'string' || e2e === '') {
      parts.push(judge(paid, makeFinding(paid, { code: 'charge.e2e-missing', title: 'the paid event carries no e2e_id', severity: 'failure', expected: 'data.e2e_id: the end-to-end id of the payment', actual: `data.e2e_id ${show(e2e)} (${where})` })));
    } else {
      const same = ctx(['PT-WH-DATA-FIELDS', 'PT-CHARGE-FIELD-E2E']);
      parts.push(judge(same, typeof expected.e2eId !== 'string' || expected.e2eId === e2e ? undefined : makeFinding(same, { code: 'webhook.payload', title: 'the paid event e2e_id differs from the charge e2e_id', severity: 'failure', expected: `data.e2e_id ${show(expected.e2eId)}`, actual: `data.e2e_id ${show(e2e)} (${where})` })));
    }
  }
  return combine(...parts);
}

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

export interface SignatureOptions {
  /** a redelivery: a t outside the tolerance decides PT-WH-REDELIVERY-FRESH-T (whether it is re-signed is not stated) */
  redelivery?: boolean;
  /** the service's clock minus ours (see {@link serviceClockOffsetMs}); removes clock skew from the tolerance judgement */
  clockOffsetMs?: number;
  /**
   * a redelivery's tolerance in ms when the target's redelivery timers are compressed
   * (redeliveryToleranceMs, harness/webhooks/redelivery-timers.ts); used only with `clockOffsetMs`;
   * default the contract's 300 s
   */
  redeliveryToleranceMs?: number;
}

/**
 * The signature of one delivery, verified once. Failures: no or unparseable header, v1 not 64 hex
 * digits, an HMAC that does not match over `<t>.<raw body>` (a match only over re-serialised JSON
 * fails: "The raw body, not a re-serialized JSON, must be used"). Open or ambiguous parts:
 * - a parseable header that is not exactly `t=<epoch>,v1=<hmac>`: a warning (PT-WH-SIGNATURE-HEADER);
 * - `t` in milliseconds: the unit is not stated (PT-WH-TIMESTAMP-EPOCH, ambiguous: a warning); the
 *   tolerance is then judged on t / 1000;
 * - `t` more than 300 s from arrival: with the service's clock known (`clockOffsetMs`) skew is no
 *   excuse and a first delivery fails (PT-WH-TOLERANCE with PT-WH-SIGNATURE: the reference
 *   verification would reject it); without it, a warning (PT-WH-TOLERANCE ambiguity); on a
 *   redelivery, PT-WH-REDELIVERY-FRESH-T (ambiguous: a warning).
 */
export function verifyPartnerDeliverySignature(d: PartnerDelivery, secret: string, options: SignatureOptions = {}): Judgement {
  const result = verifyPartnerSignature({ header: d.headers[PARTNER_SIGNATURE_HEADER], rawBody: d.rawBody, secret, receivedAt: d.receivedAt, toleranceSeconds: Number.MAX_SAFE_INTEGER });
  const where = `delivery #${d.seq}`;
  const hmac = { requirements: ['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER'] as const };
  const expected = 'X-Service-Signature: t=<epoch>,v1=<hex HMAC-SHA256(endpoint secret, "<t>.<raw request body>")>';
  const parts: Judgement[] = [];
  if (!result.ok) {
    parts.push(judge(hmac, makeFinding(hmac, { code: result.code ?? 'signature.mismatch', title: 'the partner webhook signature does not verify as documented', severity: 'failure', expected, actual: `${result.detail} (${where})` })));
    return combine(...parts);
  }
  const { grammar, v1, timestamp } = result.format;
  const header = { requirements: ['PT-WH-SIGNATURE-HEADER'] as const };
  const headerIssue = !v1.ok ? v1 : !grammar.ok ? grammar : undefined;
  parts.push(judge(hmac), judge(header, headerIssue ? makeFinding(header, { code: headerIssue.code ?? 'signature.format', title: 'the partner signature header is not exactly t=<epoch>,v1=<hmac>', severity: headerIssue.severity ?? 'failure', expected, actual: `${headerIssue.detail} (${where})` }) : undefined));
  const epoch = { requirements: ['PT-WH-TIMESTAMP-EPOCH'] as const };
  const ms = timestamp.code === 'signature.timestamp-ms';
  parts.push(judge(epoch, !timestamp.ok ? makeFinding(epoch, { code: timestamp.code ?? 'signature.timestamp-format', title: ms ? 'the signature t is in milliseconds' : 'the signature t is not an integer epoch', severity: ms ? 'warning' : 'failure', expected: 't=<Unix epoch in seconds> (the 300 s tolerance implies seconds)', actual: `${timestamp.detail} (${where})` }) : undefined));
  if (result.timestamp === undefined) return combine(...parts);
  const tMs = ms ? result.timestamp : result.timestamp * 1000;
  const offset = options.clockOffsetMs;
  const arrivalServiceClock = d.receivedAt + (offset ?? 0);
  const skewS = Math.round((arrivalServiceClock - tMs) / 1000);
  const tolerance = options.redelivery
    ? { requirements: ['PT-WH-REDELIVERY-FRESH-T'] as const }
    : offset !== undefined
      ? { requirements: ['PT-WH-TOLERANCE', 'PT-WH-SIGNATURE'] as const }
      : { requirements: ['PT-WH-TOLERANCE'] as const };
  // a compressed tolerance is a few seconds: only with the service's clock known, else the unknown
  // skew between its clock and ours would decide it (the contract's 300 s then applies)
  const compressedMs = options.redelivery && offset !== undefined ? options.redeliveryToleranceMs : undefined;
  const outside = compressedMs !== undefined ? Math.abs(arrivalServiceClock - tMs) > compressedMs : Math.abs(skewS) > PARTNER_TOLERANCE_SECONDS;
  const toleranceText = compressedMs !== undefined ? `${compressedMs} ms (the ${PARTNER_TOLERANCE_SECONDS} s tolerance compressed with the redelivery timers)` : `${PARTNER_TOLERANCE_SECONDS} s`;
  parts.push(judge(tolerance, outside ? makeFinding(tolerance, {
    code: 'signature.timestamp-outside-tolerance',
    title: `the webhook signature timestamp is outside the ${PARTNER_TOLERANCE_SECONDS} s tolerance${options.redelivery ? ' (a redelivery)' : ''}`,
    severity: 'failure',
    expected: `t within ${toleranceText} of arrival${offset !== undefined ? ' (measured on the service\'s own clock)' : ''}`,
    actual: `t is ${compressedMs !== undefined ? `${Math.abs(Math.round(arrivalServiceClock - tMs))} ms` : `${Math.abs(skewS)} s`} ${skewS >= 0 ? 'before' : 'after'} arrival${offset !== undefined ? ` (service clock offset ${Math.round(offset / 1000)} s removed)` : ''} (${where})`,
  }) : undefined));
  return combine(...parts);
}

/**
 * "Every state change sends a signed POST": an event that did not arrive within OUR wait is not a
 * broken timer ("Retry schedule and delivery timeout: not shown"): without other evidence it is a
 * warning (inconclusive). It fails when `laterEvent` shows that the service delivered an event
 * triggered AFTER this one to the same receiver while this one still had not arrived after the wait.
 */
export function judgeEventArrival(d: PartnerDelivery | undefined, ctx: RuleContext & { type: string; ref: string; waitedMs: number; laterEvent?: string | undefined }): Judgement {
  if (d) return judge(ctx);
  const evidence = ctx.laterEvent !== undefined;
  return judge(ctx, makeFinding(ctx, {
    code: evidence ? 'webhook.missing' : 'webhook.not-delivered',
    title: evidence ? `no ${ctx.type} event arrived, though a later event did` : `no ${ctx.type} event arrived within our wait`,
    severity: evidence ? 'failure' : 'warning',
    expected: `a signed POST of ${ctx.type} with external_ref ${JSON.stringify(ctx.ref)} at /partner`,
    actual: evidence ? `${ctx.laterEvent} arrived; ${ctx.type} still absent ${ctx.waitedMs / 1000} s later` : `nothing within ${ctx.waitedMs / 1000} s (our patience; the contract states no delivery time)`,
  }));
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

/**
 * Redelivery of an event every attempt of which failed: retried (never retried is a failure, fewer
 * than 8 attempts only warns: "up to 8" does not promise all are used), at most 8 attempts, the same
 * event id on each, gaps doubling up to the cap (the median of gap ÷ min(2 × previous gap, cap)
 * within 0.75–1.4: the first gap and jitter are not shown), no gap over the cap (plus slack).
 */
export function judgeRedeliveries(o: RedeliveryObservation): Judgement {
  const n = o.attempts.length;
  const parts: Judgement[] = [];
  const retries = { requirements: ['PT-WH-REDELIVERY-RETRIES'] as const };
  parts.push(judge(retries, o.concludedMissing ? makeFinding(retries, {
    code: 'webhook.no-redelivery',
    title: n === 1 ? 'a failed delivery was never retried' : `a failing event was attempted only ${n} times`,
    severity: n === 1 ? 'failure' : 'warning',
    expected: `redelivery while the receiver answers 500, up to ${MAX_ATTEMPTS} attempts, gaps at most the ${o.capMs / 1000} s cap`,
    actual: `${n} attempt(s), none for ${o.longestGapMs / 1000} s after the last`,
  }) : undefined));
  const attempts = { requirements: ['PT-WH-REDELIVERY-ATTEMPTS'] as const };
  parts.push(judge(attempts, n > MAX_ATTEMPTS ? makeFinding(attempts, { code: 'webhook.too-many-attempts', title: 'a failing event was attempted more than 8 times', severity: 'failure', expected: `at most ${MAX_ATTEMPTS} attempts`, actual: `${n} attempts` }) : undefined));
  if (n >= 2) parts.push(ensureSameEventId(o.attempts, { requirements: ['PT-WH-EVENT-ID-STABLE'] }));
  const times = o.attempts.map((d) => d.receivedAt);
  const gaps = times.slice(1).map((at, i) => at - times[i]!);
  // each gap against what doubling predicts from the one before, the cap included: min(2 × previous, cap)
  const ratios: number[] = [];
  for (let i = 1; i < gaps.length; i++) if (gaps[i - 1]! > 0 && gaps[i - 1]! < o.capMs * 0.9) ratios.push(gaps[i]! / Math.min(2 * gaps[i - 1]!, o.capMs));
  if (ratios.length >= 2) {
    const m = median(ratios);
    const backoff = { requirements: ['PT-WH-BACKOFF'] as const };
    parts.push(judge(backoff, m < 0.75 || m > 1.4 ? makeFinding(backoff, { code: 'webhook.backoff', title: 'redelivery gaps do not double', severity: 'failure', expected: 'each gap about twice the previous one, up to the cap (median of gap ÷ min(2 × previous, cap) within 0.75–1.4)', actual: `gaps ${gaps.join(', ')} ms, median ${m.toFixed(2)}` }) : undefined));
  }
  if (gaps.length > 0) {
    const longest = Math.max(...gaps);
    const cap = { requirements: ['PT-WH-BACKOFF-CAP'] as const };
    parts.push(judge(cap, longest > o.capMs + o.slackMs ? makeFinding(cap, { code: 'webhook.backoff-cap', title: `a redelivery gap exceeds the ${o.compressed ? 'configured' : '5-minute'} cap`, severity: 'failure', expected: `gaps of at most ${o.capMs} ms${o.compressed ? ' (PAYGATE_PARTNER_RETRY_CAP_MS; the contract says 5 minutes)' : ''}, ${o.slackMs} ms tolerance`, actual: `${longest} ms (gaps ${gaps.join(', ')} ms)` }) : undefined));
  }
  return combine(...parts);
}

/** "The same event id can arrive more than once": every attempt of one event carries one id. */
export function ensureSameEventId(attempts: ReadonlyArray<Pick<Delivery, 'json'>>, ctx: RuleContext): Judgement {
  const ids = [...new Set(attempts.map((d) => eventOf(d)?.id))];
  if (ids.length <= 1) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'webhook.redelivery-new-id', title: 'redeliveries of one event carry different event ids', severity: 'failure', expected: 'the same event id on every attempt ("The same event id can arrive more than once")', actual: `ids ${show(ids)}` }));
}

/**
 * "10 s timeout per call": a delivery answered only after the timeout counts as failed and is
 * redelivered. How a late 200 is treated is not spelled out beyond the timeout: a missing
 * redelivery is a warning; a redelivery under another event id fails.
 */
export function judgeTimedOutDelivery(found: ReadonlyArray<Pick<Delivery, 'receivedAt' | 'json'>>, ctx: { answeredAfterMs: number; timeoutMs: number }): Judgement {
  const timeout = { requirements: ['PT-WH-TIMEOUT'] as const };
  if (found.length < 2) {
    return judge(timeout, makeFinding(timeout, { code: 'webhook.no-timeout', title: `a delivery answered after ${ctx.answeredAfterMs / 1000} s was not retried`, severity: 'warning', expected: `the call aborted after ${ctx.timeoutMs / 1000} s and the event redelivered`, actual: `${found.length} delivery(ies)` }));
  }
  return combine(judge(timeout), ensureSameEventId(found.slice(0, 2), { requirements: ['PT-WH-EVENT-ID-STABLE'] }));
}
