/**
 * Gateway webhooks and events (gateway-api.md "Webhook" resource, "POST/GET /api/v1/webhook",
 * "DELETE /api/v1/webhook/{id}", "Events", "Callback headers", "Payload shapes").
 *
 * Every rule here is pure: it judges a recorded delivery (harness/webhooks/types.ts) or a parsed
 * response body and decides the requirement IDs it is named after. The suites only register
 * webhooks, trigger events, wait for deliveries and hand what arrived to these rules.
 */
import type { Delivery } from '../../webhooks/types.js';
import type { Exchange } from '../../core/exchange.js';
import { GATEWAY_SIGNATURE_HEADER, verifyGatewaySignature, type SignatureCheck } from '../../webhooks/signatures.js';
import type { Finding, Judgement, RequirementId } from '../finding.js';
import type { FindingCode } from '../codes.js';
import { combine, judge, kindOf, makeFinding, show, type RuleContext } from '../judgement.js';
import { verifyEndToEndId, verifyUuid } from '../identifiers.js';
import { verifyIntegerCents } from '../money.js';
import { isRecord } from '../../core/json.js';

/** Where an observation comes from (the rule decides its own requirement IDs). */
export type Observed = Omit<RuleContext, 'requirements'>;

/** The parts of a delivery these rules read. */
export type GatewayDelivery = Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody' | 'receivedAt' | 'bodyText'> & { json?: unknown };

export type ResourceKind = 'transaction' | 'transfer';
export type GatewayEvent = 'transaction_created' | 'transaction_paid' | 'transfer_created' | 'transfer_completed';

function where(d: Pick<GatewayDelivery, 'seq' | 'path'>): string {
  return `delivery #${d.seq} to ${d.path}`;
}

// ── signature ────────────────────────────────────────────────────────────────────────────────────

const SIGNATURE_REQUIREMENTS: readonly RequirementId[] = ['GW-WH-SIGNATURE-HEADER', 'GW-WH-SIGNATURE-LOWER-HEX', 'GW-WH-SIGNATURE-HMAC', 'GW-AUTH-CALLBACKS-SIGNED'];

/** What a signature shows besides its verdict (for the suite's observations). */
export interface SignatureObservation {
  /** which signing input matched: the raw body, or only a compact re-serialisation of it */
  matchedOver?: 'raw-body' | 'compact-json';
  /** the unit `t` reads as (13 digits: milliseconds) */
  timestampUnit?: 'seconds' | 'milliseconds';
  header?: string;
}

/** Reads (does not judge) the `ServiceGateway-Signature` of a delivery. */
export function describeGatewaySignature(d: GatewayDelivery, secret: string): SignatureObservation {
  const header = d.headers[GATEWAY_SIGNATURE_HEADER];
  const result = verifyGatewaySignature({ header, rawBody: d.rawBody, secret, receivedAt: d.receivedAt });
  const out: SignatureObservation = {};
  if (header !== undefined) out.header = header;
  if (result.matchedOver) out.matchedOver = result.matchedOver;
  if (result.timestamp !== undefined) out.timestampUnit = result.format.timestamp.code === 'signature.timestamp-ms' ? 'milliseconds' : 'seconds';
  return out;
}

/**
 * "ServiceGateway-Signature | `t=<epoch>,v1=<hmac>`"; "`v1` is the lowercase hex HMAC-SHA256, keyed
 * with the signatureSecret, over the text `<timestamp>.<JSON of the payload>`".
 * - Failures: no header, an unparseable header, v1 not 64 hex digits or not lowercase, t not an
 *   integer, an HMAC that matches neither the raw body nor its compact re-serialisation.
 * - Accepted: `t` in milliseconds. "`<epoch>`" names no unit and the gateway states no tolerance, so
 *   `t` is only the text the HMAC covers; the suite notes the unit (issue 14).
 * - Warnings: a parseable header that is not exactly `t=…,v1=…`; a match only over re-serialised
 *   JSON ("JSON of the payload" may mean either; the raw body is the likelier reading).
 */
