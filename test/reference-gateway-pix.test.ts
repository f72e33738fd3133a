// The reference gateway: PIX charges (creation, BR Code, QR image, pay), PIX transfers
// (idempotency, complete) and the balance (gateway-api.md "POST /api/v1/pix/in/qrcode" … "Balance").
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, chargeBody, decodeQrPng, pick, pickString, startGateway, tokensOf, transferBody, VALID_CNPJ, type RunningGateway } from './reference-gateway-client.js';

let gateway: RunningGateway;
let tokens: { sandbox: string; production: string; other: string };

beforeAll(async () => {
  gateway = await startGateway();
  tokens = await tokensOf(gateway);
});
afterAll(() => gateway.close());

/** Top-level EMV TLV fields of a BR Code, parsed independently of the reference. */
function emvFields(emv: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < emv.length) {
    const id = emv.slice(at, at + 2);
    const length = Number(emv.slice(at + 2, at + 4));
    fields.set(id, emv.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

async function createCharge(token: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token, body: chargeBody(overrides) });
  expect(reply.status, reply.text).toBe(200);
  return pickString(reply.body, 'data.id');
}

async function pixBalance(token: string): Promise<string> {
  const reply = await call(gateway.baseUrl, 'GET', '/api/v1/balance', { token });
  return pickString(reply.body, 'data.pix.balance');
}

/** Tops up the sandbox balance of `token`'s account with a paid charge; returns the credit in cents. */
async function fund(token: string, amountInCents: number): Promise<number> {
  const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token, body: chargeBody({ amountInCents }) });
  const id = pickString(reply.body, 'data.id');
  expect((await call(gateway.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token })).status).toBe(200);
  return amountInCents - Number(pick(reply.body, 'data.fees'));
}

