/**
 * Partner charge states (partner-cashin-api.md, "States and transitions", "POST …/:id/cancel",
 * "POST …/:id/pay (sandbox only)"): "A charge is created in `pending` and moves to exactly one of
 * the other states. Transitions are atomic: two concurrent confirmations of the same charge never
 * capture the value twice."; the transition table, row by row; "Cancel from paid, expired or
 * canceled answers 409."; cancel and pay: "Response body: not shown."
 *
 * One rule per row (or sentence). A row is shown by several observations: the answer to the
 * request that triggers it, the state a lookup shows afterwards, the two answers of a race, the
 * ledger around it; each rule takes them as a union (`kind`). The answer to pay of a charge that is
 * no longer pending is "not shown": any 4xx passes, a 2xx only warns (a no-op confirmation is
 * possible) and the state the lookup shows then decides.
 */
import type { Exchange } from '../../core/exchange.js';
import { is2xx } from '../../core/json.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule, type Verdict } from '../rule.js';
import type { Json } from './charges.js';
import { answerErrorsWithDetail, judgePartnerError, type Answer, type ErrorAnswer } from './errors.js';
import { captureOnPay, keepAvailableReliable, merchantMove, entriesOf, type CaptureReading } from './finance.js';
import type { LocatedList } from './list.js';
import { CHARGE_STATE_MATRIX, chargeStateCell } from './state-matrix.js';

