/**
 * Gateway webhooks and events (gateway-api.md "Webhook" resource, "GET/POST /api/v1/webhook",
 * "DELETE /api/v1/webhook/{id}", "Events", "Callback headers", "Payload shapes").
 *
 * Every rule here is pure: it judges a recorded delivery (harness/webhooks/types.ts) or an answer of
 * a webhook route. The suites register webhooks, trigger events, wait for deliveries and hand what
 * arrived to these rules.
 */
import type { Delivery } from '../../webhooks/types.js';
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { kindOf, show } from '../judgement.js';
import { endToEndIdProblem, identifyEventsByUuid } from '../identifiers.js';
import { integerCentsProblem } from '../money.js';
import { writeIsoTimestamps } from '../time.js';
import { judgeStatus } from '../status.js';
import { defineRule, type Verdict } from '../rule.js';
import { statusAgainstLookup } from '../echo.js';
import { dataOf, is2xx, isRecord } from '../../core/json.js';
import { refuseInvalidRequestBody, type Answer } from './errors.js';

/** The parts of a delivery these rules read. */
export type GatewayDelivery = Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody' | 'receivedAt' | 'bodyText'> & { json?: unknown };

export type ResourceKind = 'transaction' | 'transfer';
export type GatewayEvent = 'transaction_created' | 'transaction_paid' | 'transfer_created' | 'transfer_completed';

function where(d: Pick<GatewayDelivery, 'seq' | 'path'>): string {
  return `delivery #${d.seq} to ${d.path}`;
}

// The callback signature is judged by harness/rules/gateway/signature.ts (signGatewayCallbacks), the
// callback headers and the POST with a JSON body by harness/rules/gateway/callbacks.ts.

// ── payload shapes ───────────────────────────────────────────────────────────────────────────────

export interface ExpectedEvent {
  kind: ResourceKind;
  event: GatewayEvent;
  /** the resource id */
  id: string;
  /** the amount the resource was created with (cents) */
  amount: number;
  /**
   * every amount of the resource the suite has read (gross and net of `fees`, from the creation
   * answer or a lookup): with them the event's amount is decided: one of them, or a failure
   */
  amounts?: readonly number[];
  /** the resource as a lookup made after the event showed it: the event's status and endToEndId are judged against it */
  lookup?: { status: unknown; endToEndId?: unknown };
}

/**
 * The documented paths of each resource's states, each state with those that may follow it: a PIX
 * charge is created pending, paid by /pay, and may be refunded; a transfer is created pending or
 * banking_processing and ends completed or refused. An event's status earlier on the path than a
 * later lookup's is fair (the resource moved on); a later one or one off the path is not.
 */
export const STATE_PATHS: Record<ResourceKind, Readonly<Record<string, readonly string[]>>> = {
  transaction: { pending: ['paid', 'refused'], paid: ['refunded'], refused: [], refunded: [] },
  transfer: { pending: ['banking_processing', 'completed', 'refused'], banking_processing: ['completed', 'refused'], completed: [], refused: [] },
};

const PAYLOAD_REQ: Record<ResourceKind, 'GW-EVT-TXN-PAYLOAD' | 'GW-EVT-TRANSFER-PAYLOAD'> = { transaction: 'GW-EVT-TXN-PAYLOAD', transfer: 'GW-EVT-TRANSFER-PAYLOAD' };

