/**
 * Atomic transitions. partner-cashin-api.md "States and transitions": "Transitions are atomic: two
 * concurrent confirmations of the same charge never capture the value twice."; "A charge is created
 * in `pending` and moves to exactly one of the other states."; "Cancel from paid … answers 409."
 *
 * The answer to pay of a charge that is no longer pending is not shown, so several 2xx answers to
 * concurrent pays are only noted; what is judged is the effect: one capture's worth of money, one
 * final state, one paid event.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import { show } from '../../harness/rules/index.js';
import { confirmPendingCharge, describeCapture, moveOnceFromPending, neverCaptureTwice, readCaptureWindow, refuseCancelUnlessPending, statementOf, verifyCaptureWindow } from '../../harness/rules/partner/index.js';
import type { Statement } from '../../harness/rules/partner/index.js';
import { chargeBody, CREATES_CHARGES, distinctiveAmount, eventMatcher, getStatement, is2xx, isRecord, LOOKS_UP, lookupState, mustCreate, PARTNER_WEBHOOK_PATH, preferDocumentedType, READS_STATEMENTS, waitForEvent } from './support.js';

const AREA = 'Atomicity';

/** Reads the statement (its answer is judged by getStatement). */
async function statement(t: CheckTools): Promise<Statement | undefined> {
  const { statement: json, response } = await getStatement(t.run, t.partner());
  return json ? statementOf(json, response.exchange) : undefined;
}

check('concurrent pays of one charge capture it once', {
  id: 'partner.atomicity.concurrent-pay',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...READS_STATEMENTS, ...LOOKS_UP, neverCaptureTwice, confirmPendingCharge, verifyCaptureWindow],
}, async (t) => {
  const client = t.partner();
  const amount = distinctiveAmount();
  const body = chargeBody('atomic-pay', { amount_cents: amount });
  const { id } = await mustCreate(t, body);
  // the ledger window (statement, burst, statement) with no other money move; the burst inside it
  // with the target to itself (a race window is milliseconds wide), its lanes taken while the opening
  // statement is read; the event wait after it holds nothing
  const window = await t.alone(async () => {
    const { before, values } = await t.aloneAfter(
      () => statement(t),
      async (opened) => ({ before: opened, values: (await t.burst('partner', 8, () => client.payCharge(id))).values }),
    );
    t.run.note(`8 concurrent pays answered ${values.map((v) => v.status).join(', ')} (pay of a paid charge: status not shown)`);
    const answered = t.judge(neverCaptureTwice, { kind: 'answers', answers: values });
    if (!t.judge(confirmPendingCharge, { kind: 'race', answers: values }) || !answered) return undefined;
    const seen = await lookupState(t.run, client, id);
    t.judge(confirmPendingCharge, { kind: 'state', seen, why: 'after concurrent pays' });
    const after = before ? await statement(t) : undefined;
    return { before, after, values, seen };
  }, 'money');
  if (!window) return;
  const { before, after, values, seen } = window;
  if (!before || !after) return;
  const reading = readCaptureWindow({ before, after, charge: { id, e2eId: seen.charge?.e2e_id, distinctiveAmount: amount }, amount, exchanges: values.map((v) => v.exchange), concurrent: true });
  t.judge(verifyCaptureWindow, reading);
  t.run.note(`ledger: ${describeCapture(reading)}`);
  await judgePaidEvents(t, body.external_ref!);
});

/**
 * The business.pix.paid events of the raced charge ("the one that credits the player wallet"): its
 * distinct event ids count its confirmations. Only with a webhook receiver; the wait is for the first
 * paid event, the others of the race are emitted with it.
 */
async function judgePaidEvents(t: CheckTools, ref: string): Promise<void> {
  if (!t.target.partner?.webhookSecret || !process.env['PAYGATE_RECEIVER_URL']) return;
  const receiver = t.receiver();
  if (!(await waitForEvent(receiver, ref, 'business.pix.paid'))) return;
  const paid = preferDocumentedType((await receiver.deliveries({ path: PARTNER_WEBHOOK_PATH })).filter(eventMatcher(ref, 'business.pix.paid')), 'business.pix.paid');
  const events = paid.map((d) => (isRecord(d.json) ? { id: d.json.id, e2eId: isRecord(d.json.data) ? d.json.data.e2e_id : undefined } : { id: undefined, e2eId: undefined }));
  t.run.note(`${paid.length} business.pix.paid delivery(ies) for the raced charge`);
  t.judge(neverCaptureTwice, { kind: 'events', events });
}

check('concurrent pay and cancel: exactly one wins and the final state agrees with it', {
  id: 'partner.atomicity.pay-vs-cancel',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...READS_STATEMENTS, ...LOOKS_UP, moveOnceFromPending, refuseCancelUnlessPending, neverCaptureTwice, verifyCaptureWindow],
}, async (t) => {
  const client = t.partner();
  for (let round = 0; round < 3; round++) {
    const amount = distinctiveAmount();
    const { id } = await mustCreate(t, chargeBody('atomic-mix', { amount_cents: amount }));
    // each round's ledger window with no other money move, its race burst with the target to itself
    // (its lanes taken while the opening statement is read)
    await t.alone(async () => {
      const { before, values } = await t.aloneAfter(
        () => statement(t),
        async (opened) => ({ before: opened, values: (await t.burst('partner', 2, (i) => (i === 0 ? client.payCharge(id) : client.cancelCharge(id)))).values }),
      );
      const [pay, cancel] = values;
      if (!pay || !cancel) return;
      const seen = await lookupState(t.run, client, id);
      t.run.note(`round ${round + 1}: pay ${pay.status}, cancel ${cancel.status}, final ${show(seen.state)}`);
      if (seen.state === undefined) return;
      t.judge(moveOnceFromPending, { kind: 'race', pay, cancel, finalState: seen.state, lookup: seen.response.exchange });
      t.judge(refuseCancelUnlessPending, { kind: 'race', cancel, finalState: seen.state });
      if (seen.state !== 'canceled' && !(seen.state === 'paid' && is2xx(pay))) return;
      const after = before ? await statement(t) : undefined;
      if (!before || !after) return;
      const reading = readCaptureWindow({ before, after, charge: { id, e2eId: seen.charge?.e2e_id, distinctiveAmount: amount }, amount, exchanges: [pay.exchange, cancel.exchange] });
      if (seen.state === 'canceled') t.judge(neverCaptureTwice, { kind: 'ledger', reading, endedCanceled: true });
      else t.judge(verifyCaptureWindow, reading);
    }, 'money');
  }
});
