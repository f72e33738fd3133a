/**
 * Helpers shared by the gateway suites of part B (pix-transfers, webhooks, atomicity, isolation):
 * valid request bodies, funding the sandbox balance, webhook registration, and the pure checks of
 * callback deliveries (headers, signature, payload shapes).
 *
 * Contract: gateway-api.md. Quotes are given where each rule is applied.
 */
import { randomUUID } from 'node:crypto';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse, GatewayClient, PixChargeRequest, TransferRequest } from '../../harness/http/gateway-client.js';
import type { Finding } from '../../harness/rules/finding.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import {
  expectStatus,
  kindOf,
  makeFinding,
  show,
  verifyEndToEndId,
  verifyGatewayCallbackHeaders,
  verifyGatewayWebhookSignature,
  verifyIntegerCents,
  verifyIsoTimestamp,
  verifyUuid,
  verifyWebhookIsJsonPost,
} from '../../harness/rules/index.js';
import type { CheckContext } from '../../harness/rules/index.js';
import { GATEWAY_SIGNATURE_HEADER, verifyGatewaySignature } from '../../harness/webhooks/signatures.js';
import { dataOf as jsonData, is2xx as statusIs2xx, isRecord } from '../../harness/json.js';
import { pixChargeBody } from './support.js';

export type JsonRecord = Record<string, unknown>;

export { isRecord };

/** `data` of a response's `{success, data}` envelope, when it is an object. */
export function dataOf(response: ApiResponse): JsonRecord | undefined {
  return jsonData(response.json);
}

export function is2xx(response: ApiResponse): boolean {
  return statusIs2xx(response.status);
}

/** A unique receiver path for one webhook or postbackUrl (`/gw/<uuid>`), so checks never share deliveries. */
export function receiverPath(): string {
  return `/gw/${randomUUID()}`;
}

/** A minimal valid PIX charge body (POST /api/v1/pix/in/qrcode), from the part-A support module. */
export function chargeBody(amountInCents: number, postbackUrl?: string): PixChargeRequest {
  return pixChargeBody({ amountInCents, ...(postbackUrl !== undefined ? { postbackUrl } : {}) });
}

/** A minimal valid PIX transfer body (POST /api/v1/pix/out/pixkey); default key: a random key (UUID). */
export function transferBody(amount: number, extra: Partial<TransferRequest> = {}): TransferRequest {
  return { pixKey: randomUUID(), amount, description: 'paygate-conformance', ...extra };
}

const PIXIN_SETUP = ['GW-PIXIN-CREATE-200', 'GW-PIXIN-CREATE-PENDING'];
const PAY_SETUP = ['GW-PIXIN-PAY-200', 'GW-PIXIN-PAY-PAID'];

export interface CreatedCharge {
  id: string;
  amountInCents: number;
  /** `fees` of the creation response when it is an integer, else 0 */
  fees: number;
  response: ApiResponse;
}

/**
 * Creates a PIX charge; records a finding when a valid charge is not created (any 2xx passes here:
 * the exact status is the PIX-charges suite's business). Undefined when no id came back.
 */
export async function createCharge(gw: GatewayClient, run: CheckRun, amountInCents: number, postbackUrl?: string): Promise<CreatedCharge | undefined> {
  const r = await gw.createPixCharge(chargeBody(amountInCents, postbackUrl));
  run.record(expectStatus(r.exchange, '2xx', { requirements: PIXIN_SETUP }));
  const data = dataOf(r);
  if (!is2xx(r) || typeof data?.id !== 'string') return undefined;
  return { id: data.id, amountInCents, fees: Number.isSafeInteger(data.fees) ? (data.fees as number) : 0, response: r };
}

/** Pays a pending sandbox charge (simulation); true when it answered 2xx. */
export async function payCharge(gw: GatewayClient, run: CheckRun, id: string): Promise<boolean> {
  const r = await gw.payPixCharge(id);
  run.record(expectStatus(r.exchange, '2xx', { requirements: PAY_SETUP }));
  return is2xx(r);
}

