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
import { expectStatus, verifyPartnerErrorShape } from '../../../harness/rules/index.js';
import type { ApiResponse, PartnerChargeRequest } from '../../../harness/http/partner-client.js';
import { ModelCommand, PickingCommand, StopSequence, abandonOn429, burstStatuses, modelFinding, recordAll, shortId } from '../../../harness/run/model.js';
import { is2xx, isRecord } from '../../../harness/json.js';
import { readStatement, verifyCapture } from './finance.js';
import type { ChargeState, ModelCharge, PartnerModel, PartnerReal } from './model.js';

function chargeOf(json: unknown): Record<string, unknown> | undefined {
  if (!isRecord(json)) return undefined;
  return isRecord(json.data) && typeof json.data.id === 'string' && typeof json.id !== 'string' ? json.data : json;
}

/** Checks a 2xx creation answer and adds the charge to the model. */
function created(m: PartnerModel, r: PartnerReal, res: ApiResponse, body: PartnerChargeRequest, key: string | undefined): ModelCharge | undefined {
  const data = chargeOf(res.json);
  const id = data?.id;
  if (typeof id !== 'string' || id === '') {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-FIELD-ID'], exchanges: [res.exchange], title: 'a created charge has no usable id', expected: 'id, a non-empty string', actual: JSON.stringify(id) }));
    return undefined;
  }
  if (data?.status !== 'pending') {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-CREATE-PENDING'], exchanges: [res.exchange], title: 'a new charge is not pending', expected: 'status "pending"', actual: JSON.stringify(data?.status) }));
    return undefined;
  }
  if (data.amount_cents !== body.amount_cents) {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-FIELD-AMOUNT'], exchanges: [res.exchange], title: 'a created charge does not carry the amount sent', expected: `amount_cents ${body.amount_cents}`, actual: JSON.stringify(data.amount_cents) }));
  }
  if (body.external_ref !== undefined && data.external_ref !== body.external_ref) {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-EXTREF-UNCHANGED'], exchanges: [res.exchange], title: 'external_ref is not returned unchanged', expected: `external_ref ${JSON.stringify(body.external_ref)}`, actual: JSON.stringify(data.external_ref) }));
  }
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
    if (id !== c.id) {
      r.it.run.record(modelFinding({ requirements: ['PT-IDEM-REPLAY', 'PT-IDEM-NO-REPEAT'], exchanges: [res.exchange], title: `resending ${c.ref} with its Idempotency-Key and body did not return the original charge`, expected: `the original response: id ${JSON.stringify(c.id)}`, actual: `id ${JSON.stringify(id)} (a second charge)` }));
    }
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
    if (is2xx(res.status)) {
      const id = chargeOf(res.json)?.id;
      r.it.run.record(modelFinding({ requirements: ['PT-IDEM-CONFLICT-409'], exchanges: [res.exchange], title: `the key of ${c.ref} reused with a different body answered ${res.status}`, expected: 'HTTP 409 {detail}', actual: `HTTP ${res.status}, id ${JSON.stringify(id)}` }));
      return;
    }
    if (recordAll(r.it.run, expectStatus(res.exchange, 409, { requirements: ['PT-IDEM-CONFLICT-409'] }))) return;
    abandonOn429(r, res);
    r.it.run.record(verifyPartnerErrorShape(res.json, { requirements: ['PT-ERR-DETAIL-SHAPE'], exchanges: [res.exchange] }));
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
    const ids = [...new Set(ok.map((x) => chargeOf(x.json)?.id))];
    if (ids.length > 1) {
      r.it.run.record(modelFinding({ requirements: ['PT-IDEM-NO-REPEAT'], exchanges: result.values.map((x) => x.exchange), title: 'two simultaneous requests with one Idempotency-Key created two charges', expected: 'one charge: the second answer replays the first (same id)', actual: `ids ${ids.map((i) => JSON.stringify(i)).join(' and ')}` }));
      return;
    }
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
    if (id === c.id || m.charges.some((x) => x.id === id)) {
      r.it.run.record(modelFinding({ requirements: ['PT-IDEM-ABSENT-NEW', 'PT-CHARGE-EXTREF-LABEL'], exchanges: [res.exchange], title: `a creation without Idempotency-Key returned the earlier charge ${c.ref}`, expected: 'a new charge (new id): without the header every call creates a new record', actual: `id ${JSON.stringify(id)} (already known)` }));
      return;
    }
    const n = created(m, r, res, c.body, undefined);
    if (n) r.log.outcome(`new charge ${n.ref}`);
  }

  toString(): string {
    return `createAgainWithoutKey(#${this.index})`;
  }
}