describe('PIX charge creation', () => {
  it('creates a pending charge with a dynamic BR Code for the amount and a PNG QR of exactly the emv', async () => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, body: chargeBody({ amountInCents: 12345, description: 'Pedido 1' }) });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, data: { status: 'pending' } });
    expect(typeof reply.body.message).toBe('string');
    expect(Number.isInteger(pick(reply.body, 'data.fees'))).toBe(true);
    const emv = pickString(reply.body, 'data.pix.emv');
    expect(isValidPixPayload(emv)).toBe(true);
    const fields = emvFields(emv);
    expect(fields.get('01')).toBe('12');
    expect(fields.get('54')).toBe('123.45');
    const qrCode = pickString(reply.body, 'data.pix.qrCode');
    expect(qrCode.startsWith('data:')).toBe(false);
    expect(decodeQrPng(qrCode)).toBe(emv);
  });

  it.each([
    ['amountInCents 99', { amountInCents: 99 }, 'amountInCents'],
    ['amountInCents 100.5', { amountInCents: 100.5 }, 'amountInCents'],
    ['amountInCents "1000"', { amountInCents: '1000' }, 'amountInCents'],
    ['no customer', { customer: undefined }, 'customer'],
    ['documentType rg', { customer: { documentType: 'rg', document: '52998224725' } }, 'customer.documentType'],
    ['CPF bad check digit', { customer: { documentType: 'cpf', document: '52998224726' } }, 'customer.document'],
    ['CPF all same digit', { customer: { documentType: 'cpf', document: '11111111111' } }, 'customer.document'],
    ['CPF with punctuation', { customer: { documentType: 'cpf', document: '529.982.247-25' } }, 'customer.document'],
    ['CNPJ as cpf', { customer: { documentType: 'cpf', document: VALID_CNPJ } }, 'customer.document'],
    ['description 141', { description: 'x'.repeat(141) }, 'description'],
    ['postbackUrl not a URI', { postbackUrl: 'not a url' }, 'postbackUrl'],
    ['item without title', { items: [{ tangible: true, quantity: 1, amountInCents: 100 }] }, 'items[0].title'],
    ['item tangible "yes"', { items: [{ title: 'a', tangible: 'yes', quantity: 1, amountInCents: 100 }] }, 'items[0].tangible'],
    ['split to unknown company', { splits: [{ email: 'nobody@example.com', percentage: 10 }] }, 'splits[0].email'],
    ['split percentage 0', { splits: [{ email: 'repasse@parceiro-split.example', percentage: 0 }] }, 'splits[0].percentage'],
    ['split sum 100.01', { splits: [{ email: 'repasse@parceiro-split.example', percentage: 50 }, { email: 'financeiro@loja-b.example', percentage: 50.01 }] }, 'splits'],
    ['tracking utm_source number', { trackingParameters: { utm_source: 5 } }, 'trackingParameters.utm_source'],
  ])('refuses %s with 400 naming the field', async (_name, overrides, field) => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, body: chargeBody(overrides) });
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(String(reply.body.message).startsWith(`${field}:`)).toBe(true);
  });

  it.each([
    ['amountInCents 100', { amountInCents: 100 }],
    ['description of 140', { description: 'x'.repeat(140) }],
    ['numeric CNPJ', { customer: { documentType: 'cnpj', document: VALID_CNPJ } }],
    ['alphanumeric CNPJ', { customer: { documentType: 'cnpj', document: '12ABC34501DE35' } }],
    ['items, tracking and splits summing to 100', {
      items: [{ title: 'Camisa', tangible: true, quantity: 2, amountInCents: 500, shippingAddress: { city: 'Recife' } }],
      trackingParameters: { utm_source: 'ads', src: 'x' },
      splits: [{ email: 'repasse@parceiro-split.example', percentage: 33.33 }, { email: 'financeiro@loja-b.example', percentage: 66.67 }],
      postbackUrl: 'https://example.com/postback?utm_campaign=c1',
    }],
  ])('accepts %s', async (_name, overrides) => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, body: chargeBody(overrides) });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('PIX charge pay (sandbox)', () => {
  it('pays once: 200 with an end-to-end id, then 400; credits amount minus fees', async () => {
    const before = await pixBalance(tokens.sandbox);
    const created = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, body: chargeBody({ amountInCents: 10_000 }) });
    const id = pickString(created.body, 'data.id');
    const fees = Number(pick(created.body, 'data.fees'));
    const pay = await call(gateway.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: tokens.sandbox });
    expect(pay.status).toBe(200);
    expect(pay.body).toMatchObject({ success: true, data: { id, status: 'paid' } });
    expect(pickString(pay.body, 'data.endToEndId')).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect((await call(gateway.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: tokens.sandbox })).status).toBe(400);
    const lookup = await call(gateway.baseUrl, 'GET', `/api/v1/pix/in/qrcode/${id}`, { token: tokens.sandbox });
    expect(lookup.body).toMatchObject({ success: true, data: { id, status: 'paid' } });
    const after = await pixBalance(tokens.sandbox);
    expect(Math.round(Number(after) * 100) - Math.round(Number(before) * 100)).toBe(10_000 - fees);
    const transaction = await call(gateway.baseUrl, 'GET', `/api/v1/transactions/${id}`, { token: tokens.sandbox });
    expect(transaction.body).toMatchObject({ success: true, data: { id, method: 'pix', status: 'paid' } });
  });

  it('applies 20 concurrent pays exactly once', async () => {
    const id = await createCharge(tokens.other, { amountInCents: 1_000 });
    const before = await pixBalance(tokens.other);
    const replies = await Promise.all(Array.from({ length: 20 }, () => call(gateway.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: tokens.other })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400)).toHaveLength(19);
    const credited = Math.round(Number(await pixBalance(tokens.other)) * 100) - Math.round(Number(before) * 100);
    expect(credited).toBe(1_000 - Math.ceil(1_000 * 0.0099));
  });
});