/**
 * Credits the sandbox balance with at least `cents` by creating and paying a charge of twice the
 * amount (plus R$ 2.00): whatever the charge fees are (not shown), the credit covers `cents` as long
 * as the fees stay under half the amount. Soundness under concurrency: every test file pays its own
 * funding charge BEFORE it completes a transfer funded by it, so the account-wide balance never
 * drops below what the file itself needs, whatever other files do at the same time.
 */
export async function fundSandbox(gw: GatewayClient, run: CheckRun, cents: number): Promise<boolean> {
  const charge = await createCharge(gw, run, Math.max(100, cents * 2 + 200));
  if (!charge) return false;
  return payCharge(gw, run, charge.id);
}

/**
 * `data.pix.balance` in cents ("strings in reais, 2 decimals"), tolerant (a number is accepted here;
 * the balance suite judges the format). Undefined when the balance cannot be read.
 */
export async function balanceCents(gw: GatewayClient, run: CheckRun): Promise<number | undefined> {
  const r = await gw.getBalance();
  run.record(expectStatus(r.exchange, 200, { requirements: ['GW-BAL-200-SHAPE'] }));
  const pix = dataOf(r)?.pix;
  const value = isRecord(pix) ? pix.balance : undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d+(\.\d+)?$/.test(text.trim())) {
    run.note(`balance: data.pix.balance ${show(value)} could not be read as reais; balance-based verdicts skipped`);
    return undefined;
  }
  return Math.round(Number(text) * 100);
}

export interface RegisteredWebhook {
  id: number | string;
  secret: string | undefined;
  path: string;
  url: string;
  events: string[];
  response: ApiResponse;
}

/** POST /api/v1/webhook for a fresh receiver path; records a failure unless 2xx with an id. */
export async function registerWebhook(gw: GatewayClient, run: CheckRun, callbackUrl: (path: string) => string, events: string[]): Promise<RegisteredWebhook | undefined> {
  const path = receiverPath();
  const url = callbackUrl(path);
  const r = await gw.createWebhook({ url, events });
  run.record(expectStatus(r.exchange, '2xx', { requirements: ['GW-WH-CREATE-200'] }));
  const data = dataOf(r);
  const id = data?.id;
  if (!is2xx(r) || (typeof id !== 'number' && typeof id !== 'string')) {
    if (is2xx(r)) {
      run.record(makeFinding({ requirements: ['GW-WH-CREATE-200', 'GW-WH-ID-INTEGER'], exchanges: [r.exchange] }, {
        code: 'webhook.no-id', title: 'the created webhook carries no id', severity: 'failure', expected: 'data.id (integer)', actual: show(r.json),
      }));
    }
    return undefined;
  }
  const secret = typeof data?.signatureSecret === 'string' ? data.signatureSecret : undefined;
  if (secret !== undefined) gw.http.redactor.register(secret, 'GATEWAY_WEBHOOK_SECRET');
  return { id, secret, path, url, events, response: r };
}

/** Removes webhooks this check registered (cleanup: any 2xx; the webhook suite judges the route itself). */
export async function removeWebhooks(gw: GatewayClient, hooks: ReadonlyArray<RegisteredWebhook | undefined>): Promise<void> {
  for (const hook of hooks) {
    if (hook) await gw.withObserver(undefined).deleteWebhook(hook.id).catch(() => undefined);
  }
}

// ── deliveries ────────────────────────────────────────────────────────────────────────────────

export type ResourceKind = 'transaction' | 'transfer';
export type GatewayEvent = 'transaction_created' | 'transaction_paid' | 'transfer_created' | 'transfer_completed';
export const RUN_EVENTS: readonly GatewayEvent[] = ['transaction_created', 'transaction_paid', 'transfer_created', 'transfer_completed'];
/** The other event names of the "Events" table (and the hidden subscription ones). */
const OTHER_EVENTS: readonly string[] = [
  'transaction_refunded', 'transaction_updated', 'infraction', 'transfer_updated', 'transfer_canceled',
  'subscription_created', 'subscription_charged', 'subscription_payment_failed', 'subscription_canceled',
];

