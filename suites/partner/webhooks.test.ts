/**
 * Partner webhooks. partner-cashin-api.md "Events": "Every state change sends a signed POST to that
 * URL." (business.pix.created / paid / canceled); "Webhook event body": `id`, `type`, `created_at`
 * (ISO 8601), `data{amount_cents, e2e_id, external_ref}`; "Authentication" 4: `X-Service-Signature:
 * t=<epoch>,v1=<hmac>`, hex HMAC-SHA256 over `<timestamp>.<raw request body>`, 300 s tolerance.
 *
 * Deliveries go to the run's receiver at `/partner`, shared by every partner check running in
 * parallel; payloads carry no charge id, so ours are matched by a unique external_ref. Waits are
 * bounded long-polls (WEBHOOK_WAIT_MS), never fixed sleeps.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import {
  announceStateChanges,
  cancelPendingCharge,
  carryE2eWhenPaid,
  confirmPendingCharge,
  echoChargeValues,
  eventOf,
  nameEventsAsDocumented,
  serviceClockOffsetMs,
  shapeEventBodies,
  partnerDeliverySignature,
  signPartnerWebhooks,
  verifyExternalRefUnchanged,
} from '../../harness/rules/partner/index.js';
import type { ExpectedEvent } from '../../harness/rules/partner/index.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { chargeBody, CREATES_CHARGES, distinctiveAmount, isRecord, LOOKS_UP, lookupState, mustCreate, waitForEvent, webhookSecret, WEBHOOK_WAIT_MS } from './support.js';

const AREA = 'Webhooks';

/**
 * Waits for our event of `type`. When it does not come, `later` triggers an event that follows it
 * (returns its label and type) and waits for that one, then once more for ours: the arrival rule
 * then has evidence either way.
 */
async function awaitEvent(t: CheckTools, ref: string, type: string, later: () => Promise<{ ref: string; type: string } | undefined>, amount?: number): Promise<Delivery | undefined> {
  const receiver = t.receiver();
  let d = await waitForEvent(receiver, ref, type, WEBHOOK_WAIT_MS, amount);
  let laterEvent: string | undefined;
  let waited = WEBHOOK_WAIT_MS;
  if (!d) {
    const next = await later();
    const arrived = next ? await waitForEvent(receiver, next.ref, next.type) : undefined;
    if (arrived && next) {
      d = await waitForEvent(receiver, ref, type, WEBHOOK_WAIT_MS, amount);
      waited += 2 * WEBHOOK_WAIT_MS;
      if (!d) laterEvent = `${next.type} (triggered after it)`;
    }
  }
  t.judge(announceStateChanges, { kind: 'arrival', delivery: d, type, ref, waitedMs: waited, laterEvent });
  return d;
}

/** The rules every one of our deliveries is judged by ({@link verifyDelivery}). */
const DELIVERIES = [announceStateChanges, nameEventsAsDocumented, shapeEventBodies, verifyExternalRefUnchanged, signPartnerWebhooks, echoChargeValues] as const;

/**
 * One of our events: a JSON POST, the documented name, the body shape with the charge's amount, the
 * external_ref unchanged ("returned unchanged … in webhooks"), for business.pix.paid the payment's
 * e2e_id, and its signature.
 */
function verifyDelivery(t: CheckTools, d: Delivery, expected: ExpectedEvent, clockOffsetMs: number | undefined): void {
  t.judge(announceStateChanges, { kind: 'post', delivery: d });
  t.judge(nameEventsAsDocumented, { delivery: d, type: expected.type });
  // the body's shape and the values sent, through the echo relation (its event cells)
  const sent = { amount_cents: expected.amount, ...(expected.externalRef !== undefined ? { external_ref: expected.externalRef } : {}) };
  t.judge(echoChargeValues, { field: 'amount_cents', sent, event: expected.type, delivery: d });
  const data = eventOf(d)?.data;
  if (isRecord(data)) t.judge(echoChargeValues, { field: 'external_ref', sent, event: expected.type, delivery: d });
  if (isRecord(data) && expected.type === 'business.pix.paid') t.judge(carryE2eWhenPaid, { kind: 'event', e2eId: data.e2e_id, chargeE2eId: expected.e2eId, where: `delivery #${d.seq}` });
  t.judge(signPartnerWebhooks, partnerDeliverySignature(d, webhookSecret(t), clockOffsetMs === undefined ? {} : { clockOffsetMs }));
}

