/**
 * Environment and account isolation: gateway-api.md "What the service does" ("Two environments
 * share the same host. The environment is chosen by the credential pair used at `POST /api/auth`.
 * Sandbox data is isolated … webhooks are registered separately using the sandbox token"),
 * "Authentication" 4 ("Simulation routes (`/pay`, `/complete`) work only with sandbox credentials;
 * with production credentials they answer 403."), "Errors" ("404 | resource not found or belongs to
 * another account").
 *
 * Safety: nothing money-moving is ever sent with production credentials (the HTTP layer refuses
 * POST /api/v1/pix/out/pixkey and POST /api/v1/card for the live pair anyway). Resources are created
 * with the sandbox pair; the production pair only reads, lists, and calls the simulation routes,
 * which the contract says it cannot use.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { HarnessError } from '../../harness/core/errors.js';
import { notRunReason } from '../../harness/config/target.js';
import type { GatewayClient } from '../../harness/http/gateway-client.js';
import type { IsolationActor, IsolationCell, IsolationHome } from '../../harness/rules/isolation-cells.js';
import type { PinnedErrorCode } from '../../harness/rules/gateway/errors.js';
import { honourCardRequest } from '../../harness/rules/gateway/card.js';
import { cardChargeBody } from './support.js';
import {
  GATEWAY_CREDENTIAL_MISSING,
  GATEWAY_ISOLATION,
  GATEWAY_ISOLATION_CELLS,
  gatewayIsolationCell,
  hideOtherAccountsResources,
  isolateAccountsAndEnvironments,
  refuseSimulationWithProductionCredentials,
  selectEnvironmentByCredentials,
  SIMULATION_ISOLATION,
  simulationCell,
  type SandboxStateAfter,
} from '../../harness/rules/gateway/isolation.js';
import { answerWebhookList } from '../../harness/rules/gateway/webhooks.js';
import { honourTransferRequest } from '../../harness/rules/gateway/pix-transfers.js';
import { ensureTransferCompleted } from '../../harness/rules/gateway/pix-transfers.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import type { GatewayEvent, ResourceKind } from './webhook-steps.js';
import { createCharge, dataOf, is2xx, isAbout, judgeWebhookRegistration, MOVES_MONEY, payCharge, registerWebhook, REGISTERS_WEBHOOKS, removeWebhooks, sendWebhookRegistration, transferBody } from './webhook-steps.js';
import type { RegisteredWebhook, SentWebhookRegistration } from './webhook-steps.js';
import { settle, taken } from '../../harness/run/parallel.js';
import type { CreatedCharge } from './webhook-steps.js';

const AREA = 'Isolation';

interface SandboxResources {
  chargeId: string;
  transferId: string;
}

/** A pending charge and a banking_processing transfer of the sandbox account (no balance needed). */
async function sandboxResources(t: CheckTools): Promise<SandboxResources | undefined> {
  const gw = t.gateway();
  // two fresh resources, independent: sent together; the charge is judged as it comes back
  // (createCharge), the transfer after both, as when they went out one after the other
  const body = transferBody(105);
  const sends: (() => Promise<unknown>)[] = [() => createCharge(gw, t.run, 1_050), () => gw.createTransfer(body)];
  const [charge, transfer] = (await t.all(sends, (send) => send())) as [CreatedCharge | undefined, ApiResponse];
  t.judge(honourTransferRequest, { case: 'valid', body, answer: transfer });
  const transferId = dataOf(transfer)?.id;
  if (!charge || typeof transferId !== 'string') return undefined;
  return { chargeId: charge.id, transferId };
}

/** The sandbox owner re-reads its resources, to see that nothing done with other credentials took effect. */
async function readAgain(t: CheckTools, resources: SandboxResources, by: string): Promise<SandboxStateAfter> {
  const gw = t.gateway();
  // two reads of two resources: together
  const [charge, transfer] = (await t.all([() => gw.getPixCharge(resources.chargeId), () => gw.getTransfer(resources.transferId)], (read) => read())) as [ApiResponse, ApiResponse];
  return {
    by,
    ...(is2xx(charge) ? { charge: { answer: charge, status: dataOf(charge)?.status } } : {}),
    ...(is2xx(transfer) ? { transfer: { answer: transfer, status: dataOf(transfer)?.status } } : {}),
  };
}

