/**
 * Atomicity: gateway-api.md "States and transitions": "Transitions are atomic: concurrent
 * confirmations of the same resource never apply the effect twice." and "POST /api/v1/pix/out/pixkey":
 * "Resending with the same key and body returns the original response and never duplicates the
 * transfer." Each check fires N identical requests at the same instant (t.burst, N from a generator)
 * and hands the answers and the event occurrences to harness/rules/gateway/atomicity.ts.
 *
 * Balance. The sandbox balance is account-wide and other checks move it at the same time, so the
 * balance delta across a burst is only recorded as an observation: statuses and events decide
 * (issue 14). A burst is timing-sensitive (a race window can be a millisecond wide), so it runs
 * with the target to itself (`t.alone`: no other check's request to the gateway meanwhile); the
 * waits for the events that follow do not hold it. Amounts are small (a transfer above a manual-review threshold may be held `pending`,
 * which the contract allows: the check sees the state it got before racing /complete).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { GatewayClient } from '../../harness/http/gateway-client.js';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { applyTransitionsOnce } from '../../harness/rules/gateway/atomicity.js';
import { ensureChargePaid, honourPixChargeRequest } from '../../harness/rules/gateway/pix-charges.js';
import { honourIdempotencyKey, honourTransferRequest } from '../../harness/rules/gateway/pix-transfers.js';
import { deliverTableEvents } from '../../harness/rules/gateway/webhooks.js';
import { NotRunError } from '../../harness/run/check-run.js';
import {
  balanceCents,
  chargeBody,
  dataOf,
  is2xx,
  isAbout,
  MOVES_MONEY,
  occurrenceOf,
  receiverPath,
  registerWebhook,
  resourceOf,
  removeWebhooks,
  transferBody,
} from './webhook-steps.js';
import type { GatewayEvent, ResourceKind } from './webhook-steps.js';

const AREA = 'Atomicity';
/** A charge amount well inside any limit (maximum amounts are not shown). */
const CHARGE_AMOUNT = 12_345;
/** The transfer raced by /complete: far below the funding charge's credit, small enough to avoid manual review. */
const TRANSFER_AMOUNT = 1_234;
/** The suite's patience for a delivery ("Retry schedule and delivery timeout: not shown"). */
const DELIVERY_WAIT_MS = 20_000;
/** After the first event arrived, how long further occurrences are awaited. */
const EXTRA_EVENT_GRACE_MS = 1_000;
/** Burst sizes: "N concurrent confirmations". */
const burstSizes = fc.integer({ min: 5, max: 20 });

/**
 * The burst size for a check, drawn from {@link burstSizes} with the run's seed (replayable). Not a
 * t.property: shrinking a race would re-run whole bursts and prove nothing more.
 */
function burstSize(t: CheckTools, salt: number): number {
  const [n] = fc.sample(burstSizes, { seed: t.settings.seed + salt, numRuns: 1 });
  return n ?? 10;
}

/** A pending charge of {@link CHARGE_AMOUNT}; NotRunError when none can be created (the status rule records why). */
async function pendingCharge(gw: GatewayClient, run: CheckRun, postbackUrl: string): Promise<{ id: string; amount: number; fees: number }> {
  const body = chargeBody(CHARGE_AMOUNT, postbackUrl);
  const r = await gw.createPixCharge(body);
  const data = dataOf(r);
  run.judge(honourPixChargeRequest, { case: 'valid', body, answer: r });
  if (is2xx(r) && typeof data?.id === 'string') return { id: data.id, amount: CHARGE_AMOUNT, fees: Number.isSafeInteger(data.fees) ? (data.fees as number) : 0 };
  throw new NotRunError('gateway', 'no charge could be created (see the exchanges)');
}

/** The balance delta across a burst, as an observation only (other checks move the same balance). */
function noteBalance(run: CheckRun, before: number | undefined, after: number | undefined, what: string): void {
  if (before === undefined || after === undefined) return;
  run.note(`${what}: pix.balance moved by ${after - before} cents across the burst (account-wide: other checks move it too; not judged)`);
}

/**
 * "never apply the effect twice", seen through the events: at most one occurrence (by endToEndId
 * or event id) of `event` for the resource at each destination. A destination that saw nothing
 * within our wait is judged by the event-arrival rule (a warning unless the event reached the other one).
 */