export function verifyGatewayDeliverySignature(d: GatewayDelivery, secret: string, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: SIGNATURE_REQUIREMENTS };
  const result = verifyGatewaySignature({ header: d.headers[GATEWAY_SIGNATURE_HEADER], rawBody: d.rawBody, secret, receivedAt: d.receivedAt });
  const issues: { code: FindingCode; severity: 'failure' | 'warning'; detail: string }[] = [];
  if (!result.ok) issues.push({ code: result.code ?? 'signature.mismatch', severity: 'failure', detail: result.detail });
  if (result.code !== 'signature.missing-header') {
    const checks: SignatureCheck[] = [result.format.grammar, result.format.v1];
    // a millisecond t is tolerated (see above); any other malformed t is not
    if (result.format.timestamp.code !== 'signature.timestamp-ms') checks.push(result.format.timestamp);
    for (const check of checks) {
      if (!check.ok && !issues.some((i) => i.code === check.code)) issues.push({ code: check.code ?? 'signature.format', severity: check.severity ?? 'failure', detail: check.detail });
    }
  }
  const failures = issues.filter((i) => i.severity === 'failure');
  const picked = failures.length > 0 ? failures : issues;
  const first = picked[0];
  const findings: Finding[] = [];
  if (first) {
    findings.push(
      makeFinding(ctx, {
        code: first.code,
        title: 'gateway webhook signature does not verify as documented',
        severity: failures.length > 0 ? 'failure' : 'warning',
        expected: 'ServiceGateway-Signature: t=<epoch>,v1=<lowercase hex HMAC-SHA256(signatureSecret, "<t>.<JSON of the payload>")>',
        actual: `${picked.map((i) => i.detail).join('; ')} (${where(d)})`,
      }),
    );
  }
  if (failures.length === 0 && result.matchedOver === 'compact-json') {
    findings.push(
      makeFinding(ctx, {
        code: 'signature.reserialized-body',
        requirements: ['GW-WH-SIGNATURE-HMAC'],
        title: 'the signature verifies only over re-serialised JSON, not over the raw body',
        severity: 'warning',
        expected: 'HMAC over "<t>.<raw request body>" (the likeliest reading of "JSON of the payload")',
        actual: `matched over compact JSON.stringify(JSON.parse(body)) only (${where(d)})`,
      }),
    );
  }
  return judge(ctx, findings);
}

// ── payload shapes ───────────────────────────────────────────────────────────────────────────────

export interface ExpectedEvent {
  kind: ResourceKind;
  event: GatewayEvent;
  /** the resource id */
  id: string;
  /** the amount the resource was created with (cents) */
  amount: number;
}

const PAYLOAD_REQ: Record<ResourceKind, RequirementId> = { transaction: 'GW-EVT-TXN-PAYLOAD', transfer: 'GW-EVT-TRANSFER-PAYLOAD' };

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
 */
