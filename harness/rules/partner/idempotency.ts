/**
 * Partner Idempotency-Key (partner-cashin-api.md, "POST /v1/business/pix-charges" and "Errors"):
 * "Optional header `Idempotency-Key` (recommended). `external_ref` is only a label: resending without
 * the same idempotency key creates a new charge even with the same external_ref."; "same key and same
 * body returns the original response without repeating the effect; same key with a different body
 * gives 409; without the header every call creates a new record."
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { chargeOf } from './charges.js';
import { expectPartnerError, type Answer, type ErrorAnswer } from './errors.js';
import { defineRule } from '../rule.js';

/**
 * A replay (same key, same body) answered 2xx returns the original charge: the same id ("returns
 * the original response without repeating the effect"). `equivalent`: the body was the same JSON
 * re-ordered, whose sameness is not stated (PT-IDEM-BODY-EQUIVALENCE): only a NEW charge fails then.
 */
export function verifyReplayedCharge(originalId: string, again: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: RuleContext & { first?: Exchange }): Judgement {
  const { first, ...rest } = ctx;
  if (again.status < 200 || again.status > 299) return { requirements: [], findings: [] };
  const id = chargeOf(again.json)?.id;
  const c = { ...rest, exchanges: [...(first ? [first] : []), again.exchange] };
  if (id === originalId) return judge(c);
  return judge(c, makeFinding(c, { code: 'idempotency.new-record', title: 'a replay with the same Idempotency-Key and body did not return the original charge', severity: 'failure', expected: `the original response: id ${show(originalId)}`, actual: `id ${show(id)} (a second charge)` }));
}

/**
 * "same key with a different body gives 409" (with {detail}): a 2xx fails outright (another record,
 * or the first one under a body it was not created with).
 */
export function ensureConflictRefused(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: RuleContext): Judgement {
  if (answer.status >= 200 && answer.status <= 299) {
    const c = { ...ctx, exchanges: [...(ctx.exchanges ?? []), answer.exchange] };
    return judge(c, makeFinding(c, { code: 'idempotency.conflict-accepted', title: `a key reused with a different body answered ${answer.status}`, severity: 'failure', expected: 'HTTP 409 {detail} ("same key with a different body gives 409")', actual: `HTTP ${answer.status}, id ${show(chargeOf(answer.json)?.id)}` }));
  }
  return expectPartnerError(answer, 409, ctx);
}

/**
 * "without the header every call creates a new record" and "resending without the same idempotency
 * key creates a new charge even with the same external_ref": the ids of creations without a key are
 * all distinct (and distinct from `known` earlier ones).
 */
export function ensureDistinctCharges(ids: readonly unknown[], ctx: RuleContext & { known?: readonly unknown[] }): Judgement {
  const { known = [], ...rest } = ctx;
  const got = ids.filter((i) => i !== undefined);
  const seen = new Set<unknown>(known);
  const repeated = got.find((id) => (seen.has(id) ? true : (seen.add(id), false)));
  if (repeated === undefined) return judge(rest);
  return judge(rest, makeFinding(rest, { code: 'idempotency.deduplicated', title: 'a creation without Idempotency-Key returned an earlier charge', severity: 'failure', expected: 'a new charge (new id) for every call without the header', actual: `id ${show(repeated)} returned again (ids ${show(got)})` }));
}

/**
 * Concurrent first uses of one key with one body ("returns the original response without repeating
 * the effect"): at most one charge id among the 2xx answers. An in-flight duplicate refused with
 * 409 or rate limited with 429 is a choice the text leaves open (the caller notes it).
 */
export function judgeSameKeyBurst(answers: ReadonlyArray<Pick<Answer, 'status' | 'json' | 'exchange'>>, ctx: RuleContext): Judgement {
  const ids = [...new Set(answers.filter((a) => a.status >= 200 && a.status <= 299).map((a) => chargeOf(a.json)?.id))];
  const c = { ...ctx, exchanges: [...(ctx.exchanges ?? []), ...answers.map((a) => a.exchange)] };
  return combine(judge(c, ids.length <= 1 ? undefined : makeFinding(c, { code: 'idempotency.race', title: 'concurrent creations with one Idempotency-Key created several charges', severity: 'failure', expected: 'one charge id', actual: `${ids.length} ids: ${show(ids)}` })));
}

/**
 * "Optional header `Idempotency-Key` (recommended).": a creation without it is served like any other.
 * A 4xx refusal of a keyless creation breaks it; a 5xx or no answer is the creation's own failure
 * (expectChargeCreated), not evidence that the key is required.
 */
export const acceptCreationWithoutKey = defineRule({
  name: 'acceptCreationWithoutKey',
  requirements: ['PT-IDEM-OPTIONAL'],
  codes: { 'idempotency.key-required': 'failure' },
  judge(answer: ErrorAnswer, v) {
    if (answer.status < 400 || answer.status > 499 || answer.status === 429) return answer.status >= 200 && answer.status <= 299 ? undefined : v.nothingToJudge();
    v.find('idempotency.key-required', { title: `a creation without Idempotency-Key was refused with ${answer.status}`, expected: 'the charge created ("Optional header `Idempotency-Key`")', actual: `HTTP ${answer.status} ${answer.exchange.response?.body.slice(0, 200) ?? ''}`, exchanges: [answer.exchange] });
  },
});
