/**
 * The partner charge list (partner-cashin-api.md, "GET /v1/business/pix-charges?status=<state>"):
 * "Lists the account charges, newest first, up to 200 records. Optional query `status` filters by
 * one of the charge states. Response envelope and pagination: not shown."
 *
 * One locator finds the array of charges in any envelope ({@link locateChargeList}); the suites, the
 * fuzzer's ListCharges and the environment checks all use it.
 */
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { isRecord } from '../../core/json.js';
import { NOT_EVALUATED, type Json } from './charges.js';

/** "up to 200 records" */
export const LIST_MAX = 200;

export interface LocatedList {
  items: Json[];
  /** how the array was found, e.g. `top-level array`, `property "data"` */
  shape: string;
  /** the envelope hints at further pages (a next link, cursor, has_more): the list may be one page */
  paged: boolean;
}

const CONVENTIONAL = ['data', 'items', 'charges', 'results', 'records'];
const PAGING = /^(next|next_?cursor|cursor|has_?more|next_?page|links|next_?url)$/i;

function objects(value: unknown): Json[] | undefined {
  return Array.isArray(value) && value.every(isRecord) ? (value as Json[]) : undefined;
}

function looksLikeCharge(item: Json): boolean {
  return 'status' in item && ('id' in item || 'amount_cents' in item);
}

function pagedEnvelope(json: Record<string, unknown>): boolean {
  return Object.entries(json).some(([k, v]) => (PAGING.test(k) && v !== null && v !== false && v !== '') || (isRecord(v) && pagedEnvelope(v)));
}

/**
 * Finds the array of charges in a list answer ("Response envelope and pagination: not shown"): a
 * top-level array, or the property (one level deep, or two) holding an array of charge-like objects.
 * Several candidates: the one holding charges; then a conventional name (`data`, `items`, `charges`,
 * `results`, `records`). Undefined when no array can be told to be the list.
 */
export function locateChargeList(json: unknown): LocatedList | undefined {
  if (Array.isArray(json)) {
    const items = objects(json);
    return items ? { items, shape: 'top-level array', paged: false } : undefined;
  }
  if (!isRecord(json)) return undefined;
  const candidates: Array<{ items: Json[]; key: string; shape: string }> = [];
  for (const [key, value] of Object.entries(json)) {
    const items = objects(value);
    if (items) candidates.push({ items, key, shape: `property "${key}"` });
    else if (isRecord(value)) {
      for (const [inner, v] of Object.entries(value)) {
        const nested = objects(v);
        if (nested) candidates.push({ items: nested, key: inner, shape: `property "${key}.${inner}"` });
      }
    }
  }
  const pick = (list: typeof candidates): (typeof candidates)[number] | undefined => {
    if (list.length === 1) return list[0];
    const conventional = list.filter((c) => CONVENTIONAL.includes(c.key.toLowerCase()));
    return conventional.length === 1 ? conventional[0] : undefined;
  };
  const charges = candidates.filter((c) => c.items.some(looksLikeCharge));
  const chosen = charges.length > 0 ? pick(charges) : pick(candidates);
  return chosen ? { items: chosen.items, shape: chosen.shape, paged: pagedEnvelope(json) } : undefined;
}

/** True when the list may not show every charge: a full page (200) or an envelope hinting at more pages. */
export function mayBeTruncated(list: LocatedList): boolean {
  return list.paged || list.items.length >= LIST_MAX;
}

/**
 * A 2xx list answer holds an identifiable array of charges (the envelope is open; an answer with no
 * array of charge objects at all cannot be "the account charges"). Returns the located list too.
 */
export function verifyChargeList(json: unknown, ctx: RuleContext): { judgement: Judgement; list?: LocatedList } {
  const list = locateChargeList(json);
  if (list) return { judgement: judge(ctx), list };
  return {
    judgement: judge(ctx, makeFinding(ctx, {
      code: 'list.no-array',
      title: 'the list answer holds no identifiable array of charges',
      severity: 'failure',
      expected: 'the charges as a JSON array (top level or in one envelope property; the envelope is not shown)',
      actual: show(json, 300),
    })),
  };
}

