/**
 * PIX charges (cash-in): gateway-api.md "POST /api/v1/pix/in/qrcode", "GET …/{transactionId}",
 * "POST …/{transactionId}/pay (sandbox)", "Customer (PIX IN request)", "Item", "Split",
 * "TrackingParameters", "BillingAddress", "PIX charge (response data)" and the "PIX charge" states.
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
import { verifyBrCode, verifyDynamicBrCode } from '../emv.js';
import { verifyQrImage } from '../qr.js';
import { defineRule, type Verdict } from '../rule.js';
import { GATEWAY_STATES, pixChargeStateCell } from './state-matrix.js';
import { readCustomerDocument } from './documents-keys.js';
import { refuseInvalidRequestBody } from './errors.js';
import { BELOW_MINIMUM, judgeUnknownResource, narrowedToSchema, verifyMoneyInCents, type Answer } from './fields.js';

/**
 * The parts of a PIX charge body the request tables list, and the clause each one exercises when it
 * is sent (valid) or left out ("Required: no").
 */
const PARTS = {
  amount: { sent: 'GW-PIXIN-AMOUNT-MIN', omitted: undefined }, // "amountInCents | integer | yes | minimum 100"
  document: { sent: 'GW-PIXIN-DOC-VALID', omitted: undefined }, // "document | … | must be valid for PIX"
  'customer-details': { sent: 'GW-PIXIN-CUSTOMER-OPTIONAL', omitted: 'GW-PIXIN-CUSTOMER-OPTIONAL' }, // "name | string | no" (email, phone alike)
  'billing-address': { sent: 'GW-ADDR-STRINGS', omitted: 'GW-PIXIN-CUSTOMER-OPTIONAL' }, // "All strings: street, number, …"; "billingAddress | object | no"
  description: { sent: 'GW-PIXIN-DESC-MAX', omitted: 'GW-PIXIN-DESC-MAX' }, // "description | string | no | max 140"
  items: { sent: 'GW-PIXIN-ITEM-FIELDS', omitted: 'GW-PIXIN-ITEMS-OPTIONAL' }, // "title | string | yes", tangible, quantity, amountInCents
  tracking: { sent: 'GW-TRACK-ACCEPTED', omitted: 'GW-PIXIN-TRACKING-OPTIONAL' }, // "All optional strings: src, sck, utm_…"
  splits: { sent: 'GW-PIXIN-SPLIT-EMAIL', omitted: 'GW-PIXIN-SPLITS-OPTIONAL' }, // "email | e-mail of another company on the platform"
  postback: { sent: 'GW-PIXIN-POSTBACK-URI', omitted: 'GW-PIXIN-POSTBACK-URI' }, // "postbackUrl | string (URI) | no"
} as const satisfies Record<string, { sent: RequirementId; omitted: RequirementId | undefined }>;

export type ChargePart = keyof typeof PARTS;

/** Whether a body sends a part. */
function sends(body: Readonly<Record<string, unknown>>, part: ChargePart): boolean {
  const customer = isRecord(body.customer) ? body.customer : {};
  switch (part) {
    case 'amount':
      return body.amountInCents !== undefined;
    case 'document':
      return customer.document !== undefined;
    case 'customer-details':
      return customer.name !== undefined || customer.email !== undefined || customer.phone !== undefined;
    case 'billing-address':
      return customer.billingAddress !== undefined;
    case 'tracking':
      return body.trackingParameters !== undefined;
    case 'postback':
      return body.postbackUrl !== undefined;
    default:
      return body[part] !== undefined;
  }
}

/** The clause a part exercises in a body: its field rule when sent, "Required: no" when left out. */
function partClause(body: Readonly<Record<string, unknown>>, part: ChargePart): RequirementId[] {
  const row = PARTS[part];
  const id = sends(body, part) ? row.sent : row.omitted;
  return id === undefined ? [] : [id];
}