/**
 * The identity of an event occurrence for "at most once" checks: "processing is idempotent by event
 * id or `endToEndId`", so two deliveries with the same endToEndId (or, lacking one, the same event
 * id) are one occurrence delivered twice, never the effect applied twice.
 */
export function occurrenceOf(d: Delivery, kind: ResourceKind): string | undefined {
  const pix = resourceOf(d, kind)?.pix;
  const e2e = isRecord(pix) ? pix.endToEndId : undefined;
  if (typeof e2e === 'string' && e2e !== '') return `e2e:${e2e}`;
  const json = d.json;
  const id = isRecord(json) ? json.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? `id:${String(id)}` : undefined;
}

/** The resource object of a delivery (`transaction{…}` or `transfer{…}`). */
export function resourceOf(d: Delivery, kind: ResourceKind): JsonRecord | undefined {
  const json = d.json;
  if (!isRecord(json)) return undefined;
  const inner = json[kind];
  return isRecord(inner) ? inner : undefined;
}

/**
 * Which of the four run events a delivery is. The `event` field when it names one; otherwise
 * inferred from the resource status (its value is not spelled out, GW-EVT-EVENT-NAME), so a
 * deviating `event` value never hides a delivery from the checks that judge it.
 */
export function eventOf(d: Delivery): GatewayEvent | undefined {
  const json = d.json;
  if (!isRecord(json)) return undefined;
  if (typeof json.event === 'string' && (RUN_EVENTS as readonly string[]).includes(json.event)) return json.event as GatewayEvent;
  // another documented event (e.g. transaction_updated for the same charge) is not one of ours
  if (typeof json.event === 'string' && OTHER_EVENTS.includes(json.event)) return undefined;
  const txn = resourceOf(d, 'transaction');
  if (txn) return txn.status === 'paid' ? 'transaction_paid' : 'transaction_created';
  const transfer = resourceOf(d, 'transfer');
  if (transfer) return transfer.status === 'paid' || transfer.status === 'completed' ? 'transfer_completed' : 'transfer_created';
  return undefined;
}

/** Deliveries about one resource (other files' webhooks receive every event of the account: filter by id). */
export function isAbout(kind: ResourceKind, id: string, event?: GatewayEvent): (d: Delivery) => boolean {
  return (d) => resourceOf(d, kind)?.id === id && (event === undefined || eventOf(d) === event);
}

function where(d: Delivery): string {
  return `delivery #${d.seq} to ${d.path}`;
}

/**
 * Transport checks of one delivery: POST with a JSON body ("Webhooks are HTTP POST callbacks with a
 * JSON body"), headers ("Content-Type | application/json", "User-Agent | Gateway"), and, for a
 * webhook with a signatureSecret, `ServiceGateway-Signature` ("`t=<epoch>,v1=<hmac>`"; "`v1` is the
 * lowercase hex HMAC-SHA256, keyed with the signatureSecret, over the text `<timestamp>.<JSON of the
 * payload>`"). A postbackUrl belongs to no webhook and has no secret: no signature is expected, one
 * is tolerated and noted. Which signing input matched is noted; a match only over re-serialised JSON
 * is a warning (GW-WH-SIGNATURE-HMAC ambiguity).
 */
