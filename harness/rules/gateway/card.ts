/**
 * International card charges: gateway-api.md "POST /api/v1/card", "Customer (card request)", "Card
 * charge (response data)", the "Card charge" states and "What the service does" ("Approved card
 * payments do not become withdrawable balance immediately").
 *
 * Every export declared with `defineRule` is a rule (harness/rules/rule.ts): one sentence or table of
 * the contract, its requirement IDs, its codes. Observations are plain data: an answer's status, its
 * parsed JSON and its exchange, and what was sent.
 */
import type { Exchange } from '../../core/exchange.js';
import { dataOf, is2xx, isRecord } from '../../core/json.js';
import type { RequirementId } from '../finding.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule, type Verdict } from '../rule.js';
import { effectsAgree } from './balance.js';
import { BELOW_MINIMUM, narrowedToSchema, type Answer } from './fields.js';
import { answerErrorsInDocumentedShape, refuseInvalidRequestBody } from './errors.js';

/**
 * Whether a sent card carries a placeholder ("card.last4 / card.brand | echoed, not validated; a
 * placeholder is allowed"): a last4 that is not four digits, or a brand that names no card scheme.
 */
export function usesCardPlaceholder(card: { last4?: unknown; brand?: unknown }): boolean {
  const schemes = ['visa', 'mastercard', 'amex', 'american express', 'elo', 'hipercard', 'discover', 'diners', 'jcb', 'maestro', 'unionpay'];
  const last4 = typeof card.last4 === 'string' ? card.last4 : '';
  const brand = typeof card.brand === 'string' ? card.brand.trim().toLowerCase() : '';
  return !/^\d{4}$/.test(last4) || !schemes.includes(brand);
}

/** The parts of a valid card body whose clause its acceptance decides. */
export type CardPart = 'amount' | 'currency' | 'document' | 'tracking' | 'placeholder' | 'installments';

/** The clause a part of a valid body exercises (nothing when the body does not show it). */
function partClause(body: Readonly<Record<string, unknown>>, part: CardPart): RequirementId[] {
  const card = isRecord(body.card) ? body.card : {};
  const customer = isRecord(body.customer) ? body.customer : {};
  switch (part) {
    case 'amount':
      return ['GW-CARD-AMOUNT-MIN'];
    case 'currency':
      return ['GW-CARD-CURRENCY'];
    case 'document':
      return customer.document === '' ? ['GW-CARD-DOC-OPTIONAL'] : []; // "may be empty for international card"
    case 'tracking':
      return body.trackingParameters === undefined ? ['GW-CARD-TRACKING-OPTIONAL'] : []; // "trackingParameters | object | no"
    case 'placeholder':
      return usesCardPlaceholder(card) ? ['GW-CARD-PLACEHOLDER-ALLOWED'] : [];
    case 'installments':
      return card.installments === undefined ? [] : ['GW-CARD-INSTALLMENTS-ACCEPTED']; // "accepted but without effect"
  }
}

/** Raw card data next to (or instead of) the token: "raw card number, CVV or expiry are never accepted" (field names not shown). */
const RAW_CARD_FIELD = /^card\.(number|cardNumber|cvv|cvc|expiry|expiration|exp_month|exp_year|expMonth|expYear|pan)$/i;

/** "currency | … | `USD` or `EUR`; missing or `BRL` gives 400": the body leaves the currency out or sends BRL. */
function missingOrBrl(path: string, kind: string | undefined, value: unknown): boolean {
  return path === 'currency' && (kind === 'missing-required' || value === 'BRL');
}

/** The clause a body breaking the value at `path` breaks, by the kind of the break (and the value sent). */
function brokenClause(path: string, kind: string | undefined, value?: unknown): RequirementId[] {
  if (path === 'amountInCents') return [kind !== undefined && BELOW_MINIMUM.includes(kind) ? 'GW-CARD-AMOUNT-MIN' : 'GW-CARD-AMOUNT-INT'];
  if (path === 'currency') return missingOrBrl(path, kind, value) ? ['GW-CARD-CURRENCY-BRL-400'] : ['GW-CARD-CURRENCY'];
  if (RAW_CARD_FIELD.test(path) || path === 'card') return ['GW-CARD-RAW-DATA-REJECTED'];
  if (path === 'card.token') return ['GW-CARD-TOKEN-REQUIRED'];
  if (path === 'card.last4') return ['GW-CARD-LAST4-REQUIRED'];
  if (path === 'card.brand') return ['GW-CARD-BRAND-REQUIRED'];
  if (path === 'card.holderName') return ['GW-CARD-HOLDER-REQUIRED'];
  if (path === 'card.installments') return ['GW-CARD-INSTALLMENTS-MIN'];
  if (path === 'customer') return ['GW-CARD-CUSTOMER-OBJECT'];
  if (path.startsWith('customer.billingAddress')) return ['GW-CARD-BILLING-REQUIRED'];
  if (path === 'customer.documentType') return ['GW-CARD-DOCTYPE-ENUM'];
  if (path.startsWith('customer.')) return ['GW-CARD-CUSTOMER-REQUIRED'];
  return [];
}

