/**
 * International card charges: gateway-api.md "POST /api/v1/card", "Card charge (response data)",
 * the "Card charge" states and "What the service does" ("Approved card payments do not become
 * withdrawable balance immediately").
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { dataOf, isRecord } from '../../core/json.js';
import { NOTHING_DECIDED } from './errors.js';
import { effectsAgree } from './pix-charges.js';

/**
 * "Response: `success`, `data` (Card charge); the sample success status code is 201." 201 is a
 * sample, not a rule: any 2xx passes (the caller notes a status other than 201); a 4xx, a 5xx or no
 * answer fails (a 429 warns).
 */
export function expectCardChargeCreated(exchange: Exchange, ctx: RuleContext): Judgement {
  return expectStatus(exchange, '2xx', ctx);
}

/**
 * The sandbox outcome of a card charge: "(creation, sandbox) | any card.token without the text
 * decline | paid | synchronous response" and "card.token contains decline | refused". "Usually
 * synchronous (approved or refused)": `pending` is a WARNING (GW-CARD-SYNC); any other status than
 * the expected one fails (`card.status`).
 */
export function ensureCardOutcome(json: unknown, expected: 'paid' | 'refused', ctx: RuleContext): Judgement {
  const status = dataOf(json)?.status;
  if (status === expected) return judge(ctx);
  const c: RuleContext = { pointer: '/data/status', ...ctx };
  if (status === 'pending') {
    return judge(ctx, makeFinding(c, {
      code: 'card.status', severity: 'warning', requirements: ['GW-CARD-SYNC'], title: `a sandbox card charge that should be ${expected} is pending`,
      expected: `data.status = "${expected}" (usually synchronous)`, actual: 'data.status = "pending"',
    }));
  }
  return judge(ctx, makeFinding(c, {
    code: 'card.status', severity: 'failure', title: expected === 'paid' ? 'an approvable sandbox card charge was not approved' : 'a sandbox token containing "decline" was not refused',
    expected: `data.status = "${expected}"`, actual: `data.status = ${show(status)}`,
  }));
}

/**
 * "card.brand and card.last4 (echoed exactly as sent, never validated or extracted)": the answer's
 * `data.card.brand` and `data.card.last4` equal what was sent, placeholders included. Failure
 * `card.echo` otherwise.
 */
export function verifyCardEcho(json: unknown, sent: { brand: string; last4: string }, ctx: RuleContext): Judgement {
  const card = dataOf(json)?.card;
  const brand = isRecord(card) ? card.brand : undefined;
  const last4 = isRecord(card) ? card.last4 : undefined;
  if (brand === sent.brand && last4 === sent.last4) return judge(ctx);
  return judge(ctx, makeFinding({ pointer: '/data/card', ...ctx }, {
    code: 'card.echo', severity: 'failure', title: 'card.brand / card.last4 are not echoed exactly as sent',
    expected: `brand ${show(sent.brand)}, last4 ${show(sent.last4)}`, actual: `brand ${show(brand)}, last4 ${show(last4)}`,
  }));
}

/**
 * "card.token … format ctoken_..." against "Sandbox: any token is approved": the two readings
 * conflict (GW-CARD-TOKEN-FORMAT), so a token without the prefix is EXPECTED approved, and a
 * refusal (a 4xx, or a charge not `paid`) is only a WARNING. A 5xx or no answer fails.
 */
export function judgeTokenWithoutPrefix(exchange: Exchange, ctx: RuleContext): Judgement {
  const status = exchange.response?.status ?? 0;
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange] };
  if (status < 200 || status > 299) {
    const j = expectStatus(exchange, '2xx', ctx, { otherClientError: 'warning' });
    return { requirements: j.requirements, findings: j.findings.map((f) => (f.severity === 'warning' ? { ...f, title: `a token without the ctoken_ prefix was refused: ${f.title}` } : f)) };
  }
  const charged = dataOf(exchange.response?.json)?.status;
  if (charged === 'paid') return judge(ctx);
  return judge(ctx, makeFinding({ pointer: '/data/status', ...c }, {
    code: 'card.status', severity: 'warning', title: 'a token without the ctoken_ prefix was not approved',
    expected: 'data.status = "paid" ("any token is approved")', actual: `HTTP ${status}, data.status = ${show(charged)}`,
  }));
}

/** One quiet balance window around an approved card sale (support.balanceAround). */
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
 * AGREE ({@link effectsAgree}: the same ratio to the amount or the same offset) fail
 * (`card.credited-pix-balance`, a systematic credit). Otherwise nothing is decided: concurrent
 * credits of other checks give unrelated rises.
 */
