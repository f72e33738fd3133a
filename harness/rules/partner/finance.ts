/**
 * The partner finance statement and ledger (partner-cashin-api.md, "Finance statement (`GET
 * /v1/business/finance` response)"): merchant_id, "currency | always BRL", "available_cents | integer
 * | reliable available balance", "reserve_cents | integer | held in risk reserve, if applicable",
 * "transactions[] | last 50 ledger postings"; each posting `id`, `event_type`, `description`,
 * `created_at` ISO 8601, `entries[]` with `account_code`, `direction` (`debit` or `credit`),
 * `amount_cents` integer. "GET /v1/business/finance | Returns the finance statement." "POST …/pay …
 * with the same effect (capture plus webhook) as a real payment".
 *
 * A capture is judged as conservation of money: what the charge brought in (its amount) equals what
 * was credited to the available balance, plus what was withheld into the reserve, plus fees, whatever
 * the accounts are called ({@link readCaptureWindow}). The text names no account, no fee and no
 * moment when captured money becomes available, so the rules read the statement's own balances and
 * the service's own postings, never account names.
 *
 * Every export declared with `defineRule` is a rule (harness/rules/rule.ts); the rest reads
 * statements into facts ({@link statementOf}, {@link readCaptureWindow}) for the rules and the suites.
 */
