/**
 * The echo (b) and events-against-resources (c) relations: their cells, derived from the specs, are
 * pinned here (a spec change shows up), and their rules accept and refuse at the edges of the
 * contract's latitude.
 */
import { describe, expect, it } from 'vitest';
import { attributeFields, echoedFields, sameTextLoosely, schemaLeaves, statusAgainstLookup } from '../harness/rules/echo.js';
import { specDocument } from '../harness/rules/spec-document.js';
import { echoChargeTexts, echoChargeValues, matchEventsToCharges, PARTNER_ECHO, PARTNER_EVENT_RESOURCE, partnerEchoCells, partnerEventCells } from '../harness/rules/partner/echo.js';
import { brCodeAmountCents, echoGatewayValues, echoTransferPixKey, GATEWAY_ECHO, GATEWAY_EVENT_RESOURCE, gatewayEchoCells, gatewayEventCells, matchEventsToResources } from '../harness/rules/gateway/echo.js';
import { shapeEventPayloads, STATE_PATHS } from '../harness/rules/gateway/webhooks.js';
import { creditPaidPixCharge } from '../harness/rules/gateway/balance.js';
import { answer as ptAnswer, brCode, charge, codes, delivery as ptDelivery, severities } from './rules-partner-fixtures.js';
import { answer as gwAnswer, delivery as gwDelivery, found } from './rules-gateway-fixtures.js';

describe('the derivation (harness/rules/echo.ts)', () => {
  it('reads leaves through $ref, allOf and arrays of objects', () => {
    const doc = { components: { schemas: { A: { properties: { x: { type: 'string' }, o: { properties: { y: {} } } } } } } };
    expect(schemaLeaves(doc, { allOf: [{ $ref: '#/components/schemas/A' }], properties: { list: { type: 'array', items: { properties: { z: {} } } }, tags: { type: 'array', items: { type: 'string' } } } })).toEqual(['x', 'o.y', 'list[].z', 'tags']);
  });
  it('echoed fields are the request fields answered under the same name; attributes match by last name', () => {
    expect(echoedFields(['amount', 'pixKey', 'currency'], ['id', 'pixKey', 'amount'])).toEqual(['amount', 'pixKey']);
    expect(attributeFields(['id', 'pix.endToEndId', 'pix.payerInfo.name'], ['id', 'endToEndId', 'status'])).toEqual([{ field: 'id', lookup: 'id' }, { field: 'pix.endToEndId', lookup: 'endToEndId' }]);
  });
  it('texts equal up to surrounding spaces and Unicode normalisation, nothing else', () => {
    expect(sameTextLoosely(' Ac\u0327a\u0303o  ', 'Ação')).toBe(true);
    expect(sameTextLoosely('Ação', 'acao')).toBe(false);
    expect(sameTextLoosely('x'.repeat(139), 'x'.repeat(140))).toBe(false);
  });
  it('a status against a later lookup: the same, earlier on the path, later, off the path, unknown', () => {
    const path = STATE_PATHS.transfer;
    expect(statusAgainstLookup('banking_processing', 'banking_processing', path)).toBe('same');
    expect(statusAgainstLookup('banking_processing', 'completed', path)).toBe('earlier');
    expect(statusAgainstLookup('completed', 'banking_processing', path)).toBe('later');
    expect(statusAgainstLookup('completed', 'refused', path)).toBe('off-path');
    expect(statusAgainstLookup('processing', 'completed', path)).toBe('unknown');
  });
});

