/**
 * Partner PIX charges: the charge's fields, its creation and its lookup (partner-cashin-api.md,
 * "PIX charge", "POST /v1/business/pix-charges", "GET /v1/business/pix-charges/:id").
 *
 * Every export declared with `defineRule` is a rule (harness/rules/rule.ts): one sentence or table of
 * the contract, its requirement IDs, its codes. The observation is plain data: the answer's status,
 * its parsed JSON and its exchange.
 */
import type { Exchange } from '../../core/exchange.js';
import type { PartnerChargeRequest } from '../../http/partner-client.js';
import type { RequirementId } from '../finding.js';
import { show } from '../judgement.js';
import { verifyBrCode, verifyDynamicBrCode } from '../emv.js';
import { writeIsoTimestamps } from '../time.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { isRecord } from '../../core/json.js';
import { refuseInvalidBody, type ErrorAnswer } from './errors.js';

export type Json = Record<string, unknown>;


/**
 * The charge object of an answer. "Response fields: not shown beyond being the current state of
 * the charge": a bare charge or one wrapped in `data` are both accepted.
 */
export function chargeOf(json: unknown): Json | undefined {
  if (!isRecord(json)) return undefined;
  return isRecord(json.data) && typeof json.data.id === 'string' && typeof json.id !== 'string' ? json.data : json;
}

/** A charge as an answer showed it. */
export interface ChargeSeen {
  charge: Json;
  exchange: Exchange;
}

/** "200: PIX charge.": a creation the contract accepts answers 200 with the charge. */
export const expectChargeCreated = defineRule({
  name: 'expectChargeCreated',
  requirements: ['PT-CHARGE-CREATE-200'],
  codes: { 'charge.create-status': 'failure' },
  judge(answer: ErrorAnswer, v) {
    judgeStatus(v, answer.exchange, 200, { unexpected: 'charge.create-status' }, 'a valid charge creation');
  },
});

/** "id | string | charge id": a created charge carries a non-empty string id (the only handle to it). */
export const verifyChargeId = defineRule({
  name: 'verifyChargeId',
  requirements: ['PT-CHARGE-FIELD-ID'],
  codes: { 'charge.id': 'failure' },
  judge(seen: { charge: Json | undefined; exchange: Exchange }, v) {
    const id = seen.charge?.id;
    if (typeof id === 'string' && id !== '') return;
    v.find('charge.id', { title: 'a created charge has no usable id', expected: 'id: a non-empty string ("id | string | charge id")', actual: `id ${show(id)}`, exchanges: [seen.exchange] });
  },
});

/** "A charge is created in `pending`". */
export const ensureCreatedPending = defineRule({
  name: 'ensureCreatedPending',
  requirements: ['PT-CHARGE-CREATE-PENDING'],
  codes: { 'charge.not-pending': 'failure' },
  judge(seen: ChargeSeen, v) {
    if (seen.charge.status === 'pending') return;
    v.find('charge.not-pending', { title: 'a new charge is not pending', expected: 'status "pending" ("A charge is created in `pending`")', actual: `status ${show(seen.charge.status)}`, exchanges: [seen.exchange] });
  },
});

/**
 * "amount_cents | integer | greater than zero": the charge carries the amount requested, wherever it
 * shows one (creation, lookup, list). The fields of a lookup and of a list are "not shown": without an
 * amount nothing is decided.
 */
export const verifyChargeAmount = defineRule({
  name: 'verifyChargeAmount',
  requirements: ['PT-CHARGE-FIELD-AMOUNT'],
  codes: { 'charge.amount': 'failure' },
  judge(seen: ChargeSeen & { sentCents: number; where: 'on creation' | 'on lookup' | 'in the list' }, v) {
    if (seen.where !== 'on creation' && !('amount_cents' in seen.charge)) return v.nothingToJudge();
    if (seen.charge.amount_cents === seen.sentCents) return;
    v.find('charge.amount', { title: `the charge amount ${seen.where} differs from the amount requested`, expected: `amount_cents ${seen.sentCents}`, actual: `amount_cents ${show(seen.charge.amount_cents)}`, exchanges: [seen.exchange] });
  },
});

/**
 * "external_ref | string | caller label, up to 120 the service; returned unchanged on lookups and in
 * webhooks": byte for byte (surrounding spaces and non-ASCII included), wherever it comes back.
 * Nothing to judge when the caller sent none.
 */
