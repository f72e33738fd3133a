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
 * Judgements (capture windows, balanced postings) are the partner rules' (harness/rules/partner/:
 * verifyCaptureWindow, balancePostings); this module only reads and attributes.
 */
import { balancePostings, capturePostingsOf, returnFinanceStatement, statementOf } from '../../../harness/rules/partner/index.js';
import type { Statement } from '../../../harness/rules/partner/index.js';
import { abandonOn429, judgeFails, ModelCommand } from '../../../harness/run/model.js';
import type { ApiResponse } from '../../../harness/http/partner-client.js';
import type { PartnerModel, PartnerReal } from './model.js';

export type { Statement };

export async function readStatement(r: PartnerReal): Promise<Statement | undefined> {
  return statementAnswer(r, await r.pt.getFinance());
}

/** Judges a GET /business/finance answer ("Returns the finance statement") and returns its statement. */
export function statementAnswer(r: PartnerReal, res: ApiResponse): Statement | undefined {
  if (judgeFails(r.it.run, returnFinanceStatement, res)) return undefined;
  abandonOn429(r, res);
  return statementOf(res.json, res.exchange);
}

/** The rules a statement read by the model is judged by. */
export const MODEL_FINANCE_RULES = [returnFinanceStatement, balancePostings] as const;

/** GET /business/finance: shape (contract validator), and every posting naming a charge of this sequence is balanced. */
export class GetFinance extends ModelCommand<PartnerModel, PartnerReal> {
  check(): boolean {
    return true;
  }

  protected async act(m: PartnerModel, r: PartnerReal): Promise<void> {
    const s = await readStatement(r);
    if (!s) return;
    let mine = 0;
    for (const c of m.charges) {
      for (const p of capturePostingsOf(s.postings, { id: c.id })) {
        mine++;
        r.it.run.judge(balancePostings, { posting: p, exchange: s.exchange });
      }
    }
    r.log.outcome(`available ${String(s.available)}, ${s.postings.length} posting(s), ${mine} of this sequence`);
  }

  toString(): string {
    return 'getFinance()';
  }
}
