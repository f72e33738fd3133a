/**
 * Environments and accounts (gateway-api.md):
 * - "What the service does": "Two environments share the same host. The environment is chosen by the
 *   credential pair used at `POST /api/auth`. Sandbox data is isolated, the sandbox balance starts at
 *   zero and is separate from the real balance, webhooks are registered separately using the sandbox
 *   token" ({@link selectEnvironmentByCredentials}, {@link isolateSandboxData});
 * - "Authentication" 4: "Simulation routes (`/pay`, `/complete`) work only with sandbox credentials;
 *   with production credentials they answer 403.", restated by both routes ("403 credentials are not
 *   sandbox credentials (production)", "403 not sandbox credentials") and by the Errors table ("403 |
 *   route unavailable in this environment (simulation with production credentials; resource not owned
 *   by a sandbox key)") ({@link refuseSimulationWithProductionCredentials});
 * - "Errors": "404 | resource not found or belongs to another account" ({@link hideOtherAccountsResources}).
 *
 * These rules also judge the places where real implementations share state by accident: an
 * idempotency cache keyed without the account, a balance query without the environment, webhooks
 * selected by event name only or without the environment.
 */
import type { Exchange } from '../../core/exchange.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { specDocument } from '../spec-document.js';
import { defineRule, type Relation, type Verdict } from '../rule.js';
import { dataOf, is2xx, isRecord } from '../../core/json.js';
import { carryPinnedErrorCode, type Answer, type PinnedErrorCode } from './errors.js';
import { crossesAccount, crossesEnvironment, FOREIGN_PAIRS, needsCredential, relationParts, specEvents, specOperations, type IsolationActor, type IsolationCell, type IsolationHome, type IsolationPlace } from '../isolation-cells.js';

