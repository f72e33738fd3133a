/**
 * MIGRATION ONLY: the calls suites/gateway/separation.test.ts still makes. The judgements are the
 * rules `debitCompletedTransfer` (balance.ts) and `refuseUncoveredCompletion` (pix-transfers.ts);
 * these two functions hand their observations over, whatever requirement IDs the caller names. Gone
 * once that suite names the rules.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { debitCompletedTransfer, type BalanceWindow } from './balance.js';
import { refuseUncoveredCompletion } from './pix-transfers.js';

/** One completion seen between two balance reads (a window around POST …/complete). */
export type DebitWindow = BalanceWindow;

/** See `debitCompletedTransfer` (balance.ts). */
export function judgeTransferDebitWindows(windows: readonly DebitWindow[], _ctx: object = {}): Judgement {
  return debitCompletedTransfer.judge(windows);
}

/** See `refuseUncoveredCompletion` (pix-transfers.ts), case `balance-after`. */
export function judgeCompletionAboveBalance(answer: { status: number; exchange: Exchange }, facts: { amount: number; before: number; after: number | undefined; afterExchange?: Exchange }, _ctx: object = {}): Judgement {
  return refuseUncoveredCompletion.judge({ case: 'balance-after', answer: { ...answer, json: undefined }, ...facts });
}
