/**
 * Atomicity: gateway-api.md "States and transitions": "Transitions are atomic: concurrent
 * confirmations of the same resource never apply the effect twice." and "POST /api/v1/pix/out/pixkey":
 * "Resending with the same key and body returns the original response and never duplicates the
 * transfer." Each check fires N identical requests at the same instant (t.burst, N from a generator).
 *
 * Balance soundness. The sandbox balance is account-wide and other test files move it at the same
 * time (each with charges of at most a few R$ 10 000). So the effect is measured with LARGE amounts
 * (R$ 1 million): one credit/debit moves the balance by ≈ A, a double one by ≈ 2A, and only a
 * concurrent movement of more than A/2 (R$ 500 000) inside the burst window could blur the two. When
 * the target refuses such an amount (maximum amounts are not shown), a small amount is used and a
 * balance anomaly is only a warning. The status codes and the events give the verdict independently.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse, GatewayClient } from '../../harness/http/gateway-client.js';
import type { CheckRun } from '../../harness/run/session.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { expectStatus, makeFinding, show } from '../../harness/rules/index.js';
import { NotRunError } from '../../harness/run/session.js';
import {
  balanceCents,
  chargeBody,
  dataOf,
  is2xx,
  isAbout,
  occurrenceOf,
  receiverPath,
  registerWebhook,
  resourceOf,
  removeWebhooks,
  transferBody,
} from './webhook-steps.js';
import type { GatewayEvent, ResourceKind } from './webhook-steps.js';

const AREA = 'Atomicity';
/** Large first (a sound balance verdict), small when the target refuses large amounts. */
const AMOUNTS = [100_000_000, 1_000_000] as const;
const LARGE = AMOUNTS[0];
const DELIVERY_TIMEOUT_MS = 20_000;
/** After the first event arrived, how long further occurrences are awaited. */
const EXTRA_EVENT_GRACE_MS = 1_000;
/** Burst sizes: "N concurrent confirmations". */
const burstSizes = fc.integer({ min: 5, max: 20 });

/**
 * The burst size for a check, drawn from {@link burstSizes} with the run's seed (replayable). Not a
 * t.property: shrinking a race would re-run bursts of R$ 1 million charges and prove nothing more.
 */
function burstSize(t: CheckTools, salt: number): number {
  const [n] = fc.sample(burstSizes, { seed: t.settings.seed + salt, numRuns: 1 });
  return n ?? 10;
}

/** A charge of the largest amount the target accepts; NotRunError when it accepts none. */
async function bigCharge(gw: GatewayClient, run: CheckRun, postbackUrl: string): Promise<{ id: string; amount: number; fees: number }> {
  for (const amount of AMOUNTS) {
    const r = await gw.createPixCharge(chargeBody(amount, postbackUrl));
    const data = dataOf(r);
    if (is2xx(r) && typeof data?.id === 'string') return { id: data.id, amount, fees: Number.isSafeInteger(data.fees) ? (data.fees as number) : 0 };
    if (r.status >= 400 && r.status <= 499) {
      // "Rate-limit thresholds and maximum amounts: not shown": refusing a large amount is allowed
      run.note(`a PIX charge of ${amount} cents was refused with ${r.status}; trying a smaller amount`);
      continue;
    }
    run.record(expectStatus(r.exchange, '2xx', { requirements: ['GW-PIXIN-CREATE-200'] }));
    break;
  }
  throw new NotRunError('gateway', 'no funding charge could be created (see the exchanges)');
}

/**
 * Judges the non-winning answers of a burst of identical confirmations: `expected` is the documented
 * status for "no longer pending / already completed"; 429 is tolerated; another 4xx is a warning
 * (the text does not say what a request racing an in-flight confirmation gets); 5xx fails.
 */
