/**
 * Partner error answers (partner-cashin-api.md, "Errors"): "Body: `{detail: <readable message>}`";
 * 401 "API key missing, invalid or revoked", 403 "route unavailable in this environment", 404
 * "resource not found or belongs to another account", 409 "state conflict … or `Idempotency-Key`
 * reused with a different body", 422 "invalid request body; detail points to the field".
 * "Rate limits: not shown": a 429 is a choice the text leaves open, and so is its body.
 *
 * The rows whose cause is another section's (403 simulate in production, 404 another account's
 * charge, 409 cancel of a settled charge or a reused key) are judged by that section's rule, with
 * {@link judgePartnerError} and {@link answerErrorsWithDetail}.
 */
import { fieldNameVariants } from '../field-names.js';
import { judgeStatus } from '../status.js';
import type { StatusCodes } from '../status.js';
import { defineRule } from '../rule.js';
import type { Verdict } from '../rule.js';
import { kindOf, show } from '../judgement.js';
import { isRecord } from '../../core/json.js';
import type { Exchange } from '../../core/exchange.js';
import { judgeBeyondLookups, type BeyondLookups } from './isolation.js';

/** What a rule sees of one HTTP answer (an ApiResponse is one). */
export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

/** An answer as the error rules read it. */
export type ErrorAnswer = Answer;

/** URL dot-segments: after normalisation (RFC 3986 §5.2.4) they name another route, not a charge id. */
export function isDotSegment(id: string): boolean {
  return id === '.' || id === '..' || /^(\.|%2e){1,2}$/i.test(id);
}

// ── declared rules ──────────────────────────────────────────────────────────────────────────────

const ERROR_STATUSES = [401, 403, 404, 409, 422] as const;

/**
 * "Body: `{detail: <readable message>}`" on an answer of the Errors table: an object whose `detail`
 * is a string; a FastAPI-style list (`detail: [{loc, msg, type}]`) is not "a readable message". An
 * empty string is a string, but nothing readable: a warning. Any other status (a 429 above all:
 * "Rate limits: not shown") has a body of any shape: nothing is decided.
 */
export const answerErrorsWithDetail = defineRule({
  name: 'answerErrorsWithDetail',
  requirements: ['PT-ERR-DETAIL-SHAPE'],
  codes: { 'error.partner-shape': 'failure', 'error.partner-detail-empty': 'warning' },
  judge(answer: ErrorAnswer, v) {
    if (!(ERROR_STATUSES as readonly number[]).includes(answer.status)) return v.nothingToJudge();
    v.shows(answer.exchange);
    const json = answer.json;
    const expected = '{detail: <readable message string>}';
    if (!isRecord(json) || typeof json.detail !== 'string') {
      let actual = json === undefined ? 'a body that is not JSON' : `${kindOf(json)} ${show(json, 300)}`;
      if (isRecord(json) && Array.isArray(json.detail)) actual += ' (detail is an array, FastAPI-style, not a readable message string)';
      else if (isRecord(json)) actual += ` (detail is ${kindOf(json.detail)})`;
      return v.find('error.partner-shape', { title: `the ${answer.status} body is not {detail: <readable message>}`, expected, actual });
    }
    if (json.detail.trim() === '') v.find('error.partner-detail-empty', { title: `the ${answer.status} body has an empty detail`, expected, actual: show(json, 300) });
  },
});

/**
 * Inside the judge of a rule that uses {@link answerErrorsWithDetail}: the answer has exactly
 * `status` of the Errors table, with a `{detail}` body (judged whenever the status is one of the
 * table's). Returns true when the status matched.
 */
export function judgePartnerError<C extends string>(v: Verdict<C>, answer: ErrorAnswer, status: number, codes: StatusCodes<C>, what?: string): boolean {
  const matched = judgeStatus(v, answer.exchange, status, codes, what);
  if (answer.exchange.response) v.apply(answerErrorsWithDetail, answer);
  return matched;
}

