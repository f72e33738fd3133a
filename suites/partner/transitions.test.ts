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
import type { RequirementId } from '../../harness/rules/finding.js';
import {
  ensureCancelAccepted,
  ensureExpiredOnLookup,
  ensurePayAccepted,
  ensurePayRefused,
  eventOf,
  expectChargeState,
  expectPartnerError,
  verifyListedExpired,
  verifyPaidChargeE2e,
} from '../../harness/rules/partner/index.js';
import { chargeBody, eventMatcher, PARTNER_WEBHOOK_PATH, listCharges, lookupState, msUntil, mustCreate, pollUntil } from './support.js';

const AREA = 'States and transitions';

/** Pay of a charge that is not pending: judged by ensurePayRefused; the status chosen is noted. */
function refusedPay(run: CheckRun, r: ApiResponse, requirements: RequirementId[], state: string): void {
  run.record(ensurePayRefused(r, { requirements, state }));
  run.note(`pay of a ${state} charge answered ${r.status} (status not shown by the contract)`);
}

// "pending | payment confirmed (or sandbox simulation route) | before expires_at | paid | terminal";
// "Cancel from paid, expired or canceled answers 409."; "Sandbox charges can be confirmed by a simulation route."
check('pay moves a pending charge to paid with an e2e_id; paid is terminal (cancel 409, pay refused)', {
  id: 'partner.transitions.pay-terminal',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: ['PT-SANDBOX-SIMULATION', 'PT-CHARGE-PAY-CONFIRMS', 'PT-STATE-PAID-TERMINAL', 'PT-CHARGE-CANCEL-409', 'PT-CHARGE-E2E-WHEN-PAID', 'PT-CHARGE-FIELD-E2E', 'PT-STATE-ONE-TRANSITION'],
}, async (t) => {
  const client = t.partner();
  const { id } = await mustCreate(t, chargeBody('pay'));
  const pay = await client.payCharge(id);
  if (!t.run.record(ensurePayAccepted(pay, { requirements: ['PT-CHARGE-PAY-CONFIRMS', 'PT-SANDBOX-SIMULATION'] }))) return;
  t.run.note(`pay answered ${pay.status} with ${pay.exchange.response?.body ? 'a body' : 'no body'} (response body not shown by the contract)`);
  const paid = await lookupState(t.run, client, id);
  if (!t.run.record(expectChargeState(paid, 'paid', { requirements: ['PT-CHARGE-PAY-CONFIRMS', 'PT-CHARGE-GET-CURRENT'], why: 'after a successful pay' }))) return;
  t.run.record(verifyPaidChargeE2e(paid.charge, { requirements: ['PT-CHARGE-E2E-WHEN-PAID'], exchanges: [paid.response.exchange] }));
  t.run.record(expectPartnerError(await client.cancelCharge(id), 409, { requirements: ['PT-CHARGE-CANCEL-409', 'PT-STATE-PAID-TERMINAL'] }));
  refusedPay(t.run, await client.payCharge(id), ['PT-STATE-PAID-TERMINAL', 'PT-STATE-ONE-TRANSITION'], 'paid');
  t.run.record(expectChargeState(await lookupState(t.run, client, id), 'paid', { requirements: ['PT-STATE-PAID-TERMINAL'], why: 'after cancel and a second pay of a paid charge' }));
});

// "pending | POST .../:id/cancel | charge is pending | canceled"; "Cancel from … canceled answers 409";
// "moves to exactly one of the other states".
check('cancel moves a pending charge to canceled; a canceled charge cannot be canceled (409) or paid', {
  id: 'partner.transitions.cancel',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: ['PT-CHARGE-CANCEL-PENDING', 'PT-CHARGE-CANCEL-409', 'PT-STATE-ONE-TRANSITION', 'PT-CHARGE-GET-CURRENT'],
}, async (t) => {
  const client = t.partner();
  const { id } = await mustCreate(t, chargeBody('cancel'));
  const cancel = await client.cancelCharge(id);
  if (!t.run.record(ensureCancelAccepted(cancel, { requirements: ['PT-CHARGE-CANCEL-PENDING'] }))) return;
  t.run.note(`cancel answered ${cancel.status} with ${cancel.exchange.response?.body ? 'a body' : 'no body'} (response body not shown by the contract)`);
  if (!t.run.record(expectChargeState(await lookupState(t.run, client, id), 'canceled', { requirements: ['PT-CHARGE-CANCEL-PENDING'], why: 'after a successful cancel' }))) return;
  t.run.record(expectPartnerError(await client.cancelCharge(id), 409, { requirements: ['PT-CHARGE-CANCEL-409'] }));
  refusedPay(t.run, await client.payCharge(id), ['PT-STATE-ONE-TRANSITION'], 'canceled');
  t.run.record(expectChargeState(await lookupState(t.run, client, id), 'canceled', { requirements: ['PT-STATE-ONE-TRANSITION'], why: 'after a pay of a canceled charge' }));
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
  requirements: ['PT-CHARGE-EXPIRY-LAZY', 'PT-CHARGE-PAY-AFTER-EXPIRY', 'PT-CHARGE-CANCEL-EXPIRED-409', 'PT-CHARGE-EXPIRY-LIST', 'PT-STATE-ONE-TRANSITION', 'PT-EVT-EXPIRY'],
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
    if (lastState === 'pending') t.run.record(ensureExpiredOnLookup({ lastState, expiresAt: probe.expiresAt, skewMs: 60_000, at: new Date() }, { requirements: ['PT-CHARGE-EXPIRY-LAZY'] }));
    return;
  }
  t.run.record(expectChargeState(seen, 'expired', { requirements: ['PT-CHARGE-EXPIRY-LAZY'], why: 'on the first lookup after expires_at' }));
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
      refusedPay(t.run, await client.payCharge(id), ['PT-CHARGE-PAY-AFTER-EXPIRY'], 'past expires_at');
      t.run.record(expectChargeState(await lookupState(t.run, client, id), 'expired', { requirements: ['PT-CHARGE-PAY-AFTER-EXPIRY', 'PT-CHARGE-EXPIRY-LAZY'], why: 'after a pay attempt past expires_at' }));
    } else if (role === 'cancel') {
      t.run.record(expectPartnerError(await client.cancelCharge(id), 409, { requirements: ['PT-CHARGE-CANCEL-EXPIRED-409'] }));
      t.run.record(expectChargeState(await lookupState(t.run, client, id), 'expired', { requirements: ['PT-CHARGE-CANCEL-EXPIRED-409', 'PT-CHARGE-EXPIRY-LAZY'], why: 'after a cancel attempt past expires_at' }));
    } else {
      // Whether a listing counts as a lookup is not stated (PT-CHARGE-EXPIRY-LIST): the rule warns.
      const { list, response } = await listCharges(t.run, client);
      if (list) t.run.record(verifyListedExpired(list.items.find((i) => i.id === id), { requirements: ['PT-CHARGE-EXPIRY-LIST'], exchanges: [response.exchange] }));
      t.run.record(expectChargeState(await lookupState(t.run, client, id), 'expired', { requirements: ['PT-CHARGE-EXPIRY-LAZY'], why: 'on lookup after expires_at' }));
    }
  }
});
