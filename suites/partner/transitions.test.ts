/**
 * Partner charge states: pay (sandbox), cancel, terminal states, lazy expiry.
 * partner-cashin-api.md "States and transitions", ".../cancel", ".../pay (sandbox only)".
 *
 * Where the contract fixes a status (cancel from paid/expired/canceled → 409) it is checked
 * exactly; the answer to pay of a charge that is no longer pending is not shown, so any non-2xx
 * non-5xx answer is accepted (and noted), and the charge must stay in its state.
 */
import { check } from '../../harness/run/check.js';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import {
  cancelPendingCharge,
  carryE2eWhenPaid,
  confirmPendingCharge,
  eventOf,
  expireLazily,
  keepPaidTerminal,
  moveOnceFromPending,
  refuseCancelUnlessPending,
  refusePayAfterExpiry,
} from '../../harness/rules/partner/index.js';
import { chargeBody, CREATES_CHARGES, eventMatcher, LISTS_CHARGES, LOOKS_UP, PARTNER_WEBHOOK_PATH, listCharges, lookupState, msUntil, mustCreate, pollUntil } from './support.js';

const AREA = 'States and transitions';

/** Pay of a charge that is not pending: the status is not shown by the contract; the one chosen is noted. */
function noteRefusedPay(run: CheckRun, r: ApiResponse, state: string): void {
  run.note(`pay of a ${state} charge answered ${r.status} (status not shown by the contract)`);
}

// "pending | payment confirmed (or sandbox simulation route) | before expires_at | paid | terminal";
// "Cancel from paid, expired or canceled answers 409."; "Sandbox charges can be confirmed by a simulation route."
check('pay moves a pending charge to paid with an e2e_id; paid is terminal (cancel 409, pay refused)', {
  id: 'partner.transitions.pay-terminal',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, carryE2eWhenPaid, refuseCancelUnlessPending, keepPaidTerminal],
}, async (t) => {
  const client = t.partner();
  const { id } = await mustCreate(t, chargeBody('pay'));
  const pay = await client.payCharge(id);
  if (!t.judge(confirmPendingCharge, { kind: 'pay', answer: pay })) return;
  t.run.note(`pay answered ${pay.status} with ${pay.exchange.response?.body ? 'a body' : 'no body'} (response body not shown by the contract)`);
  const paid = await lookupState(t.run, client, id);
  if (!t.judge(confirmPendingCharge, { kind: 'state', seen: paid, why: 'after a successful pay' })) return;
  t.judge(carryE2eWhenPaid, { kind: 'charge', charge: paid.charge, exchange: paid.response.exchange });
  t.judge(refuseCancelUnlessPending, { kind: 'cancel', answer: await client.cancelCharge(id), state: 'paid' });
  const again = await client.payCharge(id);
  t.judge(keepPaidTerminal, { kind: 'pay', answer: again });
  noteRefusedPay(t.run, again, 'paid');
  t.judge(keepPaidTerminal, { kind: 'state', seen: await lookupState(t.run, client, id), why: 'after cancel and a second pay of a paid charge' });
});

// "pending | POST .../:id/cancel | charge is pending | canceled"; "Cancel from … canceled answers 409";
// "moves to exactly one of the other states".
check('cancel moves a pending charge to canceled; a canceled charge cannot be canceled (409) or paid', {
  id: 'partner.transitions.cancel',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, cancelPendingCharge, refuseCancelUnlessPending, moveOnceFromPending],
}, async (t) => {
  const client = t.partner();
  const { id } = await mustCreate(t, chargeBody('cancel'));
  const cancel = await client.cancelCharge(id);
  if (!t.judge(cancelPendingCharge, { kind: 'cancel', answer: cancel })) return;
  t.run.note(`cancel answered ${cancel.status} with ${cancel.exchange.response?.body ? 'a body' : 'no body'} (response body not shown by the contract)`);
  if (!t.judge(cancelPendingCharge, { kind: 'state', seen: await lookupState(t.run, client, id), why: 'after a successful cancel' })) return;
  t.judge(refuseCancelUnlessPending, { kind: 'cancel', answer: await client.cancelCharge(id), state: 'canceled' });
  const pay = await client.payCharge(id);
  t.judge(moveOnceFromPending, { kind: 'pay', answer: pay, state: 'canceled' });
  noteRefusedPay(t.run, pay, 'canceled');
  t.judge(moveOnceFromPending, { kind: 'state', seen: await lookupState(t.run, client, id), expected: 'canceled', why: 'after a pay of a canceled charge' });
});

