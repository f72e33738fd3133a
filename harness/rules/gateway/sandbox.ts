/**
 * The sandbox's promises about time (gateway-api.md, Events): "Sandbox: PIX payments never confirm
 * by themselves; the simulation routes fire `transaction_paid` and `transfer_completed`."
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';

/** One lookup of a sandbox charge nobody paid through /pay. */
export interface UnpaidLookup {
  status: unknown;
  exchange: Exchange;
  /** milliseconds since the charge was created, for the finding */
  afterMs?: number;
}

/** States that say the payment was confirmed: `paid`, and `refunded` which follows it. */
const CONFIRMED = new Set(['paid', 'refunded']);

/**
 * "PIX payments never confirm by themselves": a sandbox charge the suite never paid is not `paid`
 * at ANY lookup (not only right after creation). A lookup showing it paid (or refunded): FAILURE
 * `charge.confirmed-by-itself`. Lookups without a readable status are skipped; with no readable
 * lookup nothing is decided.
 */
export function ensureNeverConfirmedBySelf(lookups: readonly UnpaidLookup[], ctx: Partial<RuleContext> = {}): Judgement {
  const c: RuleContext = { ...ctx, requirements: ctx.requirements ?? (['GW-SANDBOX-NO-AUTO-CONFIRM'] satisfies RequirementId[]) };
  const readable = lookups.filter((l) => typeof l.status === 'string');
  if (readable.length === 0) return { requirements: [], findings: [] };
  const confirmed = readable.find((l) => CONFIRMED.has(l.status as string));
  if (!confirmed) return judge(c);
  const index = lookups.indexOf(confirmed) + 1;
  return judge(c, makeFinding({ ...c, exchanges: [...(c.exchanges ?? []), confirmed.exchange] }, {
    code: 'charge.confirmed-by-itself',
    title: `a sandbox charge nobody paid was ${show(confirmed.status)} at lookup ${index}${confirmed.afterMs !== undefined ? ` (${Math.round(confirmed.afterMs / 100) / 10} s after creation)` : ''}`,
    severity: 'failure',
    expected: 'status "pending" until the simulation route /pay is called ("never confirm by themselves")',
    actual: `statuses seen: ${readable.map((l) => show(l.status)).join(', ')}`,
  }));
}
