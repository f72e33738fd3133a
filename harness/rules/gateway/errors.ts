/**
 * Gateway error answers (gateway-api.md "Errors"), one rule per sentence:
 *
 * - "Two body shapes occur: `{success: false, message}` and `{error: <CODE>, message}`."
 *   ({@link answerErrorsInDocumentedShape});
 * - "Codes seen: `NOT_FOUND`, `IDEMPOTENCY_CONFLICT`. The full list of codes: not shown.", with the
 *   routes that pin a code: "404 body `{error: NOT_FOUND, message}`" (GET charge, GET transfer) and
 *   "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)" ({@link carryPinnedErrorCode});
 * - "400 | invalid body, … also card request with BRL or without currency" with "422 | validation
 *   failure" ({@link refuseInvalidRequestBody});
 * - "422 | validation failure; message points to the field" ({@link pointToTheField});
 * - "429 | rate limited; body shape: not shown": a 429 is never judged here.
 *
 * The rows whose cause belongs to another section (403 simulation with production credentials, 404
 * another account's resource, 409 a reused key, 400 a resource no longer pending) are judged by that
 * section's rule, with {@link judgeGatewayError} and {@link answerErrorsInDocumentedShape}. Extra
 * fields in an error body are never a finding: the document does not forbid them.
 */
import type { Exchange } from '../../core/exchange.js';
import { kindOf, show } from '../judgement.js';
import { judgeStatus, type StatusCodes, type StatusExpectation } from '../status.js';
import { defineRule, type Verdict } from '../rule.js';
import { bodyNamesField } from '../field-names.js';
import { dataOf, is2xx, isRecord } from '../../core/json.js';

/** What a rule sees of one HTTP answer (a gateway ApiResponse is one). */
export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

export type GatewayErrorShape = 'success-false' | 'error-code' | 'either';

const SHAPE_TEXT: Record<GatewayErrorShape, string> = {
  'success-false': '{success: false, message}',
  'error-code': '{error: <CODE>, message}',
  either: '{success: false, message} or {error: <CODE>, message}',
};

/**
 * Why `json` (undefined: not JSON) has not the documented `shape`, or undefined when it has. The type
 * of `message` is not stated (GW-ERR-SHAPES): a string, a list of strings (one per field) or a field →
 * text map are all a message; only its absence (or null) breaks a shape.
 */
export function errorShapeProblem(json: unknown, shape: GatewayErrorShape): string | undefined {
  if (!isRecord(json)) return json === undefined ? 'a body that is not JSON' : `${kindOf(json)} ${show(json)}`;
  const hasMessage = json.message !== undefined && json.message !== null;
  const successFalse = json.success === false && hasMessage;
  const errorCode = typeof json.error === 'string' && hasMessage;
  const ok = shape === 'success-false' ? successFalse : shape === 'error-code' ? errorCode : successFalse || errorCode;
  if (ok) return undefined;
  const why: string[] = [];
  if (!hasMessage) why.push(`message is ${kindOf(json.message)}`);
  if (shape !== 'error-code' && json.success !== false) why.push(`success is ${show(json.success)}`);
  if (shape !== 'success-false' && typeof json.error !== 'string') why.push(`error is ${show(json.error)}`);
  return `${show(json, 300)} (${why.join(', ')})`;
}

/** An error status whose body the Errors section judges: a 4xx other than 401 and 429. */
function hasJudgedErrorBody(status: number): boolean {
  return status >= 400 && status <= 499 && status !== 401 && status !== 429;
}

/**
 * "Two body shapes occur: `{success: false, message}` and `{error: <CODE>, message}`." Judged on a
 * 4xx answer, not on a 429 ("body shape: not shown") nor a 401 (it comes from the authentication
 * layer, before any route: a 401 body of any shape is accepted). Anything else decides nothing.
 */
export const answerErrorsInDocumentedShape = defineRule({
  name: 'answerErrorsInDocumentedShape',
  requirements: ['GW-ERR-SHAPES'],
  codes: { 'error.shape': 'failure' },
  judge(answer: Answer, v) {
    if (!answer.exchange.response || !hasJudgedErrorBody(answer.status)) return v.nothingToJudge();
    v.shows(answer.exchange);
    const problem = errorShapeProblem(answer.json, 'either');
    if (problem !== undefined) v.find('error.shape', { title: `the ${answer.status} body has neither documented gateway error shape`, expected: SHAPE_TEXT.either, actual: problem });
  },
});

/** The answers whose error code the document pins. */
export type PinnedErrorCode =
  /** GET /api/v1/pix/in/qrcode/{transactionId}: "404 body `{error: NOT_FOUND, message}`" */
  | 'charge-lookup'
  /** GET /api/v1/pix/out/pixkey/{transferId}: "404 body `{error: NOT_FOUND, message}`" */
  | 'transfer-lookup'
  /** POST /api/v1/pix/out/pixkey: "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)" */
  | 'idempotency-conflict';

