/**
 * Helpers shared by the partner suite (suites/partner/*.test.ts). Suite-side only: never reads the
 * reference or ../shared. Helpers here only act (requests, waits) and hand what they saw to the
 * partner rulebook (harness/rules/partner/), which judges it.
 *
 * Concurrency: vitest runs the partner files in parallel workers against ONE account, so nothing
 * here assumes global state. Charges carry a unique `external_ref` (webhook payloads carry no
 * charge id, so events are matched by it) and lists/statements are read relative to our own data.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { CheckTools, RunTools } from '../../harness/run/check.js';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse, PartnerChargeRequest, PartnerClient } from '../../harness/http/partner-client.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import { expectStatus } from '../../harness/rules/index.js';
import type { StatusExpectation } from '../../harness/rules/index.js';
import { acceptCreationWithoutKey, answerChargeLookup, chargeOf, expectChargeCreated, isEventTypeVariant, verifyChargeList } from '../../harness/rules/partner/index.js';
import type { Json, LocatedList, StateObservation } from '../../harness/rules/partner/index.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import type { ReceiverClient } from '../../harness/webhooks/receiver-client.js';
import { email, validAmount, asciiText } from '../../generators/index.js';
import { isRecord } from '../../harness/core/json.js';

export type { Json, LocatedList };
export { isRecord };

export const STATES = ['pending', 'paid', 'expired', 'canceled'] as const;

/** The partner webhook secret; the check is not run without one. */
export function webhookSecret(t: CheckTools): string {
  const secret = t.target.partner?.webhookSecret;
  if (!secret) return t.notRun('partner.webhooks', 'PARTNER_WEBHOOK_SECRET not set');
  return secret;
}

/** Where the partner webhook is registered (harness/config/target.ts: `${callback.publicUrl}/partner`). */
export const PARTNER_WEBHOOK_PATH = '/partner';

/**
 * How long a check waits for a webhook that should follow a state change: OUR patience, not a
 * contract timer ("Retry schedule and delivery timeout: not shown"); a webhook that did not come
 * within it is judged by judgeEventArrival (inconclusive without other evidence).
 */
export const WEBHOOK_WAIT_MS = 20_000;

/** A unique caller label: `external_ref` is how our events and charges are told apart from other workers'. */
export function uniqueRef(tag: string): string {
  return `ptc-${tag}-${randomUUID()}`;
}

/** A fresh amount in a range other checks do not use by accident (unique enough to find a posting). */
export function distinctiveAmount(): number {
  return 7_000_000 + Math.floor(Math.random() * 2_000_000);
}

/** Hands the status of `r` to expectStatus; true when it matched. */
export function status(run: CheckRun, r: ApiResponse, expected: StatusExpectation, requirements: RequirementId[]): boolean {
  return run.record(expectStatus(r.exchange, expected, { requirements }));
}

export function is2xx(r: ApiResponse): boolean {
  return r.status >= 200 && r.status <= 299;
}

/** A body the contract accepts: amount > 0 and a unique external_ref. */
export function chargeBody(tag: string, extra: Partial<PartnerChargeRequest> = {}): PartnerChargeRequest {
  return { amount_cents: 1 + Math.floor(Math.random() * 99_999), description: `conformance ${tag}`, external_ref: uniqueRef(tag), ...extra };
}

/** Valid creation bodies: generated amounts, optional description/e-mail/expiry, a unique external_ref. */
export function validChargeBody(tag: string): Arbitrary<PartnerChargeRequest> {
  return fc
    .record(
      {
        // "greater than zero" is the only rule; amounts stay at everyday sizes (up to R$ 10 000) so a
        // sandbox's own per-charge ceiling, which no test of ours can tell from a deviation, never decides
        amount_cents: fc.oneof(fc.constantFrom(1, 2, 99, 100, 101, 1050), validAmount({ min: 1, max: 1_000_000 })),
        description: asciiText({ min: 1, max: 300 }),
        customer_email: email(),
        expires_in_seconds: fc.oneof(fc.constantFrom(60, 61, 3600, 86_399, 86_400), fc.integer({ min: 60, max: 86_400 })),
        // surrounding and inner spaces and punctuation: "returned unchanged" means byte for byte (no
        // control characters: the character set is not stated, and refusing a tab is a fair choice)
        padding: fc.constantFrom('', ' ', '  '),
      },
      { requiredKeys: ['amount_cents', 'padding'] },
    )
    .map(({ padding, ...rest }) => ({ ...rest, external_ref: `${padding}${uniqueRef(tag)} #${padding}`.slice(0, 120) }));
}