/**
 * "Payload shapes": "Transaction events: `id` (string UUID), `type` (`transaction`), `event`, `scope`
 * (`user`), `transaction{id, amount (integer cents), status, pix{endToEndId, payerInfo{name,
 * document}}}`"; "Transfer events: same envelope with `type` `transfer` and `transfer{id, amount,
 * status, pix{endToEndId, creditorAccount{name, document}}}`"; "Event payload status for a completed
 * transfer is `paid`"; the Events table: transaction_paid is sent when the charge is paid.
 * Latitude: pix/endToEndId/payer before payment or completion are not shown (absent or null accepted
 * on *_created); the `event` value is not spelled out (a different value warns); whether the event
 * amount is gross or net is not said (another integer warns); a sandbox may not know the simulated
 * party's name/document (a non-string inside payerInfo/creditorAccount warns).
 * Against the resource (when the caller read it): an amount that is none of the resource's own amounts
 * (gross or net of fees), a status the resource never had before a later lookup (the transfer's `paid`
 * read as `completed`; a status the path does not list is open), or another endToEndId than the
 * lookup's, fail: the event's `transaction{…}`/`transfer{…}` states that resource's attributes.
 */
export const shapeEventPayloads = defineRule({
  name: 'shapeEventPayloads',
  requirements: ['GW-EVT-TXN-PAYLOAD', 'GW-EVT-TRANSFER-PAYLOAD', 'GW-EVT-SCOPE-USER', 'GW-EVT-EVENT-NAME', 'GW-EVT-TRANSFER-COMPLETED-PAID'],
  codes: { 'event.payload': 'failure', 'event.payload-doubtful': 'warning', 'event.scope': 'failure', 'event.name': 'warning', 'event.transfer-completed-status': 'failure', 'event.resource-mismatch': 'failure' },
  uses: [identifyEventsByUuid],
  judge(o: { delivery: GatewayDelivery; expected: ExpectedEvent }, v) {
    const { delivery: d, expected } = o;
    const req = PAYLOAD_REQ[expected.kind];
    v.decides(req, 'GW-EVT-SCOPE-USER', 'GW-EVT-EVENT-NAME', ...(expected.event === 'transfer_completed' ? (['GW-EVT-TRANSFER-COMPLETED-PAID'] as const) : []));
    const label = `${expected.event}, ${where(d)}`;
    const bad = (title: string, expectedText: string, actual: string, doubtful = false): void => {
      v.find(doubtful ? 'event.payload-doubtful' : 'event.payload', { requirements: [req], title: `${title} (${expected.event})`, expected: expectedText, actual: `${actual} (${where(d)})` });
    };
    const json = d.json;
    if (!isRecord(json)) return bad('event body is not a JSON object', 'a JSON object', show(d.bodyText));
    v.apply(identifyEventsByUuid, { value: json.id, subject: `event id (${label})` });
    if (json.type !== expected.kind) bad('event type is wrong', `type = "${expected.kind}"`, `type = ${show(json.type)}`);
    if (json.event !== expected.event) v.find('event.name', { requirements: ['GW-EVT-EVENT-NAME'], title: `event field does not name the delivered event (${expected.event})`, expected: `event = "${expected.event}"`, actual: `event = ${show(json.event)} (${where(d)})` });
    if (json.scope !== 'user') v.find('event.scope', { requirements: ['GW-EVT-SCOPE-USER'], title: `event scope is not "user" (${expected.event})`, expected: 'scope = "user"', actual: `scope = ${show(json.scope)} (${where(d)})` });
    const inner = json[expected.kind];
    if (!isRecord(inner)) return bad(`event has no ${expected.kind} object`, `${expected.kind}{id, amount, status, pix{…}}`, `${expected.kind} = ${kindOf(inner)} ${show(inner)}`);
    // "amount (integer cents)": a JSON integer (rules/money.ts)
    const cents = integerCentsProblem(inner.amount, { subject: `${expected.kind}.amount` });
    if (cents) bad(cents.title, cents.expected, cents.actual);
    else if (expected.amounts !== undefined && expected.amounts.length > 0 && !expected.amounts.includes(inner.amount as number)) {
      v.find('event.resource-mismatch', { requirements: [req], title: `${expected.kind}.amount is none of the ${expected.kind}'s amounts (${expected.event})`, expected: `amount ∈ {${[...new Set(expected.amounts)].join(', ')}} (the ${expected.kind}'s amount, gross or net of fees, in cents)`, actual: `amount = ${show(inner.amount)} (${where(d)})` });
    } else if (expected.amounts === undefined && inner.amount !== expected.amount) bad(`${expected.kind}.amount differs from the amount created`, `amount = ${expected.amount}`, `amount = ${show(inner.amount)}`, true);
    if (expected.lookup !== undefined) judgeAgainstLookup(v, req, expected, inner, d);
    if (typeof inner.status !== 'string') bad(`${expected.kind}.status is not a string`, 'a status string', `${kindOf(inner.status)} ${show(inner.status)}`);
    if (expected.event === 'transaction_paid' && inner.status !== 'paid') bad('transaction_paid does not carry status "paid"', 'transaction.status = "paid" ("transaction_paid | PIX charge paid")', `status = ${show(inner.status)}`);
    if (expected.event === 'transfer_completed' && inner.status !== 'paid') {
      v.find('event.transfer-completed-status', { requirements: ['GW-EVT-TRANSFER-COMPLETED-PAID', req], title: 'transfer_completed does not carry status "paid"', expected: 'transfer.status = "paid" ("Event payload status for a completed transfer is `paid`")', actual: `status = ${show(inner.status)} (${where(d)})` });
    }
    const settled = expected.event === 'transaction_paid' || expected.event === 'transfer_completed';
    const pix = inner.pix;
    if (!settled) {
      if (pix !== undefined && pix !== null && !isRecord(pix)) bad(`${expected.kind}.pix is not an object`, 'pix{…} (or absent before settlement)', `${kindOf(pix)} ${show(pix)}`);
      return;
    }
    if (!isRecord(pix)) return bad(`${expected.kind}.pix is missing on a settled event`, 'pix{endToEndId, …}', `${kindOf(pix)} ${show(pix)}`);
    // "pix{endToEndId}": a string; a layout other than the BCB end-to-end id only warns (rules/identifiers.ts)
    const e2e = endToEndIdProblem(pix.endToEndId, `${expected.kind}.pix.endToEndId`);
    if (e2e) bad(e2e.title, e2e.expected, e2e.actual, e2e.kind !== 'type');
    const partyKey = expected.kind === 'transaction' ? 'payerInfo' : 'creditorAccount';
    const party = pix[partyKey];
    if (!isRecord(party)) return bad(`${expected.kind}.pix.${partyKey} is missing on a settled event`, `${partyKey}{name, document}`, `${kindOf(party)} ${show(party)}`);
    for (const key of ['name', 'document']) {
      if (typeof party[key] !== 'string') bad(`${expected.kind}.pix.${partyKey}.${key} is not a string`, 'a string', `${kindOf(party[key])} ${show(party[key])}`, true);
    }
  },
});

