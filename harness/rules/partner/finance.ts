/**
 * The partner finance statement and ledger (partner-cashin-api.md, "Finance statement (`GET
 * /v1/business/finance` response)"): merchant_id, "currency | always BRL", "available_cents | integer
 * | reliable available balance", "reserve_cents | integer | held in risk reserve, if applicable",
 * "transactions[] | last 50 ledger postings"; each posting `id`, `event_type`, `description`,
 * `created_at` ISO 8601, `entries[]` with `account_code`, `direction` (`debit` or `credit`),
 * `amount_cents` integer. "POST …/pay … with the same effect (capture plus webhook) as a real
 * payment"; "two concurrent confirmations of the same charge never capture the value twice".
 *
 * One place computes a posting's totals ({@link ledgerTotals}) and one finds "our capture posting"
 * ({@link capturePostingsOf}); the finance checks, the atomicity checks and the fuzzer use them.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement } from '../finding.js';
import { combine, judge, kindOf, makeFinding, show, type RuleContext } from '../judgement.js';
import { verifyIntegerCents } from '../money.js';
import { verifyIsoTimestamp } from '../time.js';
import { isRecord } from '../../core/json.js';
import { NOT_EVALUATED, type Json } from './charges.js';

/** "transactions[] | last 50 ledger postings" */
export const LAST_POSTINGS = 50;

/** A statement as read: the balance (when an integer) and the postings (objects only). */
export interface Statement {
  available?: number;
  postings: Json[];
  exchange: Exchange;
}