/** The catalogue entries of the value at `path`, for mutants written by hand (generators/bodies.ts `Mutant.requirements`). */
export function cardRowRequirements(path: string, kind?: string, value?: unknown): RequirementId[] {
  return brokenClause(path, kind, value);
}

/**
 * Why an invalid card body must not be charged, which decides what else may answer it:
 * "billingAddress required; without it the charge is refused before reaching the issuer" and "raw
 * card number, CVV or expiry are never accepted" allow any refusal, a refused charge included;
 * "missing or `BRL` gives 400" fixes the status; any other field rule is "400 | invalid body".
 */
function violationOf(path: string, kind: string | undefined, value: unknown): 'billing-address' | 'raw-card-data' | 'exactly-400' | 'invalid-field' {
  if (path === 'customer' || path.startsWith('customer.billingAddress')) return 'billing-address';
  if (RAW_CARD_FIELD.test(path) || path === 'card') return 'raw-card-data';
  if (missingOrBrl(path, kind, value)) return 'exactly-400';
  return 'invalid-field';
}

const TABLE_REQUIREMENTS: readonly RequirementId[] = [
  'GW-CARD-SUCCESS-STATUS',
  'GW-CARD-AMOUNT-INT',
  'GW-CARD-AMOUNT-MIN',
  'GW-CARD-CURRENCY',
  'GW-CARD-CURRENCY-BRL-400',
  'GW-CARD-TOKEN-REQUIRED',
  'GW-CARD-RAW-DATA-REJECTED',
  'GW-CARD-LAST4-REQUIRED',
  'GW-CARD-BRAND-REQUIRED',
  'GW-CARD-PLACEHOLDER-ALLOWED',
  'GW-CARD-HOLDER-REQUIRED',
  'GW-CARD-INSTALLMENTS-MIN',
  'GW-CARD-INSTALLMENTS-ACCEPTED',
  'GW-CARD-CUSTOMER-OBJECT',
  'GW-CARD-CUSTOMER-REQUIRED',
  'GW-CARD-DOCTYPE-ENUM',
  'GW-CARD-DOC-OPTIONAL',
  'GW-CARD-BILLING-REQUIRED',
  'GW-CARD-TRACKING-OPTIONAL',
];

type TableCode = 'card.create-status' | 'card.invalid-charged' | 'card.invalid-refused-charge' | 'card.refusal-status' | 'card.open-status';

/** Inside the table rule: an invalid card body is never charged (see {@link honourCardRequest}). */
function judgeNotCharged(v: Verdict<TableCode>, answer: Answer, what: string, path: string, violation: ReturnType<typeof violationOf>): void {
  v.shows(answer.exchange);
  if (!answer.exchange.response) return v.unanswered(answer.exchange);
  if (is2xx(answer.status)) {
    const charged = dataOf(answer.json)?.status;
    if (charged === 'refused') {
      if (violation === 'billing-address' || violation === 'raw-card-data') return;
      return v.find('card.invalid-refused-charge', { title: `an invalid card body (${what}) was answered with a refused charge instead of an error`, expected: violation === 'exactly-400' ? 'HTTP 400' : 'HTTP 400 or 422 ("400 | invalid body")', actual: `HTTP ${answer.status}, data.status = "refused"` });
    }
    return v.find('card.invalid-charged', {
      title: `an invalid card request (${what}) produced a ${typeof charged === 'string' ? charged : 'card'} charge`,
      expected: violation === 'invalid-field' ? 'HTTP 400/422, or a charge with status "refused"' : violation === 'exactly-400' ? 'HTTP 400 ("missing or BRL gives 400")' : 'a 4xx, or a charge with status "refused"',
      actual: `HTTP ${answer.status}, data.status = ${show(charged)}`,
    });
  }
  if (violation === 'invalid-field' || violation === 'exactly-400') {
    v.apply(refuseInvalidRequestBody, { answer, what: `a card charge with ${what}`, field: path, card: true, exactly400: violation === 'exactly-400' });
    return;
  }
  // refused before reaching the issuer, or never accepted: any refusal
  judgeStatus(v, answer.exchange, '4xx', { unexpected: 'card.refusal-status' }, `a card charge with ${what}`);
  v.apply(answerErrorsInDocumentedShape, answer);
}

