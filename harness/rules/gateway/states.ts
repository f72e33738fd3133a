/**
 * States and transitions, as the model-based fuzzer (suites/gateway/model/) observes them
 * (gateway-api.md "States and transitions", the PIX charge, PIX transfer and card charge routes).
 *
 * PIX charge: "(creation) → pending"; "pending → paid: POST …/pay (sandbox), charge is pending";
 * "/pay: 200 … data{id, status, endToEndId} with status paid; 400 charge no longer pending".
 * PIX transfer: "(creation, sandbox; no manual review) → banking_processing"; "banking_processing →
 * completed: POST …/complete (sandbox), not already completed or canceled; sandbox balance covers the
 * amount"; "/complete: 200 … with status completed; 400 already completed or canceled".
 * Card: "(creation, sandbox) any card.token without the text decline → paid; containing decline →
 * refused; synchronous response".
 *
 * Pure: each rule takes the parsed answer (and what the sequence sent or modelled) and decides.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../finding.js';
import { combine, judge, kindOf, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { ensureErrorShapeIdempotencyConflict } from '../errors.js';
import { dataOf, is2xx, isRecord } from '../../core/json.js';

export type Observed = Omit<RuleContext, 'requirements'>;

export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

function withExchange(at: Observed, requirements: readonly RequirementId[], exchange: Exchange): RuleContext {
  return { ...at, requirements, exchanges: [...(at.exchanges ?? []), exchange] };
}

/**
 * A 2xx creation of a PIX charge: "data (PIX charge)" with a usable `id` (GW-PIXIN-RESP-ID) and
 * "(creation) → pending" (GW-PIXIN-CREATE-PENDING). Failures otherwise.
 */
export function verifyChargeCreatedPending(answer: Answer, at: Observed = {}): Judgement {
  const ctx = withExchange(at, ['GW-PIXIN-RESP-ID', 'GW-PIXIN-CREATE-PENDING'], answer.exchange);
  const data = dataOf(answer.json);
  const findings: Finding[] = [];
  if (typeof data?.id !== 'string' || data.id === '') {
    findings.push(makeFinding(ctx, { code: 'pixin.lookup-id', requirements: ['GW-PIXIN-RESP-ID'], title: 'a created PIX charge has no usable id', severity: 'failure', expected: 'data.id, a non-empty string', actual: `${kindOf(data?.id)} ${show(data?.id)}` }));
  }
  if (data?.status !== 'pending') {
    findings.push(makeFinding(ctx, { code: 'charge.not-pending', requirements: ['GW-PIXIN-CREATE-PENDING'], title: 'a new PIX charge is not pending', severity: 'failure', expected: 'data.status "pending"', actual: `data.status ${show(data?.status)}` }));
  }
  return judge(ctx, findings);
}

/**
 * The 2xx answer of a confirmation: "/pay … data{id, status, endToEndId} with status `paid`";
 * "/complete … with status `completed`". Another status: failure.
 */
export function ensureConfirmedStatus(kind: 'pay' | 'complete', answer: Answer, at: Observed = {}): Judgement {
  const want = kind === 'pay' ? 'paid' : 'completed';
  const ctx = withExchange(at, [kind === 'pay' ? 'GW-PIXIN-PAY-PAID' : 'GW-PIXOUT-COMPLETE-COMPLETED'], answer.exchange);
  const status = dataOf(answer.json)?.status;
  if (status === want) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: kind === 'pay' ? 'pixin.status' : 'pixout.complete-status', title: `the successful ${kind === 'pay' ? '/pay' : '/complete'} did not answer status ${want}`, severity: 'failure', expected: `data.status "${want}"`, actual: `data.status ${show(status)}` }));
}

/**
 * Confirming again what is already confirmed: "/pay: 400 charge no longer pending"; "/complete: 400
 * already completed or canceled". A 2xx: FAILURE `state.confirmed-again` (the transition applied
 * twice, GW-ATOMIC-TRANSITIONS); any other status is the status rule's (400 expected; 429 warns).
 */
export function ensureRepeatedConfirmationRefused(kind: 'pay' | 'complete', answer: Answer, at: Observed = {}): Judgement {
  const req: RequirementId = kind === 'pay' ? 'GW-PIXIN-PAY-NOT-PENDING-400' : 'GW-PIXOUT-COMPLETE-TWICE-400';
  const ctx = withExchange(at, [req, 'GW-ATOMIC-TRANSITIONS'], answer.exchange);
  if (!is2xx(answer.status)) return expectStatus(answer.exchange, 400, ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'state.confirmed-again',
      title: `${kind === 'pay' ? 'paying an already paid charge' : 'completing an already completed transfer'} answered ${answer.status}`,
      severity: 'failure',
      expected: `HTTP 400 (${kind === 'pay' ? 'charge no longer pending' : 'already completed or canceled'})`,
      actual: `HTTP ${answer.status} ${show(answer.exchange.response?.body ?? '', 200)}`,
    }),
  );
}

