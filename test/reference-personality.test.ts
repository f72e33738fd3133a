/**
 * The reference's personalities (reference/personality.ts): the table and reference/DECISIONS.md
 * agree, alt differs from default at every point, and the alt personality really takes the other
 * option: a few representative choices per API, over real HTTP on 127.0.0.1, in process. Also the
 * gap fixes both personalities share (405 + Allow, the partner's amount_cents refusals).
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, workerEnv } from '../harness/cli/args.js';
import { startEmbeddedReference } from '../harness/config/target.js';
import { DECISIONS_PATH, tableInDecisions } from '../reference/decisions-table.js';
import { CHOICES, describePersonality, differencesFromDefault, drawOption, optionsOf, parsePersonality, personality, renderDecisionsTable, type Choice, type ChoiceKey } from '../reference/personality.js';
import { postCapture } from '../reference/partner/finance.js';
import type { Ledger } from '../reference/partner/store.js';
import { referenceOptionsFromEnv, startReference, type RunningReference } from '../reference/server.js';

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON, undefined when the body is empty or not JSON */
  json: unknown;
}

async function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function field(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

interface Received {
  path: string;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', rawHeaders: req.rawHeaders, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 6_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: nothing arrived in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CPF = '52998224725';

describe('the personality table', () => {
  const entries = Object.entries(CHOICES) as [string, Choice<unknown>][];

  it('lists at least 60 free choices, each with its contract sentence', () => {
    expect(entries.length).toBeGreaterThanOrEqual(60);
    for (const [key, c] of entries) {
      expect(c.sentence.trim(), key).not.toBe('');
      expect(c.what.trim(), key).not.toBe('');
    }
  });

  it('alt takes the other option in every entry; every further option differs from the others', () => {
    const same = entries.filter(([, c]) => isDeepStrictEqual(c.default, c.alt)).map(([key]) => key);
    expect(same).toEqual([]);
    for (const [key, c] of entries) {
      const options = optionsOf(c);
      options.forEach((option, i) => expect(options.findIndex((o) => isDeepStrictEqual(o, option)), `${key}: option ${JSON.stringify(option)} twice`).toBe(i));
    }
  });

  it('reference/DECISIONS.md holds the same numbered table (regenerate: tsx reference/decisions-table.ts)', () => {
    const table = tableInDecisions(readFileSync(DECISIONS_PATH, 'utf8'));
    expect(table).toBe(renderDecisionsTable());
    const numbers = [...(table ?? '').matchAll(/^\| (\d+) \| `(\w+)` \|/gm)].map((m) => [Number(m[1]), m[2]]);
    expect(numbers).toEqual(entries.map(([key], index) => [index + 1, key]));
  });

  it('REFERENCE_PERSONALITY: default when unset, alt, anything else an error; KEEP keeps defaults', () => {
    expect(parsePersonality(undefined)).toBe('default');
    expect(parsePersonality(' alt ')).toBe('alt');
    expect(parsePersonality('mix:007')).toBe('mix:7');
    for (const bad of ['other', 'mix', 'mix:', 'mix:-1', 'mix:1.5', 'mix:99999999999999999']) expect(() => parsePersonality(bad), bad).toThrow(/default, alt or mix:SEED/);
    expect(personality('alt', ['gwCardSuccessStatus']).gwCardSuccessStatus).toBe(201);
    expect(() => personality('alt', ['noSuchChoice'])).toThrow(/unknown personality choice/);
    const options = referenceOptionsFromEnv({ REFERENCE_PERSONALITY: 'alt' });
    expect(options.personality).toBe('alt');
    expect(options.tokenTtlMs).toBe(CHOICES.gwTokenTtlMs.alt);
    expect(referenceOptionsFromEnv({ REFERENCE_PERSONALITY: 'alt', REFERENCE_TOKEN_TTL_MS: '1234' }).tokenTtlMs).toBe(1234);
    expect(referenceOptionsFromEnv({ REFERENCE_PERSONALITY: 'mix:3' }).personality).toBe('mix:3');
  });

  it('mix:SEED draws every choice from its options, the same for the same seed, each choice on its own', () => {
    const a = personality('mix:11');
    expect(personality('mix:11')).toEqual(a);
    expect(a.name).toBe('mix:11');
    for (const [key, c] of entries) {
      expect(optionsOf(c).some((o) => isDeepStrictEqual(o, a[key as ChoiceKey])), key).toBe(true);
      // a draw depends on the seed and the choice's own name only (a new row changes no other draw)
      expect(a[key as ChoiceKey]).toEqual(drawOption(11, key, c));
    }
    // over a few seeds, a mix draws from both sides in one personality, and every option of every choice is drawn
    const mixes = Array.from({ length: 40 }, (_, seed) => personality(`mix:${seed}`));
    for (const mix of mixes.slice(0, 5)) {
      const away = differencesFromDefault(mix).length;
      expect(away).toBeGreaterThan(entries.length / 4);
      expect(away).toBeLessThan(entries.length);
    }
    for (const [key, c] of entries) {
      for (const option of optionsOf(c)) expect(mixes.some((m) => isDeepStrictEqual(m[key as ChoiceKey], option)), `${key} never draws ${JSON.stringify(option)}`).toBe(true);
    }
  });

  it('a mix keeps the named choices at their default, and says what it drew away from the default', () => {
    const away = differencesFromDefault(personality('mix:11')).map((d) => d.split('=')[0] ?? '');
    expect(away.length).toBeGreaterThan(1);
    const kept = personality('mix:11', away.slice(0, 2));
    expect(differencesFromDefault(kept).map((d) => d.split('=')[0])).toEqual(away.slice(2));
    const line = describePersonality(personality('mix:11'));
    expect(line).toMatch(new RegExp(`^personality mix:11: ${away.length} of ${entries.length} choices away from the default: `));
    expect(line).toContain(`${away[0] ?? ''}=`);
    expect(describePersonality(personality('alt'))).toBe('personality alt');
  });

  it('the CLI flag --personality reaches the embedded reference through REFERENCE_PERSONALITY', () => {
    const options = parseArgs(['--personality', 'alt']);
    expect(options.personality).toBe('alt');
    expect(workerEnv(options, 1)['REFERENCE_PERSONALITY']).toBe('alt');
    expect(workerEnv(parseArgs([]), 1)['REFERENCE_PERSONALITY']).toBeUndefined();
    expect(() => parseArgs(['--personality', 'other'])).toThrow(/default, alt, mix:SEED/);
    expect(() => parseArgs(['--personality', 'mix:x'])).toThrow(/default, alt, mix:SEED/);
    expect(workerEnv(parseArgs(['--personality', 'mix:042']), 1)['REFERENCE_PERSONALITY']).toBe('mix:42');
  });

  it('startEmbeddedReference hands the personality to the child', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'paygate-personality-')), 'fake.ts');
    const info = { gateway: { baseUrl: 'http://127.0.0.1:1' }, partner: { baseUrl: 'http://127.0.0.1:2/v1', webhookSecret: '' } };
    writeFileSync(path, `const info = ${JSON.stringify(info)};
      info.partner.webhookSecret = process.env.REFERENCE_PERSONALITY ?? 'unset';
      console.log(JSON.stringify(info));
      setInterval(() => undefined, 1000);`);
    const ref = await startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9', personality: 'alt', script: path });
    try {
      expect(ref.info.partner.webhookSecret).toBe('alt');
    } finally {
      await ref.stop();
    }
  });
});