/**
 * What was sent to `POST /api/v1/card` and what came back, row by row of its table and of "Customer
 * (card request)":
 * - `valid`: a body every row allows. "Response: `success`, `data` (Card charge); the sample success
 *   status code is 201": any 2xx creates (201 is a sample; the caller notes another); a refusal
 *   fails. It decides the clauses of the parts the caller names in `exercises` that the body shows
 *   (an empty document, no trackingParameters, a placeholder last4 or brand, installments…);
 * - `breaks`: a body breaking the rule of the value at `path` (`kind`: the break; `value`: what was
 *   sent there; `requirements`: the schema's `x-requirement` at fault) is never charged: a 2xx charge
 *   `paid` or `pending` FAILS whatever the rule. A 2xx charge `refused` passes a missing billing
 *   address ("refused before reaching the issuer") and raw card data ("never accepted": not
 *   charged); for another field it WARNS ("400 | invalid body" is the documented answer, but card
 *   answers are "Usually synchronous (approved or refused)"). Otherwise the billing address and raw
 *   data pass any 4xx; "currency … missing or `BRL` gives 400" only 400; another field 400 or 422
 *   (another 4xx warns): that refusal is the Errors rule's (errors.ts `refuseInvalidRequestBody`);
 * - `open`: a value whose validity the text leaves open (a lower-case currency code, an amount
 *   beyond any stated maximum): accepted or refused, never a server error.
 */
export type CardRequestObservation =
  | { case: 'valid'; body: object; answer: Answer; exercises?: readonly CardPart[] }
  | { case: 'breaks'; path: string; kind?: string; value?: unknown; requirements?: readonly string[]; what: string; answer: Answer }
  | { case: 'open'; part: 'amount' | 'currency'; what: string; answer: Answer };

export const honourCardRequest = defineRule({
  name: 'honourCardRequest',
  requirements: TABLE_REQUIREMENTS,
  codes: {
    'card.create-status': 'failure',
    'card.invalid-charged': 'failure',
    'card.invalid-refused-charge': 'warning',
    'card.refusal-status': 'failure',
    'card.open-status': 'failure',
  },
  uses: [refuseInvalidRequestBody, answerErrorsInDocumentedShape],
  judge(observation: CardRequestObservation, v) {
    if (observation.case === 'open') {
      v.decides(observation.part === 'amount' ? 'GW-CARD-AMOUNT-MIN' : 'GW-CARD-CURRENCY');
      judgeStatus(v, observation.answer.exchange, ['2xx', '4xx'], { unexpected: 'card.open-status' }, `a card charge with ${observation.what}`);
      return;
    }
    if (observation.case === 'breaks') {
      const { path, kind, value, what, answer } = observation;
      const rows = narrowedToSchema(brokenClause(path, kind, value), observation.requirements ?? []);
      // a value of no row of the table (the description, an extra property): no sentence of it is broken
      if (rows.length === 0) return v.nothingToJudge();
      v.decides(...rows);
      return judgeNotCharged(v, answer, what, path, violationOf(path, kind, value));
    }
    const body = observation.body as Readonly<Record<string, unknown>>;
    v.decides('GW-CARD-SUCCESS-STATUS', ...new Set((observation.exercises ?? []).flatMap((part) => partClause(body, part))));
    judgeStatus(v, observation.answer.exchange, '2xx', { unexpected: 'card.create-status' }, 'a valid card charge');
  },
});

/** A 3DS/SCA challenge: "On a 3DS/SCA challenge the response carries `requiresAction` and `clientSecret`." */
export function isCardChallenge(answer: Pick<Answer, 'json'>): boolean {
  const data = dataOf(answer.json);
  const top = isRecord(answer.json) ? answer.json : {};
  const flag = data?.requiresAction ?? top.requiresAction;
  return data?.status === 'pending' && (Boolean(flag) || typeof (data?.clientSecret ?? top.clientSecret) === 'string');
}

const CARD_STATES = ['pending', 'paid', 'refused', 'canceled'];

