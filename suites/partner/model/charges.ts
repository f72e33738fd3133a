/**
 * Partner charge commands: create (with or without Idempotency-Key), replay, conflict, same-key ‖
 * same-key, create again without the key (same external_ref), get, list, cancel, pay, pay ‖ pay,
 * pay ‖ cancel.
 *
 * Contract (partner-cashin-api.md): "POST /v1/business/pix-charges … 200: PIX charge"; "A charge is
 * created in pending"; "external_ref … returned unchanged on lookups"; "`external_ref` is only a
 * label: resending without the same idempotency key creates a new charge"; "same key and same body
 * returns the original response without repeating the effect; same key with a different body gives
 * 409; without the header every call creates a new record"; "GET …/:id Returns the current state";
 * "Lists the account charges, newest first … Optional query status filters"; "Cancel from paid,
 * expired or canceled answers 409"; "paid | terminal"; "moves to exactly one of the other states";
 * "two concurrent confirmations of the same charge never capture the value twice".
 *
 * Open points, accepted: the status of pay on a paid/canceled charge is not shown (any 4xx passes; a
 * 2xx is a warning unless the charge then changed state or was captured again); cancel/pay response
 * bodies are not shown (the state is confirmed by lookups instead).
 */
import { randomUUID } from 'node:crypto';
import {
  answerChargeCreation,
  answerChargeLookup,
  cancelPendingCharge,
  chargeOf,
  confirmPendingCharge,
  createWithoutKey,
  describeCapture,
  filterByStatus,
  keepPaidTerminal,
  listAccountCharges,
  locateChargeList,
  moveOnceFromPending,
  neverCaptureTwice,
  readCaptureWindow,
  refuseCancelUnlessPending,
  refuseKeyReuse,
  replayWithoutRepeating,
  verifyCaptureWindow,
  verifyChargeId,
  verifyCreatedCharge,
  verifyExternalRefUnchanged,
  verifyOursListed,
} from '../../../harness/rules/partner/index.js';
import type { ApiResponse, PartnerChargeRequest } from '../../../harness/http/partner-client.js';
import { MONEY_ONLY, ModelCommand, PickingCommand, StopSequence, abandonOn429, burstStatuses, judgeFails, sendThenJudge, shortId } from '../../../harness/run/model.js';
import type { MeasureWindow } from '../../../harness/run/model.js';
import { is2xx } from '../../../harness/core/json.js';
import { readStatement, statementAnswer } from './finance.js';
import type { Statement } from './finance.js';
import type { ChargeState, ModelCharge, PartnerModel, PartnerReal } from './model.js';

/** Hands a 2xx creation answer's charge to the rule of the charge as created, and adds it to the model. */
function created(m: PartnerModel, r: PartnerReal, res: ApiResponse, body: PartnerChargeRequest, key: string | undefined): ModelCharge | undefined {
  const data = chargeOf(res.json);
  const exchange = res.exchange;
  if (!data) return void r.it.run.judge(verifyChargeId, { charge: data, exchange });
  if (judgeFails(r.it.run, verifyCreatedCharge, { charge: data, sent: body, exchange }) || typeof data.id !== 'string') return undefined;
  const id = data.id;
  const c: ModelCharge = { ref: `p${m.charges.length + 1}`, id, body, key, createdAt: typeof data.created_at === 'string' ? data.created_at : undefined, status: 'pending' };
  m.charges.push(c);
  return c;
}

/** The model holds at most this many charges: a sequence stays short and cheap to shrink. */
const MAX_CHARGES = 8;

/** A command on one of the model's charges. */
abstract class OnCharge extends PickingCommand<PartnerModel, PartnerReal, ModelCharge> {}

export class CreateCharge extends ModelCommand<PartnerModel, PartnerReal> {
  constructor(
    readonly body: PartnerChargeRequest,
    readonly withKey: boolean,
  ) {
    super();
  }