export interface Created {
  response: ApiResponse;
  /** the charge when the creation answered 200 with an object that has an id */
  charge?: Json;
  id?: string;
}

/** POST /business/pix-charges, handing the status to the rule of "200: PIX charge.". */
export async function createCharge(run: CheckRun, client: PartnerClient, body: PartnerChargeRequest | unknown, opts: { idempotencyKey?: string } = {}): Promise<Created> {
  return judgeCreated(run, await client.createCharge(body, opts), opts);
}

/**
 * The judging half of {@link createCharge}, for creations sent together (`t.all`) and judged
 * afterwards in item order.
 */
export function judgeCreated(run: CheckRun, response: ApiResponse, opts: { idempotencyKey?: string } = {}): Created {
  run.judge(expectChargeCreated, response);
  // "Optional header `Idempotency-Key`": a creation without it is served like any other
  if (opts.idempotencyKey === undefined) run.judge(acceptCreationWithoutKey, response);
  const charge = response.status === 200 ? chargeOf(response.json) : undefined;
  const id = charge && typeof charge.id === 'string' && charge.id !== '' ? charge.id : undefined;
  return { response, ...(charge ? { charge } : {}), ...(id ? { id } : {}) };
}

/** The rules every creation through {@link createCharge} or {@link judgeCreated} is judged by. */
export const CREATES_CHARGES = [expectChargeCreated, acceptCreationWithoutKey] as const;

/** Creates a charge or stops the check as "not run" (a precondition the target did not provide). */
export async function mustCreate(t: RunTools & { notRun(capability: string, reason: string): never }, body: PartnerChargeRequest, client: PartnerClient = t.partner()): Promise<{ id: string; charge: Json; response: ApiResponse }> {
  const created = await createCharge(t.run, client, body);
  if (!created.id || !created.charge) {
    // the creation failure is already recorded; the rest of the check cannot run
    t.run.note(`precondition: charge creation answered ${created.response.status}; later steps skipped`);
    if (t.run.failures.length) return t.run.finish() as never;
    t.notRun('partner', `charge creation answered ${created.response.status}`);
  }
  return { id: created.id, charge: created.charge, response: created.response };
}

export interface Lookup extends StateObservation {
  response: ApiResponse;
  state?: string;
  charge?: Json;
}

/** GET by id ("Returns the current state of the charge"); the state when the lookup answered 2xx. */
export async function lookupState(run: CheckRun, client: PartnerClient, id: string): Promise<Lookup> {
  const response = await client.getCharge(id);
  run.judge(answerChargeLookup, response);
  const charge = is2xx(response) ? chargeOf(response.json) : undefined;
  const state = charge && typeof charge.status === 'string' ? charge.status : undefined;
  return { response, answer: response, ...(state !== undefined ? { state } : {}), ...(charge ? { charge } : {}) };
}

/** Lists (optionally filtered) and locates the array with the one list locator (harness/rules/partner/list.ts). */
export async function listCharges(run: CheckRun, client: PartnerClient, filter: { status?: string } = {}): Promise<{ response: ApiResponse; list?: LocatedList }> {
  return judgeListed(run, await client.listCharges(filter), filter);
}

/** The judging half of {@link listCharges}, for lists fetched together (`t.all`) and judged afterwards in item order. */
export function judgeListed(run: CheckRun, response: ApiResponse, filter: { status?: string } = {}): { response: ApiResponse; list?: LocatedList } {
  if (!status(run, response, '2xx', ['PT-LIST-ACCOUNT-SCOPE'])) return { response };
  const { judgement, list } = verifyChargeList(response.json, { requirements: ['PT-LIST-ACCOUNT-SCOPE'], exchanges: [response.exchange] });
  run.record(judgement);
  if (list) run.note(`list envelope: ${list.shape}${list.paged ? ' with paging hints' : ''} (${list.items.length} item(s)${filter.status !== undefined ? `, status=${filter.status}` : ''})`);
  return list ? { response, list } : { response };
}

export async function getStatement(run: CheckRun, client: PartnerClient): Promise<{ response: ApiResponse; statement?: Json }> {
  const response = await client.getFinance();
  if (!status(run, response, '2xx', ['PT-FIN-GET'])) return { response };
  return isRecord(response.json) ? { response, statement: response.json } : { response };
}