function judgeLosers(run: CheckRun, losers: ApiResponse[], expected: number, requirements: string[]): void {
  const seen = new Map<number, number>();
  for (const r of losers) {
    seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
    if (r.status >= 400 && r.status <= 499 && r.status !== expected && r.status !== 429) {
      run.record(makeFinding({ requirements, exchanges: [r.exchange] }, {
        code: 'atomicity.loser-status', title: `a concurrent duplicate confirmation answered ${r.status}`, severity: 'warning',
        expected: `HTTP ${expected} (no longer in the source state)`, actual: `HTTP ${r.status}`,
      }));
    } else {
      run.record(expectStatus(r.exchange, [expected, 429], { requirements }));
    }
  }
  run.note(`concurrent duplicates answered: ${[...seen].map(([s, n]) => `${s} ×${n}`).join(', ') || 'none'}`);
}

/**
 * "never apply the effect twice", seen through the events: at most one occurrence (by endToEndId
 * or event id) of `event` for the resource at a subscribed webhook and at the postbackUrl.
 * Duplicate deliveries of one occurrence are allowed ("The same event id can arrive more than once").
 */
async function atMostOneOccurrence(t: CheckTools, run: CheckRun, paths: { path: string; label: string }[], kind: ResourceKind, id: string, event: GatewayEvent, requirements: string[]): Promise<void> {
  const rc = t.receiver();
  const about = isAbout(kind, id, event);
  await Promise.all(paths.map(async ({ path, label }) => {
    const first = await rc.waitFor(about, { path, timeoutMs: DELIVERY_TIMEOUT_MS });
    if (!first) {
      run.record(makeFinding({ requirements: [label.startsWith('webhook') ? 'GW-EVT-DELIVERY-SUBSCRIBED' : 'GW-EVT-POSTBACK', 'GW-SANDBOX-SIM-EVENTS'] }, {
        code: 'webhook.not-delivered', title: `${event} of ${kind} ${id} never reached the ${label}`, severity: 'failure',
        expected: `a delivery within ${DELIVERY_TIMEOUT_MS / 1000} s`, actual: 'none',
      }));
      return;
    }
    // wait a little for a further, distinct occurrence (returns as soon as one shows up)
    const firstKey = occurrenceOf(first, kind);
    await rc.waitForCount((d) => about(d) && occurrenceOf(d, kind) !== firstKey, 1, { path, timeoutMs: EXTRA_EVENT_GRACE_MS });
    const occurrences = new Map<string, Delivery[]>();
    for (const d of (await rc.deliveries({ path })).filter(about)) {
      const key = occurrenceOf(d, kind) ?? `seq:${d.seq}`;
      occurrences.set(key, [...(occurrences.get(key) ?? []), d]);
    }
    const duplicates = [...occurrences.values()].filter((list) => list.length > 1).length;
    if (duplicates) run.note(`${label}: ${duplicates} ${event} occurrence(s) delivered more than once (tolerated)`);
    if (occurrences.size > 1) {
      run.record(makeFinding({ requirements }, {
        code: 'atomicity.event-twice', title: `${event} fired ${occurrences.size} times for one ${kind}`, severity: 'failure',
        expected: `one ${event} occurrence (distinct endToEndId / event id) at the ${label}`,
        actual: `${occurrences.size} occurrences: ${[...occurrences.keys()].join(', ')}`,
      }));
    }
  }));
}

/**
 * Balance verdict for a burst: `single` bounds the expected single movement (sign included); the
 * effect counts as applied twice from one and a half single movements (a margin of amount/2 for
 * other files' concurrent movements). `large`: funded with the R$ 1 million amount (sound verdict).
 */
function judgeBalance(run: CheckRun, before: number | undefined, after: number | undefined, single: { min: number; max: number }, amount: number, large: boolean, what: string, requirements: string[]): void {
  if (before === undefined || after === undefined) return;
  const delta = after - before;
  run.note(`${what}: balance moved by ${delta} cents across the burst (one ${what} expected between ${single.min} and ${single.max}, other files may move it concurrently)`);
  // "twice" means at least one and a half single effects in the same direction
  const sign = single.max >= 0 ? 1 : -1;
  const threshold = Math.abs(single.min) + amount / 2;
  if (sign * delta >= threshold) {
    run.record(makeFinding({ requirements }, {
      code: 'atomicity.balance-twice', title: `the balance moved as if the ${what} were applied more than once`,
      // with the small fallback amounts other files' concurrent movements could blur the verdict: a warning only
      severity: large ? 'failure' : 'warning',
      expected: `one ${what}: a movement between ${single.min} and ${single.max} cents`, actual: `${delta} cents`,
    }));
  }
}

