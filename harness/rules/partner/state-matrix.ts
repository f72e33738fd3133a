/**
 * The states relation of a partner charge (partner-cashin-api.md "States and transitions"): every
 * (state, action) pair of `GET /business/pix-charges/{id}`'s status enum × the routes acting on a
 * charge (`/cancel`, `/pay`), derived from the spec and the catalogue (harness/rules/state-matrix.ts).
 * pending → paid (pay) and pending → canceled (cancel) are allowed; every other pair is forbidden:
 * "Cancel from paid, expired or canceled answers 409", pay of a charge no longer pending: 4xx (not
 * shown). `expired` is reached only past expires_at (a contract timer: full and certify profiles).
 */
import { requirementsFor } from '../../contract/requirements.js';
import { specDocument } from '../spec-document.js';
import { stateCell, stateCells, stateRelation, stateResources } from '../state-matrix.js';

export const CHARGE_STATE_CELLS = stateCells(stateResources(specDocument('partner'), requirementsFor('partner')));

export const CHARGE_STATE_MATRIX: ReturnType<typeof stateRelation> = stateRelation('partner.states', 'Charge states: every (state, action) pair', CHARGE_STATE_CELLS);

/** The cell of a charge in `state` acted on by `verb`. */
export function chargeStateCell(state: string, verb: 'pay' | 'cancel'): string {
  const cell = CHARGE_STATE_CELLS.find((c) => c.state === state && c.verb === verb);
  return cell?.cell ?? stateCell(state, `POST /business/pix-charges/{id}/${verb}`);
}
