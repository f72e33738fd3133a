/**
 * The partner reference (reference/partner/) against partner-cashin-api.md, over real HTTP on
 * 127.0.0.1: auth and isolation, validation on both sides of each limit, idempotency, atomic
 * transitions, lazy expiry, list and finance.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerApp } from '../reference/partner/app.js';
import type { PartnerOptions } from '../reference/partner/app.js';

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

async function startPartner(overrides: Partial<PartnerOptions> = {}) {
  const app = createPartnerApp({
    faults: new Set<string>(),
    webhookSecret: 'whsec_api_test',
    retryBaseMs: 20,
    retryCapMs: 200,
    deliveryTimeoutMs: 500,
    expiryScale: 1,
    ...overrides,
  });
  const server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const key = options.key === undefined ? app.credentials.apiKey : options.key;
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function close(): Promise<void> {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return { app, baseUrl, call, close };
}

type Partner = Awaited<ReturnType<typeof startPartner>>;

function createCharge(partner: Partner, body: Record<string, unknown> = { amount_cents: 1000 }, options: CallOptions = {}) {
  return partner.call('POST', '/business/pix-charges', { ...options, body });
}

async function chargeId(partner: Partner, body?: Record<string, unknown>, options?: CallOptions): Promise<string> {
  const reply = await createCharge(partner, body, options);
  expect(reply.status).toBe(200);
  return reply.body.id as string;
}

function listData(reply: Reply): Array<Record<string, unknown>> {
  return reply.body.data as Array<Record<string, unknown>>;
}

/** Reads one top-level EMV field (id + 2-digit length + value) of a BR Code. */
function emvField(payload: string, wanted: string): string | undefined {
  for (let i = 0; i + 4 <= payload.length; ) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    const value = payload.slice(i + 4, i + 4 + length);
    if (id === wanted) return value;
    i += 4 + length;
  }
  return undefined;
}

async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('partner reference: authentication and isolation', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  it('issues one live and two sandbox keys of the documented prefixes', () => {
    const { apiKey, liveApiKey, otherApiKey } = partner.app.credentials;
    expect(apiKey).toMatch(/^ak_test_[0-9a-f]{24}$/);
    expect(liveApiKey).toMatch(/^ak_live_[0-9a-f]{24}$/);
    expect(otherApiKey).toMatch(/^ak_test_[0-9a-f]{24}$/);
    expect(otherApiKey).not.toBe(apiKey);
  });

  it('answers 401 {detail} without a key, with an unknown key and with a non-Bearer scheme', async () => {
    for (const reply of [
      await partner.call('GET', '/business/pix-charges', { key: null }),
      await partner.call('GET', '/business/pix-charges', { key: 'ak_test_000000000000000000000000' }),
      await partner.call('GET', '/business/finance', { key: null, headers: { authorization: `Basic ${partner.app.credentials.apiKey}` } }),
    ]) {
      expect(reply.status).toBe(401);
      expect(typeof reply.body.detail).toBe('string');
    }
  });

  it('keeps sandbox, production and other accounts apart (404 on lookup, absent from lists)', async () => {
    const { liveApiKey, otherApiKey } = partner.app.credentials;
    const testId = await chargeId(partner);
    const liveId = await chargeId(partner, { amount_cents: 500 }, { key: liveApiKey });
    expect((await partner.call('GET', `/business/pix-charges/${liveId}`)).status).toBe(404);
    expect((await partner.call('GET', `/business/pix-charges/${testId}`, { key: liveApiKey })).status).toBe(404);
    const other = await partner.call('GET', `/business/pix-charges/${testId}`, { key: otherApiKey });
    expect(other.status).toBe(404);
    expect(typeof other.body.detail).toBe('string');
    expect((await partner.call('POST', `/business/pix-charges/${testId}/cancel`, { key: otherApiKey })).status).toBe(404);
    expect((await partner.call('POST', `/business/pix-charges/${testId}/pay`, { key: otherApiKey })).status).toBe(404);
    const otherList = listData(await partner.call('GET', '/business/pix-charges', { key: otherApiKey }));
    expect(otherList.map((c) => c.id)).not.toContain(testId);
    const liveList = listData(await partner.call('GET', '/business/pix-charges', { key: liveApiKey }));
    expect(liveList.map((c) => c.id)).toEqual([liveId]);
  });

  it('answers 403 to the pay simulation in production and 404 to unknown routes', async () => {
    const { liveApiKey } = partner.app.credentials;
    const liveId = await chargeId(partner, { amount_cents: 700 }, { key: liveApiKey });
    const pay = await partner.call('POST', `/business/pix-charges/${liveId}/pay`, { key: liveApiKey });
    expect(pay.status).toBe(403);
    expect(typeof pay.body.detail).toBe('string');
    expect((await partner.call('POST', '/business/payouts', { body: {} })).status).toBe(404);
    expect((await partner.call('GET', '/business/pix-charges/pix_unknown')).status).toBe(404);
  });
});