/**
 * The clause a body breaking the value at `path` (a dotted path of the request) breaks, by the kind
 * of the break (generators/bodies.ts `MutationKind`, generators/customers.ts kinds, boundary labels).
 */
function brokenClause(path: string, kind: string | undefined): RequirementId[] {
  const missing = kind === 'missing-required' || (kind?.startsWith('missing-') ?? false);
  // a valid document of the other type: the document is what "must be valid for PIX"
  if (kind === 'documentType-mismatch') return ['GW-PIXIN-DOC-VALID'];
  if (path === 'amountInCents') return [kind !== undefined && BELOW_MINIMUM.includes(kind) ? 'GW-PIXIN-AMOUNT-MIN' : 'GW-PIXIN-AMOUNT-INT'];
  if (path === 'customer') return ['GW-PIXIN-CUSTOMER-OBJECT'];
  if (path === 'customer.documentType') return [missing ? 'GW-PIXIN-CUSTOMER-REQUIRED' : 'GW-PIXIN-DOCTYPE-ENUM'];
  if (path === 'customer.document') return [missing ? 'GW-PIXIN-CUSTOMER-REQUIRED' : kind === 'digits' ? 'GW-PIXIN-DOC-DIGITS' : 'GW-PIXIN-DOC-VALID'];
  if (/^customer\.(name|email|phone)$/.test(path)) return ['GW-PIXIN-CUSTOMER-OPTIONAL'];
  if (path.startsWith('customer.billingAddress')) return ['GW-ADDR-STRINGS'];
  if (path.startsWith('customer.')) return ['GW-PIXIN-CUSTOMER-REQUIRED'];
  if (path === 'description') return ['GW-PIXIN-DESC-MAX'];
  if (path === 'postbackUrl') return ['GW-PIXIN-POSTBACK-URI'];
  if (path.startsWith('items')) return ['GW-PIXIN-ITEM-FIELDS'];
  if (path.startsWith('trackingParameters')) return ['GW-TRACK-ACCEPTED'];
  if (path.startsWith('splits')) return [path.endsWith('email') ? 'GW-PIXIN-SPLIT-EMAIL' : 'GW-PIXIN-SPLIT-SUM'];
  return [];
}

/** The catalogue entries of the value at `path`, for mutants written by hand (generators/bodies.ts `Mutant.requirements`). */
export function pixChargeRowRequirements(path: string, kind?: string): RequirementId[] {
  return brokenClause(path, kind);
}

const TABLE_REQUIREMENTS: readonly RequirementId[] = [
  'GW-PIXIN-CREATE-200',
  'GW-PIXIN-CREATE-400',
  'GW-PIXIN-AMOUNT-INT',
  'GW-PIXIN-AMOUNT-MIN',
  'GW-PIXIN-CUSTOMER-OBJECT',
  'GW-PIXIN-CUSTOMER-REQUIRED',
  'GW-PIXIN-CUSTOMER-OPTIONAL',
  'GW-PIXIN-DOCTYPE-ENUM',
  'GW-PIXIN-DOC-DIGITS',
  'GW-PIXIN-DOC-VALID',
  'GW-PIXIN-DOC-CNPJ-ALNUM',
  'GW-ADDR-STRINGS',
  'GW-PIXIN-DESC-MAX',
  'GW-PIXIN-POSTBACK-URI',
  'GW-PIXIN-ITEMS-OPTIONAL',
  'GW-PIXIN-ITEM-FIELDS',
  'GW-PIXIN-TRACKING-OPTIONAL',
  'GW-TRACK-ACCEPTED',
  'GW-PIXIN-SPLITS-OPTIONAL',
  'GW-PIXIN-SPLIT-EMAIL',
  'GW-PIXIN-SPLIT-SUM',
];

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

/** A split as sent, and who receives it: `company` (GATEWAY_SPLIT_EMAIL, a company on the platform) or an e-mail of no company. */
export interface SplitObservation {
  splits: readonly { percentage: number; email?: string }[];
  recipient: 'company' | 'unknown';
}

