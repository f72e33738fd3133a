/**
 * Money leaving the sandbox balance through PIX transfers (gateway-api.md): "banking_processing |
 * POST …/{transferId}/complete (sandbox) | not already completed or canceled; sandbox balance covers
 * the amount | completed"; Balance "pix.balance | available balance; the value to use for operating".
 * A transfer the balance must cover is paid out of it: completing it lowers `pix.balance`.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { judge, makeFinding, type RuleContext } from '../judgement.js';
import { effectsAgree } from './pix-charges.js';
import type { BalanceWindow } from './pix-charges.js';

const NOTHING_DECIDED: Judgement = { requirements: [], findings: [] };

/** One completion seen between two balance reads (a window around POST …/complete). */
export type DebitWindow = BalanceWindow;

/**
 * Whether the fees come on top of the amount or out of it is not stated (`netAmount` = amount −
 * fees reaches the payee): a debit anywhere in [amount − fees, amount + fees] conforms.
 */
function debitInRange(w: { delta: number; amount: number; fees: number }): boolean {
  const debit = -w.delta;
  return debit >= w.amount - w.fees && debit <= w.amount + w.fees;
}

/** Two wrong debits that look like one systematic effect ({@link effectsAgree}; a debit is expected to move the balance by −amount). */
function sameEffect(a: DebitWindow, b: DebitWindow): boolean {
  return effectsAgree({ delta: a.delta, amount: a.amount, expected: -a.amount }, { delta: b.delta, amount: b.amount, expected: -b.amount });
}

/**
 * "sandbox balance covers the amount" / "pix.balance | available balance": a completed transfer is
 * debited from `pix.balance`. The balance is account-wide and other checks move it concurrently, so
 * one window proves nothing: given every window seen so far, the rule DECIDES when the latest shows
 * a debit in range (pass), or when two QUIET windows show wrong debits of one systematic effect (no
 * debit at all, a debit of the net amount only …): failure `balance.pix-debit`. Otherwise it decides
 * nothing (the caller tries again and notes when it gives up).
 */
export function judgeTransferDebitWindows(windows: readonly DebitWindow[], ctx: Partial<RuleContext> = {}): Judgement {
  const c: RuleContext = { ...ctx, requirements: ctx.requirements ?? (['GW-PIXOUT-COMPLETE-BALANCE', 'GW-BAL-FIELDS'] satisfies RequirementId[]) };
  const latest = windows[windows.length - 1];
  if (!latest) return NOTHING_DECIDED;
  if (debitInRange(latest)) return judge(c);
  const wrong = windows.filter((w) => w.quiet && !debitInRange(w));
  const last = wrong[wrong.length - 1];
  if (!last || last !== latest) return NOTHING_DECIDED;
  const agreeing = wrong.slice(0, -1).find((w) => sameEffect(w, last));
  if (!agreeing) return NOTHING_DECIDED;
  return judge(c, makeFinding({ ...c, exchanges: [agreeing.exchange, last.exchange] }, {
    code: 'balance.pix-debit',
    title: 'completing a transfer does not debit pix.balance by its amount',
    severity: 'failure',
    expected: 'pix.balance to fall by the amount (between amount − fees and amount + fees) when /complete succeeds',
    actual: `${agreeing.text}; ${last.text}`,
  }));
}

/**
 * A completion of an amount above the balance read just before it: "sandbox balance covers the
 * amount" is the condition of completion. A refusal (any 4xx; the code is not stated) is decided by
 * the caller's status rule. A 2xx is only evidence when the balance read after it is NEGATIVE: the
 * completion was not covered whatever else moved the balance meanwhile (a concurrent credit that
 * covered it leaves the balance at or above zero: nothing is decided then). Failure
 * `pixout.completed-without-balance`.
 */
export function judgeCompletionAboveBalance(answer: { status: number; exchange: Exchange }, facts: { amount: number; before: number; after: number | undefined; afterExchange?: Exchange }, ctx: Partial<RuleContext> = {}): Judgement {
  const c: RuleContext = { ...ctx, requirements: ctx.requirements ?? (['GW-PIXOUT-COMPLETE-BALANCE'] satisfies RequirementId[]) };
  if (answer.status < 200 || answer.status > 299) return NOTHING_DECIDED;
  if (facts.after === undefined || facts.after >= 0) return NOTHING_DECIDED;
  return judge(c, makeFinding({ ...c, exchanges: [answer.exchange, ...(facts.afterExchange ? [facts.afterExchange] : [])] }, {
    code: 'pixout.completed-without-balance',
    title: `a transfer of ${facts.amount} cents completed above the balance (${facts.before} cents) and left it negative`,
    severity: 'failure',
    expected: 'a 4xx: "sandbox balance covers the amount" is the condition of completion',
    actual: `HTTP ${answer.status}; pix.balance ${facts.before} → ${facts.after} cents`,
  }));
}