describe('partner reference: creating a charge', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  it('returns a pending charge with a valid dynamic BR Code for the amount', async () => {
    const reply = await createCharge(partner, { amount_cents: 12345, description: 'Pedido 1', external_ref: ' ref-1 ', customer_email: 'a@b.test' });
    expect(reply.status).toBe(200);
    const charge = reply.body;
    expect(charge).toMatchObject({ status: 'pending', amount_cents: 12345, description: 'Pedido 1', external_ref: ' ref-1 ', customer_email: 'a@b.test', e2e_id: null });
    expect(charge.id).toEqual(expect.any(String));
    expect(charge.provider).toEqual(expect.any(String));
    const qrCode = charge.qr_code as string;
    expect(isValidPixPayload(qrCode)).toBe(true);
    expect(emvField(qrCode, '54')).toBe('123.45');
    expect(emvField(qrCode, '01')).toBe('12');
    expect(charge.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(charge.expires_at as string) - Date.parse(charge.created_at as string)).toBe(3_600_000);
    const lookup = await partner.call('GET', `/business/pix-charges/${charge.id as string}`);
    expect(lookup.body).toEqual(charge);
  });

  it('applies expires_in_seconds to expires_at', async () => {
    const { body } = await createCharge(partner, { amount_cents: 1, expires_in_seconds: 60 });
    expect(Date.parse(body.expires_at as string) - Date.parse(body.created_at as string)).toBe(60_000);
  });

  const limits: Array<[string, Record<string, unknown>, number, string | undefined]> = [
    ['amount 1', { amount_cents: 1 }, 200, undefined],
    ['amount 0', { amount_cents: 0 }, 422, 'amount_cents'],
    ['amount -5', { amount_cents: -5 }, 422, 'amount_cents'],
    ['amount 1.5', { amount_cents: 1.5 }, 422, 'amount_cents'],
    ['amount as a string', { amount_cents: '100' }, 422, 'amount_cents'],
    ['amount missing', { description: 'x' }, 422, 'amount_cents'],
    ['description 300', { amount_cents: 100, description: 'd'.repeat(300) }, 200, undefined],
    ['description 301', { amount_cents: 100, description: 'd'.repeat(301) }, 422, 'description'],
    ['description not a string', { amount_cents: 100, description: 7 }, 422, 'description'],
    ['external_ref 120', { amount_cents: 100, external_ref: 'r'.repeat(120) }, 200, undefined],
    ['external_ref 121', { amount_cents: 100, external_ref: 'r'.repeat(121) }, 422, 'external_ref'],
    ['customer_email any string', { amount_cents: 100, customer_email: 'not-an-email' }, 200, undefined],
    ['customer_email a number', { amount_cents: 100, customer_email: 5 }, 422, 'customer_email'],
    ['expires 60', { amount_cents: 100, expires_in_seconds: 60 }, 200, undefined],
    ['expires 59', { amount_cents: 100, expires_in_seconds: 59 }, 422, 'expires_in_seconds'],
    ['expires 86400', { amount_cents: 100, expires_in_seconds: 86_400 }, 200, undefined],
    ['expires 86401', { amount_cents: 100, expires_in_seconds: 86_401 }, 422, 'expires_in_seconds'],
    ['expires 90.5', { amount_cents: 100, expires_in_seconds: 90.5 }, 422, 'expires_in_seconds'],
  ];
  it.each(limits)('%s → %i', async (_name, body, status, field) => {
    const reply = await createCharge(partner, body);
    expect(reply.status).toBe(status);
    // "422 | invalid request body; detail points to the field"
    if (field !== undefined) expect(reply.body.detail).toEqual(expect.stringContaining(field));
  });

  it('answers 422, never 5xx, to malformed JSON and to non-object bodies', async () => {
    for (const rawBody of ['{"amount_cents": ', '', '[1,2]', '"text"', 'null']) {
      const reply = await partner.call('POST', '/business/pix-charges', { rawBody, headers: { 'content-type': 'application/json' } });
      expect(reply.status, rawBody).toBe(422);
      expect(reply.body.detail).toEqual(expect.stringContaining('body'));
    }
  });
});

