/**
 * Partner reference webhooks ("Events", "Authentication" rule 4): signed over the raw bytes,
 * created/paid/canceled events, redelivery with the same event id and doubling gaps, at most 8
 * attempts, per-call timeout, independent events, close() stopping redelivery.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerApp } from '../reference/partner/app.js';
import type { PartnerApp, PartnerOptions } from '../reference/partner/app.js';

const SECRET = 'whsec_webhook_test';

interface Delivery {
  raw: Buffer;
  signature: string;
  contentType: string;
  at: number;
  event: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** Decides the receiver's answer: a status, or 'hang' to never answer. */
type Answer = (event: Delivery['event'], attemptOfThisId: number) => number | 'hang';

/** An independent verifier: HMAC-SHA256(secret, `${t}.${raw}`) over the bytes as received, constant-time. */
function verifySignature(header: string, raw: Buffer, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = parts.t ?? '';
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), raw])).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startReceiver(answer: Answer) {
  const deliveries: Delivery[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const event = JSON.parse(raw.toString('utf8')) as Delivery['event'];
      const delivery: Delivery = {
        raw,
        signature: String(req.headers['x-service-signature'] ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        at: performance.now(),
        event,
      };
      deliveries.push(delivery);
      const status = answer(event, deliveries.filter((d) => d.event.id === event.id).length);
      if (status === 'hang') return;
      res.writeHead(status).end();
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/partner`,
    deliveries,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startPartner(webhookUrl: string, overrides: Partial<PartnerOptions> = {}) {
  const app: PartnerApp = createPartnerApp({
    faults: new Set<string>(),
    webhookUrl,
    webhookSecret: SECRET,
    retryBaseMs: 40,
    retryCapMs: 1000,
    deliveryTimeoutMs: 1000,
    expiryScale: 1,
    ...overrides,
  });
  const server = createServer((req, res) => void app.handler(req, res));
  const baseUrl = `http://127.0.0.1:${await listen(server)}/v1`;
  async function call(method: string, path: string, body?: unknown, key = app.credentials.apiKey) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return {
    app,
    call,
    close: async () => {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setUp(answer: Answer, overrides: Partial<PartnerOptions> = {}) {
  const receiver = await startReceiver(answer);
  cleanups.push(receiver.close);
  const partner = await startPartner(receiver.url, overrides);
  cleanups.push(partner.close);
  return { receiver, partner };
}

describe('partner reference: webhook events', () => {
  it('sends created, paid and canceled events signed over the raw bytes', async () => {
    const { receiver, partner } = await setUp(() => 200);
    const paid = await partner.call('POST', '/business/pix-charges', { amount_cents: 4200, external_ref: 'order-42' });
    const canceled = await partner.call('POST', '/business/pix-charges', { amount_cents: 100 });
    const pay = await partner.call('POST', `/business/pix-charges/${paid.body.id as string}/pay`);
    await partner.call('POST', `/business/pix-charges/${canceled.body.id as string}/cancel`);
    await waitFor(() => receiver.deliveries.length >= 4);

    for (const d of receiver.deliveries) {
      expect(verifySignature(d.signature, d.raw, SECRET)).toBe(true);
      expect(d.signature).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      expect(d.contentType).toContain('application/json');
      expect(d.event.id).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(d.event.created_at))).toBe(false);
    }
    const byType = (type: string) => receiver.deliveries.filter((d) => d.event.type === type).map((d) => d.event.data);
    expect(byType('business.pix.created')).toEqual(expect.arrayContaining([{ amount_cents: 4200, e2e_id: null, external_ref: 'order-42' }]));
    expect(byType('business.pix.paid')).toEqual([{ amount_cents: 4200, e2e_id: pay.body.e2e_id, external_ref: 'order-42' }]);
    expect(byType('business.pix.canceled')).toEqual([{ amount_cents: 100, e2e_id: null, external_ref: null }]);
  });

  it('sends nothing for production or another account (no URL registered for them)', async () => {
    const { receiver, partner } = await setUp(() => 200);
    const { liveApiKey, otherApiKey } = partner.app.credentials;
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1, external_ref: 'live' }, liveApiKey);
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1, external_ref: 'other' }, otherApiKey);
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1, external_ref: 'sandbox-a' });
    await waitFor(() => receiver.deliveries.length >= 1);
    expect(receiver.deliveries.map((d) => d.event.data.external_ref)).toEqual(['sandbox-a']);
  });
});

