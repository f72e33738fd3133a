/**
 * Webhooks: gateway-api.md "Webhook" resource, "GET/POST /api/v1/webhook", "DELETE
 * /api/v1/webhook/{id}", "Events" (delivery, callback headers, signature, payload shapes).
 *
 * Deliveries go to the run's receiver at unique paths (`/gw/<uuid>`). Webhooks subscribe per
 * account, so webhooks registered by other files running at the same time also receive the events of
 * our resources, and ours receive theirs: every wait filters by resource id. Waits are bounded
 * (receiver long-poll), never fixed sleeps; absence is asserted only after a positive control for
 * the same resource has arrived elsewhere, plus a grace period.
 */
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { GatewayClient } from '../../harness/http/gateway-client.js';
import type { ReceiverClient } from '../../harness/webhooks/receiver-client.js';
import { summarizeDeliveries } from '../../harness/webhooks/dedupe.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { notRunReason } from '../../harness/config/target.js';
import { hideOtherAccountsResources, isolateSandboxData } from '../../harness/rules/gateway/isolation.js';
import { ensureTransferCompleted, honourTransferRequest } from '../../harness/rules/gateway/pix-transfers.js';
import { kindOf } from '../../harness/rules/index.js';
import { echoGatewayValues } from '../../harness/rules/gateway/echo.js';
import {
  announcedOtherwise,
  answerWebhookCreation,
  answerWebhookList,
  deliverOnlySubscribedEvents,
  deliverTableEvents,
  removeWebhookOnDelete,
  requireWebhookUrlAndEvents,
  shapeEventPayloads,
} from '../../harness/rules/gateway/webhooks.js';
import {
  checkDeliveryTransport,
  createCharge,
  dataOf,
  is2xx,
  isAbout,
  isRecord,
  JUDGES_DELIVERY_TRANSPORT,
  judgeWebhookRegistration,
  MOVES_MONEY,
  payCharge,
  receiverPath,
  REGISTERS_WEBHOOKS,
  removeWebhooks,
  RUN_EVENTS,
  sendWebhookRegistration,
  transferBody,
  UPDATED_EVENTS,
} from './webhook-steps.js';
import { settle, taken } from '../../harness/run/parallel.js';
import type { GatewayEvent, RegisteredWebhook, ResourceKind } from './webhook-steps.js';

const AREA = 'Webhooks';
/**
 * "Retry schedule and delivery timeout: not shown": how long the suite waits for a delivery is its own
 * patience, not a contract timer (a delivery not seen in time is judged by deliverTableEvents).
 */
const DELIVERY_WAIT_MS = 20_000;
/** Extra wait for a destination still missing an event that already reached another destination. */
const LATE_DELIVERY_GRACE_MS = 5_000;
/** How long after the positive control an absent delivery is awaited before it is judged absent. */
const ABSENCE_GRACE_MS = 1_000;

/** Every array of objects with an `id` anywhere in a listing body (the list body is not shown). */
function webhookEntries(json: unknown, depth = 0): { where: string; entries: Record<string, unknown>[] }[] {
  if (depth > 3) return [];
  if (Array.isArray(json)) {
    const entries = json.filter(isRecord).filter((e) => 'id' in e);
    return entries.length || json.length === 0 ? [{ where: depth === 0 ? '(top-level array)' : 'array', entries }] : [];
  }
  if (!isRecord(json)) return [];
  return Object.entries(json).flatMap(([key, value]) => webhookEntries(value, depth + 1).map((found) => ({ ...found, where: found.where === 'array' || found.where === '(top-level array)' ? key : `${key}.${found.where}` })));
}

function findListed(json: unknown, id: number | string): { where: string; entry: Record<string, unknown> } | undefined {
  for (const { where, entries } of webhookEntries(json)) {
    const entry = entries.find((e) => String(e.id) === String(id));
    if (entry) return { where, entry };
  }
  return undefined;
}

interface Expectation {
  path: string;
  secret: string | undefined;
  label: string;
  destination: 'webhook' | 'postback';
  kind: ResourceKind;
  event: GatewayEvent;
  id: string;
  amount: number;
}

