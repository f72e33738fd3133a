/**
 * PIX charge commands: create, get, pay, and pay‖pay (two simultaneous confirmations).
 *
 * Contract (gateway-api.md): "POST /api/v1/pix/in/qrcode … 200: success, message, data (PIX charge)";
 * "(creation) → pending"; "GET …/{transactionId} 200: same envelope as creation, with the current
 * status"; "POST …/{transactionId}/pay (sandbox) 200 … data{id, status, endToEndId} with status paid";
 * "400 charge no longer pending"; "Transitions are atomic: concurrent confirmations of the same
 * resource never apply the effect twice"; "Paid PIX credit goes into the balance".
 */
import { answerPixChargeLookup, ensureChargePaid, honourPixChargeRequest, refusePayOfPaidCharge, verifyCreatedPixCharge } from '../../../harness/rules/gateway/pix-charges.js';
import { applyTransitionsOnce } from '../../../harness/rules/gateway/atomicity.js';
import type { ApiResponse, PixChargeRequest } from '../../../harness/http/gateway-client.js';
import type { Exchange } from '../../../harness/core/exchange.js';
import { MONEY_ONLY, ModelCommand, StopSequence, abandonOn429, burstStatuses, judgeFails, shortId } from '../../../harness/run/model.js';
import { dataOf, is2xx } from '../../../harness/core/json.js';
import { readPixBalance } from './balance.js';
import { OnCharge } from './model.js';
import type { GatewayModel, GatewayReal, ModelCharge } from './model.js';

/** A customer valid by the contract's words (a CPF with correct check digits), for charges the model makes itself. */
const FUNDING_CUSTOMER = { documentType: 'cpf', document: '52998224725' } as const;

/** Creates a charge; returns it (added to the model) or undefined after recording why. */
export async function createCharge(m: GatewayModel, r: GatewayReal, body: PixChargeRequest): Promise<ModelCharge | undefined> {
  const res = await r.gw.createPixCharge(body);
  if (judgeFails(r.it.run, honourPixChargeRequest, { case: 'valid', body, answer: res })) return undefined;
  abandonOn429(r, res);
  if (judgeFails(r.it.run, verifyCreatedPixCharge, res)) return undefined;
  const data = dataOf(res.json);
  const id = data?.id;
  if (!data || typeof id !== 'string') return undefined;
  const charge: ModelCharge = { ref: `c${m.charges.length + 1}`, id, amount: body.amountInCents, fees: typeof data.fees === 'number' ? data.fees : 0, status: 'pending' };
  m.charges.push(charge);
  return charge;
}

/** Pays a pending charge of the model (one request) and checks the answer; true when it is now paid. */
async function payPending(r: GatewayReal, c: ModelCharge): Promise<{ ok: boolean; res: ApiResponse }> {
  const res = await r.gw.payPixCharge(c.id);
  if (judgeFails(r.it.run, ensureChargePaid, { answer: res, chargeId: c.id })) return { ok: false, res };
  abandonOn429(r, res);
  c.status = 'paid';
  return { ok: true, res };
}

/** Creates and pays a charge of `amount` (funding for transfers, or a confirmation measurement). */
export async function createPaidCharge(m: GatewayModel, r: GatewayReal, amount: number): Promise<ModelCharge | undefined> {
  const c = await createCharge(m, r, { amountInCents: amount, customer: { ...FUNDING_CUSTOMER }, description: 'model funding' });
  if (!c) return undefined;
  return (await payPending(r, c)).ok ? c : undefined;
}

/** The credit one paid charge may add to pix.balance: between the net (amount − fees) and the gross amount. */
function creditRange(c: ModelCharge): [number, number] {
  return [Math.max(0, c.amount - c.fees), c.amount];
}

/**
 * Measures the balance around paying `c` (balance, pay, balance) as an OBSERVATION: the sandbox
 * balance is account-wide and other checks move it at the same time, so the model never judges it
 * (issue 14); the credit range (net of fees .. gross) is only compared for the step log.
 */
async function payMeasured(r: GatewayReal, c: ModelCharge, pay: () => Promise<{ ok: boolean; exchanges: Exchange[] }>): Promise<string> {
  const b0 = await readPixBalance(r);
  const paid = await pay();
  if (!paid.ok) return 'pay failed';
  const b1 = await readPixBalance(r);
  if (b0.cents === undefined || b1.cents === undefined) return 'balance unreadable';
  const [lo, hi] = creditRange(c);
  const delta = b1.cents - b0.cents;
  return delta >= lo && delta <= hi ? `balance +${delta} cents (credit ${lo}..${hi})` : `balance moved ${delta} cents (credit ${lo}..${hi}; other checks share the balance: not judged)`;
}

