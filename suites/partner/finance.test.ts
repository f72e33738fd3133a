/**
 * Partner finance statement. partner-cashin-api.md "Finance statement (`GET /v1/business/finance`
 * response)": merchant_id, "currency | always BRL", "available_cents | integer | reliable available
 * balance", "reserve_cents | integer | held in risk reserve, if applicable", "transactions[] | last
 * 50 ledger postings"; each item `id`, `event_type`, `description`, `created_at` ISO 8601,
 * `entries[]` with `account_code`, `direction` (`debit` or `credit`), `amount_cents` integer.
 *
 * Other files pay charges concurrently: the statement changes under us. The capture check finds
 * OUR posting by the charge id (or e2e_id, or its distinctive amount among the new postings) and
 * bounds the balance move by what the other new postings could explain (see below).
 */
import { check } from '../../harness/run/check.js';
import { kindOf, makeFinding, show, verifyIntegerCents, verifyIsoTimestamp } from '../../harness/rules/index.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { Finding } from '../../harness/rules/finding.js';
import {
  chargeBody,
  ctxOf,
  distinctiveAmount,
  entriesOf,
  getStatement,
  is2xx,
  isRecord,
  lookupState,
  mustCreate,
  postingMentions,
  postingsOf,
  postingVolume,
  status,
} from './support.js';
import type { Json } from './support.js';

const AREA = 'Finance';
const LAST = 50;