/** An event's status and endToEndId against a lookup of its resource made after it ({@link shapeEventPayloads}). */
function judgeAgainstLookup(v: Verdict<'event.resource-mismatch'>, req: RequirementId, expected: ExpectedEvent, inner: Record<string, unknown>, d: GatewayDelivery): void {
  const lookup = expected.lookup;
  if (!lookup) return;
  if (inner.id !== expected.id) {
    v.find('event.resource-mismatch', { requirements: [req], title: `${expected.event} names another ${expected.kind} than the one it was sent for`, expected: `${expected.kind}.id ${show(expected.id)} (the ${expected.kind} whose postbackUrl received it)`, actual: `${expected.kind}.id ${show(inner.id)} (${where(d)})` });
  }
  const read = (status: unknown): string | undefined => (typeof status !== 'string' ? undefined : expected.kind === 'transfer' && status === 'paid' ? 'completed' : status);
  const said = read(inner.status);
  const now = read(lookup.status);
  if (said !== undefined && now !== undefined) {
    const standing = statusAgainstLookup(said, now, STATE_PATHS[expected.kind]);
    if (standing === 'later' || standing === 'off-path') {
      v.find('event.resource-mismatch', { requirements: [req], title: `${expected.event} states a status the ${expected.kind} did not have before a later lookup`, expected: `${expected.kind}.status ${show(lookup.status)} or a state before it on the documented path`, actual: `status = ${show(inner.status)} (${where(d)}); the lookup made after it shows ${show(lookup.status)}` });
    }
  }
  const pix = inner.pix;
  const e2e = isRecord(pix) ? pix.endToEndId : undefined;
  if (typeof e2e === 'string' && e2e !== '' && typeof lookup.endToEndId === 'string' && lookup.endToEndId !== '' && e2e !== lookup.endToEndId) {
    v.find('event.resource-mismatch', { requirements: [req], title: `${expected.event} carries another endToEndId than the ${expected.kind}`, expected: `pix.endToEndId ${show(lookup.endToEndId)} (the lookup made after it)`, actual: `pix.endToEndId ${show(e2e)} (${where(d)})` });
  }
}