/** Notes which of the statuses the contract allows the target chose for a foreign resource. */
function noteForeign(t: CheckTools, r: ApiResponse, by: 'production' | 'other-account'): void {
  if (r.status === 403 || r.status === 404) t.run.note(`${r.exchange.operation ?? 'request'} for a sandbox resource with ${by === 'production' ? 'production credentials' : "another account's credentials"}: HTTP ${r.status}`);
}

/** The routes these checks name, as the spec spells them, and the kind each names. */
type Route = 'charge' | 'pay' | 'transfer' | 'complete' | 'transaction' | 'webhook-delete';
const OPERATIONS: Record<Route, string> = {
  charge: 'GET /api/v1/pix/in/qrcode/{transactionId}',
  pay: 'POST /api/v1/pix/in/qrcode/{transactionId}/pay',
  transfer: 'GET /api/v1/pix/out/pixkey/{transferId}',
  complete: 'POST /api/v1/pix/out/pixkey/{transferId}/complete',
  transaction: 'GET /api/v1/transactions/{transactionId}',
  'webhook-delete': 'DELETE /api/v1/webhook/{id}',
};
const KIND_OF: Record<Route, string> = { charge: 'PIX charge', pay: 'PIX charge', transfer: 'PIX transfer', complete: 'PIX transfer', transaction: 'PIX charge', 'webhook-delete': 'webhook registration' };

/** The place of a by-id cell of the isolation relation (harness/rules/gateway/isolation.ts). */
function cell(route: Route, actor: IsolationActor, home: IsolationHome): { form: 'by-id'; operation: string; actor: IsolationActor; home: IsolationHome; kind: string; pin?: PinnedErrorCode } {
  const pin = PINS[OPERATIONS[route]];
  return { form: 'by-id', operation: OPERATIONS[route], actor, home, kind: KIND_OF[route], ...(pin !== undefined && { pin }) };
}

check('production credentials: /pay and /complete answer 403 and change nothing', {
  id: 'gateway.isolation.live-simulation-403', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [...MOVES_MONEY, honourTransferRequest, isolateAccountsAndEnvironments, refuseSimulationWithProductionCredentials],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const live = t.gateway('live');
  // "403 credentials are not sandbox credentials (production)." / "403 not sandbox credentials."
  // the two calls name two different resources: sent together, judged in order
  const [pay, complete] = (await t.all([() => live.payPixCharge(resources.chargeId), () => live.completeTransfer(resources.transferId)], (send) => send())) as [ApiResponse, ApiResponse];
  t.judge(isolateAccountsAndEnvironments, { ...cell('pay', 'production', 'own-sandbox'), answer: pay });
  t.judge(isolateAccountsAndEnvironments, { ...cell('complete', 'production', 'own-sandbox'), answer: complete });
  t.judge(refuseSimulationWithProductionCredentials, { kind: 'after', state: await readAgain(t, resources, 'with production credentials') });
});