async function atMostOneOccurrence(t: CheckTools, run: CheckRun, paths: { path: string; label: string; destination: 'webhook' | 'postback' }[], kind: ResourceKind, id: string, event: GatewayEvent): Promise<void> {
  const rc = t.receiver();
  const about = isAbout(kind, id, event);
  const started = Date.now();
  const firsts = await Promise.all(paths.map(({ path }) => rc.waitFor(about, { path, timeoutMs: DELIVERY_WAIT_MS })));
  const waitedMs = Date.now() - started;
  await Promise.all(paths.map(async ({ path, label, destination }, k) => {
    const first = firsts[k];
    run.judge(deliverTableEvents, { event, kind, id, destination, label, delivery: first, waitedMs, seenElsewhere: firsts.some((f, j) => j !== k && f !== undefined) });
    if (!first) return;
    // wait a little for a further, distinct occurrence (returns as soon as one shows up)
    const firstKey = occurrenceOf(first, kind);
    await rc.waitForCount((d) => about(d) && occurrenceOf(d, kind) !== firstKey, 1, { path, timeoutMs: EXTRA_EVENT_GRACE_MS });
    const occurrences = new Map<string, Delivery[]>();
    for (const d of (await rc.deliveries({ path })).filter(about)) {
      const key = occurrenceOf(d, kind) ?? `seq:${d.seq}`;
      occurrences.set(key, [...(occurrences.get(key) ?? []), d]);
    }
    const duplicates = [...occurrences.values()].filter((list) => list.length > 1).length;
    if (duplicates) run.note(`${label}: ${duplicates} ${event} occurrence(s) delivered more than once (tolerated: "The same event id can arrive more than once")`);
    run.judge(applyTransitionsOnce, { case: 'events', event, kind, label, occurrences: [...occurrences.keys()] });
  }));
}

check('concurrent /pay of one charge: one success, one transaction_paid', {
  id: 'gateway.atomicity.concurrent-pay', api: 'gateway', area: AREA, severity: 'critical', waits: true,
  rules: [...MOVES_MONEY, applyTransitionsOnce, deliverTableEvents],
}, async (t) => {
  const n = burstSize(t, 1);
  const gw = t.gateway();
  const run = t.run;
  const hook = await registerWebhook(gw, run, t.callbackUrl, ['transaction_paid']);
  try {
    const postback = receiverPath();
    const charge = await pendingCharge(gw, run, t.callbackUrl(postback));
    // the balance around the burst is an observation; only the burst needs the target to itself
    const before = await balanceCents(gw, run);
    const burst = await t.alone(() => t.burst('gateway', n, () => gw.payPixCharge(charge.id)));
    const after = await balanceCents(gw, run);
    run.note(`${n} concurrent /pay, start spread ${burst.startSpreadMs.toFixed(1)} ms: ${burst.values.map((r) => r.status).join(', ')}`);
    // "400 charge no longer pending"
    run.judge(applyTransitionsOnce, { case: 'burst', confirmation: 'pay', answers: burst.values });
    noteBalance(run, before, after, 'credit');
    const paths = [{ path: postback, label: 'postbackUrl', destination: 'postback' as const }, ...(hook ? [{ path: hook.path, label: `webhook ${hook.id}`, destination: 'webhook' as const }] : [])];
    if (burst.values.some(is2xx)) await atMostOneOccurrence(t, run, paths, 'transaction', charge.id, 'transaction_paid');
  } finally {
    await removeWebhooks(gw, [hook]);
  }
});

