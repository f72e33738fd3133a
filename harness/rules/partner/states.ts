/**
 * Partner charge states (partner-cashin-api.md, "States and transitions", ".../cancel",
 * ".../pay (sandbox only)"): "A charge is created in `pending` and moves to exactly one of the other
 * states."; pending → paid "before expires_at" (terminal); pending → canceled; pending → expired
 * "detected lazily"; "Cancel from paid, expired or canceled answers 409."
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { inconclusive, NOT_EVALUATED } from './charges.js';
import type { Answer } from './errors.js';

export const CHARGE_STATES = ['pending', 'paid', 'expired', 'canceled'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

/** A lookup as a rule sees it: the answer and the `status` field it showed (when it answered 2xx). */
export interface StateObservation {
  answer: Pick<Answer, 'status' | 'exchange'>;
  state?: unknown;
}

/**
 * The charge shows `expected` ("Returns the current state of the charge"). `why` says what the
 * expectation follows from (e.g. "after a successful cancel"). A lookup that got no answer or a 429
 * decides nothing (its status was judged by the status rule).
 */
export function expectChargeState(seen: StateObservation, expected: ChargeState, ctx: RuleContext & { why: string }): Judgement {
  if (seen.state === expected) return judge(ctx);
  if (inconclusive(seen.answer)) return NOT_EVALUATED;
  const c = { ...ctx, exchanges: [...(ctx.exchanges ?? []), seen.answer.exchange] };
  return judge(c, makeFinding(c, { code: 'charge.state', title: `the charge is not ${expected} ${ctx.why}`, severity: 'failure', expected: `status "${expected}"`, actual: `HTTP ${seen.answer.status}, status ${show(seen.state)}` }));
}

/**
 * "pending | payment confirmed … | paid"; the paid charge's "e2e_id | string | end-to-end
 * identifier": every confirmed PIX has one, and the pay route confirms "as if the PIX were paid", so
 * a paid charge without e2e_id fails (issue 15). Before payment it may be absent: not judged here.
 */
export function verifyPaidChargeE2e(charge: Record<string, unknown> | undefined, ctx: RuleContext): Judgement {
  const e2e = charge?.e2e_id;
  if (typeof e2e === 'string' && e2e.trim() !== '') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.e2e-missing', title: 'a paid charge shows no e2e_id', severity: 'failure', expected: 'e2e_id: the end-to-end identifier of the payment', actual: `e2e_id ${show(e2e)}` }));
}

/**
 * Pay of a charge that is no longer pending (paid, canceled, or past expires_at): the answer is not
 * shown ("Response body: not shown"; only "before expires_at | paid" and "paid | terminal"), so any
 * 4xx passes; a 2xx is a warning (a no-op confirmation is possible) — the caller then looks the
 * charge up, and a state that changed fails there (expectChargeState). 5xx fails.
 */
export function ensurePayRefused(answer: Pick<Answer, 'status' | 'exchange'>, ctx: RuleContext & { state: string }): Judgement {
  const { state, ...rest } = ctx;
  if (answer.status >= 200 && answer.status <= 299) {
    const c = { ...rest, exchanges: [...(rest.exchanges ?? []), answer.exchange] };
    return judge(c, makeFinding(c, { code: 'charge.pay-accepted', title: `pay of a ${state} charge answered ${answer.status}`, severity: 'warning', expected: `a refusal (4xx, e.g. 409 state conflict): the charge is ${state}`, actual: `HTTP ${answer.status}` }));
  }
  return expectStatus(answer.exchange, '4xx', rest);
}

/**
 * "pending | first lookup … after expires_at | no payment | expired | detected lazily": a charge still
 * pending on lookup after the service's own expires_at (plus `skewMs` of clock allowance) fails.
 * `lastState` is what the last lookup showed (undefined: the charge left pending).
 */
export function ensureExpiredOnLookup(observation: { lastState: unknown; expiresAt: unknown; skewMs: number; at: Date }, ctx: RuleContext): Judgement {
  if (observation.lastState !== 'pending') return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'charge.not-expired',
    title: 'a pending charge past expires_at is still pending on lookup',
    severity: 'failure',
    expected: `status "expired" on the first lookup after expires_at (${observation.skewMs / 1000} s of clock skew allowed)`,
    actual: `status "pending" at ${observation.at.toISOString()}, expires_at ${show(observation.expiresAt)}`,
  }));
}

/**
 * A listed charge past its expires_at, before any lookup by id: whether a listing counts as a lookup
 * is not stated (PT-CHARGE-EXPIRY-LIST is ambiguous in the catalogue: a warning).
 */
export function verifyListedExpired(item: Record<string, unknown> | undefined, ctx: RuleContext): Judgement {
  if (item === undefined) return NOT_EVALUATED;
  if (item.status === 'expired') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'list.stale-expiry', title: 'a charge past expires_at is listed as pending before any lookup by id', severity: 'failure', expected: 'status "expired" in the list', actual: `status ${show(item.status)}` }));
}

/**
 * "Cancels a charge that is still pending … Response body: not shown.": any 2xx passes, 204 with no
 * body included (the body is not judged at all).
 */
export function ensureCancelAccepted(answer: Pick<Answer, 'exchange'>, ctx: RuleContext): Judgement {
  return expectStatus(answer.exchange, '2xx', ctx);
}

/**
 * The sandbox pay of a pending charge: "Confirms the charge as if the PIX were paid … Response body:
 * not shown.": any 2xx, whatever the body.
 */
export function ensurePayAccepted(answer: Pick<Answer, 'exchange'>, ctx: RuleContext): Judgement {
  return expectStatus(answer.exchange, '2xx', ctx);
}

/** The exchanges of several answers (for contexts). */
export function exchangesOf(...answers: ReadonlyArray<{ exchange: Exchange } | undefined>): Exchange[] {
  return answers.filter((a): a is { exchange: Exchange } => a !== undefined).map((a) => a.exchange);
}
