/**
 * The partner isolation relation, cell by cell (partner-cashin-api.md: "Sandbox and production share
 * the same address; the key prefix decides the environment. Their data is independent."; "404 |
 * resource not found or belongs to another account"; "Lists the account charges"; "POST …/pay
 * (sandbox only) … Production answers 403."; "During the pilot the webhook URL is registered with
 * the integration team … Every state change sends a signed POST to that URL").
 *
 * Cells ({@link partnerIsolationCells}, derived from the spec by harness/rules/isolation-cells.ts):
 * every operation naming a charge (lookup, cancel, the pay simulation), the list (unfiltered and
 * filtered by each state of the spec's `status` enum) and the finance statement (ledger postings) ×
 * every pair crossing an account or an environment; every event of the spec's `webhooks` at the one
 * endpoint a target configures (ours, registered for our sandbox) × a charge of our production and
 * of another account's sandbox. The endpoints of production and of another account are registered
 * with the integration team, outside the suite's reach: no cell names them.
 */
import type { Exchange } from '../../core/exchange.js';
import { defineRule, type Relation } from '../rule.js';
import { specDocument } from '../spec-document.js';
import { crossesAccount, crossesEnvironment, FOREIGN_PAIRS, needsCredential, relationParts, specEvents, specOperations, type IsolationActor, type IsolationCell, type IsolationHome, type IsolationPlace } from '../isolation-cells.js';
import { keepAccountsApart, type ErrorAnswer } from './errors.js';
import { CALLER_LABEL, keepEnvironmentsApart, refuseForeignPaySimulation } from './environments.js';
import type { BeyondLookups } from './isolation.js';
import { listAccountCharges, type LocatedList } from './list.js';

/** The resource kind the routes of each spec tag name. */
const KINDS_BY_TAG: Readonly<Record<string, string>> = { charges: 'charge', finance: 'ledger posting' };

const HOME_LABEL: Record<IsolationHome, string> = { 'own-sandbox': 'our sandbox', 'own-production': 'our production', 'other-sandbox': "another account's sandbox" };
const ENDPOINT = 'our sandbox webhook endpoint';

const PAID_IN_PRODUCTION = 'needs a paid production charge: only a real PIX payment pays one (the pay simulation answers 403 to production keys)';

/** A cell of the partner isolation relation. */
export function partnerIsolationCell(operation: string, actor: IsolationActor, home: IsolationHome, kind: string, form?: 'delivery'): string {
  return `${operation} · ${form === 'delivery' ? ENDPOINT : CALLER_LABEL[actor]} · ${HOME_LABEL[home]} ${kind}`;
}

/** The state a charge of `kind` is in (`paid charge` → paid); undefined for a ledger posting. */
function stateOf(kind: string): string | undefined {
  return kind.endsWith(' charge') ? kind.slice(0, -' charge'.length) : undefined;
}

function limits(home: IsolationHome, kind: string): Pick<IsolationCell, 'untryable' | 'timer'> {
  const state = stateOf(kind);
  if (state === 'expired') return { timer: true };
  if (home === 'own-production' && (state === 'paid' || kind === 'ledger posting')) return { untryable: PAID_IN_PRODUCTION };
  return {};
}

/**
 * The cells of the partner's isolation relation, from its spec (pure; pinned by a unit test). A
 * route naming a charge acts on a pending one; a list filtered by a state shows a charge in that
 * state (unfiltered: a pending one); the statement, the postings of a paid charge. An expired charge
 * needs its expiry (at least 60 s: a timer cell); a paid production charge, and its postings, a real
 * payment (untryable).
 */
export function partnerIsolationCells(document: Record<string, unknown>): IsolationCell[] {
  const cells: IsolationCell[] = [];
  const push = (operation: string, form: IsolationCell['form'], actor: IsolationActor, home: IsolationHome, kind: string): void => {
    cells.push({ cell: partnerIsolationCell(operation, actor, home, kind, form === 'delivery' ? 'delivery' : undefined), operation, form, actor, home, kind, ...limits(home, kind) });
  };
  for (const op of specOperations(document)) {
    const kind = op.tags.map((tag) => KINDS_BY_TAG[tag]).find((k) => k !== undefined);
    if (kind === undefined) continue;
    if (op.byId) {
      const simulation = op.method === 'POST' && op.path.endsWith('/pay');
      const pairs = simulation ? [...FOREIGN_PAIRS.slice(0, 2), ['production', 'own-production'] as const, ...FOREIGN_PAIRS.slice(2)] : FOREIGN_PAIRS;
      for (const [actor, home] of pairs) push(op.operation, simulation ? 'simulation' : 'by-id', actor, home, `pending ${kind}`);
      continue;
    }
    if (op.method !== 'GET') continue;
    const variants: [string, string][] = kind === 'charge' ? [[op.operation, 'pending charge'], ...Object.entries(op.queryEnums).flatMap(([name, values]) => values.map((value): [string, string] => [`${op.operation}?${name}=${value}`, `${value} charge`]))] : [[op.operation, kind]];
    for (const [operation, variantKind] of variants) for (const [actor, home] of FOREIGN_PAIRS) push(operation, 'list', actor, home, variantKind);
  }
  for (const event of specEvents(document)) {
    const state = { created: 'pending', paid: 'paid', canceled: 'canceled' }[event.split('.').pop() ?? ''];
    if (state === undefined) continue;
    for (const home of ['own-production', 'other-sandbox'] as const) push(`event ${event}`, 'delivery', 'sandbox', home, `${state} charge`);
  }
  return cells;
}