export function statementOf(json: unknown, exchange: Exchange): Statement {
  const postings = isRecord(json) && Array.isArray(json.transactions) ? json.transactions.filter(isRecord) : [];
  const available = isRecord(json) && typeof json.available_cents === 'number' ? json.available_cents : undefined;
  return { postings, exchange, ...(available !== undefined ? { available } : {}) };
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

/** True when any field of the posting (id, description, event_type, entries) mentions `needle`. */
export function postingMentions(posting: Json, needle: string): boolean {
  return needle !== '' && JSON.stringify(posting).includes(needle);
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
  const named = postings.filter((p) => postingMentions(p, charge.id) || (typeof charge.e2eId === 'string' && postingMentions(p, charge.e2eId)));
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

function ctxAt(base: Omit<RuleContext, 'requirements'>, requirements: RuleContext['requirements'], pointer: string): RuleContext {
  return { ...base, requirements, pointer, subject: pointer.slice(1).replace(/\//g, '.') };
}

/** The fields of "Finance statement (`GET /v1/business/finance` response)". */
const STATEMENT_FIELDS = ['merchant_id', 'currency', 'available_cents', 'reserve_cents', 'transactions'] as const;

/**
 * The statement's shape: BRL ("always BRL"), merchant_id string, integer available_cents,
 * reserve_cents integer when present ("if applicable": absent, null and 0 all fair), transactions an
 * array of postings with string id/event_type/description, ISO 8601 created_at and entries of
 * {account_code string, direction debit|credit, amount_cents integer}.
 */
export function verifyStatementShape(statement: unknown, base: Omit<RuleContext, 'requirements'>): Judgement {
  if (!isRecord(statement)) {
    const ctx = { ...base, requirements: ['PT-FIN-GET'] as const };
    return judge(ctx, makeFinding(ctx, { code: 'finance.not-object', title: 'the statement is not a JSON object', severity: 'failure', expected: 'the finance statement object', actual: show(statement) }));
  }
  // "Returns the finance statement": a body with none of the statement's own fields is something
  // else (an envelope, an error object), judged once here rather than as every field missing
  if (!STATEMENT_FIELDS.some((key) => key in statement)) {
    const ctx = { ...base, requirements: ['PT-FIN-GET'] as const };
    return judge(ctx, makeFinding(ctx, { code: 'finance.not-statement', title: 'the finance answer is not the statement: none of its fields is at the top level', severity: 'failure', expected: `the statement object itself: ${STATEMENT_FIELDS.join(', ')}`, actual: `an object with keys ${show(Object.keys(statement))}` }));
  }
  const parts: Judgement[] = [];
  const one = (requirements: RuleContext['requirements'], pointer: string, finding?: (ctx: RuleContext) => Finding | undefined): void => {
    const ctx = ctxAt(base, requirements, pointer);
    parts.push(judge(ctx, finding?.(ctx)));
  };
  one(['PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL'], '/currency', (ctx) => statement.currency === 'BRL' ? undefined : makeFinding(ctx, { code: 'finance.currency', title: 'the statement currency is not BRL', severity: 'failure', expected: 'currency "BRL" ("always BRL")', actual: `currency ${show(statement.currency)}` }));
  one(['PT-FIN-MERCHANT-ID'], '/merchant_id', (ctx) => typeof statement.merchant_id === 'string' ? undefined : makeFinding(ctx, { code: 'finance.merchant-id', title: 'merchant_id is not a string', severity: 'failure', expected: 'merchant_id: string', actual: `${kindOf(statement.merchant_id)} ${show(statement.merchant_id)}` }));
  parts.push(verifyIntegerCents(statement.available_cents, ctxAt(base, ['PT-FIN-AVAILABLE', 'PT-MONEY-INTEGER-CENTS'], '/available_cents')));
  if (statement.reserve_cents !== undefined && statement.reserve_cents !== null) {
    parts.push(verifyIntegerCents(statement.reserve_cents, ctxAt(base, ['PT-FIN-RESERVE', 'PT-MONEY-INTEGER-CENTS'], '/reserve_cents')));
  }
  if (!Array.isArray(statement.transactions)) {
    one(['PT-FIN-LAST-50'], '/transactions', (ctx) => makeFinding(ctx, { code: 'finance.transactions', title: 'transactions is not an array', severity: 'failure', expected: 'transactions[]: the last 50 ledger postings', actual: kindOf(statement.transactions) }));
    return combine(...parts);
  }
  statement.transactions.forEach((p: unknown, i: number) => {
    const at = `/transactions/${i}`;
    if (!isRecord(p)) {
      one(['PT-FIN-TX-SHAPE'], at, (ctx) => makeFinding(ctx, { code: 'finance.posting', title: 'a posting is not an object', severity: 'failure', expected: 'an object', actual: show(p) }));
      return;
    }
    for (const key of ['id', 'event_type', 'description'] as const) {
      one(['PT-FIN-TX-SHAPE'], `${at}/${key}`, (ctx) => typeof p[key] === 'string' ? undefined : makeFinding(ctx, { code: 'finance.posting', title: `a posting's ${key} is not a string`, severity: 'failure', expected: `${key}: string`, actual: `${kindOf(p[key])} ${show(p[key])}` }));
    }
    parts.push(verifyIsoTimestamp(p.created_at, ctxAt(base, ['PT-FIN-TX-SHAPE'], `${at}/created_at`)));
    if (!Array.isArray(p.entries)) {
      one(['PT-FIN-ENTRY-SHAPE'], `${at}/entries`, (ctx) => makeFinding(ctx, { code: 'finance.entries', title: 'a posting has no entries array', severity: 'failure', expected: 'entries[]', actual: kindOf(p.entries) }));
      return;
    }
    p.entries.forEach((e: unknown, j: number) => {
      const eat = `${at}/entries/${j}`;
      if (!isRecord(e)) {
        one(['PT-FIN-ENTRY-SHAPE'], eat, (ctx) => makeFinding(ctx, { code: 'finance.entry', title: 'an entry is not an object', severity: 'failure', expected: '{account_code, direction, amount_cents}', actual: show(e) }));
        return;
      }
      one(['PT-FIN-ENTRY-SHAPE'], `${eat}/account_code`, (ctx) => typeof e.account_code === 'string' ? undefined : makeFinding(ctx, { code: 'finance.entry', title: 'an entry account_code is not a string', severity: 'failure', expected: 'account_code: string', actual: `${kindOf(e.account_code)} ${show(e.account_code)}` }));
      one(['PT-FIN-ENTRY-SHAPE'], `${eat}/direction`, (ctx) => e.direction === 'debit' || e.direction === 'credit' ? undefined : makeFinding(ctx, { code: 'finance.entry-direction', title: 'an entry direction is neither debit nor credit', severity: 'failure', expected: '"debit" or "credit"', actual: show(e.direction) }));
      parts.push(verifyIntegerCents(e.amount_cents, ctxAt(base, ['PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'], `${eat}/amount_cents`)));
    });
  });
  return combine(...parts);
}

/**
 * "transactions[] | last 50 ledger postings": never more than 50; and when the ledger is known to
 * hold more than 50 postings (`ledgerHoldsMore`), exactly 50: the text names the count, not a page
 * size, and shows no pagination for the statement.
 */
export function verifyLastFifty(statement: unknown, ctx: RuleContext & { ledgerHoldsMore: boolean }): Judgement {
  if (!isRecord(statement) || !Array.isArray(statement.transactions)) return NOT_EVALUATED;
  const n = statement.transactions.length;
  if (n > LAST_POSTINGS) return judge(ctx, makeFinding(ctx, { code: 'finance.over-50', title: 'the statement lists more than 50 postings', severity: 'failure', expected: `at most ${LAST_POSTINGS} postings`, actual: `${n}` }));
  if (ctx.ledgerHoldsMore && n < LAST_POSTINGS) return judge(ctx, makeFinding(ctx, { code: 'finance.under-50', title: 'the statement lists fewer than the last 50 postings of a longer ledger', severity: 'failure', expected: `the last ${LAST_POSTINGS} postings`, actual: `${n} postings` }));
  return judge(ctx);
}

/**
 * A posting balances: "ledger postings" whose entries each carry a `direction` (`debit` or
 * `credit`) are double-entry postings, and a double-entry posting whose debits differ from its
 * credits is no ledger posting: FAILURE. The text never says entry amounts are positive, so a
 * negative amount in a balanced posting is only a WARNING.
 */
export function verifyPostingBalanced(posting: Json, ctx: RuleContext): Judgement {
  const t = ledgerTotals(posting);
  if (t.debits === t.credits && !t.negative) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'finance.unbalanced',
    title: t.debits === t.credits ? 'a ledger posting carries a negative entry amount' : 'a ledger posting does not balance',
    severity: t.debits === t.credits ? 'warning' : 'failure',
    expected: 'debits equal credits, entry amounts not negative (an inference from "ledger postings")',
    actual: `posting ${show(posting.id)} (${show(posting.event_type)}): debits ${t.debits}, credits ${t.credits}${t.negative ? ', a negative entry amount' : ''}`,
  }));
}

/** Same event type and same entries: the same posting twice (the value captured twice). */
function shapeOf(p: Json): string {
  const entries = entriesOf(p).map((e) => `${String(e.account_code)}/${String(e.direction)}/${String(e.amount_cents)}`).sort();
  return `${String(p.event_type)}|${entries.join(',')}`;
}

/** What a capture can fairly move available_cents by: the gross, any credited amount, or gross minus fee-like entries (fees are not shown). */
export function plausibleNets(posting: Json | undefined, amount: number): number[] {
  const nets = new Set<number>([amount]);
  if (!posting) return [...nets];
  const entries = entriesOf(posting);
  for (const e of entries) if (e.direction === 'credit' && typeof e.amount_cents === 'number') nets.add(e.amount_cents);
  const feeSum = entries.filter((e) => typeof e.account_code === 'string' && /fee|tarif|taxa|revenue|commission/i.test(e.account_code)).reduce((n, e) => n + (typeof e.amount_cents === 'number' ? Math.abs(e.amount_cents) : 0), 0);
  if (feeSum) nets.add(amount - feeSum);
  return [...nets];
}

/** One capture window: the statement before and after paying (or racing) one charge. */
export interface CaptureWindow {
  before: Statement;
  after: Statement;
  charge: CapturedCharge;
  /** the charge's amount in cents */
  amount: number;
  /** the step's own exchanges (pays, cancels) */
  exchanges: readonly Exchange[];
  /** the charge ended canceled: no capture allowed */
  mustNotCapture?: boolean;
  /** several confirmations raced: a doubled balance move is a double capture */
  concurrent?: boolean;
}

export interface CaptureVerdict {
  judgement: Judgement;
  /** our capture postings found in the window */
  mine: Json[];
  /** available_cents after − before, when both are integers */
  delta?: number;
  /** the gross volume of other new postings (undefined: the window is not fully visible) */
  foreignVolume?: number;
  /** a one-line outcome for the step log */
  outcome: string;
}

/**
 * The sound judgement of one capture window, while other checks post to the same ledger:
 * - ended canceled yet a posting for it appeared: failure (PT-STATE-ONE-TRANSITION, PT-ATOMIC-CAPTURE);
 * - two identical postings for it, or (concurrent confirmations, quiet window) a balance move of
 *   twice its net: "never capture the value twice" (PT-ATOMIC-CAPTURE, failure);
 * - no new posting for it in a fully visible window: `finance.no-capture` (PT-CHARGE-PAY-CAPTURE,
 *   ambiguous: what a capture looks like is not defined → warning);
 * - available_cents outside [min(net) − F, max(net) + F], F the volume of other new postings
 *   (exactly a net when F = 0): PT-FIN-AVAILABLE-RELIABLE (ambiguous → warning).
 */
export function judgeCaptureWindow(w: CaptureWindow): CaptureVerdict {
  const exchanges = [w.before.exchange, ...w.exchanges, w.after.exchange];
  const fresh = newPostings(w.before, w.after);
  const freshIds = fresh ? new Set(fresh.map((p) => p.id)) : undefined;
  const known = new Set(w.before.postings.map((p) => p.id));
  const mine = capturePostingsOf(w.after.postings.filter((p) => !known.has(p.id)), w.charge, freshIds);
  const delta = w.before.available !== undefined && w.after.available !== undefined ? w.after.available - w.before.available : undefined;
  const foreignVolume = fresh?.filter((p) => !mine.includes(p)).reduce((n, p) => n + ledgerTotals(p).volume, 0);
  const base = { exchanges };
  const verdict = (judgement: Judgement, outcome: string): CaptureVerdict => ({ judgement, mine, outcome, ...(delta !== undefined ? { delta } : {}), ...(foreignVolume !== undefined ? { foreignVolume } : {}) });

  if (w.mustNotCapture) {
    const ctx = { ...base, requirements: ['PT-STATE-ONE-TRANSITION', 'PT-ATOMIC-CAPTURE'] as const };
    return verdict(judge(ctx, mine.length === 0 ? undefined : makeFinding(ctx, { code: 'atomic.canceled-captured', title: `charge ${w.charge.id} ended canceled, yet a posting for it was made`, severity: 'failure', expected: 'no capture of a charge that ended canceled', actual: show(mine.map((p) => p.id), 400) })), `${mine.length} posting(s) for a canceled charge`);
  }
  const parts: Judgement[] = [];
  const atomic = { ...base, requirements: ['PT-ATOMIC-CAPTURE'] as const };
  const shapes = new Map<string, number>();
  for (const p of mine) shapes.set(shapeOf(p), (shapes.get(shapeOf(p)) ?? 0) + 1);
  const doubled = [...shapes.entries()].find(([, n]) => n > 1);
  const nets = plausibleNets(mine[0], w.amount);
  const doubledMove = w.concurrent === true && foreignVolume === 0 && delta !== undefined && Math.min(...nets) > 0 && delta >= 2 * Math.min(...nets) && !nets.includes(delta);
  let atomicFinding: Finding | undefined;
  if (doubled) atomicFinding = makeFinding(atomic, { code: 'atomic.double-capture', title: `charge ${w.charge.id} was captured ${doubled[1]} times`, severity: 'failure', expected: 'one capture posting per paid charge ("never capture the value twice")', actual: `${doubled[1]} identical postings naming it: ${doubled[0]}` });
  else if (doubledMove) atomicFinding = makeFinding(atomic, { code: 'atomic.double-capture', title: `concurrent confirmations of charge ${w.charge.id} moved the balance twice`, severity: 'failure', expected: `available_cents to rise once, by ${nets.join(' or ')} cents`, actual: `+${delta} cents with no other posting in between` });
  if (w.concurrent || doubled) parts.push(judge(atomic, atomicFinding));
  if (atomicFinding) return verdict(combine(...parts), 'captured twice');

  if (fresh !== undefined) {
    const ctx = { ...base, requirements: ['PT-CHARGE-PAY-CAPTURE'] as const };
    parts.push(judge(ctx, mine.length > 0 ? undefined : makeFinding(ctx, { code: 'finance.no-capture', title: `paying charge ${w.charge.id} posted nothing the ledger attributes to it`, severity: 'warning', expected: 'a new posting (capture) naming the charge (id or e2e_id) after the payment', actual: `${fresh.length} new posting(s), none naming it` })));
  }
  if (delta !== undefined && foreignVolume !== undefined) {
    const ctx = { ...base, requirements: ['PT-FIN-AVAILABLE-RELIABLE'] as const };
    const lo = Math.min(...nets) - foreignVolume;
    const hi = Math.max(...nets) + foreignVolume;
    const ok = foreignVolume === 0 ? nets.includes(delta) : delta >= lo && delta <= hi;
    parts.push(judge(ctx, ok ? undefined : makeFinding(ctx, {
      code: delta === 0 ? 'finance.balance-stale' : 'finance.balance-unexplained',
      title: delta === 0 ? 'available_cents did not move after a capture' : 'available_cents moved by an amount the new postings do not explain',
      severity: 'failure',
      expected: foreignVolume === 0 ? `a move of ${nets.join(' or ')} cents` : `a move within [${lo}, ${hi}] (our net ± concurrent postings)`,
      actual: `moved by ${delta}`,
    })));
  }
  return verdict(combine(...parts), `${mine.length} posting(s) for the charge${delta !== undefined ? `, available ${delta >= 0 ? '+' : ''}${delta}` : ''}`);
}