export function verifyGatewayEventPayload(d: GatewayDelivery, expected: ExpectedEvent, at: Observed = {}): Judgement {
  const req = PAYLOAD_REQ[expected.kind];
  const requirements: RequirementId[] = [req, 'GW-EVT-ID-UUID', 'GW-EVT-SCOPE-USER', 'GW-EVT-EVENT-NAME'];
  if (expected.event === 'transaction_paid') requirements.push('GW-EVT-TRANSACTION-PAID');
  if (expected.event === 'transfer_completed') requirements.push('GW-EVT-TRANSFER-COMPLETED-PAID');
  const ctx: RuleContext = { ...at, requirements };
  const label = `${expected.event}, ${where(d)}`;
  const sub = (ids: RequirementId[], subject: string): RuleContext => ({ ...at, requirements: ids, subject: `${subject} (${label})` });
  const findings: Finding[] = [];
  const bad = (ids: RequirementId[], title: string, expectedText: string, actual: string, severity: 'failure' | 'warning' = 'failure'): void => {
    findings.push(makeFinding(ctx, { code: 'webhook.payload', requirements: ids, title: `${title} (${expected.event})`, severity, expected: expectedText, actual: `${actual} (${where(d)})` }));
  };
  const json = d.json;
  if (!isRecord(json)) {
    bad([req, 'GW-EVT-HTTP-POST-JSON'], 'event body is not a JSON object', 'a JSON object', show(d.bodyText));
    return judge(ctx, findings);
  }
  const parts: Judgement[] = [verifyUuid(json.id, sub(['GW-EVT-ID-UUID'], 'event id'))];
  if (json.type !== expected.kind) bad([req], 'event type is wrong', `type = "${expected.kind}"`, `type = ${show(json.type)}`);
  if (json.event !== expected.event) bad(['GW-EVT-EVENT-NAME'], 'event field does not name the delivered event', `event = "${expected.event}"`, `event = ${show(json.event)}`, 'warning');
  if (json.scope !== 'user') bad(['GW-EVT-SCOPE-USER'], 'event scope is not "user"', 'scope = "user"', `scope = ${show(json.scope)}`);
  const inner = json[expected.kind];
  if (!isRecord(inner)) {
    bad([req], `event has no ${expected.kind} object`, `${expected.kind}{id, amount, status, pix{…}}`, `${expected.kind} = ${kindOf(inner)} ${show(inner)}`);
    return combine(judge(ctx, findings), ...parts);
  }
  const amount = verifyIntegerCents(inner.amount, sub([req, 'GW-MONEY-CENTS'], `${expected.kind}.amount`));
  parts.push(amount);
  if (amount.findings.length === 0 && inner.amount !== expected.amount) {
    bad([req], `${expected.kind}.amount differs from the amount created`, `amount = ${expected.amount}`, `amount = ${show(inner.amount)}`, 'warning');
  }
  if (typeof inner.status !== 'string') bad([req], `${expected.kind}.status is not a string`, 'a status string', `${kindOf(inner.status)} ${show(inner.status)}`);
  if (expected.event === 'transaction_paid' && inner.status !== 'paid') {
    bad(['GW-EVT-TRANSACTION-PAID', req], 'transaction_paid does not carry status "paid"', 'transaction.status = "paid"', `status = ${show(inner.status)}`);
  }
  if (expected.event === 'transfer_completed' && inner.status !== 'paid') {
    bad(['GW-EVT-TRANSFER-COMPLETED-PAID', req], 'transfer_completed does not carry status "paid"', 'transfer.status = "paid" ("Event payload status for a completed transfer is `paid`")', `status = ${show(inner.status)}`);
  }
  const settled = expected.event === 'transaction_paid' || expected.event === 'transfer_completed';
  const pix = inner.pix;
  if (!settled) {
    if (pix !== undefined && pix !== null && !isRecord(pix)) bad([req], `${expected.kind}.pix is not an object`, 'pix{…} (or absent before settlement)', `${kindOf(pix)} ${show(pix)}`);
    return combine(judge(ctx, findings), ...parts);
  }
  if (!isRecord(pix)) {
    bad([req], `${expected.kind}.pix is missing on a settled event`, 'pix{endToEndId, …}', `${kindOf(pix)} ${show(pix)}`);
    return combine(judge(ctx, findings), ...parts);
  }
  parts.push(verifyEndToEndId(pix.endToEndId, sub([req], `${expected.kind}.pix.endToEndId`)));
  const partyKey = expected.kind === 'transaction' ? 'payerInfo' : 'creditorAccount';
  const party = pix[partyKey];
  if (!isRecord(party)) {
    bad([req], `${expected.kind}.pix.${partyKey} is missing on a settled event`, `${partyKey}{name, document}`, `${kindOf(party)} ${show(party)}`);
  } else {
    for (const key of ['name', 'document']) {
      if (typeof party[key] !== 'string') bad([req], `${expected.kind}.pix.${partyKey}.${key} is not a string`, 'a string', `${kindOf(party[key])} ${show(party[key])}`, 'warning');
    }
  }
  return combine(judge(ctx, findings), ...parts);
}

// ── delivery and absence ─────────────────────────────────────────────────────────────────────────

