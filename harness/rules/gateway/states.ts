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
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
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