const PINNED: Record<PinnedErrorCode, { status: number; code: string }> = {
  'charge-lookup': { status: 404, code: 'NOT_FOUND' },
  'transfer-lookup': { status: 404, code: 'NOT_FOUND' },
  'idempotency-conflict': { status: 409, code: 'IDEMPOTENCY_CONFLICT' },
};

/**
 * "Codes seen: `NOT_FOUND`, `IDEMPOTENCY_CONFLICT`. The full list of codes: not shown." with the
 * sentences that pin them: "404 body `{error: NOT_FOUND, message}`" (the two lookups) and "409
 * (`IDEMPOTENCY_CONFLICT`)". On an answer of the pinned status the body is `{error: <that code>,
 * message}`: another shape (`{success: false, message}` included) or another code fails. Another
 * status decides nothing (its own rule judges it); a code elsewhere is open ("not shown"). The
 * routes' own sentences (the lookups' 404 and the transfer's 409) are their sections' rules.
 */
export const carryPinnedErrorCode = defineRule({
  name: 'carryPinnedErrorCode',
  requirements: ['GW-ERR-CODES'],
  codes: { 'error.code-missing': 'failure', 'error.code': 'failure' },
  judge(observation: { answer: Answer; pin: PinnedErrorCode }, v) {
    const { answer } = observation;
    const pinned = PINNED[observation.pin];
    if (!answer.exchange.response || answer.status !== pinned.status) return v.nothingToJudge();
    v.shows(answer.exchange);
    const expected = `{error: "${pinned.code}", message}`;
    const problem = errorShapeProblem(answer.json, 'error-code');
    if (problem !== undefined) return v.find('error.code-missing', { title: `the ${pinned.status} body is not ${expected}`, expected, actual: problem });
    const json = answer.json as Record<string, unknown>;
    if (json.error !== pinned.code) v.find('error.code', { title: `the ${pinned.status} body carries the wrong error code`, expected: `error = "${pinned.code}"`, actual: `error = ${show(json.error)} in ${show(json, 300)}` });
  },
});

/**
 * Inside the judge of a rule that uses {@link answerErrorsInDocumentedShape}: the answer has the
 * `expected` status, and its body one of the documented shapes (judged whenever it is a 4xx the
 * Errors section judges). Returns true when the status matched.
 */
export function judgeGatewayError<C extends string>(v: Verdict<C>, answer: Answer, expected: StatusExpectation, codes: StatusCodes<C>, what?: string): boolean {
  const matched = judgeStatus(v, answer.exchange, expected, codes, what);
  if (answer.exchange.response) v.apply(answerErrorsInDocumentedShape, answer);
  return matched;
}

/**
 * "422 | validation failure; message points to the field": on a 422 the message names the field the
 * body breaks. How it points is not stated (its name, a JSON path, words), so a message that does not
 * name it is a WARNING; a 422 with nothing that could point (no message, or a number or boolean) is a
 * failure. Another status decides nothing.
 */
export const pointToTheField = defineRule({
  name: 'pointToTheField',
  requirements: ['GW-ERR-422-FIELD'],
  codes: { 'validation.no-message': 'failure', 'validation.field-not-named': 'warning' },
  judge(observation: { answer: Answer; field: string }, v) {
    const { answer, field } = observation;
    if (!answer.exchange.response || answer.status !== 422 || field === '') return v.nothingToJudge();
    v.shows(answer.exchange);
    const json = answer.json;
    const message = isRecord(json) ? json.message : undefined;
    // a structured message (`{amountInCents: "…"}`, a list) can point to the field too
    if (typeof message !== 'string' && !Array.isArray(message) && !isRecord(message)) {
      return v.find('validation.no-message', { title: 'a 422 carries no message to point to the field', expected: `a message naming the field "${field}" ("message points to the field")`, actual: show(json, 300) });
    }
    if (!bodyNamesField(json, 'message', field)) {
      v.find('validation.field-not-named', { title: `the 422 message does not name the invalid field ${field}`, expected: `message text naming the field "${field}"`, actual: `message = ${show(message, 300)}` });
    }
  },
});

/** An invalid request body, as sent. */
export interface InvalidBody {
  answer: Answer;
  /** what was sent, for the titles (e.g. the mutant's rule) */
  what: string;
  /** the field the body breaks: a 422 message should point to it */
  field?: string;
  /** "also card request with BRL or without currency": the row names 400 itself, so only 400 passes */
  exactly400?: boolean;
  /**
   * a card charge request: card answers are "Usually synchronous (approved or refused)", so a 2xx
   * charge `refused` is a plausible refusal of an invalid body (a warning, not the 400 of the row)
   */
  card?: boolean;
}