describe('the risk reserve (ptCaptureReserve) keeps the ledger conforming', () => {
  const charge = (id: string, amount: number) => ({ id, status: 'paid', amount_cents: amount, description: null, external_ref: null, customer_email: null, qr_code: '', e2e_id: 'E1', provider: 'p', expires_at: '', created_at: '' }) as unknown as Parameters<typeof postCapture>[1];

  it.each(optionsOf(CHOICES.ptCaptureReserve).flatMap((reserve) => optionsOf(CHOICES.ptCaptureFee).map((fee) => [reserve, fee] as const)))('reserve %s, fee %s: balanced postings that explain both balances; money in = available + reserve + fees', (reserve, fee) => {
    const p = { ...personality('default'), ptCaptureReserve: reserve, ptCaptureFee: fee };
    const codes = p.ptLedgerAccountCodes;
    const ledger: Ledger = { transactions: [], availableCents: 0, reserveCents: 0 };
    const amounts = [1, 10, 100, 1_011, 12_345];
    amounts.forEach((amount, i) => postCapture(ledger, charge(`pc_${i}`, amount), new Set(), p));
    const sum = (account: string, direction: 'debit' | 'credit'): number =>
      ledger.transactions.flatMap((t) => t.entries).filter((e) => e.account_code === account && e.direction === direction).reduce((n, e) => n + e.amount_cents, 0);
    for (const t of ledger.transactions) {
      const debits = t.entries.filter((e) => e.direction === 'debit').reduce((n, e) => n + e.amount_cents, 0);
      const credits = t.entries.filter((e) => e.direction === 'credit').reduce((n, e) => n + e.amount_cents, 0);
      expect(debits, t.event_type).toBe(credits);
      expect(t.entries.every((e) => Number.isInteger(e.amount_cents) && e.amount_cents > 0), 'no zero or negative entry').toBe(true);
      expect(t.description).toMatch(/pc_\d/);
    }
    expect(ledger.availableCents).toBe(sum(codes.merchant, 'credit') - sum(codes.merchant, 'debit'));
    expect(ledger.reserveCents).toBe(sum(codes.reserve, 'credit') - sum(codes.reserve, 'debit'));
    const gross = amounts.reduce((n, a) => n + a, 0);
    expect(sum(codes.clearing, 'debit')).toBe(gross);
    expect(ledger.availableCents + ledger.reserveCents + sum(codes.fee, 'credit')).toBe(gross);
    if (reserve === 'none') expect(ledger.reserveCents).toBe(0);
    else expect(ledger.reserveCents).toBeGreaterThan(0);
  });

  it('hold-posting: a 10-cent net makes available_cents rise by 9, with a second posting naming the charge', () => {
    const p = { ...personality('default'), ptCaptureReserve: 'hold-posting-5pct-ceil', ptCaptureFee: 'zero' } as const;
    const ledger: Ledger = { transactions: [], availableCents: 0, reserveCents: 0 };
    postCapture(ledger, charge('pc_ten', 10), new Set(), p);
    expect([ledger.availableCents, ledger.reserveCents]).toEqual([9, 1]);
    expect(ledger.transactions.map((t) => t.event_type)).toEqual(['payment.captured', 'reserve.hold']);
    expect(ledger.transactions.every((t) => t.description.includes('pc_ten'))).toBe(true);
  });
});

