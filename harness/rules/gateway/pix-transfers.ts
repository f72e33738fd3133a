/**
 * PIX transfers (cash-out): gateway-api.md "POST /api/v1/pix/out/pixkey", "GET
 * /api/v1/pix/out/pixkey/{transferId}", "POST …/{transferId}/complete (sandbox)", the "PIX transfer"
 * states and "PIX transfer (response `data`)".
 *
 * Every export declared with `defineRule` is a rule (harness/rules/rule.ts): one sentence or table of
 * the contract, its requirement IDs, its codes. Observations are plain data: an answer's status, its
 * parsed JSON and its exchange, and what was sent.
 */
import type { Exchange } from '../../core/exchange.js';
import { dataOf, is2xx } from '../../core/json.js';
import type { RequirementId } from '../finding.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { draftOf, endToEndIdProblem } from '../identifiers.js';
import { futureStampProblem, timestampProblem } from '../time.js';
import { defineRule } from '../rule.js';
import { GATEWAY_STATES, transferStateCell } from './state-matrix.js';
import { readPixKey } from './documents-keys.js';
import { refuseInvalidRequestBody } from './errors.js';
import { BELOW_MINIMUM, codedErrorMismatch, judgeUnknownResource, narrowedToSchema, verifyMoneyInCents, type Answer } from './fields.js';

const DOCUMENTED_TRANSFER_STATES = ['pending', 'banking_processing', 'completed', 'refused'];

/** The rows of "POST /api/v1/pix/out/pixkey" (its header and its request table) and the catalogue entries of their clauses. */
const TRANSFER_ROWS = {
  'x-idempotency-key': ['GW-PIXOUT-IDEM-REQUIRED'],
  pixKey: ['GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-KEY-INVALID-REJECTED'],
  amount: ['GW-PIXOUT-AMOUNT-INT', 'GW-PIXOUT-AMOUNT-MIN'],
  currency: ['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CURRENCY-DEFAULT'],
  description: ['GW-PIXOUT-DESC-MAX'],
  postbackUrl: ['GW-PIXOUT-POSTBACK-URI'],
} as const satisfies Record<string, readonly RequirementId[]>;

export type TransferRow = keyof typeof TRANSFER_ROWS;

/**
 * The clause of a row a value exercises: a valid value at the row's edge (`valid`), or one breaking
 * it (by the kind of mutation, generators/bodies.ts `MutationKind`).
 */
function clauseOf(row: TransferRow, kind: string | undefined, valid: boolean): RequirementId[] {
  switch (row) {
    case 'pixKey':
      return valid ? ['GW-PIXOUT-KEY-FORMATS'] : ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'];
    case 'amount':
      return [valid || (kind !== undefined && BELOW_MINIMUM.includes(kind)) ? 'GW-PIXOUT-AMOUNT-MIN' : 'GW-PIXOUT-AMOUNT-INT'];
    case 'currency':
      return [kind === 'default' ? 'GW-PIXOUT-CURRENCY-DEFAULT' : 'GW-PIXOUT-CURRENCY-BRL'];
    default:
      return [...TRANSFER_ROWS[row]];
  }
}

/** The rows a broken body decides: the clause of its row, narrowed to the schema's `x-requirement` of the node at fault. */
function brokenRows(row: string, kind: string | undefined, fromSchema: readonly string[]): RequirementId[] {
  return row in TRANSFER_ROWS ? narrowedToSchema(clauseOf(row as TransferRow, kind, false), fromSchema) : [];
}

/** The catalogue entries of a row, for mutants written by hand (generators/bodies.ts `Mutant.requirements`). */
export function transferRowRequirements(row: TransferRow): RequirementId[] {
  return [...TRANSFER_ROWS[row]];
}

/** A value the text does not pin down: accepting it harms no one, so it only warns. */
function borderline(row: string, value: unknown): string | undefined {
  if (row === 'pixKey' && typeof value === 'string') {
    const reading = readPixKey(value);
    return reading.standing === 'borderline' ? reading.why : undefined;
  }
  if (row === 'currency' && (value === 'brl' || value === '')) return value === '' ? 'an empty currency, read as absent (BRL by default)' : 'lower-case brl, read as BRL';
  return undefined;
}