check('concurrent /complete of one transfer: one success, one transfer_completed', {
  id: 'gateway.atomicity.concurrent-complete', api: 'gateway', area: AREA, severity: 'critical', waits: true,
  rules: [...MOVES_MONEY, honourTransferRequest, applyTransitionsOnce, deliverTableEvents],
}, async (t) => {
  const n = burstSize(t, 2);
  const gw = t.gateway();
  const run = t.run;
  const hook = await registerWebhook(gw, run, t.callbackUrl, ['transfer_completed']);
  try {
    // funding: one charge paid once, BEFORE the transfer: its credit (≈ 10× the transfer) is this
    // check's own money on the account-wide balance whatever other checks do meanwhile
    const charge = await pendingCharge(gw, run, t.callbackUrl(receiverPath()));
    const paid = await gw.payPixCharge(charge.id);
    run.judge(ensureChargePaid, { answer: paid, chargeId: charge.id });
    if (!is2xx(paid)) return;
    const postback = receiverPath();
    const body = transferBody(TRANSFER_AMOUNT, { postbackUrl: t.callbackUrl(postback) });
    const created = await gw.createTransfer(body);
    const data = dataOf(created);
    if (!is2xx(created) || typeof data?.id !== 'string') {
      if (created.status >= 400 && created.status <= 499 && created.status !== 429) throw new NotRunError('gateway', `a transfer of ${TRANSFER_AMOUNT} cents was refused with ${created.status}`);
      run.judge(honourTransferRequest, { case: 'valid', body, answer: created });
      return;
    }
    // see the state before racing: only a banking_processing transfer can be completed ("sandbox
    // credentials; no manual review → banking_processing"); one held for review is not raced
    if (data.status !== 'banking_processing') {
      run.note(`the transfer was created ${String(data.status)}`);
      throw new NotRunError('gateway', `the transfer was created with status ${JSON.stringify(data.status)}, not banking_processing (e.g. held for manual review): /complete is not raced`);
    }
    const transferId = data.id;
    const before = await balanceCents(gw, run);
    const burst = await t.alone(() => t.burst('gateway', n, () => gw.completeTransfer(transferId)));
    const after = await balanceCents(gw, run);
    run.note(`${n} concurrent /complete, start spread ${burst.startSpreadMs.toFixed(1)} ms: ${burst.values.map((r) => r.status).join(', ')}`);
    // "400 already completed or canceled."
    run.judge(applyTransitionsOnce, { case: 'burst', confirmation: 'complete', answers: burst.values });
    noteBalance(run, before, after, 'debit');
    const paths = [{ path: postback, label: 'postbackUrl', destination: 'postback' as const }, ...(hook ? [{ path: hook.path, label: `webhook ${hook.id}`, destination: 'webhook' as const }] : [])];
    if (burst.values.some(is2xx)) await atMostOneOccurrence(t, run, paths, 'transfer', transferId, 'transfer_completed');
  } finally {
    await removeWebhooks(gw, [hook]);
  }
});

check('concurrent transfers with one idempotency key and body create one transfer', {
  id: 'gateway.atomicity.concurrent-same-key', api: 'gateway', area: AREA, severity: 'critical', waits: true,
  rules: [honourIdempotencyKey],
}, async (t) => {
  const n = burstSize(t, 3);
  const gw = t.gateway();
  const run = t.run;
  const key = randomUUID();
  const postback = receiverPath();
  const body = transferBody(321, { postbackUrl: t.callbackUrl(postback) });
  const burst = await t.alone(() => t.burst('gateway', n, () => gw.createTransfer(body, { idempotencyKey: key })));
  run.note(`${n} concurrent creations with one key, start spread ${burst.startSpreadMs.toFixed(1)} ms: ${burst.values.map((r) => r.status).join(', ')}`);
  // one transfer among the 2xx; a 409 warns; an "in progress" 4xx is accepted (noted above)
  run.judge(honourIdempotencyKey, { case: 'burst', body, answers: burst.values });
  const ids = [...new Set(burst.values.filter(is2xx).map((r) => dataOf(r)?.id))];
  const id = ids[0];
  if (ids.length !== 1 || typeof id !== 'string') return;
  // a resend after the burst: "returns the original response"
  const replay = await gw.createTransfer(body, { idempotencyKey: key });
  const original = burst.values.find((r) => is2xx(r) && dataOf(r)?.id === id);
  run.judge(honourIdempotencyKey, { case: 'replay', original: original ?? { id }, replay });
  // "never duplicates the transfer": every transfer_created at this body's postbackUrl is about the same id
  const rc = t.receiver();
  const first = await rc.waitFor(isAbout('transfer', id, 'transfer_created'), { path: postback, timeoutMs: DELIVERY_WAIT_MS });
  if (!first) {
    run.note('transfer_created was not seen at the postbackUrl: duplicate detection by events skipped (the webhook suite judges delivery)');
    return;
  }
  const other = await rc.waitFor((d) => {
    const otherId = resourceOf(d, 'transfer')?.id;
    return typeof otherId === 'string' && otherId !== id;
  }, { path: postback, timeoutMs: EXTRA_EVENT_GRACE_MS });
  run.judge(honourIdempotencyKey, { case: 'postback', transferId: id, other });
});