const EVENT_REQUIREMENT: Record<GatewayEvent, RequirementId[]> = {
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
 * given on the charge or transfer" and the Events table (when each event is sent). "Retry schedule and
 * delivery timeout: not shown", so the wait is the suite's patience, never a contract timer:
 * - arrived: conforms;
 * - not seen, while the same event of the same resource reached another destination within the same
 *   wait: FAILURE (`webhook.not-delivered`): the event was emitted and this destination was left out;
 * - not seen anywhere: WARNING (`webhook.not-seen`): inconclusive (the target may deliver later).
 */
export function judgeEventArrival(o: ArrivalObservation, at: Observed = {}): Judgement {
  const requirements: RequirementId[] = [o.destination === 'webhook' ? 'GW-EVT-DELIVERY-SUBSCRIBED' : 'GW-EVT-POSTBACK', ...EVENT_REQUIREMENT[o.event]];
  const ctx: RuleContext = { ...at, requirements };
  if (o.delivery) return judge(ctx);
  const seconds = Math.round(o.waitedMs / 1000);
  const later = o.seenElsewhere ? undefined : announcedOtherwise(o.event, o.kind, o.id, o.aboutResource ?? []);
  if (later !== undefined) {
    // the Events table: "transaction_created | PIX charge created", "transaction_paid | PIX charge paid", …
    const named = isRecord(later.json) ? later.json.event : undefined;
    return judge(
      ctx,
      makeFinding(ctx, {
        code: 'webhook.not-emitted',
        requirements: EVENT_REQUIREMENT[o.event],
        title: `${o.event} of ${o.kind} ${o.id} was never sent, while a later moment of the same ${o.kind} was announced`,
        severity: 'failure',
        expected: `${o.event} at the ${o.label} (the Events table names it for this moment)`,
        actual: `no ${o.event} anywhere within ${seconds} s; ${where(later)} announced event ${show(named)} with the ${o.kind} settled`,
      }),
    );
  }
  if (o.seenElsewhere) {
    return judge(
      ctx,
      makeFinding(ctx, {
        code: 'webhook.not-delivered',
        requirements: [requirements[0] as RequirementId],
        title: `${o.event} of ${o.kind} ${o.id} reached other destinations but not the ${o.label}`,
        severity: 'failure',
        expected: `the same event at the ${o.label} as well ("sent to every active webhook subscribed to the event and also to the postbackUrl")`,
        actual: `delivered elsewhere; nothing at the ${o.label} within ${seconds} s`,
      }),
    );
  }
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'webhook.not-seen',
      title: `${o.event} of ${o.kind} ${o.id} was not seen within the suite's wait`,
      severity: 'warning',
      expected: `a POST to the ${o.label} (the contract states no delivery timeout; the suite waits ${seconds} s)`,
      actual: `no delivery of this event anywhere within ${seconds} s (inconclusive)`,
    }),
  );
}

/**
 * "sent to every active webhook subscribed to the event": a subscription selects events, so a
 * delivery of an event outside it fails (GW-EVT-ONLY-SUBSCRIBED). `delivery`: what arrived at the
 * webhook subscribed to other events only, after the same event reached a subscribed destination.
 */
export function ensureOnlySubscribedEventsDelivered(delivery: GatewayDelivery | undefined, window: string, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-EVT-ONLY-SUBSCRIBED'] };
  if (!delivery) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'webhook.unsubscribed-delivery',
      title: 'a webhook received an event it did not subscribe to',
      severity: 'failure',
      expected: `no such event at a webhook subscribed to other events only (${window})`,
      actual: `delivery #${delivery.seq}: ${delivery.bodyText.slice(0, 200)}`,
    }),
  );
}

/**
 * "DELETE /api/v1/webhook/{id}: Removes a webhook." An event created after the DELETE answered 2xx
 * was never under way for it: a delivery of it to the removed webhook fails (GW-WH-DELETE).
 */
export function ensureRemovedWebhookReceivesNothing(delivery: GatewayDelivery | undefined, window: string, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-DELETE'] };
  if (!delivery) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'webhook.deleted-delivery',
      title: 'a removed webhook received an event created after its removal',
      severity: 'failure',
      expected: `nothing at the removed webhook (${window})`,
      actual: `delivery #${delivery.seq}: ${delivery.bodyText.slice(0, 200)}`,
    }),
  );
}

// ── the Webhook resource ─────────────────────────────────────────────────────────────────────────

/**
 * "Webhook" resource: "id | integer". Absent (or not a scalar): failure `webhook.no-id` (the creation
 * answer "200: success, data (Webhook …)" carries no usable id); a string or a fraction: failure
 * `webhook.id-integer`.
 */
