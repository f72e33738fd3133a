/**
 * The states relation of the gateway's PIX charges and PIX transfers (gateway-api.md "States and
 * transitions"): every (state, action) pair of each lookup's status enum × the routes acting on the
 * resource (`/pay`, `/complete`), derived from the spec and the catalogue
 * (harness/rules/state-matrix.ts). pending → paid (/pay) and banking_processing → completed
 * (/complete) are allowed; paying a paid charge ("400 charge no longer pending") and completing a
 * completed transfer ("400 already completed or canceled") are forbidden. The other states have no
 * documented trigger ("Transitions: not shown"): refused and refunded charges, refused transfers, and
 * pending transfers (held for manual review, which no request can ask for) are untryable. Card charges
 * have states but no route acting on them, so no cell; webhook registrations have no states.
 */
import { requirementsFor } from '../../contract/requirements.js';
import { specDocument } from '../spec-document.js';
import { stateCell, stateCells, stateRelation, stateResources } from '../state-matrix.js';

export const GATEWAY_STATE_CELLS = stateCells(stateResources(specDocument('gateway'), requirementsFor('gateway')));

export const GATEWAY_STATES: ReturnType<typeof stateRelation> = stateRelation('gateway.states', 'PIX charge and transfer states: every (state, action) pair', GATEWAY_STATE_CELLS, {
  '/api/v1/pix/in/qrcode/{transactionId} refused': 'no documented route refuses a PIX charge ("Transitions: not shown")',
  '/api/v1/pix/in/qrcode/{transactionId} refunded': 'no documented route refunds a PIX charge (transaction_refunded is an event name only; "Transitions: not shown")',
  '/api/v1/pix/out/pixkey/{transferId} pending': 'a transfer is pending only while held for manual review, which no request can ask for ("sandbox credentials; no manual review")',
  '/api/v1/pix/out/pixkey/{transferId} refused': 'no documented route refuses a transfer: what a /complete the sandbox balance does not cover does to it is not stated ("Transitions: not shown")',
});

/** The cell of a PIX charge in `state` × /pay. */
export function pixChargeStateCell(state: string): string {
  return stateCell(state, 'POST /api/v1/pix/in/qrcode/{transactionId}/pay');
}

/** The cell of a PIX transfer in `state` × /complete. */
export function transferStateCell(state: string): string {
  return stateCell(state, 'POST /api/v1/pix/out/pixkey/{transferId}/complete');
}