async function gatewayToken(ref: RunningReference): Promise<string> {
  const g = ref.info.gateway;
  const reply = await send(`${g.baseUrl}/api/auth`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${g.clientId}:${g.clientSecret}`).toString('base64')}` } });
  return field(reply.json, 'token') as string;
}

describe('both personalities: the gap fixes', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ gatewayPort: 0, partnerPort: 0, chaos: false, faults: new Set(), personality: 'default', personalityKeep: [] });
  });
  afterAll(() => ref.close());

  it('every unsupported method answers 405 with Allow (RFC 9110 §15.5.6)', async () => {
    const token = await gatewayToken(ref);
    const g = ref.info.gateway.baseUrl;
    const auth = { authorization: `Bearer ${token}` };
    expect((await send(`${g}/api/v1/balance`, { method: 'POST', headers: auth })).headers.get('allow')).toBe('GET');
    expect((await send(`${g}/api/v1/webhook`, { method: 'PUT', headers: auth })).headers.get('allow')).toBe('GET, POST');
    expect((await send(`${g}/api/v1/pix/in/qrcode/x/pay`, { method: 'GET', headers: auth })).headers.get('allow')).toBe('POST');
    expect((await send(`${g}/api/auth`)).headers.get('allow')).toBe('POST');
    const p = ref.info.partner;
    const key = { authorization: `Bearer ${p.apiKey}` };
    const partner405 = await send(`${p.baseUrl}/business/pix-charges`, { method: 'DELETE', headers: key });
    expect(partner405.status).toBe(405);
    expect(partner405.headers.get('allow')).toBe('POST, GET');
    expect((await send(`${p.baseUrl}/business/finance`, { method: 'POST', headers: key })).headers.get('allow')).toBe('GET');
  });

  it('partner amount_cents: a huge positive amount is refused for what it is, never as "not greater than zero"', async () => {
    const p = ref.info.partner;
    const key = { authorization: `Bearer ${p.apiKey}` };
    const huge = await send(`${p.baseUrl}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 1e20 } });
    expect(huge.status).toBe(422);
    expect(String(field(huge.json, 'detail'))).toMatch(/^amount_cents: must be at most 999999999999/);
    const largest = await send(`${p.baseUrl}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 999_999_999_999 } });
    expect(largest.status).toBe(200);
    expect(String(field((await send(`${p.baseUrl}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 0 } })).json, 'detail'))).toMatch(/greater than zero/);
    expect(String(field((await send(`${p.baseUrl}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 1.5 } })).json, 'detail'))).toMatch(/integer/);
  });
});

