// The reference gateway: international card charges and webhooks (registration and signed
// deliveries) — gateway-api.md "POST /api/v1/card", "Webhook", "Events".
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cardBody, chargeBody, eventually, pick, pickString, startGateway, startReceiver, tokensOf, transferBody, type RunningGateway } from './reference-gateway-client.js';

let gateway: RunningGateway;
let tokens: { sandbox: string; production: string; other: string };

beforeAll(async () => {
  gateway = await startGateway();
  tokens = await tokensOf(gateway);
});
afterAll(() => gateway.close());

describe('card charges', () => {
  it('approves a sandbox token with 201, echoing brand and last4 exactly, without touching the PIX balance', async () => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/card', { token: tokens.other, body: cardBody({}, { brand: ' viSA-placeholder ', last4: 'xx00' }) });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ success: true, data: { status: 'paid', card: { brand: ' viSA-placeholder ', last4: 'xx00' } } });
    const balance = await call(gateway.baseUrl, 'GET', '/api/v1/balance', { token: tokens.other });
    expect(pick(balance.body, 'data.pix.balance')).toBe('0.00');
    const lookup = await call(gateway.baseUrl, 'GET', `/api/v1/transactions/${pickString(reply.body, 'data.id')}`, { token: tokens.other });
    expect(lookup.body).toMatchObject({ data: { method: 'card', status: 'paid', receivable: { status: 'pending_balance' } } });
  });

  it('refuses a token containing decline, and a sale without billing address', async () => {
    const declined = await call(gateway.baseUrl, 'POST', '/api/v1/card', { token: tokens.sandbox, body: cardBody({}, { token: 'ctoken_decline_1' }) });
    expect(declined.status).toBe(201);
    expect(pick(declined.body, 'data.status')).toBe('refused');
    const body = cardBody();
    delete (body.customer as Record<string, unknown>).billingAddress;
    const noAddress = await call(gateway.baseUrl, 'POST', '/api/v1/card', { token: tokens.sandbox, body });
    expect(pick(noAddress.body, 'data.status')).toBe('refused');
  });

  it.each([
    ['currency BRL', cardBody({ currency: 'BRL' }), 'currency'],
    ['no currency', cardBody({ currency: undefined }), 'currency'],
    ['currency GBP', cardBody({ currency: 'GBP' }), 'currency'],
    ['amount 99', cardBody({ amountInCents: 99 }), 'amountInCents'],
    ['card number', cardBody({}, { number: '4111111111111111' }), 'card.number'],
    ['cvv', cardBody({}, { cvv: '123' }), 'card.cvv'],
    ['expMonth', cardBody({}, { expMonth: 12 }), 'card.expMonth'],
    ['no token', cardBody({}, { token: undefined }), 'card.token'],
    ['no holderName', cardBody({}, { holderName: undefined }), 'card.holderName'],
    ['installments 0', cardBody({}, { installments: 0 }), 'card.installments'],
    ['customer without email', cardBody({ customer: { name: 'x', documentType: 'cpf', document: '' } }), 'customer.email'],
  ])('refuses %s with 400', async (_name, body, field) => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/card', { token: tokens.sandbox, body });
    expect(reply.status).toBe(400);
    expect(String(reply.body.message).startsWith(`${field}`)).toBe(true);
  });
});

