/**
 * Partner statuses and enums (partner-cashin-api.md "Endpoints", "Errors"). The relations are derived
 * from specs/partner.openapi.yaml (harness/rules/statuses.ts):
 *
 * - statuses: every status a route lists is tried by the checks that provoke it with its stated
 *   cause (harness/rules/status.ts `judgeStatus` names the cells); the two no other check names are
 *   provoked here: the list's 422 ("A `status` that is no charge state") and pay's 409 ("State
 *   conflict (the charge is not pending)");
 * - response enums: every response the suite validates tries the enum values it carries;
 * - request enums: the status filter's values, tried by the list checks (suites/partner/list.test.ts).
 */
import { check } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import { filterByStatus } from '../../harness/rules/partner/list.js';
import { provokePayConflict } from '../../harness/rules/partner/statuses.js';
import { chargeBody, CREATES_CHARGES, mustCreate } from './support.js';

const AREA = 'Statuses and enums';

// "GET /business/pix-charges … 422 | A `status` that is no charge state" (the answer to it is not
// shown: served or refused) and "POST …/:id/pay … 409 | State conflict (the charge is not pending)"
check('the statuses no other check provokes: a status filter that is no state, a pay of a paid charge', {
  id: 'partner.statuses.unprovoked',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, filterByStatus, provokePayConflict],
}, async (t) => {
  const client = t.partner();
  // independent: the list with an undocumented filter value and the charge to pay twice
  const [list, created] = await Promise.all([client.listCharges({ status: 'not-a-state' }), mustCreate(t, chargeBody('pay-twice'))]);
  t.judge(filterByStatus, { kind: 'undocumented', answer: list, value: 'not-a-state' });
  t.run.note(`status=not-a-state (no charge state) answered HTTP ${list.status}`);
  const first = await client.payCharge(created.id);
  const again: ApiResponse = await client.payCharge(created.id);
  t.judge(provokePayConflict, { first, again });
});