/**
 * What was sent to `POST /api/v1/pix/in/qrcode` and what came back ("200: `success`, `message`
 * (string), `data` (PIX charge). 400 invalid body."), row by row of its table and of "Customer (PIX
 * IN request)", "Item", "TrackingParameters", "BillingAddress" and "Split":
 * - `valid`: a body every row allows: created with exactly 200. It decides the clauses of the parts
 *   the caller names in `exercises` (each part's field rule when sent, its "Required: no" when left
 *   out); a refusal names them with "200";
 * - `parts`: valid bodies with and without each optional part (see {@link ChargePartAnswers}), all
 *   created. A refusal is filed under the clause it breaks, found by isolating the part: minimal +
 *   one part refused while the minimal body is created: that part's field rule; full less one part
 *   refused while the full body is created: that part's "Required: no". The minimal body refused: the
 *   "Required: no" of every part, unless single omissions from the full body already show which part
 *   is wanted (then it adds nothing); symmetrically for the full body. Both refused: a valid body is
 *   refused ("200"), the parts are not to blame and the single variants decide nothing;
 * - `breaks`: a body breaking the rule of the value at `path` (`kind`: the break; `requirements`:
 *   the schema's `x-requirement` at fault). Refused: "400 invalid body" or "422 validation failure"
 *   (which one is not stated; another 4xx warns; the refusal is the Errors rule's, errors.ts
 *   `refuseInvalidRequestBody`, with the error body and the field a 422 names). Accepting it fails, except a valid document of the
 *   other type (`documentType-mismatch`: the text ties validity to the document, not in so many
 *   words to documentType): a warning;
 * - `document`: a customer document read by the suite's own validator ({@link readCustomerDocument}):
 *   an invalid one is refused as above; a valid document with punctuation ("digits only", ambiguous)
 *   may be refused, accepting it warns; a valid alphanumeric CNPJ is expected to be accepted
 *   (contract README: "rejecting a valid one is a warning");
 * - `split`: "sum over all entries must not exceed 100": a sum over 100 (exact decimal sum, to the
 *   hundredth) is refused whatever the recipient; up to 100 with a company: created, a refusal when
 *   the binary floating-point sum exceeds 100 only warns (the precision of `number` is not stated),
 *   a list repeating one recipient may be refused (the text does not say it may repeat); up to 100
 *   with an e-mail of no company: a refusal passes, accepting it warns (the text does not say when
 *   an unknown recipient is refused: the split "runs when the payment is confirmed");
 * - `open`: a value whose validity the text leaves open (a multi-byte description near the limit, an
 *   amount beyond any stated maximum): accepted or refused, never a server error.
 */
export type PixChargeRequestObservation =
  | { case: 'valid'; body: object; answer: Answer; exercises?: readonly ChargePart[] }
  | { case: 'parts'; answers: ChargePartAnswers }
  | { case: 'breaks'; path: string; kind?: string; requirements?: readonly string[]; what: string; answer: Answer }
  | { case: 'document'; documentType: 'cpf' | 'cnpj'; document: string; what: string; answer: Answer }
  | { case: 'split'; split: SplitObservation; what: string; answer: Answer }
  | { case: 'open'; part: ChargePart; what: string; answer: Answer };

type TableCode =
  | 'pixin.create-status'
  | 'pixin.invalid-accepted'
  | 'pixin.borderline-accepted'
  | 'pixin.borderline-refusal-status'
  | 'pixin.open-status'
  | 'pixin.cnpj-alnum-refused'
  | 'pixin.split-refused'
  | 'pixin.split-refused-float'
  | 'pixin.split-unknown-accepted';

/**
 * Inside the table rule: an invalid body is refused, the refusal judged by the Errors rule
 * ("400 | invalid body", "422 | validation failure; message points to the field": errors.ts
 * `refuseInvalidRequestBody`); accepted, it fails or, for a value the text does not pin down, warns.
 */
