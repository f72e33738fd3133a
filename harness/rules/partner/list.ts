/**
 * The partner charge list (partner-cashin-api.md, "GET /v1/business/pix-charges?status=<state>"):
 * "Lists the account charges, newest first, up to 200 records. Optional query `status` filters by
 * one of the charge states. Response envelope and pagination: not shown." (Limits: "list charges |
 * up to 200 records").
 *
 * One locator finds the array of charges in any envelope ({@link locateChargeList}); the suites, the
 * fuzzer's ListCharges and the environment checks all use it. Other workers create charges at the
 * same time, so the rules judge the whole list's created_at order, OUR charges' relative order and
 * presence, and treat a full page (200 items) or paging hints as possibly having pushed ours out.
 */
import type { Exchange } from '../../core/exchange.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { PARTNER_REQUEST_ENUMS, requestEnumCell } from '../statuses.js';
import { isRecord } from '../../core/json.js';
import type { Json } from './charges.js';
import type { ErrorAnswer } from './errors.js';

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

function createdAt(item: unknown): number {
  return isRecord(item) && typeof item.created_at === 'string' ? Date.parse(item.created_at) : Number.NaN;
}

/** A list as the list rules read it: the located array and the answer it came in. */
export interface ListSeen {
  list: LocatedList;
  exchange: Exchange;
}

/**
 * "Lists the account charges":
 * - `answer`: a list request answers 2xx with an identifiable array of charges (the envelope is
 *   open; an answer with no array of charge objects at all cannot be "the account charges");
 * - `ours`: the charges we just created are listed, unless the list may be truncated (a full page or
 *   paging hints);
 * - `foreign`: a charge of another account is not listed;
 * - `states`: a listed charge of ours shows the state it is known to be in.
 */
export const listAccountCharges = defineRule({
  name: 'listAccountCharges',
  requirements: ['PT-LIST-ACCOUNT-SCOPE'],
  codes: { 'list.status': 'failure', 'list.no-array': 'failure', 'list.missing': 'failure', 'list.other-account': 'failure', 'list.stale-state': 'failure' },
  judge(
    observation:
      | { kind: 'answer'; answer: ErrorAnswer }
      | ({ kind: 'ours'; ours: readonly string[] } & ListSeen)
      | ({ kind: 'foreign'; foreignId: string } & ListSeen)
      | ({ kind: 'states'; known: Readonly<Record<string, string>>; why: string } & ListSeen),
    v,
  ) {
    if (observation.kind === 'answer') {
      const { answer } = observation;
      if (!judgeStatus(v, answer.exchange, '2xx', { unexpected: 'list.status' }, 'GET /business/pix-charges')) return;
      if (locateChargeList(answer.json)) return;
      return v.find('list.no-array', { title: 'the list answer holds no identifiable array of charges', expected: 'the charges as a JSON array (top level or in one envelope property; the envelope is not shown)', actual: show(answer.json, 300), exchanges: [answer.exchange] });
    }
    const { list, exchange } = observation;
    v.shows(exchange);
    if (observation.kind === 'foreign') {
      if (!list.items.some((i) => i.id === observation.foreignId)) return;
      return v.find('list.other-account', { title: 'the list shows another account\'s charge', expected: 'only this account\'s charges ("Lists the account charges")', actual: `charge ${observation.foreignId} listed` });
    }
    if (observation.kind === 'states') {
      const wrong = list.items.find((i) => typeof i.id === 'string' && observation.known[i.id] !== undefined && i.status !== observation.known[i.id]);
      if (!wrong) return;
      return v.find('list.stale-state', { title: `a listed charge is not in its current state ${observation.why}`, expected: `charge ${show(wrong.id)} with status "${observation.known[wrong.id as string]}"`, actual: `status ${show(wrong.status)}` });
    }
    if (observation.ours.length === 0) return v.nothingToJudge();
    if (observation.ours.some((id) => list.items.some((i) => i.id === id))) return;
    if (mayBeTruncated(list)) return v.nothingToJudge();
    v.find('list.missing', { title: 'charges just created are missing from a list that is not full', expected: 'our charges listed ("Lists the account charges")', actual: `none of ${observation.ours.length} in ${list.items.length} item(s)` });
  },
});

/**
 * "newest first": every adjacent pair in order of created_at, newest first (ties allowed;
 * unparseable dates skipped); `ours` (ids in creation order) listed in reverse creation order, unless
 * the service stamped them with one created_at (a tie says nothing about which is newer to its clock).
 */