/**
 * A resource re-read by GET is in the state the sequence's own transitions left it in ("GET … the
 * current status"; no other trigger moves a sandbox charge or transfer: "PIX payments never confirm
 * by themselves"). Another status: FAILURE `model.state`. A transfer also keeps the amount it was
 * created with (GW-PIXOUT-RESP-FIELDS).
 */
export function ensureStateAsModelled(kind: 'charge' | 'transfer', answer: Answer, modelled: { status: string; amount?: number }, at: Observed = {}): Judgement {
  const requirements: RequirementId[] = kind === 'charge' ? ['GW-PIXIN-GET-CURRENT-STATUS', 'GW-ATOMIC-TRANSITIONS'] : ['GW-PIXOUT-GET-200', 'GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-COMPLETE-COMPLETED'];
  const ctx = withExchange(at, requirements, answer.exchange);
  const data = dataOf(answer.json);
  const findings: Finding[] = [];
  if (data?.status !== modelled.status) {
    findings.push(
      makeFinding(ctx, {
        code: 'model.state',
        title: `the ${kind} is ${show(data?.status)}, but this sequence left it ${modelled.status}`,
        severity: 'failure',
        expected: `data.status "${modelled.status}" (the only state the contract's transitions allow after this sequence)`,
        actual: `data.status ${show(data?.status)}`,
      }),
    );
  }
  if (modelled.amount !== undefined && data?.amount !== modelled.amount) {
    findings.push(makeFinding(ctx, { code: 'pixout.amount-echo', requirements: ['GW-PIXOUT-RESP-FIELDS'], title: `the ${kind} changed its amount`, severity: 'failure', expected: `data.amount ${modelled.amount}`, actual: `data.amount ${show(data?.amount)}` }));
  }
  return judge(ctx, findings);
}

/** The creation states a sandbox transfer may have; `pending` only under manual review. */
export type CreatedTransferState = 'banking_processing' | 'completed' | 'pending';

/**
 * A 2xx creation of a sandbox transfer: "200: … data (PIX transfer: id, status, amount, netAmount,
 * fees, pixKey)"; "(creation, sandbox; no manual review) → banking_processing".
 * - no usable id, or an amount other than the one sent: failure (GW-PIXOUT-RESP-FIELDS);
 * - `banking_processing` conforms; `completed` is accepted (a sandbox that settles at once);
 * - `pending` conforms: the row's condition "no manual review" admits transfers held for review
 *   (issue 14); the caller notes it and does not expect /complete to succeed;
 * - any other status: failure (GW-PIXOUT-CREATE-BANKING-PROCESSING).
 */
export function verifyTransferCreated(answer: Answer, sentAmount: number, at: Observed = {}): Judgement {
  const ctx = withExchange(at, ['GW-PIXOUT-RESP-FIELDS', 'GW-PIXOUT-CREATE-BANKING-PROCESSING'], answer.exchange);
  const data = dataOf(answer.json);
  const findings: Finding[] = [];
  if (typeof data?.id !== 'string' || data.id === '') {
    findings.push(makeFinding(ctx, { code: 'pixout.status-at-creation', requirements: ['GW-PIXOUT-RESP-FIELDS'], title: 'a created transfer has no usable id', severity: 'failure', expected: 'data.id, a non-empty string', actual: `${kindOf(data?.id)} ${show(data?.id)}` }));
  }
  if (data?.amount !== sentAmount) {
    findings.push(makeFinding(ctx, { code: 'pixout.amount-echo', requirements: ['GW-PIXOUT-RESP-FIELDS'], title: 'a created transfer does not carry the amount sent', severity: 'failure', expected: `data.amount ${sentAmount}`, actual: `data.amount ${show(data?.amount)}` }));
  }
  const status = data?.status;
  if (status !== 'banking_processing' && status !== 'completed' && status !== 'pending') {
    findings.push(makeFinding(ctx, { code: 'pixout.status-at-creation', requirements: ['GW-PIXOUT-CREATE-BANKING-PROCESSING'], title: 'a new sandbox transfer is not banking_processing', severity: 'failure', expected: 'data.status "banking_processing" (or "pending" under manual review)', actual: `data.status ${show(status)}` }));
  }
  return judge(ctx, findings);
}

/** The model state of a transfer just created (see {@link verifyTransferCreated}); undefined when unusable. */
export function createdTransferState(answer: Answer): { id: string; status: CreatedTransferState } | undefined {
  const data = dataOf(answer.json);
  const id = data?.id;
  const status = data?.status;
  if (typeof id !== 'string' || id === '') return undefined;
  if (status === 'banking_processing' || status === 'completed' || status === 'pending') return { id, status };
  return undefined;
}

/**
 * "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)." A 2xx: FAILURE
 * `idempotency.replay-differs` (and a new id also breaks "never duplicates"); otherwise 409 with the
 * `{error: IDEMPOTENCY_CONFLICT, message}` shape.
 */