/**
 * What was sent to `POST /api/v1/pix/out/pixkey` and what came back:
 * - `valid`: a body every row allows, with a fresh `x-idempotency-key`: "200: `success`, `message`,
 *   `data` (PIX transfer: id, status, amount, netAmount, fees, pixKey)". It decides the rows the
 *   caller names in `exercises` (a value at a row's edge: 1 cent, 140 characters, each key kind, no
 *   currency). The answer is exactly 200, its `data.id` a non-empty string and its `data.amount` the
 *   amount sent; the money columns are judged by {@link verifyMoneyInCents};
 * - `breaks`: a body breaking one row's rule (`kind` and `requirements`: the mutation and the schema's
 *   `x-requirement` at fault, generators/bodies.ts): refused, "400 | invalid body" or "422 |
 *   validation failure" (which one is not stated; another 4xx warns; the refusal is the Errors
 *   rule's, errors.ts `refuseInvalidRequestBody`, with the error body and the field a 422 names). Accepting it fails, except a
 *   value the text does not pin down (a borderline PIX key: punctuation, an alphanumeric CNPJ, a UUID
 *   without hyphens…; `brl` or an empty currency): a warning. The status for a missing
 *   `x-idempotency-key` is not stated either: the same latitude;
 * - `open`: a value whose validity the text leaves open (a `postbackUrl` that is no URI: "string
 *   (URI)" gives only the type): accepted or refused, never a server error;
 * - `default-currency`: a lookup of a transfer sent without currency ("default `BRL`"): the transfer
 *   resource documents no currency field, so a lookup without one decides nothing; one showing
 *   another currency fails.
 */
export type TransferRequestObservation =
  | { case: 'valid'; body: object; answer: Answer; exercises?: readonly TransferRow[] }
  | { case: 'breaks'; row: TransferRow | string; kind?: string; requirements?: readonly string[]; value?: unknown; what: string; answer: Answer }
  | { case: 'open'; row: TransferRow; what: string; answer: Answer }
  | { case: 'default-currency'; lookup: Answer };

export const honourTransferRequest = defineRule({
  name: 'honourTransferRequest',
  requirements: ['GW-PIXOUT-CREATE-200', 'GW-PIXOUT-CREATE-400', ...new Set(Object.values(TRANSFER_ROWS).flat())],
  codes: {
    'pixout.create-status': 'failure',
    'pixout.create-id': 'failure',
    'pixout.create-amount': 'failure',
    'pixout.invalid-accepted': 'failure',
    'pixout.borderline-accepted': 'warning',
    'pixout.open-status': 'failure',
    'pixout.currency-default': 'failure',
  },
  uses: [verifyMoneyInCents, refuseInvalidRequestBody],
  judge(observation: TransferRequestObservation, v) {
    if (observation.case === 'default-currency') {
      const currency = dataOf(observation.lookup.json)?.currency;
      if (currency === undefined) return v.nothingToJudge();
      v.decides('GW-PIXOUT-CURRENCY-DEFAULT');
      if (currency === 'BRL') return;
      return v.find('pixout.currency-default', { title: 'a transfer sent without currency is not in BRL', expected: 'currency BRL ("default `BRL`")', actual: `data.currency = ${show(currency)}`, exchanges: [observation.lookup.exchange], pointer: '/data/currency' });
    }
    const { answer } = observation;
    if (observation.case === 'open') {
      v.decides(...clauseOf(observation.row, undefined, true));
      judgeStatus(v, answer.exchange, ['2xx', '4xx'], { unexpected: 'pixout.open-status' }, `a transfer with ${observation.what}`);
      return;
    }
    if (observation.case === 'breaks') {
      v.decides(...brokenRows(observation.row, observation.kind, observation.requirements ?? []), 'GW-PIXOUT-CREATE-400');
      if (!answer.exchange.response) return v.unanswered(answer.exchange);
      if (is2xx(answer.status)) {
        const why = borderline(observation.row, observation.value);
        return v.find(why === undefined ? 'pixout.invalid-accepted' : 'pixout.borderline-accepted', {
          title: `a transfer with ${observation.what}${why === undefined ? '' : ` (${why})`} was accepted`,
          expected: why === undefined ? 'HTTP 400 or 422 ("400 | invalid body")' : 'a refusal, or an acceptance the text does not rule out (observation)',
          actual: `HTTP ${answer.status}, data.id ${show(dataOf(answer.json)?.id)}`,
          exchanges: [answer.exchange],
        });
      }
      v.apply(refuseInvalidRequestBody, { answer, what: `a transfer with ${observation.what}`, ...(observation.row in TRANSFER_ROWS ? { field: observation.row } : {}) });
      return;
    }
    const body = observation.body as Readonly<Record<string, unknown>>;
    const exercised = (observation.exercises ?? []).flatMap((row) => clauseOf(row, row === 'currency' && body.currency === undefined ? 'default' : undefined, true));
    v.decides('GW-PIXOUT-CREATE-200', ...new Set(exercised));
    v.shows(answer.exchange);
    const sent = (observation.exercises ?? []).map((row) => `${row} ${show(body[row], 40)}`).join(', ');
    judgeStatus(v, answer.exchange, 200, { unexpected: 'pixout.create-status' }, `a valid transfer${sent ? ` (${sent})` : ''}`);
    if (!is2xx(answer.status)) return;
    const data = dataOf(answer.json);
    if (typeof data?.id !== 'string' || data.id === '') {
      v.find('pixout.create-id', { title: 'a created transfer has no usable id', expected: 'data.id: a non-empty string ("data (PIX transfer: id, …)")', actual: `data.id ${show(data?.id)}`, pointer: '/data/id' });
    }
    const amount = body.amount;
    if (typeof amount === 'number' && data?.amount !== amount) {
      v.find('pixout.create-amount', { title: 'a created transfer does not carry the amount sent', expected: `data.amount = ${amount}`, actual: `data.amount = ${show(data?.amount)}`, pointer: '/data/amount' });
    }
    if (data) v.apply(verifyMoneyInCents, { resource: 'transfer', fields: { amount: data.amount, netAmount: data.netAmount, fees: data.fees }, exchange: answer.exchange });
  },
});

