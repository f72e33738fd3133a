/**
 * HTTP status codes, with the fairness rules every status check shares.
 *
 * Contract: gateway-api.md, "Endpoints": "Every route can answer 401 and 429."; "Errors": "429 |
 * rate limited". The partner document states no rate limit ("Rate limits: not shown"), so a 429
 * there is a choice the text leaves open. A 5xx is never a documented answer of either API.
 */
import type { Exchange } from '../core/exchange.js';
import { show } from './judgement.js';
import type { Verdict } from './rule.js';
import { statusCellsTried } from './statuses.js';

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

function label(exchange: Exchange): string {
  return exchange.operation ?? `${exchange.request.method} ${exchange.request.url}`;
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
 * - every status of `expected` the exchange's route documents is a cell tried of the API's statuses
 *   relation (harness/rules/statuses.ts), whatever the answer;
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
  // the request was made to provoke these statuses of its route: their cells of the statuses relation are tried
  const tried = statusCellsTried(exchange.operation, list);
  if (tried) for (const cell of tried.cells) v.coversIn(tried.relation, cell);
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
