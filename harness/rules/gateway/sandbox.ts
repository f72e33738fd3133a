/**
 * The sandbox's promise about time (gateway-api.md, Events): "Sandbox: PIX payments never confirm by
 * themselves; the simulation routes fire `transaction_paid` and `transfer_completed`."
 */
import type { Exchange } from '../../core/exchange.js';
import { show } from '../judgement.js';
import { defineRule } from '../rule.js';

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
 * "PIX payments never confirm by themselves": a sandbox charge the suite never paid is not `paid` at
 * ANY lookup (not only right after creation). A lookup showing it paid (or refunded) FAILS. Lookups
 * without a readable status are skipped; with no readable lookup nothing is decided.
 */
export const ensureNeverConfirmedBySelf = defineRule({
  name: 'ensureNeverConfirmedBySelf',
  requirements: ['GW-SANDBOX-NO-AUTO-CONFIRM'],
  codes: { 'sandbox.confirmed-by-itself': 'failure' },
  judge(observation: { lookups: readonly UnpaidLookup[]; creation?: Exchange }, v) {
    const { lookups } = observation;
    const readable = lookups.filter((l) => typeof l.status === 'string');
    if (readable.length === 0) return v.nothingToJudge();
    const confirmed = readable.find((l) => CONFIRMED.has(l.status as string));
    if (!confirmed) return;
    const index = lookups.indexOf(confirmed) + 1;
    v.find('sandbox.confirmed-by-itself', {
      title: `a sandbox charge nobody paid was ${show(confirmed.status)} at lookup ${index}${confirmed.afterMs !== undefined ? ` (${Math.round(confirmed.afterMs / 100) / 10} s after creation)` : ''}`,
      expected: 'status "pending" until the simulation route /pay is called ("never confirm by themselves")',
      actual: `statuses seen: ${readable.map((l) => show(l.status)).join(', ')}`,
      exchanges: [observation.creation, confirmed.exchange],
    });
  },
});
