import { describe, expect, it } from 'vitest';
import {
  answerWebhookCreation,
  answerWebhookList,
  deliverOnlySubscribedEvents,
  deliverTableEvents,
  removeWebhookOnDelete,
  requireWebhookUrlAndEvents,
  shapeEventPayloads,
} from '../harness/rules/gateway/webhooks.js';
import { answer, delivery, found } from './rules-gateway-fixtures.js';

const E2E = 'E12345678202401011200abcdefghijk';
const txnPaid = {
  id: '3f0c5a1e-6a43-4c53-9d0e-1d2b3c4d5e6f',
  type: 'transaction',
  event: 'transaction_paid',
  scope: 'user',
  transaction: { id: 'ch_1', amount: 1357, status: 'paid', pix: { endToEndId: E2E, payerInfo: { name: 'Ana', document: '52998224725' } } },
};
const paidExpectation = { kind: 'transaction' as const, event: 'transaction_paid' as const, id: 'ch_1', amount: 1357 };

// the callback signature: test/rules-gateway-signature.test.ts

describe('shapeEventPayloads ("Payload shapes")', () => {
  it('accepts a documented transaction_paid payload', () => {
    const j = shapeEventPayloads.judge({ delivery: delivery(txnPaid), expected: paidExpectation });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-EVT-TXN-PAYLOAD', 'GW-EVT-ID-UUID', 'GW-EVT-SCOPE-USER', 'GW-EVT-EVENT-NAME']));
  });

  it('accepts a *_created event without pix (not shown before settlement)', () => {
    const created = { ...txnPaid, event: 'transaction_created', transaction: { id: 'ch_1', amount: 1357, status: 'pending', pix: null } };
    expect(found(shapeEventPayloads.judge({ delivery: delivery(created), expected: { ...paidExpectation, event: 'transaction_created' } }))).toEqual([]);
  });

  it('fails an amount in reais, a transfer_completed not "paid", a wrong scope', () => {
    const reais = { ...txnPaid, transaction: { ...txnPaid.transaction, amount: 13.57 } };
    expect(found(shapeEventPayloads.judge({ delivery: delivery(reais), expected: paidExpectation }))).toEqual(['failure:event.payload']);
    const transfer = { ...txnPaid, type: 'transfer', event: 'transfer_completed', transaction: undefined, transfer: { id: 'tr_1', amount: 246, status: 'completed', pix: { endToEndId: E2E, creditorAccount: { name: 'B', document: '1' } } } };
    expect(found(shapeEventPayloads.judge({ delivery: delivery(transfer), expected: { kind: 'transfer', event: 'transfer_completed', id: 'tr_1', amount: 246 } }))).toEqual(['failure:event.transfer-completed-status']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery({ ...txnPaid, scope: 'company' }), expected: paidExpectation }))).toEqual(['failure:event.scope']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery({ ...txnPaid, transaction: { ...txnPaid.transaction, status: 'pending' } }), expected: paidExpectation }))).toEqual(['failure:event.payload']);
  });

  it('the endToEndId of a settled event: missing fails, another layout or an impossible moment warns', () => {
    const withE2e = (endToEndId: unknown) => ({ ...txnPaid, transaction: { ...txnPaid.transaction, pix: { ...txnPaid.transaction.pix, endToEndId } } });
    expect(found(shapeEventPayloads.judge({ delivery: delivery(withE2e(undefined)), expected: paidExpectation }))).toEqual(['failure:event.payload']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery(withE2e('e2e_123')), expected: paidExpectation }))).toEqual(['warning:event.payload-doubtful']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery(withE2e('E12345678202613221015abcDEF12345')), expected: paidExpectation }))).toEqual(['warning:event.payload-doubtful']);
  });

  it('warns for another event value, another integer amount, or an unknown payer name', () => {
    expect(found(shapeEventPayloads.judge({ delivery: delivery({ ...txnPaid, event: 'TRANSACTION_PAID' }), expected: paidExpectation }))).toEqual(['warning:event.name']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery({ ...txnPaid, transaction: { ...txnPaid.transaction, amount: 1300 } }), expected: paidExpectation }))).toEqual(['warning:event.payload-doubtful']);
    const noName = { ...txnPaid, transaction: { ...txnPaid.transaction, pix: { endToEndId: E2E, payerInfo: { document: '1' } } } };
    expect(found(shapeEventPayloads.judge({ delivery: delivery(noName), expected: paidExpectation }))).toEqual(['warning:event.payload-doubtful']);
  });

  it('fails a body that is not a JSON object and a non-UUID event id', () => {
    expect(found(shapeEventPayloads.judge({ delivery: delivery(undefined, { raw: 'ok' }), expected: paidExpectation }))).toEqual(['failure:event.payload']);
    expect(found(shapeEventPayloads.judge({ delivery: delivery({ ...txnPaid, id: 42 }), expected: paidExpectation }))).toEqual(['failure:id.uuid']);
  });
});

