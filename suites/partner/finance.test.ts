/**
 * Partner finance statement. partner-cashin-api.md "Finance statement (`GET /v1/business/finance`
 * response)": merchant_id, "currency | always BRL", "available_cents | integer | reliable available
 * balance", "reserve_cents | integer | held in risk reserve, if applicable", "transactions[] | last
 * 50 ledger postings"; each item `id`, `event_type`, `description`, `created_at` ISO 8601,
 * `entries[]` with `account_code`, `direction` (`debit` or `credit`), `amount_cents` integer.
 *
 * Other files pay charges concurrently: the statement changes under us. The capture check finds
 * OUR posting by the charge id (or e2e_id, or its distinctive amount among the new postings) and
 * bounds the balance move by what the other new postings could explain (judgeCaptureWindow in
 * harness/rules/partner/finance.ts).
 */
import { check } from '../../harness/run/check.js';
import { mapLimited } from '../../harness/run/parallel.js';
import type { CheckTools } from '../../harness/run/check.js';
import {
  judgeCaptureWindow,
  LAST_POSTINGS,
  statementOf,
  verifyLastFifty,
  verifyPostingBalanced,
  verifyStatementShape,
} from '../../harness/rules/partner/index.js';
import type { CaptureVerdict, Statement } from '../../harness/rules/partner/index.js';
import { ensureCreditFollowsLedger } from '../../harness/rules/partner/capture-effects.js';
import { ensureLatestPostingsShown } from '../../harness/rules/partner/recency.js';
import { chargeBody, distinctiveAmount, fillWidth, getStatement, is2xx, isRecord, lookupState, mustCreate, status } from './support.js';

const AREA = 'Finance';

async function statement(t: CheckTools): Promise<Statement | undefined> {
  const { statement: json, response } = await getStatement(t.run, t.partner());
  return json ? statementOf(json, response.exchange) : undefined;
}

// Shape, BRL, integers, and "last 50": the account is topped up to more than 50 postings first
// (a statement with fewer than 50 shows every posting; at exactly 50, one more capture makes 51),
// so the statement must then show exactly the last 50.
check('the finance statement is well-formed: BRL, integer cents, the last 50 postings with debit/credit entries', {
  id: 'partner.finance.statement-shape',
  api: 'partner',
  area: AREA,
  requirements: ['PT-FIN-GET', 'PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL', 'PT-FIN-AVAILABLE', 'PT-FIN-RESERVE', 'PT-FIN-MERCHANT-ID', 'PT-FIN-LAST-50', 'PT-FIN-TX-SHAPE', 'PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'],
}, async (t) => {
  const client = t.partner();
  const before = await statement(t);
  if (!before) return;
  const count = before.postings.length;
  const missing = count <= LAST_POSTINGS ? LAST_POSTINGS + 1 - count : 0;
  let paidOk = 0;
  // each top-up is its own charge, created then paid; the charges are independent of each other: up
  // to fillWidth of them in flight, judged afterwards in order
  const filled = await mapLimited(Array.from({ length: missing }, () => chargeBody('fin-fill')), fillWidth(t), async (body) => {
    const created = await client.createCharge(body);
    const id = isRecord(created.json) ? created.json.id : undefined;
    return { created, paid: is2xx(created) && typeof id === 'string' ? await client.payCharge(id) : undefined };
  });
  for (const { created, paid } of filled) {
    if (paid === undefined) status(t.run, created, 200, ['PT-CHARGE-CREATE-200']);
    else if (status(t.run, paid, '2xx', ['PT-CHARGE-PAY-CONFIRMS'])) paidOk++;
  }
  if (missing) t.run.note(`paid ${missing} charge(s) so the ledger holds more than ${LAST_POSTINGS} postings`);
  const after = await getStatement(t.run, client);
  if (after.response.status !== 200 && !after.statement) return;
  t.run.record(verifyStatementShape(after.response.json, { exchanges: [after.response.exchange] }));
  // the ledger holds more than 50 once as many captures were posted as were missing (or it already did)
  const ledgerHoldsMore = count > LAST_POSTINGS || (missing > 0 && paidOk === missing);
  t.run.record(verifyLastFifty(after.response.json, { requirements: ['PT-FIN-LAST-50'], exchanges: [after.response.exchange], ledgerHoldsMore }));
});

