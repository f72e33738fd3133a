import { describe, expect, it } from 'vitest';
import {
  ensureOnlySubscribedEventsDelivered,
  ensureRemovedWebhookNotListedActive,
  ensureRemovedWebhookReceivesNothing,
  ensureWebhookListIsJson,
  ensureWebhookSecretReturned,
  judgeEventArrival,
  verifyGatewayEventPayload,
  verifyWebhookId,
  verifyWebhookResourceFields,
} from '../harness/rules/gateway/webhooks.js';
import { verifyIsoTimestampIfPresent } from '../harness/rules/gateway/fields.js';
import { delivery, exchange, found } from './rules-gateway-fixtures.js';

const E2E = 'E12345678202401011200abcdefghijk';
const txnPaid = {
  id: '3f0c5a1e-6a43-4c53-9d0e-1d2b3c4d5e6f',
  type: 'transaction',
  event: 'transaction_paid',
  scope: 'user',
  transaction: { id: 'ch_1', amount: 1357, status: 'paid', pix: { endToEndId: E2E, payerInfo: { name: 'Ana', document: '52998224725' } } },
};
const paidExpectation = { kind: 'transaction' as const, event: 'transaction_paid' as const, id: 'ch_1', amount: 1357 };

describe('verifyGatewayEventPayload', () => {
  it('accepts a documented transaction_paid payload', () => {
    const j = verifyGatewayEventPayload(delivery(txnPaid), paidExpectation);
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-EVT-TXN-PAYLOAD', 'GW-EVT-ID-UUID', 'GW-EVT-SCOPE-USER', 'GW-EVT-TRANSACTION-PAID']));
  });

  it('accepts a *_created event without pix (not shown before settlement)', () => {
    const created = { ...txnPaid, event: 'transaction_created', transaction: { id: 'ch_1', amount: 1357, status: 'pending', pix: null } };
    expect(found(verifyGatewayEventPayload(delivery(created), { ...paidExpectation, event: 'transaction_created' }))).toEqual([]);
  });

  it('fails an amount in reais, a transfer_completed not "paid", a wrong scope', () => {
    const reais = { ...txnPaid, transaction: { ...txnPaid.transaction, amount: 13.57 } };
    expect(found(verifyGatewayEventPayload(delivery(reais), paidExpectation))).toEqual(['failure:money.integer-cents']);
    const transfer = { ...txnPaid, type: 'transfer', event: 'transfer_completed', transaction: undefined, transfer: { id: 'tr_1', amount: 246, status: 'completed', pix: { endToEndId: E2E, creditorAccount: { name: 'B', document: '1' } } } };
    expect(found(verifyGatewayEventPayload(delivery(transfer), { kind: 'transfer', event: 'transfer_completed', id: 'tr_1', amount: 246 }))).toEqual(['failure:webhook.payload']);
    expect(found(verifyGatewayEventPayload(delivery({ ...txnPaid, scope: 'company' }), paidExpectation))).toEqual(['failure:webhook.payload']);
  });

  it('warns for another event value, another integer amount, or an unknown payer name', () => {
    expect(found(verifyGatewayEventPayload(delivery({ ...txnPaid, event: 'TRANSACTION_PAID' }), paidExpectation))).toEqual(['warning:webhook.payload']);
    expect(found(verifyGatewayEventPayload(delivery({ ...txnPaid, transaction: { ...txnPaid.transaction, amount: 1300 } }), paidExpectation))).toEqual(['warning:webhook.payload']);
    const noName = { ...txnPaid, transaction: { ...txnPaid.transaction, pix: { endToEndId: E2E, payerInfo: { document: '1' } } } };
    expect(found(verifyGatewayEventPayload(delivery(noName), paidExpectation))).toEqual(['warning:webhook.payload']);
  });

  it('fails a body that is not a JSON object and a non-UUID event id', () => {
    expect(found(verifyGatewayEventPayload(delivery(undefined, { raw: 'ok' }), paidExpectation))).toEqual(['failure:webhook.payload']);
    expect(found(verifyGatewayEventPayload(delivery({ ...txnPaid, id: 42 }), paidExpectation))).toEqual(['failure:id.uuid']);
  });
});

