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
import type { Finding, Judgement } from '../finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus, judgeStatus, type StatusCodes, type StatusExpectation } from '../status.js';
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

const PINNED: Record<PinnedErrorCode, { status: number; code: string; requirement?: 'GW-PIXIN-GET-404-SHAPE' | 'GW-PIXOUT-GET-404-SHAPE' }> = {
  'charge-lookup': { status: 404, code: 'NOT_FOUND', requirement: 'GW-PIXIN-GET-404-SHAPE' },
  'transfer-lookup': { status: 404, code: 'NOT_FOUND', requirement: 'GW-PIXOUT-GET-404-SHAPE' },
  'idempotency-conflict': { status: 409, code: 'IDEMPOTENCY_CONFLICT' },
};

/**
 * "Codes seen: `NOT_FOUND`, `IDEMPOTENCY_CONFLICT`. The full list of codes: not shown." with the
 * sentences that pin them: "404 body `{error: NOT_FOUND, message}`" (the two lookups) and "409
 * (`IDEMPOTENCY_CONFLICT`)". On an answer of the pinned status the body is `{error: <that code>,
 * message}`: another shape (`{success: false, message}` included) or another code fails. Another
 * status decides nothing (its own rule judges it); a code elsewhere is open ("not shown").
 */
export const carryPinnedErrorCode = defineRule({
  name: 'carryPinnedErrorCode',
  requirements: ['GW-ERR-CODES', 'GW-PIXIN-GET-404-SHAPE', 'GW-PIXOUT-GET-404-SHAPE'],
  codes: { 'error.code-missing': 'failure', 'error.code': 'failure' },
  judge(observation: { answer: Answer; pin: PinnedErrorCode }, v) {
    const { answer } = observation;
    const pinned = PINNED[observation.pin];
    if (!answer.exchange.response || answer.status !== pinned.status) return v.nothingToJudge();
    v.decides(...(pinned.requirement ? [pinned.requirement, 'GW-ERR-CODES' as const] : ['GW-ERR-CODES' as const]));
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

// ── old-style judgements still called by the money-flow suites ──────────────────────────────────
// pix-charges, pix-transfers, card, fuzz-negative and rules/gateway/{pix-charges,pix-transfers,card,
// states}.ts still name their requirements at the call; they move to the declared rules above as
// those sections declare theirs, and these go.

/** A judgement that decided nothing (the observation is outside the rule's sentence). */
export const NOTHING_DECIDED: Judgement = { requirements: [], findings: [] };

/** The judgement with every finding's title prefixed by what was sent (`ctx.subject`). */
function labelled(j: Judgement, subject: string | undefined): Judgement {
  if (subject === undefined || j.findings.length === 0) return j;
  return { requirements: j.requirements, findings: j.findings.map((f) => ({ ...f, title: `${subject}: ${f.title}` })) };
}

function statusWith(exchange: Exchange, expected: StatusExpectation, ctx: RuleContext, otherClientError: 'failure' | 'warning'): Judgement {
  return labelled(expectStatus(exchange, expected, ctx, { otherClientError }), ctx.subject);
}

export interface InvalidBodyOptions {
  /** the sentence fixes the status ("missing or BRL gives 400"): another 4xx fails */
  exactly400?: boolean;
}

/** Old-style {@link refuseInvalidRequestBody} (the caller names the requirements). */
export function expectInvalidBodyRejected(exchange: Exchange, ctx: RuleContext, options: InvalidBodyOptions = {}): Judgement {
  return options.exactly400 ? statusWith(exchange, 400, ctx, 'failure') : statusWith(exchange, [400, 422], ctx, 'warning');
}

/** {@link answerErrorsInDocumentedShape} on an exchange (every caller decides GW-ERR-SHAPES with it). */
export function verifyErrorBody(exchange: Exchange, _ctx?: Omit<RuleContext, 'requirements'> & { requirements?: unknown }): Judgement {
  return answerErrorsInDocumentedShape.judge({ status: exchange.response?.status ?? 0, json: exchange.response?.json, exchange });
}

export interface GatewayErrorShapeOptions {
  /** which of the two documented shapes the caller's clause requires */
  shape: GatewayErrorShape;
  /** the `error` code required (only checked on the `{error, message}` shape) */
  code?: string;
}

/** Old-style: a gateway error body against one of the two shapes, with `code` on the `{error}` shape. */
function gatewayErrorShapeFinding(json: unknown, options: GatewayErrorShapeOptions, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the error body';
  const expectedShape = options.code && options.shape !== 'success-false'
    ? options.shape === 'error-code' ? `{error: "${options.code}", message}` : `{success: false, message} or {error: "${options.code}", message}`
    : SHAPE_TEXT[options.shape];
  const problem = errorShapeProblem(json, options.shape);
  if (problem !== undefined) return makeFinding(ctx, { code: 'error.shape', title: `${subject} has neither documented gateway error shape`, severity: 'failure', expected: expectedShape, actual: problem });
  const record = json as Record<string, unknown>;
  if (options.code !== undefined && typeof record.error === 'string' && record.error !== options.code && options.shape !== 'success-false') {
    return makeFinding(ctx, { code: 'error.code', title: `${subject} carries the wrong error code`, severity: 'failure', expected: `error = "${options.code}"`, actual: `error = ${show(record.error)} in ${show(json, 300)}` });
  }
  return undefined;
}

/** Old-style {@link answerErrorsInDocumentedShape} / {@link carryPinnedErrorCode} (the caller names the requirements). */
export function verifyGatewayErrorShape(json: unknown, options: GatewayErrorShapeOptions, ctx: RuleContext): Judgement {
  return judge(ctx, gatewayErrorShapeFinding(json, options, ctx));
}

/** Old-style "404 body `{error: NOT_FOUND, message}`". */
export function ensureErrorShapeNotFound(json: unknown, ctx: RuleContext): Judgement {
  return verifyGatewayErrorShape(json, { shape: 'error-code', code: 'NOT_FOUND' }, ctx);
}

/** Old-style "409 (`IDEMPOTENCY_CONFLICT`)". */
export function ensureErrorShapeIdempotencyConflict(json: unknown, ctx: RuleContext): Judgement {
  return verifyGatewayErrorShape(json, { shape: 'error-code', code: 'IDEMPOTENCY_CONFLICT' }, ctx);
}

export interface UnknownIdOptions {
  /** the body the 404 must carry: `not-found` ("404 body `{error: NOT_FOUND, message}`"), `either` documented shape, or `any` ("Response body: not shown") */
  body: 'not-found' | 'either' | 'any';
}

/**
 * Old-style: a by-id route called with an id that names no resource ("404 | resource not found").
 * 404 passes with the body the route documents; for a MALFORMED id ({@link idShape}) 400 and 414 pass
 * too, for a plausible one they and any other 4xx warn; a 2xx or 5xx fails; a dot segment decides
 * nothing.
 */
export function expectUnknownIdRefused(exchange: Exchange, id: string, ctx: RuleContext, options: UnknownIdOptions): Judgement {
  const shape = idShape(id);
  if (shape === 'dot-segment') return NOTHING_DECIDED;
  const status = exchange.response?.status;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange] };
  if (status === 404) {
    if (options.body === 'not-found') return ensureErrorShapeNotFound(exchange.response?.json, { ...c, subject: ctx.subject ?? 'the 404 body' });
    if (options.body === 'either') return verifyErrorBody(exchange);
    return judge(ctx);
  }
  return statusWith(exchange, shape === 'malformed' ? [404, 400, 414] : 404, c, 'warning');
}

/** Why an invalid card request must not be charged (each sentence allows different answers). */
export type CardViolation =
  /** "billingAddress required; without it the charge is refused before reaching the issuer" */
  | 'billing-address'
  /** "raw card number, CVV or expiry are never accepted" */
  | 'raw-card-data'
  /** any other field rule ("400 | invalid body") */
  | 'invalid-field';

/**
 * Old-style: an invalid card request is never charged. A 2xx charge `paid` or `pending` fails; a 2xx
 * charge `refused` passes for a missing billing address and raw card data and warns for another
 * invalid field. Otherwise billing address and raw data pass with any 4xx; another field follows
 * {@link expectInvalidBodyRejected}.
 */
export function expectCardRequestNotCharged(exchange: Exchange, ctx: RuleContext, violation: CardViolation, options: InvalidBodyOptions = {}): Judgement {
  const status = exchange.response?.status ?? 0;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange], pointer: ctx.pointer ?? '/data/status' };
  const prefix = ctx.subject !== undefined ? `${ctx.subject}: ` : '';
  if (status >= 200 && status <= 299) {
    const charged = dataOf(exchange.response?.json)?.status;
    if (charged === 'refused') {
      if (violation !== 'invalid-field') return judge(ctx);
      return judge(ctx, makeFinding(c, {
        code: 'card.status', severity: 'warning',
        title: `${prefix}an invalid card body was answered with a refused charge instead of an error`,
        expected: options.exactly400 ? 'HTTP 400' : 'HTTP 400 or 422 ("400 | invalid body")', actual: `HTTP ${status}, data.status = "refused"`,
      }));
    }
    return judge(ctx, makeFinding(c, {
      code: 'negative.accepted', severity: 'failure',
      title: `${prefix}an invalid card request produced a ${typeof charged === 'string' ? charged : 'card'} charge`,
      expected: violation === 'invalid-field' ? 'HTTP 400/422, or a charge with status "refused"' : 'a 4xx, or a charge with status "refused"',
      actual: `HTTP ${status}, data.status = ${show(charged)}`,
    }));
  }
  if (violation === 'invalid-field') return expectInvalidBodyRejected(exchange, ctx, options);
  return statusWith(exchange, '4xx', ctx, 'failure');
}
