/**
 * The finance statement inside the model: reading it, attributing postings to this sequence's
 * charges, and the sound checks of a capture.
 *
 * Contract (partner-cashin-api.md): "available_cents | reliable available balance"; "transactions[]
 * | last 50 ledger postings"; each posting has `entries[]` with `direction` debit/credit and
 * `amount_cents`; "POST …/:id/pay … with the same effect (capture plus webhook) as a real payment";
 * "two concurrent confirmations of the same charge never capture the value twice".
 *
 * Attribution: a posting belongs to a charge of this sequence when its JSON names the charge id (ids
 * are unguessable, so no other file's posting names it). A posting that does not name it is never
 * blamed on this sequence.
 *
 * Bounds, sound while other files run: the documented partner operations only ever add captures
 * (no payout or refund route), so between two readings `available_cents` moves by the new postings
 * only: it may not rise by more than the gross of all postings that appeared in between (checkable
 * when fewer than 50 appeared), and it must rise when this sequence's capture was posted (otherwise
 * "stale"). Both are WARNINGS: PT-FIN-AVAILABLE-RELIABLE and PT-FIN-BALANCED are ambiguous in the catalogue.
 */
import { expectStatus } from '../../../harness/rules/index.js';
import type { Exchange } from '../../../harness/http/exchange.js';
import { abandonOn429, modelFinding, recordAll, ModelCommand } from '../../../harness/run/model.js';
import { isRecord } from '../../../harness/json.js';
import type { ModelCharge, PartnerModel, PartnerReal } from './model.js';

export interface Posting {
  id: string;
  raw: Record<string, unknown>;
  debits: number;
  credits: number;
}

export interface Statement {
  available: number | undefined;
  postings: Posting[];
  exchange: Exchange;
}

function toPosting(raw: unknown): Posting | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string') return undefined;
  let debits = 0;
  let credits = 0;
  for (const e of Array.isArray(raw.entries) ? raw.entries : []) {
    if (!isRecord(e) || typeof e.amount_cents !== 'number') continue;
    if (e.direction === 'debit') debits += e.amount_cents;
    else if (e.direction === 'credit') credits += e.amount_cents;
  }
  return { id: raw.id, raw, debits, credits };
}

export async function readStatement(r: PartnerReal): Promise<Statement | undefined> {
  const res = await r.pt.getFinance();
  if (recordAll(r.it.run, expectStatus(res.exchange, 200, { requirements: ['PT-FIN-GET'] }))) return undefined;
  abandonOn429(r, res);
  const json = isRecord(res.json) ? res.json : {};
  const postings = (Array.isArray(json.transactions) ? json.transactions : []).map(toPosting).filter((p): p is Posting => p !== undefined);
  return { available: typeof json.available_cents === 'number' ? json.available_cents : undefined, postings, exchange: res.exchange };
}

/** Postings in `after` that were not in `before`; undefined when the window is not fully visible (≥ 50 new). */
export function newPostings(before: Statement, after: Statement): Posting[] | undefined {
  const known = new Set(before.postings.map((p) => p.id));
  const fresh = after.postings.filter((p) => !known.has(p.id));
  const anchor = before.postings[0];
  if (anchor === undefined) return after.postings.length < 50 ? fresh : undefined;
  return after.postings.some((p) => p.id === anchor.id) ? fresh : undefined;
}

export function names(p: Posting, id: string): boolean {
  return JSON.stringify(p.raw).includes(id);
}

/** Same event type and same entries: the same posting twice (a second capture). */
function shapeOf(p: Posting): string {
  const entries = (Array.isArray(p.raw.entries) ? p.raw.entries : []).map((e) => (isRecord(e) ? `${String(e.account_code)}/${String(e.direction)}/${String(e.amount_cents)}` : '?')).sort();
  return `${String(p.raw.event_type)}|${entries.join(',')}`;
}

export interface CaptureCheck {
  /** the charge paid by this step */
  charge: ModelCharge;
  before: Statement;
  after: Statement;
  /** the exchanges of the step (pay requests) */
  exchanges: Exchange[];
  /** true when the charge must NOT have been captured (it ended canceled) */
  mustNotCapture?: boolean;
}

