/**
 * Gateway error answers: the rules every invalid-request check of the gateway shares, so that the
 * latitude of each sentence is encoded once (errors.test.ts, fuzz-negative.test.ts, the area files).
 *
 * Contract (gateway-api.md, "Errors"): "Two body shapes occur: `{success: false, message}` and
 * `{error: <CODE>, message}`. Codes seen: `NOT_FOUND`, `IDEMPOTENCY_CONFLICT`. The full list of
 * codes: not shown."; "400 | invalid body …"; "404 | resource not found …"; "422 | validation
 * failure; message points to the field"; "429 | rate limited; body shape: not shown".
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus, type StatusExpectation } from '../status.js';
import { ensureErrorShapeNotFound, verifyDetailNamesField, verifyGatewayErrorShape } from '../errors.js';
import { dataOf, isRecord } from '../../core/json.js';

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

/**
 * An invalid body is refused: "400 | invalid body" and "422 | validation failure". Which of the two
 * a route answers is not stated, so 400 and 422 both pass; another 4xx is a WARNING (a refusal, not
 * with a documented meaning); a 2xx (accepted), a 5xx or no answer fails (a 429 stays a warning).
 * With `exactly400` ("currency … missing or BRL gives 400") only 400 passes. `ctx.subject` names
 * what was sent (it prefixes the finding titles).
 */
export function expectInvalidBodyRejected(exchange: Exchange, ctx: RuleContext, options: InvalidBodyOptions = {}): Judgement {
  return options.exactly400 ? statusWith(exchange, 400, ctx, 'failure') : statusWith(exchange, [400, 422], ctx, 'warning');
}

/**
 * An error body has one of the two documented shapes ("Two body shapes occur"), `message` a string
 * or a list of strings (GW-ERR-SHAPES: "The type of `message` is not stated"). Only 4xx answers are
 * judged, and not 401 nor 429: "429 | rate limited; body shape: not shown", and a 401 comes from the
 * authentication layer, before any route (issue 14: a 401 body of any shape is accepted). Anything
 * else decides nothing.
 */
export function verifyErrorBody(exchange: Exchange, ctx: RuleContext): Judgement {
  const status = exchange.response?.status ?? 0;
  if (status < 400 || status > 499 || status === 401 || status === 429) return NOTHING_DECIDED;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange], subject: ctx.subject ?? `the ${status} body` };
  return verifyGatewayErrorShape(exchange.response?.json, { shape: 'either' }, c);
}

/**
 * "422 | validation failure; message points to the field": on a 422 only, the message should name
 * the field (a WARNING when it does not: how it points is not stated). A 422 with no `message` at all
 * (neither a string, a list nor an object) has nothing that could point: FAILURE `error.no-message`. Other
 * statuses decide nothing.
 */
export function verifyMessageNamesField(exchange: Exchange, field: string, ctx: RuleContext): Judgement {
  if (exchange.response?.status !== 422 || field === '') return NOTHING_DECIDED;
  const json = exchange.response.json;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange] };
  const message = isRecord(json) ? json.message : undefined;
  // a structured message (e.g. `{amountInCents: "…"}`) can point to the field too: only a missing,
  // null, numeric or boolean message has nothing that could
  if (typeof message !== 'string' && !Array.isArray(message) && !isRecord(message)) {
    return judge(c, makeFinding(c, {
      code: 'error.no-message', title: 'a 422 carries no message to point to the field', severity: 'failure',
      expected: `a message naming the field "${field}" ("message points to the field")`, actual: show(json, 300),
    }));
  }
  return verifyDetailNamesField(json, field, c, { key: 'message' });
}

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

export interface UnknownIdOptions {
  /** the body the 404 must carry: `not-found` ("404 body `{error: NOT_FOUND, message}`"), `either` documented shape, or `any` ("Response body: not shown") */
  body: 'not-found' | 'either' | 'any';
}

/**
 * A by-id route called with an id that names no resource: "404 | resource not found". One rule for
 * the lookups, the sandbox simulations and the negative fuzzer:
 * - 404 passes, with the body the route documents (`options.body`);
 * - for a MALFORMED id (see {@link idShape}) 400 ("invalid request") and 414 (URI too long) pass too;
 *   for a plausible id they, and any other 4xx, are WARNINGS (the id format is not shown, so a
 *   target may read the id as malformed);
 * - a 2xx, a 5xx or no answer fails;
 * - a dot-segment id decides nothing (another route after URL normalisation; the caller notes it).
 */
export function expectUnknownIdRefused(exchange: Exchange, id: string, ctx: RuleContext, options: UnknownIdOptions): Judgement {
  const shape = idShape(id);
  if (shape === 'dot-segment') return NOTHING_DECIDED;
  const status = exchange.response?.status;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange] };
  if (status === 404) {
    if (options.body === 'not-found') return ensureErrorShapeNotFound(exchange.response?.json, { ...c, subject: ctx.subject ?? 'the 404 body' });
    if (options.body === 'either') return verifyErrorBody(exchange, c);
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
 * An invalid card request is never charged. A 2xx charge `paid` or `pending` (in processing) fails
 * whatever the violation. A 2xx charge `refused`:
 * - passes for a missing billing address ("refused before reaching the issuer") and for raw card
 *   data ("never accepted": not charged);
 * - is a WARNING for another invalid field: "400 | invalid body" is the documented answer, but card
 *   responses are "Usually synchronous (approved or refused)", so a refusal as a charge is plausible.
 * Otherwise: billing address and raw data pass with any 4xx; another field follows
 * {@link expectInvalidBodyRejected} (400/422, another 4xx warns; `exactly400` for the currency).
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
 * - wrongly typed OPTIONAL metadata (issue 14): "TrackingParameters (optional object …) All optional
 *   strings", and the PIX customer's "billingAddress | object | no". The card's billingAddress is
 *   required and complete: its fields stay firm.
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
