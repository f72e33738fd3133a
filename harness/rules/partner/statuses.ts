/**
 * Partner statuses no other check's rule names (harness/rules/statuses.ts `PARTNER_STATUSES`):
 * "POST /v1/business/pix-charges/:id/pay … 409 | State conflict (the charge is not pending)", with
 * the Errors row "409 | state conflict". The states rules judge a pay of a paid charge (any refusal:
 * the answer is not shown beyond the table); this rule applies them and says the request tried the
 * route's 409.
 *
 * Partner request range edges (`PARTNER_REQUEST_ENUMS`; the status filter's values are tried by
 * list.ts `filterByStatus`): "amount_cents | integer | yes | greater than zero", "expires_in_seconds
 * | … | 60 to 86400": a valid body at an edge is accepted, as the request table judges it.
 */
import { defineRule } from '../rule.js';
import { PARTNER_REQUEST_ENUMS, PARTNER_STATUSES } from '../statuses.js';
import { honourChargeRequestTable, type ChargeRequestObservation } from './charges.js';
import type { Answer } from './errors.js';
import { confirmPendingCharge, keepPaidTerminal } from './states.js';

const PAY_CONFLICT = 'POST /business/pix-charges/{id}/pay → 409';

/** The sandbox pay of a pending charge, then a pay of the same charge, now paid. */
export interface PayAgain {
  first: Pick<Answer, 'status' | 'exchange'>;
  again: Pick<Answer, 'status' | 'exchange'>;
}

/** A pay of a paid charge: the cause of the route's 409 ("the charge is not pending"), judged by the states rules. */
export const provokePayConflict = defineRule({
  name: 'provokePayConflict',
  requirements: [],
  codes: {},
  uses: [confirmPendingCharge, keepPaidTerminal],
  relation: PARTNER_STATUSES,
  judge(o: PayAgain, v) {
    v.apply(confirmPendingCharge, { kind: 'pay', answer: o.first });
    if (o.first.status < 200 || o.first.status > 299) return;
    v.covers(PAY_CONFLICT);
    v.apply(keepPaidTerminal, { kind: 'pay', answer: o.again });
  },
});

/** A valid creation whose body sits at documented range edges (`cells`), as the request table judges it. */
export const acceptDocumentedRequestEdges = defineRule({
  name: 'acceptDocumentedRequestEdges',
  requirements: [],
  codes: {},
  uses: [honourChargeRequestTable],
  relation: PARTNER_REQUEST_ENUMS,
  judge(o: { cells: readonly string[]; judged: ChargeRequestObservation }, v) {
    for (const cell of o.cells) v.covers(cell);
    v.apply(honourChargeRequestTable, o.judged);
  },
});