export const verifyExternalRefUnchanged = defineRule({
  name: 'verifyExternalRefUnchanged',
  requirements: ['PT-CHARGE-EXTREF-UNCHANGED'],
  codes: { 'charge.external-ref-changed': 'failure' },
  judge(observation: { seen: unknown; sent: string | undefined; where: string; exchanges: readonly (Exchange | undefined)[] }, v) {
    const { seen, sent } = observation;
    if (sent === undefined) return v.nothingToJudge();
    if (seen === sent) return;
    v.find('charge.external-ref-changed', { title: `external_ref is not returned unchanged ${observation.where}`, expected: `external_ref ${show(sent)}`, actual: `external_ref ${show(seen)}`, exchanges: observation.exchanges });
  },
});

/** Looks for image-like values ("No image is returned"): data:image URIs or base64 PNG/JPEG. */
export function imageLikeFields(charge: Json): string[] {
  return Object.entries(charge)
    .filter(([, v]) => typeof v === 'string' && (/^data:image\//i.test(v) || /^(iVBORw0KGgo|\/9j\/)/.test(v)))
    .map(([k]) => k);
}

/**
 * "No image is returned; the client generates the QR image." No field is named for an image, so
 * only image-like values can be looked for (PT-CHARGE-NO-IMAGE is marked ambiguous: a warning).
 */
export const ensureNoQrImage = defineRule({
  name: 'ensureNoQrImage',
  requirements: ['PT-CHARGE-NO-IMAGE'],
  codes: { 'charge.image': 'warning' },
  judge(seen: ChargeSeen, v) {
    const images = imageLikeFields(seen.charge);
    if (!images.length) return;
    v.find('charge.image', { title: 'the charge carries an image-like value', expected: 'no QR image ("the client generates the QR image")', actual: `image-like value in ${images.join(', ')}`, exchanges: [seen.exchange] });
  },
});

/** R$ 10,000,000,000.00: "10000000000.00" is 14 characters, one more than BR Code field 54 holds. */
export const UNREPRESENTABLE_AMOUNT_CENTS = 1_000_000_000_000;

/**
 * "Creates dynamic PIX charges and returns the copy-and-paste code (`qr_code`, standard central-bank
 * EMV payload)": the charge's BR Code, judged by the BR Code rules of both APIs (harness/rules/emv.ts):
 * a BR Code carrying the charge amount ({@link verifyBrCode}), and dynamic ({@link verifyDynamicBrCode}).
 *
 * An amount no BR Code can carry: "amount_cents | integer | greater than zero" states no maximum, and
 * field 54 holds at most 13 characters (R$ 9,999,999,999.99). A service may refuse a larger amount or
 * accept it; when it accepts it, its BR Code must still be one: every field within its limit (54 left
 * out, the dynamic payload location carrying the amount, is how that is done), the CRC right. The
 * BR Code rule does not compare such an amount.
 */
export const verifyChargeBrCode = defineRule({
  name: 'verifyChargeBrCode',
  requirements: [],
  codes: {},
  uses: [verifyBrCode, verifyDynamicBrCode],
  judge(seen: ChargeSeen & { amountCents: number }, v) {
    const emv = seen.charge.qr_code;
    v.apply(verifyBrCode, { api: 'partner', emv, amountCents: seen.amountCents, exchange: seen.exchange });
    v.apply(verifyDynamicBrCode, { api: 'partner', emv, exchange: seen.exchange });
  },
});

/**
 * The charge as returned on creation ("200: PIX charge."): a usable id, pending, the amount sent, the
 * external_ref unchanged, the BR Code, UTC timestamps, no image. Field types are judged by the
 * contract validation of every exchange (specs/partner.openapi.yaml).
 */
export const verifyCreatedCharge = defineRule({
  name: 'verifyCreatedCharge',
  requirements: [],
  codes: {},
  uses: [verifyChargeId, ensureCreatedPending, verifyChargeAmount, verifyExternalRefUnchanged, verifyChargeBrCode, writeIsoTimestamps, ensureNoQrImage],
  judge(observation: ChargeSeen & { sent: PartnerChargeRequest }, v) {
    const { charge, sent, exchange } = observation;
    v.apply(verifyChargeId, { charge, exchange });
    v.apply(ensureCreatedPending, { charge, exchange });
    v.apply(verifyChargeAmount, { charge, exchange, sentCents: sent.amount_cents, where: 'on creation' });
    v.apply(verifyExternalRefUnchanged, { seen: charge.external_ref, sent: sent.external_ref, where: 'on creation', exchanges: [exchange] });
    v.apply(verifyChargeBrCode, { charge, exchange, amountCents: sent.amount_cents });
    v.apply(writeIsoTimestamps, { row: 'partner-charge', fields: { created_at: charge.created_at, expires_at: charge.expires_at }, exchange });
    v.apply(ensureNoQrImage, { charge, exchange });
  },
});

/**
 * "GET …/:id Returns the current state of the charge": a lookup of a charge the account has answers
 * 2xx, and, when the caller knows what happened to the charge, shows the one state the transitions
 * allow (`expected`, with `why` for the texts). A rate-limited or unanswered lookup decides nothing.
 */
export const answerChargeLookup = defineRule({
  name: 'answerChargeLookup',
  requirements: ['PT-CHARGE-GET-CURRENT'],
  codes: { 'charge.lookup-status': 'failure', 'charge.lookup-state': 'failure' },
  judge(observation: ErrorAnswer | { answer: ErrorAnswer; expected: string; why: string }, v) {
    const answer = 'answer' in observation ? observation.answer : observation;
    if (!judgeStatus(v, answer.exchange, '2xx', { unexpected: 'charge.lookup-status' }, 'a lookup of an existing charge') || !('expected' in observation)) return;
    const state = chargeOf(answer.json)?.status;
    if (state === observation.expected) return;
    v.find('charge.lookup-state', { title: `the charge is not ${observation.expected} ${observation.why}`, expected: `status "${observation.expected}"`, actual: `HTTP ${answer.status}, status ${show(state)}`, exchanges: [answer.exchange] });
  },
});

/**
 * A lookup of a charge we know ("Response fields: not shown beyond being the current state of the
 * charge"): the same amount and external_ref when shown; an omitted external_ref only warns
 * (PT-CHARGE-GET-FIELDS is ambiguous in the catalogue).
 */
export const verifyLookedUpCharge = defineRule({
  name: 'verifyLookedUpCharge',
  requirements: ['PT-CHARGE-GET-FIELDS'],
  codes: { 'charge.lookup-fields': 'warning' },
  uses: [verifyChargeAmount, verifyExternalRefUnchanged],
  judge(observation: ChargeSeen & { sent: PartnerChargeRequest }, v) {
    const { charge, sent, exchange } = observation;
    v.apply(verifyChargeAmount, { charge, exchange, sentCents: sent.amount_cents, where: 'on lookup' });
    if (sent.external_ref !== undefined && !('external_ref' in charge)) {
      return v.find('charge.lookup-fields', { title: 'the lookup omits external_ref', expected: 'the documented charge fields, external_ref included ("returned unchanged on lookups")', actual: show(charge, 300), exchanges: [exchange] });
    }
    v.apply(verifyExternalRefUnchanged, { seen: charge.external_ref, sent: sent.external_ref, where: 'on lookup', exchanges: [exchange] });
  },
});

/** Tolerance for `expires_at − created_at`: the two may be stamped at slightly different moments. */
export const LIFETIME_SKEW_SECONDS = 5;

/** expires_at − created_at in seconds, both read from the charge (the service's own clock). */
export function lifetimeSeconds(charge: Json): number | undefined {
  if (typeof charge.expires_at !== 'string' || typeof charge.created_at !== 'string') return undefined;
  const d = (Date.parse(charge.expires_at) - Date.parse(charge.created_at)) / 1000;
  return Number.isFinite(d) ? d : undefined;
}

/**
 * "expires_in_seconds | integer | no | 60 to 86400; default 3600": a charge created without it
 * expires 3600 s after its created_at (PT-CHARGE-EXPIRES-DEFAULT, stated); one created with it
 * expires that long after (PT-CHARGE-EXPIRES-APPLIED: the text never says so in so many words, the
 * catalogue caps it at a warning); both within {@link LIFETIME_SKEW_SECONDS}.
 */
export const verifyChargeLifetime = defineRule({
  name: 'verifyChargeLifetime',
  requirements: ['PT-CHARGE-EXPIRES-DEFAULT', 'PT-CHARGE-EXPIRES-APPLIED'],
  codes: { 'charge.expiry-default': 'failure', 'charge.expiry-applied': 'failure' },
  judge(observation: ChargeSeen & { requestedSeconds: number | undefined }, v) {
    const byDefault = observation.requestedSeconds === undefined;
    const seconds = observation.requestedSeconds ?? 3600;
    v.decides(byDefault ? 'PT-CHARGE-EXPIRES-DEFAULT' : 'PT-CHARGE-EXPIRES-APPLIED');
    const life = lifetimeSeconds(observation.charge);
    if (life !== undefined && Math.abs(life - seconds) <= LIFETIME_SKEW_SECONDS) return;
    v.find(byDefault ? 'charge.expiry-default' : 'charge.expiry-applied', {
      title: `expires_at is not created_at + ${seconds} s`,
      expected: `expires_at ≈ created_at + ${seconds} s (± ${LIFETIME_SKEW_SECONDS} s)`,
      actual: `created_at ${show(observation.charge.created_at)}, expires_at ${show(observation.charge.expires_at)} (${life ?? '?'} s)`,
      exchanges: [observation.exchange],
    });
  },
});

/**
 * The request table of `POST /v1/business/pix-charges` ("Field | Type | Required | Rule"), row by row:
 * the requirement each row states (the catalogue entries of its clauses), and how a `detail` may point
 * at the field ("detail points to the field"; wording not shown), lower case.
 */
const REQUEST_ROWS = {
  amount_cents: { requirements: ['PT-CHARGE-AMOUNT-REQUIRED', 'PT-CHARGE-AMOUNT-INTEGER', 'PT-CHARGE-AMOUNT-POSITIVE'], optional: undefined, words: ['amount'] },
  description: { requirements: ['PT-CHARGE-DESC-MAX'], optional: 'PT-CHARGE-DESC-MAX', words: ['description'] },
  external_ref: { requirements: ['PT-CHARGE-EXTREF-MAX'], optional: 'PT-CHARGE-EXTREF-MAX', words: ['external_ref', 'external ref', 'externalref'] },
  customer_email: { requirements: ['PT-CHARGE-EMAIL-OPTIONAL'], optional: 'PT-CHARGE-EMAIL-OPTIONAL', words: ['email', 'e-mail'] },
  expires_in_seconds: { requirements: ['PT-CHARGE-EXPIRES-RANGE'], optional: 'PT-CHARGE-EXPIRES-RANGE', words: ['expires_in', 'expir'] },
} as const satisfies Record<string, { requirements: readonly RequirementId[]; optional: RequirementId | undefined; words: readonly string[] }>;

export type ChargeRequestField = keyof typeof REQUEST_ROWS;
const OPTIONAL_FIELDS = (Object.keys(REQUEST_ROWS) as ChargeRequestField[]).filter((f) => REQUEST_ROWS[f].optional !== undefined);
const ROW_REQUIREMENTS: readonly RequirementId[] = [...new Set(Object.values(REQUEST_ROWS).flatMap((row) => row.requirements))];

/**
 * What was sent to `POST /v1/business/pix-charges` and what came back:
 * - `valid`: a body every row allows: it must be accepted. It decides the rows of the optional fields
 *   it leaves out ("| no |") and of the fields whose value sits at the edge of their rule (`edges`:
 *   300 characters of description). A refusal is filed under those rows the `detail` names, else
 *   under all of them; a detail naming only another value that was sent refuses that value, which
 *   the caller's creation status rule judges, and decides nothing here;
 * - `breaks`: a body breaking one row's rule (`requirements`: the row's clause, from the spec's
 *   `x-requirement` of the broken constraint): it must be refused, the refusal judged by
 *   {@link refuseInvalidBody} ("422 | invalid request body; detail points to the field").
 */
export type ChargeRequestObservation =
  | { case: 'valid'; body: Readonly<Partial<Record<ChargeRequestField, unknown>>>; answer: ErrorAnswer; edges?: readonly ChargeRequestField[] }
  | { case: 'breaks'; field: string; kind: string; requirements: readonly string[]; what: string; answer: ErrorAnswer; oversized?: boolean };

/** The clause of amount_cents' row a mutation breaks ("integer | yes | greater than zero"). */
const AMOUNT_CLAUSES: Readonly<Record<string, RequirementId>> = {
  'missing-required': 'PT-CHARGE-AMOUNT-REQUIRED',
  'below-minimum': 'PT-CHARGE-AMOUNT-POSITIVE',
  'wrong-type': 'PT-CHARGE-AMOUNT-INTEGER',
  'not-integer': 'PT-CHARGE-AMOUNT-INTEGER',
};

/** The rows a broken body decides: the schema's `x-requirement` of the constraint, within the field's row. */
function brokenRows(field: string, kind: string, fromSchema: readonly string[]): RequirementId[] {
  const row = (REQUEST_ROWS as Record<string, { requirements: readonly RequirementId[] } | undefined>)[field];
  if (row === undefined) return [];
  const clause = field === 'amount_cents' ? AMOUNT_CLAUSES[kind] : undefined;
  const candidates = clause !== undefined ? [clause] : row.requirements;
  const named = candidates.filter((id) => fromSchema.includes(id));
  return named.length > 0 ? named : [...candidates];
}

export const honourChargeRequestTable = defineRule({
  name: 'honourChargeRequestTable',
  requirements: ROW_REQUIREMENTS,
  codes: { 'charge-request.valid-body-refused': 'failure', 'charge-request.invalid-body-accepted': 'failure' },
  uses: [refuseInvalidBody],
  judge(observation: ChargeRequestObservation, v) {
    const { answer } = observation;
    v.shows(answer.exchange);
    if (!answer.exchange.response) return v.unanswered(answer.exchange);
    if (answer.status === 429) return v.nothingToJudge();
    if (observation.case === 'breaks') {
      // a field outside the table (an unexpected property): only the 422 row is decided
      v.decides(...brokenRows(observation.field, observation.kind, observation.requirements));
      if (answer.status >= 200 && answer.status <= 299) {
        v.find('charge-request.invalid-body-accepted', { title: `a body breaking a documented rule was accepted (${observation.what})`, expected: 'HTTP 422 {detail}', actual: `HTTP ${answer.status} ${answer.exchange.response.body.slice(0, 200)}` });
        return;
      }
      v.apply(refuseInvalidBody, { answer, what: observation.what, ...(observation.oversized ? { kind: 'oversized' as const } : { kind: 'field' as const, field: observation.field }) });
      return;
    }
    const sent = observation.body;
    const omitted = OPTIONAL_FIELDS.filter((f) => sent[f] === undefined);
    const edges = (observation.edges ?? []).filter((f) => sent[f] !== undefined);
    const rowsOf = (fields: readonly ChargeRequestField[]): RequirementId[] => [...new Set(fields.flatMap((f) => (omitted.includes(f) ? [REQUEST_ROWS[f].optional as RequirementId] : [...REQUEST_ROWS[f].requirements])))];
    if (answer.status >= 200 && answer.status <= 299) {
      if (omitted.length + edges.length === 0) return v.nothingToJudge();
      return v.decides(...rowsOf([...omitted, ...edges]));
    }
    const detail = isRecord(answer.json) && typeof answer.json.detail === 'string' ? answer.json.detail : '';
    const lower = detail.toLowerCase();
    const points = (field: ChargeRequestField): boolean => REQUEST_ROWS[field].words.some((w) => lower.includes(w));
    const named = (Object.keys(REQUEST_ROWS) as ChargeRequestField[]).filter((f) => points(f) && (omitted.includes(f) || edges.includes(f)));
    const namedOther = (Object.keys(REQUEST_ROWS) as ChargeRequestField[]).some((f) => points(f) && sent[f] !== undefined && !edges.includes(f));
    // a detail that points only at another value we sent refuses that value: the caller's creation
    // status rule judges it (PT-CHARGE-CREATE-200), nothing is decided here
    if (named.length === 0 && namedOther) return v.nothingToJudge();
    const blamed = named.length > 0 ? named : [...omitted, ...edges];
    if (blamed.length === 0) return v.nothingToJudge();
    v.decides(...rowsOf(blamed));
    v.find('charge-request.valid-body-refused', {
      title: `a valid charge body was refused (${blamed.map((f) => (omitted.includes(f) ? `without ${f}` : `${f} at the edge of its rule`)).join(', ')})`,
      expected: `200: only amount_cents is required, and every value sent is within its row's rule`,
      actual: `HTTP ${answer.status}${detail ? `, detail ${show(detail)}` : ''}`,
    });
  },
});

/**
 * "description | string | no | max 300" / "external_ref | string | no | max 120": a short text with
 * accents and an emoji is within the limit however characters are counted (code points, UTF-16 units
 * or UTF-8 bytes), so it is a valid value; a refusal only warns (the text names no character set,
 * though it allows no refusal either; the catalogue caps both requirements at a warning: a crash, a
 * 5xx, fails through the contract rule that judges every answer). Near the limit the counting is
 * open, and so is odd Unicode inside the limits (a bidi override, stacked combining marks, a BOM,
 * full-width forms: `odd`, sent in both fields): those answers are only observed (any 2xx or 4xx).
 */
export const acceptMultibyteTexts = defineRule({
  name: 'acceptMultibyteTexts',
  requirements: ['PT-CHARGE-DESC-MULTIBYTE', 'PT-CHARGE-EXTREF-MULTIBYTE'],
  codes: { 'multibyte.short-refused': 'warning', 'multibyte.status': 'failure' },
  judge(observation: { field: 'description' | 'external_ref'; near: 'short' | 'at-limit'; answer: ErrorAnswer } | { field: 'both'; near: 'odd'; text: string; answer: ErrorAnswer }, v) {
    if (observation.field !== 'both') v.decides(observation.field === 'description' ? 'PT-CHARGE-DESC-MULTIBYTE' : 'PT-CHARGE-EXTREF-MULTIBYTE');
    const what = observation.near === 'odd' ? `description and external_ref ${show(observation.text)}` : `${observation.field} in multi-byte text${observation.near === 'short' ? '' : ' at the limit'}`;
    if (observation.near === 'short') judgeStatus(v, observation.answer.exchange, 200, { unexpected: 'multibyte.status', otherClientError: 'multibyte.short-refused' }, what);
    else judgeStatus(v, observation.answer.exchange, ['2xx', '4xx'], { unexpected: 'multibyte.status' }, what);
  },
});

/**
 * "e2e_id | string | end-to-end identifier": every confirmed PIX has one, and the pay route confirms
 * "as if the PIX were paid", so a paid charge carries its e2e_id wherever it is shown:
 * - `charge`: a lookup of a paid charge (before payment it may be absent: not judged);
 * - `event`: the business.pix.paid event's `data.e2e_id`, the same as the paid charge's when the
 *   lookup showed one (one payment, one identifier).
 */
export const carryE2eWhenPaid = defineRule({
  name: 'carryE2eWhenPaid',
  requirements: ['PT-CHARGE-E2E-WHEN-PAID'],
  codes: { 'e2e.missing-on-charge': 'failure', 'e2e.missing-in-event': 'failure', 'e2e.event-differs': 'failure' },
  judge(observation: { kind: 'charge'; charge: Json | undefined; exchange: Exchange } | { kind: 'event'; e2eId: unknown; chargeE2eId: unknown; where: string }, v) {
    if (observation.kind === 'charge') {
      const e2e = observation.charge?.e2e_id;
      if (typeof e2e === 'string' && e2e.trim() !== '') return;
      return v.find('e2e.missing-on-charge', { title: 'a paid charge shows no e2e_id', expected: 'e2e_id: the end-to-end identifier of the payment', actual: `e2e_id ${show(e2e)}`, exchanges: [observation.exchange] });
    }
    const { e2eId, chargeE2eId, where } = observation;
    if (typeof e2eId !== 'string' || e2eId === '') {
      return v.find('e2e.missing-in-event', { title: 'the paid event carries no e2e_id', expected: 'data.e2e_id: the end-to-end id of the payment', actual: `data.e2e_id ${show(e2eId)} (${where})` });
    }
    if (typeof chargeE2eId !== 'string' || chargeE2eId === e2eId) return;
    v.find('e2e.event-differs', { title: 'the paid event e2e_id differs from the charge e2e_id', expected: `data.e2e_id ${show(chargeE2eId)}`, actual: `data.e2e_id ${show(e2eId)} (${where})` });
  },
});