/** How a request went without a valid key (titles), and which sentence it also shows. */
export interface KeylessRequest {
  answer: ErrorAnswer;
  /** what the request carried instead of a valid key, for titles: "no Authorization header" */
  key: string;
  /** one of the documented routes probed in turn: "All routes need `Authorization: Bearer <API_KEY>`" */
  everyRoute?: boolean;
  /** only a cookie the service set earlier: "No OAuth, session or SDK" */
  sessionCookie?: boolean;
}

/**
 * "401 | API key missing, invalid or revoked", with "All routes need `Authorization: Bearer
 * <API_KEY>`" and "Every request carries `Authorization: Bearer <API_KEY>`. No OAuth, session or SDK.":
 * - a request without a valid key (none, unknown, malformed, only a session cookie) is refused with
 *   401 `{detail}` on every route;
 * - `lenient`: the valid key under a spelling RFC 7235 allows (lower-case scheme, two spaces): served
 *   or refused with 401, both fair;
 * - `untouched`: a charge that unauthenticated cancel and pay requests tried to change is still pending.
 */
export const refuseWithoutValidKey = defineRule({
  name: 'refuseWithoutValidKey',
  requirements: ['PT-AUTH-401', 'PT-AUTH-ROUTES', 'PT-AUTH-BEARER'],
  codes: { 'auth.partner-not-401': 'failure', 'auth.lenient-status': 'failure', 'auth.acted-without-key': 'failure' },
  uses: [answerErrorsWithDetail],
  judge(observation: KeylessRequest | { lenient: ErrorAnswer; key: string } | { untouched: { status: number; exchange: Exchange; state?: unknown }; why: string }, v) {
    if ('untouched' in observation) {
      v.decides('PT-AUTH-ROUTES');
      const { untouched } = observation;
      if (untouched.state === 'pending') return;
      if (untouched.status === 0 || untouched.status === 429) return v.nothingToJudge();
      return v.find('auth.acted-without-key', { title: `the charge is not pending ${observation.why}`, expected: 'status "pending": requests without a key change nothing', actual: `HTTP ${untouched.status}, status ${show(untouched.state)}`, exchanges: [untouched.exchange] });
    }
    if ('lenient' in observation) {
      v.decides('PT-AUTH-BEARER');
      judgeStatus(v, observation.lenient.exchange, ['2xx', 401], { unexpected: 'auth.lenient-status' }, `${observation.lenient.exchange.operation ?? 'a request'} with ${observation.key}`);
      return;
    }
    v.decides('PT-AUTH-401', ...(observation.everyRoute ? (['PT-AUTH-ROUTES'] as const) : []), ...(observation.sessionCookie ? (['PT-AUTH-BEARER'] as const) : []));
    judgePartnerError(v, observation.answer, 401, { unexpected: 'auth.partner-not-401' }, `${observation.answer.exchange.operation ?? 'a request'} with ${observation.key}`);
  },
});

/**
 * An id no charge of this account has: "404 | resource not found". The id's form is not documented
 * ("id | string | charge id"), so a service may refuse a malformed or oversized id before looking it
 * up with a status the table does not list (400, 414): a warning. A status of the table with another
 * meaning (401, 403, 409, 422: "422 | invalid request body", and a lookup has none) is a failure, and
 * so are a 2xx and a 5xx. Ids that are URL dot-segments (`.`, `..`) name another route after URL
 * normalisation: callers do not send them here ({@link isDotSegment}).
 */
export const answerUnknownIdNotFound = defineRule({
  name: 'answerUnknownIdNotFound',
  requirements: ['PT-ERR-404-UNKNOWN'],
  codes: { 'unknown-id.status': 'failure', 'unknown-id.undocumented-4xx': 'warning' },
  uses: [answerErrorsWithDetail],
  judge(answer: ErrorAnswer, v) {
    const documentedOther = (ERROR_STATUSES as readonly number[]).includes(answer.status) && answer.status !== 404;
    judgePartnerError(v, answer, 404, { unexpected: 'unknown-id.status', ...(documentedOther ? {} : { otherClientError: 'unknown-id.undocumented-4xx' as const }) }, `${answer.exchange.operation ?? 'a by-id route'} with an unknown id`);
  },
});