/**
 * "(creation, sandbox) | POST /api/v1/pix/out/pixkey | sandbox credentials; no manual review |
 * banking_processing | waits until completion is simulated", with "States: `pending`,
 * `banking_processing` (sandbox), `completed`, `refused`". Given the 2xx answer of a sandbox creation:
 * - `banking_processing` conforms;
 * - `pending` conforms: manual review is invisible to the client and the row's condition admits
 *   transfers held for it (the caller notes it and does not expect /complete to succeed);
 * - `completed` or `refused` at creation is a WARNING: documented states, but not what the row says
 *   of a transfer without manual review ("waits until completion is simulated"), and what review
 *   does is not shown;
 * - any other value is no documented state: FAILURE.
 */
export const ensureCreatedTransferProcessing = defineRule({
  name: 'ensureCreatedTransferProcessing',
  requirements: ['GW-PIXOUT-CREATE-BANKING-PROCESSING', 'GW-PIXOUT-STATUS-ENUM'],
  codes: { 'pixout.created-not-processing': 'warning', 'pixout.created-status': 'failure' },
  judge(answer: Answer, v) {
    if (!is2xx(answer.status)) return v.nothingToJudge();
    v.shows(answer.exchange);
    const status = dataOf(answer.json)?.status;
    if (status === 'banking_processing' || status === 'pending') return;
    const expected = 'data.status "banking_processing" (or "pending" under manual review)';
    if (typeof status === 'string' && DOCUMENTED_TRANSFER_STATES.includes(status)) {
      return v.find('pixout.created-not-processing', { title: `a new sandbox transfer is ${status}, not banking_processing`, expected, actual: `data.status ${show(status)}`, pointer: '/data/status', requirements: ['GW-PIXOUT-CREATE-BANKING-PROCESSING'] });
    }
    v.find('pixout.created-status', { title: 'a new sandbox transfer has no documented status', expected, actual: `data.status ${show(status)}`, pointer: '/data/status' });
  },
});

/** What the model or a check knows of a transfer from its creation answer; undefined when it has no usable id or state. */
export function createdTransferState(answer: Answer): { id: string; status: 'banking_processing' | 'completed' | 'pending' } | undefined {
  const data = dataOf(answer.json);
  const id = data?.id;
  const status = data?.status;
  if (typeof id !== 'string' || id === '') return undefined;
  if (status === 'banking_processing' || status === 'completed' || status === 'pending') return { id, status };
  return undefined;
}