// ── delivery and absence ─────────────────────────────────────────────────────────────────────────

const EVENT_REQUIREMENT: Record<GatewayEvent, readonly RequirementId[]> = {
  transaction_created: ['GW-EVT-TRANSACTION-CREATED'],
  transaction_paid: ['GW-EVT-TRANSACTION-PAID', 'GW-SANDBOX-SIM-EVENTS'],
  transfer_created: ['GW-EVT-TRANSFER-CREATED'],
  transfer_completed: ['GW-EVT-TRANSFER-COMPLETED', 'GW-SANDBOX-SIM-EVENTS'],
};

export interface ArrivalObservation {
  event: GatewayEvent;
  kind: ResourceKind;
  id: string;
  /** `webhook` (subscribed to the event) or `postback` (the postbackUrl of the resource) */
  destination: 'webhook' | 'postback';
  /** e.g. `webhook 12` or `charge postbackUrl` */
  label: string;
  /** the first delivery of this event for this resource at the destination, if one arrived */
  delivery: GatewayDelivery | undefined;
  /** how long the suite waited (its patience, not a contract timer) */
  waitedMs: number;
  /** another destination received the same event of the same resource (the event was emitted) */
  seenElsewhere: boolean;
  /**
   * every delivery about the same resource that arrived at any of the check's destinations (any
   * event name): one showing that the moment of `event` has passed tells an event never emitted
   * from one still under way (see {@link announcedOtherwise})
   */
  aboutResource?: readonly GatewayDelivery[];
}

/** The statuses a settled resource carries in an event ("Event payload status for a completed transfer is `paid`"). */
const SETTLED: Record<ResourceKind, readonly string[]> = { transaction: ['paid'], transfer: ['paid', 'completed'] };

/**
 * A delivery about the resource showing that the moment of `event` has passed, while `event` itself
 * reached no destination: for `*_created`, any event of the resource carrying a settled status (the
 * resource was created before it was settled, and that later moment was announced); for
 * `transaction_paid`/`transfer_completed`, a settled status under ANOTHER event name than the creation
 * one (the transition was announced, e.g. as `transaction_updated`, but not as the event the table
 * names; a `*_created` payload rendered after the payment shows no such naming). Undefined
 * when no delivery shows it.
 */
export function announcedOtherwise(event: GatewayEvent, kind: ResourceKind, id: string, deliveries: readonly GatewayDelivery[]): GatewayDelivery | undefined {
  const created = event === 'transaction_created' || event === 'transfer_created';
  return deliveries.find((d) => {
    const json = d.json;
    if (!isRecord(json)) return false;
    const inner = json[kind];
    if (!isRecord(inner) || inner.id !== id || typeof inner.status !== 'string' || !SETTLED[kind].includes(inner.status)) return false;
    // a `*_created` delivery carrying the settled status (a payload rendered at send time, after the
    // payment) is the creation event, not the transition announced under another name
    const creationEvent = kind === 'transaction' ? 'transaction_created' : 'transfer_created';
    return created || (json.event !== event && json.event !== creationEvent);
  });
}