/**
 * "400 | invalid body" and "422 | validation failure": an invalid body is refused. Which of the two a
 * route answers is not stated, so both pass; another 4xx is a WARNING (a refusal without the
 * documented meaning); a 2xx (accepted) or a 5xx fails. With `exactly400` ("card request with BRL or
 * without currency") only 400 passes. A card request answered with a charge `refused` warns (see
 * {@link InvalidBody.card}); with any other charge status it was accepted. The body has a documented
 * shape, and a 422's message points to the field.
 */
export const refuseInvalidRequestBody = defineRule({
  name: 'refuseInvalidRequestBody',
  requirements: ['GW-ERR-400-MEANING'],
  codes: { 'validation.accepted': 'failure', 'validation.status': 'failure', 'validation.other-4xx': 'warning', 'validation.refused-charge': 'warning' },
  uses: [answerErrorsInDocumentedShape, pointToTheField],
  judge(observation: InvalidBody, v) {
    const { answer, what } = observation;
    v.shows(answer.exchange);
    const expected = observation.exactly400 ? 'HTTP 400' : 'HTTP 400 or 422 ("400 | invalid body", "422 | validation failure")';
    if (answer.exchange.response && is2xx(answer.status)) {
      const charged = dataOf(answer.json)?.status;
      if (observation.card && charged === 'refused') {
        return v.find('validation.refused-charge', { title: `${what}: an invalid card body was answered with a refused charge instead of an error`, expected, actual: `HTTP ${answer.status}, data.status = "refused"`, pointer: '/data/status' });
      }
      const body = answer.exchange.response.body;
      return v.find('validation.accepted', {
        title: `${what}: an invalid body was accepted`,
        expected: observation.card ? `${expected}, or a charge with status "refused"` : expected,
        actual: `HTTP ${answer.status}${observation.card ? `, data.status = ${show(charged)}` : ''}, ${body === '' ? 'empty body' : `body ${show(body, 200)}`}`,
      });
    }
    const codes = observation.exactly400 ? { unexpected: 'validation.status' as const } : { unexpected: 'validation.status' as const, otherClientError: 'validation.other-4xx' as const };
    const matched = judgeGatewayError(v, answer, observation.exactly400 ? 400 : [400, 422], codes, what);
    if (matched && observation.field !== undefined) v.apply(pointToTheField, { answer, field: observation.field });
  },
});

/** How an id used in a by-id route reads: plausible as an id, malformed, or a URL dot segment. */
export type IdShape = 'plausible' | 'malformed' | 'dot-segment';

/**
 * The id format is not shown, so any short token of letters, digits, `-` and `_` may name a resource;
 * anything else (spaces, punctuation, escapes, over 128 characters) may be refused as malformed. `.`
 * and `..` are URL dot segments: after normalisation (RFC 3986 §5.2.4) they address another route.
 */
export function idShape(id: string): IdShape {
  if (id === '.' || id === '..') return 'dot-segment';
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? 'plausible' : 'malformed';
}

/** The request bodies the negative checks mutate (generators/bodies.ts `singleRuleMutants`). */
export type MutatedOperation = 'pix' | 'transfer' | 'card' | 'webhook';

/**
 * Whether breaking one schema rule makes a body invalid by the contract's FIRM words (so a 2xx is a
 * failure). Left out, because the text does not say such a body is invalid:
 * - extra properties (not forbidden);
 * - a non-URI `postbackUrl` ("string (URI)": only the type is given);
 * - the `ctoken_` pattern of card.token (contradicted by "Sandbox: any token is approved");
 * - splits (the e-mail of "another company on the platform" cannot be generated) and
 *   shippingAddress ("its field list: not shown");
 * - unknown webhook event names (hidden event names exist: "exist for subscriptions but are hidden");
 * - wrongly typed OPTIONAL metadata: "TrackingParameters (optional object …) All optional strings",
 *   and the PIX customer's "billingAddress | object | no". The card's billingAddress is required and
 *   complete: its fields stay firm.
 */
export function isFirmBodyRule(op: MutatedOperation, rule: string): boolean {
  if (rule.startsWith('unexpected-property:')) return false;
  if (/^bad-format:(.*\.)?postbackUrl$/.test(rule)) return false;
  if (rule === 'bad-pattern:card.token') return false;
  if (/(^|:)splits(\.|$)/.test(rule) || rule.includes('shippingAddress')) return false;
  if (rule.startsWith('bad-enum:events')) return false;
  if (/^wrong-type:trackingParameters\./.test(rule)) return false;
  if (op === 'pix' && /^wrong-type:customer\.billingAddress\./.test(rule)) return false;
  return true;
}