describe('the cells, derived from the specs', () => {
  it('partner echo: five charge fields on three answers (expires_in_seconds as expires_at − created_at), amount and external_ref in each event', () => {
    expect(partnerEchoCells(specDocument('partner'))).toEqual([
      ...['creation answer', 'lookup', 'list'].flatMap((p) => ['amount_cents', 'description', 'external_ref', 'customer_email', 'expires_in_seconds'].map((f) => `PIX charge · ${f} · ${p}`)),
      ...['business.pix.created', 'business.pix.paid', 'business.pix.canceled'].flatMap((e) => ['amount_cents', 'external_ref'].map((f) => `PIX charge · ${f} · event ${e}`)),
    ]);
    expect(PARTNER_ECHO.cells).toHaveLength(21);
  });
  it('partner events: data.amount_cents, data.e2e_id, data.external_ref and the state, per event', () => {
    expect(partnerEventCells(specDocument('partner'))).toEqual(
      ['business.pix.created', 'business.pix.paid', 'business.pix.canceled'].flatMap((e) => ['data.amount_cents', 'data.e2e_id', 'data.external_ref', 'type (the state it announces)'].map((f) => `${e} · ${f}`)),
    );
    expect(PARTNER_EVENT_RESOURCE.untryable).toBeUndefined();
  });
  it('gateway echo: transfer amount and pixKey, the charge amount in its BR Code and events, card brand/last4, webhook url/events', () => {
    const { cells, untryable } = gatewayEchoCells(specDocument('gateway'));
    const transferEvents = ['transfer_created', 'transfer_updated', 'transfer_completed', 'transfer_canceled'];
    const chargeEvents = ['transaction_created', 'transaction_paid', 'transaction_refunded', 'transaction_updated', 'infraction'];
    expect(cells).toEqual([
      'PIX transfer · pixKey · creation answer', 'PIX transfer · amount · creation answer',
      'PIX transfer · pixKey · lookup', 'PIX transfer · amount · lookup',
      ...transferEvents.map((e) => `PIX transfer · amount · event ${e}`),
      'PIX charge · amountInCents · creation answer (BR Code)', 'PIX charge · amountInCents · lookup (BR Code)', 'PIX charge · amountInCents · balance (pix.balance, in reais)',
      ...chargeEvents.map((e) => `PIX charge · amountInCents · event ${e}`),
      'card charge · card.last4 · creation answer', 'card charge · card.brand · creation answer',
      'webhook · url · creation answer', 'webhook · events · creation answer',
    ]);
    expect(Object.keys(untryable).sort()).toEqual([
      ...['transfer_updated', 'transfer_canceled'].map((e) => `PIX transfer · amount · event ${e}`),
      ...['transaction_refunded', 'transaction_updated', 'infraction'].map((e) => `PIX charge · amountInCents · event ${e}`),
    ].sort());
    expect(GATEWAY_ECHO.cells.length - Object.keys(GATEWAY_ECHO.untryable ?? {}).length).toBe(15);
  });
  it('gateway events: id, status, amount (through the BR Code) and endToEndId (through /pay) of transactions; id, amount, status, endToEndId of transfers', () => {
    const { cells, untryable } = gatewayEventCells(specDocument('gateway'));
    const tx = (e: string) => ['id', 'status', 'amount', 'pix.endToEndId'].map((f) => `${e} · transaction.${f}`);
    const tr = (e: string) => ['id', 'amount', 'status', 'pix.endToEndId'].map((f) => `${e} · transfer.${f}`);
    expect(cells).toEqual([...tx('transaction_created'), ...tx('transaction_paid'), ...tx('transaction_refunded'), ...tx('transaction_updated'), ...tx('infraction'), ...tr('transfer_created'), ...tr('transfer_updated'), ...tr('transfer_completed'), ...tr('transfer_canceled')]);
    expect(Object.keys(untryable)).toHaveLength(cells.length - 16);
    expect(GATEWAY_EVENT_RESOURCE.cells).toEqual(cells);
  });
});