describe('deliverTableEvents ("sent to every active webhook subscribed … and also to the postbackUrl"; the Events table)', () => {
  const base = { event: 'transaction_created' as const, kind: 'transaction' as const, id: 'ch_1', label: 'charge postbackUrl', waitedMs: 20_000 };
  it('conforms when the delivery arrived', () => {
    const j = deliverTableEvents.judge({ ...base, destination: 'postback', delivery: delivery(txnPaid), seenElsewhere: false });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-EVT-POSTBACK', 'GW-EVT-TRANSACTION-CREATED']);
  });
  it('only warns when the event was seen nowhere within our wait (no contract timer)', () => {
    expect(found(deliverTableEvents.judge({ ...base, destination: 'postback', delivery: undefined, seenElsewhere: false }))).toEqual(['warning:event.not-seen']);
  });
  it('fails a destination left out while the same event reached another one', () => {
    const j = deliverTableEvents.judge({ ...base, destination: 'webhook', delivery: undefined, seenElsewhere: true });
    expect(found(j)).toEqual(['failure:event.not-delivered']);
    expect(j.findings[0]?.requirements).toEqual(['GW-EVT-DELIVERY-SUBSCRIBED']);
  });
  it('fails an event never sent while a later moment of the resource was announced', () => {
    const updated = delivery({ ...txnPaid, event: 'transaction_updated' });
    // transaction_created: the charge was announced paid (under any name)
    const created = deliverTableEvents.judge({ ...base, destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [updated] });
    expect(found(created)).toEqual(['failure:event.not-emitted']);
    expect(created.findings[0]?.requirements).toEqual(['GW-EVT-TRANSACTION-CREATED']);
    // transaction_paid: the payment was announced as transaction_updated only
    const paid = deliverTableEvents.judge({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [updated] });
    expect(found(paid)).toEqual(['failure:event.not-emitted']);
    expect(paid.findings[0]?.requirements).toEqual(['GW-EVT-TRANSACTION-PAID', 'GW-SANDBOX-SIM-EVENTS']);
  });
  it('only warns when nothing about the resource shows the moment passed', () => {
    const pending = delivery({ ...txnPaid, event: 'transaction_created', transaction: { ...txnPaid.transaction, status: 'pending' } });
    const otherCharge = delivery({ ...txnPaid, transaction: { ...txnPaid.transaction, id: 'ch_2' } });
    // a transaction_paid delivery itself is no evidence that transaction_paid was left out
    const samePaid = delivery(txnPaid);
    for (const aboutResource of [[pending], [otherCharge]]) {
      expect(found(deliverTableEvents.judge({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource }))).toEqual(['warning:event.not-seen']);
    }
    expect(found(deliverTableEvents.judge({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [samePaid] }))).toEqual(['warning:event.not-seen']);
    // a transaction_created rendered at send time, after the payment, carries status paid: no evidence either
    const lateCreated = delivery({ ...txnPaid, event: 'transaction_created' });
    expect(found(deliverTableEvents.judge({ ...base, event: 'transaction_paid', destination: 'webhook', delivery: undefined, seenElsewhere: false, aboutResource: [lateCreated] }))).toEqual(['warning:event.not-seen']);
  });
});

describe('deliverOnlySubscribedEvents ("subscribed to the event")', () => {
  it('passes when nothing arrived, fails when something did', () => {
    expect(found(deliverOnlySubscribedEvents.judge({ delivery: undefined, window: 'w' }))).toEqual([]);
    expect(found(deliverOnlySubscribedEvents.judge({ delivery: delivery(txnPaid), window: 'w' }))).toEqual(['failure:event.unsubscribed-delivery']);
  });
});

describe('removeWebhookOnDelete ("Removes a webhook. Response body: not shown.")', () => {
  it('any 2xx DELETE passes; another status fails', () => {
    expect(found(removeWebhookOnDelete.judge({ kind: 'delete', answer: answer(204) }))).toEqual([]);
    expect(found(removeWebhookOnDelete.judge({ kind: 'delete', answer: answer(404, { error: 'NOT_FOUND', message: 'x' }) }))).toEqual(['failure:webhook.delete-status']);
  });
  it('gone or inactive in the list passes; listed active warns', () => {
    expect(found(removeWebhookOnDelete.judge({ kind: 'listed-after', entry: undefined, exchanges: [] }))).toEqual([]);
    expect(found(removeWebhookOnDelete.judge({ kind: 'listed-after', entry: { id: 1, isActive: false }, exchanges: [] }))).toEqual([]);
    expect(found(removeWebhookOnDelete.judge({ kind: 'listed-after', entry: { id: 1, isActive: true }, exchanges: [] }))).toEqual(['warning:webhook.still-listed']);
  });
  it('a delivery after the removal fails', () => {
    expect(found(removeWebhookOnDelete.judge({ kind: 'delivered-after', delivery: undefined, window: 'w' }))).toEqual([]);
    expect(found(removeWebhookOnDelete.judge({ kind: 'delivered-after', delivery: delivery(txnPaid), window: 'w' }))).toEqual(['failure:webhook.deleted-delivery']);
  });
});