check('production credentials never see sandbox charges, transfers or webhooks', {
  id: 'gateway.isolation.live-cannot-see-sandbox', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [...MOVES_MONEY, honourTransferRequest, selectEnvironmentByCredentials, isolateAccountsAndEnvironments, ...REGISTERS_WEBHOOKS, answerWebhookList],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const sandbox = t.gateway();
  const live = t.gateway('live');
  // "Two environments share the same host. The environment is chosen by the credential pair used at
  // POST /api/auth": both pairs get a token at the one host the target is configured with
  // POST /api/auth twice and three reads with production credentials: nothing here changes
  // anything another one reads, so they are sent together and judged in order. The reads need a
  // production token: when none can be had they throw (AuthFailedError), and they throw where they
  // did one after the other, after the two exchanges are judged (settled, then taken in order)
  const [sandboxAuth, liveAuth, charge, transfer, txn] = await t.all(
    [() => sandbox.auth(), () => live.auth(), () => live.getPixCharge(resources.chargeId), () => live.getTransfer(resources.transferId), () => live.getTransaction(resources.chargeId)],
    (send) => settle(send()),
  );
  t.judge(selectEnvironmentByCredentials, { sandbox: taken(sandboxAuth), live: taken(liveAuth) });
  // "Sandbox data is isolated": 403 or 404 both pass
  for (const [r, route] of [[taken(charge), 'charge'], [taken(transfer), 'transfer'], [taken(txn), 'transaction']] as const) {
    noteForeign(t, r, 'production');
    t.judge(isolateAccountsAndEnvironments, { ...cell(route, 'production', 'own-sandbox'), answer: r });
  }
  // "webhooks are registered separately using the sandbox token": the production list must not show ours
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    const list = await live.listWebhooks();
    t.judge(answerWebhookList, list);
    if (is2xx(list)) t.judge(isolateAccountsAndEnvironments, { actor: 'production', home: 'own-sandbox', kind: 'webhook registration', form: 'list', operation: 'GET /api/v1/webhook', list, hook: { id: hook.id, url: hook.url, exchange: hook.response.exchange } });
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});

check("another account gets 404 on this account's charges, transfers and webhooks", {
  id: 'gateway.isolation.other-account', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.other'],
  rules: [...MOVES_MONEY, honourTransferRequest, hideOtherAccountsResources, isolateAccountsAndEnvironments, ...REGISTERS_WEBHOOKS],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const other = t.gateway('other');
  // "404 | resource not found or belongs to another account"
  // the three reads together, then the two writes (one per resource) together: the reads still see
  // the resources before any foreign write; each batch is judged in order
  const [charge, transfer, txn] = (await t.all([() => other.getPixCharge(resources.chargeId), () => other.getTransfer(resources.transferId), () => other.getTransaction(resources.chargeId)], (read) => read())) as [ApiResponse, ApiResponse, ApiResponse];
  const foreign = (r: ApiResponse, route: Route): void => {
    noteForeign(t, r, 'other-account');
    t.judge(isolateAccountsAndEnvironments, { ...cell(route, 'other-account', 'own-sandbox'), answer: r });
  };
  foreign(charge, 'charge');
  foreign(transfer, 'transfer');
  foreign(txn, 'transaction');
  const [pay, complete] = (await t.all([() => other.payPixCharge(resources.chargeId), () => other.completeTransfer(resources.transferId)], (send) => send())) as [ApiResponse, ApiResponse];
  noteForeign(t, pay, 'other-account');
  noteForeign(t, complete, 'other-account');
  t.judge(isolateAccountsAndEnvironments, { ...cell('pay', 'other-account', 'own-sandbox'), answer: pay });
  t.judge(isolateAccountsAndEnvironments, { ...cell('complete', 'other-account', 'own-sandbox'), answer: complete });
  t.judge(hideOtherAccountsResources, { kind: 'after', state: await readAgain(t, resources, "with another account's credentials") });
  const sandbox = t.gateway();
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    // "DELETE /api/v1/webhook/{id} … Removes a webhook": not another account's
    foreign(await other.deleteWebhook(hook.id), 'webhook-delete');
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});

