/**
 * Atomic transitions. partner-cashin-api.md "States and transitions": "Transitions are atomic: two
 * concurrent confirmations of the same charge never capture the value twice."; "A charge is created
 * in `pending` and moves to exactly one of the other states."; "Cancel from paid … answers 409."
 *
 * The answer to pay of a charge that is no longer pending is not shown, so several 2xx answers to
 * concurrent pays are only noted; what is judged is the effect: one capture posting, one final state.
 */
import { check } from '../../harness/run/check.js';
import { makeFinding, show } from '../../harness/rules/index.js';
import { chargeBody, ctxOf, distinctiveAmount, entriesOf, getStatement, is2xx, lookupState, mustCreate, postingMentions, postingsOf, status } from './support.js';
import type { Json } from './support.js';

const AREA = 'Atomicity';

/** Postings that are the capture of this charge: they mention its id (or e2e_id), or carry its distinctive amount. */
function capturesOf(postings: Json[], chargeId: string, e2e: unknown, amount: number): Json[] {
  const byRef = postings.filter((p) => postingMentions(p, chargeId) || (typeof e2e === 'string' && e2e !== '' && postingMentions(p, e2e)));
  if (byRef.length) return byRef;
  return postings.filter((p) => entriesOf(p).some((e) => e.amount_cents === amount && e.direction === 'debit'));
}

check('concurrent pays of one charge capture it once', {
  id: 'partner.atomicity.concurrent-pay',
  exclusive: true,
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: ['PT-ATOMIC-CAPTURE', 'PT-STATE-PAID-TERMINAL'],
}, async (t) => {
  const client = t.partner();
  const amount = distinctiveAmount();
  const { id } = await mustCreate(t, chargeBody('atomic-pay', { amount_cents: amount }));
  const { values } = await t.burst('partner', 8, () => client.payCharge(id));
  for (const r of values) status(t.run, r, ['2xx', '4xx'], ['PT-ATOMIC-CAPTURE']);
  const wins = values.filter(is2xx);
  t.run.note(`8 concurrent pays answered ${values.map((v) => v.status).join(', ')}`);
  if (wins.length === 0) {
    t.run.record(makeFinding(ctxOf(['PT-CHARGE-PAY-CONFIRMS'], values.map((v) => v.exchange)), { code: 'atomic.no-winner', title: 'no concurrent pay of a pending charge succeeded', severity: 'failure', expected: 'one pay confirms the charge', actual: `statuses ${values.map((v) => v.status).join(', ')}` }));
    return;
  }
  const seen = await lookupState(t.run, client, id);
  if (seen.state !== 'paid') {
    t.run.record(makeFinding(ctxOf(['PT-CHARGE-PAY-CONFIRMS'], [seen.response.exchange]), { code: 'charge.state', title: 'the charge is not paid after concurrent pays', severity: 'failure', expected: 'status "paid"', actual: `status ${show(seen.state)}` }));
  }
  const { statement, response } = await getStatement(t.run, client);
  if (!statement) return;
  const captures = capturesOf(postingsOf(statement), id, seen.charge?.e2e_id, amount);
  if (captures.length > 1) {
    t.run.record(makeFinding(ctxOf(['PT-ATOMIC-CAPTURE'], [response.exchange, ...wins.map((w) => w.exchange)]), { code: 'atomic.double-capture', title: 'concurrent pays captured the charge more than once', severity: 'failure', expected: 'one capture posting', actual: `${captures.length} postings: ${show(captures.map((c) => c.id))}` }));
  } else if (captures.length === 0) {
    t.run.note('no posting identifies the capture: the count could not be judged from the ledger');
  }
  if (wins.length > 1 && captures.length <= 1) t.run.note(`${wins.length} pays answered 2xx (pay of a paid charge: status not shown) but the ledger shows one capture`);
});

check('concurrent pay and cancel: exactly one wins and the final state agrees with it', {
  id: 'partner.atomicity.pay-vs-cancel',
  exclusive: true,
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: ['PT-STATE-ONE-TRANSITION', 'PT-ATOMIC-CAPTURE', 'PT-CHARGE-CANCEL-409'],
}, async (t) => {
  const client = t.partner();
  for (let round = 0; round < 3; round++) {
    const amount = distinctiveAmount();
    const { id } = await mustCreate(t, chargeBody('atomic-mix', { amount_cents: amount }));
    const { values } = await t.burst('partner', 2, (i) => (i === 0 ? client.payCharge(id) : client.cancelCharge(id)));
    const [pay, cancel] = values;
    if (!pay || !cancel) continue;
    status(t.run, pay, ['2xx', '4xx'], ['PT-STATE-ONE-TRANSITION']);
    status(t.run, cancel, ['2xx', 409], ['PT-STATE-ONE-TRANSITION', 'PT-CHARGE-CANCEL-409']);
    const seen = await lookupState(t.run, client, id);
    const ex = [pay.exchange, cancel.exchange, seen.response.exchange];
    t.run.note(`round ${round + 1}: pay ${pay.status}, cancel ${cancel.status}, final ${show(seen.state)}`);
    if (seen.state !== 'paid' && seen.state !== 'canceled') {
      t.run.record(makeFinding(ctxOf(['PT-STATE-ONE-TRANSITION'], ex), { code: 'atomic.state', title: 'after concurrent pay and cancel the charge is neither paid nor canceled', severity: 'failure', expected: '"paid" or "canceled"', actual: show(seen.state) }));
      continue;
    }
    if (seen.state === 'paid' && is2xx(cancel)) {
      t.run.record(makeFinding(ctxOf(['PT-STATE-ONE-TRANSITION', 'PT-CHARGE-CANCEL-409'], ex), { code: 'atomic.both-won', title: 'cancel answered 2xx but the charge ended paid', severity: 'failure', expected: 'cancel refused with 409 when the pay won', actual: `cancel ${cancel.status}, final paid` }));
    }
    if (seen.state === 'canceled') {
      const { statement } = await getStatement(t.run, client);
      const captured = statement ? capturesOf(postingsOf(statement), id, seen.charge?.e2e_id, amount) : [];
      if (captured.length) {
        t.run.record(makeFinding(ctxOf(['PT-STATE-ONE-TRANSITION', 'PT-ATOMIC-CAPTURE'], ex), { code: 'atomic.canceled-captured', title: 'a canceled charge was captured', severity: 'failure', expected: 'no capture for a charge that ended canceled', actual: `pay ${pay.status}, cancel ${cancel.status}; postings ${show(captured.map((c) => c.id))}` }));
      } else if (is2xx(pay)) {
        t.run.record(makeFinding(ctxOf(['PT-STATE-ONE-TRANSITION'], ex), { code: 'atomic.pay-ignored', title: 'pay answered 2xx but the charge ended canceled', severity: 'warning', expected: 'pay refused when the cancel won', actual: `pay ${pay.status}, cancel ${cancel.status}, final canceled` }));
      }
    }
  }
});