function judgeRefusal(v: Verdict<TableCode>, answer: Answer, what: string, field: string | undefined, acceptedWhy?: string): void {
  v.shows(answer.exchange);
  if (!answer.exchange.response) return v.unanswered(answer.exchange);
  if (is2xx(answer.status)) {
    return v.find(acceptedWhy === undefined ? 'pixin.invalid-accepted' : 'pixin.borderline-accepted', {
      title: `a PIX charge with ${what}${acceptedWhy === undefined ? '' : ` (${acceptedWhy})`} was accepted`,
      expected: acceptedWhy === undefined ? 'HTTP 400 or 422 ("400 invalid body")' : 'a refusal, or an acceptance the text does not rule out (observation)',
      actual: `HTTP ${answer.status}, data.id ${show(dataOf(answer.json)?.id)}`,
    });
  }
  v.apply(refuseInvalidRequestBody, { answer, what: `a PIX charge with ${what}`, ...(field !== undefined ? { field } : {}) });
}

/** The parts case (see {@link PixChargeRequestObservation}). */
function judgeParts(v: Verdict<TableCode>, answers: ChargePartAnswers): void {
  const parts = [...new Set([...Object.keys(answers.withPart), ...Object.keys(answers.withoutPart)] as ChargePart[])];
  const all = [answers.minimal, answers.full, ...Object.values(answers.withPart), ...Object.values(answers.withoutPart)];
  const silent = all.find((e) => !e.response);
  if (silent) return v.unanswered(silent);
  const created = (e: Exchange): boolean => e.response?.status === 200;
  const decided = new Set<RequirementId>();
  const expect200 = (e: Exchange, requirements: readonly RequirementId[], subject: string): void => {
    for (const id of requirements) decided.add(id);
    const status = e.response?.status ?? 0;
    if (status === 200 || status === 429) return;
    v.find('pixin.create-status', { title: `${subject} was not created (HTTP ${status})`, expected: 'HTTP 200 (every part is "Required: no" and valid as sent)', actual: `HTTP ${status}, body ${show(e.response?.body ?? '', 300)}`, exchanges: [e], requirements: [...new Set(requirements)] });
  };
  const sent = (part: ChargePart): RequirementId => PARTS[part].sent;
  const omitted = (part: ChargePart): RequirementId => PARTS[part].omitted ?? PARTS[part].sent;
  const added = Object.entries(answers.withPart) as [ChargePart, Exchange][];
  const removed = Object.entries(answers.withoutPart) as [ChargePart, Exchange][];
  const minimalOk = created(answers.minimal);
  const fullOk = created(answers.full);
  if (!minimalOk && !fullOk) {
    expect200(answers.minimal, ['GW-PIXIN-CREATE-200'], 'the minimal valid body');
    expect200(answers.full, ['GW-PIXIN-CREATE-200'], 'the full valid body');
  } else {
    if (minimalOk) {
      expect200(answers.minimal, parts.map(omitted), 'the minimal valid body');
      for (const [part, e] of added) expect200(e, [sent(part)], `the minimal body with ${part}`);
    } else if (!removed.some(([, e]) => !created(e))) {
      expect200(answers.minimal, parts.map(omitted), 'the minimal valid body (every optional part left out)');
    }
    if (fullOk) {
      expect200(answers.full, parts.map(sent), 'the full valid body');
      for (const [part, e] of removed) expect200(e, [omitted(part)], `the full body without ${part}`);
    } else if (!added.some(([, e]) => !created(e))) {
      expect200(answers.full, parts.map(sent), 'the full valid body (every optional part sent)');
    }
  }
  if (decided.size === 0) return v.nothingToJudge();
  v.decides(...decided);
}

