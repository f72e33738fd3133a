/**
 * GET /api/v1/balance inside the model, and the measurement of one sequence's own balance effect.
 *
 * Contract: "Balance (response data, strings in reais, 2 decimals)"; "Paid PIX credit goes into the
 * balance"; "Approved card payments do not become withdrawable balance immediately".
 *
 * Why measured, not modelled: other test files move the same sandbox balance at the same time, so no
 * value of pix.balance can be predicted. An effect is measured around one operation of this sequence
 * (balance, operation, balance); a delta outside the expected range is measured once more on a fresh
 * resource before it is reported, and then only as a WARNING (GW-PIXIN-PAID-CREDITS-BALANCE: the fee
 * treatment is not stated and concurrency can disturb one reading).
 */
import { expectStatus } from '../../../harness/rules/index.js';
import { ModelCommand, abandonOn429, recordAll } from '../../../harness/run/model.js';
import { dataOf, isRecord } from '../../../harness/core/json.js';
import type { Exchange } from '../../../harness/core/exchange.js';
import type { GatewayModel, GatewayReal } from './model.js';
import { reaisToCents } from '../support.js';

export interface BalanceReading {
  cents: number | undefined;
  exchange: Exchange;
}

/** Reads pix.balance (available) in cents. */
export async function readPixBalance(r: GatewayReal): Promise<BalanceReading> {
  const res = await r.gw.getBalance();
  recordAll(r.it.run, expectStatus(res.exchange, 200, { requirements: ['GW-BAL-200-SHAPE'] }));
  abandonOn429(r, res);
  const pix = dataOf(res.json)?.pix;
  return { cents: isRecord(pix) ? reaisToCents(pix.balance) : undefined, exchange: res.exchange };
}

/** GET /api/v1/balance: the envelope and the three 2-decimal strings (validated against the contract on every response). */
export class GetBalance extends ModelCommand<GatewayModel, GatewayReal> {
  check(): boolean {
    return true;
  }

  protected async act(_m: GatewayModel, r: GatewayReal): Promise<void> {
    const reading = await readPixBalance(r);
    r.log.outcome(reading.cents === undefined ? 'pix.balance unreadable' : `pix.balance ${(reading.cents / 100).toFixed(2)}`);
  }

  toString(): string {
    return 'read balance';
  }
}