/** The money and key fields a replay should return as the original response did. */
const REPLAYED_FIELDS = ['amount', 'netAmount', 'fees', 'pixKey'];

/**
 * "Resending with the same key and body returns the original response and never duplicates the
 * transfer."
 * - `replay`: a resend after the original answered. It answers the original status (another 2xx is
 *   a WARNING: "the original response" is not pinned to the byte; an error fails) and names the same
 *   transfer (another `data.id` FAILS: a second transfer); money or key fields that differ WARN
 *   (whether volatile fields may differ is not stated). The original is its answer, or only its id
 *   (and any 2xx is then the original status);
 * - `burst`: N simultaneous FIRST uses of one key with one body. The text says nothing of a duplicate
 *   arriving while the first is in flight (there is no original response yet): two different ids
 *   among the 2xx FAIL; a concurrent duplicate answering 409 WARNS (409 states "a different body",
 *   which is not the case); 400, 422 or a 5xx call the valid body invalid (judged as a creation by
 *   {@link honourTransferRequest}); another 4xx (423, 425…) is an "in progress" answer the text leaves
 *   open. No 2xx at all, although not every answer was a 409 or 429, FAILS;
 * - `postback`: a `transfer_created` for ANOTHER transfer at the postbackUrl only this key's body
 *   carries: a duplicate.
 */
export type IdempotencyObservation =
  | { case: 'replay'; original: Answer | { id: string }; replay: Answer }
  | { case: 'burst'; body: object; answers: readonly Answer[] }
  | { case: 'postback'; transferId: string; other: { seq: number; bodyText: string } | undefined };

export const honourIdempotencyKey = defineRule({
  name: 'honourIdempotencyKey',
  requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'],
  codes: {
    'pixout.idem-replay-status': 'failure',
    'pixout.idem-replay-other-2xx': 'warning',
    'pixout.idem-new-transfer': 'failure',
    'pixout.idem-replay-fields': 'warning',
    'pixout.idem-in-flight-409': 'warning',
    'pixout.idem-duplicated': 'failure',
    'pixout.idem-none-created': 'failure',
  },
  uses: [honourTransferRequest],
  judge(observation: IdempotencyObservation, v) {
    if (observation.case === 'postback') {
      v.decides('GW-PIXOUT-IDEM-NO-DUPLICATE');
      const other = observation.other;
      if (!other) return;
      return v.find('pixout.idem-duplicated', { title: 'another transfer was created by the same key and body', expected: `only transfer ${observation.transferId} at this body's postbackUrl`, actual: `delivery #${other.seq}: ${other.bodyText.slice(0, 200)}` });
    }
    if (observation.case === 'burst') {
      const { answers, body } = observation;
      const winners = answers.filter((a) => is2xx(a.status));
      for (const r of answers) {
        if (is2xx(r.status)) continue;
        if (r.status === 409) {
          v.find('pixout.idem-in-flight-409', { title: 'a concurrent duplicate with the same key and body answered 409', expected: 'the original response (same transfer id), or a retryable answer', actual: `HTTP 409 ${show(r.json, 160)}`, exchanges: [r.exchange], requirements: ['GW-PIXOUT-IDEM-REPLAY'] });
        } else if (r.status === 400 || r.status === 422 || r.status === 0 || r.status >= 500) {
          v.apply(honourTransferRequest, { case: 'valid', body, answer: r });
        }
      }
      const ids = [...new Set(winners.map((r) => dataOf(r.json)?.id))];
      if (ids.length > 1) {
        v.find('pixout.idem-duplicated', { title: `${ids.length} transfers were created with one idempotency key and body`, expected: 'one transfer id among all successful answers', actual: `ids ${ids.map((i) => show(i)).join(', ')}`, exchanges: winners.map((r) => r.exchange), requirements: ['GW-PIXOUT-IDEM-NO-DUPLICATE'] });
      }
      if (winners.length === 0 && !answers.every((r) => r.status === 429 || r.status === 409)) {
        v.find('pixout.idem-none-created', { title: 'no concurrent first use of a fresh key created the transfer', expected: 'at least one 2xx with data.id (the original response the others return)', actual: answers.map((r) => r.status).join(', '), exchanges: answers.map((r) => r.exchange), requirements: ['GW-PIXOUT-IDEM-REPLAY'] });
      }
      return;
    }
    const { replay } = observation;
    const original = 'exchange' in observation.original ? observation.original : undefined;
    const first = original ? dataOf(original.json) : { id: (observation.original as { id: string }).id };
    v.shows(original?.exchange, replay.exchange);
    if (!replay.exchange.response) return v.unanswered(replay.exchange);
    if (replay.status === 429) return v.nothingToJudge();
    const originalStatus = original?.status;
    if (originalStatus !== undefined ? replay.status !== originalStatus : !is2xx(replay.status)) {
      const soft = originalStatus !== undefined && is2xx(replay.status) && is2xx(originalStatus);
      return v.find(soft ? 'pixout.idem-replay-other-2xx' : 'pixout.idem-replay-status', {
        title: 'a resend with the same key and body did not answer the original status',
        expected: originalStatus !== undefined ? `HTTP ${originalStatus} (the original response)` : 'a 2xx (the original response)',
        actual: `HTTP ${replay.status} ${show(replay.exchange.response.body, 200)}`,
        requirements: ['GW-PIXOUT-IDEM-REPLAY'],
      });
    }
    const again = dataOf(replay.json);
    if (!first || !again) return;
    if (again.id !== first.id) {
      return v.find('pixout.idem-new-transfer', { title: 'a resend with the same key and body answered another transfer', expected: `data.id = ${show(first.id)} (the original response)`, actual: `data.id = ${show(again.id)}${typeof again.id === 'string' ? ' (a second transfer)' : ''}` });
    }
    if (!original) return;
    for (const field of REPLAYED_FIELDS) {
      if (JSON.stringify(again[field]) === JSON.stringify(first[field])) continue;
      v.find('pixout.idem-replay-fields', { title: `the replayed response differs in data.${field}`, expected: `data.${field} = ${show(first[field])} (the original response)`, actual: `data.${field} = ${show(again[field])}`, requirements: ['GW-PIXOUT-IDEM-REPLAY'] });
    }
  },
});

