/**
 * Partner error answers (partner-cashin-api.md, "Errors"): "Body: `{detail: <readable message>}`";
 * 401 "API key missing, invalid or revoked", 403 "route unavailable in this environment", 404
 * "resource not found or belongs to another account", 409 "state conflict … or `Idempotency-Key`
 * reused with a different body", 422 "invalid request body; detail points to the field".
 * "Rate limits: not shown": a 429 is a choice the text leaves open, and so is its body.
 */
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, type RuleContext } from '../judgement.js';
import { verifyDetailNamesField, verifyPartnerErrorShape } from '../errors.js';
import { expectStatus } from '../status.js';
import type { Answer } from './charges.js';

/** Statuses of the Errors table, whose body is stated as `{detail}`. */
const DOCUMENTED_ERRORS = [401, 403, 404, 409, 422];

/**
 * `{detail: <readable message>}` on an answer of the Errors table. Any other status (a 429 above all:
 * "Rate limits: not shown") has a body of any shape: nothing is decided.
 */
export function verifyErrorBody(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: Omit<RuleContext, 'requirements'> = {}): Judgement {
  if (!DOCUMENTED_ERRORS.includes(answer.status)) return { requirements: [], findings: [] };
  return verifyPartnerErrorShape(answer.json, { ...ctx, requirements: ['PT-ERR-DETAIL-SHAPE'], exchanges: [answer.exchange] });
}

/**
 * An exact documented error status with `{detail}` (5xx fails, 429 warns: see expectStatus). With
 * `otherClientError: 'warning'`, another 4xx only warns (where the text leaves the code open).
 */
export function expectPartnerError(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, status: number, ctx: RuleContext & { otherClientError?: 'warning' }): Judgement {
  const { otherClientError, ...rest } = ctx;
  const parts = [expectStatus(answer.exchange, status, rest, otherClientError ? { otherClientError } : {})];
  if (answer.status === status || (otherClientError && answer.status >= 400 && answer.status <= 499)) parts.push(verifyErrorBody(answer));
  return combine(...parts);
}

/**
 * An invalid request body ("422 | invalid request body; detail points to the field"): a 2xx is a
 * failure (`negative.accepted`), 422 with `{detail}` passes, and the detail should name `field`
 * (PT-ERR-422-FIELD is ambiguous: a warning). `malformed`: the body is not JSON at all, where whether
 * it counts as "an invalid request body" is not stated (PT-ERR-422-MALFORMED-JSON is ambiguous):
 * another 4xx warns. `what` describes the body in titles.
 */
export function judgeInvalidBody(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: RuleContext & { what: string; field?: string; malformed?: boolean; otherClientError?: 'warning' }): Judgement {
  const { what, field, malformed, otherClientError, ...rest } = ctx;
  const c = { ...rest, requirements: [...new Set(['PT-ERR-422-INVALID-BODY' as const, ...rest.requirements])], exchanges: [...(rest.exchanges ?? []), answer.exchange] };
  if (answer.status >= 200 && answer.status <= 299) {
    return judge(c, makeFinding(c, { code: 'negative.accepted', title: `an invalid body was accepted (${what})`, severity: 'failure', expected: 'HTTP 422 {detail}', actual: `HTTP ${answer.status} ${answer.exchange.response?.body.slice(0, 200) ?? ''}` }));
  }
  const parts = [expectPartnerError(answer, 422, { ...c, ...(malformed || otherClientError ? { otherClientError: 'warning' as const } : {}) })];
  if (answer.status === 422 && field !== undefined) parts.push(verifyDetailNamesField(answer.json, field, { requirements: ['PT-ERR-422-FIELD'], exchanges: [answer.exchange] }));
  return combine(...parts);
}

/**
 * An id no charge of this account has: "404 | resource not found". The id's form is not documented
 * ("id | string | charge id"), so an implementation may refuse a malformed or oversized id before
 * looking it up (400, 414): another 4xx only warns. A 2xx or 5xx fails. The same rule serves the
 * unknown-id checks and the negative fuzzer. Ids that are URL dot-segments (`.`, `..`) are a request
 * for another route after URL normalisation: callers do not send them here.
 */
export function judgeUnknownIdAnswer(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: RuleContext): Judgement {
  return expectPartnerError(answer, 404, { ...ctx, otherClientError: 'warning' });
}

/** URL dot-segments: after normalisation (RFC 3986 §5.2.4) they name another route, not a charge id. */
export function isDotSegment(id: string): boolean {
  return id === '.' || id === '..' || /^(\.|%2e){1,2}$/i.test(id);
}

/**
 * "PIX out (payout, route `/v1/business/payouts`) is not available … has no public route." Its answer
 * is not shown (404 or 403): any 4xx passes; a 2xx is reported (PT-PAYOUT-UNAVAILABLE is ambiguous:
 * a warning); 5xx fails.
 */
export function ensurePayoutUnavailable(answer: Pick<Answer, 'status' | 'exchange'>, ctx: RuleContext): Judgement {
  if (answer.status >= 200 && answer.status <= 299) {
    const c = { ...ctx, exchanges: [...(ctx.exchanges ?? []), answer.exchange] };
    return judge(c, makeFinding(c, { code: 'payout.available', title: 'POST /v1/business/payouts answered 2xx', severity: 'failure', expected: 'no public route (e.g. 404 or 403)', actual: `HTTP ${answer.status}` }));
  }
  return expectStatus(answer.exchange, '4xx', ctx);
}