describe('PIX transfers', () => {
  it('requires x-idempotency-key', async () => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody() });
    expect(reply.status).toBe(400);
  });

  it('replays the original response for the same key and body, 409 IDEMPOTENCY_CONFLICT for another body', async () => {
    const headers = { 'x-idempotency-key': randomUUID() };
    const first = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody(), headers });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, data: { status: 'banking_processing', amount: 500, pixKey: 'recebedor@example.com' } });
    const data = first.body.data as Record<string, number>;
    expect(data.netAmount).toBe((data.amount ?? 0) - (data.fees ?? 0));
    const replay = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: { amount: 500, pixKey: 'recebedor@example.com' }, headers });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    const conflict = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody({ amount: 501 }), headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT' });
    // the same key in another account is another operation
    const otherAccount = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.other, body: transferBody({ amount: 501 }), headers });
    expect(otherAccount.status).toBe(200);
  });

  it('creates exactly one transfer for 20 concurrent requests with one key', async () => {
    const headers = { 'x-idempotency-key': randomUUID() };
    const replies = await Promise.all(Array.from({ length: 20 }, () => call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody({ amount: 77 }), headers })));
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((r) => pick(r.body, 'data.id'))).size).toBe(1);
  });

  it.each([
    ['CPF', '52998224725'], ['CNPJ', VALID_CNPJ], ['e-mail', 'a.b+c@example.com.br'], ['mobile', '+5511987654321'], ['landline', '+551133334444'], ['random key', randomUUID()],
  ])('accepts a %s key', async (_kind, pixKey) => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody({ pixKey }), headers: { 'x-idempotency-key': randomUUID() } });
    expect(reply.status, reply.text).toBe(200);
  });

  it.each([
    ['pixKey CPF bad digit', { pixKey: '52998224726' }, 'pixKey'],
    ['pixKey phone without +55', { pixKey: '1198765432' }, 'pixKey'],
    ['pixKey +1 phone', { pixKey: '+12025550123' }, 'pixKey'],
    ['pixKey malformed e-mail', { pixKey: 'a@b' }, 'pixKey'],
    ['amount 0', { amount: 0 }, 'amount'],
    ['amount 1.5', { amount: 1.5 }, 'amount'],
    ['currency USD', { currency: 'USD' }, 'currency'],
    ['description 141', { description: 'y'.repeat(141) }, 'description'],
    ['postbackUrl ftp', { postbackUrl: 'ftp://example.com/x' }, 'postbackUrl'],
  ])('refuses %s with 400', async (_name, overrides, field) => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token: tokens.sandbox, body: transferBody(overrides), headers: { 'x-idempotency-key': randomUUID() } });
    expect(reply.status).toBe(400);
    expect(String(reply.body.message).startsWith(`${field}:`)).toBe(true);
  });

  it('completes only when the balance covers the amount, once, debiting it once', async () => {
    const token = tokens.other;
    const start = Math.round(Number(await pixBalance(token)) * 100);
    const tooBig = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token, body: transferBody({ amount: start + 5_000 }), headers: { 'x-idempotency-key': randomUUID() } });
    const tooBigId = pickString(tooBig.body, 'data.id');
    expect((await call(gateway.baseUrl, 'POST', `/api/v1/pix/out/pixkey/${tooBigId}/complete`, { token })).status).toBe(400);

    await fund(token, 5_000);
    const funded = Math.round(Number(await pixBalance(token)) * 100);
    const created = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey', { token, body: transferBody({ amount: 1_234, pixKey: '52998224725' }), headers: { 'x-idempotency-key': randomUUID() } });
    const id = pickString(created.body, 'data.id');
    const before = await call(gateway.baseUrl, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token });
    expect(pick(before.body, 'data.endToEndId')).toBeUndefined();
    const replies = await Promise.all(Array.from({ length: 20 }, () => call(gateway.baseUrl, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400)).toHaveLength(19);
    expect(Math.round(Number(await pixBalance(token)) * 100)).toBe(funded - 1_234);
    const lookup = await call(gateway.baseUrl, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token });
    expect(lookup.body).toMatchObject({ success: true, data: { id, status: 'completed', amount: 1_234 } });
    expect(pickString(lookup.body, 'data.endToEndId')).toHaveLength(32);
    for (const field of ['createdAt', 'updatedAt', 'processedAt']) {
      expect(new Date(pickString(lookup.body, `data.${field}`)).toISOString()).toBe(pick(lookup.body, `data.${field}`));
    }
  });

  it('answers 404 NOT_FOUND to completing an unknown transfer', async () => {
    const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey/unknown/complete', { token: tokens.sandbox });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describe('balance', () => {
  it('renders strings in reais with exactly 2 decimals', async () => {
    const reply = await call(gateway.baseUrl, 'GET', '/api/v1/balance', { token: tokens.production });
    expect(reply.body).toEqual({ success: true, data: { pix: { balance: '0.00' }, pixBlocked: { balance: '0.00' }, reserve: { balance: '0.00' } } });
    for (const path of ['data.pix.balance', 'data.pixBlocked.balance', 'data.reserve.balance']) {
      expect(pickString((await call(gateway.baseUrl, 'GET', '/api/v1/balance', { token: tokens.sandbox })).body, path)).toMatch(/^-?\d+\.\d{2}$/);
    }
  });
});