/**
 * "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)", restated in Errors as "409
 * | `x-idempotency-key` reused with a different body": the answer to a used key with another body is
 * 409 with `{error: "IDEMPOTENCY_CONFLICT", message}`. A 2xx fails (the first transfer replayed, or a
 * new one under a used key); another status fails; a 409 without that body fails the first sentence.
 */
export const refuseKeyReuseWithOtherBody = defineRule({
  name: 'refuseKeyReuseWithOtherBody',
  requirements: ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-409-MEANING'],
  codes: { 'pixout.idem-conflict-accepted': 'failure', 'pixout.idem-conflict-status': 'failure', 'pixout.idem-conflict-body': 'failure' },
  judge(observation: { answer: Answer; originalId: string; what: string }, v) {
    const { answer, originalId, what } = observation;
    v.shows(answer.exchange);
    if (is2xx(answer.status)) {
      const id = dataOf(answer.json)?.id;
      return v.find('pixout.idem-conflict-accepted', {
        title: `the same key with ${what} answered ${answer.status}`,
        expected: 'HTTP 409 {error: "IDEMPOTENCY_CONFLICT", message}',
        actual: `HTTP ${answer.status}, data.id ${show(id)}${id === originalId ? ' (the original replayed)' : ' (a new transfer under a used key)'}`,
      });
    }
    if (!judgeStatus(v, answer.exchange, 409, { unexpected: 'pixout.idem-conflict-status' }, `the same key with ${what}`)) return;
    const mismatch = codedErrorMismatch(answer.json, 'IDEMPOTENCY_CONFLICT');
    if (mismatch) v.find('pixout.idem-conflict-body', { title: `the 409 to the same key with ${what} is not {error: IDEMPOTENCY_CONFLICT, message}`, ...mismatch, requirements: ['GW-PIXOUT-IDEM-CONFLICT-409'] });
  },
});

/**
 * "GET …/{transferId}: 200: `success`, `data` (PIX transfer …)": a lookup of a transfer the account
 * created answers 200; when the caller knows what the sequence did to it (`expected`: the only state
 * the transitions allow, and the amount it was created with), the lookup shows that.
 */