export function verifyDeliveryTransport(d: Delivery, secret: string | undefined, run: CheckRun): 'raw-body' | 'compact-json' | undefined {
  run.record(verifyWebhookIsJsonPost(d, { requirements: ['GW-EVT-HTTP-POST-JSON'] }));
  run.record(verifyGatewayCallbackHeaders(d, { requirements: ['GW-WH-CONTENT-TYPE', 'GW-WH-USER-AGENT'] }));
  const header = d.headers[GATEWAY_SIGNATURE_HEADER];
  if (secret === undefined) {
    if (header !== undefined) run.note(`${where(d)} (postbackUrl, no signatureSecret) carries ServiceGateway-Signature ${show(header, 120)} (tolerated)`);
    return undefined;
  }
  const ctx: CheckContext = { requirements: ['GW-WH-SIGNATURE-HEADER', 'GW-WH-SIGNATURE-LOWER-HEX', 'GW-WH-SIGNATURE-HMAC', 'GW-AUTH-CALLBACKS-SIGNED'] };
  const finding = verifyGatewayWebhookSignature(d, secret, ctx);
  run.record(finding);
  if (finding) return undefined;
  const result = verifyGatewaySignature({ header, rawBody: d.rawBody, secret, receivedAt: d.receivedAt });
  if (result.matchedOver === 'compact-json') {
    run.record(makeFinding({ requirements: ['GW-WH-SIGNATURE-HMAC'] }, {
      code: 'signature.reserialized-body',
      title: 'the signature verifies only over re-serialised JSON, not over the raw body',
      severity: 'warning',
      expected: 'HMAC over "<t>.<raw request body>" (the likeliest reading of "JSON of the payload")',
      actual: `matched over compact JSON.stringify(JSON.parse(body)) only (${where(d)})`,
    }));
  }
  return result.matchedOver;
}

export interface ExpectedEvent {
  kind: ResourceKind;
  event: GatewayEvent;
  /** the resource id */
  id: string;
  /** the amount the resource was created with (cents) */
  amount: number;
}

const PAYLOAD_REQ: Record<ResourceKind, string> = { transaction: 'GW-EVT-TXN-PAYLOAD', transfer: 'GW-EVT-TRANSFER-PAYLOAD' };

/**
 * Payload shape ("Payload shapes"): "Transaction events: `id` (string UUID), `type` (`transaction`),
 * `event`, `scope` (`user`), `transaction{id, amount (integer cents), status, pix{endToEndId,
 * payerInfo{name, document}}}`"; "Transfer events: same envelope with `type` `transfer` and
 * `transfer{id, amount, status, pix{endToEndId, creditorAccount{name, document}}}`"; "Event payload
 * status for a completed transfer is `paid`". pix/endToEndId/payerInfo/creditorAccount before
 * payment or completion are not shown: tolerated absent or null on the *_created events.
 */