/**
 * Verdict on the answers of a burst of one state transition: the losers must answer 400, at most
 * one may succeed, and (unless every answer was a 429) one must. Returns the winners.
 */
function judgeConfirmations(
  run: CheckRun,
  answers: ApiResponse[],
  what: { burst: string; loser: string; success: string; loserRequirements: string[]; twiceRequirements: string[]; noneRequirement: string; noneTitle: string },
): ApiResponse[] {
  const winners = answers.filter(is2xx);
  judgeLosers(run, answers.filter((r) => !is2xx(r)), 400, what.loserRequirements);
  if (winners.length > 1) {
    run.record(makeFinding({ requirements: what.twiceRequirements, exchanges: winners.map((r) => r.exchange) }, {
      code: 'atomicity.confirmed-twice', title: `${winners.length} concurrent ${what.burst} succeeded`, severity: 'failure',
      expected: `exactly one 200; the others 400 (${what.loser})`, actual: `${winners.length} × 2xx`,
    }));
  }
  if (winners.length === 0 && !answers.every((r) => r.status === 429)) {
    run.record(makeFinding({ requirements: [what.noneRequirement], exchanges: answers.map((r) => r.exchange) }, {
      code: 'atomicity.none-confirmed', title: what.noneTitle, severity: 'failure',
      expected: `exactly one 200 with status ${what.success}`, actual: answers.map((r) => r.status).join(', '),
    }));
  }
  return winners;
}

check('concurrent /pay of one charge: one success, one credit, one transaction_paid', {
  id: 'gateway.atomicity.concurrent-pay', api: 'gateway', area: AREA, severity: 'critical',
  exclusive: true,
  requirements: ['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAY-NOT-PENDING-400', 'GW-PIXIN-PAY-PAID'],
}, async (t) => {
  const n = burstSize(t, 1);
  const gw = t.gateway();
  const run = t.run;
  const hook = await registerWebhook(gw, run, t.callbackUrl, ['transaction_paid']);
  try {
    const postback = receiverPath();
    const charge = await bigCharge(gw, run, t.callbackUrl(postback));
    const before = await balanceCents(gw, run);
    const burst = await t.burst('gateway', n, () => gw.payPixCharge(charge.id));
    const after = await balanceCents(gw, run);
    run.note(`${n} concurrent /pay, start spread ${burst.startSpreadMs.toFixed(1)} ms`);
    // "400 charge no longer pending"
    const winners = judgeConfirmations(run, burst.values, {
      burst: '/pay of one charge', loser: 'no longer pending', success: 'paid',
      loserRequirements: ['GW-PIXIN-PAY-NOT-PENDING-400', 'GW-ATOMIC-TRANSITIONS'], twiceRequirements: ['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAY-NOT-PENDING-400'],
      noneRequirement: 'GW-PIXIN-PAY-PAID', noneTitle: 'none of the concurrent /pay of a pending charge succeeded',
    });
    // one credit: the paid amount, gross or net of the charge fees (GW-PIXIN-PAID-CREDITS-BALANCE ambiguity)
    judgeBalance(run, before, after, { min: charge.amount - charge.fees, max: charge.amount }, charge.amount, charge.amount >= LARGE, 'credit', ['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAID-CREDITS-BALANCE']);
    const paths = [{ path: postback, label: 'postbackUrl' }, ...(hook ? [{ path: hook.path, label: `webhook ${hook.id}` }] : [])];
    if (winners.length > 0) await atMostOneOccurrence(t, run, paths, 'transaction', charge.id, 'transaction_paid', ['GW-ATOMIC-TRANSITIONS', 'GW-EVT-TRANSACTION-PAID']);
  } finally {
    await removeWebhooks(gw, [hook]);
  }
});