describe('judgeEventArrival', () => {
  const base = { event: 'transaction_created' as const, kind: 'transaction' as const, id: 'ch_1', label: 'charge postbackUrl', waitedMs: 20_000 };
  it('conforms when the delivery arrived', () => {
    const j = judgeEventArrival({ ...base, destination: 'postback', delivery: delivery(txnPaid), seenElsewhere: false });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-EVT-POSTBACK', 'GW-EVT-TRANSACTION-CREATED']);
  });
  it('only warns when the event was seen nowhere within our wait (no contract timer)', () => {
    expect(found(judgeEventArrival({ ...base, destination: 'postback', delivery: undefined, seenElsewhere: false }))).toEqual(['warning:webhook.not-seen']);
  });
  it('fails a destination left out while the same event reached another one', () => {
    const j = judgeEventArrival({ ...base, destination: 'webhook', delivery: undefined, seenElsewhere: true });
    expect(found(j)).toEqual(['failure:webhook.not-delivered']);
    expect(j.findings[0]?.requirements).toEqual(['GW-EVT-DELIVERY-SUBSCRIBED']);
  });
  it('fails an event never sent while a later moment of the resource was announced', () => {
    const updated = delivery({ ...txnPaid, event: 'transaction_updated' });
    // transaction_created: the charge was announced paid (under any name)
    const created = judgeEventArrival({ ...base, destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [updated] });
    expect(found(created)).toEqual(['failure:webhook.not-emitted']);
    expect(created.findings[0]?.requirements).toEqual(['GW-EVT-TRANSACTION-CREATED']);
    // transaction_paid: the payment was announced as transaction_updated only
    const paid = judgeEventArrival({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [updated] });
    expect(found(paid)).toEqual(['failure:webhook.not-emitted']);
    expect(paid.findings[0]?.requirements).toEqual(['GW-EVT-TRANSACTION-PAID', 'GW-SANDBOX-SIM-EVENTS']);
  });
  it('only warns when nothing about the resource shows the moment passed', () => {
    const pending = delivery({ ...txnPaid, event: 'transaction_created', transaction: { ...txnPaid.transaction, status: 'pending' } });
    const otherCharge = delivery({ ...txnPaid, transaction: { ...txnPaid.transaction, id: 'ch_2' } });
    // a transaction_paid delivery itself is no evidence that transaction_paid was left out
    const samePaid = delivery(txnPaid);
    for (const aboutResource of [[pending], [otherCharge]]) {
      expect(found(judgeEventArrival({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource }))).toEqual(['warning:webhook.not-seen']);
    }
    expect(found(judgeEventArrival({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [samePaid] }))).toEqual(['warning:webhook.not-seen']);
    // a transaction_created rendered at send time, after the payment, carries status paid: no evidence either
    const lateCreated = delivery({ ...txnPaid, event: 'transaction_created' });
    expect(found(judgeEventArrival({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [lateCreated] }))).toEqual(['warning:webhook.not-seen']);
  });
});

describe('absence rules', () => {
  it('pass when nothing arrived, fail when something did', () => {
    expect(found(ensureOnlySubscribedEventsDelivered(undefined, 'w'))).toEqual([]);
    expect(found(ensureOnlySubscribedEventsDelivered(delivery(txnPaid), 'w'))).toEqual(['failure:webhook.unsubscribed-delivery']);
    expect(found(ensureRemovedWebhookReceivesNothing(undefined, 'w'))).toEqual([]);
    expect(found(ensureRemovedWebhookReceivesNothing(delivery(txnPaid), 'w'))).toEqual(['failure:webhook.deleted-delivery']);
  });
});

describe('Webhook resource rules', () => {
  it('verifyWebhookId: integer passes; string and absent fail', () => {
    expect(found(verifyWebhookId(12))).toEqual([]);
    expect(found(verifyWebhookId('12'))).toEqual(['failure:webhook.id-integer']);
    expect(found(verifyWebhookId(undefined))).toEqual(['failure:webhook.no-id']);
  });
  it('ensureWebhookSecretReturned: a non-empty string passes', () => {
    expect(found(ensureWebhookSecretReturned({ signatureSecret: 's' }))).toEqual([]);
    expect(found(ensureWebhookSecretReturned({ signatureSecret: '' }))).toEqual(['failure:webhook.secret']);
  });
  it('verifyWebhookResourceFields: echoes pass; a missing event fails; another url warns', () => {
    const sent = { url: 'http://h/gw/1', events: ['transaction_paid'] };
    expect(found(verifyWebhookResourceFields({ isActive: true, events: ['transaction_paid', 'x'], url: sent.url }, sent))).toEqual([]);
    expect(found(verifyWebhookResourceFields({ isActive: 'yes', events: [], url: sent.url }, sent))).toEqual(['failure:webhook.is-active', 'failure:webhook.events-echo']);
    expect(found(verifyWebhookResourceFields({ isActive: true, events: ['transaction_paid'], url: 'http://h/gw/1/' }, sent))).toEqual(['warning:webhook.url-echo']);
  });
  it('ensureWebhookListIsJson: JSON or an empty body passes; other text fails', () => {
    expect(found(ensureWebhookListIsJson(exchange(200, []), []))).toEqual([]);
    expect(found(ensureWebhookListIsJson(exchange(204, undefined), undefined))).toEqual([]);
    expect(found(ensureWebhookListIsJson(exchange(200, undefined, { body: '<html>' }), undefined))).toEqual(['failure:webhook.list-not-json']);
  });
  it('ensureRemovedWebhookNotListedActive: gone or inactive passes; active warns', () => {
    expect(found(ensureRemovedWebhookNotListedActive(undefined))).toEqual([]);
    expect(found(ensureRemovedWebhookNotListedActive({ id: 1, isActive: false }))).toEqual([]);
    expect(found(ensureRemovedWebhookNotListedActive({ id: 1, isActive: true }))).toEqual(['warning:webhook.still-listed']);
  });
});

describe('verifyIsoTimestampIfPresent', () => {
  it('accepts absent/null and ISO 8601; fails other text', () => {
    const ctx = { requirements: ['GW-PIXOUT-TIMESTAMPS-ISO' as const] };
    expect(found(verifyIsoTimestampIfPresent(undefined, ctx))).toEqual([]);
    expect(found(verifyIsoTimestampIfPresent(null, ctx))).toEqual([]);
    expect(found(verifyIsoTimestampIfPresent('2024-01-01T12:00:00Z', ctx))).toEqual([]);
    expect(found(verifyIsoTimestampIfPresent('yesterday', ctx))).toEqual(['failure:time.iso8601']);
  });
});