/** The sound checks of one capture window; returns a short outcome text. */
export function verifyCapture(r: PartnerReal, c: CaptureCheck): string {
  const { charge, before, after } = c;
  const exchanges = [before.exchange, ...c.exchanges, after.exchange];
  const fresh = newPostings(before, after);
  const mine = after.postings.filter((p) => names(p, charge.id) && !before.postings.some((b) => b.id === p.id));
  if (c.mustNotCapture) {
    if (mine.length > 0) {
      r.it.run.record(modelFinding({ requirements: ['PT-STATE-ONE-TRANSITION', 'PT-ATOMIC-CAPTURE'], exchanges, title: `charge ${charge.ref} ended canceled, yet a posting for it was made`, expected: 'no capture of a canceled charge', actual: JSON.stringify(mine.map((p) => p.raw)).slice(0, 400) }));
    }
    return `${mine.length} posting(s) for ${charge.ref}`;
  }
  // two identical postings for one charge: the value captured twice
  const shapes = new Map<string, number>();
  for (const p of mine) shapes.set(shapeOf(p), (shapes.get(shapeOf(p)) ?? 0) + 1);
  const doubled = [...shapes.entries()].find(([, n]) => n > 1);
  if (doubled) {
    r.it.run.record(
      modelFinding({
        requirements: ['PT-ATOMIC-CAPTURE'],
        exchanges,
        title: `charge ${charge.ref} was captured ${doubled[1]} times`,
        expected: 'one capture posting per paid charge ("never capture the value twice")',
        actual: `${doubled[1]} identical postings naming ${charge.id}: ${doubled[0]}`,
      }),
    );
    return 'captured twice';
  }
  if (fresh !== undefined && fresh.length === 0) {
    r.it.run.record(modelFinding({ code: 'model.capture-not-posted', severity: 'warning', requirements: ['PT-CHARGE-PAY-CAPTURE', 'PT-FIN-AVAILABLE-RELIABLE'], exchanges, title: `paying charge ${charge.ref} posted nothing to the ledger`, expected: 'a new posting (capture) in the statement after a simulated payment', actual: 'the statement lists exactly the postings it listed before the payment' }));
  }
  for (const p of mine) {
    if (p.debits !== p.credits) {
      r.it.run.record(modelFinding({ code: 'model.ledger-unbalanced', severity: 'warning', requirements: ['PT-FIN-BALANCED'], exchanges, title: `the posting for charge ${charge.ref} is not balanced`, expected: 'debits = credits within one posting', actual: `debits ${p.debits}, credits ${p.credits}: ${JSON.stringify(p.raw).slice(0, 300)}` }));
    }
  }
  if (before.available !== undefined && after.available !== undefined) {
    const delta = after.available - before.available;
    if (mine.length > 0 && delta === 0) {
      r.it.run.record(modelFinding({ code: 'model.available-stale', severity: 'warning', requirements: ['PT-FIN-AVAILABLE-RELIABLE'], exchanges, title: `available_cents did not move although charge ${charge.ref} was captured`, expected: 'available_cents to rise by the captured net', actual: `unchanged at ${after.available}` }));
    }
    if (fresh !== undefined) {
      const explained = fresh.reduce((sum, p) => sum + Math.max(p.debits, p.credits), 0);
      if (delta > explained) {
        r.it.run.record(modelFinding({ code: 'model.available-unexplained', severity: 'warning', requirements: ['PT-FIN-AVAILABLE-RELIABLE'], exchanges, title: 'available_cents rose by more than the new postings explain', expected: `a rise of at most ${explained} cents (the gross of the ${fresh.length} new posting(s))`, actual: `+${delta} cents` }));
      }
    }
    return `${mine.length} posting(s) for ${charge.ref}, available +${delta}`;
  }
  return `${mine.length} posting(s) for ${charge.ref}`;
}

/** GET /business/finance: shape (contract validator), and every posting naming a charge of this sequence is balanced. */
export class GetFinance extends ModelCommand<PartnerModel, PartnerReal> {
  check(): boolean {
    return true;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const s = await readStatement(r);
    if (!s) return;
    let mine = 0;
    for (const p of s.postings) {
      const c = m.charges.find((x) => names(p, x.id));
      if (!c) continue;
      mine++;
      if (p.debits !== p.credits) {
        r.it.run.record(modelFinding({ code: 'model.ledger-unbalanced', severity: 'warning', requirements: ['PT-FIN-BALANCED'], exchanges: [s.exchange], title: `the posting for charge ${c.ref} is not balanced`, expected: 'debits = credits within one posting', actual: `debits ${p.debits}, credits ${p.credits}` }));
      }
    }
    r.log.outcome(`available ${String(s.available)}, ${s.postings.length} posting(s), ${mine} of this sequence`);
  }

  toString(): string {
    return 'getFinance()';
  }
}