function shapeFindings(statement: Json, exchange: Parameters<typeof ctxOf>[1]): Finding[] {
  const out: (Finding | undefined)[] = [];
  const ctx = (requirements: string[], pointer: string) => ctxOf(requirements, exchange, { pointer, subject: pointer.slice(1).replace(/\//g, '.') });
  if (statement.currency !== 'BRL') {
    out.push(makeFinding(ctx(['PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL'], '/currency'), { code: 'finance.currency', title: 'the statement currency is not BRL', severity: 'failure', expected: 'currency "BRL" ("always BRL")', actual: `currency ${show(statement.currency)}` }));
  }
  if (typeof statement.merchant_id !== 'string') {
    out.push(makeFinding(ctx(['PT-FIN-MERCHANT-ID'], '/merchant_id'), { code: 'finance.merchant-id', title: 'merchant_id is not a string', severity: 'failure', expected: 'merchant_id: string', actual: `${kindOf(statement.merchant_id)} ${show(statement.merchant_id)}` }));
  }
  out.push(verifyIntegerCents(statement.available_cents, ctx(['PT-FIN-AVAILABLE', 'PT-MONEY-INTEGER-CENTS'], '/available_cents')));
  // "if applicable": 0, null and absent all fair; a present non-integer is not
  if (statement.reserve_cents !== undefined && statement.reserve_cents !== null) {
    out.push(verifyIntegerCents(statement.reserve_cents, ctx(['PT-FIN-RESERVE', 'PT-MONEY-INTEGER-CENTS'], '/reserve_cents')));
  }
  if (!Array.isArray(statement.transactions)) {
    out.push(makeFinding(ctx(['PT-FIN-LAST-50'], '/transactions'), { code: 'finance.transactions', title: 'transactions is not an array', severity: 'failure', expected: 'transactions[]: the last 50 ledger postings', actual: `${kindOf(statement.transactions)}` }));
    return out.filter((f): f is Finding => f !== undefined);
  }
  if (statement.transactions.length > LAST) {
    out.push(makeFinding(ctx(['PT-FIN-LAST-50'], '/transactions'), { code: 'finance.over-50', title: 'the statement lists more than 50 postings', severity: 'failure', expected: `at most ${LAST} postings`, actual: `${statement.transactions.length}` }));
  }
  statement.transactions.forEach((p: unknown, i: number) => {
    const at = `/transactions/${i}`;
    if (!isRecord(p)) {
      out.push(makeFinding(ctx(['PT-FIN-TX-SHAPE'], at), { code: 'finance.posting', title: 'a posting is not an object', severity: 'failure', expected: 'an object', actual: show(p) }));
      return;
    }
    for (const key of ['id', 'event_type', 'description'] as const) {
      if (typeof p[key] !== 'string') out.push(makeFinding(ctx(['PT-FIN-TX-SHAPE'], `${at}/${key}`), { code: 'finance.posting', title: `a posting's ${key} is not a string`, severity: 'failure', expected: `${key}: string`, actual: `${kindOf(p[key])} ${show(p[key])}` }));
    }
    out.push(verifyIsoTimestamp(p.created_at, ctx(['PT-FIN-TX-SHAPE'], `${at}/created_at`)));
    if (!Array.isArray(p.entries)) {
      out.push(makeFinding(ctx(['PT-FIN-ENTRY-SHAPE'], `${at}/entries`), { code: 'finance.entries', title: 'a posting has no entries array', severity: 'failure', expected: 'entries[]', actual: `${kindOf(p.entries)}` }));
      return;
    }
    p.entries.forEach((e: unknown, j: number) => {
      const eat = `${at}/entries/${j}`;
      if (!isRecord(e)) {
        out.push(makeFinding(ctx(['PT-FIN-ENTRY-SHAPE'], eat), { code: 'finance.entry', title: 'an entry is not an object', severity: 'failure', expected: '{account_code, direction, amount_cents}', actual: show(e) }));
        return;
      }
      if (typeof e.account_code !== 'string') out.push(makeFinding(ctx(['PT-FIN-ENTRY-SHAPE'], `${eat}/account_code`), { code: 'finance.entry', title: 'an entry account_code is not a string', severity: 'failure', expected: 'account_code: string', actual: `${kindOf(e.account_code)} ${show(e.account_code)}` }));
      if (e.direction !== 'debit' && e.direction !== 'credit') out.push(makeFinding(ctx(['PT-FIN-ENTRY-SHAPE'], `${eat}/direction`), { code: 'finance.entry-direction', title: 'an entry direction is neither debit nor credit', severity: 'failure', expected: '"debit" or "credit"', actual: show(e.direction) }));
      out.push(verifyIntegerCents(e.amount_cents, ctx(['PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'], `${eat}/amount_cents`)));
    });
  });
  return out.filter((f): f is Finding => f !== undefined);
}

// Shape, BRL, integers, and "last 50": the account is topped up to more than 50 postings first
// (a statement with fewer than 50 shows every posting; at exactly 50, one more capture makes 51).
check('the finance statement is well-formed: BRL, integer cents, at most 50 postings with debit/credit entries', {
  id: 'partner.finance.statement-shape',
  api: 'partner',
  area: AREA,
  requirements: ['PT-FIN-GET', 'PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL', 'PT-FIN-AVAILABLE', 'PT-FIN-RESERVE', 'PT-FIN-MERCHANT-ID', 'PT-FIN-LAST-50', 'PT-FIN-TX-SHAPE', 'PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'],
}, async (t) => {
  const client = t.partner();
  const before = await getStatement(t.run, client);
  if (!before.statement) return;
  const count = postingsOf(before.statement).length;
  const missing = count <= LAST ? LAST + 1 - count : 0;
  for (let done = 0; done < missing; done += 10) {
    const batch = Array.from({ length: Math.min(10, missing - done) }, async () => {
      const r = await client.createCharge(chargeBody('fin-fill'));
      const id = isRecord(r.json) ? r.json.id : undefined;
      if (!is2xx(r) || typeof id !== 'string') return status(t.run, r, 200, ['PT-CHARGE-CREATE-200']);
      return status(t.run, await client.payCharge(id), '2xx', ['PT-CHARGE-PAY-CONFIRMS']);
    });
    await Promise.all(batch);
  }
  if (missing) t.run.note(`paid ${missing} charge(s) so the ledger holds more than ${LAST} postings`);
  const after = await getStatement(t.run, client);
  if (after.statement) t.run.record(shapeFindings(after.statement, [after.response.exchange]));
  else if (after.response.status === 200) t.run.record(makeFinding(ctxOf(['PT-FIN-GET'], [after.response.exchange]), { code: 'finance.not-object', title: 'the statement is not a JSON object', severity: 'failure', expected: 'the finance statement object', actual: show(after.response.json) }));
});

// Ambiguous (PT-FIN-BALANCED): never says debits equal credits, nor that entry amounts are positive.
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
  const { statement, response } = await getStatement(t.run, client);
  if (!statement) return;
  const postings = postingsOf(statement);
  if (!postings.length) t.run.note('no posting to judge');
  for (const p of postings) {
    let debit = 0;
    let credit = 0;
    let negative = false;
    for (const e of entriesOf(p)) {
      if (typeof e.amount_cents !== 'number') continue;
      if (e.amount_cents < 0) negative = true;
      if (e.direction === 'debit') debit += e.amount_cents;
      else if (e.direction === 'credit') credit += e.amount_cents;
    }
    if (debit !== credit || negative) {
      t.run.record(makeFinding(ctxOf(['PT-FIN-BALANCED'], [response.exchange]), {
        code: 'finance.unbalanced', title: 'a ledger posting does not balance', severity: 'warning',
        expected: 'debits equal credits, positive entry amounts (an inference from "ledger postings")',
        actual: `posting ${show(p.id)} (${show(p.event_type)}): debits ${debit}, credits ${credit}${negative ? ', a negative entry amount' : ''}`,
      }));
    }
  }
});

interface Measure {
  delta: number;
  mine?: Json;
  foreignVolume: number;
  overflow: boolean;
}

/** Finds OUR capture among the statement's postings. */
function findMine(postings: Json[], newIds: Set<unknown>, chargeId: string, e2e: unknown, amount: number): Json | undefined {
  return (
    postings.find((p) => postingMentions(p, chargeId)) ??
    (typeof e2e === 'string' && e2e !== '' ? postings.find((p) => postingMentions(p, e2e)) : undefined) ??
    // the amount is distinctive (7–9 million cents) and only new postings count
    postings.find((p) => newIds.has(p.id) && entriesOf(p).some((e) => e.amount_cents === amount))
  );
}

/** What our capture can fairly move available_cents by: the gross, any credited amount, or gross minus fee-like entries. */
function plausibleNets(posting: Json, amount: number): number[] {
  const entries = entriesOf(posting);
  const nets = new Set<number>([amount]);
  for (const e of entries) if (e.direction === 'credit' && typeof e.amount_cents === 'number') nets.add(e.amount_cents);
  const fees = entries.filter((e) => typeof e.account_code === 'string' && /fee|tarif|taxa|revenue|commission/i.test(e.account_code));
  const feeSum = fees.reduce((n, e) => n + (typeof e.amount_cents === 'number' ? Math.abs(e.amount_cents) : 0), 0);
  if (feeSum) nets.add(amount - feeSum);
  return [...nets];
}

async function measureCapture(t: CheckTools): Promise<(Measure & { amount: number; chargeId: string }) | undefined> {
  const run = t.run;
  const client = t.partner();
  const amount = distinctiveAmount();
  const { id } = await mustCreate(t, chargeBody('fin-capture', { amount_cents: amount }));
  const before = await getStatement(run, client);
  if (!before.statement || typeof before.statement.available_cents !== 'number') return undefined;
  const pay = await client.payCharge(id);
  if (!status(run, pay, '2xx', ['PT-CHARGE-PAY-CONFIRMS'])) return undefined;
  const paid = await lookupState(run, client, id);
  const after = await getStatement(run, client);
  if (!after.statement || typeof after.statement.available_cents !== 'number') return undefined;
  const beforeIds = new Set(postingsOf(before.statement).map((p) => p.id));
  const afterPostings = postingsOf(after.statement);
  const fresh = afterPostings.filter((p) => !beforeIds.has(p.id));
  const newIds = new Set(fresh.map((p) => p.id));
  // if none of the earlier postings is still shown and the page is full, postings were lost from view
  const overflow = beforeIds.size > 0 && !afterPostings.some((p) => beforeIds.has(p.id)) && afterPostings.length >= LAST;
  const mine = findMine(afterPostings, newIds, id, paid.charge?.e2e_id, amount);
  const foreignVolume = fresh.filter((p) => p !== mine).reduce((n, p) => n + postingVolume(p), 0);
  return { amount, chargeId: id, delta: after.statement.available_cents - before.statement.available_cents, foreignVolume, overflow, ...(mine ? { mine } : {}) };
}

// "Confirms the charge as if the PIX were paid, with the same effect (capture plus webhook)";
// "available_cents | reliable available balance". Both readings are open (what a capture looks like,
// fees, when it becomes available): warnings. Soundness under concurrency: other files' postings
// appear between our two reads; each can move the balance by at most its entries' volume, so with
// foreign volume F the move must lie in [min(net) − F, max(net) + F]. Up to three tries look for a
// quiet window (F = 0), where the move must equal one of our capture's plausible nets exactly.
check('a paid charge appears as a capture posting and raises available_cents by its net value', {
  id: 'partner.finance.capture',
  exclusive: true,
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-PAY-CAPTURE', 'PT-FIN-AVAILABLE-RELIABLE'],
}, async (t) => {
  let m: Awaited<ReturnType<typeof measureCapture>>;
  for (let attempt = 0; attempt < 3; attempt++) {
    m = await measureCapture(t);
    if (!m || (m.foreignVolume === 0 && !m.overflow)) break;
  }
  if (!m) return;
  if (m.overflow) {
    t.run.note('more than 50 postings were made while measuring: capture not judged');
    return;
  }
  if (!m.mine) {
    t.run.record(makeFinding(ctxOf(['PT-CHARGE-PAY-CAPTURE']), { code: 'finance.no-capture', title: 'no ledger posting shows the capture of a paid charge', severity: 'warning', expected: `a new posting for charge ${m.chargeId} (${m.amount} cents)`, actual: 'none found by charge id, e2e_id or amount' }));
    if (m.foreignVolume === 0 && m.delta !== 0) t.run.note(`available_cents moved by ${m.delta} with no posting to explain it`);
    if (m.foreignVolume === 0 && m.delta === 0) {
      t.run.record(makeFinding(ctxOf(['PT-FIN-AVAILABLE-RELIABLE']), { code: 'finance.balance-stale', title: 'available_cents did not move after a capture', severity: 'warning', expected: `a rise of about ${m.amount} cents (net of fees)`, actual: 'no change' }));
    }
    return;
  }
  const nets = plausibleNets(m.mine, m.amount);
  const lo = Math.min(...nets) - m.foreignVolume;
  const hi = Math.max(...nets) + m.foreignVolume;
  const ok = m.foreignVolume === 0 ? nets.includes(m.delta) : m.delta >= lo && m.delta <= hi;
  t.run.note(`capture of ${m.amount}: available_cents moved by ${m.delta}; plausible nets ${nets.join('/')}; foreign volume ${m.foreignVolume}`);
  if (!ok) {
    t.run.record(makeFinding(ctxOf(['PT-FIN-AVAILABLE-RELIABLE']), {
      code: m.delta === 0 ? 'finance.balance-stale' : 'finance.balance-unexplained',
      title: m.delta === 0 ? 'available_cents did not move after a capture' : 'available_cents moved by an amount no posting explains',
      severity: 'warning',
      expected: m.foreignVolume === 0 ? `a move of ${nets.join(' or ')} cents` : `a move within [${lo}, ${hi}] (our net ± concurrent postings)`,
      actual: `moved by ${m.delta} (posting ${show(m.mine.id)})`,
    }));
  }
});
