/**
 * Card charge command (sandbox). Contract (gateway-api.md, "POST /api/v1/card"): "Sandbox: any
 * token is approved (paid); a token containing decline is refused (refused)"; "card.brand and
 * card.last4 (echoed exactly as sent)"; "Approved card payments do not become withdrawable balance
 * immediately … Paid PIX credit goes into the balance" (an approved sale must not raise pix.balance).
 *
 * The balance around an approved sale is recorded in the step log only: other checks move the shared
 * balance at the same time, so the model does not judge it.
 */
import { verifySandboxCardOutcome } from '../../../harness/rules/gateway/states.js';
import type { CardChargeRequest } from '../../../harness/http/gateway-client.js';
import { ModelCommand, abandonOn429, recordAll, shortId } from '../../../harness/run/model.js';
import { dataOf } from '../../../harness/core/json.js';
import { readPixBalance } from './balance.js';
import type { GatewayModel, GatewayReal } from './model.js';

export class CreateCardCharge extends ModelCommand<GatewayModel, GatewayReal> {
  constructor(
    readonly body: CardChargeRequest,
    readonly measure: boolean,
  ) {
    super();
  }

  check(m: Readonly<GatewayModel>): boolean {
    return m.cards.length < 4;
  }

  private get declined(): boolean {
    return this.body.card.token.includes('decline');
  }

  /** One card charge; returns the model status or undefined after recording why. */
  private async charge(m: GatewayModel, r: GatewayReal): Promise<'paid' | 'refused' | undefined> {
    const res = await r.gw.createCardCharge(this.body);
    // any 2xx; paid / refused by the token rule; brand and last4 echoed (harness/rules/gateway/states.ts)
    if (recordAll(r.it.run, verifySandboxCardOutcome(res, this.body.card))) return undefined;
    abandonOn429(r, res);
    const data = dataOf(res.json);
    const want = this.declined ? 'refused' : 'paid';
    if (data?.status !== want) {
      // a 3DS/SCA challenge (requiresAction) leaves the charge pending: accepted by the rule, noted here
      r.it.run.note(`card charge answered ${String(data?.status)} (3DS/SCA challenge with requiresAction)`);
      return undefined;
    }
    const id = typeof data.id === 'string' ? data.id : '';
    m.cards.push({ ref: `k${m.cards.length + 1}`, id, status: want });
    return want;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    r.log.describe(`card charge of ${this.body.amountInCents} ${this.body.currency}, token ${this.declined ? 'with' : 'without'} "decline"${this.measure ? ', measuring pix.balance' : ''}`);
    if (!this.measure || this.declined) {
      const status = await this.charge(m, r);
      r.log.outcome(String(status));
      return;
    }
    // pix.balance around an approved sale, as an observation only: the balance is account-wide and
    // other checks move it at the same time (issue 14); the balance suite judges GW-CARD-NO-PIX-BALANCE
    const b0 = await readPixBalance(r);
    if ((await this.charge(m, r)) !== 'paid') return;
    const b1 = await readPixBalance(r);
    if (b0.cents === undefined || b1.cents === undefined) return;
    const delta = b1.cents - b0.cents;
    r.log.outcome(`paid ${shortId(m.cards[m.cards.length - 1]?.id ?? '')}; pix.balance ${delta === 0 ? 'unchanged' : `moved ${delta} cents (shared balance: not judged)`}`);
  }

  toString(): string {
    return `createCardCharge(${this.body.amountInCents} ${this.body.currency}${this.declined ? ', decline' : ''}${this.measure ? ', measure' : ''})`;
  }
}