export const answerTransferLookup = defineRule({
  name: 'answerTransferLookup',
  requirements: ['GW-PIXOUT-GET-200'],
  codes: { 'pixout.lookup-status': 'failure', 'pixout.lookup-state': 'failure', 'pixout.lookup-amount': 'failure' },
  judge(observation: { answer: Answer; expected?: { status: string; amount?: number; why: string } }, v) {
    const { answer, expected } = observation;
    v.shows(answer.exchange);
    if (!judgeStatus(v, answer.exchange, 200, { unexpected: 'pixout.lookup-status' }, 'the lookup of a transfer') || !expected) return;
    const data = dataOf(answer.json);
    if (data?.status !== expected.status) {
      v.find('pixout.lookup-state', { title: `the transfer is ${show(data?.status)} ${expected.why}`, expected: `data.status "${expected.status}" (the only state the transitions allow)`, actual: `data.status ${show(data?.status)}`, pointer: '/data/status' });
    }
    if (expected.amount !== undefined && data?.amount !== expected.amount) {
      v.find('pixout.lookup-amount', { title: 'the looked-up transfer does not carry the amount it was created with', expected: `data.amount ${expected.amount}`, actual: `data.amount ${show(data?.amount)}`, pointer: '/data/amount' });
    }
  },
});

/**
 * The lookup's fields ("PIX transfer (response data)"): "createdAt, updatedAt, processedAt | string |
 * ISO 8601 timestamps, on lookup" (before processing `processedAt` is not shown: absent or null
 * passes while the transfer is not `completed`); "endToEndId | string | on lookup; present once
 * completed" (a non-empty string; a layout other than the BCB end-to-end id only warns, the text
 * says "string").
 */
export const verifyTransferLookupFields = defineRule({
  name: 'verifyTransferLookupFields',
  requirements: ['GW-PIXOUT-TIMESTAMPS-ISO', 'GW-PIXOUT-ENDTOEND-COMPLETED'],
  codes: { 'pixout.timestamp': 'failure', 'pixout.timestamp-spaced': 'warning', 'pixout.timestamp-future': 'failure', 'pixout.lookup-e2e': 'failure', 'pixout.lookup-e2e-layout': 'warning' },
  judge(answer: Answer, v) {
    const data = dataOf(answer.json);
    if (!is2xx(answer.status) || !data) return v.nothingToJudge();
    const completed = data.status === 'completed';
    v.decides('GW-PIXOUT-TIMESTAMPS-ISO', ...(completed ? (['GW-PIXOUT-ENDTOEND-COMPLETED'] as const) : []));
    for (const field of ['createdAt', 'updatedAt', 'processedAt']) {
      // before processing `processedAt` is not shown: absent or null passes until the transfer is completed
      if (field === 'processedAt' && !completed && (data[field] === undefined || data[field] === null)) continue;
      const problem = timestampProblem(data[field], { subject: `data.${field}` });
      if (problem) v.find(problem.kind === 'space-separator' ? 'pixout.timestamp-spaced' : 'pixout.timestamp', { ...draftOf(problem), pointer: `/data/${field}`, exchanges: [answer.exchange], requirements: ['GW-PIXOUT-TIMESTAMPS-ISO'] });
      // whatever zone it is written in, a timestamp cannot name a time after the answer showing it
      const future = problem ? undefined : futureStampProblem(data[field], answer.exchange, `data.${field}`);
      if (future) v.find('pixout.timestamp-future', { ...future, pointer: `/data/${field}`, exchanges: [answer.exchange], requirements: ['GW-PIXOUT-TIMESTAMPS-ISO'] });
    }
    if (!completed) return;
    const e2e = endToEndIdProblem(data.endToEndId, 'lookup data.endToEndId');
    if (e2e) v.find(e2e.kind === 'type' ? 'pixout.lookup-e2e' : 'pixout.lookup-e2e-layout', { ...draftOf(e2e), pointer: '/data/endToEndId', exchanges: [answer.exchange], requirements: ['GW-PIXOUT-ENDTOEND-COMPLETED'] });
  },
});

/**
 * A transfer id no transfer of this account has: "GET …/{transferId}: 404 body `{error: NOT_FOUND,
 * message}`" (the lookup) and "/complete: 404 not found" (its body not pinned). See
 * {@link judgeUnknownId} for the ids the format leaves open.
 */
