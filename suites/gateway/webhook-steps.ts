/**
 * Acting steps shared by the gateway suites of part B (pix-transfers, webhooks, atomicity, isolation):
 * valid request bodies, funding the sandbox balance, webhook registration, and reading deliveries
 * (which event, about which resource). Every judgement of a delivery is a rule in
 * harness/rules/gateway/webhooks.ts; these steps only hand observations to rules.
 *
 * Contract: gateway-api.md. Quotes are given where each rule is applied.
 */
import { randomUUID } from 'node:crypto';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse, GatewayClient, PixChargeRequest, TransferRequest } from '../../harness/http/gateway-client.js';
import type { Judgement, RequirementId } from '../../harness/rules/finding.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { expectStatus, show, verifyGatewayCallbackHeaders, verifyWebhookIsJsonPost } from '../../harness/rules/index.js';
import { describeGatewaySignature, verifyGatewayDeliverySignature, verifyWebhookId } from '../../harness/rules/gateway/webhooks.js';
import type { GatewayEvent, ResourceKind } from '../../harness/rules/gateway/webhooks.js';
import { verifyIsoTimestampIfPresent } from '../../harness/rules/gateway/fields.js';
import { GATEWAY_SIGNATURE_HEADER } from '../../harness/webhooks/signatures.js';
import { dataOf as jsonData, is2xx as statusIs2xx, isRecord } from '../../harness/core/json.js';
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

const PIXIN_SETUP: RequirementId[] = ['GW-PIXIN-CREATE-200', 'GW-PIXIN-CREATE-PENDING'];
const PAY_SETUP: RequirementId[] = ['GW-PIXIN-PAY-200', 'GW-PIXIN-PAY-PAID'];

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
  return judgeWebhookRegistration(gw, run, await sendWebhookRegistration(gw, callbackUrl, events));
}

/** A registration sent, not yet judged (so several can be in flight and judged in order). */
export interface SentWebhookRegistration {
  path: string;
  url: string;
  events: string[];
  r: ApiResponse;
}

/** The request half of {@link registerWebhook}: records nothing. */
export async function sendWebhookRegistration(gw: GatewayClient, callbackUrl: (path: string) => string, events: string[]): Promise<SentWebhookRegistration> {
  const path = receiverPath();
  const url = callbackUrl(path);
  return { path, url, events, r: await gw.createWebhook({ url, events }) };
}

/** The judging half of {@link registerWebhook}: records a failure unless 2xx with an id. */
export function judgeWebhookRegistration(gw: GatewayClient, run: CheckRun, sent: SentWebhookRegistration): RegisteredWebhook | undefined {
  const { path, url, events, r } = sent;
  run.record(expectStatus(r.exchange, '2xx', { requirements: ['GW-WH-CREATE-200'] }));
  const data = dataOf(r);
  const id = data?.id;
  if (!is2xx(r)) return undefined;
  run.record(verifyWebhookId(id, { exchanges: [r.exchange] }));
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  const secret = typeof data?.signatureSecret === 'string' ? data.signatureSecret : undefined;
  if (secret !== undefined) gw.http.redactor.register(secret, 'GATEWAY_WEBHOOK_SECRET');
  return { id, secret, path, url, events, response: r };
}

/**
 * Removes webhooks this check registered (cleanup: any 2xx; the webhook suite judges the route
 * itself). Nothing is recorded and each DELETE names another webhook: they go out together.
 */
export async function removeWebhooks(gw: GatewayClient, hooks: ReadonlyArray<RegisteredWebhook | undefined>): Promise<void> {
  const quiet = gw.withObserver(undefined);
  await Promise.all(hooks.map((hook) => (hook ? quiet.deleteWebhook(hook.id).catch(() => undefined) : undefined)));
}

// ── deliveries ────────────────────────────────────────────────────────────────────────────────

export type { GatewayEvent, ResourceKind };
export const RUN_EVENTS: readonly GatewayEvent[] = ['transaction_created', 'transaction_paid', 'transfer_created', 'transfer_completed'];
/** "updated to another status": subscribed besides the run events, to see a settlement announced under that name. */
export const UPDATED_EVENTS: readonly string[] = ['transaction_updated', 'transfer_updated'];
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
 * Hands one delivery's transport to the rules: POST with a JSON body, the callback headers, and, for a
 * webhook with a signatureSecret, `ServiceGateway-Signature` (harness/rules/gateway/webhooks.ts). A
 * postbackUrl belongs to no webhook and has no secret: no signature is expected, one is noted. Notes
 * what the target chose where the contract is open (signing input, unit of `t`). Returns the signing
 * input that matched, if any.
 */
export function checkDeliveryTransport(d: Delivery, secret: string | undefined, run: CheckRun): 'raw-body' | 'compact-json' | undefined {
  const at = { subject: where(d) };
  run.record(verifyWebhookIsJsonPost(d, { subject: where(d), requirements: ['GW-EVT-HTTP-POST-JSON'] }));
  run.record(verifyGatewayCallbackHeaders(d, { subject: where(d), requirements: ['GW-WH-CONTENT-TYPE', 'GW-WH-USER-AGENT'] }));
  const header = d.headers[GATEWAY_SIGNATURE_HEADER];
  if (secret === undefined) {
    if (header !== undefined) run.note(`${where(d)} (postbackUrl, no signatureSecret) carries ServiceGateway-Signature ${show(header, 120)} (tolerated)`);
    return undefined;
  }
  if (!run.record(verifyGatewayDeliverySignature(d, secret, at))) return undefined;
  const seen = describeGatewaySignature(d, secret);
  if (seen.timestampUnit === 'milliseconds') run.note(`${where(d)}: ServiceGateway-Signature t is an epoch in milliseconds (the unit of <epoch> is not stated; tolerated)`);
  return seen.matchedOver;
}

/**
 * ISO 8601 check of a field that may be absent or null before an event ("not shown" until then):
 * a thin step over the one timestamp rule (harness/rules/gateway/fields.ts).
 */
export function verifyOptionalIso(value: unknown, requirements: RequirementId[], subject: string): Judgement {
  return verifyIsoTimestampIfPresent(value, { requirements, subject });
}
