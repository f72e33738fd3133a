/**
 * Charge states, pair by pair. partner-cashin-api.md "States and transitions": "A charge is created
 * in `pending` and moves to exactly one of the other states."; "Cancel from paid, expired or canceled
 * answers 409."; pay of a charge that is no longer pending: not shown (any 4xx).
 *
 * The states relation (harness/rules/partner/state-matrix.ts) is derived from the spec; the other
 * transition checks try its pairs in sequence on one charge. Here every forbidden pair a run can
 * build gets a fresh charge of its own, brought to its state (the allowed pair from pending, read
 * back) and acted on, all pairs at once; then what the refusal left is read: the state a later
 * lookup shows (never an earlier one, never another) and the ledger (no second capture, no capture
 * of a canceled charge, no refund of a refused cancel). Requests: one creation, step, lookup,
 * action and lookup per pair, and two statements (22 for the four pairs), in six rounds.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import {
  cancelPendingCharge,
  CHARGE_STATE_CELLS,
  confirmPendingCharge,
  keepPaidTerminal,
  moveOnceFromPending,
  neverCaptureTwice,
  readCaptureWindow,
  refuseCancelUnlessPending,
  statementOf,
  type Statement,
} from '../../harness/rules/partner/index.js';
import type { StateCell } from '../../harness/rules/state-matrix.js';
import { chargeBody, CREATES_CHARGES, distinctiveAmount, getStatement, judgeCreated, LOOKS_UP, lookupState, READS_STATEMENTS } from './support.js';

const AREA = 'States and transitions';

/** Forbidden pairs from a state a run builds with documented routes (timer and untryable ones are not). */
const FORBIDDEN = CHARGE_STATE_CELLS.filter((c) => c.expect === 'forbidden' && c.reach === 'run');

/** The allowed pair from the creation state that leads to `state` (one documented step). */
function stepTo(state: string): StateCell | undefined {
  return CHARGE_STATE_CELLS.find((c) => c.expect === 'allowed' && c.to === state && c.state === 'pending');
}

async function statement(t: CheckTools): Promise<Statement | undefined> {
  const { statement: json, response } = await getStatement(t.run, t.partner());
  return json ? statementOf(json, response.exchange) : undefined;
}

check('every forbidden (state, action) pair on a fresh charge: refused, and the charge and the ledger left as they were', {
  id: 'partner.states.forbidden-pairs',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...READS_STATEMENTS, confirmPendingCharge, cancelPendingCharge, keepPaidTerminal, moveOnceFromPending, refuseCancelUnlessPending, neverCaptureTwice],
}, async (t) => {
  const client = t.partner();
  const act = (verb: string, id: string): Promise<ApiResponse> => (verb === 'pay' ? client.payCharge(id) : client.cancelCharge(id));
  const cells = FORBIDDEN.filter((c) => stepTo(c.state) !== undefined);
  // one charge per pair, each of a distinctive amount (its ledger postings are told apart by it)
  const bodies = cells.map(() => chargeBody('states', { amount_cents: distinctiveAmount() }));
  const created = (await t.all(bodies, (body) => client.createCharge(body))).map((r) => judgeCreated(t.run, r));
  const made = cells.flatMap((cell, i) => {
    const id = created[i]?.id;
    return id === undefined ? [] : [{ cell, id, amount: bodies[i]!.amount_cents, step: stepTo(cell.state)! }];
  });
  if (made.length === 0) return;
  // the money window: the statement, every pair's step to its state then its action, the statement
  const window = await t.alone(async () => {
    const before = await statement(t);
    const steps = await t.all(made, (m) => act(m.step.verb, m.id));
    const accepted = made.filter((m, i) => {
      const answer = steps[i]!;
      return m.step.verb === 'pay' ? t.judge(confirmPendingCharge, { kind: 'pay', answer }) : t.judge(cancelPendingCharge, { kind: 'cancel', answer });
    });
    // the state each pair starts from, read (a step that answered 2xx without moving the charge is
    // the step's fault, not the pair's: that pair is not tried)
    const built = await t.all(accepted, (m) => lookupState(t.run, client, m.id));
    const reached = accepted.filter((m, i) => {
      const seen = built[i]!;
      const why = `after a successful ${m.step.verb} of a pending charge`;
      if (m.step.verb === 'pay') t.judge(confirmPendingCharge, { kind: 'state', seen, why });
      else t.judge(cancelPendingCharge, { kind: 'state', seen, why });
      return seen.state === m.cell.state;
    });
    const actions = await t.all(reached, (m) => act(m.cell.verb, m.id));
    // the reads after: the statement and every charge's lookup, together
    const [after, lookups] = await Promise.all([statement(t), t.all(reached, (m) => lookupState(t.run, client, m.id))]);
    return { before, after, reached, steps: reached.map((m) => steps[made.indexOf(m)]!), actions, lookups };
  }, 'money');
  const { before, after, reached, steps, actions, lookups } = window;
  for (const [i, m] of reached.entries()) {
    const answer = actions[i]!;
    const seen = lookups[i]!;
    const { state, verb } = m.cell;
    const why = `after a ${verb} of a ${state} charge`;
    t.run.note(`${state} · ${verb}: HTTP ${answer.status}; the lookup then shows ${seen.state ?? `HTTP ${seen.response.status}`}`);
    if (verb === 'cancel') t.judge(refuseCancelUnlessPending, { kind: 'cancel', answer, state: state as 'paid' | 'canceled' });
    else if (state === 'paid') t.judge(keepPaidTerminal, { kind: 'pay', answer });
    else t.judge(moveOnceFromPending, { kind: 'pay', answer, state: 'canceled' });
    // "no read goes backwards": the refused action left the charge where it was
    if (state === 'paid') t.judge(keepPaidTerminal, { kind: 'state', seen, why });
    else t.judge(moveOnceFromPending, { kind: 'state', seen, expected: 'canceled', why });
    if (!before || !after) continue;
    const reading = readCaptureWindow({ before, after, charge: { id: m.id, e2eId: seen.charge?.e2e_id, distinctiveAmount: m.amount }, amount: m.amount, exchanges: [steps[i]!.exchange, answer.exchange] });
    if (state === 'canceled') t.judge(neverCaptureTwice, { kind: 'ledger', reading, endedCanceled: true });
    else {
      t.judge(neverCaptureTwice, { kind: 'ledger', reading });
      if (verb === 'cancel') t.judge(refuseCancelUnlessPending, { kind: 'ledger', cancel: answer, reading });
    }
  }
});
