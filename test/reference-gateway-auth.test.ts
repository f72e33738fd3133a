// The reference gateway: authentication, environments, isolation and error shapes (gateway-api.md
// "Authentication", "Errors").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, chargeBody, eventually, login, pick, startGateway, tokensOf, type RunningGateway } from './reference-gateway-client.js';

let gateway: RunningGateway;
let tokens: { sandbox: string; production: string; other: string };

beforeAll(async () => {
  gateway = await startGateway();
  tokens = await tokensOf(gateway);
});
afterAll(() => gateway.close());

describe('POST /api/auth', () => {
  it('exchanges the Basic pair for a JWT-shaped Bearer token with expiresIn in ms', async () => {
    const c = gateway.app.credentials;
    const reply = await call(gateway.baseUrl, 'POST', '/api/auth', {
      headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, tokenType: 'Bearer', expiresIn: 60_000 });
    const parts = String(reply.body.token).split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString())).toMatchObject({ alg: 'HS256', typ: 'JWT' });
  });

  it('answers 401 for a wrong secret, an unknown id and a missing header', async () => {
    const c = gateway.app.credentials;
    const basic = (pair: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(pair).toString('base64')}` });
    for (const headers of [basic(`${c.clientId}:wrong`), basic(`nobody:${c.clientSecret}`), {}]) {
      const reply = await call(gateway.baseUrl, 'POST', '/api/auth', { headers });
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ success: false });
      expect(typeof reply.body.message).toBe('string');
    }
  });

  it('refuses a body (decision: "No body is accepted" → 400)', async () => {
    const c = gateway.app.credentials;
    const reply = await call(gateway.baseUrl, 'POST', '/api/auth', {
      headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` },
      body: { grant_type: 'client_credentials' },
    });
    expect(reply.status).toBe(400);
  });
});

describe('Bearer tokens', () => {
  it('answers 401 {success:false,message} for a missing, garbage or tampered token', async () => {
    const tampered = `${tokens.sandbox.slice(0, -2)}xx`;
    for (const token of [undefined, 'garbage', 'a.b.c', tampered]) {
      const reply = await call(gateway.baseUrl, 'GET', '/api/v1/balance', { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ success: false });
    }
  });

  it('expires after expiresIn milliseconds', async () => {
    const shortLived = await startGateway([], { tokenTtlMs: 150 });
    try {
      const c = shortLived.app.credentials;
      const token = await login(shortLived.baseUrl, c.clientId, c.clientSecret);
      expect((await call(shortLived.baseUrl, 'GET', '/api/v1/balance', { token })).status).toBe(200);
      await eventually(async () => (await call(shortLived.baseUrl, 'GET', '/api/v1/balance', { token })).status === 401, 2_000);
    } finally {
      await shortLived.close();
    }
  });
});

describe('environments and accounts are isolated', () => {
  it('hides a sandbox charge from production and from another account (404 NOT_FOUND)', async () => {
    const created = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, body: chargeBody() });
    expect(created.status).toBe(200);
    const id = String(pick(created.body, 'data.id'));
    for (const token of [tokens.production, tokens.other]) {
      for (const path of [`/api/v1/pix/in/qrcode/${id}`, `/api/v1/transactions/${id}`]) {
        const reply = await call(gateway.baseUrl, 'GET', path, { token });
        expect(reply.status).toBe(404);
        expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
      }
    }
    expect((await call(gateway.baseUrl, 'GET', `/api/v1/pix/in/qrcode/${id}`, { token: tokens.sandbox })).status).toBe(200);
  });

  it('answers 403 to simulation routes with production credentials', async () => {
    const created = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.production, body: chargeBody() });
    expect(created.status).toBe(200);
    const id = String(pick(created.body, 'data.id'));
    const pay = await call(gateway.baseUrl, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: tokens.production });
    expect(pay.status).toBe(403);
    const complete = await call(gateway.baseUrl, 'POST', '/api/v1/pix/out/pixkey/whatever/complete', { token: tokens.production });
    expect(complete.status).toBe(403);
  });

  it('keeps balances and webhooks per account and environment', async () => {
    const webhook = await call(gateway.baseUrl, 'POST', '/api/v1/webhook', { token: tokens.sandbox, body: { url: 'http://127.0.0.1:9/hook', events: ['transaction_paid'] } });
    expect(webhook.status).toBe(200);
    const listedInProduction = await call(gateway.baseUrl, 'GET', '/api/v1/webhook', { token: tokens.production });
    expect(listedInProduction.body.data).toEqual([]);
    const deleteFromOther = await call(gateway.baseUrl, 'DELETE', `/api/v1/webhook/${String(pick(webhook.body, 'data.id'))}`, { token: tokens.other });
    expect(deleteFromOther.status).toBe(404);
  });
});

describe('error shapes', () => {
  it('answers 400 (never 5xx) to malformed JSON, wrong content type and non-object bodies', async () => {
    const cases: { rawBody: string; contentType: string }[] = [
      { rawBody: '{"amountInCents":', contentType: 'application/json' },
      { rawBody: 'amountInCents=100', contentType: 'application/x-www-form-urlencoded' },
      { rawBody: '[1,2]', contentType: 'application/json' },
      { rawBody: '', contentType: 'application/json' },
    ];
    for (const { rawBody, contentType } of cases) {
      const reply = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode', { token: tokens.sandbox, rawBody, headers: { 'content-type': contentType } });
      expect(reply.status, rawBody).toBe(400);
      expect(reply.body).toMatchObject({ success: false });
    }
  });

  it('answers 404 {error: NOT_FOUND} for unknown ids and routes', async () => {
    for (const path of ['/api/v1/pix/in/qrcode/nope', '/api/v1/pix/out/pixkey/nope', '/api/v1/transactions/nope', '/api/v1/plans']) {
      const reply = await call(gateway.baseUrl, 'GET', path, { token: tokens.sandbox });
      expect(reply.status, path).toBe(404);
      expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
    }
    const pay = await call(gateway.baseUrl, 'POST', '/api/v1/pix/in/qrcode/nope/pay', { token: tokens.sandbox });
    expect(pay.status).toBe(404);
    expect(pay.body).toMatchObject({ error: 'NOT_FOUND' });
  });
});