/**
 * "(creation, sandbox) | POST /api/v1/card | any card.token without the text decline | paid |
 * synchronous response" and "card.token contains decline | refused". Given a 2xx answer:
 * - the status the token rule gives passes;
 * - `pending` on a 3DS/SCA challenge (`requiresAction`, `clientSecret`) passes (the caller notes it);
 *   `pending` otherwise WARNS ("Usually synchronous");
 * - another documented state fails; a value that is no documented state ("`paid`, `pending` or
 *   `refused`"; States adds `canceled`) fails those sentences too.
 */
export const ensureSandboxCardOutcome = defineRule({
  name: 'ensureSandboxCardOutcome',
  requirements: ['GW-CARD-SANDBOX-APPROVE', 'GW-CARD-SANDBOX-DECLINE', 'GW-CARD-SYNC', 'GW-CARD-RESP-STATUS-ENUM', 'GW-CARD-STATES'],
  codes: { 'card.status': 'failure', 'card.pending': 'warning' },
  judge(observation: { answer: Answer; token: string }, v) {
    const { answer, token } = observation;
    if (!is2xx(answer.status)) return v.nothingToJudge();
    const declined = token.includes('decline');
    const want = declined ? 'refused' : 'paid';
    const rule: RequirementId = declined ? 'GW-CARD-SANDBOX-DECLINE' : 'GW-CARD-SANDBOX-APPROVE';
    v.decides(rule, 'GW-CARD-SYNC', 'GW-CARD-RESP-STATUS-ENUM', 'GW-CARD-STATES');
    v.shows(answer.exchange);
    const status = dataOf(answer.json)?.status;
    if (status === want || isCardChallenge(answer)) return;
    if (status === 'pending') {
      return v.find('card.pending', { title: `a sandbox card charge that should be ${want} is pending`, expected: `data.status "${want}" ("Usually synchronous (approved or refused)")`, actual: 'data.status "pending" without requiresAction', pointer: '/data/status', requirements: ['GW-CARD-SYNC'] });
    }
    const documented = typeof status === 'string' && CARD_STATES.includes(status);
    v.find('card.status', {
      title: declined ? 'a sandbox token containing "decline" was not refused' : 'an approvable sandbox card charge was not approved',
      expected: `data.status "${want}"`,
      actual: `data.status ${show(status)}`,
      pointer: '/data/status',
      requirements: documented ? [rule] : [rule, 'GW-CARD-RESP-STATUS-ENUM', 'GW-CARD-STATES'],
    });
  },
});

/**
 * "card.brand and card.last4 (echoed exactly as sent, never validated or extracted)": a created
 * charge's `data.card.brand` and `data.card.last4` equal what was sent, placeholders included. A
 * pending 3DS/SCA challenge shows fields "not shown": nothing is decided.
 */
export const echoCardBrandAndLast4 = defineRule({
  name: 'echoCardBrandAndLast4',
  requirements: ['GW-CARD-ECHO-BRAND-LAST4'],
  codes: { 'card.echo': 'failure' },
  judge(observation: { answer: Answer; sent: { brand: string; last4: string } }, v) {
    const { answer, sent } = observation;
    if (!is2xx(answer.status) || isCardChallenge(answer)) return v.nothingToJudge();
    const card = dataOf(answer.json)?.card;
    const brand = isRecord(card) ? card.brand : undefined;
    const last4 = isRecord(card) ? card.last4 : undefined;
    if (brand === sent.brand && last4 === sent.last4) return;
    v.find('card.echo', { title: 'card.brand / card.last4 are not echoed exactly as sent', expected: `brand ${show(sent.brand)}, last4 ${show(sent.last4)}`, actual: `brand ${show(brand)}, last4 ${show(last4)}`, exchanges: [answer.exchange], pointer: '/data/card' });
  },
});

/** One answer to a card charge whose body differs from the others in `card.token` only. */
export interface TokenFormAnswer {
  token: string;
  exchange: Exchange;
}

/**
 * "card.token | … the service id (format `ctoken_...`)" against "Sandbox: any token is approved
 * (paid)": the two sentences contradict each other, so the sandbox is EXPECTED to approve any token,
 * and a refusal only WARNS (under the format reading an implementation may refuse a token without the
 * prefix, or check what follows `ctoken_` against the form of the ids it really issues, which the
 * text does not give; the reference fault `gw-card-token-pattern-from-sample` is judged under
 * --strict).
 * - `no-prefix`: a token without `ctoken_`: approved passes; a 4xx or a charge not `paid` warns; a
 *   5xx fails;
 * - `ctoken-forms`: the SAME body with several `ctoken_` tokens: some approved (2xx `paid`) and others
 *   clearly refused (an error status other than 429, or a `refused` charge) warns; when none is
 *   approved nothing is decided (the body itself is refused: the approval checks judge that); a 429,
 *   no answer or a `pending` charge counts neither way.
 */