/** A new charge whose business.pix.created event follows whatever was triggered before. */
async function laterCreation(t: CheckTools): Promise<{ ref: string; type: string }> {
  const body = chargeBody('wh-later');
  await mustCreate(t, body);
  return { ref: body.external_ref!, type: 'business.pix.created' };
}

// "business.pix.created | charge created"
check('creation sends a signed business.pix.created event with the external_ref unchanged', {
  id: 'partner.webhooks.created',
  api: 'partner',
  area: AREA,
  needs: ['partner.webhooks'],
  rules: [...CREATES_CHARGES, ...DELIVERIES, cancelPendingCharge],
}, async (t) => {
  webhookSecret(t);
  // punctuation, spaces and non-ASCII in the label: "returned unchanged … in webhooks"
  const body = chargeBody('wh-created', { external_ref: ` ${chargeBody('x').external_ref} / Ação "ç" `, amount_cents: distinctiveAmount() });
  const { id, charge, response } = await mustCreate(t, body);
  const offset = serviceClockOffsetMs(response.exchange, charge.created_at);
  const d = await awaitEvent(t, body.external_ref!, 'business.pix.created', async () => {
    // the cancel of this very charge triggers an event that follows its creation
    const cancel = await t.partner().cancelCharge(id);
    return t.judge(cancelPendingCharge, { kind: 'cancel', answer: cancel }) && cancel.status < 300 ? { ref: body.external_ref!, type: 'business.pix.canceled' } : undefined;
  }, body.amount_cents);
  if (d) verifyDelivery(t, d, { type: 'business.pix.created', amount: body.amount_cents, externalRef: body.external_ref! }, offset);
});

// "business.pix.paid | payment confirmed"; pay: "with the same effect (capture plus webhook)"
check('pay sends a signed business.pix.paid event with amount, e2e_id and external_ref', {
  id: 'partner.webhooks.paid',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.webhooks'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...DELIVERIES, confirmPendingCharge, carryE2eWhenPaid],
}, async (t) => {
  webhookSecret(t);
  const client = t.partner();
  const body = chargeBody('wh-paid', { amount_cents: distinctiveAmount() });
  const { id, charge, response } = await mustCreate(t, body);
  const offset = serviceClockOffsetMs(response.exchange, charge.created_at);
  const pay = await client.payCharge(id);
  if (!t.judge(confirmPendingCharge, { kind: 'pay', answer: pay }) || pay.status >= 300) return;
  const paid = await lookupState(t.run, client, id);
  const d = await awaitEvent(t, body.external_ref!, 'business.pix.paid', () => laterCreation(t), body.amount_cents);
  if (d) verifyDelivery(t, d, { type: 'business.pix.paid', amount: body.amount_cents, externalRef: body.external_ref!, e2eId: paid.charge?.e2e_id }, offset);
});

// "business.pix.canceled | charge canceled before payment"
check('cancel sends a signed business.pix.canceled event', {
  id: 'partner.webhooks.canceled',
  api: 'partner',
  area: AREA,
  needs: ['partner.webhooks'],
  rules: [...CREATES_CHARGES, ...DELIVERIES, cancelPendingCharge],
}, async (t) => {
  webhookSecret(t);
  const body = chargeBody('wh-canceled');
  const { id, charge, response } = await mustCreate(t, body);
  const offset = serviceClockOffsetMs(response.exchange, charge.created_at);
  const cancel = await t.partner().cancelCharge(id);
  if (!t.judge(cancelPendingCharge, { kind: 'cancel', answer: cancel }) || cancel.status >= 300) return;
  const d = await awaitEvent(t, body.external_ref!, 'business.pix.canceled', () => laterCreation(t));
  if (d) verifyDelivery(t, d, { type: 'business.pix.canceled', amount: body.amount_cents, externalRef: body.external_ref! }, offset);
});