/** The partner isolation relation's cells, derived once. */
export const PARTNER_ISOLATION_CELLS: readonly IsolationCell[] = partnerIsolationCells(specDocument('partner'));

/** Isolation of accounts and environments, cell by cell (see the module comment). */
export const PARTNER_ISOLATION: Relation = { id: 'partner.isolation', title: 'Isolation: every route naming or listing a charge, the statement and the events, by key and charge owner and environment', ...relationParts(PARTNER_ISOLATION_CELLS) };

/** What one cell of {@link PARTNER_ISOLATION} showed. */
export type PartnerIsolationObservation = IsolationPlace &
  (
    /** a route naming the charge by id */
    | { form: 'by-id'; operation: string; answer: ErrorAnswer }
    /** a list read by the actor (`operation` with its query) while the charge exists at its home */
    | { form: 'list'; operation: string; list: LocatedList; foreignId: string; exchange: Exchange }
    /** the statement read by the actor after the charge at its home was captured */
    | { form: 'postings'; statement: unknown; ours: { id: string; e2eId?: unknown }; exchanges: readonly Exchange[] }
    /** what our endpoint received while the `event` of a charge at its home was sent */
    | { form: 'delivery'; event: string; observed: Extract<BeyondLookups, { kind: 'deliveries' }> }
  );

/**
 * One cell of {@link PARTNER_ISOLATION}, judged by the rule of the boundary it crosses: another
 * account ({@link keepAccountsApart}: 404 `{detail}`, never listed, no posting, no event signed with
 * our secret; {@link listAccountCharges} for the list), or the other environment
 * ({@link keepEnvironmentsApart}). A route naming a charge across both answers as across
 * environments (404 passes, another 4xx warns): which boundary the target checks first is open. The pay simulation is {@link refuseForeignPaySimulation}'s,
 * except the production key on another account's sandbox charge: 403 ("Production answers 403") and
 * 404 ("belongs to another account") are both stated, either passes.
 */
export const isolatePartnerData = defineRule({
  name: 'isolatePartnerData',
  requirements: [],
  codes: {},
  uses: [keepAccountsApart, keepEnvironmentsApart, listAccountCharges, refuseForeignPaySimulation],
  relation: PARTNER_ISOLATION,
  judge(o: PartnerIsolationObservation, v) {
    const { actor, home, kind } = o;
    const account = crossesAccount(actor, home);
    const whose = `${HOME_LABEL[home]} ${kind}`;
    switch (o.form) {
      case 'by-id': {
        if (!o.answer.exchange.response) return v.unanswered(o.answer.exchange);
        v.covers(partnerIsolationCell(o.operation, actor, home, kind));
        if (o.operation.endsWith('/pay')) {
          if (actor === 'production' && home === 'other-sandbox') return void v.apply(keepEnvironmentsApart, { kind: 'simulate', answer: o.answer, what: `the pay simulation with the production key on ${whose}` });
          return void v.apply(refuseForeignPaySimulation, { caller: actor, resource: home === 'own-production' ? 'production' : 'sandbox', answer: o.answer });
        }
        // across both an account and an environment, a refusal other than 404 is the environment's
        // open point (keepEnvironmentsApart warns), whichever boundary the target checks first
        if (account && !crossesEnvironment(actor, home)) return void v.apply(keepAccountsApart, { kind: 'by-id', answer: o.answer });
        return void v.apply(keepEnvironmentsApart, { kind: 'lookup', answer: o.answer, what: `${o.operation} on ${whose} with ${CALLER_LABEL[actor]}` });
      }
      case 'list':
        v.covers(partnerIsolationCell(o.operation, actor, home, kind));
        if (account) return void v.apply(listAccountCharges, { kind: 'foreign', list: o.list, exchange: o.exchange, foreignId: o.foreignId });
        return void v.apply(keepEnvironmentsApart, { kind: 'listed', list: o.list, foreignId: o.foreignId, exchange: o.exchange, whose });
      case 'postings': {
        const operation = specOperations(specDocument('partner')).find((op) => op.tags.includes('finance') && op.method === 'GET')?.operation ?? 'GET /business/finance';
        v.covers(partnerIsolationCell(operation, actor, home, kind));
        const observed = { kind: 'postings' as const, statement: o.statement, ours: o.ours, exchanges: o.exchanges };
        return void (account ? v.apply(keepAccountsApart, observed) : v.apply(keepEnvironmentsApart, observed));
      }
      case 'delivery':
        v.covers(partnerIsolationCell(`event ${o.event}`, actor, home, kind, 'delivery'));
        return void (account ? v.apply(keepAccountsApart, o.observed) : v.apply(keepEnvironmentsApart, o.observed));
    }
  },
});

/** Why cells are not tried when an optional key or secret is not configured. */
export const PARTNER_CREDENTIAL_MISSING: Readonly<Record<'production' | 'other-account' | 'webhooks', string>> = {
  production: needsCredential('PARTNER_LIVE_API_KEY', 'production key'),
  'other-account': needsCredential('PARTNER_OTHER_API_KEY', 'another account'),
  webhooks: needsCredential('PARTNER_WEBHOOK_SECRET', "our webhook endpoint's secret"),
};
