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
import { expectStatus } from '../../../harness/rules/index.js';
import {
  answerChargeLookup,
  chargeOf,
  ensureCancelAccepted,
  ensureConflictRefused,
  ensureCreatedPending,
  ensureDistinctCharges,
  ensureListedOnce,
  ensurePayRefused,
  expectChargeState,
  expectPartnerError,
  judgeCaptureWindow,
  judgePayCancelRace,
  judgeSameKeyBurst,
  locateChargeList,
  verifyChargeAmount,
  verifyChargeId,
  verifyExternalRefUnchanged,
  verifyNewestFirst,
  verifyReplayedCharge,
  verifyStatusFilter,
} from '../../../harness/rules/partner/index.js';
import type { ApiResponse, PartnerChargeRequest } from '../../../harness/http/partner-client.js';
import { ModelCommand, PickingCommand, StopSequence, abandonOn429, burstStatuses, judgeFails, recordAll, sendThenJudge, shortId } from '../../../harness/run/model.js';
import type { MeasureWindow } from '../../../harness/run/model.js';
import { is2xx } from '../../../harness/core/json.js';
import { readStatement, statementAnswer } from './finance.js';
import type { Statement } from './finance.js';
import type { ChargeState, ModelCharge, PartnerModel, PartnerReal } from './model.js';

