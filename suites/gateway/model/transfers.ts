/**
 * PIX transfer commands: create (fresh x-idempotency-key), replay (same key, same body), conflict
 * (same key, other body), same-key‖same-key, complete, complete‖complete, get.
 *
 * Contract (gateway-api.md, "POST /api/v1/pix/out/pixkey"): "Resending with the same key and body
 * returns the original response and never duplicates the transfer. The same key with a different body
 * gives 409 (IDEMPOTENCY_CONFLICT)." States: "(creation, sandbox) → banking_processing";
 * "banking_processing → completed … not already completed or canceled; sandbox balance covers the
 * amount"; "/complete: 400 already completed or canceled". "Transitions are atomic".
 *
 * Balance: /complete is funded first (the sequence pays a charge of twice the amount plus a margin)
 * so a correct target normally completes; because other files share the balance, a 400 on a
 * banking_processing transfer is still accepted (the balance may not cover it) and the transfer
 * stays banking_processing in the model.
 */
import { randomUUID } from 'node:crypto';
import {
  answerTransferLookup,
  createdTransferState,
  ensureCreatedTransferProcessing,
  ensureTransferCompleted,
  honourIdempotencyKey,
  honourTransferRequest,
  refuseCompletionOfCompleted,
  refuseKeyReuseWithOtherBody,
  refuseUncoveredCompletion,
} from '../../../harness/rules/gateway/pix-transfers.js';
import { applyTransitionsOnce } from '../../../harness/rules/gateway/atomicity.js';
import type { ApiResponse, TransferRequest } from '../../../harness/http/gateway-client.js';
import { MONEY_ONLY, ModelCommand, StopSequence, abandonOn429, burstStatuses, judgeFails, shortId } from '../../../harness/run/model.js';
import { dataOf, is2xx } from '../../../harness/core/json.js';
import { readPixBalance } from './balance.js';
import { createPaidCharge } from './charges.js';
import { OnTransfer } from './model.js';
import type { GatewayModel, GatewayReal, ModelTransfer, TransferState } from './model.js';

/** Records a transfer the target created in the model (`t1`, `t2`, … in creation order). */
function addTransfer(m: GatewayModel, created: { id: string; status: TransferState }, key: string, body: TransferRequest, overdrawnBalance?: number): ModelTransfer {
  const t: ModelTransfer = { ref: `t${m.transfers.length + 1}`, id: created.id, key, body, status: created.status, ...(overdrawnBalance !== undefined && { overdrawn: true, overdrawnBalance }) };
  m.transfers.push(t);
  return t;
}

/**
 * Hands a creation answer to the creation rules; returns the transfer id and state, or undefined
 * when a rule found a failure (a 429 abandons the sequence). A transfer created `pending` (manual
 * review, allowed by "no manual review → banking_processing") is kept, noted, and never expected to
 * complete.
 */
function createdTransfer(r: GatewayReal, res: ApiResponse, body: TransferRequest): { id: string; status: TransferState } | undefined {
  if (judgeFails(r.it.run, honourTransferRequest, { case: 'valid', body, answer: res })) return undefined;
  abandonOn429(r, res);
  if (judgeFails(r.it.run, ensureCreatedTransferProcessing, res)) return undefined;
  const created = createdTransferState(res);
  if (created?.status === 'pending') r.it.run.note('a sandbox transfer was created pending (held for manual review?)');
  return created;
}

export class CreateTransfer extends ModelCommand<GatewayModel, GatewayReal> {
  constructor(readonly body: TransferRequest) {
    super();
  }

  check(m: Readonly<GatewayModel>): boolean {
    return m.transfers.length < 6;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const key = randomUUID();
    const res = await r.gw.createTransfer(this.body, { idempotencyKey: key });
    const created = createdTransfer(r, res, this.body);
    if (!created) return;
    const t = addTransfer(m, created, key, this.body);
    r.log.describe(`create transfer ${t.ref} of ${this.body.amount} cents to ${this.body.pixKey} (x-idempotency-key ${shortId(key)})`);
    r.log.outcome(`${t.status}, id ${shortId(t.id)}`);
  }

  toString(): string {
    return `createTransfer(${this.body.amount}, ${this.body.pixKey})`;
  }
}

export class ReplayTransfer extends OnTransfer {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelTransfer[] {
    return m.transfers;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const t = this.target(m);
    r.log.describe(`resend transfer ${t.ref} with the same x-idempotency-key and body`);
    const res = await r.gw.createTransfer(t.body, { idempotencyKey: t.key });
    const id = dataOf(res.json)?.id;
    r.log.outcome(`HTTP ${res.status}, id ${typeof id === 'string' ? shortId(id) : JSON.stringify(id)}`);
    if (judgeFails(r.it.run, honourIdempotencyKey, { case: 'replay', original: { id: t.id }, replay: res })) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `replayTransfer(#${this.index})`;
  }
}