import type { Exchange } from '../../core/exchange.js';
import type { RequirementId } from '../finding.js';
import { kindOf, show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { isRecord } from '../../core/json.js';
import type { Json } from './charges.js';
import type { ErrorAnswer } from './errors.js';
import { integerCentsProblem } from '../money.js';
import { futureStampProblem, timestampProblem } from '../time.js';
import { draftOf } from '../identifiers.js';

/** "transactions[] | last 50 ledger postings" */
export const LAST_POSTINGS = 50;

// ── reading statements ───────────────────────────────────────────────────────────────────────────

/** A statement as read: the balances (when integers) and the postings (objects only). */
export interface Statement {
  available?: number;
  /**
   * reserve_cents: 0 when absent or null ("held in risk reserve, if applicable": an account without a
   * reserve may show either); undefined when present but not an integer (the shape rule judges that)
   */
  reserve?: number;
  postings: Json[];
  exchange: Exchange;
}

function cents(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

export function statementOf(json: unknown, exchange: Exchange): Statement {
  const postings = isRecord(json) && Array.isArray(json.transactions) ? json.transactions.filter(isRecord) : [];
  const available = isRecord(json) ? cents(json.available_cents) : undefined;
  const rawReserve = isRecord(json) ? json.reserve_cents : undefined;
  const reserve = rawReserve === undefined || rawReserve === null ? 0 : cents(rawReserve);
  return { postings, exchange, ...(available !== undefined ? { available } : {}), ...(reserve !== undefined ? { reserve } : {}) };
}

export interface Entry {
  account_code: unknown;
  direction: unknown;
  amount_cents: unknown;
}

export function entriesOf(posting: Json): Entry[] {
  return Array.isArray(posting.entries) ? (posting.entries.filter(isRecord) as unknown as Entry[]) : [];
}

export interface LedgerTotals {
  debits: number;
  credits: number;
  /** an entry with a negative amount */
  negative: boolean;
  /** the sum of absolute entry amounts: no posting can move a balance by more */
  volume: number;
}

/** The one computation of a posting's debit and credit totals. */
export function ledgerTotals(posting: Json): LedgerTotals {
  const totals: LedgerTotals = { debits: 0, credits: 0, negative: false, volume: 0 };
  for (const e of entriesOf(posting)) {
    if (typeof e.amount_cents !== 'number') continue;
    if (e.amount_cents < 0) totals.negative = true;
    totals.volume += Math.abs(e.amount_cents);
    if (e.direction === 'debit') totals.debits += e.amount_cents;
    else if (e.direction === 'credit') totals.credits += e.amount_cents;
  }
  return totals;
}

/**
 * Each account's signed movement (credits − debits) over some postings' `entries[]`; entries of
 * another shape are skipped. An account moved in and out again nets 0 (and is listed).
 */
export function accountMovements(postings: readonly unknown[]): Map<string, number> {
  const nets = new Map<string, number>();
  for (const posting of postings) {
    const entries = isRecord(posting) && Array.isArray(posting.entries) ? posting.entries : [];
    for (const e of entries) {
      if (!isRecord(e) || typeof e.account_code !== 'string' || typeof e.amount_cents !== 'number') continue;
      const sign = e.direction === 'credit' ? 1 : e.direction === 'debit' ? -1 : 0;
      nets.set(e.account_code, (nets.get(e.account_code) ?? 0) + sign * e.amount_cents);
    }
  }
  return nets;
}

/** True when any field of the posting (id, description, event_type, entries) mentions `needle`. */
export function postingMentions(posting: unknown, needle: unknown): boolean {
  return typeof needle === 'string' && needle !== '' && JSON.stringify(posting).includes(needle);
}

/** The charge a capture is looked for: its id, e2e_id when known, and its amount when distinctive. */
export interface CapturedCharge {
  id: string;
  e2eId?: unknown;
  /** only when the amount is distinctive (no other check uses it): then a new posting carrying it counts */
  distinctiveAmount?: number;
}

/**
 * The one attribution of ledger postings to a charge ("our capture posting"): postings naming the
 * charge id or its e2e_id; failing those, new postings (`fresh`) with an entry of the charge's
 * distinctive amount. A posting naming neither is never blamed on the charge.
 */
export function capturePostingsOf(postings: readonly Json[], charge: CapturedCharge, fresh?: ReadonlySet<unknown>): Json[] {
  const named = postings.filter((p) => postingMentions(p, charge.id) || postingMentions(p, charge.e2eId));
  if (named.length || charge.distinctiveAmount === undefined) return named;
  return postings.filter((p) => (fresh === undefined || fresh.has(p.id)) && entriesOf(p).some((e) => e.amount_cents === charge.distinctiveAmount));
}

/** Postings in `after` that were not in `before`; undefined when the window is not fully visible (the 50 shown moved past every earlier posting). */
export function newPostings(before: Statement, after: Statement): Json[] | undefined {
  const known = new Set(before.postings.map((p) => p.id));
  const fresh = after.postings.filter((p) => !known.has(p.id));
  if (before.postings.length === 0) return after.postings.length < LAST_POSTINGS ? fresh : undefined;
  return after.postings.some((p) => known.has(p.id)) ? fresh : undefined;
}

// ── the statement ────────────────────────────────────────────────────────────────────────────────

/** The fields of "Finance statement (`GET /v1/business/finance` response)". */
const STATEMENT_FIELDS = ['merchant_id', 'currency', 'available_cents', 'reserve_cents', 'transactions'] as const;

/** True when the body is the statement object itself (an object holding at least one of its fields). */
function isStatement(json: unknown): json is Record<string, unknown> {
  return isRecord(json) && STATEMENT_FIELDS.some((key) => key in json);
}

/**
 * "GET /v1/business/finance | Returns the finance statement.": a 2xx whose body is the statement
 * object. A body holding none of the statement's fields at the top level (an `{data: …}` envelope,
 * an error object) is something else, judged once here rather than as every field missing.
 */
export const returnFinanceStatement = defineRule({
  name: 'returnFinanceStatement',
  requirements: ['PT-FIN-GET'],
  codes: { 'finance.status': 'failure', 'finance.not-object': 'failure', 'finance.not-statement': 'failure' },
  judge(answer: ErrorAnswer, v) {
    if (!judgeStatus(v, answer.exchange, '2xx', { unexpected: 'finance.status' }, 'GET /business/finance')) return;
    v.shows(answer.exchange);
    const json = answer.json;
    if (!isRecord(json)) return v.find('finance.not-object', { title: 'the statement is not a JSON object', expected: 'the finance statement object', actual: show(json) });
    if (!isStatement(json)) {
      v.find('finance.not-statement', { title: 'the finance answer is not the statement: none of its fields is at the top level', expected: `the statement object itself: ${STATEMENT_FIELDS.join(', ')}`, actual: `an object with keys ${show(Object.keys(json))}` });
    }
  },
});

/**
 * The statement's table ("Field | Type | Notes") and its postings ("Each `transactions[]` item …"),
 * row by row, with "Money values are integers in cents. Currency is BRL.": currency "BRL" ("always
 * BRL"), merchant_id a string, available_cents an integer, reserve_cents an integer when present
 * ("if applicable": absent, null and 0 are all fair), each posting with string id/event_type/
 * description and an ISO 8601 created_at (any ISO 8601 form), each entry with a string account_code,
 * a direction `debit` or `credit` and an integer amount_cents. A finding names its row's requirement
 * (and the money sentence for a money value). Whether `transactions` is an array is
 * {@link showLastFiftyPostings}'s; a body that is not the statement is {@link returnFinanceStatement}'s.
 */
export const verifyStatementFields = defineRule({
  name: 'verifyStatementFields',
  requirements: ['PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL', 'PT-FIN-MERCHANT-ID', 'PT-FIN-AVAILABLE', 'PT-FIN-RESERVE', 'PT-FIN-TX-SHAPE', 'PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'],
  codes: {
    'finance.currency': 'failure', 'finance.merchant-id': 'failure', 'finance.posting': 'failure', 'finance.entries': 'failure', 'finance.entry': 'failure', 'finance.entry-direction': 'failure',
    'finance.not-cents': 'failure', 'finance.created-at': 'failure', 'finance.created-at-spaced': 'warning', 'finance.created-at-future': 'failure',
  },
  judge(observation: { json: unknown; exchange: Exchange }, v) {
    const statement = observation.json;
    if (!isStatement(statement)) return v.nothingToJudge();
    v.shows(observation.exchange);
    const money = (value: unknown, row: RequirementId, pointer: string): void => {
      const problem = integerCentsProblem(value, { subject: pointer.slice(1).replace(/\//g, '.') });
      if (problem) v.find('finance.not-cents', { ...draftOf(problem), pointer, requirements: [row, 'PT-MONEY-INTEGER-CENTS'] });
    };
    if (statement.currency !== 'BRL') {
      v.find('finance.currency', { title: 'the statement currency is not BRL', expected: 'currency "BRL" ("always BRL")', actual: `currency ${show(statement.currency)}`, pointer: '/currency', requirements: ['PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL'] });
    }
    if (typeof statement.merchant_id !== 'string') {
      v.find('finance.merchant-id', { title: 'merchant_id is not a string', expected: 'merchant_id: string', actual: `${kindOf(statement.merchant_id)} ${show(statement.merchant_id)}`, pointer: '/merchant_id', requirements: ['PT-FIN-MERCHANT-ID'] });
    }
    money(statement.available_cents, 'PT-FIN-AVAILABLE', '/available_cents');
    if (statement.reserve_cents !== undefined && statement.reserve_cents !== null) money(statement.reserve_cents, 'PT-FIN-RESERVE', '/reserve_cents');
    if (!Array.isArray(statement.transactions)) return;
    statement.transactions.forEach((p: unknown, i: number) => {
      const at = `/transactions/${i}`;
      if (!isRecord(p)) return v.find('finance.posting', { title: 'a posting is not an object', expected: 'an object', actual: show(p), pointer: at, requirements: ['PT-FIN-TX-SHAPE'] });
      for (const key of ['id', 'event_type', 'description'] as const) {
        if (typeof p[key] !== 'string') v.find('finance.posting', { title: `a posting's ${key} is not a string`, expected: `${key}: string`, actual: `${kindOf(p[key])} ${show(p[key])}`, pointer: `${at}/${key}`, requirements: ['PT-FIN-TX-SHAPE'] });
      }
      // "ISO 8601": any ISO 8601 form; a space for the `T` (RFC 3339's variant) only warns
      const stamp = timestampProblem(p.created_at, { subject: `transactions[${i}].created_at` });
      if (stamp) v.find(stamp.kind === 'space-separator' ? 'finance.created-at-spaced' : 'finance.created-at', { ...draftOf(stamp), pointer: `${at}/created_at`, requirements: ['PT-FIN-TX-SHAPE'] });
      // whatever zone it is written in, a posting cannot be dated after the statement showing it
      const future = stamp ? undefined : futureStampProblem(p.created_at, observation.exchange, `transactions[${i}].created_at`);
      if (future) v.find('finance.created-at-future', { ...future, pointer: `${at}/created_at`, requirements: ['PT-FIN-TX-SHAPE'] });
      if (!Array.isArray(p.entries)) return v.find('finance.entries', { title: 'a posting has no entries array', expected: 'entries[]', actual: kindOf(p.entries), pointer: `${at}/entries`, requirements: ['PT-FIN-ENTRY-SHAPE'] });
      p.entries.forEach((e: unknown, j: number) => {
        const eat = `${at}/entries/${j}`;
        if (!isRecord(e)) return v.find('finance.entry', { title: 'an entry is not an object', expected: '{account_code, direction, amount_cents}', actual: show(e), pointer: eat, requirements: ['PT-FIN-ENTRY-SHAPE'] });
        if (typeof e.account_code !== 'string') v.find('finance.entry', { title: 'an entry account_code is not a string', expected: 'account_code: string', actual: `${kindOf(e.account_code)} ${show(e.account_code)}`, pointer: `${eat}/account_code`, requirements: ['PT-FIN-ENTRY-SHAPE'] });
        if (e.direction !== 'debit' && e.direction !== 'credit') v.find('finance.entry-direction', { title: 'an entry direction is neither debit nor credit', expected: '"debit" or "credit"', actual: show(e.direction), pointer: `${eat}/direction`, requirements: ['PT-FIN-ENTRY-SHAPE'] });
        money(e.amount_cents, 'PT-FIN-ENTRY-SHAPE', `${eat}/amount_cents`);
      });
    });
  },
});

/** A statement shown twice around a money move: the posting ids and the balance of each. */
export interface PostingsAround {
  before: Pick<Statement, 'postings' | 'available' | 'exchange'>;
  after: Pick<Statement, 'postings' | 'available' | 'exchange'>;
}

/**
 * "transactions[] | array | last 50 ledger postings" ("finance transactions | last 50"):
 * - `count`: an array; never more than 50; and when the ledger is known to hold more than 50
 *   postings (`ledgerHoldsMore`), exactly 50 (the text names the count, not a page size, and shows no
 *   pagination for the statement);
 * - `window`: a full statement (50 shown) before and after a capture. Counting is not enough: when
 *   available_cents moved yet the same 50 postings are shown, the posting behind the move is not
 *   among them, so the statement is not the LAST 50 (e.g. the first 50 of the ledger). Nothing is
 *   decided when a statement is not full (every posting is shown then), when the balance did not
 *   move (the capture rules judge that), or when the shown set changed.
 */
export const showLastFiftyPostings = defineRule({
  name: 'showLastFiftyPostings',
  requirements: ['PT-FIN-LAST-50'],
  codes: { 'finance.transactions': 'failure', 'finance.over-50': 'failure', 'finance.under-50': 'failure', 'finance.not-last-50': 'failure' },
  judge(observation: ({ kind: 'count'; json: unknown; exchange: Exchange; ledgerHoldsMore: boolean }) | ({ kind: 'window' } & PostingsAround), v) {
    if (observation.kind === 'window') {
      const { before, after } = observation;
      if (before.postings.length < LAST_POSTINGS || after.postings.length < LAST_POSTINGS) return v.nothingToJudge();
      if (before.available === undefined || after.available === undefined || before.available === after.available) return v.nothingToJudge();
      const shownBefore = new Set(before.postings.map((p) => p.id));
      if (after.postings.length !== before.postings.length || !after.postings.every((p) => shownBefore.has(p.id))) return;
      return v.find('finance.not-last-50', {
        title: 'the balance moved but the 50 postings shown did not change',
        expected: 'the last 50 postings, the newest (the one behind the move) included',
        actual: `available_cents ${before.available} → ${after.available}; the same ${after.postings.length} posting ids before and after`,
        exchanges: [before.exchange, after.exchange],
      });
    }
    const { json, exchange } = observation;
    if (!isStatement(json)) return v.nothingToJudge();
    v.shows(exchange);
    if (!Array.isArray(json.transactions)) {
      return v.find('finance.transactions', { title: 'transactions is not an array', expected: 'transactions[]: the last 50 ledger postings', actual: kindOf(json.transactions), pointer: '/transactions' });
    }
    const n = json.transactions.length;
    if (n > LAST_POSTINGS) return v.find('finance.over-50', { title: 'the statement lists more than 50 postings', expected: `at most ${LAST_POSTINGS} postings`, actual: `${n}` });
    if (observation.ledgerHoldsMore && n < LAST_POSTINGS) v.find('finance.under-50', { title: 'the statement lists fewer than the last 50 postings of a longer ledger', expected: `the last ${LAST_POSTINGS} postings`, actual: `${n} postings` });
  },
});

/**
 * A posting balances: "ledger postings" whose entries each carry a `direction` (`debit` or
 * `credit`) are double-entry postings, and a double-entry posting whose debits differ from its
 * credits is no ledger posting. The text never says entry amounts are positive, so a negative amount
 * in a balanced posting is only a warning.
 */
export const balancePostings = defineRule({
  name: 'balancePostings',
  requirements: ['PT-FIN-BALANCED'],
  codes: { 'finance.unbalanced': 'failure', 'finance.negative-entry': 'warning' },
  judge(observation: { posting: Json; exchange: Exchange }, v) {
    const { posting } = observation;
    const t = ledgerTotals(posting);
    const actual = `posting ${show(posting.id)} (${show(posting.event_type)}): debits ${t.debits}, credits ${t.credits}`;
    const expected = 'debits equal credits, entry amounts not negative (an inference from "ledger postings")';
    if (t.debits !== t.credits) return v.find('finance.unbalanced', { title: 'a ledger posting does not balance', expected, actual: `${actual}${t.negative ? ', a negative entry amount' : ''}`, exchanges: [observation.exchange] });
    if (t.negative) v.find('finance.negative-entry', { title: 'a ledger posting carries a negative entry amount', expected, actual: `${actual}, a negative entry amount`, exchanges: [observation.exchange] });
  },
});

// ── a capture, as conservation of money ────────────────────────────────────────────────────────────

/** One capture window: the statement before and after paying (or racing) one charge. */
export interface CaptureWindow {
  before: Statement;
  after: Statement;
  charge: CapturedCharge;
  /** the charge's amount in cents: what the capture brings in */
  amount: number;
  /** the step's own exchanges (pays, cancels) */
  exchanges: readonly Exchange[];
  /** several confirmations raced: more than one capture's worth is a double capture */
  concurrent?: boolean;
}

/**
 * What a capture window shows, as facts (no judgement): the postings attributed to the charge, what
 * the other new postings could explain, and how the merchant's money moved.
 */
export interface CaptureReading {
  charge: CapturedCharge;
  /** what the charge brought in */
  amount: number;
  concurrent: boolean;
  /** the statements and the step's exchanges */
  exchanges: Exchange[];
  /** new postings in the window; undefined when the window is not fully visible (more than 50 postings made meanwhile) */
  fresh?: Json[];
  /** the new postings attributed to the charge */
  mine: Json[];
  /** the volume of the other new postings: the most they can move a balance by (undefined: not visible) */
  foreignVolume?: number;
  /** available_cents after − before (undefined: not both integers) */
  availableMove?: number;
  /** reserve_cents after − before (absent and null count as 0; undefined: not readable) */
  reserveMove?: number;
}

/** Reads a capture window into facts for the capture rules. */
export function readCaptureWindow(w: CaptureWindow): CaptureReading {
  const fresh = newPostings(w.before, w.after);
  const freshIds = fresh ? new Set(fresh.map((p) => p.id)) : undefined;
  const known = new Set(w.before.postings.map((p) => p.id));
  const mine = capturePostingsOf(w.after.postings.filter((p) => !known.has(p.id)), w.charge, freshIds);
  const foreignVolume = fresh?.filter((p) => !mine.includes(p)).reduce((n, p) => n + ledgerTotals(p).volume, 0);
  const move = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined ? b - a : undefined);
  const availableMove = move(w.before.available, w.after.available);
  const reserveMove = move(w.before.reserve, w.after.reserve);
  return {
    charge: w.charge,
    amount: w.amount,
    concurrent: w.concurrent === true,
    exchanges: [w.before.exchange, ...w.exchanges, w.after.exchange],
    mine,
    ...(fresh !== undefined ? { fresh } : {}),
    ...(foreignVolume !== undefined ? { foreignVolume } : {}),
    ...(availableMove !== undefined ? { availableMove } : {}),
    ...(reserveMove !== undefined ? { reserveMove } : {}),
  };
}

/**
 * The merchant's money moved in the window: available plus reserve ("held in risk reserve": what a
 * capture withholds from the available balance is still the merchant's). A reserve that cannot be
 * read counts as not moved.
 */
export function merchantMove(r: CaptureReading): number | undefined {
  return r.availableMove === undefined ? undefined : r.availableMove + (r.reserveMove ?? 0);
}

/**
 * Where the capture's own postings sent the charge's money, whatever the accounts are called: each
 * account's net movement on the side opposite the one account that gave up the whole amount (the
 * clearing side). Credit-normal and debit-normal layouts read alike; when neither side is a single
 * account, every account counts. An account moved in and out (net 0) counts as 0. Undefined when the
 * postings move nothing in either direction.
 */
export function captureDestinations(postings: readonly Json[]): number[] | undefined {
  const nets = [...accountMovements(postings).values()];
  const credited = nets.filter((n) => n > 0);
  const debited = nets.filter((n) => n < 0).map((n) => -n);
  const through = nets.filter((n) => n === 0);
  if (credited.length === 0 || debited.length === 0) return undefined;
  const sides = debited.length === 1 && credited.length > 1 ? credited : credited.length === 1 && debited.length > 1 ? debited : [...credited, ...debited];
  return [...sides, ...through];
}

/**
 * "POST …/:id/pay … with the same effect (capture plus webhook) as a real payment": a new posting the
 * ledger attributes to the charge (naming its id or e2e_id, or carrying its distinctive amount) in a
 * fully visible window. What a capture looks like in the statement is not defined
 * (PT-CHARGE-PAY-CAPTURE is ambiguous): a warning. A window where more than 50 postings were made
 * decides nothing.
 */
export const captureOnPay = defineRule({
  name: 'captureOnPay',
  requirements: ['PT-CHARGE-PAY-CAPTURE'],
  codes: { 'finance.no-capture': 'warning' },
  judge(r: CaptureReading, v) {
    if (r.fresh === undefined) return v.nothingToJudge();
    if (r.mine.length > 0) return;
    v.find('finance.no-capture', { title: `paying charge ${r.charge.id} posted nothing the ledger attributes to it`, expected: 'a new posting (capture) naming the charge (id or e2e_id) after the payment', actual: `${r.fresh.length} new posting(s), none naming it`, exchanges: r.exchanges });
  },
});

/**
 * "available_cents | integer | reliable available balance", read as conservation of money over one
 * capture: the amount the charge brought in equals the move of available_cents, plus what was
 * withheld into reserve_cents ("held in risk reserve, if applicable"), plus fees, whatever the
 * accounts are called. Fees are not shown, nor when captured money becomes available, nor whether a
 * reserve applies; so, on the service's own balances and postings:
 * - the merchant's money (available + reserve) never falls beyond what the other new postings of the
 *   window could explain (their volume): no reading of "reliable", of fees or of when money becomes
 *   available lets money received lower it (`finance.balance-fell`, PT-FIN-CAPTURE-NO-LOSS, a
 *   failure);
 * - nor moves up by more than the charge brought in (money from nowhere:
 *   `finance.balance-unexplained`; earlier captures becoming available could show there);
 * - in a quiet window (no other new posting) where the capture's postings are visible, the balance
 *   moves as they say: available (or available plus reserve, a reserve held outside the ledger) moves
 *   by what they sent to one account. A move no account of the postings shows (the gross credited
 *   while the postings split a fee off, a fee taken from available that no posting records) is
 *   `finance.balance-off-ledger`;
 * - in a quiet window, a balance that did not move at all (and no posting explains it) is
 *   `finance.balance-stale`.
 * Concurrent confirmations that moved more than one capture's worth are a double capture
 * ({@link neverCaptureTwice}, states.ts), not judged here. The catalogue marks the sentence ambiguous
 * (PT-FIN-AVAILABLE-RELIABLE, latitude: warning): every finding but the fall is reported as a warning.
 */
export const keepAvailableReliable = defineRule({
  name: 'keepAvailableReliable',
  requirements: ['PT-FIN-AVAILABLE-RELIABLE', 'PT-FIN-CAPTURE-NO-LOSS'],
  codes: { 'finance.balance-fell': 'failure', 'finance.balance-unexplained': 'failure', 'finance.balance-off-ledger': 'warning', 'finance.balance-stale': 'warning' },
  judge(r: CaptureReading, v) {
    const moved = merchantMove(r);
    const available = r.availableMove;
    const others = r.foreignVolume;
    if (moved === undefined || available === undefined || others === undefined) return v.nothingToJudge();
    if (r.concurrent && moved > r.amount + others) return v.nothingToJudge();
    v.shows(...r.exchanges);
    const reserveText = r.reserveMove ? `, reserve_cents ${r.reserveMove >= 0 ? '+' : ''}${r.reserveMove}` : '';
    const actual = `available_cents ${available >= 0 ? '+' : ''}${available}${reserveText}${others > 0 ? ` (other new postings moved up to ${others} cents)` : ''}`;
    const expected = `available + reserve to rise by at most the ${r.amount} cents captured (less any fee)${others > 0 ? `, ± ${others} cents of other postings` : ''}`;
    if (moved < -others) return v.find('finance.balance-fell', { requirements: ['PT-FIN-CAPTURE-NO-LOSS'], title: `the balances fell after charge ${r.charge.id} was captured`, expected, actual });
    if (moved > r.amount + others) {
      return v.find('finance.balance-unexplained', { requirements: ['PT-FIN-AVAILABLE-RELIABLE'], title: `the balances rose by more than charge ${r.charge.id} brought in`, expected, actual });
    }
    if (others > 0) return;
    const destinations = r.mine.length > 0 ? captureDestinations(r.mine) : undefined;
    if (destinations !== undefined) {
      if (destinations.includes(available) || destinations.includes(moved)) return;
      const stale = available === 0 && moved === 0;
      return v.find(stale ? 'finance.balance-stale' : 'finance.balance-off-ledger', {
        title: stale ? 'available_cents did not move after a capture' : 'available_cents moved by an amount the capture posting does not show',
        expected: `a move the capture's postings show: ${destinations.filter((n) => n !== 0).join(' or ')} cents to one account ("reliable available balance")`,
        actual: `${actual}; postings ${show(r.mine, 400)}`,
      });
    }
    if (moved === 0) v.find('finance.balance-stale', { title: 'available_cents did not move after a capture', expected: `a rise of the captured amount (${r.amount} cents) less any fee or reserve`, actual });
  },
});

/** A one-line outcome of a capture window, for step logs and notes. */
export function describeCapture(r: CaptureReading): string {
  const moved = merchantMove(r);
  const balance = r.availableMove === undefined ? '' : `, available ${r.availableMove >= 0 ? '+' : ''}${r.availableMove}${r.reserveMove ? `, reserve ${r.reserveMove >= 0 ? '+' : ''}${r.reserveMove}` : ''}`;
  const window = r.foreignVolume === undefined ? ' (more than 50 postings meanwhile: window not fully visible)' : r.foreignVolume > 0 ? `; other postings' volume ${r.foreignVolume}` : '';
  return `${r.mine.length} posting(s) for the charge${balance}${moved !== undefined && moved > r.amount ? ` (more than the ${r.amount} captured)` : ''}${window}`;
}