check('a production charge: /pay refuses sandbox credentials (403, "resource not owned by a sandbox key"), production credentials and another account', {
  id: 'gateway.isolation.production-resource-simulation', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [...MOVES_MONEY, isolateAccountsAndEnvironments, refuseSimulationWithProductionCredentials],
}, async (t) => {
  // A production PIX charge moves no money until paid, and production never pays it here: /pay is
  // a simulation route, which production credentials must not be able to use. Production transfers
  // cannot be made (a money-moving request): their cells are listed as untryable.
  const live = t.gateway('live');
  const charge = await createCharge(live, t.run, 1_090);
  if (!charge) return t.notRun('gateway.live', 'production did not create a pending PIX charge');
  const others = t.target.gateway?.other !== undefined;
  const callers: { actor: 'sandbox' | 'production' | 'other-account'; send: () => Promise<ApiResponse> }[] = [
    { actor: 'sandbox', send: () => t.gateway().payPixCharge(charge.id) },
    { actor: 'production', send: () => live.payPixCharge(charge.id) },
    ...(others ? [{ actor: 'other-account' as const, send: () => t.gateway('other').payPixCharge(charge.id) }] : []),
  ];
  // each caller names the one production charge; whatever one does the others are refused too: together
  const answers = await t.all(callers, (c) => c.send());
  callers.forEach((c, i) => {
    const answer = answers[i]!;
    t.judge(isolateAccountsAndEnvironments, { ...cell('pay', c.actor, 'own-production'), answer });
    t.run.note(`/pay on a production charge with ${c.actor} credentials: HTTP ${answer.status}`);
  });
  if (!others) t.run.cannotTry(GATEWAY_ISOLATION, [gatewayIsolationCell(OPERATIONS.pay, 'other-account', 'own-production', 'PIX charge')], GATEWAY_CREDENTIAL_MISSING['other-account']);
  // whether the sandbox call paid it shows on a re-read, unless another caller's call already did
  if (!callers.some((c, i) => c.actor !== 'sandbox' && is2xx(answers[i]!))) t.judge(refuseSimulationWithProductionCredentials, { kind: 'not-owned-after', lookup: await live.getPixCharge(charge.id) });
});

// ── the isolation relation, every cell a request can try (harness/rules/gateway/isolation.ts) ──

type Home = IsolationHome;
/** The resources of one home, by kind: an id for the routes naming it, the webhook for the lists. */
type HomeResources = Partial<Record<string, { id: string; hook?: RegisteredWebhook }>>;

/** How each operation of a cell is sent: the spec's routes the suite knows (a new one is a harness error). */
const SENDS: Readonly<Record<string, (gw: GatewayClient, id: string) => Promise<ApiResponse>>> = {
  'GET /api/v1/pix/in/qrcode/{transactionId}': (gw, id) => gw.getPixCharge(id),
  'POST /api/v1/pix/in/qrcode/{transactionId}/pay': (gw, id) => gw.payPixCharge(id),
  'GET /api/v1/pix/out/pixkey/{transferId}': (gw, id) => gw.getTransfer(id),
  'POST /api/v1/pix/out/pixkey/{transferId}/complete': (gw, id) => gw.completeTransfer(id),
  'GET /api/v1/transactions/{transactionId}': (gw, id) => gw.getTransaction(id),
  'DELETE /api/v1/webhook/{id}': (gw, id) => gw.deleteWebhook(id),
  'GET /api/v1/webhook': (gw) => gw.listWebhooks(),
};
const PINS: Readonly<Record<string, PinnedErrorCode>> = { 'GET /api/v1/pix/in/qrcode/{transactionId}': 'charge-lookup', 'GET /api/v1/pix/out/pixkey/{transferId}': 'transfer-lookup' };

/** The clients of the actors the target configures (the sandbox pair always). */
function actorClients(t: CheckTools): Partial<Record<IsolationActor, GatewayClient>> {
  return {
    sandbox: t.gateway(),
    ...(notRunReason(t.target, 'gateway.live') === undefined && { production: t.gateway('live') }),
    ...(notRunReason(t.target, 'gateway.other') === undefined && { 'other-account': t.gateway('other') }),
  };
}

/** Who makes the resources of a home. */
const MAKER: Record<Home, IsolationActor> = { 'own-sandbox': 'sandbox', 'own-production': 'production', 'other-sandbox': 'other-account' };