  check(m: Readonly<PartnerModel>): boolean {
    return m.charges.length < MAX_CHARGES;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const key = this.withKey ? randomUUID() : undefined;
    const res = await r.pt.createCharge(this.body, key === undefined ? {} : { idempotencyKey: key });
    if (judgeFails(r.it.run, answerChargeCreation, { answer: res, withKey: key !== undefined })) return;
    abandonOn429(r, res);
    const c = created(m, r, res, this.body, key);
    if (!c) return;
    r.log.describe(`create charge ${c.ref} of ${this.body.amount_cents} cents${this.body.external_ref !== undefined ? ` external_ref ${JSON.stringify(this.body.external_ref)}` : ''}${key ? ` (Idempotency-Key ${shortId(key)})` : ''}`);
    r.log.outcome(`pending, id ${shortId(c.id)}`);
  }

  toString(): string {
    return `createCharge(${this.body.amount_cents}${this.withKey ? ', key' : ''})`;
  }
}

export class ReplayCreate extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.key !== undefined);
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`resend the creation of ${c.ref} with the same Idempotency-Key and body`);
    const res = await r.pt.createCharge(c.body, { idempotencyKey: c.key as string });
    const id = chargeOf(res.json)?.id;
    r.log.outcome(`HTTP ${res.status}, id ${typeof id === 'string' ? shortId(id) : JSON.stringify(id)}`);
    if (judgeFails(r.it.run, replayWithoutRepeating, { kind: 'replay', originalId: c.id, answer: res })) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `replayCreate(#${this.index})`;
  }
}

export class ConflictCreate extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.key !== undefined);
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    const other: PartnerChargeRequest = { ...c.body, amount_cents: c.body.amount_cents + 1 };
    r.log.describe(`reuse the Idempotency-Key of ${c.ref} with a different body (amount ${other.amount_cents})`);
    const res = await r.pt.createCharge(other, { idempotencyKey: c.key as string });
    r.log.outcome(`HTTP ${res.status}`);
    if (judgeFails(r.it.run, refuseKeyReuse, res)) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `conflictCreate(#${this.index})`;
  }
}

/** Two simultaneous first uses of one Idempotency-Key with one body: one charge. */
export class SameKeyConcurrently extends ModelCommand<PartnerModel, PartnerReal> {
  constructor(readonly body: PartnerChargeRequest) {
    super();
  }

  check(m: Readonly<PartnerModel>): boolean {
    return m.charges.length < MAX_CHARGES;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const key = randomUUID();
    r.log.describe(`create a charge of ${this.body.amount_cents} cents twice at the same instant with one Idempotency-Key ${shortId(key)}`);
    const result = await r.burst('partner', 2, () => r.pt.createCharge(this.body, { idempotencyKey: key }));
    const statuses = burstStatuses(result);
    r.log.outcome(`HTTP ${statuses.join(' ‖ ')}`);
    const ok = result.values.filter((x) => is2xx(x.status));
    if (judgeFails(r.it.run, replayWithoutRepeating, { kind: 'burst', answers: result.values })) return;
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    const first = ok[0];
    if (!first) {
      for (const x of result.values) r.it.run.judge(answerChargeCreation, { answer: x, withKey: true });
      return;
    }
    for (const x of result.values) if (!is2xx(x.status)) r.it.run.note(`same-key burst: the concurrent duplicate answered ${x.status} (the contract fixes replay and 409 for a different body only)`);
    created(m, r, first, this.body, key);
  }

  toString(): string {
    return `createCharge‖createCharge(${this.body.amount_cents}, same key)`;
  }
}

/** Resends a body with an external_ref WITHOUT Idempotency-Key: a new charge (external_ref is only a label). */
export class CreateAgainWithoutKey extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.body.external_ref !== undefined);
  }

  override check(m: Readonly<PartnerModel>): boolean {
    return m.charges.length < MAX_CHARGES && super.check(m);
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`create again the body of ${c.ref} (same external_ref) without Idempotency-Key`);
    const res = await r.pt.createCharge(c.body);
    if (judgeFails(r.it.run, answerChargeCreation, { answer: res, withKey: false })) return;
    abandonOn429(r, res);
    const id = chargeOf(res.json)?.id;
    if (judgeFails(r.it.run, createWithoutKey, { ids: [id], known: m.charges.map((x) => x.id), exchanges: [res.exchange] })) return;
    const n = created(m, r, res, c.body, undefined);
    if (n) r.log.outcome(`new charge ${n.ref}`);
  }

  toString(): string {
    return `createAgainWithoutKey(#${this.index})`;
  }
}