/**
 * "Webhooks are … sent to every active webhook subscribed to the event and also to the `postbackUrl`
 * given on the charge or transfer", with the Events table (when each event is sent) and "the
 * simulation routes fire `transaction_paid` and `transfer_completed`". "Retry schedule and delivery
 * timeout: not shown", so the wait is the suite's patience, never a contract timer:
 * - arrived: conforms;
 * - never sent anywhere, while a delivery shows that a later moment of the same resource was
 *   announced: FAILURE (the table names the event for that moment);
 * - not seen, while the same event of the same resource reached another destination within the same
 *   wait: FAILURE: the event was emitted and this destination was left out;
 * - not seen anywhere: WARNING: inconclusive (the target may deliver later).
 */
export const deliverTableEvents = defineRule({
  name: 'deliverTableEvents',
  requirements: ['GW-EVT-DELIVERY-SUBSCRIBED', 'GW-EVT-POSTBACK', 'GW-EVT-TRANSACTION-CREATED', 'GW-EVT-TRANSACTION-PAID', 'GW-EVT-TRANSFER-CREATED', 'GW-EVT-TRANSFER-COMPLETED', 'GW-SANDBOX-SIM-EVENTS'],
  codes: { 'event.not-emitted': 'failure', 'event.not-delivered': 'failure', 'event.not-seen': 'warning' },
  judge(o: ArrivalObservation, v) {
    const destination: RequirementId = o.destination === 'webhook' ? 'GW-EVT-DELIVERY-SUBSCRIBED' : 'GW-EVT-POSTBACK';
    v.decides(destination, ...EVENT_REQUIREMENT[o.event]);
    if (o.delivery) return;
    const seconds = Math.round(o.waitedMs / 1000);
    const later = o.seenElsewhere ? undefined : announcedOtherwise(o.event, o.kind, o.id, o.aboutResource ?? []);
    if (later !== undefined) {
      const named = isRecord(later.json) ? later.json.event : undefined;
      return v.find('event.not-emitted', {
        requirements: EVENT_REQUIREMENT[o.event],
        title: `${o.event} of ${o.kind} ${o.id} was never sent, while a later moment of the same ${o.kind} was announced`,
        expected: `${o.event} at the ${o.label} (the Events table names it for this moment)`,
        actual: `no ${o.event} anywhere within ${seconds} s; ${where(later)} announced event ${show(named)} with the ${o.kind} settled`,
      });
    }
    if (o.seenElsewhere) {
      return v.find('event.not-delivered', {
        requirements: [destination],
        title: `${o.event} of ${o.kind} ${o.id} reached other destinations but not the ${o.label}`,
        expected: `the same event at the ${o.label} as well ("sent to every active webhook subscribed to the event and also to the postbackUrl")`,
        actual: `delivered elsewhere; nothing at the ${o.label} within ${seconds} s`,
      });
    }
    v.find('event.not-seen', {
      title: `${o.event} of ${o.kind} ${o.id} was not seen within the suite's wait`,
      expected: `a POST to the ${o.label} (the contract states no delivery timeout; the suite waits ${seconds} s)`,
      actual: `no delivery of this event anywhere within ${seconds} s (inconclusive)`,
    });
  },
});

/** Old-style {@link deliverTableEvents} for the suites that still record judgements themselves. */
export function judgeEventArrival(o: ArrivalObservation): Judgement {
  return deliverTableEvents.judge(o);
}

/**
 * "sent to every active webhook subscribed to the event": a subscription selects events, so a
 * delivery of an event outside it fails. `delivery`: what arrived at a webhook of the account
 * subscribed to other events only, after the same event reached a subscribed destination.
 */
