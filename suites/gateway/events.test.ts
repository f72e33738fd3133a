/**
 * Gateway events against their resources (harness/rules/gateway/echo.ts): every event type a
 * documented route provokes (transaction_created and transfer_created by the creations,
 * transaction_paid by /pay, transfer_completed by /complete; "Sandbox: … the simulation routes fire
 * transaction_paid and transfer_completed") is judged
 * - against what was sent (relation `gateway.echo`, its event cells: the amount, gross or net of
 *   fees), and
 * - against a lookup of its resource made after it (relation `gateway.events-vs-resources`: id,
 *   amount, status, endToEndId; a charge's endToEndId against its /pay answer, which alone shows it).
 * Each resource carries a postbackUrl of its own ("also to the postbackUrl given on the charge or
 * transfer"): every delivery there is about that resource, so its id is judged, not assumed. The
 * other event types have no route that provokes them: untryable, with the reason, in the relations.
 *
 * Requests: three charges and two transfers created (together), one /pay and one /complete, five
 * lookups after the events (together): 12.
 */
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { echoGatewayValues, matchEventsToResources } from '../../harness/rules/gateway/echo.js';
import { ensureChargePaid } from '../../harness/rules/gateway/pix-charges.js';
import { ensureTransferCompleted } from '../../harness/rules/gateway/pix-transfers.js';
import { pixChargeBody } from './support.js';
import { dataOf, eventOf, is2xx, receiverPath, transferBody, type GatewayEvent, type ResourceKind } from './webhook-steps.js';

const AREA = 'Events against resources';
/** "Retry schedule and delivery timeout: not shown": the suite's own patience. */
const DELIVERY_WAIT_MS = 20_000;

interface Resource {
  kind: ResourceKind;
  role: 'settled' | 'created';
  amount: number;
  path: string;
  id?: string;
  /** every amount the creation answer showed (gross, net of fees) */
  amounts?: number[];
  created?: ApiResponse;
  /** the endToEndId the /pay answer gave a paid charge */
  paidEndToEndId?: unknown;
}

function amountsOf(kind: ResourceKind, amount: number, answer: ApiResponse): number[] {
  const data = dataOf(answer);
  if (kind === 'transfer') return [amount, data?.netAmount].filter((a): a is number => Number.isSafeInteger(a));
  return Number.isSafeInteger(data?.fees) ? [amount, amount - (data?.fees as number)] : [amount];
}

async function settle(t: CheckTools, r: Resource): Promise<boolean> {
  const gw = t.gateway();
  if (r.kind === 'transaction') {
    const pay = await gw.payPixCharge(r.id!);
    t.judge(ensureChargePaid, { answer: pay, chargeId: r.id! });
    r.paidEndToEndId = dataOf(pay)?.endToEndId;
    return is2xx(pay);
  }
  if (dataOf(r.created!)?.status !== 'banking_processing') {
    t.run.note(`the transfer was created ${String(dataOf(r.created!)?.status)}: not completed, transfer_completed not awaited`);
    return false;
  }
  const completed = await gw.completeTransfer(r.id!);
  t.judge(ensureTransferCompleted, { case: 'answer', answer: completed });
  return is2xx(completed);
}

check('every event carries the amount sent and agrees with a lookup of its resource made after it', {
  id: 'gateway.events.against-resources',
  api: 'gateway',
  area: AREA,
  severity: 'critical',
  rules: [ensureChargePaid, ensureTransferCompleted, echoGatewayValues, matchEventsToResources],
}, async (t) => {
  const rc = t.receiver();
  const gw = t.gateway();
  const [drawn] = fc.sample(fc.integer({ min: 100, max: 999_999 }), { seed: t.settings.seed, numRuns: 1 });
  // the paid charge (R$ 29.99) funds the completed transfer (R$ 10.05): its credit is on the balance
  // before /complete runs, whatever other files do meanwhile
  const resources: Resource[] = [
    { kind: 'transaction', role: 'settled', amount: 2_999, path: receiverPath() },
    { kind: 'transaction', role: 'created', amount: 1_005, path: receiverPath() },
    { kind: 'transaction', role: 'created', amount: drawn ?? 100_001, path: receiverPath() },
    { kind: 'transfer', role: 'settled', amount: 1_005, path: receiverPath() },
    { kind: 'transfer', role: 'created', amount: 100_000_001, path: receiverPath() },
  ];
  const created = await t.all(resources, (r) => {
    const postbackUrl = t.callbackUrl(r.path);
    return r.kind === 'transaction' ? gw.createPixCharge(pixChargeBody({ amountInCents: r.amount, postbackUrl })) : gw.createTransfer(transferBody(r.amount, { postbackUrl }));
  });
  const ours = resources.filter((r, i) => {
    const answer = created[i]!;
    const id = dataOf(answer)?.id;
    if (!is2xx(answer) || typeof id !== 'string') {
      t.run.note(`the ${r.kind} of ${r.amount}: creation answered HTTP ${answer.status}; its events not awaited`);
      return false;
    }
    Object.assign(r, { id, created: answer, amounts: amountsOf(r.kind, r.amount, answer) });
    return true;
  });
  if (ours.length === 0) return t.notRun('gateway', 'no charge or transfer was created');
  // the charge is paid before the transfer is completed (the credit funds it): in order
  const settled = new Set<Resource>();
  for (const kind of ['transaction', 'transfer'] as const) {
    for (const r of ours.filter((o) => o.kind === kind && o.role === 'settled')) if (await settle(t, r)) settled.add(r);
  }
  const expected = ours.flatMap((r) => {
    const first: GatewayEvent = r.kind === 'transaction' ? 'transaction_created' : 'transfer_created';
    const second: GatewayEvent = r.kind === 'transaction' ? 'transaction_paid' : 'transfer_completed';
    return [{ r, event: first }, ...(settled.has(r) ? [{ r, event: second }] : [])];
  });
  const arrived = await t.all(expected, (e) => rc.waitFor((d: Delivery) => eventOf(d) === e.event, { path: e.r.path, timeoutMs: DELIVERY_WAIT_MS }));
  // lookups after every awaited event arrived (or the wait ended)
  const lookups = await t.all(ours, (r) => (r.kind === 'transaction' ? gw.getPixCharge(r.id!) : gw.getTransfer(r.id!)));
  expected.forEach((e, i) => {
    const delivery = arrived[i];
    if (!delivery) {
      t.run.note(`${e.event} of the ${e.r.kind} of ${e.r.amount} did not reach its postbackUrl within ${DELIVERY_WAIT_MS / 1000} s (arrival is judged by the webhooks suite); its cells not tried`);
      return;
    }
    const resource = e.r.kind === 'transaction' ? 'PIX charge' : 'PIX transfer';
    t.judge(echoGatewayValues, { resource, path: 'event', delivery, expected: { kind: e.r.kind, event: e.event, id: e.r.id!, amount: e.r.amount, amounts: e.r.amounts! } });
    t.judge(matchEventsToResources, { event: e.event, kind: e.r.kind, id: e.r.id!, createdAmount: e.r.amount, delivery, lookup: lookups[ours.indexOf(e.r)]!, ...(e.r.paidEndToEndId !== undefined ? { paidEndToEndId: e.r.paidEndToEndId } : {}) });
  });
});