export function judgeKeyReuseWithOtherBody(answer: Answer, originalId: string, at: Observed = {}): Judgement {
  const ctx = withExchange(at, ['GW-PIXOUT-IDEM-CONFLICT-409'], answer.exchange);
  if (!is2xx(answer.status)) {
    const status = expectStatus(answer.exchange, 409, ctx);
    if (answer.status !== 409) return status;
    return combine(status, ensureErrorShapeIdempotencyConflict(answer.json, ctx));
  }
  const id = dataOf(answer.json)?.id;
  const duplicated = id !== originalId;
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'idempotency.replay-differs',
      requirements: duplicated ? ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-PIXOUT-IDEM-NO-DUPLICATE'] : ['GW-PIXOUT-IDEM-CONFLICT-409'],
      title: `a used key with a different body answered ${answer.status}`,
      severity: 'failure',
      expected: 'HTTP 409 {error: "IDEMPOTENCY_CONFLICT", message}',
      actual: `HTTP ${answer.status}, data.id ${show(id)}${duplicated ? ' (a new transfer under a used key)' : ' (the original replayed)'}`,
    }),
  );
}

/**
 * Completing a transfer the balance cannot cover: "sandbox balance covers the amount" is the condition
 * of banking_processing → completed. A 2xx: FAILURE `pixout.completed-without-balance`; any 4xx
 * conforms (the refusal's code is not stated).
 */
export function ensureUncoveredCompletionRefused(answer: Answer, facts: { amount: number; balance: number }, at: Observed = {}): Judgement {
  const ctx = withExchange(at, ['GW-PIXOUT-COMPLETE-BALANCE'], answer.exchange);
  if (!is2xx(answer.status)) return expectStatus(answer.exchange, '4xx', ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'pixout.completed-without-balance',
      title: `a transfer of ${facts.amount} cents completed although the balance was ${facts.balance} cents`,
      severity: 'failure',
      expected: 'a 4xx: "sandbox balance covers the amount" is the condition of completion',
      actual: `HTTP ${answer.status}`,
    }),
  );
}

/**
 * A sandbox card charge (POST /api/v1/card): "Response: success, data (Card charge); the sample
 * success status code is 201. Usually synchronous (approved or refused). On a 3DS/SCA challenge the
 * response carries requiresAction and clientSecret." "Sandbox: any token is approved (paid); a token
 * containing decline is refused (refused)." "card.brand and card.last4 … echoed".
 * - any 2xx conforms (201 is only the sample; a refusal may come with any 2xx);
 * - status `paid` / `refused` by the token rule; `pending` with `requiresAction` conforms (a challenge,
 *   the caller notes it); another status: failure;
 * - brand or last4 not echoed exactly: failure (GW-CARD-ECHO-BRAND-LAST4).
 */
export function verifySandboxCardOutcome(answer: Answer, sent: { token: string; brand: string; last4: string }, at: Observed = {}): Judgement {
  const declined = sent.token.includes('decline');
  const want = declined ? 'refused' : 'paid';
  const ctx = withExchange(at, [declined ? 'GW-CARD-SANDBOX-DECLINE' : 'GW-CARD-SANDBOX-APPROVE', 'GW-CARD-ECHO-BRAND-LAST4'], answer.exchange);
  const status = expectStatus(answer.exchange, '2xx', { ...ctx, requirements: ['GW-CARD-SUCCESS-STATUS', 'GW-CARD-SYNC'] });
  if (!is2xx(answer.status)) return status;
  const data = dataOf(answer.json);
  const findings: Finding[] = [];
  const challenged = data?.status === 'pending' && (data.requiresAction !== undefined || (isRecord(answer.json) && answer.json.requiresAction !== undefined));
  if (data?.status !== want && !challenged) {
    findings.push(makeFinding(ctx, { code: 'card.status', requirements: [declined ? 'GW-CARD-SANDBOX-DECLINE' : 'GW-CARD-SANDBOX-APPROVE'], title: `a sandbox card charge with a token ${declined ? 'containing' : 'without'} "decline" is not ${want}`, severity: 'failure', expected: `data.status "${want}"`, actual: `data.status ${show(data?.status)}` }));
  }
  if (!challenged) {
    const card = isRecord(data?.card) ? data.card : {};
    if (card.brand !== sent.brand || card.last4 !== sent.last4) {
      findings.push(makeFinding(ctx, { code: 'card.echo', requirements: ['GW-CARD-ECHO-BRAND-LAST4'], title: 'card.brand / card.last4 are not echoed exactly as sent', severity: 'failure', expected: `brand ${show(sent.brand)}, last4 ${show(sent.last4)}`, actual: `brand ${show(card.brand)}, last4 ${show(card.last4)}` }));
    }
  }
  return combine(status, judge(ctx, findings));
}
