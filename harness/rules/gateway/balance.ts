/**
 * Balance: gateway-api.md "GET /api/v1/balance" ("200: `success`, `data{pix{balance},
 * pixBlocked{balance}, reserve{balance}}`"), "Balance (response data, strings in reais, 2 decimals)"
 * ("pix.balance | available balance; the value to use for operating"; "reserve.balance | held in
 * risk reserve (if applicable)"), and what moves it ("What the service does": "Paid PIX credit goes
 * into the balance."; the transfer row "sandbox balance covers the amount").
 *
 * The sandbox balance is account-wide and other checks move it at the same time: the rules about
 * credits and debits are given every window a check has seen, and decide only when the windows allow
 * it (see {@link effectsAgree}).
 */
import type { Exchange } from '../../core/exchange.js';
import { dataOf, isRecord } from '../../core/json.js';
import { kindOf, show } from '../judgement.js';
import { reaisStringProblem } from '../money.js';
import { draftOf } from '../identifiers.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { echoCell } from '../echo.js';
import { BALANCE_PATH, GATEWAY_ECHO } from './echo-relations.js';
import type { Answer } from './fields.js';

/**
 * "200: `success`, `data{pix{balance}, pixBlocked{balance}, reserve{balance}}`" and "strings in reais
 * with 2 decimals": the answer is 200; `pix` and `pixBlocked` are objects whose `balance` is a string
 * in reais with 2 decimals ("10.50"; a negative sign is tolerated); `reserve` is "(if applicable)":
 * absent or null passes, present it is such an object.
 */
export const answerBalance = defineRule({
  name: 'answerBalance',
  requirements: ['GW-BAL-200-SHAPE', 'GW-BAL-STRINGS-2DP'],
  codes: { 'balance.status': 'failure', 'balance.bucket': 'failure', 'balance.not-reais': 'failure' },
  judge(answer: Answer, v) {
    v.shows(answer.exchange);
    if (!judgeStatus(v, answer.exchange, 200, { unexpected: 'balance.status' }, 'GET /api/v1/balance')) return;
    const data = dataOf(answer.json);
    for (const bucket of ['pix', 'pixBlocked', 'reserve'] as const) {
      const value = data?.[bucket];
      if (bucket === 'reserve' && (value === undefined || value === null)) continue;
      if (!isRecord(value)) {
        v.find('balance.bucket', { title: `data.${bucket} is not a balance object`, expected: `data.${bucket} = {balance: "<reais with 2 decimals>"}`, actual: `${kindOf(value)} ${show(value)}`, pointer: `/data/${bucket}`, requirements: ['GW-BAL-200-SHAPE'] });
        continue;
      }
      const problem = reaisStringProblem(value.balance, `data.${bucket}.balance`);
      if (problem) v.find('balance.not-reais', { ...draftOf(problem), pointer: `/data/${bucket}/balance`, requirements: ['GW-BAL-STRINGS-2DP'] });
    }
  },
});

/** `"10.50"` → 1050, `"-3.00"` → -300; undefined unless a string in reais with exactly 2 decimals. */
export function reaisToCents(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(value);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number(m[3]);
  return m[1] === '-' ? -cents : cents;
}

/**
 * Two observations of one systematic effect agree: the same ratio to the amount (within 1 % of it,
 * e.g. a fee taken twice, a currency conversion) or the same absolute offset from what was expected
 * (within 1 cent, e.g. a fixed fee). Concurrent activity of other files gives unrelated values, so
 * requiring agreement keeps a coincidence from reading as a deviation.
 */
export function effectsAgree(a: { delta: number; amount: number; expected: number }, b: { delta: number; amount: number; expected: number }): boolean {
  const ra = a.delta / a.amount;
  const rb = b.delta / b.amount;
  const sameRatio = Math.abs(ra - rb) <= 0.002 + 0.01 * Math.max(Math.abs(ra), Math.abs(rb));
  const sameOffset = Math.abs(a.delta - a.expected - (b.delta - b.expected)) <= 1;
  return sameRatio || sameOffset;
}

/**
 * What one attempt of a balance check saw across one money-moving call (suites/gateway/support.ts
 * `balanceAround`): POST …/pay for a credit, POST …/complete for a debit.
 */