describe('partner: echoChargeTexts and echoChargeValues', () => {
  const sent = { amount_cents: 1005, description: 'x'.repeat(300), external_ref: ' ref-1 ', customer_email: 'Buyer@example.com' };
  const text = (field: 'description' | 'customer_email', seen: unknown, path: 'creation answer' | 'lookup' | 'list' = 'lookup') => echoChargeTexts.judge({ field, sent: sent[field], seen, absent: seen === undefined, path, exchanges: [] });
  it('the same text passes; spaces or normalisation changed pass; a cut text fails', () => {
    expect(codes(text('description', sent.description))).toEqual([]);
    expect(codes(text('description', `${sent.description}  `))).toEqual([]);
    const cut = text('description', 'x'.repeat(139));
    expect(severities(cut)).toEqual(['charge.text-changed:failure']);
    expect(cut.requirements).toEqual(['PT-CHARGE-FIELD-DESC']);
  });
  it('absent: a warning on creation, nothing on lookup or list; an e-mail in another case warns', () => {
    expect(severities(text('description', undefined, 'creation answer'))).toEqual(['charge.text-omitted:warning']);
    expect(text('description', undefined, 'list').requirements).toEqual([]);
    expect(severities(text('customer_email', 'buyer@example.com'))).toEqual(['charge.email-case:warning']);
    expect(severities(text('customer_email', 'other@example.com'))).toEqual(['charge.text-changed:failure']);
  });
  it('each cell applies the rule of its field and is covered', () => {
    const ok = echoChargeValues.judge({ field: 'amount_cents', sent, path: 'list', charge: charge(1005), exchange: ptAnswer(200).exchange });
    expect(codes(ok)).toEqual([]);
    expect(ok.covered).toEqual([{ relation: 'partner.echo', cells: ['PIX charge · amount_cents · list'] }]);
    expect(codes(echoChargeValues.judge({ field: 'amount_cents', sent, path: 'lookup', charge: charge(10.05), exchange: ptAnswer(200).exchange }))).toEqual(['charge.amount']);
    expect(codes(echoChargeValues.judge({ field: 'external_ref', sent, path: 'list', charge: charge(1005, { external_ref: 'ref-1' }), exchange: ptAnswer(200).exchange }))).toEqual(['charge.external-ref-changed']);
    // a list record without the key: its fields are not shown
    const { external_ref: _dropped, ...bare } = charge(1005);
    expect(echoChargeValues.judge({ field: 'external_ref', sent, path: 'list', charge: bare, exchange: ptAnswer(200).exchange }).findings).toEqual([]);
    const lifetime = (charge: Record<string, unknown>, path: 'lookup' | 'list') => codes(echoChargeValues.judge({ field: 'expires_in_seconds', sent: { ...sent, expires_in_seconds: 3600 }, path, charge, exchange: ptAnswer(200).exchange }));
    expect(lifetime(charge(1005), 'lookup')).toEqual([]);
    expect(lifetime(charge(1005, { expires_at: '2026-11-22T10:01:00Z' }), 'list')).toEqual(['charge.expiry-applied']);
    expect(lifetime({ id: 'chg_1', status: 'pending' }, 'lookup')).toEqual([]);
    const event = { id: 'evt_1', type: 'business.pix.created', created_at: '2026-11-22T10:00:00Z', data: { amount_cents: 1005, external_ref: ' ref-1 ' } };
    expect(codes(echoChargeValues.judge({ field: 'external_ref', sent, event: 'business.pix.created', delivery: ptDelivery(event) }))).toEqual([]);
    expect(codes(echoChargeValues.judge({ field: 'amount_cents', sent, event: 'business.pix.created', delivery: ptDelivery({ ...event, data: { ...event.data, amount_cents: 10.05 } }) }))).toEqual(['webhook.amount']);
  });
});

describe('partner: matchEventsToCharges', () => {
  const event = (type: string, data: Record<string, unknown>) => ptDelivery({ id: 'evt_1', type, created_at: '2026-11-22T10:00:00Z', data: { amount_cents: 1005, external_ref: 'ref-1', ...data } });
  const lookup = (extra: Record<string, unknown>) => ptAnswer(200, charge(1005, extra), 'https://psp.example/v1/business/pix-charges/chg_1');
  it('a created event against a charge that moved on passes; its cells are covered', () => {
    const j = matchEventsToCharges.judge({ event: 'business.pix.created', delivery: event('business.pix.created', {}), lookup: lookup({ status: 'paid', e2e_id: 'E1' }) });
    expect(codes(j)).toEqual([]);
    expect(j.covered?.[0]?.cells).toHaveLength(4);
  });
  it('a paid event: the lookup must be paid, the e2e_id and amount the lookup\'s', () => {
    expect(codes(matchEventsToCharges.judge({ event: 'business.pix.paid', delivery: event('business.pix.paid', { e2e_id: 'E1' }), lookup: lookup({ status: 'paid', e2e_id: 'E1' }) }))).toEqual([]);
    expect(codes(matchEventsToCharges.judge({ event: 'business.pix.paid', delivery: event('business.pix.paid', { e2e_id: 'E1' }), lookup: lookup({ status: 'pending' }) }))).toEqual(['charge.lookup-state']);
    expect(codes(matchEventsToCharges.judge({ event: 'business.pix.paid', delivery: event('business.pix.paid', { e2e_id: 'E2' }), lookup: lookup({ status: 'paid', e2e_id: 'E1' }) }))).toEqual(['e2e.event-differs']);
    expect(codes(matchEventsToCharges.judge({ event: 'business.pix.paid', delivery: event('business.pix.paid', { e2e_id: 'E1', amount_cents: 10 }), lookup: lookup({ status: 'paid', e2e_id: 'E1' }) }))).toEqual(['webhook.amount']);
  });
  it('a canceled event whose external_ref differs from the lookup\'s fails', () => {
    expect(codes(matchEventsToCharges.judge({ event: 'business.pix.canceled', delivery: event('business.pix.canceled', { external_ref: 'ref-1 ' }), lookup: lookup({ status: 'canceled' }) }))).toEqual(['charge.external-ref-changed']);
  });
});