function createdAt(item: Json): number {
  return typeof item.created_at === 'string' ? Date.parse(item.created_at) : Number.NaN;
}

/**
 * "newest first, up to 200 records" — what the list must show of the account's charges:
 * - every adjacent pair in order of created_at, newest first (ties allowed; unparseable dates skipped);
 * - `ours` (ids in creation order) listed in reverse creation order;
 * - the newest are kept: a charge of ours created later may not be missing while an earlier one is listed;
 * - ours present at all unless the list may be truncated (full page or paging hints).
 * Decides PT-LIST-ORDER (order), PT-LIST-MAX-200 (which 200) and PT-LIST-ACCOUNT-SCOPE (presence).
 */
export function verifyNewestFirst(list: LocatedList, ours: readonly string[], ctx: Omit<RuleContext, 'requirements'>): Judgement {
  const order = { ...ctx, requirements: ['PT-LIST-ORDER'] as const };
  const orderFindings = [];
  for (let i = 0; i + 1 < list.items.length; i++) {
    const a = list.items[i]!;
    const b = list.items[i + 1]!;
    const ta = createdAt(a);
    const tb = createdAt(b);
    if (Number.isFinite(ta) && Number.isFinite(tb) && ta < tb) {
      orderFindings.push(makeFinding(order, { code: 'list.order', title: 'the list is not newest first', severity: 'failure', expected: 'each listed charge created no earlier than the next one', actual: `${show(a.id)} (created ${show(a.created_at)}) listed before ${show(b.id)} (created ${show(b.created_at)})`, pointer: `/${i}` }));
      break;
    }
  }
  const positions = ours.map((id) => list.items.findIndex((i) => i.id === id));
  const present = positions.filter((p) => p >= 0);
  // ours in creation order: a later one is listed first, unless the service stamped both with one
  // created_at (a tie says nothing about which is newer to the service's clock)
  for (let j = 1; j < ours.length && orderFindings.length === 0; j++) {
    for (let i = 0; i < j && orderFindings.length === 0; i++) {
      const pi = positions[i]!;
      const pj = positions[j]!;
      if (pi < 0 || pj < 0 || pj < pi) continue;
      const ti = createdAt(list.items[pi]!);
      const tj = createdAt(list.items[pj]!);
      if (Number.isFinite(ti) && Number.isFinite(tj) && ti === tj) continue;
      orderFindings.push(makeFinding(order, { code: 'list.order', title: 'the list is not newest first', severity: 'failure', expected: 'a charge created later is listed before an earlier one', actual: `creation order → list positions ${show(positions)}` }));
    }
  }
  const parts: Judgement[] = [judge(order, orderFindings)];
  if (ours.length >= 2) {
    const kept = { ...ctx, requirements: ['PT-LIST-MAX-200'] as const };
    const dropped = positions.findIndex((p, i) => p < 0 && positions.slice(0, i).some((q) => q >= 0));
    parts.push(judge(kept, dropped < 0 ? undefined : makeFinding(kept, { code: 'list.newest-dropped', title: 'the list omits a newer charge while showing an older one', severity: 'failure', expected: 'the newest charges ("newest first, up to 200 records")', actual: `charge ${ours[dropped]} (created later) missing; list positions of ours in creation order ${show(positions)}` })));
  }
  if (ours.length > 0) {
    const scope = { ...ctx, requirements: ['PT-LIST-ACCOUNT-SCOPE'] as const };
    if (present.length === 0 && mayBeTruncated(list)) parts.push(NOT_EVALUATED);
    else parts.push(judge(scope, present.length > 0 ? undefined : makeFinding(scope, { code: 'list.missing', title: 'charges just created are missing from a list that is not full', severity: 'failure', expected: 'our charges listed ("Lists the account charges")', actual: `none of ${ours.length} in ${list.items.length} item(s)` })));
  }
  return combine(...parts);
}