/** The split case (see {@link PixChargeRequestObservation}). */
function judgeSplit(v: Verdict<TableCode>, split: SplitObservation, what: string, answer: Answer): void {
  const hundredths = split.splits.reduce((sum, s) => sum + Math.round(s.percentage * 100), 0);
  if (hundredths > 10_000) {
    v.decides('GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400');
    return judgeRefusal(v, answer, what, 'splits');
  }
  v.shows(answer.exchange);
  if (!answer.exchange.response) return v.unanswered(answer.exchange);
  if (answer.status === 429) return v.nothingToJudge();
  const refused = answer.status >= 400 && answer.status <= 499;
  if (split.recipient === 'unknown') {
    v.decides('GW-PIXIN-SPLIT-EMAIL');
    if (!is2xx(answer.status)) {
      v.apply(refuseInvalidRequestBody, { answer, what: `a PIX charge with ${what}`, field: 'email' });
      return;
    }
    return v.find('pixin.split-unknown-accepted', { title: 'a split to an e-mail that is no company on the platform was accepted', expected: 'HTTP 400 or 422 (the recipient must be "another company on the platform")', actual: `HTTP ${answer.status}` });
  }
  v.decides('GW-PIXIN-SPLIT-SUM');
  // "email | e-mail of another company on the platform": nothing says one recipient may appear in
  // several entries, so refusing a list that repeats one is the target's choice, not a deviation
  const emails = split.splits.flatMap((s) => (s.email !== undefined ? [s.email.toLowerCase()] : []));
  if (refused && new Set(emails).size < emails.length) return;
  if (answer.status === 200) return;
  const floatSum = split.splits.reduce((sum, s) => sum + s.percentage, 0);
  v.find(refused && floatSum > 100 ? 'pixin.split-refused-float' : 'pixin.split-refused', {
    title: `a PIX charge with ${what} was not created${refused && floatSum > 100 ? ` (percentages summing to ${hundredths / 100} in decimal, over 100 in binary floating point)` : ''}`,
    expected: 'HTTP 200: the percentages sum to at most 100',
    actual: `HTTP ${answer.status}, body ${show(answer.exchange.response.body, 300)}`,
  });
}

export const honourPixChargeRequest = defineRule({
  name: 'honourPixChargeRequest',
  requirements: TABLE_REQUIREMENTS,
  codes: {
    'pixin.create-status': 'failure',
    'pixin.invalid-accepted': 'failure',
    'pixin.borderline-accepted': 'warning',
    'pixin.borderline-refusal-status': 'failure',
    'pixin.open-status': 'failure',
    'pixin.cnpj-alnum-refused': 'warning',
    'pixin.split-refused': 'failure',
    'pixin.split-refused-float': 'warning',
    'pixin.split-unknown-accepted': 'warning',
  },
  uses: [refuseInvalidRequestBody],
  judge(observation: PixChargeRequestObservation, v) {
    switch (observation.case) {
      case 'parts':
        return judgeParts(v, observation.answers);
      case 'split':
        return judgeSplit(v, observation.split, observation.what, observation.answer);
      case 'open':
        v.decides(PARTS[observation.part].sent);
        judgeStatus(v, observation.answer.exchange, ['2xx', '4xx'], { unexpected: 'pixin.open-status' }, `a PIX charge with ${observation.what}`);
        return;
      case 'breaks': {
        v.decides(...narrowedToSchema(brokenClause(observation.path, observation.kind), observation.requirements ?? []), 'GW-PIXIN-CREATE-400');
        return judgeRefusal(v, observation.answer, observation.what, observation.path, observation.kind === 'documentType-mismatch' ? 'a valid document of the other type' : undefined);
      }
      case 'document': {
        const { answer, what } = observation;
        const reading = readCustomerDocument(observation.documentType, observation.document);
        const alphanumeric = observation.documentType === 'cnpj' && /[A-Z]/.test(observation.document) && reading.standing === 'borderline' && !/[./-]/.test(observation.document);
        if (reading.standing === 'invalid') {
          v.decides('GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-400');
          return judgeRefusal(v, answer, `${what} (${reading.why})`, 'customer.document');
        }
        if (alphanumeric) {
          v.decides('GW-PIXIN-DOC-CNPJ-ALNUM');
          judgeStatus(v, answer.exchange, 200, { unexpected: 'pixin.create-status', otherClientError: 'pixin.cnpj-alnum-refused' }, `a PIX charge with ${what} (${reading.why})`);
          return;
        }
        if (reading.standing === 'borderline') {
          v.decides('GW-PIXIN-DOC-DIGITS');
          if (!answer.exchange.response) return v.unanswered(answer.exchange);
          if (is2xx(answer.status)) return judgeRefusal(v, answer, what, 'customer.document', reading.why);
          judgeStatus(v, answer.exchange, '4xx', { unexpected: 'pixin.borderline-refusal-status' }, `a PIX charge with ${what}`);
          return;
        }
        v.decides('GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-200');
        judgeStatus(v, answer.exchange, 200, { unexpected: 'pixin.create-status' }, `a PIX charge with ${what} (${reading.why})`);
        return;
      }
      case 'valid': {
        const body = observation.body as Readonly<Record<string, unknown>>;
        const clauses = (observation.exercises ?? []).flatMap((part) => partClause(body, part));
        v.decides('GW-PIXIN-CREATE-200', ...new Set(clauses));
        const parts = (observation.exercises ?? []).map((part) => `${part} ${sends(body, part) ? 'sent' : 'left out'}`).join(', ');
        judgeStatus(v, observation.answer.exchange, 200, { unexpected: 'pixin.create-status' }, `a valid PIX charge${parts ? ` (${parts})` : ''}`);
        return;
      }
    }
  },
});

