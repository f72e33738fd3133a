/**
 * PIX charge commands: create, get, pay, and pay‖pay (two simultaneous confirmations).
 *
 * Contract (gateway-api.md): "POST /api/v1/pix/in/qrcode … 200: success, message, data (PIX charge)";
 * "(creation) → pending"; "GET …/{transactionId} 200: same envelope as creation, with the current
 * status"; "POST …/{transactionId}/pay (sandbox) 200 … data{id, status, endToEndId} with status paid";
 * "400 charge no longer pending"; "Transitions are atomic: concurrent confirmations of the same
 * resource never apply the effect twice"; "Paid PIX credit goes into the balance".
 */
import { expectStatus } from '../../../harness/rules/index.js';
import type { ApiResponse, PixChargeRequest } from '../../../harness/http/gateway-client.js';
import type { Exchange } from '../../../harness/http/exchange.js';
import { ModelCommand, StopSequence, abandonOn429, burstStatuses, modelFinding, recordAll, shortId } from '../../../harness/run/model.js';
import { dataOf, is2xx } from '../../../harness/json.js';
import { readPixBalance } from './balance.js';
import { OnCharge } from './model.js';
import type { GatewayModel, GatewayReal, ModelCharge } from './model.js';

/** A customer valid by the contract's words (a CPF with correct check digits), for charges the model makes itself. */
const FUNDING_CUSTOMER = { documentType: 'cpf', document: '52998224725' } as const;

/** Creates a charge; returns it (added to the model) or undefined after recording why. */
export async function createCharge(m: GatewayModel, r: GatewayReal, body: PixChargeRequest): Promise<ModelCharge | undefined> {
  const res = await r.gw.createPixCharge(body);
  if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['GW-PIXIN-CREATE-200'] }))) return undefined;
  abandonOn429(r, res);
  const data = dataOf(res.json);
  const id = data?.id;
  if (typeof id !== 'string' || id === '') {
    r.it.run.record(modelFinding({ requirements: ['GW-PIXIN-RESP-ID'], exchanges: [res.exchange], title: 'a created PIX charge has no usable id', expected: 'data.id, a non-empty string', actual: JSON.stringify(data?.id) }));
    return undefined;
  }
  if (data?.status !== 'pending') {
    r.it.run.record(modelFinding({ requirements: ['GW-PIXIN-CREATE-PENDING'], exchanges: [res.exchange], title: 'a new PIX charge is not pending', expected: 'data.status "pending"', actual: JSON.stringify(data?.status) }));
    return undefined;
  }
  const charge: ModelCharge = { ref: `c${m.charges.length + 1}`, id, amount: body.amountInCents, fees: typeof data.fees === 'number' ? data.fees : 0, status: 'pending' };
  m.charges.push(charge);
  return charge;
}

/** Pays a pending charge of the model (one request) and checks the answer; true when it is now paid. */
async function payPending(r: GatewayReal, c: ModelCharge): Promise<{ ok: boolean; res: ApiResponse }> {
  const res = await r.gw.payPixCharge(c.id);
  if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['GW-PIXIN-PAY-200', 'GW-PIXIN-PAY-PAID'] }))) return { ok: false, res };
  abandonOn429(r, res);
  const status = dataOf(res.json)?.status;
  if (status !== 'paid') {
    r.it.run.record(modelFinding({ requirements: ['GW-PIXIN-PAY-PAID'], exchanges: [res.exchange], title: `paying pending charge ${c.ref} did not answer status paid`, expected: 'data.status "paid"', actual: JSON.stringify(status) }));
    return { ok: false, res };
  }
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
 * Measures the credit of paying `c` (balance, pay, balance); an out-of-range delta is measured again on a
 * fresh charge of the same amount, and reported (warning) only when both measurements disagree.
 */