/** Waits for one expected delivery (up to the suite's patience); the first one, or undefined. */
async function awaitDelivery(rc: ReceiverClient, e: Expectation, timeoutMs: number): Promise<Delivery | undefined> {
  return rc.waitFor(isAbout(e.kind, e.id, e.event), { path: e.path, timeoutMs });
}

/** Hands every delivery of the expected event at its destination to the transport and payload rules. */
async function checkDeliveries(rc: ReceiverClient, run: CheckRun, e: Expectation, matched: Map<string, number>): Promise<Delivery[]> {
  const all = (await rc.deliveries({ path: e.path })).filter(isAbout(e.kind, e.id, e.event));
  for (const d of all) {
    const over = checkDeliveryTransport(d, e.secret, run);
    if (over) matched.set(over, (matched.get(over) ?? 0) + 1);
    // the payload's shape, through the echo relation (its event cells: the amount sent, in each event)
    run.judge(echoGatewayValues, { resource: e.kind === 'transaction' ? 'PIX charge' : 'PIX transfer', path: 'event', delivery: d, expected: { kind: e.kind, event: e.event, id: e.id, amount: e.amount } });
  }
  return all;
}

function noteDuplicates(run: CheckRun, label: string, deliveries: Delivery[]): void {
  const summary = summarizeDeliveries(deliveries);
  // "The same event id can arrive more than once": tolerated, counted, reported
  if (summary.duplicateCount > 0) run.note(`${label}: ${summary.duplicateCount} duplicate delivery(ies) of an event id (${summary.duplicates.map((d) => `${d.id}×${d.count}`).join(', ')}); tolerated`);
}

check('webhook creation returns the Webhook with signatureSecret, registering again too; list and delete', {
  id: 'gateway.webhooks.crud', api: 'gateway', area: AREA, severity: 'critical',
  rules: [answerWebhookCreation, answerWebhookList, removeWebhookOnDelete],
}, async (t) => {
  const gw = t.gateway();
  const events: GatewayEvent[] = ['transaction_paid', 'transfer_completed'];
  const url = t.callbackUrl(receiverPath());
  const created = await gw.createWebhook({ url, events });
  const data = dataOf(created);
  if (typeof data?.signatureSecret === 'string' && data.signatureSecret !== '') gw.http.redactor.register(data.signatureSecret, 'GATEWAY_WEBHOOK_SECRET');
  // "200: `success`, `data` (Webhook, with signatureSecret)": every field of the Webhook table
  t.judge(answerWebhookCreation, { answer: created, sent: { url, events } });
  if (!is2xx(created) || !data) return;
  if (data.isActive === false) t.run.note('a newly created webhook answered isActive: false');
  const id = data.id;
  if (typeof id !== 'number' && typeof id !== 'string') return;

  // the same url and events registered again: whether a duplicate is refused is not stated, but a 200
  // is the route's documented 200, with signatureSecret
  const again = await gw.createWebhook({ url, events });
  const againData = dataOf(again);
  if (typeof againData?.signatureSecret === 'string' && againData.signatureSecret !== '') gw.http.redactor.register(againData.signatureSecret, 'GATEWAY_WEBHOOK_SECRET');
  t.judge(answerWebhookCreation, { answer: again, sent: { url, events }, again: true });
  const againId = againData?.id;
  t.run.note(`the same url registered again: HTTP ${again.status}${is2xx(again) ? `, ${String(againId) === String(id) ? 'the same webhook' : `another webhook (${String(againId)})`}` : ''}`);
  if (is2xx(again) && (typeof againId === 'number' || typeof againId === 'string') && String(againId) !== String(id)) await removeWebhooks(gw, [{ id: againId, secret: undefined, path: '', url, events, response: again }]);

  // "Lists webhooks. Response body: not shown." — any 2xx with a JSON body passes; ours is looked for
  const list = await gw.listWebhooks();
  t.judge(answerWebhookList, list);
  if (is2xx(list) && list.json !== undefined) {
    const listed = findListed(list.json, id);
    const shape = isRecord(list.json) ? `object with keys ${Object.keys(list.json).join(', ')}` : kindOf(list.json);
    t.run.note(listed ? `webhook list: ${shape}; ours found under ${listed.where} with keys ${Object.keys(listed.entry).join(', ')}` : `webhook list: ${shape}; our webhook ${id} not found in any array of objects with an id`);
    if (listed && 'signatureSecret' in listed.entry) t.run.note('the list repeats signatureSecret (the text shows it "on creation" only)');
  }

  // "Removes a webhook. Response body: not shown." — any 2xx passes, with or without a body
  const removed = await gw.deleteWebhook(id);
  if (!t.judge(removeWebhookOnDelete, { kind: 'delete', answer: removed }) || !is2xx(removed)) return;
  t.run.note(`DELETE /api/v1/webhook/{id} answered ${removed.status}${(removed.exchange.response?.body ?? '') === '' ? ' with no body' : ''}`);
  const after = await gw.listWebhooks();
  if (is2xx(after)) {
    const still = findListed(after.json, id);
    t.judge(removeWebhookOnDelete, { kind: 'listed-after', entry: still?.entry, exchanges: [removed.exchange, after.exchange] });
    if (still && still.entry.isActive === false) t.run.note('a removed webhook stays listed with isActive: false');
  }
});

