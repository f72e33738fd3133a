/**
 * The gateway command set for fc.commands: one arbitrary per command class, and the end-of-sequence
 * audit (every resource re-read and compared with the model; webhooks the sequence left are removed).
 */
import fc from 'fast-check';
import type { CardChargeRequest, PixChargeRequest, TransferRequest } from '../../../harness/http/gateway-client.js';
import { card, cardCustomer, pixCustomer, pixKey } from '../../../generators/index.js';
import type { GatewayModel, GatewayReal } from './model.js';
import { CreatePixCharge, GetPixCharge, PayPayConcurrently, PayPixCharge, chargeStateAnswer } from './charges.js';
import { CompleteCompleteConcurrently, CompleteOverdrawn, CompleteTransfer, ConflictTransfer, CreateTransfer, GetTransfer, ReplayTransfer, SameKeyConcurrently, transferStateAnswer } from './transfers.js';
import { sendThenJudge } from '../../../harness/run/model.js';
import { CreateCardCharge } from './cards.js';
import { GetBalance } from './balance.js';
import { CreateWebhook, DeleteWebhook } from './webhooks.js';
import { answerPixChargeLookup, ensureChargePaid, honourPixChargeRequest, refusePayOfPaidCharge, verifyCreatedPixCharge } from '../../../harness/rules/gateway/pix-charges.js';
import {
  answerTransferLookup,
  ensureCreatedTransferProcessing,
  ensureTransferCompleted,
  honourIdempotencyKey,
  honourTransferRequest,
  refuseCompletionOfCompleted,
  refuseKeyReuseWithOtherBody,
  refuseUncoveredCompletion,
} from '../../../harness/rules/gateway/pix-transfers.js';
import { applyTransitionsOnce } from '../../../harness/rules/gateway/atomicity.js';
import { echoCardBrandAndLast4, ensureSandboxCardOutcome, honourCardRequest } from '../../../harness/rules/gateway/card.js';
import { answerBalance } from '../../../harness/rules/gateway/balance.js';
import { answerWebhookCreation, removeWebhookOnDelete } from '../../../harness/rules/gateway/webhooks.js';

export * from './model.js';

type Cmd = fc.AsyncCommand<GatewayModel, GatewayReal>;

const index = fc.nat({ max: 7 });

/** A valid PIX charge body: amount ≥ 100, a customer with a valid document (digits only). */
const chargeBody: fc.Arbitrary<PixChargeRequest> = fc
  .record({ amountInCents: fc.integer({ min: 100, max: 5_000 }), customer: pixCustomer({ optionalFields: 'none' }) })
  .map((b) => ({ ...b, description: 'model-based fuzz' }));

/** A valid transfer body: amount ≥ 1 (small), one of the five undisputed key kinds. */
const transferBody: fc.Arbitrary<TransferRequest> = fc.record({ amount: fc.integer({ min: 1, max: 500 }), pixKey: pixKey().map((k) => k.value) });

const cardBody = (outcome: 'approved' | 'declined'): fc.Arbitrary<CardChargeRequest> =>
  fc.record({
    amountInCents: fc.integer({ min: 100, max: 5_000 }),
    currency: fc.constantFrom('USD' as const, 'EUR' as const),
    card: card({ outcome }),
    customer: cardCustomer(),
  });

/** The rules the commands and the audit hand their observations to. */
export const GATEWAY_MODEL_RULES = [
  honourPixChargeRequest,
  verifyCreatedPixCharge,
  ensureChargePaid,
  refusePayOfPaidCharge,
  answerPixChargeLookup,
  applyTransitionsOnce,
  honourTransferRequest,
  ensureCreatedTransferProcessing,
  honourIdempotencyKey,
  refuseKeyReuseWithOtherBody,
  ensureTransferCompleted,
  refuseCompletionOfCompleted,
  refuseUncoveredCompletion,
  answerTransferLookup,
  honourCardRequest,
  ensureSandboxCardOutcome,
  echoCardBrandAndLast4,
  answerBalance,
  answerWebhookCreation,
  removeWebhookOnDelete,
] as const;

export function gatewayCommands(): fc.Arbitrary<Cmd>[] {
  // creations (and pay) appear twice: most commands need a resource, so they would otherwise be skipped often
  return [
    chargeBody.map((b): Cmd => new CreatePixCharge(b)),
    chargeBody.map((b): Cmd => new CreatePixCharge(b)),
    transferBody.map((b): Cmd => new CreateTransfer(b)),
    index.map((i): Cmd => new GetPixCharge(i)),
    fc.tuple(index, fc.boolean()).map(([i, measure]): Cmd => new PayPixCharge(i, measure)),
    fc.tuple(index, fc.boolean()).map(([i, measure]): Cmd => new PayPayConcurrently(i, measure)),
    fc.tuple(index, fc.boolean()).map(([i, measure]): Cmd => new PayPixCharge(i, measure)),
    transferBody.map((b): Cmd => new CreateTransfer(b)),
    index.map((i): Cmd => new ReplayTransfer(i)),
    index.map((i): Cmd => new ConflictTransfer(i)),
    transferBody.map((b): Cmd => new SameKeyConcurrently(b)),
    index.map((i): Cmd => new CompleteTransfer(i)),
    index.map((i): Cmd => new CompleteCompleteConcurrently(i)),
    index.map((i): Cmd => new GetTransfer(i)),
    fc.constant<Cmd>(new CompleteOverdrawn()),
    fc.tuple(fc.oneof(cardBody('approved'), cardBody('declined')), fc.boolean()).map(([b, measure]): Cmd => new CreateCardCharge(b, measure)),
    fc.constant<Cmd>(new GetBalance()),
    fc.subarray(['transaction_paid', 'transfer_completed', 'transaction_created'], { minLength: 1 }).map((e): Cmd => new CreateWebhook(e)),
    index.map((i): Cmd => new DeleteWebhook(i)),
  ];
}

/** After the last command: every charge and transfer is in the state the model says; leftover webhooks are removed. */
export async function auditGateway(m: GatewayModel, r: GatewayReal): Promise<void> {
  // independent lookups of distinct resources: sent together in the concurrent phase, judged in
  // order (charges, then transfers), stopping at the first failure as one at a time
  const before = r.it.run.failures.length;
  const resources = [...m.charges.map((c) => ({ c })), ...m.transfers.map((t) => ({ t }))];
  await sendThenJudge(r.it, resources, (x) => ('c' in x ? r.gw.getPixCharge(x.c.id) : r.gw.getTransfer(x.t.id)), (x, res) => {
    if ('c' in x) chargeStateAnswer(r, x.c, res);
    else transferStateAnswer(r, x.t, res);
    return r.it.run.failures.length === before;
  });
  if (r.it.run.failures.length > before) return;
  // cleanup of the webhooks this sequence left (distinct ids): together in the concurrent phase
  await r.it.all(m.webhooks.filter((w) => !w.deleted), (w) => r.gw.deleteWebhook(w.id));
  r.log.outcome(`${m.charges.length} charge(s), ${m.transfers.length} transfer(s) as modelled`);
}
