/**
 * PIX charges (cash-in): gateway-api.md "POST /api/v1/pix/in/qrcode", "GET …/{transactionId}",
 * "POST …/{transactionId}/pay (sandbox)", "Split", "PIX charge (response data)", the "PIX charge"
 * states and "What the service does" ("Paid PIX credit goes into the balance.").
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { verifyQrMatchesEmv } from '../qr.js';
import { dataOf } from '../../core/json.js';
import { expectInvalidBodyRejected, NOTHING_DECIDED } from './errors.js';

/**
 * `data.status` of a PIX charge answer is `expected`: "(creation) … valid request | pending";
 * "pending | …/pay … | paid"; GET: "same envelope as creation, with the current status". Failure
 * `pixin.status` otherwise.
 */
export function ensureChargeStatus(json: unknown, expected: 'pending' | 'paid', ctx: RuleContext): Judgement {
  const status = dataOf(json)?.status;
  if (status === expected) return judge(ctx);
  return judge(ctx, makeFinding({ pointer: '/data/status', ...ctx }, {
    code: 'pixin.status', severity: 'failure', title: `the PIX charge status is not ${expected}`,
    expected: `data.status = "${expected}"`, actual: `data.status = ${show(status)}`,
  }));
}

/** GET …/{transactionId} answers the charge asked for: `data.id` is the id looked up. Failure `pixin.lookup-id`. */
export function verifyLookupId(json: unknown, id: string, ctx: RuleContext): Judgement {
  const got = dataOf(json)?.id;
  if (got === id) return judge(ctx);
  return judge(ctx, makeFinding({ pointer: '/data/id', ...ctx }, {
    code: 'pixin.lookup-id', severity: 'failure', title: 'the lookup returns another charge', expected: `data.id = ${show(id)}`, actual: `data.id = ${show(got)}`,
  }));
}

/**
 * "POST …/pay (sandbox): No body. 200: success, message, data{id, status, endToEndId} with status
 * paid": the answer names the charge paid, its status is `paid` and it carries a non-empty
 * `endToEndId` (its format is judged by the identifiers rule where the contract fixes one).
 */
export function verifyPaidCharge(json: unknown, chargeId: string, ctx: RuleContext): Judgement {
  const data = dataOf(json);
  const e2e = data?.endToEndId;
  return combine(
    ensureChargeStatus(json, 'paid', ctx),
    judge(ctx,
      typeof e2e === 'string' && e2e !== ''
        ? undefined
        : makeFinding({ ...ctx, pointer: '/data/endToEndId' }, { code: 'pixin.pay-end-to-end', severity: 'failure', title: 'the paid charge carries no endToEndId', expected: 'data.endToEndId: a non-empty string', actual: show(e2e) }),
      data?.id === chargeId
        ? undefined
        : makeFinding({ ...ctx, pointer: '/data/id' }, { code: 'pixin.pay-id', severity: 'failure', title: 'the pay answer names another charge', expected: `data.id = ${show(chargeId)}`, actual: `data.id = ${show(data?.id)}` }),
    ),
  );
}

/**
 * "pix.qrCode | string | PNG image, base64" of the same charge as "pix.emv": decodes to exactly the
 * copy-and-paste string. An image that is no PNG decides GW-PIXIN-QRCODE-PNG (`ctx.requirements`);
 * an image of ANOTHER payload decides GW-PIXIN-QRCODE-MATCHES-EMV (the payer would pay something else).
 */
export function verifyChargeQrCode(qrCode: unknown, emv: unknown, ctx: RuleContext): Judgement {
  const j = verifyQrMatchesEmv(qrCode, emv, ctx);
  const mismatch = j.findings.some((f) => f.code === 'qr.mismatch');
  const findings = j.findings.map((f) => (f.code === 'qr.mismatch' ? { ...f, requirements: ['GW-PIXIN-QRCODE-MATCHES-EMV' as const] } : f));
  return { requirements: mismatch ? [...j.requirements, 'GW-PIXIN-QRCODE-MATCHES-EMV'] : [...j.requirements], findings };
}

/**
 * A valid alphanumeric CNPJ is accepted (contract README: "accepting it is expected of a current
 * implementation, so rejecting a valid one is a warning"): 200 passes, a 4xx is a WARNING, a 5xx or
 * another 2xx fails.
 */
