/**
 * Partner charge list. partner-cashin-api.md "GET /v1/business/pix-charges?status=<state>":
 * "Lists the account charges, newest first, up to 200 records. Optional query `status` filters by
 * one of the charge states. Response envelope and pagination: not shown."
 *
 * Other files create charges at the same time, so the checks only judge OUR charges' relative
 * order and presence, and treat a full page (200 items) as possibly having pushed ours out.
 */
import { check } from '../../harness/run/check.js';
import { makeFinding, show } from '../../harness/rules/index.js';
import { chargeBody, ctxOf, is2xx, listCharges, mustCreate, STATES, status } from './support.js';

const AREA = 'Charge list';
const MAX = 200;

// "newest first"
check('the list shows our charges newest first', {
  id: 'partner.list.newest-first',
  exclusive: true,
  api: 'partner',
  area: AREA,
  requirements: ['PT-LIST-ORDER', 'PT-LIST-ENVELOPE'],
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
  const { list } = await listCharges(t.run, client);
  if (!list) return;
  const positions = mine.map((m) => list.items.findIndex((i) => i.id === m.id));
  if (positions.some((p) => p < 0)) {
    if (list.items.length < MAX) {
      t.run.record(makeFinding(ctxOf(['PT-LIST-ACCOUNT-SCOPE']), { code: 'list.missing', title: 'a charge just created is missing from a list that is not full', severity: 'failure', expected: 'our charges listed', actual: `positions ${show(positions)} in ${list.items.length} item(s)` }));
    } else t.run.note('a full page of newer charges pushed ours out: order not judged');
    return;
  }
  // created in order 0,1,2 → newest first means positions strictly decreasing
  for (let i = 1; i < positions.length; i++) {
    if (positions[i]! >= positions[i - 1]!) {
      t.run.record(makeFinding(ctxOf(['PT-LIST-ORDER']), { code: 'list.order', title: 'the list is not newest first', severity: 'failure', expected: 'a charge created later is listed before an earlier one', actual: `creation order → list positions ${show(positions)}` }));
      break;
    }
  }
});

// "up to 200 records". To see the cap, the account needs more than 200 charges: top it up once.
check('the list holds at most 200 records (with and without a status filter)', {
  id: 'partner.list.max-200',
  api: 'partner',
  area: AREA,
  requirements: ['PT-LIST-MAX-200'],
}, async (t) => {
  const client = t.partner();
  const first = await listCharges(t.run, client);
  if (!first.list) return;
  // below the cap the count is the account's total: create what is missing to exceed it
  const missing = first.list.items.length < MAX ? MAX + 1 - first.list.items.length : 0;
  for (let done = 0; done < missing; done += 10) {
    const batch = Array.from({ length: Math.min(10, missing - done) }, () => client.createCharge(chargeBody('fill')));
    for (const r of await Promise.all(batch)) if (!is2xx(r)) status(t.run, r, 200, ['PT-CHARGE-CREATE-200']);
  }
  if (missing) t.run.note(`created ${missing} charge(s) so the account holds more than ${MAX}`);
  for (const filter of [{}, { status: 'pending' }]) {
    const { list, response } = await listCharges(t.run, client, filter);
    if (list && list.items.length > MAX) {
      t.run.record(makeFinding(ctxOf(['PT-LIST-MAX-200'], [response.exchange]), { code: 'list.over-200', title: 'the list holds more than 200 records', severity: 'failure', expected: `at most ${MAX} records`, actual: `${list.items.length} records${filter.status ? ` (status=${filter.status})` : ''}` }));
    }
  }
});

// "Optional query `status` filters by one of the charge states."
check('the status filter returns only charges in that state, ours included', {
  id: 'partner.list.status-filter',
  api: 'partner',
  area: AREA,
  requirements: ['PT-LIST-STATUS-FILTER', 'PT-LIST-ACCOUNT-SCOPE'],
}, async (t) => {
  const client = t.partner();
  const pending = await mustCreate(t, chargeBody('filter-pending'));
  const paid = await mustCreate(t, chargeBody('filter-paid'));
  const canceled = await mustCreate(t, chargeBody('filter-canceled'));
  const payR = await client.payCharge(paid.id);
  const cancelR = await client.cancelCharge(canceled.id);
  status(t.run, payR, '2xx', ['PT-CHARGE-PAY-CONFIRMS']);
  status(t.run, cancelR, '2xx', ['PT-CHARGE-CANCEL-PENDING']);
  const ours: Record<string, string | undefined> = {
    pending: pending.id,
    paid: is2xx(payR) ? paid.id : undefined,
    canceled: is2xx(cancelR) ? canceled.id : undefined,
    expired: undefined, // expiry needs a timer: only the filter's items are judged here
  };
  for (const state of STATES) {
    const { list, response } = await listCharges(t.run, client, { status: state });
    if (!list) continue;
    const wrong = list.items.filter((i) => i.status !== state);
    if (wrong.length) {
      t.run.record(makeFinding(ctxOf(['PT-LIST-STATUS-FILTER'], [response.exchange]), { code: 'list.filter', title: `status=${state} lists charges in other states`, severity: 'failure', expected: `every item with status "${state}"`, actual: `${wrong.length} of ${list.items.length} not ${state}, e.g. ${show(wrong[0], 200)}` }));
    }
    const mineHere = ours[state];
    if (mineHere && !list.items.some((i) => i.id === mineHere)) {
      if (list.items.length < MAX) {
        t.run.record(makeFinding(ctxOf(['PT-LIST-STATUS-FILTER'], [response.exchange]), { code: 'list.filter-missing', title: `status=${state} omits our ${state} charge`, severity: 'failure', expected: `charge ${mineHere} listed`, actual: `${list.items.length} item(s), ours absent` }));
      } else t.run.note(`status=${state}: a full page; our charge may have been pushed out`);
    }
    for (const [other, id] of Object.entries(ours)) {
      if (other !== state && id && list.items.some((i) => i.id === id)) {
        t.run.record(makeFinding(ctxOf(['PT-LIST-STATUS-FILTER'], [response.exchange]), { code: 'list.filter', title: `status=${state} lists our ${other} charge`, severity: 'failure', expected: `no ${other} charge`, actual: `charge ${id} listed` }));
      }
    }
  }
});
