/**
 * What a capture does beyond its posting (partner-cashin-api.md): "available_cents | integer |
 * reliable available balance"; "Transitions are atomic: two concurrent confirmations of the same
 * charge never capture the value twice"; "business.pix.paid | payment confirmed; the one that
 * credits the player wallet"; "The same event id can arrive more than once".
 *
 * Counting postings is not enough (issue 15): an implementation can keep one posting per charge
 * and still credit the balance, or notify the wallet, twice. These rules read the other effects.
 * Pure: observations in, Judgement out.
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { isRecord } from '../../core/json.js';

/** No evaluation: the observation cannot show the requirement either way. */
const NOTHING: Judgement = { requirements: [], findings: [] };

/**
 * Each account's signed movement (credits − debits) over some postings' `entries[]`
 * ({account_code, direction, amount_cents}); entries of another shape are skipped.
 */
export function accountMovements(postings: readonly unknown[]): Map<string, number> {
  const nets = new Map<string, number>();
  for (const posting of postings) {
    const entries = isRecord(posting) && Array.isArray(posting.entries) ? posting.entries : [];
    for (const e of entries) {
      if (!isRecord(e) || typeof e.account_code !== 'string' || typeof e.amount_cents !== 'number') continue;
      const sign = e.direction === 'credit' ? 1 : e.direction === 'debit' ? -1 : 0;
      nets.set(e.account_code, (nets.get(e.account_code) ?? 0) + sign * e.amount_cents);
    }
  }
  return nets;
}

export interface CreditObservation {
  /** the charge's amount_cents (gross) */
  amount: number;
  /** available_cents after − before the capture (undefined: not both integers) */
  delta: number | undefined;
  /** every posting that appeared in the window */
  postings: readonly unknown[];
  /** no posting other than our capture's appeared in the window (a concurrent one could explain any move) */
  quiet: boolean;
}

/**
 * "available_cents | reliable available balance", read against the service's own capture posting.
 * The partner document shows no fee (its finance section names none), so crediting the gross is
 * NOT judged by itself: a posting that credits one account the whole amount, with available_cents
 * rising by it, passes. What fails is a statement that contradicts itself: the window's postings
 * split the amount (some account is credited part of it, and no account the whole of it: a fee
 * line), yet available_cents rose by the whole amount, more than the ledger credited anyone. Only
 * judged in a quiet window (a concurrent posting could explain the move) with a known balance move.
 * The catalogue marks the whole sentence ambiguous (PT-FIN-AVAILABLE-RELIABLE, latitude: warning),
 * so the finding is reported as a warning wherever that requirement alone is named.
 */
export function ensureCreditFollowsLedger(o: CreditObservation, ctx: RuleContext): Judgement {
  if (!o.quiet || o.delta === undefined || o.postings.length === 0) return NOTHING;
  const moves = [...accountMovements(o.postings).entries()];
  const split = moves.some(([, net]) => net > 0 && net < o.amount) && !moves.some(([, net]) => net === o.amount);
  if (!(split && o.delta === o.amount)) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'finance.credited-gross',
    title: 'available_cents rose by the gross amount while the capture posting credits only a net',
    severity: 'failure',
    expected: `a balance move matching the ledger's own credit (${moves.filter(([, n]) => n > 0).map(([a, n]) => `${a} +${n}`).join(', ')}): "reliable available balance"`,
    actual: `available_cents +${o.delta} (the gross amount ${o.amount}); no account is credited ${o.amount} in ${show(o.postings, 400)}`,
  }));
}

/** One business.pix.paid delivery of a charge, as read from its body. */
export interface PaidEventSeen {
  /** the event's `id` */
  id: unknown;
  /** its `data.e2e_id` */
  e2eId: unknown;
}

/**
 * "two concurrent confirmations of the same charge never capture the value twice" seen through the
 * events: the paid event is "the one that credits the player wallet", and redeliveries keep their
 * event id ("The same event id can arrive more than once"), so the distinct paid event ids of one
 * charge (matched by its external_ref) count its confirmations:
 * - one id (however often delivered): passes;
 * - several ids carrying different e2e_ids: two payments were confirmed: failure;
 * - several ids with one e2e_id: the wallet can still credit once ("crediting is idempotent by
 *   external_ref or e2e_id"), but one state change was announced twice: a warning.
 */
export function ensureOnePaidEvent(events: readonly PaidEventSeen[], ctx: RuleContext): Judgement {
  const ids = [...new Set(events.map((e) => e.id))];
  if (ids.length <= 1) return judge(ctx);
  const e2eIds = [...new Set(events.map((e) => e.e2eId).filter((e) => typeof e === 'string' && e !== ''))];
  const twice = e2eIds.length > 1;
  return judge(ctx, makeFinding(ctx, {
    code: 'atomicity.event-twice',
    title: twice ? 'one charge was confirmed twice: two business.pix.paid events with different e2e_ids' : 'one payment was announced by two business.pix.paid events',
    severity: twice ? 'failure' : 'warning',
    expected: 'one business.pix.paid event id per charge ("never capture the value twice"; redeliveries keep the id)',
    actual: `${ids.length} event ids ${show(ids)}, e2e_ids ${show(e2eIds)}`,
  }));
}
