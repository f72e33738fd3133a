/**
 * Partner finance statement. partner-cashin-api.md "Finance statement (`GET /v1/business/finance`
 * response)": merchant_id, "currency | always BRL", "available_cents | integer | reliable available
 * balance", "reserve_cents | integer | held in risk reserve, if applicable", "transactions[] | last
 * 50 ledger postings"; each item `id`, `event_type`, `description`, `created_at` ISO 8601,
 * `entries[]` with `account_code`, `direction` (`debit` or `credit`), `amount_cents` integer.
 *
 * Other files pay charges concurrently: the statement changes under us. The capture check finds
 * OUR posting by the charge id (or e2e_id, or its distinctive amount among the new postings) and
 * judges the window as conservation of money (harness/rules/partner/finance.ts).
 */
import { check } from '../../harness/run/check.js';
import { mapLimited } from '../../harness/run/parallel.js';
import type { CheckTools } from '../../harness/run/check.js';
import {
  balancePostings,
  confirmPendingCharge,
  describeCapture,
  expectChargeCreated,
  LAST_POSTINGS,
  readCaptureWindow,
  showLastFiftyPostings,
  statementOf,
  verifyCaptureWindow,
  verifyStatementFields,
} from '../../harness/rules/partner/index.js';
import type { CaptureReading, Statement } from '../../harness/rules/partner/index.js';
import { chargeBody, CREATES_CHARGES, distinctiveAmount, fillWidth, getStatement, is2xx, isRecord, LOOKS_UP, lookupState, mustCreate, READS_STATEMENTS } from './support.js';

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
  rules: [...READS_STATEMENTS, verifyStatementFields, showLastFiftyPostings, expectChargeCreated, confirmPendingCharge],
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
    if (paid === undefined) t.judge(expectChargeCreated, created);
    else if (t.judge(confirmPendingCharge, { kind: 'pay', answer: paid }) && is2xx(paid)) paidOk++;
  }
  if (missing) t.run.note(`paid ${missing} charge(s) so the ledger holds more than ${LAST_POSTINGS} postings`);
  const after = await getStatement(t.run, client);
  if (!after.statement) return;
  t.judge(verifyStatementFields, { json: after.response.json, exchange: after.response.exchange });
  // the ledger holds more than 50 once as many captures were posted as were missing (or it already did)
  const ledgerHoldsMore = count > LAST_POSTINGS || (missing > 0 && paidOk === missing);
  t.judge(showLastFiftyPostings, { kind: 'count', json: after.response.json, exchange: after.response.exchange, ledgerHoldsMore });
});

// "ledger postings" with debit/credit entries: double-entry postings balance (an unbalanced one
// fails); a negative entry amount only warns.
check('each posting balances: debits equal credits, entry amounts positive (warning)', {
  id: 'partner.finance.balanced',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, ...READS_STATEMENTS, balancePostings, confirmPendingCharge],
}, async (t) => {
  const client = t.partner();
  // one capture of our own so the statement has at least one posting to judge
  const { id } = await mustCreate(t, chargeBody('fin-balance'));
  t.judge(confirmPendingCharge, { kind: 'pay', answer: await client.payCharge(id) });
  const s = await statement(t);
  if (!s) return;
  if (!s.postings.length) t.run.note('no posting to judge');
  for (const posting of s.postings) t.judge(balancePostings, { posting, exchange: s.exchange });
});

/** A capture window's reading, with the statements it was read from. */
type Measured = { reading: CaptureReading; before: Statement; after: Statement };

/** Pays one charge of a distinctive amount between two statement reads. */
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
    if (!t.judge(confirmPendingCharge, { kind: 'pay', answer: pay })) return undefined;
    // the lookup, then the closing statement: a capture posted a little after the pay's answer has
    // the lookup's round trip to show up
    const paid = await lookupState(t.run, client, id);
    const after = await statement(t);
    if (!after || after.available === undefined) return undefined;
    return { reading: readCaptureWindow({ before, after, charge: { id, e2eId: paid.charge?.e2e_id, distinctiveAmount: amount }, amount, exchanges: [pay.exchange] }), before, after };
  }, 'money');
}

// "Confirms the charge as if the PIX were paid, with the same effect (capture plus webhook)";
// "available_cents | reliable available balance". What a capture looks like, fees, reserves and when
// money becomes available are open: the rules judge conservation of money on the service's own
// balances and postings. Up to three tries look for a quiet window (no other posting in between),
// where the balances must move as the capture's postings say.
check('a paid charge appears as a capture posting and moves the balances by what it brought in', {
  id: 'partner.finance.capture',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, ...READS_STATEMENTS, ...LOOKS_UP, confirmPendingCharge, verifyCaptureWindow, showLastFiftyPostings],
}, async (t) => {
  let m: Measured | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    m = await measureCapture(t);
    if (!m || m.reading.foreignVolume === 0) break;
  }
  if (!m) return;
  // "last 50 ledger postings": a full statement that did not change while the balance moved
  t.judge(showLastFiftyPostings, { kind: 'window', before: m.before, after: m.after });
  if (m.reading.foreignVolume === undefined) {
    t.run.note('more than 50 postings were made while measuring: capture not judged');
    return;
  }
  t.run.note(`capture: ${describeCapture(m.reading)}`);
  t.judge(verifyCaptureWindow, m.reading);
});