/** "id | string | transaction id": a created PIX charge carries a non-empty string id (its only handle). */
export const verifyPixChargeId = defineRule({
  name: 'verifyPixChargeId',
  requirements: ['GW-PIXIN-RESP-ID'],
  codes: { 'pixin.id': 'failure' },
  judge(answer: Answer, v) {
    if (!is2xx(answer.status)) return v.nothingToJudge();
    const id = dataOf(answer.json)?.id;
    if (typeof id === 'string' && id !== '') return;
    v.find('pixin.id', { title: 'a created PIX charge has no usable id', expected: 'data.id: a non-empty string ("id | string | transaction id")', actual: `data.id ${show(id)}`, exchanges: [answer.exchange], pointer: '/data/id' });
  },
});

/** "(creation) | POST /api/v1/pix/in/qrcode | valid request | pending": a created charge is pending. */
export const ensurePixChargeCreatedPending = defineRule({
  name: 'ensurePixChargeCreatedPending',
  requirements: ['GW-PIXIN-CREATE-PENDING'],
  codes: { 'pixin.not-pending': 'failure' },
  judge(answer: Answer, v) {
    if (!is2xx(answer.status)) return v.nothingToJudge();
    const status = dataOf(answer.json)?.status;
    if (status === 'pending') return;
    v.find('pixin.not-pending', { title: 'a new PIX charge is not pending', expected: 'data.status "pending" ("(creation) … valid request | pending")', actual: `data.status ${show(status)}`, exchanges: [answer.exchange], pointer: '/data/status' });
  },
});

/**
 * The PIX charge as returned on creation ("PIX charge (response data)"): a usable id, pending, and
 * `fees` in integer cents. Field types are also judged by the contract validation of every exchange
 * (specs/gateway.openapi.yaml). The BR Code and its image: {@link verifyPixChargeBrCode}.
 */
export const verifyCreatedPixCharge = defineRule({
  name: 'verifyCreatedPixCharge',
  requirements: [],
  codes: {},
  uses: [verifyPixChargeId, ensurePixChargeCreatedPending, verifyMoneyInCents],
  judge(answer: Answer, v) {
    if (!is2xx(answer.status)) return v.nothingToJudge();
    v.apply(verifyPixChargeId, answer);
    v.apply(ensurePixChargeCreatedPending, answer);
    v.apply(verifyMoneyInCents, { resource: 'pix-charge', fields: { fees: dataOf(answer.json)?.fees }, exchange: answer.exchange });
  },
});

