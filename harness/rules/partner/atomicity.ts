/**
 * Atomic transitions (partner-cashin-api.md, "States and transitions"): "Transitions are atomic: two
 * concurrent confirmations of the same charge never capture the value twice."; "A charge is created
 * in `pending` and moves to exactly one of the other states."; "Cancel from paid … answers 409."
 *
 * The answer to pay of a charge that is no longer pending is not shown, so several 2xx answers to
 * concurrent pays are accepted (and noted); the effect is judged (finance.ts judgeCaptureWindow).
 */
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import type { Answer } from './errors.js';

function is2xx(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * Concurrent pays of one pending charge: each answers 2xx or 4xx (pay of a no-longer-pending charge
 * is "not shown"), and at least one succeeds (the charge was pending: one confirmation must apply).
 */
export function judgeConcurrentPays(answers: ReadonlyArray<Pick<Answer, 'status' | 'exchange'>>, ctx: RuleContext): Judgement {
  const parts = answers.map((a) => expectStatus(a.exchange, ['2xx', '4xx'], ctx));
  const confirm = { requirements: ['PT-CHARGE-PAY-CONFIRMS'] as const, exchanges: answers.map((a) => a.exchange) };
  const decided = answers.filter((a) => a.status !== 429 && a.status !== 0);
  if (decided.length === answers.length) {
    parts.push(judge(confirm, answers.some((a) => is2xx(a.status)) ? undefined : makeFinding(confirm, { code: 'atomic.no-winner', title: 'no concurrent pay of a pending charge succeeded', severity: 'failure', expected: 'one pay confirms the charge', actual: `statuses ${answers.map((a) => a.status).join(', ')}` })));
  }
  return combine(...parts);
}

/**
 * pay ‖ cancel of one pending charge: exactly one applies, and the final state agrees with it.
 * - a final state other than paid or canceled fails;
 * - neither succeeded (both refused, no 429) fails;
 * - ended paid while cancel answered 2xx fails ("Cancel from paid … answers 409");
 * - ended canceled while pay answered 2xx: the pay's answer is not shown (a no-op 2xx is possible):
 *   failure only when the charge was captured (see judgeCaptureWindow), otherwise a warning here.
 * The cancel that lost answers 409 (with {detail}); the pay that lost any 4xx.
 */
export function judgePayCancelRace(o: { pay: Pick<Answer, 'status' | 'exchange'>; cancel: Pick<Answer, 'status' | 'exchange'>; finalState: unknown }, ctx: RuleContext): Judgement {
  const { pay, cancel, finalState } = o;
  const c = { ...ctx, exchanges: [...(ctx.exchanges ?? []), pay.exchange, cancel.exchange] };
  const parts: Judgement[] = [expectStatus(pay.exchange, ['2xx', '4xx'], ctx), expectStatus(cancel.exchange, ['2xx', 409], { ...ctx, requirements: [...ctx.requirements, 'PT-CHARGE-CANCEL-409'] })];
  if (finalState !== 'paid' && finalState !== 'canceled') {
    parts.push(judge(c, makeFinding(c, { code: 'atomic.state', title: 'after concurrent pay and cancel the charge is neither paid nor canceled', severity: 'failure', expected: '"paid" or "canceled"', actual: show(finalState) })));
    return combine(...parts);
  }
  if (!is2xx(pay.status) && !is2xx(cancel.status) && pay.status !== 429 && cancel.status !== 429) {
    parts.push(judge(c, makeFinding(c, { code: 'atomic.no-winner', title: 'neither pay nor cancel of a pending charge succeeded', severity: 'failure', expected: 'one of them applies (serial order pay→cancel or cancel→pay)', actual: `pay ${pay.status}, cancel ${cancel.status}` })));
  } else if (finalState === 'paid' && is2xx(cancel.status)) {
    const cc = { ...c, requirements: [...c.requirements, 'PT-CHARGE-CANCEL-409' as const] };
    parts.push(judge(cc, makeFinding(cc, { code: 'atomic.both-won', title: 'cancel answered 2xx but the charge ended paid', severity: 'failure', expected: 'cancel refused with 409 when the pay won', actual: `cancel ${cancel.status}, final paid` })));
  } else if (finalState === 'canceled' && is2xx(pay.status)) {
    parts.push(judge(c, makeFinding(c, { code: 'atomic.pay-ignored', title: 'pay answered 2xx but the charge ended canceled', severity: 'warning', expected: 'pay refused when the cancel won', actual: `pay ${pay.status}, cancel ${cancel.status}, final canceled` })));
  } else parts.push(judge(c));
  return combine(...parts);
}
