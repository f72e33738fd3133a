/**
 * Atomicity under concurrency (gateway-api.md "States and transitions": "Transitions are atomic:
 * concurrent confirmations of the same resource never apply the effect twice.").
 *
 * The suites fire bursts of identical confirmations (harness/http/burst.ts) and hand the answers (and
 * the event occurrences they saw) to this rule. The balance is NOT judged here: the sandbox balance
 * is account-wide and other checks move it at the same time, so a balance delta across a burst is an
 * observation only; statuses and events decide. Concurrent first uses of one idempotency key are the
 * idempotency sentence's (pix-transfers.ts `honourIdempotencyKey`).
 */
import { is2xx } from '../../core/json.js';
import { show } from '../judgement.js';
import { defineRule } from '../rule.js';
import type { Answer } from './fields.js';

/** Which confirmation a burst raced. */
export type Confirmation = 'pay' | 'complete';

const CONFIRMATION = {
  pay: { what: '/pay of one pending charge', loser: 'charge no longer pending', success: 'paid' },
  complete: { what: '/complete of one banking_processing transfer', loser: 'already completed or canceled', success: 'completed' },
} as const satisfies Record<Confirmation, { what: string; loser: string; success: string }>;

/**
 * "concurrent confirmations of the same resource never apply the effect twice".
 * - `burst`: identical confirmations of ONE resource that was in the source state before the burst
 *   (the caller sees that state first: a transfer held `pending` for manual review is not raced).
 *   More than one 2xx FAILS. No 2xx, although not every answer was a 429, FAILS too (a funded,
 *   pending resource is confirmed by one of them), unless `mayAllFail` (the caller could not
 *   guarantee the precondition, e.g. the shared balance may not cover a transfer). A loser answering
 *   400 (the documented "no longer in the source state") or 429 conforms; another 4xx WARNS (what a
 *   request racing an in-flight confirmation gets is not stated); a 5xx fails;
 * - `events`: the distinct occurrences (by endToEndId, else event id: "processing is idempotent by
 *   event id or `endToEndId`") of the confirmation's event for the resource at one destination: more
 *   than one FAILS. Duplicate deliveries of one occurrence are allowed ("The same event id can arrive
 *   more than once") and not passed here.
 */
export type TransitionObservation =
  | { case: 'burst'; confirmation: Confirmation; answers: readonly Answer[]; mayAllFail?: boolean }
  | { case: 'events'; event: string; kind: string; label: string; occurrences: readonly string[] };

export const applyTransitionsOnce = defineRule({
  name: 'applyTransitionsOnce',
  requirements: ['GW-ATOMIC-TRANSITIONS'],
  codes: {
    'transitions.confirmed-twice': 'failure',
    'transitions.none-confirmed': 'failure',
    'transitions.loser-status': 'warning',
    'transitions.loser-error': 'failure',
    'transitions.event-twice': 'failure',
  },
  judge(observation: TransitionObservation, v) {
    if (observation.case === 'events') {
      const { occurrences, event, kind, label } = observation;
      if (occurrences.length <= 1) return;
      return v.find('transitions.event-twice', {
        title: `${event} fired ${occurrences.length} times for one ${kind}`,
        expected: `one ${event} occurrence (distinct endToEndId / event id) at the ${label}`,
        actual: `${occurrences.length} occurrences: ${occurrences.join(', ')}`,
      });
    }
    const c = CONFIRMATION[observation.confirmation];
    const { answers } = observation;
    if (answers.every((r) => r.status === 429)) return v.nothingToJudge();
    const winners = answers.filter((a) => is2xx(a.status));
    for (const r of answers) {
      if (is2xx(r.status) || r.status === 400 || r.status === 429) continue;
      if (!r.exchange.response) {
        v.unanswered(r.exchange);
        continue;
      }
      const clientError = r.status >= 400 && r.status <= 499;
      v.find(clientError ? 'transitions.loser-status' : 'transitions.loser-error', {
        title: `a concurrent duplicate ${c.what.split(' ')[0] ?? ''} answered ${r.status}`,
        expected: `HTTP 400 (${c.loser})`,
        actual: `HTTP ${r.status} ${show(r.json, 120)}`,
        exchanges: [r.exchange],
      });
    }
    if (winners.length > 1) {
      v.find('transitions.confirmed-twice', {
        title: `${winners.length} concurrent ${c.what} succeeded`,
        expected: `exactly one 2xx; the others 400 (${c.loser})`,
        actual: `${winners.length} × 2xx (${answers.map((a) => a.status).join(', ')})`,
        exchanges: winners.map((r) => r.exchange),
      });
    }
    if (winners.length === 0 && !observation.mayAllFail && !answers.every((r) => r.status === 429)) {
      v.find('transitions.none-confirmed', {
        title: `none of the concurrent ${c.what} succeeded`,
        expected: `exactly one 2xx with status ${c.success}`,
        actual: answers.map((r) => r.status).join(', '),
        exchanges: answers.map((r) => r.exchange),
      });
    }
  },
});