export const answerUnknownTransfer = defineRule({
  name: 'answerUnknownTransfer',
  requirements: ['GW-PIXOUT-GET-404-SHAPE', 'GW-PIXOUT-COMPLETE-404'],
  codes: { 'pixout.unknown-status': 'failure', 'pixout.unknown-other-4xx': 'warning', 'pixout.unknown-body': 'failure' },
  judge(observation: { route: 'lookup' | 'complete'; id: string; answer: Answer }, v) {
    const { route, id, answer } = observation;
    v.decides(route === 'lookup' ? 'GW-PIXOUT-GET-404-SHAPE' : 'GW-PIXOUT-COMPLETE-404');
    judgeUnknownResource(v, { id, answer, lookup: route === 'lookup' }, { unexpected: 'pixout.unknown-status', otherClientError: 'pixout.unknown-other-4xx', body: 'pixout.unknown-body' }, `${route === 'lookup' ? 'the lookup of' : '/complete of'} an unknown transfer`);
  },
});

/**
 * "banking_processing | POST …/{transferId}/complete (sandbox) | not already completed or canceled;
 * sandbox balance covers the amount | completed"; "/complete: No body. 200: `success`, `message`,
 * `data{id, status, endToEndId}` with status `completed`".
 * - `answer`: the /complete of a banking_processing transfer. With its own funding it answers 200;
 *   where other checks share the balance (`funding: 'shared'`) a 400 is allowed too (the balance may
 *   not cover it at that instant); a transfer held `pending` (manual review) may be refused with any
 *   4xx. A 2xx carries status `completed` and a non-empty `endToEndId` (a layout other than the BCB
 *   end-to-end id only warns);
 * - `lookup`: the lookup after a successful /complete shows the transfer `completed`.
 */
export const ensureTransferCompleted = defineRule({
  name: 'ensureTransferCompleted',
  requirements: ['GW-PIXOUT-COMPLETE-200', 'GW-PIXOUT-COMPLETE-COMPLETED'],
  codes: { 'pixout.complete-status': 'failure', 'pixout.complete-state': 'failure', 'pixout.complete-e2e': 'failure', 'pixout.complete-e2e-layout': 'warning', 'pixout.completed-not-kept': 'failure' },
  relation: GATEWAY_STATES,
  judge(observation: { case: 'answer'; answer: Answer; funding?: 'own' | 'shared' | 'pending' } | { case: 'lookup'; lookup: Answer; completion: Exchange }, v) {
    if (observation.case === 'lookup') {
      const { lookup } = observation;
      if (!is2xx(lookup.status)) return v.nothingToJudge();
      v.decides('GW-PIXOUT-COMPLETE-COMPLETED');
      const status = dataOf(lookup.json)?.status;
      if (status === 'completed') return;
      return v.find('pixout.completed-not-kept', { title: 'the lookup after a successful /complete does not show the transfer completed', expected: 'data.status "completed"', actual: `data.status ${show(status)}`, exchanges: [observation.completion, lookup.exchange], pointer: '/data/status' });
    }
    const { answer } = observation;
    const funding = observation.funding ?? 'own';
    v.shows(answer.exchange);
    if (answer.exchange.response) v.covers(transferStateCell(funding === 'pending' ? 'pending' : 'banking_processing'));
    const expected = funding === 'own' ? 200 : funding === 'shared' ? [200, 400] : ['2xx', '4xx'] as const;
    if (!judgeStatus(v, answer.exchange, expected, { unexpected: 'pixout.complete-status' }, `/complete of a ${funding === 'pending' ? 'pending' : 'banking_processing'} transfer`)) return;
    // a refusal the funding allows decides nothing
    if (!is2xx(answer.status)) return v.nothingToJudge();
    const data = dataOf(answer.json);
    if (data?.status !== 'completed') {
      v.find('pixout.complete-state', { title: '/complete did not answer status completed', expected: 'data.status "completed"', actual: `data.status ${show(data?.status)}`, pointer: '/data/status' });
    }
    const e2e = endToEndIdProblem(data?.endToEndId, '/complete data.endToEndId');
    if (e2e) v.find(e2e.kind === 'type' ? 'pixout.complete-e2e' : 'pixout.complete-e2e-layout', { ...draftOf(e2e), pointer: '/data/endToEndId', requirements: ['GW-PIXOUT-COMPLETE-200'] });
  },
});