/** GET the charge and compare with the model. */
export async function verifyChargeState(r: PartnerReal, c: ModelCharge): Promise<ChargeState | undefined> {
  return chargeStateAnswer(r, c, await r.pt.getCharge(c.id));
}

/** Judges a GET of the charge against the model; returns the state it shows (undefined: none of the model's). */
export function chargeStateAnswer(r: PartnerReal, c: ModelCharge, res: ApiResponse): ChargeState | undefined {
  const data = chargeOf(res.json);
  const failed = judgeFails(r.it.run, answerChargeLookup, { answer: res, expected: c.status, why: `(charge ${c.ref}; the only state the transitions allow after this sequence)` });
  abandonOn429(r, res);
  r.log.outcome(`status ${JSON.stringify(data?.status)}`);
  if (failed && !is2xx(res.status)) return undefined;
  if (data && 'external_ref' in data) r.it.run.judge(verifyExternalRefUnchanged, { seen: data.external_ref, sent: c.body.external_ref, where: 'on lookup', exchanges: [res.exchange] });
  const status = data?.status;
  return status === 'pending' || status === 'paid' || status === 'canceled' ? status : undefined;
}

export class GetCharge extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`get charge ${c.ref} (model: ${c.status})`);
    await verifyChargeState(r, c);
  }

  toString(): string {
    return `getCharge(#${this.index})`;
  }
}

export class ListCharges extends ModelCommand<PartnerModel, PartnerReal> {
  constructor(readonly filter: ChargeState | undefined) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    r.log.describe(`list charges${this.filter ? ` with status=${this.filter}` : ''}`);
    const res = await r.pt.listCharges(this.filter ? { status: this.filter } : {});
    const refused = this.filter ? judgeFails(r.it.run, filterByStatus, { kind: 'answer', answer: res, state: this.filter }) : judgeFails(r.it.run, listAccountCharges, { kind: 'answer', answer: res });
    if (refused) return;
    abandonOn429(r, res);
    const list = locateChargeList(res.json);
    if (!list) {
      r.it.run.note(`list: no array of charges found in ${JSON.stringify(res.json).slice(0, 120)} (envelope not shown)`);
      return;
    }
    const items = list.items;
    const seen = { list, exchange: res.exchange };
    // the charges of this sequence in each state (the filter rule also checks that others are absent)
    const ours: Record<string, string | undefined> = {};
    if (this.filter) {
      const inState = m.charges.filter((c) => c.status === this.filter);
      // only one of ours per state can be asked to be present; the rule checks the others' absence
      ours[this.filter] = inState[inState.length - 1]?.id;
      for (const c of m.charges) if (c.status !== this.filter && ours[c.status] === undefined) ours[c.status] = c.id;
      if (judgeFails(r.it.run, filterByStatus, { kind: 'filtered', state: this.filter, ours, ...seen })) return;
    }
    if (judgeFails(r.it.run, moveOnceFromPending, { kind: 'listed', ...seen })) return;
    const mine = items.filter((x) => m.charges.some((c) => c.id === x.id));
    const known = Object.fromEntries(m.charges.map((c) => [c.id, c.status]));
    if (judgeFails(r.it.run, listAccountCharges, { kind: 'states', known, why: 'in the list (the only state the transitions allow after this sequence)', ...seen })) return;
    const listable = this.filter ? m.charges.filter((c) => c.status === this.filter) : m.charges;
    if (judgeFails(r.it.run, verifyOursListed, { ours: listable.map((c) => c.id), ...seen })) return;
    r.log.outcome(`${items.length} listed, ${mine.length} of this sequence`);
  }

  toString(): string {
    return `listCharges(${this.filter ?? ''})`;
  }
}