check('webhook creation requires url and events', {
  id: 'gateway.webhooks.create-required', api: 'gateway', area: AREA,
  rules: [requireWebhookUrlAndEvents],
}, async (t) => {
  // "Body: `url` string (required), `events` array of event names (required)."
  const url = t.callbackUrl(receiverPath());
  const cases = [
    { label: 'url missing', field: 'url' as const, body: { events: ['transaction_paid'] } },
    { label: 'events missing', field: 'events' as const, body: { url } },
    { label: 'events not an array', field: 'events' as const, body: { url, events: 'transaction_paid' } },
    { label: 'url not a string', field: 'url' as const, body: { url: 12345, events: ['transaction_paid'] } },
  ];
  const created: RegisteredWebhook[] = [];
  await t.property('missing or mistyped required field', fc.constantFrom(...cases), async (c, it) => {
    const r = await it.gateway().createWebhook(c.body);
    it.judge(requireWebhookUrlAndEvents, { answer: r, what: c.label, field: c.field });
    const id = dataOf(r)?.id;
    if (is2xx(r) && (typeof id === 'number' || typeof id === 'string')) created.push({ id, secret: undefined, path: '', url, events: [], response: r });
  }, { numRuns: cases.length * 2 });
  await removeWebhooks(t.gateway(), created);
});

/**
 * Registers one webhook per entry of `specs` (its events); undefined entries when registration
 * failed (already recorded). Each registration is its own webhook at its own path, independent of
 * the others: they are sent together and judged in order.
 */
async function registerAll(t: CheckTools, gw: GatewayClient, specs: string[][]): Promise<(RegisteredWebhook | undefined)[]> {
  const sent = await t.all(specs, (events) => sendWebhookRegistration(gw, t.callbackUrl, events));
  return sent.map((registration) => judgeWebhookRegistration(gw, t.run, registration));
}