// ── webhooks ─────────────────────────────────────────────────────────────────────────────────────

/** The ASCII unique token inside one of our labels (`ptc-<tag>-<uuid>`): survives any JSON escaping. */
export function refToken(ref: string): string {
  return /ptc-[A-Za-z0-9-]*?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(ref)?.[0] ?? ref;
}

/**
 * Our deliveries to `/partner` of `type`: the body mentions our label's unique token (so an event
 * whose external_ref was altered, e.g. trimmed, is still found and judged, not reported missing).
 */
export function eventMatcher(ref: string, type?: string, amount?: number, options: { exact?: boolean } = {}): (d: Delivery) => boolean {
  const token = refToken(ref);
  return (d) => {
    const event = isRecord(d.json) ? d.json : undefined;
    const mentions = d.bodyText.includes(token) || (event !== undefined && JSON.stringify(event).includes(token));
    // an event that lost the external_ref is still ours when it carries our distinctive amount: it
    // is then judged (external_ref missing), not reported as never delivered
    const sameAmount = amount !== undefined && isRecord(event?.data) && event.data.amount_cents === amount;
    if (!mentions && !sameAmount) return false;
    // a mis-spelt name of this very event (BUSINESS_PIX_CREATED) is ours too: judged, not "missing"
    return type === undefined || event?.type === type || (options.exact !== true && isEventTypeVariant(event?.type, type));
  };
}

/** How long a variant-named delivery waits for the documented name of the same event before it is the one judged. */
const VARIANT_GRACE_MS = 3_000;

function typeOf(d: Delivery): unknown {
  return isRecord(d.json) ? d.json.type : undefined;
}

/**
 * The event of `type` for `marker`. A delivery under a variant of the name (BUSINESS_PIX_CREATED) is
 * found and judged, but only when the documented name does not arrive as well: the contract lists
 * the events it requires, not that no other event is sent, so an implementation that also sends an
 * alias is judged on its documented event (a short grace covers the alias arriving first).
 */
export async function waitForEvent(receiver: ReceiverClient, marker: string, type: string, timeoutMs = WEBHOOK_WAIT_MS, amount?: number): Promise<Delivery | undefined> {
  const found = await receiver.waitFor(eventMatcher(marker, type, amount), { path: PARTNER_WEBHOOK_PATH, timeoutMs });
  if (found === undefined || typeOf(found) === type) return found;
  return (await receiver.waitFor(eventMatcher(marker, type, amount, { exact: true }), { path: PARTNER_WEBHOOK_PATH, timeoutMs: VARIANT_GRACE_MS })) ?? found;
}

/**
 * The deliveries of one event type among `deliveries` (all matched by {@link eventMatcher}): those
 * under the documented name when any is, otherwise the variant-named ones (judged as mis-named).
 * An alias event sent beside the documented one is another event, not another confirmation.
 */
export function preferDocumentedType(deliveries: readonly Delivery[], type: string): Delivery[] {
  const exact = deliveries.filter((d) => typeOf(d) === type);
  return exact.length > 0 ? exact : [...deliveries];
}

/**
 * The attempts of one event: the deliveries matched by `matcher` under the same type string as
 * `first` (a redelivery repeats its event; an alias event under another name is another stream).
 */
export function sameEventStream(first: Delivery, matcher: (d: Delivery) => boolean): (d: Delivery) => boolean {
  const type = typeOf(first);
  return (d) => matcher(d) && typeOf(d) === type;
}

/** Bounded poll (no fixed sleep): resolves when `probe` returns a value or `deadline` passes. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, deadlineMs: number, intervalMs = 250): Promise<T | undefined> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const left = deadlineMs - Date.now();
    if (left <= 0) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, left)));
  }
}

/** Milliseconds until an ISO timestamp (negative when past); undefined when it does not parse. */
export function msUntil(iso: unknown): number | undefined {
  if (typeof iso !== 'string') return undefined;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : at - Date.now();
}

/**
 * How many top-up creations are in flight at once: at least the 10 these files always sent together,
 * and as many as the worker's connection pool holds against a remote target (harness/run/check.ts
 * sizes it at twice `--concurrency`), so a target 100 ms away is filled in a dozen round trips.
 */
export function fillWidth(t: RunTools): number {
  return Math.max(10, 2 * t.parallel);
}