export const deliverOnlySubscribedEvents = defineRule({
  name: 'deliverOnlySubscribedEvents',
  requirements: ['GW-EVT-ONLY-SUBSCRIBED'],
  codes: { 'event.unsubscribed-delivery': 'failure' },
  judge(o: { delivery: GatewayDelivery | undefined; window: string }, v) {
    if (!o.delivery) return;
    v.find('event.unsubscribed-delivery', { title: 'a webhook received an event it did not subscribe to', expected: `no such event at a webhook subscribed to other events only (${o.window})`, actual: `${where(o.delivery)}: ${o.delivery.bodyText.slice(0, 200)}` });
  },
});

// ── the webhook routes ───────────────────────────────────────────────────────────────────────────

/** What a webhook registration sent. */
export interface WebhookRegistration {
  answer: Answer;
  sent: { url: string; events: readonly string[] };
  /**
   * the same url and events registered a second time: whether a service refuses a duplicate is not
   * stated, so a 4xx decides nothing; a 2xx is the documented 200 and carries every field of it
   */
  again?: boolean;
}

/** Why a webhook id is not the documented integer, or undefined. */
function webhookIdProblem(id: unknown): 'missing' | 'not-integer' | undefined {
  if (Number.isSafeInteger(id)) return undefined;
  return typeof id !== 'number' && typeof id !== 'string' ? 'missing' : 'not-integer';
}

/**
 * "POST /api/v1/webhook … 200: `success`, `data` (Webhook, with signatureSecret)." with the Webhook
 * table: "id | integer", "url | string", "events | array of string | subscribed event names",
 * "isActive | boolean", "signatureSecret | string | returned on creation; used to verify signatures",
 * "createdAt | string | ISO 8601". Every field of every 200 of the route is judged, a second
 * registration of the same url included (its 200 is the same documented answer: "with
 * signatureSecret"):
 * - not 200 (a 2xx other than 200 included): failure; for a second registration a 4xx decides
 *   nothing (refusing a duplicate is not excluded by the text);
 * - `success` other than true: WARNING (contradictory on a 200); no `data` object: failure;
 * - id not an integer, isActive not a boolean, events not an array of strings or missing a subscribed
 *   event, signatureSecret not a non-empty string: failure; createdAt not ISO 8601: failure
 *   ({@link writeIsoTimestamps}, the row "createdAt | string | ISO 8601");
 * - url not echoed exactly: WARNING (a service may normalise a URL).
 */
