/**
 * Atomicity and idempotency under concurrency (gateway-api.md "States and transitions":
 * "Transitions are atomic: concurrent confirmations of the same resource never apply the effect
 * twice."; "POST /api/v1/pix/out/pixkey": "Resending with the same key and body returns the original
 * response and never duplicates the transfer. The same key with a different body gives 409").
 *
 * The suites fire bursts of identical requests (harness/http/burst.ts) and hand the answers (and the
 * event occurrences they saw) to these rules. The balance is NOT judged here: the sandbox balance is
 * account-wide and other checks move it at the same time (issue 14), so a balance delta across a
 * burst is an observation only; statuses and events decide.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { dataOf, is2xx } from '../../core/json.js';

export type Observed = Omit<RuleContext, 'requirements'>;

/** One answer of a burst (an ApiResponse of harness/http). */
export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

/** Which confirmation a burst raced. */
export type Confirmation = 'pay' | 'complete';

const CONFIRMATION = {
  pay: {
    what: '/pay of one pending charge',
    loser: 'charge no longer pending',
    success: 'paid',
    loserReq: 'GW-PIXIN-PAY-NOT-PENDING-400',
    noneReq: 'GW-PIXIN-PAY-PAID',
  },
  complete: {
    what: '/complete of one banking_processing transfer',
    loser: 'already completed or canceled',
    success: 'completed',
    loserReq: 'GW-PIXOUT-COMPLETE-TWICE-400',
    noneReq: 'GW-PIXOUT-COMPLETE-COMPLETED',
  },
} as const satisfies Record<Confirmation, { what: string; loser: string; success: string; loserReq: RequirementId; noneReq: RequirementId }>;

/**
 * A burst of identical confirmations of ONE resource that was in the source state before the burst
 * (the caller sees that state first: a transfer held `pending` for manual review is not a
 * banking_processing transfer and is not judged, issue 14):
 * - more than one 2xx: FAILURE `atomicity.confirmed-twice` ("never apply the effect twice");
 * - no 2xx although not every answer was a 429: FAILURE `atomicity.none-confirmed` (a funded,
 *   pending resource is confirmed by one of them), unless `mayAllFail` (the caller could not
 *   guarantee the precondition, e.g. the shared balance may not cover a transfer);
 * - a loser answering 400 (the documented "no longer in the source state") or 429: conforms;
 *   another 4xx: WARNING `atomicity.loser-status` (the text does not say what a request racing an
 *   in-flight confirmation gets); a 5xx or no answer: failure (status rule).
 */
export function judgeConcurrentConfirmations(kind: Confirmation, answers: readonly Answer[], at: Observed = {}, options: { mayAllFail?: boolean } = {}): Judgement {
  const c = CONFIRMATION[kind];
  const ctx: RuleContext = { ...at, requirements: ['GW-ATOMIC-TRANSITIONS', c.loserReq] };
  const winners = answers.filter((a) => is2xx(a.status));
  const losers = answers.filter((a) => !is2xx(a.status));
  const parts: Judgement[] = [];
  const findings: Finding[] = [];
  for (const r of losers) {
    if (r.status >= 400 && r.status <= 499 && r.status !== 400 && r.status !== 429) {
      findings.push(
        makeFinding(ctx, {
          code: 'atomicity.loser-status',
          exchanges: [r.exchange],
          title: `a concurrent duplicate ${c.what.split(' ')[0]} answered ${r.status}`,
          severity: 'warning',
          expected: `HTTP 400 (${c.loser})`,
          actual: `HTTP ${r.status} ${show(r.json, 120)}`,
        }),
      );
    } else {
      parts.push(expectStatus(r.exchange, [400, 429], ctx));
    }
  }
  if (winners.length > 1) {
    findings.push(
      makeFinding(ctx, {
        code: 'atomicity.confirmed-twice',
        exchanges: winners.map((r) => r.exchange),
        title: `${winners.length} concurrent ${c.what} succeeded`,
        severity: 'failure',
        expected: `exactly one 2xx; the others 400 (${c.loser})`,
        actual: `${winners.length} × 2xx (${answers.map((a) => a.status).join(', ')})`,
      }),
    );
  }
  if (winners.length === 0 && !options.mayAllFail && !answers.every((r) => r.status === 429)) {
    findings.push(
      makeFinding(ctx, {
        code: 'atomicity.none-confirmed',
        requirements: [c.noneReq],
        exchanges: answers.map((r) => r.exchange),
        title: `none of the concurrent ${c.what} succeeded`,
        severity: 'failure',
        expected: `exactly one 2xx with status ${c.success}`,
        actual: answers.map((r) => r.status).join(', '),
      }),
    );
  }
  return combine(judge(ctx, findings), ...parts);
}

/**
 * "never apply the effect twice", seen through the events: the distinct occurrences (by endToEndId,
 * else event id: "processing is idempotent by event id or `endToEndId`") of one event for one
 * resource at one destination. More than one: FAILURE `atomicity.event-twice`. Duplicate deliveries
 * of one occurrence are allowed ("The same event id can arrive more than once") and not passed here.
 */