/** Cells a run cannot try for want of a credential: marked with the variable's name. */
function markMissing(t: CheckTools, cells: readonly IsolationCell[], clients: Partial<Record<IsolationActor, GatewayClient>>): IsolationCell[] {
  const tryable: IsolationCell[] = [];
  for (const c of cells) {
    const missing = ([c.actor, MAKER[c.home]] as const).find((a) => clients[a] === undefined);
    if (missing === undefined || missing === 'sandbox') {
      tryable.push(c);
      continue;
    }
    t.run.cannotTry(GATEWAY_ISOLATION, [c.cell], GATEWAY_CREDENTIAL_MISSING[missing]);
    // the same call is a cell of the simulation relation too (all but production credentials on another account's resource)
    if (c.form === 'simulation' && !(c.actor === 'production' && c.home === 'other-sandbox')) t.run.cannotTry(SIMULATION_ISOLATION, [simulationCell(c.operation, c.actor, c.home === 'own-production' ? 'production' : 'sandbox')], GATEWAY_CREDENTIAL_MISSING[missing]);
  }
  return tryable;
}

/** Makes a home's resources of the kinds its cells name, together; each creation judged by its own rule. */
async function makeHome(t: CheckTools, gw: GatewayClient, home: Home, kinds: ReadonlySet<string>): Promise<HomeResources> {
  const made: HomeResources = {};
  const transfer = transferBody(105);
  const card = cardChargeBody();
  const jobs: [string, () => Promise<unknown>][] = [];
  if (kinds.has('PIX charge')) jobs.push(['PIX charge', () => createCharge(gw, t.run, 1_030)]);
  if (kinds.has('PIX transfer')) jobs.push(['PIX transfer', () => gw.createTransfer(transfer)]);
  if (kinds.has('card charge')) jobs.push(['card charge', () => gw.createCardCharge(card)]);
  if (kinds.has('webhook registration')) jobs.push(['webhook registration', () => sendWebhookRegistration(gw, t.callbackUrl, ['transaction_paid'])]);
  const answers = await t.all(jobs, ([, send]) => send());
  jobs.forEach(([kind], i) => {
    const answer = answers[i];
    if (kind === 'PIX charge') {
      const charge = answer as CreatedCharge | undefined;
      if (charge) made[kind] = { id: charge.id };
    } else if (kind === 'PIX transfer' || kind === 'card charge') {
      const r = answer as ApiResponse;
      if (kind === 'PIX transfer') t.judge(honourTransferRequest, { case: 'valid', body: transfer, answer: r });
      else t.judge(honourCardRequest, { case: 'valid', body: card, answer: r });
      const id = dataOf(r)?.id;
      if (is2xx(r) && (typeof id === 'string' || typeof id === 'number')) made[kind] = { id: String(id) };
    } else {
      const hook = judgeWebhookRegistration(gw, t.run, answer as SentWebhookRegistration);
      if (hook) made[kind] = { id: String(hook.id), hook };
    }
  });
  if (Object.keys(made).length < jobs.length) t.run.note(`${home}: made ${Object.keys(made).join(', ') || 'nothing'} of ${jobs.map(([k]) => k).join(', ')}`);
  return made;
}