check('every run event reaches each subscribed webhook and the postbackUrl, signed and well-formed', {
  id: 'gateway.webhooks.delivery', api: 'gateway', area: AREA, severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, ensureTransferCompleted, ...REGISTERS_WEBHOOKS, ...JUDGES_DELIVERY_TRANSPORT, deliverTableEvents, shapeEventPayloads, echoGatewayValues],
}, async (t) => {
  const rc = t.receiver();
  const gw = t.gateway();
  // two webhooks subscribed to all four events: "sent to every active webhook subscribed to the event";
  // the *_updated events too, so a payment or completion announced under another name is seen
  const hooks = await registerAll(t, gw, [[...RUN_EVENTS, ...UPDATED_EVENTS], [...RUN_EVENTS, ...UPDATED_EVENTS]]);
  try {
    const active = hooks.filter((h): h is RegisteredWebhook => h !== undefined);
    if (active.length === 0) return;
    for (const h of active) if (h.secret === undefined) t.run.note(`webhook ${h.id} has no signatureSecret: its signature is not checked`);
    const chargePostback = receiverPath();
    const transferPostback = receiverPath();
    // amounts that are not whole reais, so an amount in reais can never pass as integer cents
    const chargeAmount = 1_357;
    const transferAmount = 246;
    const charge = await createCharge(gw, t.run, chargeAmount, t.callbackUrl(chargePostback));
    if (!charge) return;
    // the paid charge also funds the transfer below ("sandbox balance covers the amount"): its credit
    // (≈ R$ 13) is on the balance before /complete runs, whatever other files do meanwhile
    if (!(await payCharge(gw, t.run, charge.id))) return;
    const transfer = transferBody(transferAmount, { postbackUrl: t.callbackUrl(transferPostback) });
    const created = await gw.createTransfer(transfer);
    t.judge(honourTransferRequest, { case: 'valid', body: transfer, answer: created });
    const transferId = dataOf(created)?.id;
    const haveTransfer = is2xx(created) && typeof transferId === 'string';
    // a transfer held for manual review (created pending: "no manual review → banking_processing")
    // cannot be completed: its transfer_completed is then not expected
    const completable = haveTransfer && dataOf(created)?.status === 'banking_processing';
    if (haveTransfer && !completable) t.run.note(`the transfer was created ${String(dataOf(created)?.status)}: not completed, transfer_completed not expected`);
    if (completable) {
      const completed = await gw.completeTransfer(transferId);
      t.judge(ensureTransferCompleted, { case: 'answer', answer: completed });
    }
    const expectations: Expectation[] = [];
    const targets = [
      ...active.map((h) => ({ path: h.path, secret: h.secret, label: `webhook ${h.id}`, destination: 'webhook' as const, kinds: ['transaction', 'transfer'] as ResourceKind[] })),
      { path: chargePostback, secret: undefined, label: 'charge postbackUrl', destination: 'postback' as const, kinds: ['transaction'] as ResourceKind[] },
      { path: transferPostback, secret: undefined, label: 'transfer postbackUrl', destination: 'postback' as const, kinds: ['transfer'] as ResourceKind[] },
    ];
    for (const target of targets) {
      for (const event of RUN_EVENTS) {
        const kind: ResourceKind = event.startsWith('transaction') ? 'transaction' : 'transfer';
        if (!target.kinds.includes(kind)) continue;
        if (kind === 'transfer' && !haveTransfer) continue;
        if (event === 'transfer_completed' && !completable) continue;
        const id = kind === 'transaction' ? charge.id : (transferId as string);
        expectations.push({ ...target, kind, event, id, amount: kind === 'transaction' ? chargeAmount : transferAmount });
      }
    }
    const started = Date.now();
    const firsts = await Promise.all(expectations.map((e) => awaitDelivery(rc, e, DELIVERY_WAIT_MS)));
    // an event that reached one destination but not yet another: wait a little longer for the latter
    const seenElsewhere = (e: Expectation): boolean => expectations.some((o, k) => o !== e && o.event === e.event && o.id === e.id && firsts[k] !== undefined);
    // everything that reached our destinations (other files' events included at the webhooks)
    const arrived = async (): Promise<Delivery[]> => (await Promise.all(targets.map((target) => rc.deliveries({ path: target.path })))).flat();
    const aboutResource = (all: readonly Delivery[], e: Expectation): Delivery[] => all.filter(isAbout(e.kind, e.id));
    const early = await arrived();
    await Promise.all(expectations.map(async (e, k) => {
      // …and one never seen while a later moment of the same resource was announced (rule: announcedOtherwise)
      const late = seenElsewhere(e) || announcedOtherwise(e.event, e.kind, e.id, aboutResource(early, e)) !== undefined;
      if (firsts[k] === undefined && late) firsts[k] = await awaitDelivery(rc, e, LATE_DELIVERY_GRACE_MS);
    }));
    const waitedMs = Date.now() - started;
    const all = await arrived();
    // a delivery that is not a JSON object cannot be told apart by resource: its transport is judged here
    // ("HTTP POST callbacks with a JSON body"; "Content-Type | application/json"), a few per destination.
    // Only one whose raw body names a resource of this check (as is, or URL-encoded) is an event: a
    // registration ping or URL check (a GET, an empty POST) is no event callback, and the contract
    // neither forbids nor describes it
    const ourIds = [charge.id, transferId].filter((id): id is string => typeof id === 'string' && id !== '');
    const namesOurResource = (d: Delivery): boolean => ourIds.some((id) => d.bodyText.includes(id) || d.bodyText.includes(encodeURIComponent(id)));
    for (const target of targets) {
      for (const d of all.filter((x) => x.path === target.path && !isRecord(x.json) && namesOurResource(x)).slice(0, 2)) checkDeliveryTransport(d, undefined, t.run);
    }
    const matched = new Map<string, number>();
    const received: Delivery[][] = [];
    for (const [k, e] of expectations.entries()) {
      // only an announcement seen before the grace wait counts (the missing event then had that grace
      // after it: "Retry schedule and delivery timeout: not shown", so one arriving in the last
      // moments proves nothing about an event emitted earlier but delivered more slowly)
      t.judge(deliverTableEvents, { event: e.event, kind: e.kind, id: e.id, destination: e.destination, label: e.label, delivery: firsts[k], waitedMs, seenElsewhere: seenElsewhere(e), aboutResource: aboutResource(early, e) });
      received.push(firsts[k] ? await checkDeliveries(rc, t.run, e, matched) : []);
    }
    // "JSON of the payload": which signing input verified (raw body, or only a compact re-serialisation)
    t.run.note(`signatures verified over: ${[...matched].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
    for (const target of targets) {
      const ours = received.flat().filter((d) => d.path === target.path);
      noteDuplicates(t.run, target.label, ours);
    }
    const sample = received.flat()[0];
    if (sample) t.run.note(`event body sample: ${sample.bodyText.slice(0, 300)}`);
  } finally {
    await removeWebhooks(gw, hooks);
  }
});

check('unsubscribed and deleted webhooks receive nothing', {
  id: 'gateway.webhooks.only-subscribed', api: 'gateway', area: AREA,
  rules: [...MOVES_MONEY, ...REGISTERS_WEBHOOKS, deliverTableEvents, deliverOnlySubscribedEvents, removeWebhookOnDelete, isolateSandboxData, hideOtherAccountsResources],
}, async (t) => {
  const rc = t.receiver();
  const gw = t.gateway();
  // control: subscribed to transaction_created; unsubscribed: transfer events only; deleted: subscribed, then removed
  const specs = [['transaction_created'], ['transfer_created', 'transfer_completed'], ['transaction_created']];
  // issue 15: the same event must not reach a webhook registered with the production token or by
  // another account (webhooks selected by event name only, or without the environment), when those
  // credentials are configured
  const pairs = foreignPairs(t);
  // every registration is its own webhook at its own path: all sent together, judged in order (ours,
  // then the foreign ones). A registration that threw (e.g. no token for a foreign pair) throws where
  // it did when they went out one after the other: after the ones before it are judged
  const sent = await t.all([...specs.map((events) => ({ gw, events })), ...pairs.map((p) => ({ gw: p.gw, events: ['transaction_created'] }))], (r) => settle(sendWebhookRegistration(r.gw, t.callbackUrl, r.events)));
  const hooks: (RegisteredWebhook | undefined)[] = [];
  const foreign: ForeignWebhook[] = [];
  try {
    for (const registration of sent.slice(0, specs.length)) hooks.push(judgeWebhookRegistration(gw, t.run, taken(registration)));
    for (const [i, p] of pairs.entries()) {
      const hook = judgeWebhookRegistration(p.gw, t.run, taken(sent[specs.length + i]));
      if (hook) foreign.push({ by: p.by, label: p.label, gw: p.gw, hook });
    }
    const [control, unsubscribed, deleted] = hooks;
    if (!control || !unsubscribed || !deleted) return;
    const removed = await gw.deleteWebhook(deleted.id);
    if (!t.judge(removeWebhookOnDelete, { kind: 'delete', answer: removed }) || !is2xx(removed)) return;
    const postback = receiverPath();
    // created only after the DELETE answered: this event did not exist while the webhook did
    const charge = await createCharge(gw, t.run, 1_111, t.callbackUrl(postback));
    if (!charge) return;
    const about = isAbout('transaction', charge.id);
    // positive controls: the same event for the same charge reaches the subscribed webhook and the postbackUrl
    const [atControl, atPostback] = await Promise.all([
      rc.waitFor(isAbout('transaction', charge.id, 'transaction_created'), { path: control.path, timeoutMs: DELIVERY_WAIT_MS }),
      rc.waitFor(isAbout('transaction', charge.id, 'transaction_created'), { path: postback, timeoutMs: DELIVERY_WAIT_MS }),
    ]);
    const arrival = { event: 'transaction_created' as const, kind: 'transaction' as const, id: charge.id, waitedMs: DELIVERY_WAIT_MS };
    t.judge(deliverTableEvents, { ...arrival, destination: 'webhook', label: 'subscribed webhook', delivery: atControl, seenElsewhere: atPostback !== undefined });
    t.judge(deliverTableEvents, { ...arrival, destination: 'postback', label: 'charge postbackUrl', delivery: atPostback, seenElsewhere: atControl !== undefined });
    // without a positive control the absence cannot be judged (the arrival judgements above say why)
    if (!atControl && !atPostback) return;
    const [atUnsubscribed, atDeleted, ...atForeign] = await Promise.all([
      rc.waitFor(about, { path: unsubscribed.path, timeoutMs: ABSENCE_GRACE_MS }),
      rc.waitFor(about, { path: deleted.path, timeoutMs: ABSENCE_GRACE_MS }),
      ...foreign.map((f) => rc.waitFor(about, { path: f.hook.path, timeoutMs: ABSENCE_GRACE_MS })),
    ]);
    const window = `within ${ABSENCE_GRACE_MS} ms after the same event reached the subscribed webhook/postbackUrl`;
    foreign.forEach((f, i) => {
      const d = atForeign[i];
      const seen = { kind: 'webhook-delivery' as const, deliveries: d ? [{ bodyText: d.bodyText, hook: f.label }] : [], resourceIds: [charge.id] };
      // "webhooks are registered separately using the sandbox token"; "404 … belongs to another account"
      if (f.by === 'production') t.judge(isolateSandboxData, seen);
      else t.judge(hideOtherAccountsResources, seen);
    });
    // "sent to every active webhook subscribed to the event": a subscription selects events
    t.judge(deliverOnlySubscribedEvents, { delivery: atUnsubscribed, window });
    // "Removes a webhook." The event was created after the DELETE answered 2xx, so it was not under way
    t.judge(removeWebhookOnDelete, { kind: 'delivered-after', delivery: atDeleted, window });
    if (!atUnsubscribed && !atDeleted) t.run.note(`nothing arrived at the unsubscribed or removed webhook ${window}`);
  } finally {
    // cleanups of distinct webhooks, recording nothing: together (the deleted one was removed above)
    await Promise.all([removeWebhooks(gw, hooks.slice(0, 2)), ...foreign.map((f) => removeWebhooks(f.gw, [f.hook]))]);
  }
});

interface ForeignWebhook {
  by: 'production' | 'other-account';
  label: string;
  gw: GatewayClient;
  hook: RegisteredWebhook;
}

/** The production pair and another account's pair, when configured (each registers a webhook). */
function foreignPairs(t: CheckTools): Omit<ForeignWebhook, 'hook'>[] {
  return [
    { by: 'production' as const, pair: 'live' as const, capability: 'gateway.live' as const, label: 'the webhook registered with the production token' },
    { by: 'other-account' as const, pair: 'other' as const, capability: 'gateway.other' as const, label: "another account's webhook" },
  ]
    .filter((p) => notRunReason(t.target, p.capability) === undefined)
    .map((p) => ({ by: p.by, label: p.label, gw: t.gateway(p.pair) }));
}