export class CancelCharge extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`cancel charge ${c.ref} (model: ${c.status})`);
    // no lane: a cancel moves no money (a pending charge has no capture; from any other state it is
    // refused), and its own answer is judged here. A faulty target that posts a reversal inside a
    // sibling's ledger window gives that window a foreign posting, which its judgement bounds; one
    // that moves available_cents with no posting may make the sibling's window find something, but
    // the concurrent phase only decides a pass: the verdict is then the one-at-a-time run
    const res = await r.pt.cancelCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    if (c.status === 'pending') {
      if (judgeFails(r.it.run, cancelPendingCharge, { kind: 'cancel', answer: res })) return;
      abandonOn429(r, res);
      c.status = 'canceled';
      return;
    }
    // "Cancel from paid, expired or canceled answers 409."
    if (judgeFails(r.it.run, refuseCancelUnlessPending, { kind: 'cancel', answer: res, state: c.status })) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `cancelCharge(#${this.index})`;
  }
}

export class PayCharge extends OnCharge {
  constructor(
    index: number,
    readonly measure: boolean,
  ) {
    super(index);
  }

  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`pay charge ${c.ref} (model: ${c.status})${this.measure && c.status === 'pending' ? ', reading the statement before and after' : ''}`);
    if (c.status === 'pending') {
      if (this.measure) await r.siblings.measure((window) => this.payPending(c, r, window));
      else await r.siblings.move(() => this.payPending(c, r, undefined));
      return;
    }
    // no lane: a pay of a charge that is no longer pending moves no money (see CancelCharge)
    const res = await r.pt.payCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    // the status of this case is not shown: any 4xx passes (a 2xx only warns); the state must not change
    if (c.status === 'paid') r.it.run.judge(keepPaidTerminal, { kind: 'pay', answer: res });
    else r.it.run.judge(moveOnceFromPending, { kind: 'pay', answer: res, state: c.status });
    abandonOn429(r, res);
    if (is2xx(res.status)) await verifyChargeState(r, c);
  }

  /** Pays a pending charge; `window` (a measurement): the statement before and after (the caller holds the sibling lane alone). */
  private async payPending(c: ModelCharge, r: PartnerReal, window: MeasureWindow | undefined): Promise<void> {
    const before = window ? await readStatement(r) : undefined;
    await window?.beforeMove();
    const res = await r.pt.payCharge(c.id);
    if (judgeFails(r.it.run, confirmPendingCharge, { kind: 'pay', answer: res })) return;
    abandonOn429(r, res);
    c.status = 'paid';
    // the pay is answered: a sibling's opening read may go beside our closing read (SiblingLane)
    window?.settle();
    const after = before ? await readStatement(r) : undefined;
    r.log.outcome(`HTTP ${res.status}${before && after ? `; ${captureWindow(r, c, before, after, [res.exchange])}` : ''}`);
  }

  toString(): string {
    return `payCharge(#${this.index}${this.measure ? ', measure' : ''})`;
  }
}

/** pay ‖ pay on one pending charge: it ends paid and is captured once, whatever the two answers say. */
export class PayPayConcurrently extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.status === 'pending');
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`pay charge ${c.ref} twice at the same instant (pay ‖ pay)`);
    // a race judged on the ledger window: no sibling sequence moves the account meanwhile
    await r.siblings.measure((window) => this.race(c, r, window));
  }

  private async race(c: ModelCharge, r: PartnerReal, window: MeasureWindow): Promise<void> {
    const before = await readStatement(r);
    await window.beforeMove();
    const result = await r.burst('partner', 2, () => r.pt.payCharge(c.id), MONEY_ONLY);
    const statuses = burstStatuses(result);
    const exchanges = result.values.map((x) => x.exchange);
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    if (judgeFails(r.it.run, confirmPendingCharge, { kind: 'race', answers: result.values }) || statuses.filter(is2xx).length === 0) return;
    r.it.run.judge(neverCaptureTwice, { kind: 'answers', answers: result.values });
    c.status = 'paid';
    // both pays answered (a request that got no answer may still act: then no overlap)
    if (result.outcomes.every((o) => o.status === 'fulfilled')) window.settle();
    const after = await readStatement(r);
    const text = before && after ? captureWindow(r, c, before, after, exchanges, { concurrent: true }) : '';
    r.log.outcome(`HTTP ${statuses.join(' ‖ ')}; ${text}`);
  }

  toString(): string {
    return `payCharge‖payCharge(#${this.index})`;
  }
}