// PT-FIN-BALANCED: double-entry postings balance (an unbalanced one fails); a negative entry amount only warns.
check('each posting balances: debits equal credits, entry amounts positive (warning)', {
  id: 'partner.finance.balanced',
  api: 'partner',
  area: AREA,
  requirements: ['PT-FIN-BALANCED'],
}, async (t) => {
  const client = t.partner();
  // one capture of our own so the statement has at least one posting to judge
  const { id } = await mustCreate(t, chargeBody('fin-balance'));
  status(t.run, await client.payCharge(id), '2xx', ['PT-CHARGE-PAY-CONFIRMS']);
  const s = await statement(t);
  if (!s) return;
  if (!s.postings.length) t.run.note('no posting to judge');
  for (const p of s.postings) t.run.record(verifyPostingBalanced(p, { requirements: ['PT-FIN-BALANCED'], exchanges: [s.exchange] }));
});

/** Pays one charge of a distinctive amount between two statement reads and judges the window. */
/** A capture window's verdict, with the statements and amount it was judged on. */
type Measured = CaptureVerdict & { before: Statement; after: Statement; amount: number };

/** The posting ids and balance of a statement, for the "last 50" rule. */
function shown(s: Statement): { postingIds: unknown[]; available: number | undefined } {
  return { postingIds: s.postings.map((p) => p.id), available: s.available };
}

async function measureCapture(t: CheckTools): Promise<Measured | undefined> {
  const client = t.partner();
  const amount = distinctiveAmount();
  const { id } = await mustCreate(t, chargeBody('fin-capture', { amount_cents: amount }));
  // the ledger window (statement, pay, statement) with no other check's money move; the creation
  // before it moves no money
  return t.alone(async () => {
    const before = await statement(t);
    if (!before || before.available === undefined) return undefined;
    const pay = await client.payCharge(id);
    if (!status(t.run, pay, '2xx', ['PT-CHARGE-PAY-CONFIRMS'])) return undefined;
    // the lookup, then the closing statement: a capture posted a little after the pay's answer has
    // the lookup's round trip to show up
    const paid = await lookupState(t.run, client, id);
    const after = await statement(t);
    if (!after || after.available === undefined) return undefined;
    return { ...judgeCaptureWindow({ before, after, charge: { id, e2eId: paid.charge?.e2e_id, distinctiveAmount: amount }, amount, exchanges: [pay.exchange] }), before, after, amount };
  }, 'money');
}

// "Confirms the charge as if the PIX were paid, with the same effect (capture plus webhook)";
// "available_cents | reliable available balance". Both readings are open (what a capture looks like,
// fees, when it becomes available): the rule warns. Up to three tries look for a quiet window (no
// other posting in between), where the move must equal one of our capture's plausible nets exactly.
check('a paid charge appears as a capture posting and raises available_cents by its net value', {
  id: 'partner.finance.capture',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-PAY-CAPTURE', 'PT-FIN-AVAILABLE-RELIABLE', 'PT-FIN-LAST-50'],
}, async (t) => {
  let m: Measured | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    m = await measureCapture(t);
    if (!m || m.foreignVolume === 0) break;
  }
  if (!m) return;
  const exchanges = [m.before.exchange, m.after.exchange];
  // "last 50 ledger postings": a full statement that did not change while the balance moved
  t.run.record(ensureLatestPostingsShown(shown(m.before), shown(m.after), { requirements: ['PT-FIN-LAST-50'], exchanges }));
  // "reliable available balance" against the capture's own posting (no fee is stated: gross passes
  // unless the posting itself splits a fee off)
  t.run.record(ensureCreditFollowsLedger({ amount: m.amount, delta: m.delta, postings: m.mine, quiet: m.foreignVolume === 0 }, { requirements: ['PT-FIN-AVAILABLE-RELIABLE'], exchanges }));
  if (m.foreignVolume === undefined) {
    t.run.note('more than 50 postings were made while measuring: capture not judged');
    return;
  }
  t.run.note(`capture: ${m.outcome}; foreign volume ${m.foreignVolume}`);
  t.run.record(m.judgement);
});