check('isolation matrix: every route naming or listing a resource, for every caller across an account or an environment', {
  id: 'gateway.isolation.matrix', api: 'gateway', area: AREA, severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, honourCardRequest, ...REGISTERS_WEBHOOKS, answerWebhookList, isolateAccountsAndEnvironments],
}, async (t) => {
  // Production credentials only read, list, delete a webhook of another home, call the simulation
  // routes (which must answer 403) and make a pending PIX charge and a webhook: nothing moves money.
  const clients = actorClients(t);
  const cells = markMissing(t, GATEWAY_ISOLATION_CELLS.filter((c) => c.form !== 'delivery' && c.untryable === undefined), clients);
  const homes = [...new Set(cells.map((c) => c.home))];
  // the three homes' resources are independent: made together
  const made = await t.all(homes, (home) => makeHome(t, clients[MAKER[home]]!, home, new Set(cells.filter((c) => c.home === home).map((c) => c.kind))));
  const resources = new Map(homes.map((home, i) => [home, made[i]!] as const));
  try {
    const probes = cells.flatMap((c) => {
      const resource = resources.get(c.home)?.[c.kind];
      const send = SENDS[c.operation];
      if (send === undefined) throw new HarnessError('isolation.route', `the spec's ${c.operation} has no request in the isolation matrix`);
      return resource ? [{ c, resource, send }] : [];
    });
    // every probe names another resource or only reads: all together, judged in cell order
    const answers = await t.all(probes, (p) => p.send(clients[p.c.actor]!, p.resource.id));
    const statuses = new Map<string, number[]>();
    probes.forEach(({ c, resource }, i) => {
      const answer = answers[i]!;
      const place = { actor: c.actor, home: c.home, kind: c.kind };
      if (c.form === 'list') {
        t.judge(answerWebhookList, answer);
        if (resource.hook && is2xx(answer)) t.judge(isolateAccountsAndEnvironments, { ...place, form: 'list', operation: c.operation, list: answer, hook: { id: resource.hook.id, url: resource.hook.url, exchange: resource.hook.response.exchange } });
        return;
      }
      const pin = PINS[c.operation];
      t.judge(isolateAccountsAndEnvironments, { ...place, form: 'by-id', operation: c.operation, answer, ...(pin !== undefined && { pin }) });
      const key = `${c.actor} on ${c.home}`;
      statuses.set(key, [...(statuses.get(key) ?? []), answer.status]);
    });
    // which of the stated refusals (403, 404) the target chose, per crossing
    t.run.note(`statuses by crossing: ${[...statuses].map(([k, s]) => `${k}: ${[...new Set(s)].join('/')}`).join('; ')}`);
  } finally {
    const hooks = [...resources].flatMap(([home, r]) => (r['webhook registration']?.hook ? [[home, r['webhook registration'].hook] as const] : []));
    await Promise.all(hooks.map(([home, hook]) => removeWebhooks(clients[MAKER[home]]!, [hook])));
  }
});

const DELIVERY_WAIT_MS = 20_000;
/** how long a foreign webhook is watched after the same event reached its owner's webhook */
const ABSENCE_GRACE_MS = 1_000;
const RESOURCE_OF_KIND: Readonly<Record<string, ResourceKind>> = { 'PIX charge': 'transaction', 'PIX transfer': 'transfer' };

/** Provokes the events a home's delivery cells name; the resource ids by kind. */
async function provokeHome(t: CheckTools, gw: GatewayClient, events: ReadonlySet<string>): Promise<Partial<Record<string, string>>> {
  const ids: Partial<Record<string, string>> = {};
  const wantsTransfer = events.has('transfer_created') || events.has('transfer_completed');
  const body = transferBody(105);
  // the charge and the transfer are independent; the charge is paid before the transfer is completed
  // (its credit covers the transfer, whatever other checks do to the balance meanwhile)
  const [charge, transfer] = (await t.all<() => Promise<unknown>, unknown>([() => createCharge(gw, t.run, 1_040), () => (wantsTransfer ? gw.createTransfer(body) : Promise.resolve(undefined))], (send) => send())) as [CreatedCharge | undefined, ApiResponse | undefined];
  if (charge) ids['PIX charge'] = charge.id;
  if (transfer) {
    t.judge(honourTransferRequest, { case: 'valid', body, answer: transfer });
    const id = dataOf(transfer)?.id;
    if (is2xx(transfer) && typeof id === 'string') ids['PIX transfer'] = id;
  }
  if (charge && (events.has('transaction_paid') || events.has('transfer_completed'))) await payCharge(gw, t.run, charge.id);
  const transferId = ids['PIX transfer'];
  if (transferId !== undefined && events.has('transfer_completed')) t.judge(ensureTransferCompleted, { case: 'answer', answer: await gw.completeTransfer(transferId) });
  return ids;
}