export class ConflictTransfer extends OnTransfer {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelTransfer[] {
    return m.transfers;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const t = this.target(m);
    const other: TransferRequest = { ...t.body, amount: t.body.amount + 1 };
    r.log.describe(`reuse the x-idempotency-key of ${t.ref} with a different body (amount ${other.amount})`);
    const res = await r.gw.createTransfer(other, { idempotencyKey: t.key });
    r.log.outcome(`HTTP ${res.status}`);
    if (judgeFails(r.it.run, refuseKeyReuseWithOtherBody, { answer: res, originalId: t.id, what: `another amount (${other.amount}, the key of ${t.ref})` })) return;
    abandonOn429(r, res);
  }

  toString(): string {
    return `conflictTransfer(#${this.index})`;
  }
}

/** Two simultaneous first uses of one key with one body: one transfer, both answers carry its id. */
export class SameKeyConcurrently extends ModelCommand<GatewayModel, GatewayReal> {
  constructor(readonly body: TransferRequest) {
    super();
  }

  check(m: Readonly<GatewayModel>): boolean {
    return m.transfers.length < 6;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const key = randomUUID();
    r.log.describe(`create a transfer of ${this.body.amount} cents twice at the same instant with one x-idempotency-key ${shortId(key)}`);
    const result = await r.burst('gateway', 2, () => r.gw.createTransfer(this.body, { idempotencyKey: key }), MONEY_ONLY);
    const statuses = burstStatuses(result);
    r.log.outcome(`HTTP ${statuses.join(' ‖ ')}`);
    // one transfer among the 2xx; an in-flight 409 warns; another "in progress" 4xx is accepted
    if (judgeFails(r.it.run, honourIdempotencyKey, { case: 'burst', body: this.body, answers: result.values })) return;
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    const first = result.values.find((x) => is2xx(x.status));
    if (!first) return;
    for (const x of result.values) if (!is2xx(x.status)) r.it.run.note(`same-key burst: the concurrent duplicate answered ${x.status} (the contract only fixes replay and 409 for a different body)`);
    const created = createdTransfer(r, first, this.body);
    if (!created) return;
    const t = addTransfer(m, created, key, this.body);
    r.log.outcome(`HTTP ${statuses.join(' ‖ ')}: one transfer ${t.ref}`);
  }

  toString(): string {
    return `createTransfer‖createTransfer(${this.body.amount}, same key)`;
  }
}

/** Funds the sandbox balance for `t` (twice its amount plus a margin) by creating and paying a charge. */
async function fund(m: GatewayModel, r: GatewayReal, t: ModelTransfer): Promise<boolean> {
  return (await createPaidCharge(m, r, 2 * t.body.amount + 200)) !== undefined;
}

export class CompleteTransfer extends OnTransfer {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelTransfer[] {
    return m.transfers;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const t = this.target(m);
    r.log.describe(`complete transfer ${t.ref} (model: ${t.status})`);
    if (t.status === 'completed') {
      const res = await r.gw.completeTransfer(t.id);
      r.log.outcome(`HTTP ${res.status}`);
      if (judgeFails(r.it.run, refuseCompletionOfCompleted, res)) return;
      abandonOn429(r, res);
      return;
    }
    if (t.overdrawn) {
      // far above any balance: completion must fail ("sandbox balance covers the amount")
      const res = await r.gw.completeTransfer(t.id);
      r.log.outcome(`unfunded; HTTP ${res.status}`);
      if (judgeFails(r.it.run, refuseUncoveredCompletion, { case: 'answer', answer: res, amount: t.body.amount, balance: t.overdrawnBalance ?? 0 })) {
        if (is2xx(res.status)) t.status = 'completed';
        return;
      }
      abandonOn429(r, res);
      if (!is2xx(res.status) && res.status !== 429) t.refusable = true;
      return;
    }
    if (!(await fund(m, r, t))) return;
    const res = await r.gw.completeTransfer(t.id);
    r.log.outcome(`funded; HTTP ${res.status}`);
    // 400: the shared sandbox balance may not cover the amount at this instant (other files): allowed
    if (judgeFails(r.it.run, ensureTransferCompleted, { case: 'answer', answer: res, funding: t.status === 'pending' ? 'pending' : 'shared' })) return;
    abandonOn429(r, res);
    if (is2xx(res.status)) t.status = 'completed';
    else r.it.run.note(`complete of ${t.status} transfer answered ${res.status} (balance may not cover it: shared sandbox)`);
  }

  toString(): string {
    return `completeTransfer(#${this.index})`;
  }
}