// "pending | first lookup or confirmation attempt after expires_at | no payment | expired | detected
// lazily"; "before expires_at | paid" (so pay after it is refused); "Cancel from … expired answers 409".
// Waits are derived from the charges' own expires_at (no fixed timer), so a target with shortened
// timers runs quickly. Clock skew: the probe charge (latest expires_at) is polled by lookup until
// the service shows it expired; only then are the others (earlier expires_at) paid/canceled/listed,
// so the service's own clock has passed their expiry whatever our clock says.
check('after expires_at the first lookup, pay or cancel shows expired; pay is refused and cancel answers 409', {
  id: 'partner.transitions.lazy-expiry',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  tier: 'timer',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...LISTS_CHARGES, expireLazily, refusePayAfterExpiry, refuseCancelUnlessPending],
}, async (t) => {
  const client = t.partner();
  const made: Array<{ id: string; expiresAt: unknown; at: number; ref: string }> = [];
  for (let i = 0; i < 4; i++) {
    const body = chargeBody('expiry', { expires_in_seconds: 60 });
    const { id, charge } = await mustCreate(t, body);
    made.push({ id, expiresAt: charge.expires_at, at: Date.parse(String(charge.expires_at)), ref: body.external_ref! });
  }
  if (made.some((m) => Number.isNaN(m.at))) t.notRun('partner', 'expires_at does not parse: cannot derive the wait');
  // the probe is the charge with the latest expires_at; the others get one role each
  made.sort((a, b) => a.at - b.at);
  const probe = made[3]!;
  const others = (['pay', 'cancel', 'list'] as const).map((role, i) => ({ role, id: made[i]!.id }));
  // Sleep until just before the probe's expires_at (derived from the target, not a fixed timer),
  // then poll it until it leaves pending, allowing 60 s of clock skew past expires_at.
  await new Promise((r) => setTimeout(r, Math.max(0, (msUntil(probe.expiresAt) ?? 0) - 1_000)));
  const deadline = Date.now() + (msUntil(probe.expiresAt) ?? 0) + 60_000;
  let lastState: string | undefined;
  const seen = await pollUntil(async () => {
    const s = await lookupState(t.run, client, probe.id);
    lastState = s.state;
    return s.state !== undefined && s.state !== 'pending' ? s : undefined;
  }, deadline, 500);
  if (!seen) {
    if (lastState === 'pending') t.judge(expireLazily, { kind: 'still-pending', lastState, expiresAt: probe.expiresAt, skewMs: 60_000, at: new Date() });
    return;
  }
  t.judge(expireLazily, { kind: 'state', seen, why: 'on the first lookup after expires_at' });
  // "Every state change sends a signed POST" vs an event table without an expiry event: both
  // readings are accepted (PT-EVT-EXPIRY is reclassified: no rule can fail it); what arrived for the
  // probe is only recorded.
  if (t.target.partner?.webhookSecret && process.env['PAYGATE_RECEIVER_URL']) {
    const events = await t.receiver().deliveries({ path: PARTNER_WEBHOOK_PATH });
    const types = events.filter(eventMatcher(probe.ref)).map((d) => String(eventOf(d)?.type));
    t.run.note(`events for the expired probe so far: ${types.join(', ') || 'none'} (an expiry event is neither required nor forbidden)`);
  }
  for (const { role, id } of others) {
    if (role === 'pay') {
      const pay = await client.payCharge(id);
      t.judge(refusePayAfterExpiry, { kind: 'pay', answer: pay });
      noteRefusedPay(t.run, pay, 'past expires_at');
      t.judge(refusePayAfterExpiry, { kind: 'state', seen: await lookupState(t.run, client, id) });
    } else if (role === 'cancel') {
      t.judge(refuseCancelUnlessPending, { kind: 'cancel', answer: await client.cancelCharge(id), state: 'expired' });
      t.judge(refuseCancelUnlessPending, { kind: 'state', seen: await lookupState(t.run, client, id) });
    } else {
      // Whether a listing counts as a lookup is not stated (PT-CHARGE-EXPIRY-LIST): the rule warns.
      const { list, response } = await listCharges(t.run, client);
      if (list) t.judge(expireLazily, { kind: 'listed', item: list.items.find((i) => i.id === id), exchange: response.exchange });
      t.judge(expireLazily, { kind: 'state', seen: await lookupState(t.run, client, id), why: 'on lookup after expires_at' });
    }
  }
});