export function expectAlphanumericCnpjAccepted(exchange: Exchange, document: string, ctx: RuleContext): Judgement {
  const j = expectStatus(exchange, 200, ctx, { otherClientError: 'warning' });
  return { requirements: j.requirements, findings: j.findings.map((f) => (f.severity === 'warning' ? { ...f, title: `a valid alphanumeric CNPJ (${document}) was refused: ${f.title}` } : f)) };
}

/** The kind of invalid PIX customer sent (generators/customers.ts `invalidPixCustomer`). */
export type InvalidCustomerKind = 'invalid-document' | 'bad-documentType' | 'documentType-mismatch' | string;

/**
 * "PIX … payments require a valid CPF or CNPJ", "documentType | cpf or cnpj": an invalid customer
 * is refused ({@link expectInvalidBodyRejected}). A valid CNPJ declared as `cpf` (or the reverse) is
 * a valid document of the other type: the text ties validity to the document, not in so many words
 * to documentType, so ACCEPTING it is a WARNING.
 */
export function expectInvalidCustomerRejected(exchange: Exchange, kind: InvalidCustomerKind, ctx: RuleContext): Judgement {
  const j = expectInvalidBodyRejected(exchange, ctx);
  const status = exchange.response?.status ?? 0;
  if (kind !== 'documentType-mismatch' || status < 200 || status > 299) return j;
  return { requirements: j.requirements, findings: j.findings.map((f) => ({ ...f, severity: 'warning' as const, title: `a document of the other type was accepted: ${f.title}` })) };
}

export interface SplitObservation {
  splits: readonly { percentage: number; email?: string }[];
  /** `company`: GATEWAY_SPLIT_EMAIL, a company on the platform; `unknown`: an e-mail of no company */
  recipient: 'company' | 'unknown';
}

/**
 * "Split: email | e-mail of another company on the platform; percentage | number | sum over all
 * entries must not exceed 100".
 * - a sum over 100 (exact decimal sum of the percentages, to the hundredth) is refused whatever the
 *   recipient ({@link expectInvalidBodyRejected});
 * - up to 100 with a company: 200; a refusal when the binary floating-point sum exceeds 100 (e.g.
 *   33.33 + 33.33 + 33.34) is a WARNING: the precision of `number` is not stated;
 * - up to 100 with an unknown e-mail: a refusal (400/422) passes; ACCEPTING is a WARNING (the text
 *   does not say when an unknown recipient is refused: the split "runs when the payment is confirmed").
 */
export function judgeSplitAnswer(exchange: Exchange, observation: SplitObservation, ctx: RuleContext): Judgement {
  const hundredths = observation.splits.reduce((sum, s) => sum + Math.round(s.percentage * 100), 0);
  const floatSum = observation.splits.reduce((sum, s) => sum + s.percentage, 0);
  if (hundredths > 10_000) return expectInvalidBodyRejected(exchange, ctx);
  const status = exchange.response?.status ?? 0;
  if (observation.recipient === 'unknown') {
    if (status < 200 || status > 299) return expectInvalidBodyRejected(exchange, ctx);
    return judge(ctx, makeFinding({ ...ctx, exchanges: ctx.exchanges ?? [exchange] }, {
      code: 'status.unexpected', severity: 'warning', title: 'a split to an e-mail that is no company on the platform was accepted',
      expected: 'HTTP 400 or 422 (the recipient must be "another company on the platform")', actual: `HTTP ${status}`,
    }));
  }
  // "email | e-mail of another company on the platform": nothing says one recipient may appear in
  // several entries, so refusing a list that repeats one is the target's choice, not a deviation
  const emails = observation.splits.flatMap((s) => (s.email !== undefined ? [s.email.toLowerCase()] : []));
  const repeated = new Set(emails).size < emails.length;
  if (repeated && status >= 400 && status <= 499 && status !== 429) return judge(ctx);
  const j = expectStatus(exchange, 200, ctx);
  if (status >= 400 && status <= 499 && status !== 429 && floatSum > 100) {
    return { requirements: j.requirements, findings: j.findings.map((f) => ({ ...f, severity: 'warning' as const, title: `percentages summing to ${hundredths / 100} in decimal (over 100 in binary floating point) were refused: ${f.title}` })) };
  }
  return j;
}