/**
 * "up to 200 records": never more than 200. When the account is known to hold more than 200
 * charges, fewer than 200 without any paging hint is a warning: pagination is "not shown", so a
 * smaller page announced only in headers is possible.
 */
export function verifyListCap(list: LocatedList, ctx: RuleContext & { accountHoldsMoreThanCap?: boolean }): Judgement {
  if (list.items.length > LIST_MAX) {
    return judge(ctx, makeFinding(ctx, { code: 'list.over-200', title: 'the list holds more than 200 records', severity: 'failure', expected: `at most ${LIST_MAX} records`, actual: `${list.items.length} records` }));
  }
  if (ctx.accountHoldsMoreThanCap && list.items.length < LIST_MAX && !list.paged) {
    return judge(ctx, makeFinding(ctx, { code: 'list.short', title: 'the list shows fewer than 200 of an account holding more', severity: 'warning', expected: `${LIST_MAX} records (or a paging hint)`, actual: `${list.items.length} records, envelope ${list.shape}` }));
  }
  return judge(ctx);
}

/**
 * "Optional query `status` filters by one of the charge states": every item is in `state`; our
 * charge in that state is listed (unless the list may be truncated); our charges in other states
 * are not. A pending filter may show a lazily expired charge as expired ("detected lazily"): allowed.
 */
export function verifyStatusFilter(list: LocatedList, state: string, ours: Readonly<Record<string, string | undefined>>, ctx: RuleContext): Judgement {
  const findings = [];
  const wrong = list.items.filter((i) => i.status !== state && !(state === 'pending' && i.status === 'expired'));
  if (wrong.length) findings.push(makeFinding(ctx, { code: 'list.filter', title: `status=${state} lists charges in other states`, severity: 'failure', expected: `every item with status "${state}"`, actual: `${wrong.length} of ${list.items.length} not ${state}, e.g. ${show(wrong[0], 200)}` }));
  const mine = ours[state];
  if (mine && !list.items.some((i) => i.id === mine) && !mayBeTruncated(list)) {
    findings.push(makeFinding(ctx, { code: 'list.filter-missing', title: `status=${state} omits our ${state} charge`, severity: 'failure', expected: `charge ${mine} listed`, actual: `${list.items.length} item(s), ours absent` }));
  }
  for (const [other, id] of Object.entries(ours)) {
    if (other !== state && id && list.items.some((i) => i.id === id)) {
      findings.push(makeFinding(ctx, { code: 'list.filter', title: `status=${state} lists our ${other} charge`, severity: 'failure', expected: `no ${other} charge`, actual: `charge ${id} listed` }));
    }
  }
  return judge(ctx, findings);
}

/**
 * A charge of another account or environment must not be listed ("Lists the account charges";
 * "Their data is independent"). `code` names which boundary was crossed.
 */
export function ensureNotListed(list: LocatedList, foreignId: string, ctx: RuleContext & { code: 'list.other-account' | 'env.shared-list'; whose: string }): Judgement {
  if (!list.items.some((i) => i.id === foreignId)) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: ctx.code, title: `the list shows ${ctx.whose}`, severity: 'failure', expected: 'only this account\'s and environment\'s charges', actual: `charge ${foreignId} listed` }));
}

/**
 * One charge, one row: "moves to exactly one of the other states" — a charge listed twice (in two
 * states, or twice in one) fails.
 */
export function ensureListedOnce(list: LocatedList, ctx: RuleContext): Judgement {
  const ids = list.items.map((x) => x.id).filter((id) => id !== undefined);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice === undefined) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'list.duplicate', title: 'one charge is listed twice', severity: 'failure', expected: 'each charge once, in one state', actual: `id ${show(twice)}` }));
}