export function verifyWebhookId(id: unknown, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-ID-INTEGER'] };
  if (Number.isSafeInteger(id)) return judge(ctx);
  if (typeof id !== 'number' && typeof id !== 'string') {
    return judge(ctx, makeFinding(ctx, { code: 'webhook.no-id', requirements: ['GW-WH-CREATE-200', 'GW-WH-ID-INTEGER'], title: 'the created webhook carries no id', severity: 'failure', expected: 'data.id: integer', actual: `${kindOf(id)} ${show(id)}` }));
  }
  return judge(ctx, makeFinding(ctx, { code: 'webhook.id-integer', title: 'the webhook id is not an integer', severity: 'failure', expected: 'data.id: integer', actual: `${kindOf(id)} ${show(id)}` }));
}

/** "signatureSecret | string | returned on creation; used to verify signatures": a non-empty string. */
export function ensureWebhookSecretReturned(data: Record<string, unknown>, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-SECRET-ON-CREATE'] };
  const secret = data.signatureSecret;
  if (typeof secret === 'string' && secret !== '') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'webhook.secret', requirements: ['GW-WH-SECRET-ON-CREATE', 'GW-WH-CREATE-200'], title: 'the created webhook carries no signatureSecret', severity: 'failure', expected: 'data.signatureSecret: a non-empty string', actual: kindOf(secret) }));
}

/**
 * "Webhook" resource: "isActive | boolean", "events | array of string | subscribed event names",
 * "url | string". Failures: isActive not a boolean, events not an array of strings or missing a
 * subscribed event. Warning: url not echoed exactly (a target may normalise a URL).
 */
export function verifyWebhookResourceFields(data: Record<string, unknown>, sent: { url: string; events: readonly string[] }, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-RESOURCE-FIELDS'] };
  const findings: Finding[] = [];
  if (typeof data.isActive !== 'boolean') {
    findings.push(makeFinding(ctx, { code: 'webhook.is-active', title: 'isActive is not a boolean', severity: 'failure', expected: 'data.isActive: boolean', actual: `${kindOf(data.isActive)} ${show(data.isActive)}` }));
  }
  const events = data.events;
  if (!Array.isArray(events) || !events.every((e) => typeof e === 'string')) {
    findings.push(makeFinding(ctx, { code: 'webhook.events', title: 'events is not an array of strings', severity: 'failure', expected: 'data.events: array of string', actual: show(events) }));
  } else if (!sent.events.every((e) => (events as string[]).includes(e))) {
    findings.push(makeFinding(ctx, { code: 'webhook.events-echo', title: 'events does not list the subscribed events', severity: 'failure', expected: `events ⊇ ${show(sent.events)}`, actual: show(events) }));
  }
  if (data.url !== sent.url) {
    findings.push(makeFinding(ctx, { code: 'webhook.url-echo', title: 'url differs from the one registered', severity: 'warning', expected: `url = ${show(sent.url)}`, actual: `url = ${show(data.url)}` }));
  }
  return judge(ctx, findings);
}

/**
 * "GET /api/v1/webhook: Lists webhooks. Response body: not shown." The shape is open, but the API is
 * "JSON over HTTPS": a 2xx whose body is not JSON fails. An empty body is not judged here (the
 * caller passes `undefined` for it only when the exchange had a body).
 */
export function ensureWebhookListIsJson(exchange: Exchange, json: unknown, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-LIST'], exchanges: [...(at.exchanges ?? []), exchange] };
  const body = exchange.response?.body ?? '';
  if (json !== undefined || body.trim() === '') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'webhook.list-not-json', title: 'the webhook list is not JSON', severity: 'failure', expected: 'a JSON body ("JSON over HTTPS")', actual: show(body) }));
}

/**
 * "Removes a webhook." After a 2xx DELETE, the list (shape not shown) should not show the webhook as
 * active: still listed active is a WARNING (a list may lag, or keep inactive entries); listed with
 * `isActive: false` conforms (the suite notes it).
 */
export function ensureRemovedWebhookNotListedActive(entry: Record<string, unknown> | undefined, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-WH-DELETE'] };
  if (!entry || entry.isActive === false) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'webhook.still-listed', title: 'a removed webhook is still listed as active', severity: 'warning', expected: 'the webhook is gone from the list (or inactive)', actual: show(entry) }));
}