/** How a body is invalid, which decides the row and the latitude. */
export type InvalidBodyKind =
  /** one field breaks its documented rule: "422 | invalid request body; detail points to the field" */
  | { kind: 'field'; field: string }
  /** a body too large to read: 422 is due, a 413 (another 4xx) only warns */
  | { kind: 'oversized' }
  /** not an object of fields at all (a string, an array, a number) */
  | { kind: 'shape' };

/**
 * "422 | invalid request body; detail points to the field": a 2xx is a failure (the body was
 * accepted), a 422 with `{detail}` passes, and the detail should name the field (PT-ERR-422-FIELD:
 * how it points is not stated, a warning).
 */
export const refuseInvalidBody = defineRule({
  name: 'refuseInvalidBody',
  requirements: ['PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD'],
  codes: { 'invalid-body.accepted': 'failure', 'invalid-body.status': 'failure', 'invalid-body.other-4xx': 'warning', 'invalid-body.field-not-named': 'warning' },
  uses: [answerErrorsWithDetail],
  judge(observation: { answer: ErrorAnswer; what: string } & InvalidBodyKind, v) {
    const { answer, what } = observation;
    const field = observation.kind === 'field' ? observation.field : undefined;
    v.decides(...(field !== undefined && answer.status === 422 ? (['PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD'] as const) : (['PT-ERR-422-INVALID-BODY'] as const)));
    v.shows(answer.exchange);
    if (answer.status >= 200 && answer.status <= 299) {
      return v.find('invalid-body.accepted', { title: `an invalid body was accepted (${what})`, expected: 'HTTP 422 {detail}', actual: `HTTP ${answer.status} ${answer.exchange.response?.body.slice(0, 200) ?? ''}`, requirements: ['PT-ERR-422-INVALID-BODY'] });
    }
    const codes = { unexpected: 'invalid-body.status' as const, ...(observation.kind === 'oversized' ? { otherClientError: 'invalid-body.other-4xx' as const } : {}) };
    const matched = judgePartnerError(v, answer, 422, codes, `an invalid body (${what})`);
    if (matched && field !== undefined && !detailNamesField(answer.json, field)) {
      v.find('invalid-body.field-not-named', { title: `the 422 detail does not name the invalid field ${field}`, expected: `detail text naming the field "${field}"`, actual: isRecord(answer.json) && answer.json.detail !== undefined ? `detail = ${show(answer.json.detail, 300)}` : `no detail in ${show(answer.json, 300)}`, requirements: ['PT-ERR-422-FIELD'] });
    }
  },
});

/**
 * A body that is not JSON at all: whether it counts as "an invalid request body" is not stated
 * (PT-ERR-422-MALFORMED-JSON is ambiguous): 422 passes, another 4xx warns, a 2xx or 5xx is out of
 * contract either way.
 */
export const refuseMalformedJson = defineRule({
  name: 'refuseMalformedJson',
  requirements: ['PT-ERR-422-MALFORMED-JSON'],
  codes: { 'malformed-json.accepted': 'failure', 'malformed-json.status': 'failure', 'malformed-json.other-4xx': 'warning' },
  uses: [answerErrorsWithDetail],
  judge(observation: { answer: ErrorAnswer; raw: string }, v) {
    const { answer, raw } = observation;
    v.shows(answer.exchange);
    if (answer.status >= 200 && answer.status <= 299) {
      return v.find('malformed-json.accepted', { title: `a body that is not JSON was accepted (${show(raw, 60)})`, expected: 'HTTP 422 {detail}', actual: `HTTP ${answer.status}` });
    }
    judgePartnerError(v, answer, 422, { unexpected: 'malformed-json.status', otherClientError: 'malformed-json.other-4xx' }, `a body that is not JSON (${show(raw, 60)})`);
  },
});