/**
 * The optional parts of a PIX charge body ("POST /api/v1/pix/in/qrcode" table, "Customer (PIX IN
 * request)"): the customer's name/email/phone, its billingAddress, items, trackingParameters,
 * splits and postbackUrl.
 */
export type ChargePart = 'customer-details' | 'billing-address' | 'items' | 'tracking' | 'splits' | 'postback';

/** The sentence a refusal breaks when the part is SENT (valid) … */
const SENT_REQUIREMENT: Record<ChargePart, RequirementId> = {
  'customer-details': 'GW-PIXIN-CUSTOMER-OPTIONAL', // "name | string | no" (email, phone alike)
  'billing-address': 'GW-ADDR-STRINGS', // "All strings: street, number, …"
  items: 'GW-PIXIN-ITEM-FIELDS', // "title | string | yes", tangible, quantity, amountInCents
  tracking: 'GW-TRACK-ACCEPTED', // "All optional strings: src, sck, utm_…"
  splits: 'GW-PIXIN-SPLIT-EMAIL', // "email | e-mail of another company on the platform"
  postback: 'GW-PIXIN-POSTBACK-URI', // "postbackUrl | string (URI) | no"
};

/** … and when it is LEFT OUT ("Required: no"). */
const OMITTED_REQUIREMENT: Record<ChargePart, RequirementId> = {
  'customer-details': 'GW-PIXIN-CUSTOMER-OPTIONAL',
  'billing-address': 'GW-PIXIN-CUSTOMER-OPTIONAL', // "billingAddress | object | no"
  items: 'GW-PIXIN-ITEMS-OPTIONAL',
  tracking: 'GW-PIXIN-TRACKING-OPTIONAL',
  splits: 'GW-PIXIN-SPLITS-OPTIONAL',
  postback: 'GW-PIXIN-POSTBACK-URI',
};

/**
 * The answers to valid PIX charge bodies that differ in their optional parts: the minimal body (the
 * required fields only), the full one (every part), the minimal body plus one part, the full body
 * less one part. Every one of them is valid, so each must be created (200).
 */
export interface ChargePartAnswers {
  minimal: Exchange;
  full: Exchange;
  withPart: Partial<Record<ChargePart, Exchange>>;
  withoutPart: Partial<Record<ChargePart, Exchange>>;
}

const created = (e: Exchange): boolean => e.response?.status === 200;

function distinctIds(ids: readonly RequirementId[]): RequirementId[] {
  return [...new Set(ids)];
}

/**
 * Valid bodies with and without each optional part are all created ("200: success, message, data").
 * A refusal is filed under the sentence it breaks, found by isolating the part:
 * - minimal + one part refused while the minimal body is created: that part's field sentence
 *   ({@link SENT_REQUIREMENT}); full less one part refused while the full body is created: "Required:
 *   no" of that part ({@link OMITTED_REQUIREMENT});
 * - the minimal body refused: the "Required: no" of every part, unless single omissions from the
 *   full body already show which part is wanted (then it adds nothing); symmetrically for the full
 *   body and single additions;
 * - both the minimal and the full body refused: a valid body is refused (GW-PIXIN-CREATE-200), the
 *   parts are not to blame, and the single variants decide nothing.
 */
export function judgeChargeParts(answers: ChargePartAnswers, ctx: RuleContext): Judgement {
  const parts = distinctParts(answers);
  const status = (e: Exchange, requirements: readonly RequirementId[], subject: string): Judgement => expectStatus(e, 200, { ...ctx, requirements: distinctIds(requirements), subject });
  const minimalOk = created(answers.minimal);
  const fullOk = created(answers.full);
  if (!minimalOk && !fullOk) {
    return combine(status(answers.minimal, ['GW-PIXIN-CREATE-200'], 'the minimal valid body'), status(answers.full, ['GW-PIXIN-CREATE-200'], 'the full valid body'));
  }
  const judgements: Judgement[] = [];
  const added = Object.entries(answers.withPart) as [ChargePart, Exchange][];
  const removed = Object.entries(answers.withoutPart) as [ChargePart, Exchange][];
  if (minimalOk) {
    judgements.push(status(answers.minimal, parts.map((p) => OMITTED_REQUIREMENT[p]), 'the minimal valid body'));
    for (const [part, e] of added) judgements.push(status(e, [SENT_REQUIREMENT[part]], `the minimal body with ${part}`));
  } else if (!removed.some(([, e]) => !created(e))) {
    judgements.push(status(answers.minimal, parts.map((p) => OMITTED_REQUIREMENT[p]), 'the minimal valid body (every optional part left out)'));
  }
  if (fullOk) {
    judgements.push(status(answers.full, parts.map((p) => SENT_REQUIREMENT[p]), 'the full valid body'));
    for (const [part, e] of removed) judgements.push(status(e, [OMITTED_REQUIREMENT[part]], `the full body without ${part}`));
  } else if (!added.some(([, e]) => !created(e))) {
    judgements.push(status(answers.full, parts.map((p) => SENT_REQUIREMENT[p]), 'the full valid body (every optional part sent)'));
  }
  return combine(...judgements);
}