export const CHARGE_STATES = ['pending', 'paid', 'expired', 'canceled'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

/** A lookup as a transition rule reads it: the answer and the `status` it showed (when 2xx). */
export interface StateSeen {
  answer: Pick<Answer, 'status' | 'exchange'>;
  state?: unknown;
}

/**
 * Inside a judge: the lookup shows `expected`. A lookup that got no answer or a 429 decides nothing
 * (the lookup rule judged its status); any other state (none, for a lookup that failed) is `code`.
 */
function judgeStateShown<C extends string>(v: Verdict<C>, seen: StateSeen, expected: ChargeState, code: C, why: string): void {
  if (seen.state === expected) return;
  if (seen.answer.status === 0 || seen.answer.status === 429) return v.nothingToJudge();
  v.find(code, { title: `the charge is not ${expected} ${why}`, expected: `status "${expected}"`, actual: `HTTP ${seen.answer.status}, status ${show(seen.state)}`, exchanges: [seen.answer.exchange] });
}

/** Inside a judge of the states relation: the answer tried the cell `state` × `verb` (when it got one). */
function coversAnswered(v: { covers(cell: string): void }, answer: Pick<Answer, 'exchange'>, state: string, verb: 'pay' | 'cancel'): void {
  if (answer.exchange.response) v.covers(chargeStateCell(state, verb));
}

/**
 * Inside a judge: the answer to pay of a charge that is no longer pending (`state`). Any 4xx passes;
 * a 2xx is `accepted` (a warning: the answer is not shown, the state decides); a 5xx is `status`.
 */
function judgeRefusedPay<C extends string>(v: Verdict<C>, answer: Pick<Answer, 'status' | 'exchange'>, state: string, codes: { accepted: C; status: C }): void {
  if (is2xx(answer.status)) {
    return v.find(codes.accepted, { title: `pay of a ${state} charge answered ${answer.status}`, expected: `a refusal (4xx, e.g. 409 state conflict): the charge is ${state}`, actual: `HTTP ${answer.status}`, exchanges: [answer.exchange] });
  }
  judgeStatus(v, answer.exchange, '4xx', { unexpected: codes.status }, `pay of a ${state} charge`);
}

/**
 * "pending | payment confirmed (or sandbox simulation route) | before expires_at | paid" and "Sandbox
 * charges can be confirmed by a simulation route": the sandbox pay of a pending charge
 * - `pay`: answers 2xx, whatever the body ("Response body: not shown");
 * - `state`: leaves the charge paid on the next lookup;
 * - `race`: of several concurrent pays of a pending charge, at least one succeeds (each must be
 *   one of 2xx or 4xx: {@link neverCaptureTwice}).
 */
export const confirmPendingCharge = defineRule({
  name: 'confirmPendingCharge',
  requirements: ['PT-CHARGE-PAY-CONFIRMS', 'PT-SANDBOX-SIMULATION'],
  codes: { 'pay.status': 'failure', 'pay.not-paid': 'failure', 'pay.no-winner': 'failure' },
  relation: CHARGE_STATE_MATRIX,
  judge(observation: { kind: 'pay'; answer: Pick<Answer, 'status' | 'exchange'> } | { kind: 'state'; seen: StateSeen; why: string } | { kind: 'race'; answers: ReadonlyArray<Pick<Answer, 'status' | 'exchange'>> }, v) {
    if (observation.kind === 'pay') {
      coversAnswered(v, observation.answer, 'pending', 'pay');
      judgeStatus(v, observation.answer.exchange, '2xx', { unexpected: 'pay.status' }, 'the sandbox pay of a pending charge');
      return;
    }
    v.decides('PT-CHARGE-PAY-CONFIRMS');
    if (observation.kind === 'state') return judgeStateShown(v, observation.seen, 'paid', 'pay.not-paid', observation.why);
    const { answers } = observation;
    for (const a of answers) coversAnswered(v, a, 'pending', 'pay');
    if (answers.some((a) => a.status === 429 || a.status === 0)) return v.nothingToJudge();
    if (answers.some((a) => is2xx(a.status))) return;
    v.find('pay.no-winner', { title: 'no concurrent pay of a pending charge succeeded', expected: 'one pay confirms the charge', actual: `statuses ${answers.map((a) => a.status).join(', ')}`, exchanges: answers.map((a) => a.exchange) });
  },
});

/**
 * "pending | POST .../:id/cancel | charge is pending | canceled": the cancel of a pending charge
 * answers 2xx, whatever the body ("Response body: not shown", 204 included), and the charge then
 * shows canceled.
 */
export const cancelPendingCharge = defineRule({
  name: 'cancelPendingCharge',
  requirements: ['PT-CHARGE-CANCEL-PENDING'],
  codes: { 'cancel.status': 'failure', 'cancel.not-canceled': 'failure' },
  relation: CHARGE_STATE_MATRIX,
  judge(observation: { kind: 'cancel'; answer: Pick<Answer, 'status' | 'exchange'> } | { kind: 'state'; seen: StateSeen; why: string }, v) {
    if (observation.kind === 'cancel') {
      coversAnswered(v, observation.answer, 'pending', 'cancel');
      judgeStatus(v, observation.answer.exchange, '2xx', { unexpected: 'cancel.status' }, 'the cancel of a pending charge');
      return;
    }
    judgeStateShown(v, observation.seen, 'canceled', 'cancel.not-canceled', observation.why);
  },
});

/** A posting naming the charge that undoes another of its postings moving the charge's whole amount: every entry mirrored (same account and amount, the other direction). */
function reversalOf(r: CaptureReading): { undone: Json; reversal: Json } | undefined {
  const lines = (p: Json, flip: boolean): string => entriesOf(p).map((e) => `${String(e.account_code)}/${flip ? (e.direction === 'debit' ? 'credit' : e.direction === 'credit' ? 'debit' : String(e.direction)) : String(e.direction)}/${String(e.amount_cents)}`).sort().join(',');
  for (const undone of r.mine) {
    if (!entriesOf(undone).some((e) => e.amount_cents === r.amount)) continue;
    const reversal = r.mine.find((p) => p !== undone && entriesOf(p).length > 0 && lines(p, true) === lines(undone, false));
    if (reversal) return { undone, reversal };
  }
  return undefined;
}

/**
 * "Cancel from paid, expired or canceled answers 409." (with the Errors body `{detail}`):
 * - `cancel`: a cancel of a charge in `state` answers 409 (PT-CHARGE-CANCEL-EXPIRED-409 for an expired
 *   one: a timer);
 * - `state`: a charge past expires_at stays expired after the cancel attempt;
 * - `race`: a cancel racing a pay answers 2xx (it won) or 409 (it lost); a 2xx while the charge
 *   ended paid is a cancel of a paid charge that was not refused;
 * - `ledger`: the ledger window around a refused cancel of a paid charge: a posting naming the charge
 *   that mirrors its capture (every entry reversed, the whole amount) is the cancel applied as a
 *   refund while answering that it was refused. Other postings naming it (a settlement, a reserve
 *   release) are not a cancel and are not judged.
 */
export const refuseCancelUnlessPending = defineRule({
  name: 'refuseCancelUnlessPending',
  requirements: ['PT-CHARGE-CANCEL-409', 'PT-CHARGE-CANCEL-EXPIRED-409'],
  codes: { 'cancel.not-409': 'failure', 'cancel.expired-canceled': 'failure', 'cancel.accepted-when-paid': 'failure', 'cancel.refused-but-reversed': 'failure' },
  uses: [answerErrorsWithDetail],
  relation: CHARGE_STATE_MATRIX,
  judge(observation: { kind: 'cancel'; answer: ErrorAnswer; state: 'paid' | 'canceled' | 'expired' } | { kind: 'state'; seen: StateSeen } | { kind: 'race'; cancel: ErrorAnswer; finalState: unknown } | { kind: 'ledger'; cancel: Pick<Answer, 'status' | 'exchange'>; reading: CaptureReading }, v) {
    if (observation.kind === 'ledger') {
      const { cancel, reading } = observation;
      if (is2xx(cancel.status) || reading.fresh === undefined) return v.nothingToJudge();
      v.decides('PT-CHARGE-CANCEL-409');
      const reversed = reversalOf(reading);
      if (!reversed) return;
      return v.find('cancel.refused-but-reversed', {
        title: `the cancel of paid charge ${reading.charge.id} answered ${cancel.status}, yet its capture was reversed in the ledger`,
        expected: 'a refused cancel changes nothing: the paid charge keeps its capture ("Cancel from paid … answers 409"; paid is terminal)',
        actual: `posting ${show(reversed.reversal.id)} (${show(reversed.reversal.event_type)}) mirrors capture posting ${show(reversed.undone.id)}`,
        exchanges: [cancel.exchange, ...reading.exchanges],
      });
    }
    if (observation.kind === 'state') {
      v.decides('PT-CHARGE-CANCEL-EXPIRED-409');
      return judgeStateShown(v, observation.seen, 'expired', 'cancel.expired-canceled', 'after a cancel attempt past expires_at');
    }
    v.decides(observation.kind === 'cancel' && observation.state === 'expired' ? 'PT-CHARGE-CANCEL-EXPIRED-409' : 'PT-CHARGE-CANCEL-409');
    if (observation.kind === 'cancel') {
      coversAnswered(v, observation.answer, observation.state, 'cancel');
      judgePartnerError(v, observation.answer, 409, { unexpected: 'cancel.not-409' }, `the cancel of a ${observation.state} charge`);
      return;
    }
    const { cancel, finalState } = observation;
    if (is2xx(cancel.status)) {
      if (finalState !== 'paid') return;
      return v.find('cancel.accepted-when-paid', { title: 'cancel answered 2xx but the charge ended paid', expected: 'cancel refused with 409 when the pay won', actual: `cancel ${cancel.status}, final paid`, exchanges: [cancel.exchange] });
    }
    judgePartnerError(v, cancel, 409, { unexpected: 'cancel.not-409' }, 'a cancel that lost a race with a pay');
  },
});

/**
 * "pending | payment confirmed … | paid | terminal": a paid charge stays paid. A pay of it may be
 * refused with any 4xx (not shown; a 2xx only warns); the next lookup shows it paid still, whatever
 * was tried (cancel, pay).
 */
export const keepPaidTerminal = defineRule({
  name: 'keepPaidTerminal',
  requirements: ['PT-STATE-PAID-TERMINAL'],
  codes: { 'paid-terminal.pay-accepted': 'warning', 'paid-terminal.pay-status': 'failure', 'paid-terminal.changed': 'failure' },
  relation: CHARGE_STATE_MATRIX,
  judge(observation: { kind: 'pay'; answer: Pick<Answer, 'status' | 'exchange'> } | { kind: 'state'; seen: StateSeen; why: string }, v) {
    if (observation.kind === 'pay') {
      coversAnswered(v, observation.answer, 'paid', 'pay');
      return judgeRefusedPay(v, observation.answer, 'paid', { accepted: 'paid-terminal.pay-accepted', status: 'paid-terminal.pay-status' });
    }
    judgeStateShown(v, observation.seen, 'paid', 'paid-terminal.changed', observation.why);
  },
});

/**
 * "A charge is created in `pending` and moves to exactly one of the other states.":
 * - `pay`: pay of a canceled charge is refused (any 4xx; a 2xx only warns, the state decides);
 * - `state`: a charge that left pending shows that state still (`expected`);
 * - `race`: pay ‖ cancel of one pending charge ends paid or canceled, one of them applied (both
 *   refused fails); the pay answered 2xx while the cancel won only warns (a no-op pay answer is
 *   possible; a capture then is {@link neverCaptureTwice}'s). The cancel's answer is
 *   {@link refuseCancelUnlessPending}'s;
 * - `listed`: a list shows each charge once (in one state).
 */
export const moveOnceFromPending = defineRule({
  name: 'moveOnceFromPending',
  requirements: ['PT-STATE-ONE-TRANSITION'],
  codes: {
    'one-transition.pay-accepted': 'warning',
    'one-transition.pay-status': 'failure',
    'one-transition.state': 'failure',
    'one-transition.race-state': 'failure',
    'one-transition.no-winner': 'failure',
    'one-transition.pay-ignored': 'warning',
    'one-transition.listed-twice': 'failure',
  },
  relation: CHARGE_STATE_MATRIX,
  judge(
    observation:
      | { kind: 'pay'; answer: Pick<Answer, 'status' | 'exchange'>; state: 'canceled' }
      | { kind: 'state'; seen: StateSeen; expected: ChargeState; why: string }
      | { kind: 'race'; pay: Pick<Answer, 'status' | 'exchange'>; cancel: Pick<Answer, 'status' | 'exchange'>; finalState: unknown; lookup?: Exchange }
      | { kind: 'listed'; list: LocatedList; exchange: Exchange },
    v,
  ) {
    switch (observation.kind) {
      case 'pay':
        coversAnswered(v, observation.answer, observation.state, 'pay');
        return judgeRefusedPay(v, observation.answer, observation.state, { accepted: 'one-transition.pay-accepted', status: 'one-transition.pay-status' });
      case 'state':
        return judgeStateShown(v, observation.seen, observation.expected, 'one-transition.state', observation.why);
      case 'race': {
        const { pay, cancel, finalState } = observation;
        v.shows(pay.exchange, cancel.exchange, observation.lookup);
        judgeStatus(v, pay.exchange, ['2xx', '4xx'], { unexpected: 'one-transition.pay-status' }, 'a pay racing a cancel');
        if (finalState !== 'paid' && finalState !== 'canceled') {
          return v.find('one-transition.race-state', { title: 'after concurrent pay and cancel the charge is neither paid nor canceled', expected: '"paid" or "canceled"', actual: show(finalState) });
        }
        if (pay.status === 429 || cancel.status === 429) return;
        if (!is2xx(pay.status) && !is2xx(cancel.status)) {
          return v.find('one-transition.no-winner', { title: 'neither pay nor cancel of a pending charge succeeded', expected: 'one of them applies (serial order pay→cancel or cancel→pay)', actual: `pay ${pay.status}, cancel ${cancel.status}` });
        }
        if (finalState === 'canceled' && is2xx(pay.status) && is2xx(cancel.status)) {
          v.find('one-transition.pay-ignored', { title: 'pay answered 2xx but the charge ended canceled', expected: 'pay refused when the cancel won', actual: `pay ${pay.status}, cancel ${cancel.status}, final canceled` });
        }
        return;
      }
      case 'listed': {
        const ids = observation.list.items.map((x) => x.id).filter((id) => id !== undefined);
        const twice = ids.find((id, i) => ids.indexOf(id) !== i);
        if (twice === undefined) return;
        return v.find('one-transition.listed-twice', { title: 'one charge is listed twice', expected: 'each charge once, in one state', actual: `id ${show(twice)}`, exchanges: [observation.exchange] });
      }
    }
  },
});

/**
 * "pending | payment confirmed … | before expires_at | paid": a confirmation attempt after
 * expires_at does not pay the charge. Its answer is not shown (a 4xx passes, a 2xx only warns); the
 * next lookup shows it expired.
 */
export const refusePayAfterExpiry = defineRule({
  name: 'refusePayAfterExpiry',
  requirements: ['PT-CHARGE-PAY-AFTER-EXPIRY'],
  codes: { 'expired-pay.accepted': 'warning', 'expired-pay.status': 'failure', 'expired-pay.not-expired': 'failure' },
  relation: CHARGE_STATE_MATRIX,
  judge(observation: { kind: 'pay'; answer: Pick<Answer, 'status' | 'exchange'> } | { kind: 'state'; seen: StateSeen }, v) {
    if (observation.kind === 'pay') {
      coversAnswered(v, observation.answer, 'expired', 'pay');
      return judgeRefusedPay(v, observation.answer, 'past expires_at', { accepted: 'expired-pay.accepted', status: 'expired-pay.status' });
    }
    judgeStateShown(v, observation.seen, 'expired', 'expired-pay.not-expired', 'after a pay attempt past expires_at');
  },
});

/**
 * "pending | first lookup or confirmation attempt after expires_at | no payment | expired | detected
 * lazily":
 * - `still-pending`: a charge still pending on lookup after the service's own expires_at (plus
 *   `skewMs` of clock allowance) fails;
 * - `state`: a lookup after expires_at shows expired;
 * - `listed`: a charge listed after its expires_at, before any lookup by id: whether a listing counts
 *   as a lookup is not stated (PT-CHARGE-EXPIRY-LIST is ambiguous in the catalogue: a warning).
 */
export const expireLazily = defineRule({
  name: 'expireLazily',
  requirements: ['PT-CHARGE-EXPIRY-LAZY', 'PT-CHARGE-EXPIRY-LIST'],
  codes: { 'expiry.still-pending': 'failure', 'expiry.not-expired': 'failure', 'expiry.listed-pending': 'warning' },
  judge(
    observation:
      | { kind: 'still-pending'; lastState: unknown; expiresAt: unknown; skewMs: number; at: Date; exchange?: Exchange }
      | { kind: 'state'; seen: StateSeen; why: string }
      | { kind: 'listed'; item: Json | undefined; exchange: Exchange },
    v,
  ) {
    if (observation.kind === 'listed') {
      if (observation.item === undefined) return v.nothingToJudge();
      v.decides('PT-CHARGE-EXPIRY-LIST');
      if (observation.item.status === 'expired') return;
      return v.find('expiry.listed-pending', { title: 'a charge past expires_at is listed as pending before any lookup by id', expected: 'status "expired" in the list', actual: `status ${show(observation.item.status)}`, exchanges: [observation.exchange] });
    }
    v.decides('PT-CHARGE-EXPIRY-LAZY');
    if (observation.kind === 'state') return judgeStateShown(v, observation.seen, 'expired', 'expiry.not-expired', observation.why);
    if (observation.lastState !== 'pending') return;
    v.find('expiry.still-pending', {
      title: 'a pending charge past expires_at is still pending on lookup',
      expected: `status "expired" on the first lookup after expires_at (${observation.skewMs / 1000} s of clock skew allowed)`,
      actual: `status "pending" at ${observation.at.toISOString()}, expires_at ${show(observation.expiresAt)}`,
      exchanges: [observation.exchange],
    });
  },
});

/** One business.pix.paid delivery of a charge, as read from its body. */
export interface PaidEventSeen {
  /** the event's `id` */
  id: unknown;
  /** its `data.e2e_id` */
  e2eId: unknown;
}

/** Same event type and same entries: the same posting twice (the value captured twice). */
function shapeOf(p: Json): string {
  const entries = entriesOf(p).map((e) => `${String(e.account_code)}/${String(e.direction)}/${String(e.amount_cents)}`).sort();
  return `${String(p.event_type)}|${entries.join(',')}`;
}

/**
 * "Transitions are atomic: two concurrent confirmations of the same charge never capture the value
 * twice." Seen three ways:
 * - `answers`: each of the concurrent pays answers 2xx or 4xx (pay of a charge that is no longer
 *   pending: status not shown; several 2xx are accepted and the effect decides);
 * - `ledger`: the capture window around them. Two identical postings for the charge are the value
 *   captured twice (in any window). A charge that ended canceled after a pay raced its cancel has no
 *   capture posting at all (`endedCanceled`): the pay and the cancel both applied. Concurrent confirmations that moved the merchant's money
 *   (available + reserve) by more than the charge brought in, beyond what the other new postings
 *   could explain, captured more than once: one capture moves at most the amount (less any fee or
 *   reserve, which stay within it), so two move about twice a capture, whatever the accounts are
 *   called and however fees and reserves post. A single confirmation's window decides this only
 *   through identical postings;
 * - `events`: the paid event is "the one that credits the player wallet" and a redelivery keeps its
 *   event id ("The same event id can arrive more than once"), so the distinct paid event ids of one
 *   charge count its confirmations: several ids carrying different e2e_ids are two payments
 *   confirmed (failure); several ids with one e2e_id announce one payment twice (the wallet can
 *   still credit once, "crediting is idempotent by external_ref or e2e_id": a warning).
 */
export const neverCaptureTwice = defineRule({
  name: 'neverCaptureTwice',
  requirements: ['PT-ATOMIC-CAPTURE'],
  codes: { 'atomic.pay-status': 'failure', 'atomic.double-capture': 'failure', 'atomic.canceled-captured': 'failure', 'atomic.event-twice': 'failure', 'atomic.event-announced-twice': 'warning' },
  judge(observation: { kind: 'answers'; answers: ReadonlyArray<Pick<Answer, 'status' | 'exchange'>> } | { kind: 'ledger'; reading: CaptureReading; endedCanceled?: boolean } | { kind: 'events'; events: readonly PaidEventSeen[]; exchanges?: readonly Exchange[] }, v) {
    if (observation.kind === 'answers') {
      for (const a of observation.answers) judgeStatus(v, a.exchange, ['2xx', '4xx'], { unexpected: 'atomic.pay-status' }, 'one of concurrent pays of one charge');
      return;
    }
    if (observation.kind === 'events') {
      const { events } = observation;
      const ids = [...new Set(events.map((e) => e.id))];
      if (ids.length <= 1) return;
      const e2eIds = [...new Set(events.map((e) => e.e2eId).filter((e) => typeof e === 'string' && e !== ''))];
      const twice = e2eIds.length > 1;
      return v.find(twice ? 'atomic.event-twice' : 'atomic.event-announced-twice', {
        title: twice ? 'one charge was confirmed twice: two business.pix.paid events with different e2e_ids' : 'one payment was announced by two business.pix.paid events',
        expected: 'one business.pix.paid event id per charge ("never capture the value twice"; redeliveries keep the id)',
        actual: `${ids.length} event ids ${show(ids)}, e2e_ids ${show(e2eIds)}`,
        exchanges: observation.exchanges ?? [],
      });
    }
    const r = observation.reading;
    v.shows(...r.exchanges);
    if (observation.endedCanceled) {
      if (r.mine.length === 0) return;
      return v.find('atomic.canceled-captured', { title: `charge ${r.charge.id} ended canceled, yet a posting for it was made`, expected: 'no capture of a charge that ended canceled (pay and cancel raced: only one applies)', actual: show(r.mine.map((p) => p.id), 400) });
    }
    const shapes = new Map<string, number>();
    for (const p of r.mine) shapes.set(shapeOf(p), (shapes.get(shapeOf(p)) ?? 0) + 1);
    const doubled = [...shapes.entries()].find(([, n]) => n > 1);
    if (doubled) {
      return v.find('atomic.double-capture', { title: `charge ${r.charge.id} was captured ${doubled[1]} times`, expected: 'one capture posting per paid charge ("never capture the value twice")', actual: `${doubled[1]} identical postings naming it: ${doubled[0]}` });
    }
    const moved = merchantMove(r);
    if (!r.concurrent || moved === undefined || r.foreignVolume === undefined) return v.nothingToJudge();
    const others = r.foreignVolume;
    if (moved <= r.amount + others) return;
    v.find('atomic.double-capture', {
      title: `concurrent confirmations of charge ${r.charge.id} moved the balance by more than one capture`,
      expected: `available + reserve to rise once, by at most the ${r.amount} cents the charge brought in (less any fee)${others > 0 ? `, ± ${others} cents of other postings` : ''}`,
      actual: `+${moved} cents (${(moved / r.amount).toFixed(2)}× the amount: available ${r.availableMove ?? '?'}${r.reserveMove ? `, reserve ${r.reserveMove}` : ''}) with ${r.mine.length} posting(s) for the charge`,
    });
  },
});

/**
 * The capture window of a confirmation (or of concurrent ones), judged as a whole: never captured
 * twice ({@link neverCaptureTwice}); then, unless it was, a capture posting for the charge
 * ({@link captureOnPay}) and available_cents moving as the money says ({@link keepAvailableReliable}).
 */
export const verifyCaptureWindow = defineRule({
  name: 'verifyCaptureWindow',
  requirements: [],
  codes: {},
  uses: [neverCaptureTwice, captureOnPay, keepAvailableReliable],
  judge(reading: CaptureReading, v) {
    if (v.apply(neverCaptureTwice, { kind: 'ledger', reading }).findings.length > 0) return;
    v.apply(captureOnPay, reading);
    v.apply(keepAvailableReliable, reading);
  },
});
