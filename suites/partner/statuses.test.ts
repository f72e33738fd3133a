/**
 * Partner statuses and enums (partner-cashin-api.md "Endpoints", "Errors"). The relations are derived
 * from specs/partner.openapi.yaml (harness/rules/statuses.ts):
 *
 * - statuses: every status a route lists is tried by the checks that provoke it with its stated
 *   cause (harness/rules/status.ts `judgeStatus` names the cells); the two no other check names are
 *   provoked here: the list's 422 ("A `status` that is no charge state") and pay's 409 ("State
 *   conflict (the charge is not pending)");
 * - response enums: every response the suite validates tries the enum values it carries;
 * - request enums: the status filter's values, tried by the list checks (suites/partner/list.test.ts);
 *   the edges of the creation's documented ranges, below.
 */
import { check } from '../../harness/run/check.js';
import type { ApiResponse, PartnerChargeRequest } from '../../harness/http/partner-client.js';
import { HarnessError } from '../../harness/core/errors.js';
import { requestEnumCellsOf } from '../../harness/rules/statuses.js';
import type { ChargeRequestField } from '../../harness/rules/partner/charges.js';
import { filterByStatus } from '../../harness/rules/partner/list.js';
import { acceptDocumentedRequestEdges, provokePayConflict } from '../../harness/rules/partner/statuses.js';
import { chargeBody, CREATES_CHARGES, mustCreate } from './support.js';

const AREA = 'Statuses and enums';

const CHARGE_FIELDS = ['amount_cents', 'description', 'external_ref', 'customer_email', 'expires_in_seconds'] as const;

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

/** Bodies carrying every range edge of the creation, at most one edge per field each (in spec order). */
function edgeBodies(): { cells: string[]; edges: Partial<Record<ChargeRequestField, number>> }[] {
  const bodies: { cells: string[]; edges: Partial<Record<ChargeRequestField, number>> }[] = [];
  for (const cell of requestEnumCellsOf('partner')) {
    if (cell.edge === undefined) continue;
    if (cell.operation !== 'POST /business/pix-charges' || !(CHARGE_FIELDS as readonly string[]).includes(cell.field)) {
      throw new HarnessError('statuses.values', `request range cell "${cell.cell}": the suite has no valid request for it (the spec documents a range the suite does not know)`);
    }
    const field = cell.field as ChargeRequestField;
    let body = bodies.find((b) => b.edges[field] === undefined);
    if (body === undefined) bodies.push((body = { cells: [], edges: {} }));
    body.edges[field] = cell.edge.number;
    body.cells.push(cell.cell);
  }
  return bodies;
}

// "amount_cents | integer | yes | greater than zero", "expires_in_seconds | … | 60 to 86400": each
// edge of a documented range accepted in a valid creation (the status filter's values: list.test.ts)
check('every documented request range edge is accepted (the least amount, the shortest and longest expiry)', {
  id: 'partner.enums.request-edges',
  api: 'partner',
  area: AREA,
  rules: [acceptDocumentedRequestEdges],
}, async (t) => {
  const client = t.partner();
  const planned = edgeBodies().map((p) => ({ ...p, body: { ...chargeBody('edge'), ...p.edges } as PartnerChargeRequest }));
  // independent creations: sent together, judged in order
  const answers = await t.all(planned, (p) => client.createCharge(p.body));
  for (const [i, p] of planned.entries()) {
    t.judge(acceptDocumentedRequestEdges, { cells: p.cells, judged: { case: 'valid', body: p.body, answer: answers[i] as ApiResponse, edges: Object.keys(p.edges) as ChargeRequestField[] } });
  }
});