describe('gateway: echoTransferPixKey, echoGatewayValues', () => {
  const created = (pixKey: unknown, amount = 1005) => gwAnswer(200, { success: true, message: 'ok', data: { id: 't1', status: 'banking_processing', amount, netAmount: amount, fees: 0, pixKey } });
  it('the key sent passes; written otherwise warns; another key fails', () => {
    expect(found(echoTransferPixKey.judge({ answer: created('a@b.com'), sent: 'a@b.com', where: 'on creation' }))).toEqual([]);
    expect(found(echoTransferPixKey.judge({ answer: created('A@B.com'), sent: 'a@b.com', where: 'on creation' }))).toEqual(['warning:pixout.pixkey-rewritten']);
    expect(found(echoTransferPixKey.judge({ answer: created('529.982.247-25'), sent: '52998224725', where: 'on lookup' }))).toEqual(['warning:pixout.pixkey-rewritten']);
    expect(found(echoTransferPixKey.judge({ answer: created(undefined), sent: '52998224725', where: 'on lookup' }))).toEqual(['failure:pixout.pixkey-changed']);
  });
  it('a refused creation decides nothing (maximums are not shown); an accepted one is covered', () => {
    expect(echoGatewayValues.judge({ resource: 'PIX transfer', path: 'creation answer', body: { pixKey: 'k', amount: 10 ** 11 }, answer: gwAnswer(400, { success: false, message: 'too big' }) }).requirements).toEqual([]);
    const j = echoGatewayValues.judge({ resource: 'PIX transfer', path: 'lookup', body: { pixKey: 'a@b.com', amount: 1005 }, answer: created('a@b.com', 1005), status: 'banking_processing' });
    expect(found(j)).toEqual([]);
    expect([...(j.covered?.[0]?.cells ?? [])].sort()).toEqual(['PIX transfer · amount · lookup', 'PIX transfer · pixKey · lookup']);
    expect(found(echoGatewayValues.judge({ resource: 'PIX transfer', path: 'lookup', body: { pixKey: 'a@b.com', amount: 1005 }, answer: created('a@b.com', 1000), status: 'banking_processing' }))).toEqual(['failure:pixout.lookup-amount']);
  });
  it('the balance window of a paid charge covers the balance cell', () => {
    const window = { amount: 1005, fees: 5, delta: 1000, quiet: true, exchange: gwAnswer(200, {}).exchange, text: 'x' };
    expect(creditPaidPixCharge.judge([window]).covered).toEqual([{ relation: 'gateway.echo', cells: ['PIX charge · amountInCents · balance (pix.balance, in reais)'] }]);
  });
  it('reads the BR Code amount in cents', () => {
    expect(brCodeAmountCents(brCode(100_000_001))).toBe(100_000_001);
    expect(brCodeAmountCents('not a code')).toBeUndefined();
  });
});