describe('partner reference: webhook redelivery', () => {
  it('redelivers the same event id after 500, 500 with a doubling gap, then stops at 200', async () => {
    const { receiver, partner } = await setUp((_event, attempt) => (attempt <= 2 ? 500 : 200), { retryBaseMs: 40 });
    await partner.call('POST', '/business/pix-charges', { amount_cents: 700 });
    await waitFor(() => receiver.deliveries.length >= 3);
    const [first, second, third] = receiver.deliveries as [Delivery, Delivery, Delivery];
    expect(new Set(receiver.deliveries.map((d) => d.event.id)).size).toBe(1);
    expect(second.raw.equals(first.raw) && third.raw.equals(first.raw)).toBe(true);
    for (const d of receiver.deliveries) expect(verifySignature(d.signature, d.raw, SECRET)).toBe(true);
    const gap1 = second.at - first.at;
    const gap2 = third.at - second.at;
    // a gap is never shorter than the delay scheduled (the next attempt follows the failed answer,
    // which follows the delivery): 40 then 80 ms, 2 ms of timer rounding; load only lengthens gaps,
    // so no ratio between the two observed gaps is asserted
    expect(gap1).toBeGreaterThanOrEqual(38);
    expect(gap2).toBeGreaterThanOrEqual(78);
  });

  it('makes at most 8 attempts per event', async () => {
    const { receiver, partner } = await setUp(() => 500, { retryBaseMs: 2, retryCapMs: 10 });
    await partner.call('POST', '/business/pix-charges', { amount_cents: 700 });
    await waitFor(() => receiver.deliveries.length >= 8);
    // beyond the longest gap (10 ms cap) several times over: a 9th attempt would have arrived
    const eighthAt = receiver.deliveries[7]?.at ?? 0;
    await waitFor(() => performance.now() - eighthAt > 150);
    expect(receiver.deliveries).toHaveLength(8);
  });

  it('treats a call that exceeds the delivery timeout as failed and retries it', async () => {
    const { receiver, partner } = await setUp((_event, attempt) => (attempt === 1 ? 'hang' : 200), {
      retryBaseMs: 10,
      deliveryTimeoutMs: 100,
    });
    await partner.call('POST', '/business/pix-charges', { amount_cents: 700 });
    await waitFor(() => receiver.deliveries.length >= 2);
    const [first, second] = receiver.deliveries as [Delivery, Delivery];
    expect(second.event.id).toBe(first.event.id);
    expect(second.at - first.at).toBeGreaterThanOrEqual(90); // timeout (100) + gap (10), minus send latency
  });

  it('one failing event does not delay another', async () => {
    const { receiver, partner } = await setUp((event) => (event.data.external_ref === 'broken' ? 500 : 200), { retryBaseMs: 5_000 });
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1, external_ref: 'broken' });
    await waitFor(() => receiver.deliveries.length >= 1);
    const started = performance.now();
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1, external_ref: 'fine' });
    await waitFor(() => receiver.deliveries.some((d) => d.event.data.external_ref === 'fine'));
    // queued behind the failing event it would wait out its 5 s redelivery gap; the margin is for load
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('close() stops pending redeliveries', async () => {
    const { receiver, partner } = await setUp(() => 500, { retryBaseMs: 30 });
    await partner.call('POST', '/business/pix-charges', { amount_cents: 1 });
    await waitFor(() => receiver.deliveries.length >= 1);
    await partner.close();
    const closedAt = performance.now();
    await waitFor(() => performance.now() - closedAt > 120);
    expect(receiver.deliveries.length).toBeLessThanOrEqual(2);
  });
});