export const listNewestFirst = defineRule({
  name: 'listNewestFirst',
  requirements: ['PT-LIST-ORDER'],
  codes: { 'list.order': 'failure' },
  judge(observation: ListSeen & { ours: readonly string[] }, v) {
    const { list } = observation;
    v.shows(observation.exchange);
    for (let i = 0; i + 1 < list.items.length; i++) {
      const a = list.items[i]!;
      const b = list.items[i + 1]!;
      const ta = createdAt(a);
      const tb = createdAt(b);
      if (Number.isFinite(ta) && Number.isFinite(tb) && ta < tb) {
        return v.find('list.order', { title: 'the list is not newest first', expected: 'each listed charge created no earlier than the next one', actual: `${show(a.id)} (created ${show(a.created_at)}) listed before ${show(b.id)} (created ${show(b.created_at)})`, pointer: `/${i}` });
      }
    }
    const positions = observation.ours.map((id) => list.items.findIndex((i) => i.id === id));
    for (let j = 1; j < positions.length; j++) {
      for (let i = 0; i < j; i++) {
        const pi = positions[i]!;
        const pj = positions[j]!;
        if (pi < 0 || pj < 0 || pj < pi) continue;
        const ti = createdAt(list.items[pi]);
        const tj = createdAt(list.items[pj]);
        if (Number.isFinite(ti) && Number.isFinite(tj) && ti === tj) continue;
        return v.find('list.order', { title: 'the list is not newest first', expected: 'a charge created later is listed before an earlier one', actual: `creation order → list positions ${show(positions)}` });
      }
    }
  },
});

/** A charge we created just before listing: its id and the created_at the service gave it. */
export interface RecentCharge {
  id: string;
  createdAt: unknown;
}

/**
 * "newest first, up to 200 records":
 * - `cap`: never more than 200; when the account is known to hold more than 200 charges, fewer than
 *   200 without any paging hint only warns (pagination is "not shown": a smaller page announced only
 *   in headers is possible);
 * - `kept`: the 200 kept are the newest. A charge of ours (ids in creation order) may not be missing
 *   while an earlier one of ours is listed. When none of ours is listed, the list kept older charges
 *   and dropped newer ones if a listed charge is one we KNOW existed before ours (`knownOlder`: ids we
 *   saw listed, or created and awaited, before creating ours: had 200 newer charges pushed ours out,
 *   they would have pushed that one out too; no clock involved), or if every listed charge was created
 *   (by the service's own created_at) before the oldest of ours. Otherwise (ours missing, nothing
 *   provably older shown) it passes: another worker may have created 200 charges since, and
 *   created_at ties (a seconds-precision clock) say nothing about order.
 */
export const keepNewest200 = defineRule({
  name: 'keepNewest200',
  requirements: ['PT-LIST-MAX-200'],
  codes: { 'list.over-200': 'failure', 'list.short': 'warning', 'list.newest-dropped': 'failure' },
  judge(observation: ({ kind: 'cap'; accountHoldsMoreThanCap?: boolean } & ListSeen) | ({ kind: 'kept'; ours: readonly RecentCharge[]; knownOlder?: readonly unknown[] } & ListSeen), v) {
    const { list } = observation;
    v.shows(observation.exchange);
    if (observation.kind === 'cap') {
      if (list.items.length > LIST_MAX) return v.find('list.over-200', { title: 'the list holds more than 200 records', expected: `at most ${LIST_MAX} records`, actual: `${list.items.length} records` });
      if (observation.accountHoldsMoreThanCap && list.items.length < LIST_MAX && !list.paged) {
        v.find('list.short', { title: 'the list shows fewer than 200 of an account holding more', expected: `${LIST_MAX} records (or a paging hint)`, actual: `${list.items.length} records, envelope ${list.shape}` });
      }
      return;
    }
    const ours = observation.ours;
    if (list.items.length === 0 || ours.length === 0) return v.nothingToJudge();
    const listedIds = list.items.map((i) => i.id);
    const positions = ours.map((c) => listedIds.indexOf(c.id));
    if (positions.some((p) => p >= 0)) {
      const dropped = positions.findIndex((p, i) => p < 0 && positions.slice(0, i).some((q) => q >= 0));
      if (dropped < 0) return;
      return v.find('list.newest-dropped', { title: 'the list omits a newer charge while showing an older one', expected: 'the newest charges ("newest first, up to 200 records")', actual: `charge ${ours[dropped]?.id} (created later) missing; list positions of ours in creation order ${show(positions)}` });
    }
    const missing = `none of ours ${show(ours.map((c) => c.id))} listed`;
    const older = new Set<unknown>((observation.knownOlder ?? []).filter((id) => id !== undefined));
    const olderShown = listedIds.find((id) => older.has(id));
    if (olderShown !== undefined) {
      return v.find('list.newest-dropped', {
        title: 'the list shows an older charge and omits the newest',
        expected: 'the newest charges first ("newest first, up to 200 records"): ours, created after it, listed before it drops out',
        actual: `${list.items.length} charges; ${show(olderShown)} (known to exist before ours were created) listed; ${missing}`,
      });
    }
    const ourTimes = ours.map((c) => (typeof c.createdAt === 'string' ? Date.parse(c.createdAt) : Number.NaN)).filter(Number.isFinite);
    const times = list.items.map(createdAt);
    if (ourTimes.length === 0 || !times.every(Number.isFinite)) return;
    const oldestOurs = Math.min(...ourTimes);
    const newestListed = Math.max(...times);
    if (newestListed >= oldestOurs) return;
    v.find('list.newest-dropped', {
      title: 'the list shows older charges and omits the newest',
      expected: `the newest charges first ("newest first, up to 200 records"): ours, created ${new Date(oldestOurs).toISOString()} or later, listed`,
      actual: `${list.items.length} charges, the newest created ${new Date(newestListed).toISOString()}; ${missing}`,
    });
  },
});

