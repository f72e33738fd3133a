/**
 * Partner charge list. partner-cashin-api.md "GET /v1/business/pix-charges?status=<state>":
 * "Lists the account charges, newest first, up to 200 records. Optional query `status` filters by
 * one of the charge states. Response envelope and pagination: not shown."
 *
 * Other files create charges at the same time, so the checks judge the whole list's created_at
 * order, OUR charges' relative order and presence, and treat a full page (200 items) or paging
 * hints as possibly having pushed ours out (harness/rules/partner/list.ts).
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import type { LocatedList } from '../../harness/rules/partner/index.js';
import { cancelPendingCharge, chargeOf, confirmPendingCharge, expectChargeCreated, filterByStatus, keepNewest200, LIST_MAX, listAccountCharges, listNewestFirst, locateChargeList, verifyOursListed } from '../../harness/rules/partner/index.js';
import { mapLimited } from '../../harness/run/parallel.js';
import { chargeBody, CREATES_CHARGES, fillWidth, is2xx, judgeListed, LISTS_CHARGES, listCharges, mustCreate, STATES } from './support.js';

const AREA = 'Charge list';

// "newest first"
check('the list shows our charges newest first', {
  id: 'partner.list.newest-first',
  exclusive: 'records',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, ...LISTS_CHARGES, verifyOursListed],
}, async (t) => {
  const client = t.partner();
  // Three charges created one after another, with distinct created_at (a tie says nothing about order).
  const mine: Array<{ id: string; createdAt: number }> = [];
  for (let attempt = 0; mine.length < 3 && attempt < 12; attempt++) {
    const { id, charge } = await mustCreate(t, chargeBody('order'));
    const createdAt = Date.parse(String(charge.created_at));
    const last = mine[mine.length - 1];
    if (Number.isNaN(createdAt)) t.notRun('partner', 'created_at does not parse');
    if (!last || createdAt > last.createdAt) mine.push({ id, createdAt });
  }
  if (mine.length < 2) {
    t.run.note('could not obtain two charges with distinct created_at: order not judged');
    return;
  }
  const { list, response } = await listCharges(t.run, client);
  if (!list) return;
  t.judge(verifyOursListed, { list, exchange: response.exchange, ours: mine.map((m) => m.id) });
});

// "up to 200 records". To see the cap, the account needs more than 200 charges: top it up once.
// "newest first, up to 200 records": more than a count — with more than 200 charges in the
// account, the 200 shown are the newest (two charges made last are both listed, in order).
check('the list holds at most 200 records, the newest (with and without a status filter)', {
  id: 'partner.list.max-200',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, ...LISTS_CHARGES, keepNewest200, listNewestFirst],
}, async (t) => {
  const client = t.partner();
  const first = await listCharges(t.run, client);
  if (!first.list) return;
  // below the cap the count is the account's total: create what is missing to exceed it
  const missing = first.list.items.length < LIST_MAX ? LIST_MAX + 1 - first.list.items.length : 0;
  // charges known to exist before the newest ones are created (listed, or created and awaited)
  const older: unknown[] = first.list.items.map((i) => i.id);
  // independent fresh charges (a top-up, not judged beyond their status), judged afterwards in order
  const filled = await mapLimited(Array.from({ length: missing }, () => chargeBody('fill')), fillWidth(t), (body) => client.createCharge(body));
  for (const r of filled) {
    if (!is2xx(r)) t.judge(expectChargeCreated, r);
    else older.push(chargeOf(r.json)?.id);
  }
  if (missing) t.run.note(`created ${missing} charge(s) so the account holds more than ${LIST_MAX}`);
  // the two newest charges of the account (unless another worker creates in between: then still newer than the rest)
  const made = [await mustCreate(t, chargeBody('newest')), await mustCreate(t, chargeBody('newest'))];
  const newest = made.map((m) => m.id);
  const lists = await Promise.all([listCharges(t.run, client), listCharges(t.run, client, { status: 'pending' }), overLimit(t)]);
  for (const [i, { list, response }] of lists.slice(0, 2).entries()) {
    if (!list) continue;
    const seen = { list, exchange: response.exchange };
    t.judge(keepNewest200, { kind: 'cap', ...seen, accountHoldsMoreThanCap: i === 0 });
    t.judge(listNewestFirst, { ...seen, ours: newest });
    t.judge(listAccountCharges, { kind: 'ours', ...seen, ours: newest });
    // "newest first, up to 200": the 200 kept are the newest, judged on the service's created_at
    t.judge(keepNewest200, { kind: 'kept', ...seen, ours: made.map((m) => ({ id: m.id, createdAt: m.charge.created_at })), knownOlder: older });
  }
  const capped = lists[2];
  if (capped.list) t.judge(keepNewest200, { kind: 'cap', list: capped.list, exchange: capped.response.exchange });
});

/**
 * "up to 200 records" whatever the caller asks: a `limit` query (not documented; a service may
 * ignore or refuse it) over 200 must not lift the cap. A refusal is noted, not judged.
 */
async function overLimit(t: CheckTools): Promise<{ response: ApiResponse; list?: LocatedList }> {
  const response = await t.partner().send({ method: 'GET', path: '/business/pix-charges', operation: 'GET /business/pix-charges', query: { limit: 500 } });
  if (!is2xx(response)) {
    t.run.note(`GET /business/pix-charges?limit=500 (undocumented query) answered ${response.status}`);
    return { response };
  }
  const list = locateChargeList(response.json);
  t.run.note(`?limit=500 listed ${list?.items.length ?? '?'} charge(s)`);
  return list ? { response, list } : { response };
}

// "Optional query `status` filters by one of the charge states."
check('the status filter returns only charges in that state, ours included', {
  id: 'partner.list.status-filter',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, ...LISTS_CHARGES, confirmPendingCharge, cancelPendingCharge, filterByStatus],
}, async (t) => {
  const client = t.partner();
  const pending = await mustCreate(t, chargeBody('filter-pending'));
  const paid = await mustCreate(t, chargeBody('filter-paid'));
  const canceled = await mustCreate(t, chargeBody('filter-canceled'));
  // two different charges: sent together
  const [payR, cancelR] = (await t.all([() => client.payCharge(paid.id), () => client.cancelCharge(canceled.id)], (move) => move())) as [ApiResponse, ApiResponse];
  t.judge(confirmPendingCharge, { kind: 'pay', answer: payR });
  t.judge(cancelPendingCharge, { kind: 'cancel', answer: cancelR });
  const ours: Record<string, string | undefined> = {
    pending: pending.id,
    paid: is2xx(payR) ? paid.id : undefined,
    canceled: is2xx(cancelR) ? canceled.id : undefined,
    expired: undefined, // expiry needs a timer: only the filter's items are judged here
  };
  // four reads: sent together, judged in state order
  const answers = await t.all(STATES, (state) => client.listCharges({ status: state }));
  for (const [k, state] of STATES.entries()) {
    const { list, response } = judgeListed(t.run, answers[k] as ApiResponse, { status: state });
    if (list) t.judge(filterByStatus, { kind: 'filtered', list, exchange: response.exchange, state, ours });
  }
});