/** Hands a 2xx creation answer to the creation rules and adds the charge to the model. */
function created(m: PartnerModel, r: PartnerReal, res: ApiResponse, body: PartnerChargeRequest, key: string | undefined): ModelCharge | undefined {
  const data = chargeOf(res.json);
  const exchange = res.exchange;
  if (judgeFails(r.it.run, verifyChargeId, { charge: data, exchange }) || !data || typeof data.id !== 'string') return undefined;
  const id = data.id;
  if (judgeFails(r.it.run, ensureCreatedPending, { charge: data, exchange })) return undefined;
  r.it.run.judge(verifyChargeAmount, { charge: data, exchange, sentCents: body.amount_cents, where: 'on creation' });
  r.it.run.judge(verifyExternalRefUnchanged, { seen: data.external_ref, sent: body.external_ref, where: 'on creation', exchanges: [exchange] });
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
    if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-CHARGE-CREATE-200'] }))) return;
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
    if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-IDEM-REPLAY'] }))) return;
    abandonOn429(r, res);
    const id = chargeOf(res.json)?.id;
    r.log.outcome(`HTTP ${res.status}, id ${typeof id === 'string' ? shortId(id) : JSON.stringify(id)}`);
    r.it.run.record(verifyReplayedCharge(c.id, res, { requirements: ['PT-IDEM-REPLAY', 'PT-IDEM-NO-REPEAT'] }));
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
    if (recordAll(r.it.run, ensureConflictRefused(res, { requirements: ['PT-IDEM-CONFLICT-409'] }))) return;
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
    if (recordAll(r.it.run, judgeSameKeyBurst(result.values, { requirements: ['PT-IDEM-NO-REPEAT'] }))) return;
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    const first = ok[0];
    if (!first) {
      r.it.run.record(...result.values.map((x) => expectStatus(x.exchange, '2xx', { requirements: ['PT-CHARGE-CREATE-200'] })));
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
    if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-IDEM-ABSENT-NEW'] }))) return;
    abandonOn429(r, res);
    const id = chargeOf(res.json)?.id;
    if (recordAll(r.it.run, ensureDistinctCharges([id], { requirements: ['PT-IDEM-ABSENT-NEW', 'PT-CHARGE-EXTREF-LABEL'], exchanges: [res.exchange], known: m.charges.map((x) => x.id) }))) return;
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
  if (judgeFails(r.it.run, answerChargeLookup, res)) return undefined;
  abandonOn429(r, res);
  const data = chargeOf(res.json);
  r.log.outcome(`status ${JSON.stringify(data?.status)}`);
  r.it.run.record(expectChargeState({ answer: res, state: data?.status }, c.status, { requirements: ['PT-CHARGE-GET-CURRENT', 'PT-STATE-ONE-TRANSITION'], why: `(charge ${c.ref}; the only state the transitions allow after this sequence)` }));
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
    if (recordAll(r.it.run, expectStatus(res.exchange, 200, { requirements: ['PT-LIST-STATUS-FILTER'] }))) return;
    abandonOn429(r, res);
    const list = locateChargeList(res.json);
    if (!list) {
      r.it.run.note(`list: no array of charges found in ${JSON.stringify(res.json).slice(0, 120)} (envelope not shown)`);
      return;
    }
    const items = list.items;
    const ex = { exchanges: [res.exchange] };
    // the charges of this sequence in each state (the filter rule also checks that others are absent)
    const ours: Record<string, string | undefined> = {};
    if (this.filter) {
      const inState = m.charges.filter((c) => c.status === this.filter);
      // only one of ours per state can be asked to be present; the rule checks the others' absence
      ours[this.filter] = inState[inState.length - 1]?.id;
      for (const c of m.charges) if (c.status !== this.filter && ours[c.status] === undefined) ours[c.status] = c.id;
      if (recordAll(r.it.run, verifyStatusFilter(list, this.filter, ours, { exchanges: ex.exchanges, requirements: ['PT-LIST-STATUS-FILTER'] }))) return;
    }
    if (recordAll(r.it.run, ensureListedOnce(list, { exchanges: ex.exchanges, requirements: ['PT-STATE-ONE-TRANSITION'] }))) return;
    const mine = items.map((x) => ({ x, c: m.charges.find((c) => c.id === x.id) })).filter((p): p is { x: Record<string, unknown>; c: ModelCharge } => p.c !== undefined);
    for (const { x, c } of mine) {
      if (recordAll(r.it.run, expectChargeState({ answer: res, state: x.status }, c.status, { requirements: ['PT-CHARGE-GET-CURRENT', 'PT-STATE-ONE-TRANSITION'], why: `in the list (charge ${c.ref})` }))) return;
    }
    const listable = this.filter ? m.charges.filter((c) => c.status === this.filter) : m.charges;
    if (recordAll(r.it.run, verifyNewestFirst(list, listable.map((c) => c.id), ex))) return;
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
      if (recordAll(r.it.run, ensureCancelAccepted(res, { requirements: ['PT-CHARGE-CANCEL-PENDING'] }))) return;
      abandonOn429(r, res);
      c.status = 'canceled';
      return;
    }
    // "Cancel from paid, expired or canceled answers 409."
    if (recordAll(r.it.run, expectPartnerError(res, 409, { requirements: c.status === 'paid' ? ['PT-CHARGE-CANCEL-409', 'PT-STATE-PAID-TERMINAL'] : ['PT-CHARGE-CANCEL-409'] }))) return;
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
    // the status of this case is not shown: any 4xx passes (ensurePayRefused); the state must not change
    recordAll(r.it.run, ensurePayRefused(res, { requirements: ['PT-STATE-ONE-TRANSITION'], state: c.status }));
    abandonOn429(r, res);
    if (is2xx(res.status)) await verifyChargeState(r, c);
  }

  /** Pays a pending charge; `window` (a measurement): the statement before and after (the caller holds the sibling lane alone). */
  private async payPending(c: ModelCharge, r: PartnerReal, window: MeasureWindow | undefined): Promise<void> {
    const before = window ? await readStatement(r) : undefined;
    await window?.beforeMove();
    const res = await r.pt.payCharge(c.id);
    if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-CHARGE-PAY-CONFIRMS'] }))) return;
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
    const result = await r.burst('partner', 2, () => r.pt.payCharge(c.id));
    const statuses = burstStatuses(result);
    const exchanges = result.values.map((x) => x.exchange);
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    const ok = statuses.filter(is2xx).length;
    if (ok === 0) {
      r.it.run.record(...exchanges.map((e) => expectStatus(e, '2xx', { requirements: ['PT-CHARGE-PAY-CONFIRMS'] })));
      return;
    }
    for (const x of result.values) if (!is2xx(x.status)) r.it.run.record(expectStatus(x.exchange, '4xx', { requirements: ['PT-ATOMIC-CAPTURE'] }));
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
    const result = await r.burst('partner', 2, (i) => (i === 0 ? r.pt.payCharge(c.id) : r.pt.cancelCharge(c.id)));
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
      if (recordAll(r.it.run, judgePayCancelRace({ pay, cancel, finalState: now }, { requirements: ['PT-STATE-ONE-TRANSITION'] }))) {
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

/** Judges one capture window of a model charge (harness/rules/partner/finance.ts) and returns the step's outcome text. */
function captureWindow(r: PartnerReal, c: ModelCharge, before: Statement, after: Statement, exchanges: ApiResponse['exchange'][], options: { concurrent?: boolean; mustNotCapture?: boolean } = {}): string {
  const verdict = judgeCaptureWindow({ before, after, charge: { id: c.id }, amount: c.body.amount_cents, exchanges, ...options });
  r.it.run.record(verdict.judgement);
  return verdict.outcome;
}