describe('gateway: shapeEventPayloads against the resource, matchEventsToResources', () => {
  const transferEvent = (transfer: Record<string, unknown>, event = 'transfer_completed') => gwDelivery({ id: '0b6f2a8e-3c4d-4e5f-9a1b-2c3d4e5f6a7b', type: 'transfer', event, scope: 'user', transfer: { id: 't1', amount: 1005, status: 'paid', pix: { endToEndId: 'E12345678202611221016abcdef12345', creditorAccount: { name: 'J', document: '1' } }, ...transfer } });
  const lookup = (data: Record<string, unknown>) => gwAnswer(200, { success: true, data: { id: 't1', status: 'completed', amount: 1005, netAmount: 995, fees: 10, pixKey: 'k', endToEndId: 'E12345678202611221016abcdef12345', createdAt: '2026-11-22T10:00:00Z', updatedAt: '2026-11-22T10:00:00Z', processedAt: '2026-11-22T10:00:00Z', ...data } });
  const judge = (transfer: Record<string, unknown>, data: Record<string, unknown> = {}, event: 'transfer_completed' | 'transfer_created' = 'transfer_completed') =>
    found(matchEventsToResources.judge({ event, kind: 'transfer', id: 't1', createdAmount: 1005, delivery: transferEvent(transfer, event), lookup: lookup(data) }));
  it('the gross or the net amount passes; an amount in whole reais fails (without a lookup it only warned)', () => {
    expect(judge({})).toEqual([]);
    expect(judge({ amount: 995 })).toEqual([]);
    expect(judge({ amount: 10 })).toEqual(['failure:event.resource-mismatch']);
    expect(found(shapeEventPayloads.judge({ delivery: transferEvent({ amount: 10 }), expected: { kind: 'transfer', event: 'transfer_completed', id: 't1', amount: 1005 } }))).toEqual(['warning:event.payload-doubtful']);
  });
  it('a created event stating an earlier status passes; a completed one against a processing lookup fails', () => {
    expect(judge({ status: 'banking_processing', pix: null }, {}, 'transfer_created')).toEqual([]);
    expect(judge({}, { status: 'banking_processing', endToEndId: null })).toEqual(['failure:event.resource-mismatch']);
  });
  it('another endToEndId or another id fails', () => {
    expect(judge({ pix: { endToEndId: 'E99999999202611221016abcdef12345', creditorAccount: { name: 'J', document: '1' } } })).toEqual(['failure:event.resource-mismatch']);
    expect(judge({ id: 't2' })).toEqual(['failure:event.resource-mismatch']);
  });
  it('a transaction_paid event: its endToEndId against the /pay answer\'s, its amount against the BR Code of the lookup', () => {
    const paid = (e2e: string, amount = 1005) => gwDelivery({ id: '0b6f2a8e-3c4d-4e5f-9a1b-2c3d4e5f6a7b', type: 'transaction', event: 'transaction_paid', scope: 'user', transaction: { id: 'c1', amount, status: 'paid', pix: { endToEndId: e2e, payerInfo: { name: 'M', document: '1' } } } });
    const chargeLookup = gwAnswer(200, { success: true, message: 'ok', data: { id: 'c1', status: 'paid', fees: 5, pix: { emv: brCode(1005), qrCode: 'iVBORw0KGgo=' } } });
    const judgePaid = (delivery: ReturnType<typeof paid>) => found(matchEventsToResources.judge({ event: 'transaction_paid', kind: 'transaction', id: 'c1', createdAmount: 1005, delivery, lookup: chargeLookup, paidEndToEndId: 'E12345678202611221016abcdef12345' })).filter((f) => f.includes('resource-mismatch'));
    expect(judgePaid(paid('E12345678202611221016abcdef12345'))).toEqual([]);
    expect(judgePaid(paid('E12345678202611221016abcdef12345', 1000))).toEqual([]);
    expect(judgePaid(paid('E99999999202611221016abcdef12345'))).toEqual(['failure:event.resource-mismatch']);
    expect(judgePaid(paid('E12345678202611221016abcdef12345', 10))).toEqual(['failure:event.resource-mismatch']);
  });
  it('every cell of the event is covered', () => {
    const j = matchEventsToResources.judge({ event: 'transfer_completed', kind: 'transfer', id: 't1', createdAmount: 1005, delivery: transferEvent({}), lookup: lookup({}) });
    expect(j.covered?.[0]?.cells).toEqual(['transfer_completed · transfer.id', 'transfer_completed · transfer.amount', 'transfer_completed · transfer.status', 'transfer_completed · transfer.pix.endToEndId']);
  });
});