export const answerWebhookCreation = defineRule({
  name: 'answerWebhookCreation',
  requirements: ['GW-WH-CREATE-200', 'GW-WH-SECRET-ON-CREATE', 'GW-WH-ID-INTEGER', 'GW-WH-RESOURCE-FIELDS'],
  codes: {
    'webhook.create-status': 'failure',
    'webhook.success-not-true': 'warning',
    'webhook.no-data': 'failure',
    'webhook.no-id': 'failure',
    'webhook.id-integer': 'failure',
    'webhook.secret': 'failure',
    'webhook.is-active': 'failure',
    'webhook.events': 'failure',
    'webhook.events-echo': 'failure',
    'webhook.url': 'failure',
    'webhook.url-echo': 'warning',
  },
  uses: [writeIsoTimestamps],
  judge(o: WebhookRegistration, v) {
    const { answer, sent } = o;
    const what = o.again ? 'POST /api/v1/webhook registering the same url again' : 'POST /api/v1/webhook';
    if (o.again && answer.exchange.response && answer.status >= 400 && answer.status <= 499) return v.nothingToJudge();
    if (!judgeStatus(v, answer.exchange, 200, { unexpected: 'webhook.create-status' }, what)) return;
    v.shows(answer.exchange);
    const json = answer.json;
    if (isRecord(json) && json.success !== true) v.find('webhook.success-not-true', { requirements: ['GW-WH-CREATE-200'], title: `${what}: a 200 says success other than true`, expected: 'success: true', actual: `success: ${show(json.success)}` });
    const data = dataOf(json);
    if (!data) return v.find('webhook.no-data', { requirements: ['GW-WH-CREATE-200'], title: `${what}: the 200 carries no data object`, expected: '{success, data: Webhook}', actual: show(json, 300) });
    const idProblem = webhookIdProblem(data.id);
    if (idProblem === 'missing') v.find('webhook.no-id', { requirements: ['GW-WH-CREATE-200', 'GW-WH-ID-INTEGER'], title: `${what}: the webhook carries no id`, expected: 'data.id: integer', actual: `${kindOf(data.id)} ${show(data.id)}`, pointer: '/data/id' });
    if (idProblem === 'not-integer') v.find('webhook.id-integer', { requirements: ['GW-WH-ID-INTEGER'], title: `${what}: the webhook id is not an integer`, expected: 'data.id: integer', actual: `${kindOf(data.id)} ${show(data.id)}`, pointer: '/data/id' });
    const secret = data.signatureSecret;
    if (typeof secret !== 'string' || secret === '') {
      // the 200 of the route carries it ("with signatureSecret"), whether or not this was a first creation
      v.find('webhook.secret', { requirements: o.again ? ['GW-WH-CREATE-200'] : ['GW-WH-CREATE-200', 'GW-WH-SECRET-ON-CREATE'], title: `${what}: the webhook carries no signatureSecret`, expected: 'data.signatureSecret: a non-empty string', actual: kindOf(secret), pointer: '/data/signatureSecret' });
    }
    if (typeof data.isActive !== 'boolean') v.find('webhook.is-active', { requirements: ['GW-WH-RESOURCE-FIELDS'], title: `${what}: isActive is not a boolean`, expected: 'data.isActive: boolean', actual: `${kindOf(data.isActive)} ${show(data.isActive)}`, pointer: '/data/isActive' });
    const events = data.events;
    if (!Array.isArray(events) || !events.every((e) => typeof e === 'string')) {
      v.find('webhook.events', { requirements: ['GW-WH-RESOURCE-FIELDS'], title: `${what}: events is not an array of strings`, expected: 'data.events: array of string', actual: show(events), pointer: '/data/events' });
    } else if (!sent.events.every((e) => (events as string[]).includes(e))) {
      v.find('webhook.events-echo', { requirements: ['GW-WH-RESOURCE-FIELDS'], title: `${what}: events does not list the subscribed events`, expected: `events ⊇ ${show(sent.events)}`, actual: show(events), pointer: '/data/events' });
    }
    if (typeof data.url !== 'string') v.find('webhook.url', { requirements: ['GW-WH-RESOURCE-FIELDS'], title: `${what}: url is not a string`, expected: `url = ${show(sent.url)}`, actual: `${kindOf(data.url)} ${show(data.url)}`, pointer: '/data/url' });
    else if (data.url !== sent.url) v.find('webhook.url-echo', { requirements: ['GW-WH-RESOURCE-FIELDS'], title: `${what}: url differs from the one registered`, expected: `url = ${show(sent.url)}`, actual: `url = ${show(data.url)}`, pointer: '/data/url' });
    v.apply(writeIsoTimestamps, { row: 'gateway-webhook', fields: { createdAt: data.createdAt }, exchange: answer.exchange, pointerBase: '/data' });
  },
});

/**
 * "Body: `url` string (required), `events` array of event names (required)." A body missing one, or
 * with one of the wrong type, is refused: a 2xx (a webhook created without them) fails; otherwise it
 * is an invalid body ({@link refuseInvalidRequestBody}: 400/422, another 4xx warns, a 5xx fails).
 */