/** A listed object whose id equals `id`, anywhere in a body whose shape is not shown. */
export function findListedById(json: unknown, id: number | string, depth = 0): Record<string, unknown> | undefined {
  if (depth > 4) return undefined;
  if (Array.isArray(json)) {
    for (const item of json) {
      const found = findListedById(item, id, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  if ('id' in json && String(json.id) === String(id)) return json;
  for (const value of Object.values(json)) {
    const found = findListedById(value, id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The sandbox owner's resources read again after calls with other credentials. */
export interface SandboxStateAfter {
  /** the pending charge's lookup and the status it shows (when the lookup answered 2xx) */
  charge?: { answer: Answer; status: unknown };
  /** the banking_processing transfer's lookup and the status it shows */
  transfer?: { answer: Answer; status: unknown };
  /** the credentials used meanwhile, for the titles */
  by: string;
}

/**
 * Nothing done with the other credentials took effect: the pending charge is still `pending` and the
 * transfer is not `completed`. Finds `code` otherwise; unreadable lookups are not judged here.
 */
function judgeStateUnchanged<C extends string>(v: Verdict<C>, after: SandboxStateAfter, code: C): void {
  if (after.charge && after.charge.status !== undefined && after.charge.status !== 'pending') {
    v.find(code, { title: `the sandbox charge changed state after calls ${after.by}`, expected: 'status "pending"', actual: `status ${show(after.charge.status)}`, exchanges: [after.charge.answer.exchange] });
  }
  if (after.transfer && after.transfer.status === 'completed') {
    v.find(code, { title: `the sandbox transfer was completed by calls ${after.by}`, expected: 'not completed', actual: `status ${show(after.transfer.status)}`, exchanges: [after.transfer.answer.exchange] });
  }
}

/** A callback that arrived at a webhook registered by someone else than the sandbox account. */
export interface ForeignDelivery {
  bodyText: string;
  /** where the webhook was registered, for the finding */
  hook: string;
}

/** Foreign deliveries whose body names one of `resourceIds` (the foreign webhook's own traffic is ignored). */
function leakedDeliveries(deliveries: readonly ForeignDelivery[], resourceIds: readonly string[]): ForeignDelivery[] {
  return deliveries.filter((d) => resourceIds.some((id) => id !== '' && d.bodyText.includes(id)));
}

/** POST /api/auth with both pairs at the origin the target is configured with. */
export interface EnvironmentExchanges {
  sandbox: Answer;
  live: Answer;
}

/**
 * "Two environments share the same host. The environment is chosen by the credential pair used at
 * `POST /api/auth`." Both pairs exchanged at the SAME origin each get a token (200): a pair refused at
 * that host, or exchanges made at different origins, fail.
 */
export const selectEnvironmentByCredentials = defineRule({
  name: 'selectEnvironmentByCredentials',
  requirements: ['GW-ENV-SAME-HOST', 'GW-ENV-BY-CREDENTIALS'],
  codes: { 'env.different-host': 'failure', 'env.pair-refused': 'failure' },
  judge(o: EnvironmentExchanges, v) {
    const origin = (e: Exchange): string => {
      try {
        return new URL(e.request.url).origin;
      } catch {
        return e.request.url;
      }
    };
    v.shows(o.sandbox.exchange, o.live.exchange);
    if (origin(o.sandbox.exchange) !== origin(o.live.exchange)) {
      v.find('env.different-host', { title: 'the two credential pairs were exchanged at different hosts', expected: 'one host for both environments', actual: `${origin(o.sandbox.exchange)} and ${origin(o.live.exchange)}` });
    }
    judgeStatus(v, o.sandbox.exchange, 200, { unexpected: 'env.pair-refused' }, 'POST /api/auth with the sandbox pair');
    judgeStatus(v, o.live.exchange, 200, { unexpected: 'env.pair-refused' }, 'POST /api/auth with the production pair, at the same host');
  },
});

/** Balances around one sandbox credit, in cents: both environments read before and after. */
export interface BalanceSeparationWindow {
  sandboxBefore: number;
  sandboxAfter: number;
  productionBefore: number;
  productionAfter: number;
  exchanges: readonly Exchange[];
}

/** What production credentials were shown of the sandbox account's data. */
export type SandboxDataObservation =
  /** a sandbox resource read with production credentials; `pin`: the route pins the 404 body; `what`: another crossing (e.g. a production resource read with sandbox credentials) */
  | { kind: 'read'; answer: Answer; pin?: PinnedErrorCode; what?: string }
  /** the balances of both environments around a sandbox credit */
  | { kind: 'balance'; window: BalanceSeparationWindow }
  /** the production webhook list, after a webhook was registered with the sandbox token (`whose`: another crossing, for the titles) */
  | { kind: 'webhook-list'; list: Answer; hook: { id: number | string; url: string; exchange: Exchange }; whose?: { list: string; hook: string } }
  /** what a webhook registered with the production token received while sandbox events were sent (`whose`: another crossing) */
  | { kind: 'webhook-delivery'; deliveries: readonly ForeignDelivery[]; resourceIds: readonly string[]; whose?: { hook: string; events: string } };

/**
 * "Sandbox data is isolated, the sandbox balance … is separate from the real balance, webhooks are
 * registered separately using the sandbox token": one sentence, whose clause each observation shows.
 * - `read`: a sandbox resource read with production credentials answers 404 ("resource not found") or
 *   403 ("resource not owned by a sandbox key"); a 2xx (the resource was visible) or another status
 *   fails. A 404 carries the code its route pins ({@link carryPinnedErrorCode}).
 * - `balance`: the production balance is only read (real traffic moves it at any time); when the
 *   sandbox moved and production moved by exactly the same amount, the two are one ledger: failure. A
 *   sandbox that did not move decides nothing; production moving by another amount is real traffic.
 * - `webhook-list`: the production list (shape not shown) shows no webhook registered with the sandbox
 *   token (its url, or its id with that url).
 * - `webhook-delivery`: a webhook registered with the production token receives no callback naming a
 *   sandbox resource.
 */
export const isolateSandboxData = defineRule({
  name: 'isolateSandboxData',
  requirements: ['GW-ENV-ISOLATION', 'GW-ENV-BALANCE-SEPARATE', 'GW-ENV-WEBHOOKS-SEPARATE'],
  codes: { 'isolation.sandbox-visible': 'failure', 'env.balance-shared': 'failure', 'isolation.webhook-visible': 'failure', 'isolation.webhook-delivered-across': 'failure' },
  uses: [carryPinnedErrorCode],
  judge(o: SandboxDataObservation, v) {
    switch (o.kind) {
      case 'read': {
        v.decides('GW-ENV-ISOLATION');
        const matched = judgeStatus(v, o.answer.exchange, [404, 403], { unexpected: 'isolation.sandbox-visible' }, `${o.answer.exchange.operation ?? 'a request'} for ${o.what ?? 'a sandbox resource with production credentials'}`);
        if (matched && o.pin !== undefined) v.apply(carryPinnedErrorCode, { answer: o.answer, pin: o.pin });
        return;
      }
      case 'balance': {
        const w = o.window;
        const sandboxDelta = w.sandboxAfter - w.sandboxBefore;
        if (sandboxDelta === 0) return v.nothingToJudge();
        v.decides('GW-ENV-BALANCE-SEPARATE', 'GW-ENV-ISOLATION');
        if (w.productionAfter - w.productionBefore !== sandboxDelta) return;
        v.find('env.balance-shared', {
          title: 'the production balance moved with the sandbox balance',
          expected: 'the production pix.balance unmoved by sandbox activity ("separate from the real balance")',
          actual: `sandbox ${w.sandboxBefore} → ${w.sandboxAfter} cents; production ${w.productionBefore} → ${w.productionAfter} cents (the same ${sandboxDelta} cents)`,
          exchanges: w.exchanges,
        });
        return;
      }
      case 'webhook-list': {
        v.decides('GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION');
        const text = JSON.stringify(o.list.json ?? null);
        const sameId = findListedById(o.list.json, o.hook.id);
        if (!text.includes(o.hook.url) && !(sameId !== undefined && sameId.url === o.hook.url)) return;
        const whose = o.whose ?? { list: 'the production webhook list', hook: 'the sandbox token' };
        v.find('isolation.webhook-visible', { title: `${whose.list} shows a webhook registered with ${whose.hook}`, expected: `no webhook with url ${o.hook.url}`, actual: show(sameId ?? o.hook.url), exchanges: [o.hook.exchange, o.list.exchange] });
        return;
      }
      case 'webhook-delivery': {
        v.decides('GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION');
        const leaked = leakedDeliveries(o.deliveries, o.resourceIds);
        if (leaked.length === 0) return;
        const whose = o.whose ?? { hook: 'the production token', events: 'the sandbox account' };
        v.find('isolation.webhook-delivered-across', {
          title: `a webhook registered with ${whose.hook} received an event of ${whose.events}`,
          expected: `no callback about ${o.resourceIds.join(', ')} at a webhook registered with ${whose.hook}`,
          actual: `${leaked.length} callback(s) at ${leaked.map((d) => d.hook).join(', ')}: ${show(leaked[0]?.bodyText, 160)}`,
        });
      }
    }
  },
});

/** What the simulation routes did with production credentials. */
export type ProductionSimulation =
  /** /pay or /complete called with production credentials (on a sandbox or a production resource) */
  | { kind: 'call'; route: 'pay' | 'complete'; answer: Answer }
  /** /pay or /complete called with sandbox credentials on a production resource of the same account */
  | { kind: 'not-owned'; route: 'pay' | 'complete'; answer: Answer }
  /** that production charge read again with production credentials afterwards */
  | { kind: 'not-owned-after'; lookup: Answer }
  /** the sandbox resources read again by their owner after those calls */
  | { kind: 'after'; state: SandboxStateAfter };

/**
 * "Simulation routes (`/pay`, `/complete`) work only with sandbox credentials; with production
 * credentials they answer 403." (and the two routes' and the Errors table's 403 rows). The 403 comes
 * from the credentials, whoever owns the resource: production credentials get exactly 403 on a sandbox
 * and on a production resource, and the resource is left as it was (a charge still `pending`, a
 * transfer not `completed`).
 */
export const refuseSimulationWithProductionCredentials = defineRule({
  name: 'refuseSimulationWithProductionCredentials',
  requirements: ['GW-AUTH-SIM-SANDBOX-ONLY', 'GW-PIXIN-PAY-PROD-403', 'GW-PIXOUT-COMPLETE-PROD-403', 'GW-ERR-403-MEANING'],
  codes: { 'isolation.simulation-not-403': 'failure', 'isolation.simulated-in-production': 'failure', 'isolation.simulated-not-owned': 'failure', 'isolation.404-not-owned': 'warning' },
  judge(o: ProductionSimulation, v) {
    if (o.kind === 'after') {
      v.decides('GW-AUTH-SIM-SANDBOX-ONLY');
      judgeStateUnchanged(v, o.state, 'isolation.simulated-in-production');
      return;
    }
    if (o.kind === 'not-owned-after') {
      const status = is2xx(o.lookup.status) ? dataOf(o.lookup.json)?.status : undefined;
      if (status === undefined) return v.nothingToJudge();
      v.decides('GW-ERR-403-MEANING');
      if (status === 'pending') return;
      return v.find('isolation.simulated-not-owned', { title: 'a production charge changed state after /pay with sandbox credentials', expected: 'status "pending" (the simulation refused: "resource not owned by a sandbox key")', actual: `status ${show(status)}`, exchanges: [o.lookup.exchange] });
    }
    if (o.kind === 'not-owned') {
      // "403 | route unavailable in this environment (… resource not owned by a sandbox key)": the
      // table states 403; a 404 keeps the production resource apart all the same ("Sandbox data is
      // isolated" reads both ways) and only warns; simulating on it fails
      v.decides('GW-ERR-403-MEANING');
      const { answer } = o;
      if (is2xx(answer.status)) {
        return v.find('isolation.simulated-not-owned', { title: `/${o.route} with sandbox credentials simulated on a production resource`, expected: 'HTTP 403 ("resource not owned by a sandbox key")', actual: `HTTP ${answer.status} ${show(answer.json, 200)}`, exchanges: [answer.exchange] });
      }
      if (answer.status === 404) {
        return v.find('isolation.404-not-owned', { title: `/${o.route} with sandbox credentials on a production resource answered 404`, expected: 'HTTP 403 ("resource not owned by a sandbox key")', actual: 'HTTP 404 (refused, as not found)', exchanges: [answer.exchange] });
      }
      judgeStatus(v, answer.exchange, 403, { unexpected: 'isolation.simulation-not-403' }, `/${o.route} with sandbox credentials on a production resource`);
      return;
    }
    v.decides(o.route === 'pay' ? 'GW-PIXIN-PAY-PROD-403' : 'GW-PIXOUT-COMPLETE-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING');
    judgeStatus(v, o.answer.exchange, 403, { unexpected: 'isolation.simulation-not-403' }, `/${o.route} with production credentials`);
  },
});

/** What another account was shown of, or did to, this account's data. */
export type OtherAccountObservation =
  /** a request naming this account's resource with another account's credentials; `pin`: the route pins the 404 body */
  | { kind: 'request'; answer: Answer; pin?: PinnedErrorCode }
  /** this account's resources read again by their owner after those requests */
  | { kind: 'after'; state: SandboxStateAfter }
  /** this account's first transfer under a key, then another account's first transfer with the same key and body */
  | { kind: 'idempotency-key'; mine: Answer; theirs: Answer }
  /** what another account's webhook received while this account's events were sent */
  | { kind: 'webhook-delivery'; deliveries: readonly ForeignDelivery[]; resourceIds: readonly string[] }
  /** a webhook list read with one account's credentials, after the other account registered `hook` */
  | { kind: 'listed'; list: Answer; hook: { id: number | string; url: string; exchange: Exchange } };

/**
 * "404 | resource not found or belongs to another account": nothing of an account exists for another.
 * - `request`: 404 passes (with the code its route pins); 403 is a WARNING (the 403 row reads about
 *   sandbox keys, not accounts, but refuses all the same); a 2xx or another status fails.
 * - `after`: the requests changed nothing (the charge still `pending`, the transfer not `completed`).
 * - `idempotency-key`: the key is an operation of this account only: the other account gets a transfer
 *   of its own. Getting this account's transfer (same `data.id`) fails; a 409 is a WARNING (nothing
 *   leaks, but its own first use was refused, and the 409 of the text is for a key "reused with a
 *   different body"). Either creation failing for its own reasons decides nothing.
 * - `webhook-delivery`: another account's webhook receives no callback naming this account's resources.
 * - `listed`: a webhook list shows no webhook the other account registered (its url, or its id with that url).
 */
export const hideOtherAccountsResources = defineRule({
  name: 'hideOtherAccountsResources',
  requirements: ['GW-ERR-404-OTHER-ACCOUNT'],
  codes: {
    'isolation.other-account-visible': 'failure',
    'isolation.403-for-other-account': 'warning',
    'isolation.changed-by-other-account': 'failure',
    'idempotency.cross-account': 'failure',
    'idempotency.cross-account-409': 'warning',
    'isolation.delivered-to-other-account': 'failure',
    'isolation.other-account-listed': 'failure',
  },
  uses: [carryPinnedErrorCode],
  judge(o: OtherAccountObservation, v) {
    switch (o.kind) {
      case 'request': {
        const what = `${o.answer.exchange.operation ?? 'a request'} for this account's resource with another account's credentials`;
        if (o.answer.status === 403) {
          v.find('isolation.403-for-other-account', { title: `${what} answered 403`, expected: 'HTTP 404 ("resource not found or belongs to another account")', actual: 'HTTP 403 (the "resource not owned by a sandbox key" reading)', exchanges: [o.answer.exchange] });
          return;
        }
        const matched = judgeStatus(v, o.answer.exchange, 404, { unexpected: 'isolation.other-account-visible' }, what);
        if (matched && o.pin !== undefined) v.apply(carryPinnedErrorCode, { answer: o.answer, pin: o.pin });
        return;
      }
      case 'after':
        judgeStateUnchanged(v, o.state, 'isolation.changed-by-other-account');
        return;
      case 'idempotency-key': {
        const { mine, theirs } = o;
        const mineId = dataOf(mine.json)?.id;
        if (!is2xx(mine.status) || mineId === undefined) return v.nothingToJudge();
        v.shows(mine.exchange, theirs.exchange);
        if (theirs.status === 409) {
          v.find('idempotency.cross-account-409', { title: "another account's first use of a key, with the same body, answered 409", expected: 'a transfer of its own: the key is an operation of this account only', actual: 'HTTP 409 (the key space looks shared between accounts)' });
          return;
        }
        if (!is2xx(theirs.status)) return v.nothingToJudge();
        const theirsId = dataOf(theirs.json)?.id;
        if (theirsId === undefined || String(theirsId) !== String(mineId)) return;
        v.find('idempotency.cross-account', {
          title: "another account reusing a key got this account's transfer",
          expected: "a transfer of the other account's own (another id): a resource of another account is not found",
          actual: `HTTP ${theirs.status} with data.id ${show(theirsId)}, the id of this account's transfer`,
        });
        return;
      }
      case 'listed': {
        const sameId = findListedById(o.list.json, o.hook.id);
        if (!JSON.stringify(o.list.json ?? null).includes(o.hook.url) && !(sameId !== undefined && sameId.url === o.hook.url)) return;
        v.find('isolation.other-account-listed', { title: "a webhook list shows another account's webhook", expected: `no webhook with url ${o.hook.url} ("404 | … belongs to another account")`, actual: show(sameId ?? o.hook.url), exchanges: [o.hook.exchange, o.list.exchange] });
        return;
      }
      case 'webhook-delivery': {
        const leaked = leakedDeliveries(o.deliveries, o.resourceIds);
        if (leaked.length === 0) return;
        v.find('isolation.delivered-to-other-account', {
          title: "another account's webhook received an event of this account",
          expected: `no callback about ${o.resourceIds.join(', ')} at another account's webhook`,
          actual: `${leaked.length} callback(s) at ${leaked.map((d) => d.hook).join(', ')}: ${show(leaked[0]?.bodyText, 160)}`,
        });
      }
    }
  },
});

/** Who calls a simulation route, and whose resource it names. */
export type SimulationActor = 'production' | 'sandbox' | 'other-account';
const ACTOR_LABEL: Record<SimulationActor, string> = { production: 'production credentials', sandbox: 'sandbox credentials', 'other-account': "another account's sandbox credentials" };

/**
 * The simulation routes of the spec ("Simulation routes (`/pay`, `/complete`)"): every POST whose path
 * ends in /pay or /complete, with the kind of resource its path names (pure; pinned by a unit test).
 */
export function simulationRoutes(document: Record<string, unknown>): { route: 'pay' | 'complete'; operation: string }[] {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  return Object.keys(paths)
    .filter((path) => /\/(pay|complete)$/.test(path) && paths[path]?.['post'] !== undefined)
    .map((path) => ({ route: path.endsWith('/pay') ? ('pay' as const) : ('complete' as const), operation: `POST ${path}` }));
}

/** A cell of the simulation isolation relation. */
export function simulationCell(operation: string, actor: SimulationActor, resource: 'sandbox' | 'production'): string {
  return `${operation} · ${ACTOR_LABEL[actor]} · a ${resource} resource`;
}

const SIMULATION_ROUTES = simulationRoutes(specDocument('gateway'));
const ACTORS_ON: readonly (readonly [SimulationActor, 'sandbox' | 'production'])[] = [['production', 'sandbox'], ['production', 'production'], ['sandbox', 'production'], ['other-account', 'sandbox'], ['other-account', 'production']];
const NO_PRODUCTION_TRANSFER = 'needs a production transfer: creating one is a money-moving request with production credentials, which the suite never sends';

/**
 * Isolation of the simulation routes, cell by cell: every simulation route of the spec × who calls it
 * (production credentials, sandbox credentials, another account's sandbox credentials) × the
 * environment of the account's resource it names. The sandbox owner simulating on its own sandbox
 * resource is the routes' own behaviour (the pix-charges and pix-transfers suites), not a cell here.
 */
export const SIMULATION_ISOLATION: Relation = {
  id: 'gateway.simulation-isolation',
  title: 'Simulation routes by caller and resource environment',
  cells: SIMULATION_ROUTES.flatMap(({ operation }) => ACTORS_ON.map(([actor, resource]) => simulationCell(operation, actor, resource))),
  untryable: Object.fromEntries(SIMULATION_ROUTES.filter((r) => r.route === 'complete').flatMap(({ operation }) => ACTORS_ON.filter(([, resource]) => resource === 'production').map(([actor]) => [simulationCell(operation, actor, 'production'), NO_PRODUCTION_TRANSFER]))),
};

/**
 * One call of a simulation route by someone else than the sandbox owner of the resource:
 * production credentials get 403 ({@link refuseSimulationWithProductionCredentials}), sandbox
 * credentials on a production resource 403 ("resource not owned by a sandbox key", same rule),
 * another account 404 ({@link hideOtherAccountsResources}).
 */
export const refuseForeignSimulation = defineRule({
  name: 'refuseForeignSimulation',
  requirements: [],
  codes: {},
  uses: [refuseSimulationWithProductionCredentials, hideOtherAccountsResources],
  relation: SIMULATION_ISOLATION,
  judge(o: { route: 'pay' | 'complete'; actor: SimulationActor; resource: 'sandbox' | 'production'; answer: Answer }, v) {
    const { route, actor, resource, answer } = o;
    if (!answer.exchange.response) return v.unanswered(answer.exchange);
    const operation = SIMULATION_ROUTES.find((r) => r.route === route)?.operation;
    if (operation !== undefined) v.covers(simulationCell(operation, actor, resource));
    if (actor === 'other-account') v.apply(hideOtherAccountsResources, { kind: 'request', answer });
    else if (actor === 'production') v.apply(refuseSimulationWithProductionCredentials, { kind: 'call', route, answer });
    else if (resource === 'production') v.apply(refuseSimulationWithProductionCredentials, { kind: 'not-owned', route, answer });
    else v.nothingToJudge();
  },
});

// ── The isolation relation: every route naming, listing or announcing a resource ──────────────

/** The resource kinds the routes of each spec tag name (the "Resources" sections; "Generic status lookup for card transactions and PIX charges"). */
const KINDS_BY_TAG: Readonly<Record<string, readonly string[]>> = {
  'pix-in': ['PIX charge'],
  'pix-out': ['PIX transfer'],
  transactions: ['PIX charge', 'card charge'],
  webhooks: ['webhook registration'],
};

/** The operation that makes a resource of each kind. */
const CREATED_BY: Readonly<Record<string, string>> = {
  'PIX charge': 'POST /api/v1/pix/in/qrcode',
  'PIX transfer': 'POST /api/v1/pix/out/pixkey',
  'card charge': 'POST /api/v1/card',
  'webhook registration': 'POST /api/v1/webhook',
};

/** The money-moving operations: never sent with production credentials (test/safety.test.ts; the HTTP layer refuses them). */
export const GATEWAY_MONEY_MOVING: readonly string[] = ['POST /api/v1/pix/out/pixkey', 'POST /api/v1/card'];

/** The kind an event announces ("Transaction events", "Transfer events", "Infraction event … transaction{…}"). */
function eventKind(event: string): string | undefined {
  if (event.startsWith('transaction_') || event === 'infraction') return 'PIX charge';
  if (event.startsWith('transfer_')) return 'PIX transfer';
  return undefined;
}

/** The documented route that provokes each event ("States and transitions": the creations and the simulation routes). */
const PROVOKED_BY: Readonly<Record<string, string>> = {
  transaction_created: 'POST /api/v1/pix/in/qrcode',
  transaction_paid: 'POST /api/v1/pix/in/qrcode/{transactionId}/pay',
  transfer_created: 'POST /api/v1/pix/out/pixkey',
  transfer_completed: 'POST /api/v1/pix/out/pixkey/{transferId}/complete',
};

const HOME_LABEL: Record<IsolationHome, string> = { 'own-sandbox': "the account's sandbox", 'own-production': "the account's production", 'other-sandbox': "another account's sandbox" };

/** A cell of the gateway isolation relation. */
export function gatewayIsolationCell(operation: string, actor: IsolationActor, home: IsolationHome, kind: string, form?: 'delivery'): string {
  const who = form === 'delivery' ? `a webhook registered with ${ACTOR_LABEL[actor]}` : ACTOR_LABEL[actor];
  return `${operation} · ${who} · ${HOME_LABEL[home]} ${kind}`;
}

function noProduction(kind: string): string | undefined {
  const creation = CREATED_BY[kind];
  if (creation === undefined || !GATEWAY_MONEY_MOVING.includes(creation)) return undefined;
  return `needs a production ${kind}: creating one (${creation}) is a money-moving request with production credentials, which the suite never sends`;
}

/**
 * The cells of the gateway's isolation relation, from its spec (pure; pinned by a unit test): every
 * operation of a tag naming a resource kind whose path names a resource (lookups, the simulation
 * routes, DELETE) or that lists resources (a GET without one), and every event of the spec's
 * `webhooks`, × every pair crossing an account or an environment ({@link FOREIGN_PAIRS}); the
 * simulation routes also × production credentials on the account's production resource. A
 * production resource whose creation moves money, and an event no documented route provokes (or
 * only a real payment does), cannot be tried: the cell says why.
 */
export function gatewayIsolationCells(document: Record<string, unknown>): IsolationCell[] {
  const cells: IsolationCell[] = [];
  for (const op of specOperations(document)) {
    const kinds = op.tags.flatMap((tag) => KINDS_BY_TAG[tag] ?? []);
    const simulation = op.byId && op.method === 'POST' && /\/(pay|complete)$/.test(op.path);
    const form = simulation ? 'simulation' : op.byId ? 'by-id' : op.method === 'GET' ? 'list' : undefined;
    if (form === undefined) continue;
    const pairs = simulation ? [...FOREIGN_PAIRS.slice(0, 2), ['production', 'own-production'] as const, ...FOREIGN_PAIRS.slice(2)] : FOREIGN_PAIRS;
    for (const kind of kinds) {
      for (const [actor, home] of pairs) {
        const untryable = home === 'own-production' ? noProduction(kind) : undefined;
        cells.push({ cell: gatewayIsolationCell(op.operation, actor, home, kind), operation: op.operation, form, actor, home, kind, ...(untryable !== undefined && { untryable }) });
      }
    }
  }
  for (const event of specEvents(document)) {
    const kind = eventKind(event);
    if (kind === undefined) continue;
    const operation = `event ${event}`;
    const by = PROVOKED_BY[event];
    for (const [actor, home] of FOREIGN_PAIRS) {
      const untryable =
        by === undefined
          ? `no documented route provokes ${event}`
          : home !== 'own-production'
            ? undefined
            : (noProduction(kind) ?? (by.endsWith('/pay') ? `needs a paid production ${kind}: only a real PIX payment pays one (the simulation answers 403 to production credentials)` : undefined));
      cells.push({ cell: gatewayIsolationCell(operation, actor, home, kind, 'delivery'), operation, form: 'delivery', actor, home, kind, ...(untryable !== undefined && { untryable }) });
    }
  }
  return cells;
}

/** The gateway isolation relation's cells, derived once. */
export const GATEWAY_ISOLATION_CELLS: readonly IsolationCell[] = gatewayIsolationCells(specDocument('gateway'));

/**
 * Isolation of accounts and environments, cell by cell: who calls (or whose webhook receives) × whose
 * resource, in which environment, of which kind × the route (see {@link gatewayIsolationCells}).
 */
export const GATEWAY_ISOLATION: Relation = { id: 'gateway.isolation', title: 'Isolation: every route naming, listing or announcing a resource, by caller and resource owner and environment', ...relationParts(GATEWAY_ISOLATION_CELLS) };

/** What one cell of {@link GATEWAY_ISOLATION} showed. */
export type IsolationObservation = IsolationPlace &
  (
    /** a route naming the resource by id (a lookup, DELETE, a simulation route); `pin`: the route pins the 404 body */
    | { form: 'by-id'; operation: string; answer: Answer; pin?: PinnedErrorCode }
    /** a list read by the actor after the resource (a webhook) was registered at its home */
    | { form: 'list'; operation: string; list: Answer; hook: { id: number | string; url: string; exchange: Exchange } }
    /** what the actor's webhook received while the resource's `event` was sent to its owner's */
    | { form: 'delivery'; event: string; deliveries: readonly ForeignDelivery[]; resourceIds: readonly string[] }
  );

const ACTOR_HOME_LABEL: Record<IsolationActor, string> = { production: 'the production token', sandbox: 'the sandbox token', 'other-account': "another account's token" };

/**
 * One cell of {@link GATEWAY_ISOLATION}: the stated answer for whoever crosses an account or an
 * environment.
 * - Naming a resource across environments (production credentials on a sandbox resource, sandbox
 *   credentials on a production one, of any account): "Sandbox data is isolated", with 404 ("not
 *   found") and 403 ("resource not owned by a sandbox key") both stated refusals
 *   ({@link isolateSandboxData}); the simulation routes: "with production credentials they answer
 *   403" and sandbox credentials on a production resource 403 ({@link refuseForeignSimulation}),
 *   except production credentials on another account's sandbox resource, where 403 (production) and
 *   404 (another account) are both stated and either passes.
 * - Naming a resource of another account in its own environment: 404 ({@link hideOtherAccountsResources}).
 * - A list shows no webhook registered at another home; a webhook receives no event of a resource
 *   at another home: across accounts {@link hideOtherAccountsResources}, across environments
 *   {@link isolateSandboxData}.
 */
export const isolateAccountsAndEnvironments = defineRule({
  name: 'isolateAccountsAndEnvironments',
  requirements: [],
  codes: {},
  uses: [isolateSandboxData, hideOtherAccountsResources, refuseForeignSimulation],
  relation: GATEWAY_ISOLATION,
  judge(o: IsolationObservation, v) {
    const { actor, home, kind } = o;
    const across = crossesEnvironment(actor, home);
    const whose = `${HOME_LABEL[home]} ${kind}`;
    if (o.form === 'by-id') {
      if (!o.answer.exchange.response) return v.unanswered(o.answer.exchange);
      v.covers(gatewayIsolationCell(o.operation, actor, home, kind));
      const route = /\/(pay|complete)$/.exec(o.operation)?.[1] as 'pay' | 'complete' | undefined;
      if (route !== undefined && !(actor === 'production' && home === 'other-sandbox')) {
        return void v.apply(refuseForeignSimulation, { route, actor, resource: home === 'own-production' ? 'production' : 'sandbox', answer: o.answer });
      }
      const pin = o.pin !== undefined ? { pin: o.pin } : {};
      if (across) return void v.apply(isolateSandboxData, { kind: 'read', answer: o.answer, ...pin, what: `${whose} with ${ACTOR_LABEL[actor]}` });
      return void v.apply(hideOtherAccountsResources, { kind: 'request', answer: o.answer, ...pin });
    }
    if (o.form === 'list') {
      v.covers(gatewayIsolationCell(o.operation, actor, home, kind));
      if (crossesAccount(actor, home)) return void v.apply(hideOtherAccountsResources, { kind: 'listed', list: o.list, hook: o.hook });
      return void v.apply(isolateSandboxData, { kind: 'webhook-list', list: o.list, hook: o.hook, whose: { list: `the webhook list read with ${ACTOR_LABEL[actor]}`, hook: ACTOR_HOME_LABEL[home === 'own-production' ? 'production' : 'sandbox'] } });
    }
    v.covers(gatewayIsolationCell(`event ${o.event}`, actor, home, kind, 'delivery'));
    if (crossesAccount(actor, home)) return void v.apply(hideOtherAccountsResources, { kind: 'webhook-delivery', deliveries: o.deliveries, resourceIds: o.resourceIds });
    v.apply(isolateSandboxData, { kind: 'webhook-delivery', deliveries: o.deliveries, resourceIds: o.resourceIds, whose: { hook: ACTOR_HOME_LABEL[actor], events: whose } });
  },
});

/** Why cells of an actor (or of a home it makes) are not tried when its credentials are not configured. */
export const GATEWAY_CREDENTIAL_MISSING: Readonly<Record<'production' | 'other-account', string>> = {
  production: needsCredential('GATEWAY_LIVE_CLIENT_ID/GATEWAY_LIVE_CLIENT_SECRET', 'production credentials'),
  'other-account': needsCredential('GATEWAY_OTHER_CLIENT_ID/GATEWAY_OTHER_CLIENT_SECRET', 'another account'),
};