/**
 * A list of the account read right after creating `ours` (ids in creation order): they are listed
 * ({@link listAccountCharges}), newest first ({@link listNewestFirst}), none dropped for an older one
 * ({@link keepNewest200}).
 */
export const verifyOursListed = defineRule({
  name: 'verifyOursListed',
  requirements: [],
  codes: {},
  uses: [listAccountCharges, listNewestFirst, keepNewest200],
  judge(observation: ListSeen & { ours: readonly string[] }, v) {
    const { list, exchange, ours } = observation;
    v.apply(listNewestFirst, { list, exchange, ours });
    if (ours.length >= 2) v.apply(keepNewest200, { kind: 'kept', list, exchange, ours: ours.map((id) => ({ id, createdAt: undefined })) });
    v.apply(listAccountCharges, { kind: 'ours', list, exchange, ours });
  },
});

/**
 * "Optional query `status` filters by one of the charge states" (each state a cell of the request
 * enums relation):
 * - `answer`: a filtered list answers 2xx;
 * - `undocumented`: a value that is no charge state: "The answer to an undocumented value is not
 *   shown": a 2xx (matching no charge) or a 4xx (422 the nearest documented meaning), never a 5xx;
 * - `filtered`: every item is in `state`; our charge in that state is listed (unless the list may be
 *   truncated); our charges in other states are not. A pending filter may show a lazily expired
 *   charge as expired ("detected lazily"): allowed.
 */
export const filterByStatus = defineRule({
  name: 'filterByStatus',
  requirements: ['PT-LIST-STATUS-FILTER'],
  codes: { 'list.filter-status': 'failure', 'list.filter': 'failure', 'list.filter-missing': 'failure', 'list.filter-undocumented-status': 'failure' },
  relation: PARTNER_REQUEST_ENUMS,
  judge(observation: { kind: 'answer'; answer: ErrorAnswer; state: string } | { kind: 'undocumented'; answer: ErrorAnswer; value: string } | ({ kind: 'filtered'; state: string; ours: Readonly<Record<string, string | undefined>> } & ListSeen), v) {
    if (observation.kind === 'undocumented') {
      // "The answer to an undocumented value is not shown": served (it matches no charge) or refused, 422 the nearest documented meaning
      judgeStatus(v, observation.answer.exchange, ['2xx', 422, '4xx'], { unexpected: 'list.filter-undocumented-status' }, `GET /business/pix-charges?status=${observation.value} (no charge state)`);
      return;
    }
    const cell = requestEnumCell('partner', 'GET /business/pix-charges', '?status', observation.state);
    if (cell !== undefined) v.covers(cell);
    if (observation.kind === 'answer') {
      judgeStatus(v, observation.answer.exchange, '2xx', { unexpected: 'list.filter-status' }, `GET /business/pix-charges?status=${observation.state}`);
      return;
    }
    const { list, state, ours } = observation;
    v.shows(observation.exchange);
    const wrong = list.items.filter((i) => i.status !== state && !(state === 'pending' && i.status === 'expired'));
    if (wrong.length) v.find('list.filter', { title: `status=${state} lists charges in other states`, expected: `every item with status "${state}"`, actual: `${wrong.length} of ${list.items.length} not ${state}, e.g. ${show(wrong[0], 200)}` });
    const mine = ours[state];
    if (mine && !list.items.some((i) => i.id === mine) && !mayBeTruncated(list)) {
      v.find('list.filter-missing', { title: `status=${state} omits our ${state} charge`, expected: `charge ${mine} listed`, actual: `${list.items.length} item(s), ours absent` });
    }
    for (const [other, id] of Object.entries(ours)) {
      if (other !== state && id && list.items.some((i) => i.id === id)) {
        v.find('list.filter', { title: `status=${state} lists our ${other} charge`, expected: `no ${other} charge`, actual: `charge ${id} listed` });
      }
    }
  },
});