async function payMeasured(m: GatewayModel, r: GatewayReal, c: ModelCharge, pay: () => Promise<{ ok: boolean; exchanges: Exchange[] }>): Promise<string> {
  const b0 = await readPixBalance(r);
  const paid = await pay();
  if (!paid.ok) return 'pay failed';
  const b1 = await readPixBalance(r);
  if (b0.cents === undefined || b1.cents === undefined) return 'balance unreadable';
  const [lo, hi] = creditRange(c);
  const delta = b1.cents - b0.cents;
  if (delta >= lo && delta <= hi) return `balance +${delta} cents (expected ${lo}..${hi})`;
  // repeat on a fresh charge before saying anything: another file may have moved the balance in between
  const again = await createCharge(m, r, { amountInCents: c.amount, customer: { ...FUNDING_CUSTOMER }, description: 'model balance re-measure' });
  if (!again) return 'confirmation charge failed';
  const c0 = await readPixBalance(r);
  const repaid = await payPending(r, again);
  if (!repaid.ok) return 'confirmation pay failed';
  const c1 = await readPixBalance(r);
  if (c0.cents === undefined || c1.cents === undefined) return 'balance unreadable';
  const [lo2, hi2] = creditRange(again);
  const delta2 = c1.cents - c0.cents;
  if (delta2 >= lo2 && delta2 <= hi2) return `balance delta ${delta} first (concurrent activity), +${delta2} on re-measure`;
  r.it.run.record(
    modelFinding({
      code: 'model.balance-credit',
      severity: 'warning',
      requirements: ['GW-PIXIN-PAID-CREDITS-BALANCE'],
      exchanges: [b0.exchange, ...paid.exchanges, b1.exchange, c0.exchange, repaid.res.exchange, c1.exchange],
      title: `paying a charge of ${c.amount} cents moved pix.balance outside the net..gross range, twice`,
      expected: `pix.balance to rise by ${lo}..${hi} cents (net of fees .. gross) per paid charge`,
      actual: `+${delta} cents around the first pay, +${delta2} around a second pay of the same amount (other files share the sandbox balance, hence a warning)`,
    }),
  );
  return `balance delta ${delta} and ${delta2}: outside ${lo}..${hi}`;
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

/** GET the charge and compare its status with the model (GW-PIXIN-GET-CURRENT-STATUS). */
export async function verifyChargeState(r: GatewayReal, c: ModelCharge): Promise<void> {
  const res = await r.gw.getPixCharge(c.id);
  if (recordAll(r.it.run, expectStatus(res.exchange, 200, { requirements: ['GW-PIXIN-GET-200'] }))) return;
  abandonOn429(r, res);
  const status = dataOf(res.json)?.status;
  r.log.outcome(`status ${JSON.stringify(status)}`);
  if (status !== c.status) {
    r.it.run.record(
      modelFinding({
        requirements: ['GW-PIXIN-GET-CURRENT-STATUS', 'GW-ATOMIC-TRANSITIONS'],
        exchanges: [res.exchange],
        title: `PIX charge ${c.ref} is ${JSON.stringify(status)}, but this sequence left it ${c.status}`,
        expected: `data.status "${c.status}" (the only state the contract's transitions allow after this sequence)`,
        actual: `data.status ${JSON.stringify(status)}`,
      }),
    );
  }
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
      r.log.outcome(this.measure ? `paid; ${await payMeasured(m, r, c, pay)}` : (await pay()).ok ? 'paid' : 'not paid');
      return;
    }
    // "400 charge no longer pending"
    const res = await r.gw.payPixCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    if (is2xx(res.status)) {
      r.it.run.record(
        modelFinding({
          requirements: ['GW-PIXIN-PAY-NOT-PENDING-400', 'GW-ATOMIC-TRANSITIONS'],
          exchanges: [res.exchange],
          title: `paying charge ${c.ref}, already paid, answered ${res.status}`,
          expected: 'HTTP 400 (charge no longer pending)',
          actual: `HTTP ${res.status} ${res.exchange.response?.body.slice(0, 200) ?? ''}`,
        }),
      );
      return;
    }
    recordAll(r.it.run, expectStatus(res.exchange, 400, { requirements: ['GW-PIXIN-PAY-NOT-PENDING-400'] }));
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
      const result = await r.burst('gateway', 2, () => r.gw.payPixCharge(c.id));
      const statuses = burstStatuses(result);
      const responses = result.values;
      const exchanges = responses.map((x) => x.exchange);
      r.log.outcome(`HTTP ${statuses.join(' ‖ ')}`);
      const ok = statuses.filter(is2xx).length;
      if (ok >= 2) {
        r.it.run.record(
          modelFinding({
            requirements: ['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAY-NOT-PENDING-400'],
            exchanges,
            title: `two simultaneous confirmations of charge ${c.ref} both succeeded`,
            expected: 'one 200 (pending → paid) and one 400 (no longer pending): the only serialisable outcome',
            actual: `HTTP ${statuses.join(' and ')}`,
          }),
        );
        return { ok: false, exchanges };
      }
      if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
      if (ok === 0) {
        r.it.run.record(...responses.map((x) => expectStatus(x.exchange, 200, { requirements: ['GW-PIXIN-PAY-200'] })));
        return { ok: false, exchanges };
      }
      const winner = responses.find((x) => is2xx(x.status)) as ApiResponse;
      const loser = responses.find((x) => !is2xx(x.status));
      if (loser) r.it.run.record(expectStatus(loser.exchange, 400, { requirements: ['GW-PIXIN-PAY-NOT-PENDING-400'] }));
      if (dataOf(winner.json)?.status !== 'paid') {
        r.it.run.record(modelFinding({ requirements: ['GW-PIXIN-PAY-PAID'], exchanges: [winner.exchange], title: `the successful confirmation of ${c.ref} did not answer status paid`, expected: 'data.status "paid"', actual: JSON.stringify(dataOf(winner.json)?.status) }));
      }
      c.status = 'paid';
      return { ok: true, exchanges };
    };
    if (this.measure) {
      const text = await payMeasured(m, r, c, pay);
      r.log.outcome(`${r.log.steps[r.log.steps.length - 1]?.outcome ?? ''}; ${text}`);
    } else await pay();
  }

  toString(): string {
    return `payPixCharge‖payPixCharge(#${this.index}${this.measure ? ', measure' : ''})`;
  }
}