/** Two simultaneous /complete of one banking_processing transfer: at most one succeeds, the other answers 400. */
export class CompleteCompleteConcurrently extends OnTransfer {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelTransfer[] {
    return m.transfers.filter((x) => x.status === 'banking_processing' && !x.overdrawn);
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const t = this.target(m);
    r.log.describe(`complete transfer ${t.ref} twice at the same instant (complete ‖ complete)`);
    if (!(await fund(m, r, t))) return;
    const result = await r.burst('gateway', 2, () => r.gw.completeTransfer(t.id), MONEY_ONLY);
    const statuses = burstStatuses(result);
    r.log.outcome(`funded; HTTP ${statuses.join(' ‖ ')}`);
    // at most one 2xx; the other 400 ("already completed"). Both 400 is possible: the shared sandbox
    // balance may not cover the transfer at this instant (other checks), so none succeeding is allowed
    if (judgeFails(r.it.run, applyTransitionsOnce, { case: 'burst', confirmation: 'complete', answers: result.values, mayAllFail: true })) return;
    if (statuses.includes(429)) throw new StopSequence('rate limited during a burst');
    const winner = result.values.find((x) => is2xx(x.status));
    if (!winner) return;
    if (!judgeFails(r.it.run, ensureTransferCompleted, { case: 'answer', answer: winner, funding: 'shared' })) t.status = 'completed';
  }

  toString(): string {
    return `completeTransfer‖completeTransfer(#${this.index})`;
  }
}

export class GetTransfer extends OnTransfer {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelTransfer[] {
    return m.transfers;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const t = this.target(m);
    r.log.describe(`get transfer ${t.ref} (model: ${t.status})`);
    await verifyTransferState(r, t);
  }

  toString(): string {
    return `getTransfer(#${this.index})`;
  }
}

/** GET the transfer and compare its status with the model. */
export async function verifyTransferState(r: GatewayReal, t: ModelTransfer): Promise<void> {
  transferStateAnswer(r, t, await r.gw.getTransfer(t.id));
}

/** Judges a GET of the transfer against the model. */
export function transferStateAnswer(r: GatewayReal, t: ModelTransfer, res: ApiResponse): void {
  const seen = dataOf(res.json)?.status;
  r.log.outcome(`status ${JSON.stringify(seen)}`);
  if (t.refusable === true && t.status === 'banking_processing' && seen === 'refused' && res.status === 200) {
    // the refused unfunded completion also refused the transfer: the states list `refused` and no
    // sentence says which transitions lead there, so both readings are the target's choice
    r.it.run.note(`transfer ${t.ref} is refused after its unfunded completion was refused (transitions to refused are not shown): accepted`);
    t.status = 'refused';
  }
  if (judgeFails(r.it.run, answerTransferLookup, { answer: res, expected: { status: t.status, amount: t.body.amount, why: `(transfer ${t.ref}: this sequence left it ${t.status})` } })) return;
  abandonOn429(r, res);
}

/**
 * A transfer far above the balance, completed without funding: "sandbox balance covers the amount"
 * is the condition of banking_processing → completed, so any 4xx passes and a 2xx fails
 * ("sandbox balance covers the amount"). The amount is the balance just read plus R$ 10 million: no concurrent
 * file of a conformance run credits that much in between. A target that refuses so large a transfer at
 * creation (maximum amounts: not shown) is not judged.
 */
export class CompleteOverdrawn extends ModelCommand<GatewayModel, GatewayReal> {
  check(m: Readonly<GatewayModel>): boolean {
    return m.transfers.length < 6;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const b0 = await readPixBalance(r);
    if (b0.cents === undefined) return;
    const body: TransferRequest = { amount: Math.max(0, b0.cents) + 1_000_000_000, pixKey: 'payee@example.com' };
    r.log.describe(`create a transfer of ${body.amount} cents (balance ${b0.cents} + R$ 10 million) and complete it unfunded`);
    const key = randomUUID();
    const res = await r.gw.createTransfer(body, { idempotencyKey: key });
    abandonOn429(r, res);
    if (!is2xx(res.status)) {
      // maximum amounts are not shown: a refusal is the target's right
      r.it.run.judge(honourTransferRequest, { case: 'open', row: 'amount', what: `an amount of ${body.amount} cents (maximum amounts: not shown)`, answer: res });
      r.log.outcome(`creation refused (HTTP ${res.status}): not judged`);
      return;
    }
    const made = createdTransfer(r, res, body);
    if (!made) return;
    const t = addTransfer(m, made, key, body, b0.cents);
    if (t.status !== 'banking_processing') {
      r.log.outcome(`${t.ref} created ${t.status}: not completed (only banking_processing → completed is judged)`);
      return;
    }
    const done = await r.gw.completeTransfer(t.id);
    r.log.outcome(`${t.ref} created; complete HTTP ${done.status}`);
    if (judgeFails(r.it.run, refuseUncoveredCompletion, { case: 'answer', answer: done, amount: body.amount, balance: b0.cents, exchanges: [b0.exchange, res.exchange] })) {
      if (is2xx(done.status)) t.status = 'completed';
      return;
    }
    abandonOn429(r, done);
    if (!is2xx(done.status) && done.status !== 429) t.refusable = true;
  }

  toString(): string {
    return 'completeOverdrawnTransfer()';
  }
}
