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
import { makeFinding, verifyIsoTimestamp, verifyWebhookIsJsonPost } from '../../harness/rules/index.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { chargeBody, ctxOf, eventFindings, eventOf, lookupState, mustCreate, signatureFindings, status, waitForEvent, webhookSecret, WEBHOOK_WAIT_MS } from './support.js';

const AREA = 'Webhooks';

/** Waits for our event of `type`; records a failure (naming `requirements`) when it never comes. */
async function expectEvent(t: CheckTools, ref: string, type: string, requirements: string[]): Promise<Delivery | undefined> {
  const d = await waitForEvent(t.receiver(), ref, type);
  if (!d) {
    t.run.record(makeFinding(ctxOf(requirements), { code: 'webhook.missing', title: `no ${type} event arrived`, severity: 'failure', expected: `a signed POST of ${type} with external_ref ${JSON.stringify(ref)} at /partner`, actual: `nothing within ${WEBHOOK_WAIT_MS / 1000} s` }));
  }
  return d;
}

function verifyDelivery(t: CheckTools, d: Delivery, expected: { type: string; amount: number; externalRef: string; e2eId?: unknown }): void {
  t.run.record(verifyWebhookIsJsonPost(d, ctxOf(['PT-WH-STATE-CHANGE', 'PT-BODY-JSON'])));
  t.run.record(eventFindings(d, expected));
  t.run.record(verifyIsoTimestamp(eventOf(d)?.created_at, ctxOf(['PT-WH-BODY-SHAPE'], [], { subject: 'event created_at' })));
  t.run.record(signatureFindings(d, webhookSecret(t)));
}

// "business.pix.created | charge created"
check('creation sends a signed business.pix.created event with the external_ref unchanged', {
  id: 'partner.webhooks.created',
  api: 'partner',
  area: AREA,
  needs: ['partner.webhooks'],
  requirements: ['PT-EVT-CREATED', 'PT-WH-STATE-CHANGE', 'PT-WH-BODY-SHAPE', 'PT-WH-DATA-FIELDS', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-EVENT-TYPES', 'PT-WH-SIGNATURE', 'PT-WH-SIGNATURE-HEADER', 'PT-WH-RAW-BODY', 'PT-WH-TIMESTAMP-EPOCH', 'PT-WH-TOLERANCE'],
}, async (t) => {
  webhookSecret(t);
  // punctuation, spaces and non-ASCII in the label: "returned unchanged … in webhooks"
  const body = chargeBody('wh-created', { external_ref: ` ${chargeBody('x').external_ref} / Ação "ç" ` });
  await mustCreate(t, body);
  const d = await expectEvent(t, body.external_ref!, 'business.pix.created', ['PT-EVT-CREATED', 'PT-WH-STATE-CHANGE']);
  if (d) verifyDelivery(t, d, { type: 'business.pix.created', amount: body.amount_cents, externalRef: body.external_ref! });
});

// "business.pix.paid | payment confirmed"; pay: "with the same effect (capture plus webhook)"
check('pay sends a signed business.pix.paid event with amount, e2e_id and external_ref', {
  id: 'partner.webhooks.paid',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.webhooks'],
  requirements: ['PT-EVT-PAID', 'PT-CHARGE-PAY-WEBHOOK', 'PT-WH-STATE-CHANGE', 'PT-WH-BODY-SHAPE', 'PT-WH-DATA-FIELDS', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-SIGNATURE', 'PT-WH-RAW-BODY'],
}, async (t) => {
  webhookSecret(t);
  const client = t.partner();
  const body = chargeBody('wh-paid');
  const { id } = await mustCreate(t, body);
  if (!status(t.run, await client.payCharge(id), '2xx', ['PT-CHARGE-PAY-CONFIRMS'])) return;
  const paid = await lookupState(t.run, client, id);
  const d = await expectEvent(t, body.external_ref!, 'business.pix.paid', ['PT-EVT-PAID', 'PT-CHARGE-PAY-WEBHOOK']);
  if (d) verifyDelivery(t, d, { type: 'business.pix.paid', amount: body.amount_cents, externalRef: body.external_ref!, e2eId: paid.charge?.e2e_id });
});

// "business.pix.canceled | charge canceled before payment"
check('cancel sends a signed business.pix.canceled event', {
  id: 'partner.webhooks.canceled',
  api: 'partner',
  area: AREA,
  needs: ['partner.webhooks'],
  requirements: ['PT-EVT-CANCELED', 'PT-WH-STATE-CHANGE', 'PT-WH-BODY-SHAPE', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-SIGNATURE'],
}, async (t) => {
  webhookSecret(t);
  const body = chargeBody('wh-canceled');
  const { id } = await mustCreate(t, body);
  if (!status(t.run, await t.partner().cancelCharge(id), '2xx', ['PT-CHARGE-CANCEL-PENDING'])) return;
  const d = await expectEvent(t, body.external_ref!, 'business.pix.canceled', ['PT-EVT-CANCELED', 'PT-WH-STATE-CHANGE']);
  if (d) verifyDelivery(t, d, { type: 'business.pix.canceled', amount: body.amount_cents, externalRef: body.external_ref! });
});