check('concurrent /complete of one transfer: one success, one debit, one transfer_completed', {
  id: 'gateway.atomicity.concurrent-complete', api: 'gateway', area: AREA, severity: 'critical',
  exclusive: true,
  requirements: ['GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-COMPLETE-TWICE-400', 'GW-PIXOUT-COMPLETE-COMPLETED'],
}, async (t) => {
  const n = burstSize(t, 2);
  const gw = t.gateway();
  const run = t.run;
  const hook = await registerWebhook(gw, run, t.callbackUrl, ['transfer_completed']);
  try {
    // funding: one large charge paid once; its credit is on the balance before the burst, and the
    // transfer takes 90 % of it, so the balance covers exactly one debit of this file's own money
    const charge = await bigCharge(gw, run, t.callbackUrl(receiverPath()));
    const paid = await gw.payPixCharge(charge.id);
    run.record(expectStatus(paid.exchange, 200, { requirements: ['GW-PIXIN-PAY-200'] }));
    if (!is2xx(paid)) return;
    const amount = Math.floor((charge.amount - charge.fees) * 0.9);
    const postback = receiverPath();
    const created = await gw.createTransfer(transferBody(amount, { postbackUrl: t.callbackUrl(postback) }));
    const data = dataOf(created);
    if (!is2xx(created) || typeof data?.id !== 'string') {
      if (created.status >= 400 && created.status <= 499) throw new NotRunError('gateway', `a transfer of ${amount} cents was refused with ${created.status} (maximum amounts are not shown)`);
      run.record(expectStatus(created.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
      return;
    }
    const transferId = data.id;
    const fees = Number.isSafeInteger(data.fees) ? (data.fees as number) : 0;
    const net = Number.isSafeInteger(data.netAmount) ? (data.netAmount as number) : amount - fees;
    const before = await balanceCents(gw, run);
    const burst = await t.burst('gateway', n, () => gw.completeTransfer(transferId));
    const after = await balanceCents(gw, run);
    run.note(`${n} concurrent /complete, start spread ${burst.startSpreadMs.toFixed(1)} ms`);
    // "400 already completed or canceled."
    const winners = judgeConfirmations(run, burst.values, {
      burst: '/complete of one transfer', loser: 'already completed', success: 'completed',
      loserRequirements: ['GW-PIXOUT-COMPLETE-TWICE-400', 'GW-ATOMIC-TRANSITIONS'], twiceRequirements: ['GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-COMPLETE-TWICE-400'],
      noneRequirement: 'GW-PIXOUT-COMPLETE-COMPLETED', noneTitle: 'none of the concurrent /complete of a funded transfer succeeded',
    });
    // one debit: the amount (fees out of it) or the amount plus fees — not stated which
    judgeBalance(run, before, after, { min: -net, max: -(amount + fees) }, amount, charge.amount >= LARGE, 'debit', ['GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-COMPLETE-TWICE-400']);
    const paths = [{ path: postback, label: 'postbackUrl' }, ...(hook ? [{ path: hook.path, label: `webhook ${hook.id}` }] : [])];
    if (winners.length > 0) await atMostOneOccurrence(t, run, paths, 'transfer', transferId, 'transfer_completed', ['GW-ATOMIC-TRANSITIONS', 'GW-EVT-TRANSFER-COMPLETED']);
  } finally {
    await removeWebhooks(gw, [hook]);
  }
});

check('concurrent transfers with one idempotency key and body create one transfer', {
  id: 'gateway.atomicity.concurrent-same-key', api: 'gateway', area: AREA, severity: 'critical',
  exclusive: true,
  requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE', 'GW-PIXOUT-IDEM-REPLAY'],
}, async (t) => {
  const n = burstSize(t, 3);
  const gw = t.gateway();
  const run = t.run;
  const key = randomUUID();
  const postback = receiverPath();
  const body = transferBody(321, { postbackUrl: t.callbackUrl(postback) });
  const burst = await t.burst('gateway', n, () => gw.createTransfer(body, { idempotencyKey: key }));
  run.note(`${n} concurrent creations with one key, start spread ${burst.startSpreadMs.toFixed(1)} ms: ${burst.values.map((r) => r.status).join(', ')}`);
  const winners = burst.values.filter(is2xx);
  for (const r of burst.values.filter((x) => !is2xx(x))) {
    if (r.status === 409) {
      // The text gives 409 for "the same key with a different body" and promises the original
      // response to a resend; it says nothing about a duplicate arriving while the first request is
      // still in flight, when there is no original response yet. A 409 then creates nothing and is
      // a common "request in progress" answer: a warning, not a failure. (Sequential replays with
      // the same body must never get 409: checked below and in pix-transfers.)
      run.record(makeFinding({ requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-ERR-409-MEANING'], exchanges: [r.exchange] }, {
        code: 'idempotency.in-flight-409', title: 'a concurrent duplicate with the same key and body answered 409', severity: 'warning',
        expected: 'the original response (same transfer id), or a retryable 429', actual: `HTTP 409 ${show(r.json)}`,
      }));
    } else {
      // a valid body: 400 would misstate it; 429 is tolerated; 5xx fails
      run.record(expectStatus(r.exchange, [200, 429], { requirements: ['GW-PIXOUT-IDEM-REPLAY'] }));
    }
  }
  const ids = [...new Set(winners.map((r) => dataOf(r)?.id))];
  if (ids.length > 1) {
    run.record(makeFinding({ requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE', 'GW-PIXOUT-IDEM-REPLAY'], exchanges: winners.map((r) => r.exchange) }, {
      code: 'idempotency.duplicated', title: `${ids.length} transfers were created with one idempotency key and body`, severity: 'failure',
      expected: 'one transfer id among all successful answers', actual: `ids ${ids.map((i) => show(i)).join(', ')}`,
    }));
    return;
  }
  const id = ids[0];
  if (typeof id !== 'string') {
    if (!burst.values.every((r) => r.status === 429 || r.status === 409)) {
      run.record(makeFinding({ requirements: ['GW-PIXOUT-CREATE-200'], exchanges: burst.values.map((r) => r.exchange) }, {
        code: 'idempotency.none-created', title: 'no concurrent creation with a fresh key succeeded', severity: 'failure', expected: 'at least one 200 with data.id', actual: burst.values.map((r) => r.status).join(', '),
      }));
    }
    return;
  }
  // a resend after the burst: "returns the original response"
  const replay = await gw.createTransfer(body, { idempotencyKey: key });
  run.record(expectStatus(replay.exchange, 200, { requirements: ['GW-PIXOUT-IDEM-REPLAY'] }));
  if (is2xx(replay) && dataOf(replay)?.id !== id) {
    run.record(makeFinding({ requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'], exchanges: [replay.exchange] }, {
      code: 'idempotency.new-transfer', title: 'a resend after the burst answered another transfer', severity: 'failure', expected: `data.id = ${show(id)}`, actual: `data.id = ${show(dataOf(replay)?.id)}`,
    }));
  }
  // "never duplicates the transfer": every transfer_created at this body's postbackUrl is about the same id
  const rc = t.receiver();
  const first = await rc.waitFor(isAbout('transfer', id, 'transfer_created'), { path: postback, timeoutMs: DELIVERY_TIMEOUT_MS });
  if (!first) {
    run.note('transfer_created did not reach the postbackUrl: duplicate detection by events skipped (the webhook suite judges delivery)');
    return;
  }
  const others = await rc.waitFor((d) => {
    const other = resourceOf(d, 'transfer')?.id;
    return typeof other === 'string' && other !== id;
  }, { path: postback, timeoutMs: EXTRA_EVENT_GRACE_MS });
  if (others) {
    run.record(makeFinding({ requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE'] }, {
      code: 'idempotency.duplicated', title: 'another transfer was created by the same key and body', severity: 'failure',
      expected: `only transfer ${id} at this body's postbackUrl`, actual: `delivery #${others.seq}: ${others.bodyText.slice(0, 200)}`,
    }));
  }
});

