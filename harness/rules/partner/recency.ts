/**
 * Which records a bounded listing shows (partner-cashin-api.md): "Lists the account charges, newest
 * first, up to 200 records" and "transactions[] | array | last 50 ledger postings" (Limits:
 * "list charges | up to 200 records", "finance transactions | last 50").
 *
 * Counting is not enough (issue 15): a list that keeps the 200 OLDEST charges, or a statement that
 * shows the FIRST 50 postings, has the right size. These rules look at which records are shown,
 * using the service's own timestamps (so clock skew between us and the service does not matter).
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { isRecord } from '../../core/json.js';

const NOTHING: Judgement = { requirements: [], findings: [] };

function createdAtMs(item: unknown): number {
  return isRecord(item) && typeof item.created_at === 'string' ? Date.parse(item.created_at) : Number.NaN;
}

/** A charge we created just before listing: its id and the created_at the service gave it. */
export interface RecentCharge {
  id: string;
  createdAt: unknown;
}

/**
 * "newest first, up to 200 records": the 200 kept are the newest. When none of our just-created
 * charges is listed, the list kept older charges and dropped newer ones (failure) if either
 * - a listed charge is one we KNOW existed before ours (`knownOlder`: ids we saw listed or created,
 *   and awaited, before creating ours): had 200 charges newer than ours pushed ours out, they would
 *   have pushed that older one out too; no clock is involved;
 * - every listed charge was created (by the service's own created_at) before the oldest of ours.
 * Otherwise (ours missing, nothing provably older shown) it passes: another worker may have created
 * 200 charges since, and created_at ties (a seconds-precision clock) say nothing about order.
 */
export function ensureNewestKept(items: readonly unknown[], ours: readonly RecentCharge[], ctx: RuleContext, knownOlder: readonly unknown[] = []): Judgement {
  if (items.length === 0 || ours.length === 0) return NOTHING;
  const listedIds = items.map((i) => (isRecord(i) ? i.id : undefined));
  const listed = new Set(listedIds);
  if (ours.some((c) => listed.has(c.id))) return judge(ctx);
  const missing = `none of ours ${show(ours.map((c) => c.id))} listed`;
  const older = new Set<unknown>(knownOlder.filter((id) => id !== undefined));
  const olderShown = listedIds.find((id) => older.has(id));
  if (olderShown !== undefined) {
    return judge(ctx, makeFinding(ctx, {
      code: 'list.newest-dropped',
      title: 'the list shows an older charge and omits the newest',
      severity: 'failure',
      expected: 'the newest charges first ("newest first, up to 200 records"): ours, created after it, listed before it drops out',
      actual: `${items.length} charges; ${show(olderShown)} (known to exist before ours were created) listed; ${missing}`,
    }));
  }
  const ourTimes = ours.map((c) => (typeof c.createdAt === 'string' ? Date.parse(c.createdAt) : Number.NaN)).filter(Number.isFinite);
  const times = items.map(createdAtMs);
  if (ourTimes.length === 0 || !times.every(Number.isFinite)) return judge(ctx);
  const oldestOurs = Math.min(...ourTimes);
  const newestListed = Math.max(...times);
  if (newestListed >= oldestOurs) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'list.newest-dropped',
    title: 'the list shows older charges and omits the newest',
    severity: 'failure',
    expected: `the newest charges first ("newest first, up to 200 records"): ours, created ${new Date(oldestOurs).toISOString()} or later, listed`,
    actual: `${items.length} charges, the newest created ${new Date(newestListed).toISOString()}; ${missing}`,
  }));
}

/** A statement as these rules read it: the posting ids shown and the balance. */
export interface StatementSeen {
  postingIds: readonly unknown[];
  available: number | undefined;
}

/** The postings a finance answer shows, and available_cents when it is an integer. */
export function statementSeen(json: unknown): StatementSeen {
  const postings = isRecord(json) && Array.isArray(json.transactions) ? json.transactions : [];
  const available = isRecord(json) && typeof json.available_cents === 'number' ? json.available_cents : undefined;
  return { postingIds: postings.map((p) => (isRecord(p) ? p.id : undefined)), available };
}

/** "last 50 ledger postings" */
export const LAST_FIFTY = 50;

/**
 * "transactions[] | last 50 ledger postings": a full statement (50 shown) before and after a
 * capture. When available_cents moved across the capture yet the same 50 postings are shown, the
 * posting behind the move is not among those shown: the statement is not the LAST 50 (e.g. the
 * first 50 of the ledger). Not judged when the statement is not full (every posting is shown then),
 * when the balance did not move (that is the capture rules' business), or when the shown set changed.
 */
export function ensureLatestPostingsShown(before: StatementSeen, after: StatementSeen, ctx: RuleContext): Judgement {
  if (before.postingIds.length < LAST_FIFTY || after.postingIds.length < LAST_FIFTY) return NOTHING;
  if (before.available === undefined || after.available === undefined || before.available === after.available) return NOTHING;
  const shownBefore = new Set(before.postingIds);
  const unchanged = after.postingIds.length === before.postingIds.length && after.postingIds.every((id) => shownBefore.has(id));
  if (!unchanged) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'finance.not-last-50',
    title: 'the balance moved but the 50 postings shown did not change',
    severity: 'failure',
    expected: 'the last 50 postings, the newest (the one behind the move) included',
    actual: `available_cents ${before.available} → ${after.available}; the same ${after.postingIds.length} posting ids before and after`,
  }));
}