/**
 * "It creates PIX charges (dynamic QR code: an EMV copy-and-paste string plus a base64 PNG image)",
 * "pix.emv | string | copy-and-paste payload (EMV standard)", "pix.qrCode | string | PNG image,
 * base64": the copy-and-paste string is a dynamic BR Code with a correct CRC and the charged amount
 * (harness/rules/emv.ts), and the image is a PNG whose QR code decodes to exactly that string
 * (harness/rules/qr.ts): an image of ANOTHER payload would make the payer pay something else.
 */
export const verifyPixChargeBrCode = defineRule({
  name: 'verifyPixChargeBrCode',
  requirements: [],
  codes: {},
  uses: [verifyBrCode, verifyDynamicBrCode, verifyQrImage],
  judge(observation: { answer: Answer; amountCents: number }, v) {
    const { answer, amountCents } = observation;
    if (!is2xx(answer.status)) return v.nothingToJudge();
    const pix = dataOf(answer.json)?.pix;
    const emv = isRecord(pix) ? pix.emv : undefined;
    const qrCode = isRecord(pix) ? pix.qrCode : undefined;
    v.apply(verifyBrCode, { api: 'gateway', emv, amountCents, exchange: answer.exchange });
    v.apply(verifyDynamicBrCode, { api: 'gateway', emv, exchange: answer.exchange });
    v.apply(verifyQrImage, { qrCode, emv, exchange: answer.exchange });
  },
});

/**
 * "GET …/{transactionId}: 200: same envelope as creation, with the current status": a lookup of a
 * charge the account created answers 200 and names that charge (`data.id`); when the caller knows
 * what happened to it (`expected`: the one state the transitions allow), it shows that state.
 */
export const answerPixChargeLookup = defineRule({
  name: 'answerPixChargeLookup',
  requirements: ['GW-PIXIN-GET-200', 'GW-PIXIN-GET-CURRENT-STATUS'],
  codes: { 'pixin.lookup-status': 'failure', 'pixin.lookup-id': 'failure', 'pixin.lookup-state': 'failure' },
  judge(observation: { answer: Answer; id?: string; expected?: { status: string; why: string } }, v) {
    const { answer, id, expected } = observation;
    v.decides('GW-PIXIN-GET-200', ...(expected ? (['GW-PIXIN-GET-CURRENT-STATUS'] as const) : []));
    v.shows(answer.exchange);
    if (!judgeStatus(v, answer.exchange, 200, { unexpected: 'pixin.lookup-status' }, 'the lookup of a PIX charge')) return;
    const data = dataOf(answer.json);
    if (id !== undefined && data?.id !== id) {
      v.find('pixin.lookup-id', { title: 'the lookup returns another charge', expected: `data.id = ${show(id)}`, actual: `data.id = ${show(data?.id)}`, pointer: '/data/id', requirements: ['GW-PIXIN-GET-200'] });
    }
    if (expected && data?.status !== expected.status) {
      v.find('pixin.lookup-state', { title: `the PIX charge is ${show(data?.status)} ${expected.why}`, expected: `data.status "${expected.status}" ("with the current status")`, actual: `data.status ${show(data?.status)}`, pointer: '/data/status', requirements: ['GW-PIXIN-GET-CURRENT-STATUS'] });
    }
  },
});

/**
 * A charge id no charge of this account has: "GET …: 404 body `{error: NOT_FOUND, message}`" (the
 * lookup) and "/pay: 404 charge not found" (its body not pinned). See {@link judgeUnknownId} for the
 * ids the format leaves open.
 */