/**
 * "/complete: 400 already completed or canceled": completing a completed transfer again answers
 * 400. A 2xx FAILS (the transition applied twice); any other status fails too.
 */
export const refuseCompletionOfCompleted = defineRule({
  name: 'refuseCompletionOfCompleted',
  requirements: ['GW-PIXOUT-COMPLETE-TWICE-400'],
  codes: { 'pixout.completed-again': 'failure', 'pixout.complete-again-status': 'failure' },
  relation: GATEWAY_STATES,
  judge(answer: Answer, v) {
    v.shows(answer.exchange);
    if (answer.exchange.response) v.covers(transferStateCell('completed'));
    if (is2xx(answer.status)) {
      return v.find('pixout.completed-again', { title: `completing an already completed transfer answered ${answer.status}`, expected: 'HTTP 400 (already completed or canceled)', actual: `HTTP ${answer.status} ${show(answer.exchange.response?.body ?? '', 200)}` });
    }
    judgeStatus(v, answer.exchange, 400, { unexpected: 'pixout.complete-again-status' }, '/complete of a completed transfer');
  },
});

/**
 * "sandbox balance covers the amount" is the condition of banking_processing → completed: a transfer
 * the balance cannot cover is never completed.
 * - `answer`: the /complete of a transfer far above the balance: any 4xx conforms (the refusal's
 *   code is not stated); a 2xx FAILS;
 * - `lookup`: a lookup after that /complete shows it not `completed`;
 * - `balance-after`: the /complete of an amount above the balance read just before it, where other
 *   checks move the same balance: a refusal (any 4xx) conforms; a 2xx is only evidence when the
 *   balance read after it is NEGATIVE (not covered, whatever else moved the balance meanwhile).
 */
export type UncoveredCompletionObservation =
  | { case: 'answer'; answer: Answer; amount: number; balance: number; exchanges?: readonly Exchange[] }
  | { case: 'lookup'; lookup: Answer; amount: number; completion: Exchange }
  | { case: 'balance-after'; answer: Answer; amount: number; before: number; after: number | undefined; afterExchange?: Exchange };

export const refuseUncoveredCompletion = defineRule({
  name: 'refuseUncoveredCompletion',
  requirements: ['GW-PIXOUT-COMPLETE-BALANCE'],
  codes: { 'pixout.completed-without-balance': 'failure', 'pixout.uncovered-status': 'failure' },
  judge(observation: UncoveredCompletionObservation, v) {
    const expected = 'a 4xx: "sandbox balance covers the amount" is the condition of completion';
    if (observation.case === 'lookup') {
      const status = dataOf(observation.lookup.json)?.status;
      if (!is2xx(observation.lookup.status)) return v.nothingToJudge();
      if (status !== 'completed') return;
      return v.find('pixout.completed-without-balance', { title: 'a transfer larger than the balance was completed', expected: `the transfer of ${observation.amount} cents stays uncompleted`, actual: `lookup status ${show(status)}`, exchanges: [observation.completion, observation.lookup.exchange] });
    }
    const { answer } = observation;
    if (observation.case === 'balance-after') {
      if (!is2xx(answer.status)) {
        judgeStatus(v, answer.exchange, '4xx', { unexpected: 'pixout.uncovered-status' }, '/complete of a transfer above the balance');
        return;
      }
      if (observation.after === undefined || observation.after >= 0) return v.nothingToJudge();
      return v.find('pixout.completed-without-balance', {
        title: `a transfer of ${observation.amount} cents completed above the balance (${observation.before} cents) and left it negative`,
        expected,
        actual: `HTTP ${answer.status}; pix.balance ${observation.before} → ${observation.after} cents`,
        exchanges: [answer.exchange, observation.afterExchange],
      });
    }
    v.shows(...(observation.exchanges ?? []), answer.exchange);
    if (is2xx(answer.status)) {
      return v.find('pixout.completed-without-balance', { title: `a transfer of ${observation.amount} cents completed although the balance was ${observation.balance} cents`, expected, actual: `HTTP ${answer.status}` });
    }
    judgeStatus(v, answer.exchange, '4xx', { unexpected: 'pixout.uncovered-status' }, '/complete of a transfer the balance does not cover');
  },
});