export const requireWebhookUrlAndEvents = defineRule({
  name: 'requireWebhookUrlAndEvents',
  requirements: ['GW-WH-CREATE-REQUIRED'],
  codes: { 'webhook.created-without-required': 'failure' },
  uses: [refuseInvalidRequestBody],
  judge(o: { answer: Answer; what: string; field: 'url' | 'events' }, v) {
    const { answer } = o;
    if (answer.exchange.response && is2xx(answer.status)) {
      return v.find('webhook.created-without-required', { title: `POST /api/v1/webhook with ${o.what} was accepted`, expected: 'a 4xx ("url string (required), events array of event names (required)")', actual: `HTTP ${answer.status} ${show(answer.exchange.response.body, 200)}`, exchanges: [answer.exchange] });
    }
    v.apply(refuseInvalidRequestBody, { answer, what: `POST /api/v1/webhook with ${o.what}`, field: o.field });
  },
});

/**
 * "GET /api/v1/webhook: Lists webhooks. Response body: not shown." The shape is open, but the API is
 * "JSON over HTTPS": a 2xx whose body is not JSON fails (an empty body is not judged); another status
 * fails.
 */
export const answerWebhookList = defineRule({
  name: 'answerWebhookList',
  requirements: ['GW-WH-LIST'],
  codes: { 'webhook.list-status': 'failure', 'webhook.list-not-json': 'failure' },
  judge(answer: Answer, v) {
    if (!judgeStatus(v, answer.exchange, '2xx', { unexpected: 'webhook.list-status' }, 'GET /api/v1/webhook')) return;
    const body = answer.exchange.response?.body ?? '';
    if (answer.json !== undefined || body.trim() === '') return;
    v.find('webhook.list-not-json', { title: 'the webhook list is not JSON', expected: 'a JSON body ("JSON over HTTPS")', actual: show(body), exchanges: [answer.exchange] });
  },
});

/** What shows that DELETE removed a webhook. */
export type WebhookRemoval =
  /** the DELETE itself ("Response body: not shown": any 2xx) */
  | { kind: 'delete'; answer: Answer }
  /** the webhook's entry in a list read after a 2xx DELETE (undefined: not listed) */
  | { kind: 'listed-after'; entry: Record<string, unknown> | undefined; exchanges: readonly Exchange[] }
  /** what arrived at the removed webhook for an event created after the DELETE answered 2xx */
  | { kind: 'delivered-after'; delivery: GatewayDelivery | undefined; window: string };

/**
 * "DELETE /api/v1/webhook/{id}: Removes a webhook. Response body: not shown."
 * - `delete`: any 2xx, with or without a body; another status fails;
 * - `listed-after`: still listed as active is a WARNING (a list may lag, or keep inactive entries);
 *   gone, or listed with `isActive: false`, conforms;
 * - `delivered-after`: an event created after the DELETE answered 2xx was never under way for the
 *   webhook: a delivery of it fails.
 */
export const removeWebhookOnDelete = defineRule({
  name: 'removeWebhookOnDelete',
  requirements: ['GW-WH-DELETE'],
  codes: { 'webhook.delete-status': 'failure', 'webhook.still-listed': 'warning', 'webhook.deleted-delivery': 'failure' },
  judge(o: WebhookRemoval, v) {
    switch (o.kind) {
      case 'delete':
        judgeStatus(v, o.answer.exchange, '2xx', { unexpected: 'webhook.delete-status' }, 'DELETE /api/v1/webhook/{id}');
        return;
      case 'listed-after':
        if (!o.entry || o.entry.isActive === false) return;
        v.find('webhook.still-listed', { title: 'a removed webhook is still listed as active', expected: 'the webhook is gone from the list (or inactive)', actual: show(o.entry), exchanges: o.exchanges });
        return;
      case 'delivered-after':
        if (!o.delivery) return;
        v.find('webhook.deleted-delivery', { title: 'a removed webhook received an event created after its removal', expected: `nothing at the removed webhook (${o.window})`, actual: `${where(o.delivery)}: ${o.delivery.bodyText.slice(0, 200)}` });
    }
  },
});
