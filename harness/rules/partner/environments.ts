/**
 * Keys, environments and the service's address (partner-cashin-api.md, "What the service does":
 * "Sandbox and production share the same address; the key prefix decides the environment. Their data
 * is independent."; "PIX out (payout, route `/v1/business/payouts`) is not available";
 * "Authentication": "Key prefix `ak_test_` selects sandbox; `ak_live_` selects production.";
 * "Versioning": "The version is the `/v1` segment at the end of the base address. Sandbox and
 * production use the same address and version."; "POST …/pay (sandbox only) … Production answers
 * 403.", "403 | route unavailable in this environment (simulate payment in production)").
 */
import type { Exchange } from '../../core/exchange.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule, type Relation } from '../rule.js';
import { specDocument } from '../spec-document.js';
import { answerErrorsWithDetail, judgePartnerError, keepAccountsApart, type Answer, type ErrorAnswer } from './errors.js';
import { judgeBeyondLookups, type BeyondLookups } from './isolation.js';
import type { LocatedList } from './list.js';

/**
 * "Their data is independent.": a charge of one environment is not reached with the other's key,
 * nor what sits behind it.
 * - `lookup`: looked up with the other key it is not found: 404 `{detail}` passes, a 2xx that shows
 *   it fails, another 4xx only warns (the status of a cross-environment lookup is not stated beyond
 *   404);
 * - `listed`: the other environment's list does not show it;
 * - `key-reuse`, `postings`, `deliveries` (isolation.ts): production's first use of our
 *   Idempotency-Key does not return our sandbox charge, its statement shows no posting of our
 *   capture; a production event at our sandbox endpoint only warns, signed with our secret or not:
 *   whether one URL (and secret) was registered for sandbox and production alike is not stated.
 */
export const keepEnvironmentsApart = defineRule({
  name: 'keepEnvironmentsApart',
  requirements: ['PT-ENV-ISOLATION'],
  codes: {
    'env.visible': 'failure',
    'env.lookup-status': 'failure',
    'env.lookup-other-4xx': 'warning',
    'env.shared-list': 'failure',
    'env.idempotency-shared': 'failure',
    'env.idempotency-key-taken': 'warning',
    'env.foreign-posting': 'failure',
    'env.foreign-event': 'warning',
    'env.simulated-across': 'failure',
  },
  uses: [answerErrorsWithDetail],
  judge(observation: { kind: 'lookup'; answer: ErrorAnswer; what: string } | { kind: 'simulate'; answer: ErrorAnswer; what: string } | { kind: 'listed'; list: LocatedList; foreignId: string; exchange: Exchange; whose: string } | BeyondLookups, v) {
    switch (observation.kind) {
      case 'simulate': {
        // the pay simulation naming a charge of the other environment: 404 ("Their data is
        // independent") and 403 ("route unavailable in this environment (simulate payment in
        // production)") both refuse it, and which one applies is not stated; paying it fails
        const { answer, what } = observation;
        if (answer.status >= 200 && answer.status <= 299) {
          return v.find('env.simulated-across', { title: `${what} was paid`, expected: 'refused: 404 ("Their data is independent") or 403 ("simulate payment in production")', actual: `HTTP ${answer.status} ${show(answer.json, 200)}`, exchanges: [answer.exchange] });
        }
        if (judgeStatus(v, answer.exchange, [403, 404], { unexpected: 'env.lookup-status' }, what) && answer.exchange.response) v.apply(answerErrorsWithDetail, answer);
        return;
      }
      case 'lookup': {
        const { answer, what } = observation;
        if (answer.status >= 200 && answer.status <= 299) {
          return v.find('env.visible', { title: `${what} reached the charge`, expected: 'not found (404): "Their data is independent"', actual: `HTTP ${answer.status} ${show(answer.json, 200)}`, exchanges: [answer.exchange] });
        }
        judgePartnerError(v, answer, 404, { unexpected: 'env.lookup-status', otherClientError: 'env.lookup-other-4xx' }, what);
        return;
      }
      case 'listed':
        if (!observation.list.items.some((i) => i.id === observation.foreignId)) return;
        return v.find('env.shared-list', { title: `the list shows ${observation.whose}`, expected: 'only this environment\'s charges ("Their data is independent")', actual: `charge ${observation.foreignId} listed`, exchanges: [observation.exchange] });
      default:
        return judgeBeyondLookups(v, observation, 'production', { shared: 'env.idempotency-shared', taken: 'env.idempotency-key-taken', posting: 'env.foreign-posting', signed: 'env.foreign-event', unsigned: 'env.foreign-event' });
    }
  },
});