/** GET the charge and compare with the model. */
export async function verifyChargeState(r: PartnerReal, c: ModelCharge): Promise<ChargeState | undefined> {
  const res = await r.pt.getCharge(c.id);
  if (recordAll(r.it.run, expectStatus(res.exchange, 200, { requirements: ['PT-CHARGE-GET-CURRENT'] }))) return undefined;
  abandonOn429(r, res);
  const data = chargeOf(res.json);
  r.log.outcome(`status ${JSON.stringify(data?.status)}`);
  if (data?.status !== c.status) {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-GET-CURRENT', 'PT-STATE-ONE-TRANSITION'], exchanges: [res.exchange], title: `charge ${c.ref} is ${JSON.stringify(data?.status)}, but this sequence left it ${c.status}`, expected: `status "${c.status}" (the only state the contract's transitions allow after this sequence)`, actual: `status ${JSON.stringify(data?.status)}` }));
  }
  if (c.body.external_ref !== undefined && data?.external_ref !== c.body.external_ref) {
    r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-EXTREF-UNCHANGED'], exchanges: [res.exchange], title: `external_ref of ${c.ref} is not returned unchanged on lookup`, expected: JSON.stringify(c.body.external_ref), actual: JSON.stringify(data?.external_ref) }));
  }
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

/** The array of charges in a list answer (envelope not shown): a top-level array, `data`, or the single array-of-objects property. */
function listedCharges(json: unknown): Record<string, unknown>[] | undefined {
  const objects = (v: unknown): Record<string, unknown>[] | undefined => (Array.isArray(v) && v.every(isRecord) ? v : undefined);
  if (Array.isArray(json)) return objects(json);
  if (!isRecord(json)) return undefined;
  const direct = objects(json.data) ?? objects(json.items) ?? objects(json.charges) ?? objects(json.results);
  if (direct) return direct;
  const arrays = Object.values(json).filter((v) => Array.isArray(v) && v.length > 0 && v.every(isRecord));
  return arrays.length === 1 ? (arrays[0] as Record<string, unknown>[]) : Object.values(json).some(Array.isArray) ? [] : undefined;
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
    const items = listedCharges(res.json);
    if (!items) {
      r.it.run.note(`list: no array of charges found in ${JSON.stringify(res.json).slice(0, 120)} (envelope not shown)`);
      return;
    }
    const ex = [res.exchange];
    if (this.filter) {
      // lazy expiry may show a listed pending charge as expired (catalogue PT-CHARGE-EXPIRY-LIST)
      const off = items.filter((x) => x.status !== this.filter && !(this.filter === 'pending' && x.status === 'expired'));
      if (off.length) {
        r.it.run.record(modelFinding({ requirements: ['PT-LIST-STATUS-FILTER'], exchanges: ex, title: `status=${this.filter} listed charges in another state`, expected: `only charges with status "${this.filter}"`, actual: `${off.length} of ${items.length}: ${off.slice(0, 3).map((x) => `${String(x.id)}=${String(x.status)}`).join(', ')}` }));
        return;
      }
    }
    const ids = items.map((x) => x.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined) {
      r.it.run.record(modelFinding({ requirements: ['PT-STATE-ONE-TRANSITION'], exchanges: ex, title: 'one charge is listed twice', expected: 'each charge once, in one state', actual: `id ${JSON.stringify(twice)}` }));
      return;
    }
    const mine = items.map((x) => ({ x, c: m.charges.find((c) => c.id === x.id) })).filter((p): p is { x: Record<string, unknown>; c: ModelCharge } => p.c !== undefined);
    for (const { x, c } of mine) {
      if (x.status !== c.status) {
        r.it.run.record(modelFinding({ requirements: ['PT-CHARGE-GET-CURRENT', 'PT-STATE-ONE-TRANSITION'], exchanges: ex, title: `the list shows charge ${c.ref} as ${JSON.stringify(x.status)}, the model says ${c.status}`, expected: `status "${c.status}"`, actual: JSON.stringify(x.status) }));
        return;
      }
    }
    if (this.filter) {
      const expected = m.charges.filter((c) => c.status === this.filter);
      const listedIds = new Set(ids);
      // only when the list is not full: with 200 records, newer charges of other files may have pushed ours out
      const missing = items.length < 200 ? expected.filter((c) => !listedIds.has(c.id)) : [];
      if (missing.length) {
        r.it.run.record(modelFinding({ requirements: ['PT-LIST-STATUS-FILTER', 'PT-LIST-ACCOUNT-SCOPE'], exchanges: ex, title: `status=${this.filter} does not list charge ${missing[0]?.ref}`, expected: `the account's ${this.filter} charges (fewer than 200 listed)`, actual: `${missing.length} missing` }));
        return;
      }
    }
    // newest first: a charge listed after another may not have a later created_at (ties allowed)
    for (let i = 0; i + 1 < items.length; i++) {
      const a = items[i] as Record<string, unknown>;
      const b = items[i + 1] as Record<string, unknown>;
      const ta = Date.parse(typeof a.created_at === 'string' ? a.created_at : '');
      const tb = Date.parse(typeof b.created_at === 'string' ? b.created_at : '');
      if (Number.isFinite(ta) && Number.isFinite(tb) && ta < tb) {
        r.it.run.record(modelFinding({ requirements: ['PT-LIST-ORDER'], exchanges: ex, title: 'the list is not newest first', expected: 'each listed charge created no earlier than the next one', actual: `${String(a.id)} (created ${String(a.created_at)}) listed before ${String(b.id)} (created ${String(b.created_at)})` }));
        return;
      }
    }
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
    const res = await r.pt.cancelCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    if (c.status === 'pending') {
      if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-CHARGE-CANCEL-PENDING'] }))) return;
      abandonOn429(r, res);
      c.status = 'canceled';
      return;
    }
    // "Cancel from paid, expired or canceled answers 409."
    if (recordAll(r.it.run, expectStatus(res.exchange, 409, { requirements: ['PT-CHARGE-CANCEL-409', ...(c.status === 'paid' ? ['PT-STATE-PAID-TERMINAL'] : [])] }))) return;
    abandonOn429(r, res);
    r.it.run.record(verifyPartnerErrorShape(res.json, { requirements: ['PT-ERR-DETAIL-SHAPE'], exchanges: [res.exchange] }));
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
      const before = this.measure ? await readStatement(r) : undefined;
      const res = await r.pt.payCharge(c.id);
      if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['PT-CHARGE-PAY-CONFIRMS'] }))) return;
      abandonOn429(r, res);
      c.status = 'paid';
      const after = before ? await readStatement(r) : undefined;
      r.log.outcome(`HTTP ${res.status}${before && after ? `; ${verifyCapture(r, { charge: c, before, after, exchanges: [res.exchange] })}` : ''}`);
      return;
    }
    const res = await r.pt.payCharge(c.id);
    r.log.outcome(`HTTP ${res.status}`);
    if (!is2xx(res.status)) {
      recordAll(r.it.run, expectStatus(res.exchange, '4xx', { requirements: ['PT-STATE-ONE-TRANSITION'] }));
      abandonOn429(r, res);
      return;
    }
    // the status of this case is not shown: a 2xx is acceptable only if nothing changed
    const now = await verifyChargeState(r, c);
    if (now === c.status) r.it.run.record(modelFinding({ severity: 'warning', code: 'model.pay-not-pending-2xx', requirements: ['PT-STATE-ONE-TRANSITION'], exchanges: [res.exchange], title: `paying ${c.status} charge ${c.ref} answered ${res.status} (without effect)`, expected: 'a 4xx (409, state conflict) for a charge that is no longer pending', actual: `HTTP ${res.status}` }));
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
    const before = await readStatement(r);
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
    const after = await readStatement(r);
    const text = before && after ? verifyCapture(r, { charge: c, before, after, exchanges }) : '';
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
    const before = await readStatement(r);
    const result = await r.burst('partner', 2, (i) => (i === 0 ? r.pt.payCharge(c.id) : r.pt.cancelCharge(c.id)));
    const [pay, cancel] = result.outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
    const exchanges = result.values.map((x) => x.exchange);
    if (!pay || !cancel) throw new StopSequence('a burst request failed without response');
    r.log.outcome(`pay HTTP ${pay.status} ‖ cancel HTTP ${cancel.status}`);
    abandonOn429(r, pay, cancel);
    const payOk = is2xx(pay.status);
    const cancelOk = is2xx(cancel.status);
    if (!payOk && !cancelOk) {
      r.it.run.record(modelFinding({ requirements: ['PT-STATE-ONE-TRANSITION'], exchanges, title: `neither pay nor cancel of pending charge ${c.ref} succeeded`, expected: 'one of them applies (serial order pay→cancel or cancel→pay)', actual: `pay ${pay.status}, cancel ${cancel.status}` }));
      return;
    }
    // cancel 2xx means cancel ran first (cancel of a paid charge is 409): the charge must end canceled and uncaptured
    c.status = cancelOk ? 'canceled' : 'paid';
    if (!cancelOk) r.it.run.record(expectStatus(cancel.exchange, 409, { requirements: ['PT-CHARGE-CANCEL-409'] }));
    const now = await verifyChargeState(r, c);
    if (now !== c.status) return;
    const after = await readStatement(r);
    if (before && after) {
      const text = verifyCapture(r, { charge: c, before, after, exchanges, mustNotCapture: cancelOk });
      r.log.outcome(`pay HTTP ${pay.status} ‖ cancel HTTP ${cancel.status}; ${c.status}; ${text}`);
    }
    if (payOk && cancelOk && r.it.run.failures.length === 0) {
      r.it.run.record(modelFinding({ severity: 'warning', code: 'model.pay-not-pending-2xx', requirements: ['PT-STATE-ONE-TRANSITION'], exchanges, title: `pay ‖ cancel of ${c.ref}: both answered 2xx (the charge ended canceled, uncaptured)`, expected: 'the losing request answers 409 (state conflict)', actual: `pay ${pay.status}, cancel ${cancel.status}` }));
    }
  }

  toString(): string {
    return `payCharge‖cancelCharge(#${this.index})`;
  }
}