function distinctParts(answers: ChargePartAnswers): ChargePart[] {
  return [...new Set([...Object.keys(answers.withPart), ...Object.keys(answers.withoutPart)] as ChargePart[])];
}

/**
 * What one attempt of a balance check saw across one money-moving call (support.balanceAround):
 * POST …/pay for a credit, POST …/complete for a debit.
 */
export interface BalanceWindow {
  /** the charge's or transfer's amount and its `fees` (cents; 0 when unknown) */
  amount: number;
  fees: number;
  /** how pix.balance moved across the call (or until a later read), in cents: after − before */
  delta: number;
  /** nothing else moved the balance just before nor just after the call */
  quiet: boolean;
  exchange: Exchange;
  /** one line describing the window, for the finding */
  text: string;
}

/** A window around POST …/pay. */
export type CreditWindow = BalanceWindow;

/**
 * Two observations of one systematic effect agree: the same ratio to the amount (within 1 % of it,
 * e.g. a fee taken twice, a currency conversion) or the same absolute offset from what was expected
 * (within 1 cent, e.g. a fixed fee). Concurrent activity of other files gives unrelated values, so
 * requiring agreement keeps a coincidence from reading as a deviation.
 */
export function effectsAgree(a: { delta: number; amount: number; expected: number }, b: { delta: number; amount: number; expected: number }): boolean {
  const ra = a.delta / a.amount;
  const rb = b.delta / b.amount;
  const sameRatio = Math.abs(ra - rb) <= 0.002 + 0.01 * Math.max(Math.abs(ra), Math.abs(rb));
  const sameOffset = Math.abs(a.delta - a.expected - (b.delta - b.expected)) <= 1;
  return sameRatio || sameOffset;
}

/**
 * "Paid PIX credit goes into the balance." Gross or net of `fees` is not stated (catalogue): a
 * credit anywhere in [amount − fees, amount] passes. The balance is account-wide and other checks
 * move it concurrently, so one window proves nothing: the rule is given every window seen so far and
 * DECIDES only when the latest shows a credit in range (pass) or two quiet windows with a wrong
 * credit agree ({@link effectsAgree}: a systematic deviation, failure `balance.pix-credit`).
 * Otherwise it decides nothing (the caller tries again, and notes when it gives up).
 */
export function judgePixCreditWindows(windows: readonly CreditWindow[], ctx: RuleContext): Judgement {
  const latest = windows[windows.length - 1];
  if (!latest) return NOTHING_DECIDED;
  if (latest.delta >= latest.amount - latest.fees && latest.delta <= latest.amount) return judge(ctx);
  const wrong = windows.filter((w) => w.quiet && !(w.delta >= w.amount - w.fees && w.delta <= w.amount));
  const asEffect = (w: CreditWindow) => ({ delta: w.delta, amount: w.amount, expected: w.amount - w.fees });
  const last = wrong[wrong.length - 1];
  if (!last || last !== latest) return NOTHING_DECIDED;
  const agreeing = wrong.slice(0, -1).find((w) => effectsAgree(asEffect(w), asEffect(last)));
  if (!agreeing) return NOTHING_DECIDED;
  return judge(ctx, makeFinding({ ...ctx, exchanges: [agreeing.exchange, last.exchange] }, {
    code: 'balance.pix-credit', severity: 'failure', title: 'the credit of a paid PIX charge does not reach pix.balance as amount (or amount − fees)',
    expected: 'pix.balance to rise by an amount between amount − fees and amount after /pay', actual: `${agreeing.text}; ${last.text}`,
  }));
}