export function judgeCardSaleWindows(windows: readonly CardSaleWindow[], ctx: RuleContext): Judgement {
  const latest = windows[windows.length - 1];
  if (!latest) return NOTHING_DECIDED;
  if (latest.delta * 2 < latest.amount) return judge(ctx);
  const asEffect = (w: CardSaleWindow) => ({ delta: w.delta, amount: w.amount, expected: 0 });
  const agreeing = windows.slice(0, -1).find((w) => w.delta * 2 >= w.amount && effectsAgree(asEffect(w), asEffect(latest)));
  if (!agreeing) return NOTHING_DECIDED;
  return judge(ctx, makeFinding({ ...ctx, exchanges: [agreeing.exchange, latest.exchange] }, {
    code: 'card.credited-pix-balance', severity: 'failure', title: 'an approved card sale was credited to the withdrawable PIX balance at once',
    expected: 'pix.balance not raised by an approved card sale right after approval', actual: `two quiet windows with agreeing rises: ${agreeing.text}; ${latest.text}`,
  }));
}

/**
 * Whether a sent card carries a placeholder ("card.last4 / card.brand | echoed, not validated; a
 * placeholder is allowed"): a last4 that is not four digits, or a brand that names no card scheme.
 * A refused charge then names GW-CARD-PLACEHOLDER-ALLOWED.
 */
export function usesCardPlaceholder(card: { last4?: unknown; brand?: unknown }): boolean {
  const schemes = ['visa', 'mastercard', 'amex', 'american express', 'elo', 'hipercard', 'discover', 'diners', 'jcb', 'maestro', 'unionpay'];
  const last4 = typeof card.last4 === 'string' ? card.last4 : '';
  const brand = typeof card.brand === 'string' ? card.brand.trim().toLowerCase() : '';
  return !/^\d{4}$/.test(last4) || !schemes.includes(brand);
}

/** One answer to a card charge whose body differs from the others in `card.token` only. */
export interface TokenFormAnswer {
  token: string;
  exchange: Exchange;
}

/**
 * "card.token … (format `ctoken_...`)" and "Sandbox: any token is approved (paid)". Given answers to
 * the SAME body with several `ctoken_` tokens: when some are approved (2xx, `paid`) and others are
 * refused (an error status other than 429, or a `refused` charge), the refusal can only be about the
 * token's form: a WARNING (`card.token-form-refused`). Not a failure: the two sentences contradict
 * each other (GW-CARD-TOKEN-FORMAT's ambiguity), and under the format reading an implementation may
 * check what follows `ctoken_` against the form of the ids it really issues (e.g. lowercase only, a
 * fixed length), which the text does not give; "any token is approved" alone would make it a failure
 * (the reference fault `gw-card-token-pattern-from-sample` is judged under --strict). When none is approved nothing
 * is decided here (the body itself is refused: the approval checks judge that); a 429, no answer or
 * a `pending` charge counts neither way.
 */
export function judgeCtokenForms(answers: readonly TokenFormAnswer[], ctx: RuleContext): Judgement {
  const statusOf = (a: TokenFormAnswer): number => a.exchange.response?.status ?? 0;
  const approved = (a: TokenFormAnswer): boolean => {
    const s = statusOf(a);
    return s >= 200 && s <= 299 && dataOf(a.exchange.response?.json)?.status === 'paid';
  };
  // only a clear refusal counts against a form: an error status other than 429 ("Every route can
  // answer … 429"), or a 2xx charge `refused`. No answer, a 429, or a 2xx `pending` (a 3DS challenge:
  // "Usually synchronous") says nothing about the token's form.
  const refusedForm = (a: TokenFormAnswer): boolean => {
    const s = statusOf(a);
    if (s >= 400) return s !== 429;
    return s >= 200 && s <= 299 && dataOf(a.exchange.response?.json)?.status === 'refused';
  };
  const ok = answers.filter(approved);
  const refused = answers.filter(refusedForm);
  if (ok.length === 0 || refused.length === 0) return ok.length > 0 ? judge(ctx) : NOTHING_DECIDED;
  const describe = (a: TokenFormAnswer): string => `${show(a.token)} → HTTP ${a.exchange.response?.status ?? 'none'}, data.status ${show(dataOf(a.exchange.response?.json)?.status)}`;
  return judge(ctx, makeFinding({ pointer: '/card/token', ...ctx, exchanges: [...refused, ...ok].map((a) => a.exchange) }, {
    code: 'card.token-form-refused', severity: 'warning', title: 'a ctoken_ token was not approved while the same body with another ctoken_ token was',
    expected: 'every ctoken_ token approved in the sandbox ("any token is approved"; what follows ctoken_ is not given)',
    actual: `refused: ${refused.map(describe).join('; ')}; approved: ${ok.map(describe).join('; ')}`,
  }));
}