/**
 * "POST …/pay (sandbox only) … Production answers 403." with "403 | route unavailable in this
 * environment (simulate payment in production)" and "Key prefix … `ak_live_` selects production": the
 * simulation with a production key answers 403 `{detail}` (the one documented sign that the prefix
 * selected production), and the charge is not paid afterwards.
 */
export const refuseSimulationInProduction = defineRule({
  name: 'refuseSimulationInProduction',
  requirements: ['PT-CHARGE-PAY-PROD-403', 'PT-ERR-403-ENV', 'PT-AUTH-PREFIX-ENV'],
  codes: { 'env.live-pay-status': 'failure', 'env.live-paid': 'failure' },
  uses: [answerErrorsWithDetail],
  judge(observation: { kind: 'pay'; answer: ErrorAnswer } | { kind: 'state'; answer: Pick<Answer, 'status' | 'exchange'>; state?: unknown }, v) {
    if (observation.kind === 'pay') {
      judgePartnerError(v, observation.answer, 403, { unexpected: 'env.live-pay-status' }, 'the sandbox pay with a production key');
      return;
    }
    v.decides('PT-CHARGE-PAY-PROD-403');
    if (observation.state !== 'paid') return;
    v.find('env.live-paid', { title: 'the simulation paid a production charge', expected: 'the charge stays pending ("Production answers 403")', actual: 'status "paid"', exchanges: [observation.answer.exchange] });
  },
});