/** pay ‖ cancel on one pending charge: exactly one wins; the end state and the ledger match one serial order. */
export class PayCancelConcurrently extends OnCharge {
  protected candidates(m: Readonly<PartnerModel>): readonly ModelCharge[] {
    return m.charges.filter((x) => x.status === 'pending');
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const c = this.target(m);
    r.log.describe(`pay and cancel charge ${c.ref} at the same instant (pay ‖ cancel)`);
    // a race judged on the ledger window: no sibling sequence moves the account meanwhile
    await r.siblings.measure((window) => this.race(c, r, window));
  }

  private async race(c: ModelCharge, r: PartnerReal, window: MeasureWindow): Promise<void> {
    const before = await readStatement(r);
    await window.beforeMove();
    const result = await r.burst('partner', 2, (i) => (i === 0 ? r.pt.payCharge(c.id) : r.pt.cancelCharge(c.id)), MONEY_ONLY);
    const [pay, cancel] = result.outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
    const exchanges = result.values.map((x) => x.exchange);
    if (!pay || !cancel) throw new StopSequence('a burst request failed without response');
    r.log.outcome(`pay HTTP ${pay.status} ‖ cancel HTTP ${cancel.status}`);
    abandonOn429(r, pay, cancel);
    // both answered: a sibling's opening read may go beside our closing reads (SiblingLane)
    window.settle();
    const cancelOk = is2xx(cancel.status);
    // the lookup and the closing statement are two reads after the race: sent together in the
    // concurrent phase (one round trip less inside this sibling-lane hold), judged in this order
    let after: Statement | undefined;
    let stopped = false;
    await sendThenJudge(r.it, ['lookup', 'statement'] as const, (read) => (read === 'lookup' ? r.pt.getCharge(c.id) : r.pt.getFinance()), (read, res) => {
      if (read === 'statement') {
        after = statementAnswer(r, res);
        return;
      }
      const now = chargeStateAnswer(r, { ...c, status: cancelOk ? 'canceled' : 'paid' }, res);
      const raced = judgeFails(r.it.run, moveOnceFromPending, { kind: 'race', pay, cancel, finalState: now, lookup: res.exchange });
      if (judgeFails(r.it.run, refuseCancelUnlessPending, { kind: 'race', cancel, finalState: now }) || raced) {
        stopped = true;
        return false;
      }
      // cancel 2xx means cancel ran first (cancel of a paid charge is 409): the charge must end canceled and uncaptured
      c.status = now === 'canceled' ? 'canceled' : 'paid';
      return;
    });
    if (stopped) return;
    if (before && after) {
      const text = captureWindow(r, c, before, after, exchanges, { mustNotCapture: c.status === 'canceled' });
      r.log.outcome(`pay HTTP ${pay.status} ‖ cancel HTTP ${cancel.status}; ${c.status}; ${text}`);
    }
  }

  toString(): string {
    return `payCharge‖cancelCharge(#${this.index})`;
  }
}

/**
 * Judges one capture window of a model charge (harness/rules/partner/): a charge that ended canceled
 * has no capture; a paid one is judged as conservation of money. Returns the step's outcome text.
 */
function captureWindow(r: PartnerReal, c: ModelCharge, before: Statement, after: Statement, exchanges: ApiResponse['exchange'][], options: { concurrent?: boolean; mustNotCapture?: boolean } = {}): string {
  const reading = readCaptureWindow({ before, after, charge: { id: c.id }, amount: c.body.amount_cents, exchanges, ...(options.concurrent ? { concurrent: true } : {}) });
  if (options.mustNotCapture) r.it.run.judge(neverCaptureTwice, { kind: 'ledger', reading, endedCanceled: true });
  else r.it.run.judge(verifyCaptureWindow, reading);
  return describeCapture(reading);
}

/** The rules the charge commands judge by. */
export const MODEL_CHARGE_RULES = [
  answerChargeCreation, verifyChargeId, verifyCreatedCharge, verifyExternalRefUnchanged,
  replayWithoutRepeating, refuseKeyReuse, createWithoutKey, answerChargeLookup, listAccountCharges, filterByStatus, verifyOursListed,
  cancelPendingCharge, refuseCancelUnlessPending, confirmPendingCharge, keepPaidTerminal, moveOnceFromPending, neverCaptureTwice, verifyCaptureWindow,
] as const;