describe('the alt personality', () => {
  let ref: RunningReference;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    ref = await startReference({
      gatewayPort: 0,
      partnerPort: 0,
      chaos: false,
      faults: new Set(),
      personality: 'alt',
      personalityKeep: [],
      partnerWebhookUrl: `${receiver.url}/partner`,
      partnerWebhookSecret: 'whsec_alt_test',
    });
  });
  afterAll(async () => {
    await ref.close();
    await receiver.close();
  });

  describe('gateway', () => {
    let token: string;
    let base: string;
    let auth: Record<string, string>;
    beforeAll(async () => {
      base = ref.info.gateway.baseUrl;
      token = await gatewayToken(ref);
      auth = { authorization: `Bearer ${token}` };
    });

    it('auth: 90 s token, HS512, an extra expiresAt; bodies indented, Title-Case headers, no charset', async () => {
      const g = ref.info.gateway;
      const reply = await send(`${base}/api/auth`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${g.clientId}:${g.clientSecret}`).toString('base64')}` } });
      expect(field(reply.json, 'expiresIn')).toBe(90_000);
      expect(String(field(reply.json, 'expiresAt'))).toMatch(/\.\d{6}-03:00$/);
      const header = JSON.parse(Buffer.from(String(field(reply.json, 'token')).split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg: string };
      expect(header.alg).toBe('HS512');
      expect(reply.text).toContain('\n  "');
      expect(reply.headers.get('content-type')).toBe('application/json');
    });

    it('errors: an unknown path wants the token first; a field rule answers 422 {error, message} in Portuguese', async () => {
      expect((await send(`${base}/api/v1/nowhere`)).status).toBe(401);
      const unauthorized = await send(`${base}/api/v1/balance`);
      expect(unauthorized.json).toMatchObject({ error: 'UNAUTHORIZED' });
      expect(unauthorized.headers.get('www-authenticate')).toContain('realm=');
      const invalid = await send(`${base}/api/v1/pix/in/qrcode`, { method: 'POST', headers: auth, body: { amountInCents: 50, customer: { documentType: 'cpf', document: CPF } } });
      expect(invalid.status).toBe(422);
      expect(invalid.json).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(String(field(invalid.json, 'message'))).toMatch(/^O campo amountInCents é inválido/);
    });

    it('PIX charge: numeric-looking id, flat fee, only the documented fields; null optional fields are absent', async () => {
      const reply = await send(`${base}/api/v1/pix/in/qrcode`, { method: 'POST', headers: auth, body: { amountInCents: 1000, description: null, customer: { documentType: 'cpf', document: CPF } } });
      expect(reply.status).toBe(200);
      const data = field(reply.json, 'data') as Record<string, unknown>;
      expect(data.id).toMatch(/^\d+$/);
      expect(data.fees).toBe(35);
      expect(Object.keys(data).sort()).toEqual(['fees', 'id', 'pix', 'status']);
      expect(String(field(data, 'pix.emv'))).toContain('RIO DE JANEIRO');
      const lookup = await send(`${base}/api/v1/transactions/${String(data.id)}`, { headers: auth });
      expect(lookup.json).toMatchObject({ id: data.id, status: 'pending' });
      expect(field(lookup.json, 'success')).toBeUndefined();
    });

    it('transfers: UUID idempotency keys, review above R$ 10 000 (pending, /complete 400), null endToEndId, replay header', async () => {
      const body = { pixKey: 'recebedor@example.com', amount: 1_000_000 };
      expect((await send(`${base}/api/v1/pix/out/pixkey`, { method: 'POST', headers: { ...auth, 'x-idempotency-key': 'not-a-uuid' }, body })).status).toBe(400);
      const key = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
      const created = await send(`${base}/api/v1/pix/out/pixkey`, { method: 'POST', headers: { ...auth, 'x-idempotency-key': key }, body });
      expect(field(created.json, 'data.status')).toBe('pending');
      expect(field(created.json, 'data.fees')).toBe(0);
      const id = String(field(created.json, 'data.id'));
      expect(id).toMatch(/^pixout_/);
      const replay = await send(`${base}/api/v1/pix/out/pixkey`, { method: 'POST', headers: { ...auth, 'x-idempotency-key': key }, body });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await send(`${base}/api/v1/pix/out/pixkey/${id}/complete`, { method: 'POST', headers: auth })).status).toBe(400);
      const lookup = await send(`${base}/api/v1/pix/out/pixkey/${id}`, { headers: auth });
      expect(field(lookup.json, 'data.endToEndId')).toBeNull();
      expect(field(lookup.json, 'message')).toBeUndefined();
    });

    it('card: 200, requiresAction false; a missing billing address is an invalid body', async () => {
      const customer = { name: 'John', documentType: 'cpf', document: '', email: 'john@example.com', billingAddress: { street: 'a', number: '1', neighborhood: 'b', city: 'c', state: 'TX', zipCode: '1' } };
      const card = { token: 'ctoken_abc', last4: '4242', brand: 'visa', holderName: 'JOHN' };
      const paid = await send(`${base}/api/v1/card`, { method: 'POST', headers: auth, body: { amountInCents: 2500, currency: 'USD', card, customer } });
      expect(paid.status).toBe(200);
      expect(field(paid.json, 'data.requiresAction')).toBe(false);
      const refused = await send(`${base}/api/v1/card`, { method: 'POST', headers: auth, body: { amountInCents: 2500, currency: 'USD', card: { ...card, token: 'ctoken_decline' }, customer } });
      expect(field(refused.json, 'success')).toBe(false);
      const noAddress = await send(`${base}/api/v1/card`, { method: 'POST', headers: auth, body: { amountInCents: 2500, currency: 'USD', card, customer: { ...customer, billingAddress: undefined } } });
      expect(noAddress.status).toBe(422);
      expect((await send(`${base}/api/v1/card`, { method: 'POST', headers: auth, body: { amountInCents: 2500, currency: 'BRL', card, customer } })).status).toBe(400);
    });

    it('webhooks: ids past 32 bits, a bare list, 204 on delete; deliveries indented, signed with t in ms, lower-case headers', async () => {
      const created = await send(`${base}/api/v1/webhook`, { method: 'POST', headers: auth, body: { url: `${receiver.url}/gw`, events: ['transaction_created'] } });
      const id = field(created.json, 'data.id') as number;
      expect(id).toBeGreaterThan(2 ** 32);
      const secret = String(field(created.json, 'data.signatureSecret'));
      expect(Array.isArray((await send(`${base}/api/v1/webhook`, { headers: auth })).json)).toBe(true);
      await send(`${base}/api/v1/pix/in/qrcode`, { method: 'POST', headers: auth, body: { amountInCents: 1000, customer: { documentType: 'cpf', document: CPF } } });
      const delivery = await waitFor(() => receiver.received.find((r) => r.path === '/gw'));
      expect(delivery.rawHeaders).toContain('servicegateway-signature');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['servicegateway-signature'])) ?? [];
      expect(String(t)).toHaveLength(13);
      expect(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex')).toBe(v1);
      expect(delivery.body).toContain('\n  "');
      expect(Object.keys(JSON.parse(delivery.body) as object)[0]).toBe('transaction');
      const removed = await send(`${base}/api/v1/webhook/${id}`, { method: 'DELETE', headers: auth });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
    });

    it('rate limit: past 60 requests per second per credential, 429 with an HTTP-date Retry-After and a plain-text body', async () => {
      // the limit counts per calendar second: on a loaded machine one burst of 150 may spread over
      // several seconds, so bursts go on (a few at most) until one crosses the limit
      let limited: Reply | undefined;
      let sentAt = Date.now();
      for (let burst = 0; burst < 5 && limited === undefined; burst++) {
        sentAt = Date.now();
        const replies = await Promise.all(Array.from({ length: 150 }, () => send(`${base}/api/v1/balance`, { headers: auth })));
        limited = replies.find((r) => r.status === 429);
      }
      expect(limited).toBeDefined();
      expect(Date.parse(limited?.headers.get('retry-after') ?? '')).toBeGreaterThan(sentAt - 1_000);
      expect(limited?.text).toBe('Too Many Requests');
      // the limit's window is the calendar second: the next tests start in a fresh one
      await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
    });
  });

  describe('partner', () => {
    let base: string;
    let key: Record<string, string>;
    beforeAll(() => {
      base = ref.info.partner.baseUrl;
      key = { authorization: `Bearer ${ref.info.partner.apiKey}` };
    });

    it('charge: UUID id, absent fields left out, whole-second +00:00 timestamps, extra fields', async () => {
      const reply = await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 1500 } });
      expect(reply.status).toBe(200);
      const charge = reply.json as Record<string, unknown>;
      expect(charge.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(charge).not.toHaveProperty('e2e_id');
      expect(charge).not.toHaveProperty('external_ref');
      expect(charge.created_at).toMatch(/T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect(charge).toMatchObject({ object: 'pix_charge', provider: 'psp-alt' });
    });

    it('list {items, count}, an unknown status lists nothing; cancel 204; pay {id, status}, again 200 without a second capture', async () => {
      const id = String(field((await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 2000 } })).json, 'id'));
      const list = await send(`${base}/business/pix-charges`, { headers: key });
      expect(field(list.json, 'items')).toBeInstanceOf(Array);
      expect(field(list.json, 'count')).toBeTypeOf('number');
      expect(field((await send(`${base}/business/pix-charges?status=bogus`, { headers: key })).json, 'count')).toBe(0);
      const paid = await send(`${base}/business/pix-charges/${id}/pay`, { method: 'POST', headers: key });
      expect(paid.json).toEqual({ id, status: 'paid' });
      expect((await send(`${base}/business/pix-charges/${id}/pay`, { method: 'POST', headers: key })).status).toBe(200);
      const finance = await send(`${base}/business/finance`, { headers: key });
      const postings = (field(finance.json, 'transactions') as Array<{ description: string }>).filter((t) => t.description.includes(id));
      expect(postings).toHaveLength(1);
      const other = String(field((await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 2000 } })).json, 'id'));
      const canceled = await send(`${base}/business/pix-charges/${other}/cancel`, { method: 'POST', headers: key });
      expect(canceled.status).toBe(204);
      expect(canceled.text).toBe('');
    });

    it('422: null refused, expires_in_seconds reported first, Portuguese detail; remembered under its Idempotency-Key', async () => {
      const bad = await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 0, expires_in_seconds: 1 } });
      expect(bad.status).toBe(422);
      expect(String(field(bad.json, 'detail'))).toMatch(/^Campo expires_in_seconds inválido/);
      expect(String(field((await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 10, description: null } })).json, 'detail'))).toContain('description');
      const headers = { ...key, 'idempotency-key': 'alt-422' };
      expect((await send(`${base}/business/pix-charges`, { method: 'POST', headers, body: { amount_cents: 0 } })).status).toBe(422);
      expect((await send(`${base}/business/pix-charges`, { method: 'POST', headers, body: { amount_cents: 10 } })).status).toBe(409);
    });

    it('events: data first, indented, -03:00 created_at, Title-Case header, upper-case hex over the raw body', async () => {
      await send(`${base}/business/pix-charges`, { method: 'POST', headers: key, body: { amount_cents: 3000, external_ref: 'alt-evt' } });
      const delivery = await waitFor(() => receiver.received.find((r) => r.path === '/partner' && r.body.includes('alt-evt')));
      expect(delivery.rawHeaders).toContain('X-Service-Signature');
      const [, t, v1] = /^t=(\d+),v1=([0-9A-F]{64})$/.exec(String(delivery.headers['x-service-signature'])) ?? [];
      expect(createHmac('sha256', 'whsec_alt_test').update(`${t}.${delivery.body}`).digest('hex').toUpperCase()).toBe(v1);
      const event = JSON.parse(delivery.body) as Record<string, unknown>;
      expect(Object.keys(event)[0]).toBe('data');
      expect(event.created_at).toMatch(/-03:00$/);
      expect(event.data).not.toHaveProperty('e2e_id');
      expect(delivery.body).toContain('\n  "');
    });

    it('an undocumented path answers 404 before the key is checked', async () => {
      expect((await send(`${base}/business/payouts`)).status).toBe(404);
      expect((await send(`${base}/business/finance`)).status).toBe(401);
    });
  });
});