export const answerUnknownPixCharge = defineRule({
  name: 'answerUnknownPixCharge',
  requirements: ['GW-PIXIN-GET-404-SHAPE', 'GW-PIXIN-PAY-404'],
  codes: { 'pixin.unknown-status': 'failure', 'pixin.unknown-other-4xx': 'warning', 'pixin.unknown-body': 'failure' },
  judge(observation: { route: 'lookup' | 'pay'; id: string; answer: Answer }, v) {
    const { route, id, answer } = observation;
    v.decides(route === 'lookup' ? 'GW-PIXIN-GET-404-SHAPE' : 'GW-PIXIN-PAY-404');
    judgeUnknownResource(v, { id, answer, lookup: route === 'lookup' }, { unexpected: 'pixin.unknown-status', otherClientError: 'pixin.unknown-other-4xx', body: 'pixin.unknown-body' }, `${route === 'lookup' ? 'the lookup of' : '/pay of'} an unknown PIX charge`);
  },
});

/**
 * "pending | POST …/{transactionId}/pay (sandbox credentials) | charge is pending | paid"; "/pay: No
 * body. 200: `success`, `message`, `data{id, status, endToEndId}` with status `paid`": the answer is
 * exactly 200, names the charge paid, shows `paid` and carries a non-empty `endToEndId`.
 */
export const ensureChargePaid = defineRule({
  name: 'ensureChargePaid',
  requirements: ['GW-PIXIN-PAY-200', 'GW-PIXIN-PAY-PAID'],
  codes: { 'pixin.pay-status': 'failure', 'pixin.pay-state': 'failure', 'pixin.pay-e2e': 'failure', 'pixin.pay-id': 'failure' },
  relation: GATEWAY_STATES,
  judge(observation: { answer: Answer; chargeId: string }, v) {
    const { answer, chargeId } = observation;
    v.shows(answer.exchange);
    if (answer.exchange.response) v.covers(pixChargeStateCell('pending'));
    judgeStatus(v, answer.exchange, 200, { unexpected: 'pixin.pay-status' }, '/pay of a pending PIX charge');
    if (!is2xx(answer.status)) return;
    const data = dataOf(answer.json);
    if (data?.status !== 'paid') v.find('pixin.pay-state', { title: '/pay did not answer status paid', expected: 'data.status "paid"', actual: `data.status ${show(data?.status)}`, pointer: '/data/status' });
    const e2e = data?.endToEndId;
    if (typeof e2e !== 'string' || e2e === '') v.find('pixin.pay-e2e', { title: 'the paid charge carries no endToEndId', expected: 'data.endToEndId: a non-empty string', actual: show(e2e), pointer: '/data/endToEndId', requirements: ['GW-PIXIN-PAY-200'] });
    if (data?.id !== chargeId) v.find('pixin.pay-id', { title: 'the pay answer names another charge', expected: `data.id = ${show(chargeId)}`, actual: `data.id = ${show(data?.id)}`, pointer: '/data/id', requirements: ['GW-PIXIN-PAY-200'] });
  },
});

/** "/pay: 400 charge no longer pending": paying a paid charge again answers 400; a 2xx FAILS (the transition applied twice). */
export const refusePayOfPaidCharge = defineRule({
  name: 'refusePayOfPaidCharge',
  requirements: ['GW-PIXIN-PAY-NOT-PENDING-400'],
  codes: { 'pixin.paid-again': 'failure', 'pixin.pay-again-status': 'failure' },
  relation: GATEWAY_STATES,
  judge(answer: Answer, v) {
    v.shows(answer.exchange);
    if (answer.exchange.response) v.covers(pixChargeStateCell('paid'));
    if (is2xx(answer.status)) {
      return v.find('pixin.paid-again', { title: `paying an already paid charge answered ${answer.status}`, expected: 'HTTP 400 (charge no longer pending)', actual: `HTTP ${answer.status} ${show(answer.exchange.response?.body ?? '', 200)}` });
    }
    judgeStatus(v, answer.exchange, 400, { unexpected: 'pixin.pay-again-status' }, '/pay of a paid charge');
  },
});