export function verifyEventPayload(d: Delivery, expected: ExpectedEvent): Finding[] {
  const findings: (Finding | undefined)[] = [];
  const req = PAYLOAD_REQ[expected.kind];
  const json = d.json;
  const ctx = (requirements: string[], subject: string, severity?: 'warning'): CheckContext => ({
    requirements,
    subject: `${subject} (${expected.event}, ${where(d)})`,
    ...(severity ? { severity } : {}),
  });
  const bad = (requirements: string[], title: string, expectedText: string, actual: string, severity: 'failure' | 'warning' = 'failure'): Finding =>
    makeFinding({ requirements }, { code: 'webhook.payload', title: `${title} (${expected.event})`, severity, expected: expectedText, actual: `${actual} (${where(d)})` });
  if (!isRecord(json)) return [bad([req, 'GW-EVT-HTTP-POST-JSON'], 'event body is not a JSON object', 'a JSON object', show(d.bodyText))];
  findings.push(verifyUuid(json.id, ctx(['GW-EVT-ID-UUID'], 'event id')));
  if (json.type !== expected.kind) findings.push(bad([req], 'event type is wrong', `type = "${expected.kind}"`, `type = ${show(json.type)}`));
  if (json.event !== expected.event) {
    findings.push(bad(['GW-EVT-EVENT-NAME'], 'event field does not name the delivered event', `event = "${expected.event}"`, `event = ${show(json.event)}`, 'warning'));
  }
  if (json.scope !== 'user') findings.push(bad(['GW-EVT-SCOPE-USER'], 'event scope is not "user"', 'scope = "user"', `scope = ${show(json.scope)}`));
  const inner = json[expected.kind];
  if (!isRecord(inner)) {
    findings.push(bad([req], `event has no ${expected.kind} object`, `${expected.kind}{id, amount, status, pix{…}}`, `${expected.kind} = ${kindOf(inner)} ${show(inner)}`));
    return findings.filter((f): f is Finding => f !== undefined);
  }
  const amountFinding = verifyIntegerCents(inner.amount, ctx([req, 'GW-MONEY-CENTS'], `${expected.kind}.amount`));
  findings.push(amountFinding);
  if (!amountFinding && inner.amount !== expected.amount) {
    // the text does not say whether the event amount is gross or net: a different integer is a warning
    findings.push(bad([req], `${expected.kind}.amount differs from the amount created`, `amount = ${expected.amount}`, `amount = ${show(inner.amount)}`, 'warning'));
  }
  if (typeof inner.status !== 'string') findings.push(bad([req], `${expected.kind}.status is not a string`, 'a status string', `${kindOf(inner.status)} ${show(inner.status)}`));
  const settled = expected.event === 'transaction_paid' || expected.event === 'transfer_completed';
  if (expected.event === 'transaction_paid' && inner.status !== 'paid') {
    findings.push(bad(['GW-EVT-TRANSACTION-PAID', req], 'transaction_paid does not carry status "paid"', 'transaction.status = "paid"', `status = ${show(inner.status)}`));
  }
  if (expected.event === 'transfer_completed' && inner.status !== 'paid') {
    findings.push(bad(['GW-EVT-TRANSFER-COMPLETED-PAID', req], 'transfer_completed does not carry status "paid"', 'transfer.status = "paid" ("Event payload status for a completed transfer is `paid`")', `status = ${show(inner.status)}`));
  }
  const pix = inner.pix;
  if (!settled) {
    if (pix !== undefined && pix !== null && !isRecord(pix)) findings.push(bad([req], `${expected.kind}.pix is not an object`, 'pix{…} (or absent before settlement)', `${kindOf(pix)} ${show(pix)}`));
    return findings.filter((f): f is Finding => f !== undefined);
  }
  if (!isRecord(pix)) {
    findings.push(bad([req], `${expected.kind}.pix is missing on a settled event`, 'pix{endToEndId, …}', `${kindOf(pix)} ${show(pix)}`));
    return findings.filter((f): f is Finding => f !== undefined);
  }
  findings.push(verifyEndToEndId(pix.endToEndId, ctx([req], `${expected.kind}.pix.endToEndId`)));
  const partyKey = expected.kind === 'transaction' ? 'payerInfo' : 'creditorAccount';
  const party = pix[partyKey];
  if (!isRecord(party)) {
    findings.push(bad([req], `${expected.kind}.pix.${partyKey} is missing on a settled event`, `${partyKey}{name, document}`, `${kindOf(party)} ${show(party)}`));
  } else {
    for (const key of ['name', 'document']) {
      if (typeof party[key] !== 'string') {
        // a sandbox may not know the (simulated) party: a missing value inside the object is a warning
        findings.push(bad([req], `${expected.kind}.pix.${partyKey}.${key} is not a string`, 'a string', `${kindOf(party[key])} ${show(party[key])}`, 'warning'));
      }
    }
  }
  return findings.filter((f): f is Finding => f !== undefined);
}

/** ISO check with the run's requirement ids, tolerating absence/null (fields "not shown" before an event). */
export function verifyOptionalIso(value: unknown, requirements: string[], subject: string): Finding | undefined {
  if (value === undefined || value === null) return undefined;
  return verifyIsoTimestamp(value, { requirements, subject });
}