export interface BalanceWindow {
  /** the charge's or transfer's amount and its `fees` (cents; 0 when unknown) */
  amount: number;
  fees: number;
  /** how pix.balance moved across the call (or until a later read), in cents: after − before */
  delta: number;
  /** nothing else moved the balance just before nor just after the call */
  quiet: boolean;
  exchange: Exchange;
  /** one line describing the window, for the finding */
  text: string;
}

/**
 * Given every window seen so far: decides when the latest shows the effect in range (pass), or when
 * two QUIET windows show wrong effects that agree ({@link effectsAgree}: a systematic deviation, the
 * two returned). Otherwise undecided (the caller tries again, and notes when it gives up).
 */
function decideWindows(windows: readonly BalanceWindow[], inRange: (w: BalanceWindow) => boolean, expected: (w: BalanceWindow) => number): 'pass' | 'undecided' | [BalanceWindow, BalanceWindow] {
  const latest = windows[windows.length - 1];
  if (!latest) return 'undecided';
  if (inRange(latest)) return 'pass';
  const wrong = windows.filter((w) => w.quiet && !inRange(w));
  const last = wrong[wrong.length - 1];
  if (!last || last !== latest) return 'undecided';
  const asEffect = (w: BalanceWindow) => ({ delta: w.delta, amount: w.amount, expected: expected(w) });
  const agreeing = wrong.slice(0, -1).find((w) => effectsAgree(asEffect(w), asEffect(last)));
  return agreeing ? [agreeing, last] : 'undecided';
}

/**
 * "Paid PIX credit goes into the balance." Gross or net of `fees` is not stated: a credit anywhere in
 * [amount − fees, amount] passes. Decides only as {@link decideWindows} allows.
 */
export const creditPaidPixCharge = defineRule({
  name: 'creditPaidPixCharge',
  requirements: ['GW-PIXIN-PAID-CREDITS-BALANCE'],
  codes: { 'balance.pix-credit': 'failure' },
  // the echo relation's balance cell: a paid charge's amount, back as a credit in reais
  relation: GATEWAY_ECHO,
  judge(windows: readonly BalanceWindow[], v) {
    if (windows.length > 0) v.covers(echoCell('PIX charge', 'amountInCents', BALANCE_PATH));
    const decided = decideWindows(windows, (w) => w.delta >= w.amount - w.fees && w.delta <= w.amount, (w) => w.amount - w.fees);
    if (decided === 'undecided') return v.nothingToJudge();
    if (decided === 'pass') return;
    v.find('balance.pix-credit', {
      title: 'the credit of a paid PIX charge does not reach pix.balance as amount (or amount − fees)',
      expected: 'pix.balance to rise by an amount between amount − fees and amount after /pay',
      actual: decided.map((w) => w.text).join('; '),
      exchanges: decided.map((w) => w.exchange),
    });
  },
});

/**
 * "pix.balance | available balance; the value to use for operating", with "sandbox balance covers the
 * amount" of completion: a completed transfer is paid out of `pix.balance`. Whether the fees come on
 * top of the amount or out of it is not stated (`netAmount` = amount − fees reaches the payee): a
 * debit anywhere in [amount − fees, amount + fees] passes. Decides only as {@link decideWindows}
 * allows (no debit at all, a debit of the net amount only … agreeing twice fails).
 */
export const debitCompletedTransfer = defineRule({
  name: 'debitCompletedTransfer',
  requirements: ['GW-BAL-FIELDS'],
  codes: { 'balance.pix-debit': 'failure' },
  judge(windows: readonly BalanceWindow[], v) {
    const decided = decideWindows(windows, (w) => -w.delta >= w.amount - w.fees && -w.delta <= w.amount + w.fees, (w) => -w.amount);
    if (decided === 'undecided') return v.nothingToJudge();
    if (decided === 'pass') return;
    v.find('balance.pix-debit', {
      title: 'completing a transfer does not debit pix.balance by its amount',
      expected: 'pix.balance to fall by the amount (between amount − fees and amount + fees) when /complete succeeds',
      actual: decided.map((w) => w.text).join('; '),
      exchanges: decided.map((w) => w.exchange),
    });
  },
});