describe('webhook registration', () => {
  it('creates (integer id, secret), lists without secret, deletes, then 404', async () => {
    const created = await call(gateway.baseUrl, 'POST', '/api/v1/webhook', { token: tokens.sandbox, body: { url: 'https://example.com/hooks', events: ['transaction_paid', 'transfer_completed'] } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, data: { url: 'https://example.com/hooks', events: ['transaction_paid', 'transfer_completed'], isActive: true } });
    const id = pick(created.body, 'data.id');
    expect(Number.isInteger(id)).toBe(true);
    expect(pickString(created.body, 'data.signatureSecret').length).toBeGreaterThan(16);
    expect(new Date(pickString(created.body, 'data.createdAt')).toISOString()).toBe(pick(created.body, 'data.createdAt'));
    const listed = await call(gateway.baseUrl, 'GET', '/api/v1/webhook', { token: tokens.sandbox });
    expect(listed.body.data).toEqual([expect.objectContaining({ id, url: 'https://example.com/hooks' })]);
    expect((await call(gateway.baseUrl, 'DELETE', `/api/v1/webhook/${String(id)}`, { token: tokens.sandbox })).status).toBe(200);
    const again = await call(gateway.baseUrl, 'DELETE', `/api/v1/webhook/${String(id)}`, { token: tokens.sandbox });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it.each([
    ['no url', { events: ['transaction_paid'] }],
    ['no events', { url: 'https://example.com/x' }],
    ['unknown event', { url: 'https://example.com/x', events: ['transaction_exploded'] }],
    ['events not an array', { url: 'https://example.com/x', events: 'transaction_paid' }],
  ])('refuses %s with 400', async (_name, body) => {
    expect((await call(gateway.baseUrl, 'POST', '/api/v1/webhook', { token: tokens.sandbox, body })).status).toBe(400);
  });
});

describe('webhook deliveries', () => {
  it('signs transaction and transfer events for subscribed webhooks; postbackUrl gets them unsigned', async () => {
    const receiver = await startReceiver();
    const own = await startGateway();
    try {
      const ownTokens = await tokensOf(own);
      const token = ownTokens.sandbox;
      const hook = await call(own.baseUrl, 'POST', '/api/v1/webhook', { token, body: { url: `${receiver.url}/hook`, events: ['transaction_created', 'transaction_paid', 'transfer_completed'] } });
      const secret = pickString(hook.body, 'data.signatureSecret');
      await call(own.baseUrl, 'POST', '/api/v1/webhook', { token, body: { url: `${receiver.url}/unsubscribed`, events: ['transfer_created'] } });
      await call(own.baseUrl, 'POST', '/api/v1/webhook', { token: ownTokens.other, body: { url: `${receiver.url}/other-account`, events: ['transaction_paid'] } });

      const created = await call(own.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token, body: chargeBody({ amountInCents: 2_000, postbackUrl: `${receiver.url}/postback` }) });
      const chargeId = pickString(created.body, 'data.id');
      await call(own.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${chargeId}/pay`, { token });
      const transfer = await call(own.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token, body: transferBody({ amount: 100 }), headers: { 'x-idempotency-key': randomUUID() } });
      const transferId = pickString(transfer.body, 'data.id');
      await call(own.baseUrl, 'POST', `/api/v1/pix/out/pixkey/${transferId}/complete`, { token });

      const signed = await receiver.waitFor(3, (c) => c.path === '/hook');
      const postbacks = await receiver.waitFor(2, (c) => c.path === '/postback');
      for (const delivery of [...signed, ...postbacks]) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['user-agent']).toBe('Gateway');
      }
      for (const delivery of signed) {
        const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['servicegateway-signature']));
        expect(match).not.toBeNull();
        const [, t, v1] = match as RegExpExecArray;
        expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(30);
        const expected = createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest();
        expect(timingSafeEqual(expected, Buffer.from(v1 as string, 'hex'))).toBe(true);
      }
      for (const delivery of postbacks) expect(delivery.headers['servicegateway-signature']).toBeUndefined();

      const events = signed.map((d) => JSON.parse(d.body) as Record<string, unknown>);
      const paid = events.find((e) => e.event === 'transaction_paid');
      expect(paid).toMatchObject({ type: 'transaction', scope: 'user', transaction: { id: chargeId, amount: 2_000, status: 'paid', pix: { payerInfo: { name: expect.any(String) } } } });
      expect(String(paid?.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(pickString(paid, 'transaction.pix.endToEndId')).toHaveLength(32);
      const completed = events.find((e) => e.event === 'transfer_completed');
      expect(completed).toMatchObject({ type: 'transfer', scope: 'user', transfer: { id: transferId, amount: 100, status: 'paid', pix: { creditorAccount: { name: expect.any(String) } } } });

      // nothing for the unsubscribed webhook beyond its own event, nothing for the other account
      expect(receiver.received.filter((c) => c.path === '/other-account')).toHaveLength(0);
      const unsubscribed = receiver.received.filter((c) => c.path === '/unsubscribed').map((c) => (JSON.parse(c.body) as { event: string }).event);
      expect(unsubscribed.every((event) => event === 'transfer_created')).toBe(true);
    } finally {
      await own.close();
      await receiver.close();
    }
  });

  it('retries a failed delivery on the configured schedule, then gives up', async () => {
    const own = await startGateway([], { delivery: { retryDelaysMs: [10, 20], timeoutMs: 500 } });
    try {
      const { sandbox } = await tokensOf(own);
      // port 9 (discard) on loopback: nothing listens, every attempt fails fast
      await call(own.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: sandbox, body: chargeBody({ postbackUrl: 'http://127.0.0.1:9/postback' }) });
      await eventually(() => own.app.deliveries.length === 3);
      expect(own.app.deliveries.map((d) => [d.event, d.status])).toEqual([
        ['transaction_created', 'error'], ['transaction_created', 'error'], ['transaction_created', 'error'],
      ]);
    } finally {
      await own.close();
    }
  });
});