/** The base address a request went to: the URL before the documented `/business/…` path. */
function baseOf(url: string): string | undefined {
  const m = /^(https?:\/\/[^/?#]+(?:\/[^?#]*?)?)\/business\//i.exec(url);
  return m?.[1]?.toLowerCase();
}

/**
 * "Sandbox and production share the same address; the key prefix decides the environment" and
 * "Sandbox and production use the same address and version": the same request made with each key at
 * one base address (version segment included) is served (2xx) for both. A refusal of either key
 * there, or different base addresses, fails. Whether that base ends in /v1 is
 * {@link endBaseAddressInV1}'s.
 */
export const serveBothEnvironmentsAtOneAddress = defineRule({
  name: 'serveBothEnvironmentsAtOneAddress',
  requirements: ['PT-ENV-SAME-ADDRESS', 'PT-VERSION-SAME'],
  codes: { 'env.key-refused': 'failure', 'env.address-differs': 'failure' },
  judge(observation: { sandbox: Pick<Answer, 'status' | 'exchange'>; production: Pick<Answer, 'status' | 'exchange'> }, v) {
    const { sandbox, production } = observation;
    judgeStatus(v, sandbox.exchange, '2xx', { unexpected: 'env.key-refused' }, 'a creation with the sandbox key');
    judgeStatus(v, production.exchange, '2xx', { unexpected: 'env.key-refused' }, 'the same creation with the production key');
    const a = baseOf(sandbox.exchange.request.url);
    const b = baseOf(production.exchange.request.url);
    if (a !== undefined && a === b) return;
    v.find('env.address-differs', { title: 'sandbox and production were not reached at one address and version', expected: 'one base address ending in /v1 for both keys', actual: `sandbox ${show(a)}, production ${show(b)}`, exchanges: [sandbox.exchange, production.exchange] });
  },
});

/**
 * "The version is the `/v1` segment at the end of the base address": the configured partner base
 * address ends in /v1. It is the operator's configuration (copied from the integration team), so
 * another ending only warns.
 */
export const endBaseAddressInV1 = defineRule({
  name: 'endBaseAddressInV1',
  requirements: ['PT-VERSION-V1'],
  codes: { 'config.base-version': 'warning' },
  judge(baseUrl: string, v) {
    if (/\/v1\/?$/.test(baseUrl)) return;
    v.find('config.base-version', { title: 'the configured partner base address does not end in /v1', expected: '{partner_base_url} ending in /v1', actual: baseUrl });
  },
});

/**
 * "PIX out (payout, route `/v1/business/payouts`) is not available: it is in development and has no
 * public route." Its answer is not shown (404 or 403): any 4xx passes; a 2xx is reported
 * (PT-PAYOUT-UNAVAILABLE is ambiguous: a warning); a 5xx is no answer at all.
 */
export const keepPayoutsUnavailable = defineRule({
  name: 'keepPayoutsUnavailable',
  requirements: ['PT-PAYOUT-UNAVAILABLE'],
  codes: { 'payout.available': 'failure', 'payout.status': 'failure' },
  judge(answer: Pick<Answer, 'status' | 'exchange'>, v) {
    if (answer.status >= 200 && answer.status <= 299) {
      return v.find('payout.available', { title: 'POST /v1/business/payouts answered 2xx', expected: 'no public route (e.g. 404 or 403)', actual: `HTTP ${answer.status}`, exchanges: [answer.exchange] });
    }
    judgeStatus(v, answer.exchange, '4xx', { unexpected: 'payout.status' }, 'POST /business/payouts');
  },
});

/** Who calls the pay simulation, and whose charge it names. */
export type PayCaller = 'production' | 'sandbox' | 'other-account';
export const CALLER_LABEL: Record<PayCaller, string> = { production: 'the production key', sandbox: 'the sandbox key', 'other-account': "another account's sandbox key" };
const CALLERS_ON: readonly (readonly [PayCaller, 'sandbox' | 'production'])[] = [['production', 'sandbox'], ['production', 'production'], ['sandbox', 'production'], ['other-account', 'sandbox'], ['other-account', 'production']];

/** The spec's simulation routes: every POST whose path ends in /pay ("POST …/:id/pay (sandbox only)"). */
export function paySimulationOperations(document: Record<string, unknown>): string[] {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  return Object.keys(paths).filter((path) => path.endsWith('/pay') && paths[path]?.['post'] !== undefined).map((path) => `POST ${path}`);
}

/** A cell of the pay simulation isolation relation. */
export function payCell(operation: string, caller: PayCaller, resource: 'sandbox' | 'production'): string {
  return `${operation} · ${CALLER_LABEL[caller]} · a ${resource} charge`;
}

const PAY_OPERATIONS = paySimulationOperations(specDocument('partner'));

/**
 * Isolation of the pay simulation, cell by cell: the spec's simulation route × who calls it × the
 * environment of the charge it names. The sandbox owner paying its own sandbox charge is the route's
 * own behaviour (the transitions suite), not a cell here.
 */
export const PAY_SIMULATION_ISOLATION: Relation = {
  id: 'partner.simulation-isolation',
  title: 'Pay simulation by caller and charge environment',
  cells: PAY_OPERATIONS.flatMap((operation) => CALLERS_ON.map(([caller, resource]) => payCell(operation, caller, resource))),
};

/**
 * One call of the pay simulation by someone else than the sandbox owner of the charge: the
 * production key on a production charge gets 403 ({@link refuseSimulationInProduction}); a key of
 * the other environment is refused with 403 or 404 ({@link keepEnvironmentsApart}); another account
 * gets 404 ({@link keepAccountsApart}), or 403 or 404 on a production charge (both boundaries).
 */
export const refuseForeignPaySimulation = defineRule({
  name: 'refuseForeignPaySimulation',
  requirements: [],
  codes: {},
  uses: [refuseSimulationInProduction, keepEnvironmentsApart, keepAccountsApart],
  relation: PAY_SIMULATION_ISOLATION,
  judge(o: { caller: PayCaller; resource: 'sandbox' | 'production'; answer: ErrorAnswer }, v) {
    const { caller, resource, answer } = o;
    if (!answer.exchange.response) return v.unanswered(answer.exchange);
    const operation = PAY_OPERATIONS[0];
    if (operation !== undefined) v.covers(payCell(operation, caller, resource));
    // another account's sandbox key on our production charge crosses both boundaries: 403 (the
    // environment) and 404 ("belongs to another account") are both stated; which one the target
    // checks first is open
    if (caller === 'other-account' && resource === 'production') v.apply(keepEnvironmentsApart, { kind: 'simulate', answer, what: `the pay simulation with ${CALLER_LABEL[caller]} on a production charge` });
    else if (caller === 'other-account') v.apply(keepAccountsApart, { kind: 'by-id', answer });
    else if (caller === 'production' && resource === 'production') v.apply(refuseSimulationInProduction, { kind: 'pay', answer });
    else if ((caller === 'production') !== (resource === 'production')) v.apply(keepEnvironmentsApart, { kind: 'simulate', answer, what: `the pay simulation with ${CALLER_LABEL[caller]} on a ${resource} charge` });
    else v.nothingToJudge();
  },
});
