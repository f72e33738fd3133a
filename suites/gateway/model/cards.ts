/**
 * Card charge command (sandbox). Contract (gateway-api.md, "POST /api/v1/card"): "Sandbox: any
 * token is approved (paid); a token containing decline is refused (refused)"; "card.brand and
 * card.last4 (echoed exactly as sent)"; "Approved card payments do not become withdrawable balance
 * immediately … Paid PIX credit goes into the balance" (an approved sale must not raise pix.balance).
 *
 * The balance effect is measured (balance, card, balance) and, when pix.balance moved, measured again
 * around a second approved sale before a WARNING is reported: other files move the shared balance.
 */
import { expectStatus } from '../../../harness/rules/index.js';
import type { CardChargeRequest } from '../../../harness/http/gateway-client.js';
import { ModelCommand, abandonOn429, modelFinding, recordAll, shortId } from '../../../harness/run/model.js';
import { dataOf, isRecord } from '../../../harness/json.js';
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
    // "the sample success status code is 201": 200 and 201 pass (the spec documents both)
    if (recordAll(r.it.run, expectStatus(res.exchange, [200, 201], { requirements: ['GW-CARD-SUCCESS-STATUS', 'GW-CARD-SYNC'] }))) return undefined;
    abandonOn429(r, res);
    const data = dataOf(res.json);
    const want = this.declined ? 'refused' : 'paid';
    const requirement = this.declined ? 'GW-CARD-SANDBOX-DECLINE' : 'GW-CARD-SANDBOX-APPROVE';
    if (data?.status !== want) {
      // a 3DS/SCA challenge (requiresAction) leaves the charge pending: a documented outcome, not a failure
      if (data?.status === 'pending' && (data.requiresAction !== undefined || (isRecord(res.json) && res.json.requiresAction !== undefined))) {
        r.it.run.note('card charge answered pending with requiresAction (3DS/SCA challenge)');
        return undefined;
      }
      r.it.run.record(modelFinding({ requirements: [requirement], exchanges: [res.exchange], title: `a sandbox card charge with token ${this.declined ? 'containing' : 'without'} "decline" is not ${want}`, expected: `data.status "${want}"`, actual: JSON.stringify(data?.status) }));
      return undefined;
    }
    const card = isRecord(data.card) ? data.card : {};
    if (card.brand !== this.body.card.brand || card.last4 !== this.body.card.last4) {
      r.it.run.record(modelFinding({ requirements: ['GW-CARD-ECHO-BRAND-LAST4'], exchanges: [res.exchange], title: 'card.brand / card.last4 are not echoed exactly as sent', expected: `brand ${JSON.stringify(this.body.card.brand)}, last4 ${JSON.stringify(this.body.card.last4)}`, actual: `brand ${JSON.stringify(card.brand)}, last4 ${JSON.stringify(card.last4)}` }));
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
    const b0 = await readPixBalance(r);
    if ((await this.charge(m, r)) !== 'paid') return;
    const b1 = await readPixBalance(r);
    if (b0.cents === undefined || b1.cents === undefined) return;
    const delta = b1.cents - b0.cents;
    if (delta === 0) {
      r.log.outcome(`paid ${shortId(m.cards[m.cards.length - 1]?.id ?? '')}; pix.balance unchanged`);
      return;
    }
    // measure once more: a move of the shared balance by another file is not a finding
    const c0 = await readPixBalance(r);
    const first = r.it.run.exchanges.length;
    if ((await this.charge(m, r)) !== 'paid') return;
    const again = r.it.run.exchanges.slice(first);
    const c1 = await readPixBalance(r);
    if (c0.cents === undefined || c1.cents === undefined) return;
    const delta2 = c1.cents - c0.cents;
    r.log.outcome(`pix.balance moved ${delta} then ${delta2} cents around approved card sales`);
    if (delta2 !== 0 && Math.sign(delta2) === Math.sign(delta)) {
      r.it.run.record(
        modelFinding({
          code: 'model.balance-card',
          severity: 'warning',
          requirements: ['GW-CARD-NO-PIX-BALANCE'],
          exchanges: [b0.exchange, b1.exchange, c0.exchange, ...again, c1.exchange],
          title: 'approved card sales moved pix.balance, twice in a row',
          expected: 'pix.balance unchanged by an approved card sale (it opens a receivable, D+7)',
          actual: `${delta} and ${delta2} cents around two approved sales (a warning: other files share the sandbox balance)`,
        }),
      );
    }
  }

  toString(): string {
    return `createCardCharge(${this.body.amountInCents} ${this.body.currency}${this.declined ? ', decline' : ''}${this.measure ? ', measure' : ''})`;
  }
}