describe('partner reference: Idempotency-Key', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  async function count(): Promise<number> {
    return listData(await partner.call('GET', '/business/pix-charges')).length;
  }

  it('replays the original response for the same key and body, also with keys reordered', async () => {
    const headers = { 'idempotency-key': 'idem-replay' };
    const first = await createCharge(partner, { amount_cents: 300, external_ref: 'o-1' }, { headers });
    const before = await count();
    const again = await createCharge(partner, { amount_cents: 300, external_ref: 'o-1' }, { headers });
    const reordered = await partner.call('POST', '/business/pix-charges', { rawBody: '{ "external_ref": "o-1", "amount_cents": 300 }', headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(reordered.body).toEqual(first.body);
    expect(await count()).toBe(before);
  });

  it('answers 409 for the same key with a different body', async () => {
    const headers = { 'idempotency-key': 'idem-conflict' };
    expect((await createCharge(partner, { amount_cents: 300 }, { headers })).status).toBe(200);
    const conflict = await createCharge(partner, { amount_cents: 301 }, { headers });
    expect(conflict.status).toBe(409);
    expect(typeof conflict.body.detail).toBe('string');
  });

  it('scopes keys per account: another account with the same key gets its own charge', async () => {
    const headers = { 'idempotency-key': 'idem-shared-name' };
    const mine = await createCharge(partner, { amount_cents: 300 }, { headers });
    const theirs = await createCharge(partner, { amount_cents: 300 }, { headers, key: partner.app.credentials.otherApiKey });
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('creates a new charge on every call without a key, even with the same external_ref', async () => {
    const a = await createCharge(partner, { amount_cents: 300, external_ref: 'same-ref' });
    const b = await createCharge(partner, { amount_cents: 300, external_ref: 'same-ref' });
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('creates one charge for 20 concurrent requests with one key', async () => {
    const before = await count();
    const headers = { 'idempotency-key': 'idem-concurrent' };
    const replies = await Promise.all(Array.from({ length: 20 }, () => createCharge(partner, { amount_cents: 999 }, { headers })));
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(await count()).toBe(before + 1);
  });
});

describe('partner reference: transitions', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  it('pays a pending charge once: e2e_id appears, paid is terminal', async () => {
    const id = await chargeId(partner, { amount_cents: 2500 });
    const pay = await partner.call('POST', `/business/pix-charges/${id}/pay`);
    expect(pay.status).toBe(200);
    expect(pay.body.status).toBe('paid');
    expect(pay.body.e2e_id).toMatch(/^E\d{8}\d{12}[0-9a-zA-Z]{11}$/);
    expect((await partner.call('POST', `/business/pix-charges/${id}/pay`)).status).toBe(409);
    expect((await partner.call('POST', `/business/pix-charges/${id}/cancel`)).status).toBe(409);
    expect((await partner.call('GET', `/business/pix-charges/${id}`)).body.status).toBe('paid');
  });

  it('cancels a pending charge; cancel or pay of a canceled one is 409', async () => {
    const id = await chargeId(partner);
    const cancel = await partner.call('POST', `/business/pix-charges/${id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('canceled');
    expect((await partner.call('POST', `/business/pix-charges/${id}/cancel`)).status).toBe(409);
    expect((await partner.call('POST', `/business/pix-charges/${id}/pay`)).status).toBe(409);
  });

  it('20 concurrent pays: one success, one capture in the ledger', async () => {
    const id = await chargeId(partner, { amount_cents: 10_000 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => partner.call('POST', `/business/pix-charges/${id}/pay`)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
    const finance = await partner.call('GET', '/business/finance');
    const captures = (finance.body.transactions as Array<{ description: string }>).filter((t) => t.description.includes(id));
    expect(captures).toHaveLength(1);
  });

  it('concurrent pay and cancel: exactly one wins, and the state matches the winner', async () => {
    for (let round = 0; round < 10; round++) {
      const id = await chargeId(partner);
      const [pay, cancel] = await Promise.all([
        partner.call('POST', `/business/pix-charges/${id}/pay`),
        partner.call('POST', `/business/pix-charges/${id}/cancel`),
      ]);
      expect([pay.status, cancel.status].sort()).toEqual([200, 409]);
      const state = (await partner.call('GET', `/business/pix-charges/${id}`)).body.status;
      expect(state).toBe(pay.status === 200 ? 'paid' : 'canceled');
    }
  });
});

describe('partner reference: lazy expiry', () => {
  let partner: Partner;
  // 60 s × 0.001 = 60 ms
  beforeAll(async () => (partner = await startPartner({ expiryScale: 0.001 })));
  afterAll(() => partner.close());

  it('a lookup after expires_at shows expired; pay and cancel then answer 409', async () => {
    const id = await chargeId(partner, { amount_cents: 100, expires_in_seconds: 60 });
    const lookup = await pollUntil(() => partner.call('GET', `/business/pix-charges/${id}`), (r) => r.body.status !== 'pending');
    expect(lookup.body.status).toBe('expired');
    expect((await partner.call('POST', `/business/pix-charges/${id}/pay`)).status).toBe(409);
    expect((await partner.call('POST', `/business/pix-charges/${id}/cancel`)).status).toBe(409);
  });

  it('a pay attempt after expires_at expires the charge without any lookup first', async () => {
    const created = await createCharge(partner, { amount_cents: 100, expires_in_seconds: 60 });
    const expiresAt = Date.parse(created.body.expires_at as string);
    await pollUntil(async () => Date.now(), (now) => now > expiresAt + 5);
    expect((await partner.call('POST', `/business/pix-charges/${created.body.id as string}/pay`)).status).toBe(409);
    const list = listData(await partner.call('GET', '/business/pix-charges?status=expired'));
    expect(list.map((c) => c.id)).toContain(created.body.id);
  });
});

describe('partner reference: list', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  it('lists newest first, filters by status, rejects an unknown status with 422', async () => {
    const ids = [await chargeId(partner), await chargeId(partner), await chargeId(partner)];
    await partner.call('POST', `/business/pix-charges/${ids[1] as string}/pay`);
    expect(listData(await partner.call('GET', '/business/pix-charges')).map((c) => c.id)).toEqual([...ids].reverse());
    expect(listData(await partner.call('GET', '/business/pix-charges?status=paid')).map((c) => c.id)).toEqual([ids[1]]);
    expect(listData(await partner.call('GET', '/business/pix-charges?status=pending')).map((c) => c.id)).toEqual([ids[2], ids[0]]);
    const bad = await partner.call('GET', '/business/pix-charges?status=done');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(expect.stringContaining('status'));
  });

  it('returns at most 200 records, the newest', async () => {
    let last = '';
    for (let i = 0; i < 205; i++) last = await chargeId(partner, { amount_cents: i + 1 });
    const list = listData(await partner.call('GET', '/business/pix-charges'));
    expect(list).toHaveLength(200);
    expect(list[0]?.id).toBe(last);
  });
});

describe('partner reference: finance', () => {
  let partner: Partner;
  beforeAll(async () => (partner = await startPartner()));
  afterAll(() => partner.close());

  it('posts a balanced capture and raises available_cents by the credited net', async () => {
    const before = await partner.call('GET', '/business/finance');
    expect(before.body).toMatchObject({ currency: 'BRL', available_cents: 0, reserve_cents: 0, transactions: [] });
    expect(before.body.merchant_id).toEqual(expect.any(String));
    const id = await chargeId(partner, { amount_cents: 10_000 });
    await partner.call('POST', `/business/pix-charges/${id}/pay`);
    const after = await partner.call('GET', '/business/finance');
    const [capture] = after.body.transactions as Array<{ event_type: string; created_at: string; entries: Array<{ account_code: string; direction: string; amount_cents: number }> }>;
    expect(capture?.event_type).toBe('payment.captured');
    const sum = (direction: string) => (capture?.entries ?? []).filter((e) => e.direction === direction).reduce((s, e) => s + e.amount_cents, 0);
    expect(sum('debit')).toBe(10_000);
    expect(sum('credit')).toBe(10_000);
    const net = capture?.entries.find((e) => e.account_code === 'merchant_available')?.amount_cents;
    expect(after.body.available_cents).toBe(net);
    expect(net).toBeGreaterThan(0);
    expect(net).toBeLessThanOrEqual(10_000);
    // a sandbox payment never moves production money
    const live = await partner.call('GET', '/business/finance', { key: partner.app.credentials.liveApiKey });
    expect(live.body.available_cents).toBe(0);
  });

  it('shows the last 50 postings, newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const id = await chargeId(partner, { amount_cents: 100 + i });
      await partner.call('POST', `/business/pix-charges/${id}/pay`);
      ids.push(id);
    }
    const transactions = (await partner.call('GET', '/business/finance')).body.transactions as Array<{ description: string }>;
    expect(transactions).toHaveLength(50);
    expect(transactions[0]?.description).toContain(ids[51]);
    expect(transactions[49]?.description).toContain(ids[2]);
  });
});