export const approveTokensOfAnyForm = defineRule({
  name: 'approveTokensOfAnyForm',
  requirements: ['GW-CARD-TOKEN-FORMAT'],
  codes: { 'card.token-refused': 'warning', 'card.token-status': 'failure', 'card.token-form-refused': 'warning' },
  judge(observation: { case: 'no-prefix'; answer: Answer } | { case: 'ctoken-forms'; answers: readonly TokenFormAnswer[] }, v) {
    if (observation.case === 'no-prefix') {
      const { answer } = observation;
      v.shows(answer.exchange);
      if (!is2xx(answer.status)) {
        judgeStatus(v, answer.exchange, '2xx', { unexpected: 'card.token-status', otherClientError: 'card.token-refused' }, 'a card charge with a token without the ctoken_ prefix');
        return;
      }
      const charged = dataOf(answer.json)?.status;
      if (charged === 'paid') return;
      return v.find('card.token-refused', { title: 'a token without the ctoken_ prefix was not approved', expected: 'data.status = "paid" ("any token is approved")', actual: `HTTP ${answer.status}, data.status = ${show(charged)}`, pointer: '/data/status' });
    }
    const statusOf = (a: TokenFormAnswer): number => a.exchange.response?.status ?? 0;
    const chargeStatus = (a: TokenFormAnswer): unknown => dataOf(a.exchange.response?.json)?.status;
    const approved = (a: TokenFormAnswer): boolean => is2xx(statusOf(a)) && chargeStatus(a) === 'paid';
    const refusedForm = (a: TokenFormAnswer): boolean => (statusOf(a) >= 400 ? statusOf(a) !== 429 : is2xx(statusOf(a)) && chargeStatus(a) === 'refused');
    const ok = observation.answers.filter(approved);
    const refused = observation.answers.filter(refusedForm);
    if (ok.length === 0) return v.nothingToJudge();
    if (refused.length === 0) return;
    const describe = (a: TokenFormAnswer): string => `${show(a.token)} → HTTP ${a.exchange.response?.status ?? 'none'}, data.status ${show(chargeStatus(a))}`;
    v.find('card.token-form-refused', {
      title: 'a ctoken_ token was not approved while the same body with another ctoken_ token was',
      expected: 'every ctoken_ token approved in the sandbox ("any token is approved"; what follows ctoken_ is not given)',
      actual: `refused: ${refused.map(describe).join('; ')}; approved: ${ok.map(describe).join('; ')}`,
      exchanges: [...refused, ...ok].map((a) => a.exchange),
      pointer: '/card/token',
    });
  },
});

/** One quiet balance window around an approved card sale (suites/gateway/support.ts `balanceAround`). */
export interface CardSaleWindow {
  amount: number;
  /** pix.balance after − before, in cents */
  delta: number;
  exchange: Exchange;
  text: string;
}

/**
 * "Approved card payments do not become withdrawable balance immediately." Given the QUIET windows
 * (nothing else moved the balance around the sale) seen so far: the latest rising by less than half
 * the sale passes (the sale was not credited, whatever fee or conversion); two windows whose rises
 * AGREE ({@link effectsAgree}: the same ratio to the amount or the same offset) FAIL (a systematic
 * credit). Otherwise nothing is decided: concurrent credits of other checks give unrelated rises.
 */
export const keepCardSalesOffPixBalance = defineRule({
  name: 'keepCardSalesOffPixBalance',
  requirements: ['GW-CARD-NO-PIX-BALANCE'],
  codes: { 'card.credited-pix-balance': 'failure' },
  judge(windows: readonly CardSaleWindow[], v) {
    const latest = windows[windows.length - 1];
    if (!latest) return v.nothingToJudge();
    if (latest.delta * 2 < latest.amount) return;
    const asEffect = (w: CardSaleWindow) => ({ delta: w.delta, amount: w.amount, expected: 0 });
    const agreeing = windows.slice(0, -1).find((w) => w.delta * 2 >= w.amount && effectsAgree(asEffect(w), asEffect(latest)));
    if (!agreeing) return v.nothingToJudge();
    v.find('card.credited-pix-balance', {
      title: 'an approved card sale was credited to the withdrawable PIX balance at once',
      expected: 'pix.balance not raised by an approved card sale right after approval',
      actual: `two quiet windows with agreeing rises: ${agreeing.text}; ${latest.text}`,
      exchanges: [agreeing.exchange, latest.exchange],
    });
  },
});