export function ensureEventOccursOnce(occurrences: readonly string[], what: { event: string; kind: string; label: string; eventRequirement: RequirementId }, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-ATOMIC-TRANSITIONS', what.eventRequirement] };
  if (occurrences.length <= 1) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'atomicity.event-twice',
      title: `${what.event} fired ${occurrences.length} times for one ${what.kind}`,
      severity: 'failure',
      expected: `one ${what.event} occurrence (distinct endToEndId / event id) at the ${what.label}`,
      actual: `${occurrences.length} occurrences: ${occurrences.join(', ')}`,
    }),
  );
}

/**
 * N simultaneous FIRST uses of one `x-idempotency-key` with one body. "Resending with the same key
 * and body returns the original response and never duplicates the transfer"; "The same key with a
 * different body gives 409". The text says nothing about a duplicate arriving while the first is still
 * in flight (there is no original response yet):
 * - two different transfer ids among the 2xx: FAILURE `idempotency.duplicated`;
 * - no 2xx at all, although not every answer was a 409/429: FAILURE `idempotency.none-created`;
 * - a concurrent duplicate answering 409: WARNING `idempotency.in-flight-409` (409 states "a different
 *   body", which is not the case; a common "in progress" answer that creates nothing);
 * - 400 or 422: failure (they call a valid body invalid); 5xx: failure; any other 4xx (423, 425, 429…):
 *   accepted, the suite notes it (an "in progress" answer the text leaves open).
 */
export function judgeSameKeyBurst(answers: readonly Answer[], at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE', 'GW-PIXOUT-IDEM-REPLAY'] };
  const findings: Finding[] = [];
  const parts: Judgement[] = [];
  const winners = answers.filter((a) => is2xx(a.status));
  for (const r of answers) {
    if (is2xx(r.status)) continue;
    if (r.status === 409) {
      findings.push(
        makeFinding(ctx, {
          code: 'idempotency.in-flight-409',
          requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-ERR-409-MEANING'],
          exchanges: [r.exchange],
          title: 'a concurrent duplicate with the same key and body answered 409',
          severity: 'warning',
          expected: 'the original response (same transfer id), or a retryable answer',
          actual: `HTTP 409 ${show(r.json, 160)}`,
        }),
      );
    } else if (r.status === 400 || r.status === 422 || r.status === 0 || r.status >= 500) {
      parts.push(expectStatus(r.exchange, [200, 429], ctx));
    }
  }
  const ids = [...new Set(winners.map((r) => dataOf(r.json)?.id))];
  if (ids.length > 1) {
    findings.push(
      makeFinding(ctx, {
        code: 'idempotency.duplicated',
        exchanges: winners.map((r) => r.exchange),
        title: `${ids.length} transfers were created with one idempotency key and body`,
        severity: 'failure',
        expected: 'one transfer id among all successful answers',
        actual: `ids ${ids.map((i) => show(i)).join(', ')}`,
      }),
    );
  }
  if (winners.length === 0 && !answers.every((r) => r.status === 429 || r.status === 409)) {
    findings.push(
      makeFinding(ctx, {
        code: 'idempotency.none-created',
        requirements: ['GW-PIXOUT-CREATE-200'],
        exchanges: answers.map((r) => r.exchange),
        title: 'no concurrent creation with a fresh key succeeded',
        severity: 'failure',
        expected: 'at least one 2xx with data.id',
        actual: answers.map((r) => r.status).join(', '),
      }),
    );
  }
  return combine(judge(ctx, findings), ...parts);
}

/**
 * "Resending with the same key and body returns the original response": a 2xx resend names the
 * original transfer. Another id: FAILURE `idempotency.new-transfer` (a duplicate). The status is the
 * caller's status rule.
 */
export function ensureReplayReturnsOriginal(replay: Answer, originalId: unknown, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'], exchanges: [...(at.exchanges ?? []), replay.exchange] };
  if (!is2xx(replay.status)) return judge(ctx);
  const id = dataOf(replay.json)?.id;
  if (id === originalId) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'idempotency.new-transfer',
      title: 'a resend with the same key and body did not return the original transfer',
      severity: 'failure',
      expected: `the original response: data.id = ${show(originalId)}`,
      actual: `data.id = ${show(id)}${typeof id === 'string' && id !== originalId ? ' (a second transfer)' : ''}`,
    }),
  );
}

/**
 * "never duplicates the transfer", seen through events: a `transfer_created` for ANOTHER transfer at
 * the postbackUrl that only this key's body carries. `other`: the delivery about another transfer id.
 */
export function ensureNoOtherTransferAtPostback(other: { seq: number; bodyText: string } | undefined, transferId: string, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE'] };
  if (!other) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'idempotency.duplicated',
      title: 'another transfer was created by the same key and body',
      severity: 'failure',
      expected: `only transfer ${transferId} at this body's postbackUrl`,
      actual: `delivery #${other.seq}: ${other.bodyText.slice(0, 200)}`,
    }),
  );
}