/**
 * "Bodies are JSON.": a request whose body is JSON but whose Content-Type is not, or whose text is
 * odd but valid (a lone surrogate escape), may be served or refused; it must not crash the service.
 */
export const surviveOddBodies = defineRule({
  name: 'surviveOddBodies',
  requirements: ['PT-BODY-JSON'],
  codes: { 'odd-body.status': 'failure' },
  judge(answer: ErrorAnswer, v) {
    judgeStatus(v, answer.exchange, ['2xx', '4xx'], { unexpected: 'odd-body.status' });
  },
});

/** The spellings under which a detail may name a field (case-insensitive; snake, camel, spaced, last path segment; a structured detail as JSON). */
function detailNamesField(json: unknown, field: string): boolean {
  const raw = isRecord(json) ? json.detail : undefined;
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : (JSON.stringify(raw) ?? '');
  const haystack = text.toLowerCase();
  return text !== '' && fieldNameVariants(field).some((variant) => haystack.includes(variant.toLowerCase()));
}

/**
 * "404 | resource not found or belongs to another account": another account's key does not reach our
 * charge, nor what sits behind it.
 * - `by-id`: a lookup, cancel or pay of our charge with their key answers 404 `{detail}`; a 2xx shows
 *   our charge to them, any other status is not the one stated;
 * - `state`: after their cancel and pay, our charge is still pending;
 * - `key-reuse`, `postings`, `deliveries`: their first use of our Idempotency-Key does not return our
 *   charge, their statement shows no posting of our capture, our endpoint receives no event of their
 *   charge signed with our secret (isolation.ts). Each account registers its own URL, so their event
 *   signed with our secret fails; one not signed with it only warns (a registration of theirs that
 *   may use the same URL).
 */
export const keepAccountsApart = defineRule({
  name: 'keepAccountsApart',
  requirements: ['PT-ERR-404-OTHER-ACCOUNT'],
  codes: {
    'account.visible': 'failure',
    'account.status': 'failure',
    'account.changed': 'failure',
    'account.idempotency-shared': 'failure',
    'account.idempotency-key-taken': 'warning',
    'account.foreign-posting': 'failure',
    'account.foreign-event': 'failure',
    'account.foreign-event-unsigned': 'warning',
  },
  uses: [answerErrorsWithDetail],
  judge(observation: { kind: 'by-id'; answer: ErrorAnswer } | { kind: 'state'; answer: Pick<Answer, 'status' | 'exchange'>; state?: unknown; why: string } | BeyondLookups, v) {
    switch (observation.kind) {
      case 'by-id': {
        const { answer } = observation;
        if (answer.status >= 200 && answer.status <= 299) {
          return v.find('account.visible', { title: `${answer.exchange.operation ?? 'a by-id route'} reached another account's charge`, expected: 'HTTP 404 {detail} ("resource not found or belongs to another account")', actual: `HTTP ${answer.status} ${show(answer.json, 200)}`, exchanges: [answer.exchange] });
        }
        judgePartnerError(v, answer, 404, { unexpected: 'account.status' }, `${answer.exchange.operation ?? 'a by-id route'} with another account's key`);
        return;
      }
      case 'state':
        if (observation.state === 'pending') return;
        if (observation.answer.status === 0 || observation.answer.status === 429) return v.nothingToJudge();
        return v.find('account.changed', { title: `our charge is not pending ${observation.why}`, expected: 'status "pending": another account cannot act on it', actual: `HTTP ${observation.answer.status}, status ${show(observation.state)}`, exchanges: [observation.answer.exchange] });
      default:
        return judgeBeyondLookups(v, observation, 'another account', { shared: 'account.idempotency-shared', taken: 'account.idempotency-key-taken', posting: 'account.foreign-posting', signed: 'account.foreign-event', unsigned: 'account.foreign-event-unsigned' });
    }
  },
});