check('isolation matrix: events reach only the webhooks of their own account and environment', {
  id: 'gateway.isolation.deliveries', api: 'gateway', area: AREA, severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, ensureTransferCompleted, ...REGISTERS_WEBHOOKS, isolateAccountsAndEnvironments],
}, async (t) => {
  // Production credentials register a webhook and make a pending PIX charge: nothing moves money.
  const rc = t.receiver();
  const clients = actorClients(t);
  const cells = markMissing(t, GATEWAY_ISOLATION_CELLS.filter((c) => c.form === 'delivery' && c.untryable === undefined), clients);
  const eventOfCell = (c: IsolationCell): GatewayEvent => c.operation.slice('event '.length) as GatewayEvent;
  const actors = [...new Set(cells.flatMap((c) => [c.actor, MAKER[c.home]]))];
  const events = [...new Set(cells.map(eventOfCell))];
  // one webhook per actor (each the owner's webhook for its own home's events, the foreign one for the others'): together
  const sent = await t.all(actors, (a) => settle(sendWebhookRegistration(clients[a]!, t.callbackUrl, events)));
  const hooks = new Map<IsolationActor, RegisteredWebhook>();
  try {
    actors.forEach((a, i) => {
      const hook = judgeWebhookRegistration(clients[a]!, t.run, taken(sent[i]));
      if (hook) hooks.set(a, hook);
    });
    const homes = [...new Set(cells.map((c) => c.home))];
    const provoked = await t.all(homes, (home) => provokeHome(t, clients[MAKER[home]]!, new Set(cells.filter((c) => c.home === home).map(eventOfCell))));
    const idsOf = new Map(homes.map((home, i) => [home, provoked[i]!] as const));
    const about = (c: IsolationCell): ((d: Delivery) => boolean) | undefined => {
      const id = idsOf.get(c.home)?.[c.kind];
      const kind = RESOURCE_OF_KIND[c.kind];
      return id !== undefined && kind !== undefined ? isAbout(kind, id, eventOfCell(c)) : undefined;
    };
    // positive controls: each event reaches its owner's webhook (without one, an absence proves nothing)
    const controls = [...new Map(cells.map((c) => [`${c.home} ${c.kind} ${eventOfCell(c)}`, c] as const)).values()];
    const arrived = await Promise.all(controls.map((c) => {
      const owner = hooks.get(MAKER[c.home]);
      const matches = about(c);
      return owner && matches ? rc.waitFor(matches, { path: owner.path, timeoutMs: DELIVERY_WAIT_MS }) : Promise.resolve(undefined);
    }));
    const reached = new Set(controls.filter((_, i) => arrived[i] !== undefined).map((c) => `${c.home} ${c.kind} ${eventOfCell(c)}`));
    const judged = cells.filter((c) => reached.has(`${c.home} ${c.kind} ${eventOfCell(c)}`) && hooks.has(c.actor));
    const foreign = await Promise.all(judged.map((c) => rc.waitFor(about(c)!, { path: hooks.get(c.actor)!.path, timeoutMs: ABSENCE_GRACE_MS })));
    judged.forEach((c, i) => {
      const d = foreign[i];
      const id = idsOf.get(c.home)?.[c.kind] ?? '';
      t.judge(isolateAccountsAndEnvironments, { actor: c.actor, home: c.home, kind: c.kind, form: 'delivery', event: eventOfCell(c), deliveries: d ? [{ bodyText: d.bodyText, hook: `the webhook registered with ${c.actor} credentials` }] : [], resourceIds: [id] });
    });
    const missed = controls.filter((_, i) => arrived[i] === undefined);
    if (missed.length > 0) t.run.note(`no delivery at the owner's webhook within ${DELIVERY_WAIT_MS} ms (cells not judged): ${missed.map((c) => `${eventOfCell(c)} of ${c.home} ${c.kind}`).join(', ')}`);
  } finally {
    await Promise.all([...hooks].map(([a, hook]) => removeWebhooks(clients[a]!, [hook])));
  }
});