describe('answerWebhookCreation ("200: success, data (Webhook, with signatureSecret)" and the Webhook table)', () => {
  const sent = { url: 'http://h/gw/1', events: ['transaction_paid'] };
  const webhook = { id: 12, url: sent.url, events: ['transaction_paid'], isActive: true, signatureSecret: 'whsec_1', createdAt: '2026-11-22T10:00:00Z' };
  const created = (data: Record<string, unknown>, status = 200) => answer(status, { success: true, data });
  it('accepts the documented 200 and decides the route and every field of the table', () => {
    const j = answerWebhookCreation.judge({ answer: created(webhook), sent });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-WH-CREATE-200', 'GW-WH-SECRET-ON-CREATE', 'GW-WH-ID-INTEGER', 'GW-WH-RESOURCE-FIELDS', 'GW-WH-CREATED-AT-ISO']));
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, events: ['transaction_paid', 'x'] }), sent }))).toEqual([]);
  });
  it('fails another status, a 201 included', () => {
    expect(found(answerWebhookCreation.judge({ answer: created(webhook, 201), sent }))).toEqual(['failure:webhook.create-status']);
    expect(found(answerWebhookCreation.judge({ answer: answer(400, { success: false, message: 'x' }), sent }))).toEqual(['failure:webhook.create-status']);
  });
  it('fails each documented field missing or of another type', () => {
    const { signatureSecret: _s, ...noSecret } = webhook;
    const j = answerWebhookCreation.judge({ answer: created(noSecret), sent });
    expect(found(j)).toEqual(['failure:webhook.secret']);
    expect(j.findings[0]?.requirements).toEqual(['GW-WH-CREATE-200', 'GW-WH-SECRET-ON-CREATE']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, id: '12' }), sent }))).toEqual(['failure:webhook.id-integer']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, id: undefined }), sent }))).toEqual(['failure:webhook.no-id']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, isActive: 'yes', events: [] }), sent }))).toEqual(['failure:webhook.is-active', 'failure:webhook.events-echo']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, events: 'transaction_paid' }), sent }))).toEqual(['failure:webhook.events']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, url: 7 }), sent }))).toEqual(['failure:webhook.url']);
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, createdAt: 1764000000000 }), sent }))).toEqual(['failure:time.iso8601']);
    expect(found(answerWebhookCreation.judge({ answer: answer(200, { success: true }), sent }))).toEqual(['failure:webhook.no-data']);
  });
  it('warns for another url spelling and for success other than true', () => {
    expect(found(answerWebhookCreation.judge({ answer: created({ ...webhook, url: 'http://h/gw/1/' }), sent }))).toEqual(['warning:webhook.url-echo']);
    expect(found(answerWebhookCreation.judge({ answer: answer(200, { success: 'ok', data: webhook }), sent }))).toEqual(['warning:webhook.success-not-true']);
  });
  it('registering the same url again: a 4xx decides nothing; a 200 without signatureSecret fails the route\'s 200', () => {
    expect(answerWebhookCreation.judge({ answer: answer(409, { success: false, message: 'already registered' }), sent, again: true }).requirements).toEqual([]);
    expect(found(answerWebhookCreation.judge({ answer: created(webhook), sent, again: true }))).toEqual([]);
    const { signatureSecret: _s, ...noSecret } = webhook;
    const j = answerWebhookCreation.judge({ answer: created(noSecret), sent, again: true });
    expect(found(j)).toEqual(['failure:webhook.secret']);
    expect(j.findings[0]?.requirements).toEqual(['GW-WH-CREATE-200']);
    expect(found(answerWebhookCreation.judge({ answer: answer(500), sent, again: true }))).toEqual(['failure:webhook.create-status']);
  });
});

describe('requireWebhookUrlAndEvents ("url string (required), events array of event names (required)")', () => {
  it('a 400 or 422 passes; a 2xx fails; another 4xx warns', () => {
    expect(found(requireWebhookUrlAndEvents.judge({ answer: answer(400, { success: false, message: 'events is required' }), what: 'events missing', field: 'events' }))).toEqual([]);
    expect(found(requireWebhookUrlAndEvents.judge({ answer: answer(200, { success: true, data: {} }), what: 'events missing', field: 'events' }))).toEqual(['failure:webhook.created-without-required']);
    expect(found(requireWebhookUrlAndEvents.judge({ answer: answer(403, { success: false, message: 'x' }), what: 'url missing', field: 'url' }))).toEqual(['warning:validation.other-4xx']);
  });
});

describe('answerWebhookList ("Lists webhooks. Response body: not shown.")', () => {
  it('JSON or an empty body passes; other text or a non-2xx fails', () => {
    expect(found(answerWebhookList.judge(answer(200, [])))).toEqual([]);
    expect(found(answerWebhookList.judge(answer(204)))).toEqual([]);
    expect(found(answerWebhookList.judge(answer(200, undefined, { body: '<html>' })))).toEqual(['failure:webhook.list-not-json']);
    expect(found(answerWebhookList.judge(answer(404, { error: 'NOT_FOUND', message: 'x' })))).toEqual(['failure:webhook.list-status']);
  });
});
