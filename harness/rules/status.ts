/**
 * HTTP status codes, with the fairness rules every status check shares.
 *
 * Contract: gateway-api.md, "Endpoints": "Every route can answer 401 and 429."; "Errors": "429 |
 * rate limited". The partner document states no rate limit ("Rate limits: not shown"), so a 429
 * there is a choice the text leaves open. A 5xx is never a documented answer of either API.
 */
import type { Exchange } from '../core/exchange.js';
import type { Finding, Judgement } from './finding.js';
import { TargetUnreachableError } from '../http/transport.js';
import { judge, makeFinding, show, type RuleContext } from './judgement.js';
import type { Verdict } from './rule.js';

export type StatusClass = '2xx' | '4xx';
export type StatusExpectation = number | StatusClass | ReadonlyArray<number | StatusClass>;

function matches(status: number, one: number | StatusClass): boolean {
  if (one === '2xx') return status >= 200 && status <= 299;
  if (one === '4xx') return status >= 400 && status <= 499;
  return status === one;
}

export function describeExpectation(expected: StatusExpectation): string {
  const list = (Array.isArray(expected) ? expected : [expected]) as ReadonlyArray<number | StatusClass>;
  return list.length === 1 ? String(list[0]) : `one of ${list.join(', ')}`;
}

function withExchange(ctx: RuleContext, exchange: Exchange): RuleContext {
  const exchanges = ctx.exchanges ?? [];
  return exchanges.some((e) => e.seq === exchange.seq) ? ctx : { ...ctx, exchanges: [...exchanges, exchange] };
}

function label(exchange: Exchange): string {
  return exchange.operation ?? `${exchange.request.method} ${exchange.request.url}`;
}

/**
 * Verifies the response status of `exchange`. The exchange is always attached to the finding.
 * - no response at all (DNS, TLS, refused or reset connection, our timeout): throws
 *   {@link TargetUnreachableError}: nothing can be judged, the check is "inconclusive" with the cause
 *   (harness/run/check.ts), never a requirement failure;
 * - any 5xx: failure `target.5xx`, whatever was expected (no route documents a 5xx);
 * - 429 when not expected: WARNING `status.rate-limited` — never a failure by itself ("Every route
 *   can answer 401 and 429"); the caller may retry and check again;
 * - any other status outside `expected`: failure `status.unexpected`, or a WARNING for another 4xx
 *   when `options.otherClientError` is `'warning'` (a refusal where the text leaves the exact code
 *   open, e.g. 400 for an unreadable header): 5xx, 2xx and no answer still fail.
 */
function expectStatusFinding(exchange: Exchange, expected: StatusExpectation, ctx: RuleContext, options: { otherClientError?: 'failure' | 'warning' } = {}): Finding | undefined {
  const c = withExchange(ctx, exchange);
  const want = describeExpectation(expected);
  const response = exchange.response;
  if (!response) throw new TargetUnreachableError(exchange);
  const status = response.status;
  const body = response.body === '' ? 'empty body' : `body ${show(response.body, 300)}`;
  if (status >= 500 && status <= 599) {
    return makeFinding(c, {
      code: 'target.5xx',
      title: `${label(exchange)} answered a server error`,
      severity: 'failure',
      expected: `HTTP ${want}`,
      actual: `HTTP ${status}, ${body}`,
    });
  }
  const list = (Array.isArray(expected) ? expected : [expected]) as ReadonlyArray<number | StatusClass>;
  if (list.some((one) => matches(status, one))) return undefined;
  if (status === 429) {
    const retryAfter = response.headers['retry-after'];
    return makeFinding(c, {
      code: 'status.rate-limited',
      title: `${label(exchange)} was rate limited`,
      severity: 'warning',
      expected: `HTTP ${want}`,
      actual: `HTTP 429${retryAfter !== undefined ? ` (Retry-After: ${retryAfter})` : ''}, ${body}`,
    });
  }
  return makeFinding(c, {
    code: 'status.unexpected',
    title: `${label(exchange)} answered ${status}, expected ${want}`,
    severity: status >= 400 && status <= 499 && options.otherClientError === 'warning' ? 'warning' : 'failure',
    expected: `HTTP ${want}`,
    actual: `HTTP ${status}, ${body}`,
  });
}

export function expectStatus(exchange: Exchange, expected: StatusExpectation, ctx: RuleContext, options: { otherClientError?: 'failure' | 'warning' } = {}): Judgement {
  return judge(ctx, expectStatusFinding(exchange, expected, ctx, options));
}

/** How {@link judgeStatus} files what it finds: the judging rule's own codes. */
export interface StatusCodes<C extends string> {
  /** a status outside the expectation (a 5xx and a 2xx where a refusal is due included) */
  unexpected: C;
  /**
   * another 4xx, where the text leaves the exact code of a refusal open (e.g. 400 for an unreadable
   * header): found under this code (declared as a warning) instead of `unexpected`
   */
  otherClientError?: C;
}

/**
 * Judges the status of `exchange` inside a rule's judge, finding the rule's own codes:
 * - no response at all (DNS, TLS, refused or reset connection, our timeout): `v.unanswered`, nothing
 *   is judged (the check is inconclusive with the cause, never a requirement failure);
 * - a 429 the client's retries did not get past: nothing to judge (gateway "Every route can answer
 *   401 and 429"; partner "Rate limits: not shown"); the contract rule records it once;
 * - a status outside `expected`: `codes.unexpected`, or `codes.otherClientError` for another 4xx when
 *   the rule gives one. A 5xx is never a documented answer: it is always `unexpected`.
 * Returns true when the status matched.
 */
export function judgeStatus<C extends string>(v: Verdict<C>, exchange: Exchange, expected: StatusExpectation, codes: StatusCodes<C>, what?: string): boolean {
  const response = exchange.response;
  if (!response) {
    v.unanswered(exchange);
    return false;
  }
  const status = response.status;
  const list = (Array.isArray(expected) ? expected : [expected]) as ReadonlyArray<number | StatusClass>;
  if (list.some((one) => matches(status, one))) return true;
  if (status === 429) {
    v.nothingToJudge();
    return false;
  }
  const want = describeExpectation(expected);
  const clientError = status >= 400 && status <= 499;
  const code = clientError && codes.otherClientError !== undefined ? codes.otherClientError : codes.unexpected;
  v.find(code, {
    title: `${what ?? label(exchange)} answered ${status >= 500 ? `a server error (${status})` : status}, expected ${want}`,
    expected: `HTTP ${want}`,
    actual: `HTTP ${status}, ${response.body === '' ? 'empty body' : `body ${show(response.body, 300)}`}`,
    exchanges: [exchange],
  });
  return false;
}