export class CreatePixCharge extends ModelCommand<GatewayModel, GatewayReal> {
  constructor(readonly body: PixChargeRequest) {
    super();
  }

  check(m: Readonly<GatewayModel>): boolean {
    return m.charges.length < 8;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const c = await createCharge(m, r, this.body);
    if (c) {
      r.log.describe(`create PIX charge ${c.ref} of ${c.amount} cents`);
      r.log.outcome(`pending, id ${shortId(c.id)}, fees ${c.fees}`);
    }
  }

  toString(): string {
    return `createPixCharge(${this.body.amountInCents})`;
  }
}

export class GetPixCharge extends OnCharge {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelCharge[] {
    return m.charges;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`get PIX charge ${c.ref} (model: ${c.status})`);
    await verifyChargeState(r, c);
  }

  toString(): string {
    return `getPixCharge(#${this.index})`;
  }
}

/** GET the charge and compare its status with the model ("with the current status"). */
export async function verifyChargeState(r: GatewayReal, c: ModelCharge): Promise<void> {
  chargeStateAnswer(r, c, await r.gw.getPixCharge(c.id));
}

/** Judges a GET of the PIX charge against the model. */
export function chargeStateAnswer(r: GatewayReal, c: ModelCharge, res: ApiResponse): void {
  r.log.outcome(`status ${JSON.stringify(dataOf(res.json)?.status)}`);
  if (judgeFails(r.it.run, answerPixChargeLookup, { answer: res, id: c.id, expected: { status: c.status, why: `(charge ${c.ref}: this sequence left it ${c.status})` } })) return;
  abandonOn429(r, res);
}

export class PayPixCharge extends OnCharge {
  constructor(
    index: number,
    readonly measure: boolean,
  ) {
    super(index);
  }

  protected candidates(m: Readonly<GatewayModel>): readonly ModelCharge[] {
    return m.charges;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`pay PIX charge ${c.ref} (model: ${c.status})${this.measure && c.status === 'pending' ? ', measuring the balance' : ''}`);
    if (c.status === 'pending') {
      const pay = async () => {
        const p = await payPending(r, c);
        return { ok: p.ok, exchanges: [p.res.exchange] };
      };
      r.log.outcome(this.measure ? `paid; ${await payMeasured(r, c, pay)}` : (await pay()).ok ? 'paid' : 'not paid');
      return;
    }
    // "400 charge no longer pending"
    const res = await r.gw.payPixCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    if (judgeFails(r.it.run, refusePayOfPaidCharge, res)) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `payPixCharge(#${this.index}${this.measure ? ', measure' : ''})`;
  }
}

/** Two simultaneous /pay of one pending charge: exactly one 200 (paid) and one 400 is the only serialisable outcome. */
export class PayPayConcurrently extends OnCharge {
  constructor(
    index: number,
    readonly measure: boolean,
  ) {
    super(index);
  }

  protected candidates(m: Readonly<GatewayModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.status === 'pending');
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`pay PIX charge ${c.ref} twice at the same instant (pay ‖ pay)`);
    const pay = async () => {
      const result = await r.burst('gateway', 2, () => r.gw.payPixCharge(c.id), MONEY_ONLY);
      const statuses = burstStatuses(result);
      const responses = result.values;
      const exchanges = responses.map((x) => x.exchange);
      r.log.outcome(`HTTP ${statuses.join(' ‖ ')}`);
      // one 2xx (pending → paid) and one 400 (no longer pending) is the only serialisable outcome
      if (judgeFails(r.it.run, applyTransitionsOnce, { case: 'burst', confirmation: 'pay', answers: responses })) return { ok: false, exchanges };
      if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
      const winner = responses.find((x) => is2xx(x.status));
      if (!winner) return { ok: false, exchanges };
      if (judgeFails(r.it.run, ensureChargePaid, { answer: winner, chargeId: c.id })) return { ok: false, exchanges };
      c.status = 'paid';
      return { ok: true, exchanges };
    };
    if (this.measure) {
      const text = await payMeasured(r, c, pay);
      r.log.outcome(`${r.log.steps[r.log.steps.length - 1]?.outcome ?? ''}; ${text}`);
    } else await pay();
  }

  toString(): string {
    return `payPixCharge‖payPixCharge(#${this.index}${this.measure ? ', measure' : ''})`;
  }
}
