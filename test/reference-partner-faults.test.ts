/**
 * The partner fault catalogue (reference/partner/faults.ts): well-formed, names catalogue IDs,
 * and every fault is wired: a probe through documented behaviour sees the deviation when the
 * fault is on and does not see it when it is off. (The suite's own detection of each fault is the
 * fault matrix's job; this only proves the reference side.)
 */
import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createPartnerApp } from '../reference/partner/app.js';
import type { PartnerOptions } from '../reference/partner/app.js';
import { PARTNER_FAULTS } from '../reference/partner/faults.js';
import type { PartnerFaultName } from '../reference/partner/faults.js';

const SECRET = 'whsec_fault_probe';
type Json = Record<string, unknown>;

interface Delivery {
  raw: Buffer;
  signature: string;
  at: number;
  event: { id: string; type: string; data: Json };
}

interface Harness {
  call(method: string, path: string, body?: unknown, options?: { key?: string | null; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: Json; headers: Headers; text: string }>;
  create(body?: Json, options?: { key?: string; headers?: Record<string, string> }): Promise<Json>;
  keys: { apiKey: string; liveApiKey: string; otherApiKey: string };
  deliveries: Delivery[];
  /** polls up to `ms`; true as soon as the condition holds */
  within(ms: number, condition: () => boolean): Promise<boolean>;
}

interface Probe {
  options?: Partial<PartnerOptions>;
  /** receiver answer per delivery of one event id (1-based); default 200 */
  answer?: (attempt: number) => number;
  /** how long the receiver waits before answering a delivery (1-based attempt); default at once */
  answerAfterMs?: (attempt: number) => number;
  deviates(h: Harness): Promise<boolean>;
}

function signatureIsValid(d: Delivery): boolean {
  const parts = Object.fromEntries(d.signature.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  const expected = createHmac('sha256', SECRET).update(`${parts.t ?? ''}.`).update(d.raw).digest('hex');
  return parts.v1 === expected && Math.abs(Date.now() / 1000 - t) <= 300;
}

function emvAmount(qrCode: string): string | undefined {
  for (let i = 0; i + 4 <= qrCode.length; ) {
    const length = Number(qrCode.slice(i + 2, i + 4));
    if (qrCode.slice(i, i + 2) === '54') return qrCode.slice(i + 4, i + 4 + length);
    i += 4 + length;
  }
  return undefined;
}

/** The top-level fields of a BR Code, by id. */
function emvFields(qrCode: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i + 4 <= qrCode.length; ) {
    const length = Number(qrCode.slice(i + 2, i + 4));
    fields.set(qrCode.slice(i, i + 2), qrCode.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return fields;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function runProbe(probe: Probe, faults: string[]): Promise<boolean> {
  const deliveries: Delivery[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const event = JSON.parse(raw.toString('utf8')) as Delivery['event'];
      deliveries.push({ raw, signature: String(req.headers['x-service-signature'] ?? ''), at: performance.now(), event });
      const attempt = deliveries.filter((d) => d.event.id === event.id).length;
      const reply = () => res.writeHead(probe.answer ? probe.answer(attempt) : 200).end();
      const wait = probe.answerAfterMs?.(attempt) ?? 0;
      if (wait > 0) setTimeout(reply, wait);
      else reply();
    });
  });
  const receiverPort = await listen(receiver);
  const app = createPartnerApp({
    faults: new Set(faults),
    webhookUrl: `http://127.0.0.1:${receiverPort}/partner`,
    webhookSecret: SECRET,
    retryBaseMs: 5,
    retryCapMs: 1000,
    deliveryTimeoutMs: 500,
    expiryScale: 1,
    ...probe.options,
  });
  const server = createServer((req, res) => void app.handler(req, res));
  const baseUrl = `http://127.0.0.1:${await listen(server)}/v1`;

  const harness: Harness = {
    keys: app.credentials,
    deliveries,
    async call(method, path, body, options = {}) {
      const key = options.key === undefined ? app.credentials.apiKey : options.key;
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
      if (key !== null) headers.authorization = `Bearer ${key}`;
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
      const text = await response.text();
      let parsed: Json = {};
      try {
        parsed = JSON.parse(text) as Json;
      } catch {
        // a fault may answer something that is not JSON
      }
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
    async create(body = { amount_cents: 1000 }, options = {}) {
      const reply = await harness.call('POST', '/business/pix-charges', body, options);
      if (reply.status !== 200) throw new Error(`probe setup: create answered ${reply.status}`);
      return reply.body;
    },
    async within(ms, condition) {
      const deadline = performance.now() + ms;
      while (!condition()) {
        if (performance.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      return true;
    },
  };
  try {
    return await probe.deviates(harness);
  } finally {
    await app.close();
    await closeServer(server);
    await closeServer(receiver);
  }
}

const pay = (h: Harness, id: unknown) => h.call('POST', `/business/pix-charges/${String(id)}/pay`);
const cancel = (h: Harness, id: unknown) => h.call('POST', `/business/pix-charges/${String(id)}/cancel`);
const finance = async (h: Harness) => (await h.call('GET', '/business/finance')).body;
const list = async (h: Harness, query = '') => ((await h.call('GET', `/business/pix-charges${query}`)).body.data ?? []) as Json[];
const createStatus = async (h: Harness, body: Json) => (await h.call('POST', '/business/pix-charges', body)).status;
/** A charge that expires 60 ms after creation (expiryScale 0.001), and a wait until it has. */
const EXPIRING: Partial<PartnerOptions> = { expiryScale: 0.001 };
async function expiredCharge(h: Harness): Promise<Json> {
  const charge = await h.create({ amount_cents: 100, expires_in_seconds: 60 });
  const expiresAt = Date.parse(String(charge.expires_at));
  await h.within(2000, () => Date.now() > expiresAt + 2);
  return charge;
}
const eventsOf = (h: Harness, type: string) => h.deliveries.filter((d) => d.event.type === type);
const gaps = (ds: Delivery[]) => ds.slice(1).map((d, i) => d.at - (ds[i] as Delivery).at);

const PROBES: Record<PartnerFaultName, Probe> = {
  'pt-auth-missing-key-accepted': { deviates: async (h) => (await h.call('GET', '/business/pix-charges', undefined, { key: null })).status !== 401 },
  'pt-auth-unknown-key-accepted': { deviates: async (h) => (await h.call('GET', '/business/finance', undefined, { key: 'ak_test_ffffffffffffffffffffffff' })).status !== 401 },
  'pt-live-pay-allowed': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 100 }, { key: h.keys.liveApiKey });
      return (await h.call('POST', `/business/pix-charges/${String(charge.id)}/pay`, undefined, { key: h.keys.liveApiKey })).status !== 403;
    },
  },
  'pt-sandbox-pays-live-charge': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 100 }, { key: h.keys.liveApiKey });
      return (await h.call('POST', `/business/pix-charges/${String(charge.id)}/pay`)).status === 200;
    },
  },
  'pt-test-live-data-shared': {
    deviates: async (h) => (await h.call('GET', `/business/pix-charges/${String((await h.create()).id)}`, undefined, { key: h.keys.liveApiKey })).status === 200,
  },
  'pt-list-other-account': {
    deviates: async (h) => {
      const charge = await h.create();
      const theirs = (await h.call('GET', '/business/pix-charges', undefined, { key: h.keys.otherApiKey })).body.data as Json[];
      return theirs.some((c) => c.id === charge.id);
    },
  },
  'pt-cross-account-lookup': {
    deviates: async (h) => (await h.call('GET', `/business/pix-charges/${String((await h.create()).id)}`, undefined, { key: h.keys.otherApiKey })).status === 200,
  },
  'pt-amount-zero-accepted': { deviates: async (h) => (await createStatus(h, { amount_cents: 0 })) === 200 },
  'pt-description-301-accepted': { deviates: async (h) => (await createStatus(h, { amount_cents: 1, description: 'x'.repeat(301) })) === 200 },
  'pt-description-300-rejected': { deviates: async (h) => (await createStatus(h, { amount_cents: 1, description: 'x'.repeat(300) })) !== 200 },
  'pt-external-ref-121-accepted': { deviates: async (h) => (await createStatus(h, { amount_cents: 1, external_ref: 'x'.repeat(121) })) === 200 },
  'pt-expires-59-accepted': { deviates: async (h) => (await createStatus(h, { amount_cents: 1, expires_in_seconds: 59 })) === 200 },
  'pt-expires-86401-accepted': { deviates: async (h) => (await createStatus(h, { amount_cents: 1, expires_in_seconds: 86_401 })) === 200 },
  'pt-default-expiry-wrong': {
    deviates: async (h) => {
      const charge = await h.create();
      return Date.parse(String(charge.expires_at)) - Date.parse(String(charge.created_at)) !== 3_600_000;
    },
  },
  'pt-validation-status-400': { deviates: async (h) => (await createStatus(h, { amount_cents: -1 })) !== 422 },
  'pt-error-detail-missing': { deviates: async (h) => typeof (await h.call('POST', '/business/pix-charges', { amount_cents: -1 })).body.detail !== 'string' },
  'pt-malformed-json-500': { deviates: async (h) => (await h.call('POST', '/business/pix-charges', undefined, { raw: '{"amount_cents":' })).status >= 500 },
  'pt-external-ref-trimmed': {
    deviates: async (h) => (await h.call('GET', `/business/pix-charges/${String((await h.create({ amount_cents: 1, external_ref: ' ref ' })).id)}`)).body.external_ref !== ' ref ',
  },
  'pt-qr-code-bad-crc': { deviates: async (h) => !isValidPixPayload(String((await h.create()).qr_code)) },
  'pt-qr-code-amount-in-reais': { deviates: async (h) => emvAmount(String((await h.create({ amount_cents: 12_345 })).qr_code)) !== '123.45' },
  'pt-timestamps-local-offset': { deviates: async (h) => !String((await h.create()).created_at).endsWith('Z') },
  'pt-cancel-paid-succeeds': {
    deviates: async (h) => {
      const charge = await h.create();
      await pay(h, charge.id);
      return (await cancel(h, charge.id)).status === 200;
    },
  },
  'pt-pay-canceled-succeeds': {
    deviates: async (h) => {
      const charge = await h.create();
      await cancel(h, charge.id);
      return (await pay(h, charge.id)).status === 200;
    },
  },
  'pt-pay-after-expiry': { options: EXPIRING, deviates: async (h) => (await pay(h, (await expiredCharge(h)).id)).status === 200 },
  'pt-cancel-after-expiry': { options: EXPIRING, deviates: async (h) => (await cancel(h, (await expiredCharge(h)).id)).status === 200 },
  'pt-lookup-never-expires': {
    options: EXPIRING,
    deviates: async (h) => (await h.call('GET', `/business/pix-charges/${String((await expiredCharge(h)).id)}`)).body.status === 'pending',
  },
  'pt-pay-not-atomic': {
    deviates: async (h) => {
      const charge = await h.create();
      const replies = await Promise.all(Array.from({ length: 10 }, () => pay(h, charge.id)));
      return replies.filter((r) => r.status === 200).length > 1;
    },
  },
  'pt-pay-cancel-not-atomic': {
    deviates: async (h) => {
      const charge = await h.create();
      const replies = await Promise.all([pay(h, charge.id), cancel(h, charge.id)]);
      return replies.every((r) => r.status === 200);
    },
  },
  'pt-idempotency-race': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'race' };
      const replies = await Promise.all(Array.from({ length: 10 }, () => h.call('POST', '/business/pix-charges', { amount_cents: 5 }, { headers })));
      return new Set(replies.map((r) => r.body.id)).size > 1;
    },
  },
  'pt-idempotency-ignored': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'k1' };
      return (await h.create({ amount_cents: 5 }, { headers })).id !== (await h.create({ amount_cents: 5 }, { headers })).id;
    },
  },
  'pt-idempotency-conflict-accepted': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'k2' };
      await h.create({ amount_cents: 5 }, { headers });
      return (await h.call('POST', '/business/pix-charges', { amount_cents: 6 }, { headers })).status !== 409;
    },
  },
  'pt-dedupe-by-external-ref': {
    deviates: async (h) => (await h.create({ amount_cents: 5, external_ref: 'r' })).id === (await h.create({ amount_cents: 5, external_ref: 'r' })).id,
  },
  'pt-list-oldest-first': {
    deviates: async (h) => {
      const first = await h.create();
      await h.create();
      return (await list(h))[0]?.id === first.id;
    },
  },
  'pt-list-unbounded': {
    deviates: async (h) => {
      for (let batch = 0; batch < 201; batch += 67) await Promise.all(Array.from({ length: 67 }, () => h.create({ amount_cents: 1 })));
      return (await list(h)).length > 200;
    },
  },
  'pt-list-status-filter-ignored': {
    deviates: async (h) => {
      await h.create();
      return (await list(h, '?status=paid')).length > 0;
    },
  },
  'pt-capture-not-posted': {
    deviates: async (h) => {
      await pay(h, (await h.create()).id);
      return ((await finance(h)).transactions as Json[]).length === 0;
    },
  },
  'pt-ledger-unbalanced': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_000 })).id);
      const [posting] = (await finance(h)).transactions as Array<{ entries: Array<{ direction: string; amount_cents: number }> }>;
      const total = (direction: string) => (posting?.entries ?? []).filter((e) => e.direction === direction).reduce((s, e) => s + e.amount_cents, 0);
      return total('debit') !== total('credit');
    },
  },
  'pt-available-balance-stale': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_000 })).id);
      return (await finance(h)).available_cents === 0;
    },
  },
  'pt-available-balance-doubled': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_000 })).id);
      return Number((await finance(h)).available_cents) > 10_000;
    },
  },
  'pt-capture-debits-available': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_000 })).id);
      return Number((await finance(h)).available_cents) < 0;
    },
  },
  'pt-finance-over-50': {
    deviates: async (h) => {
      const charges = await Promise.all(Array.from({ length: 51 }, () => h.create({ amount_cents: 100 })));
      await Promise.all(charges.map((c) => pay(h, c.id)));
      return ((await finance(h)).transactions as Json[]).length > 50;
    },
  },
  'pt-finance-amounts-as-strings': { deviates: async (h) => typeof (await finance(h)).available_cents !== 'number' },
  'pt-finance-currency-missing': { deviates: async (h) => (await finance(h)).currency !== 'BRL' },
  'pt-webhook-signature-reserialised': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      return !signatureIsValid(h.deliveries[0] as Delivery);
    },
  },
  'pt-webhook-wrong-secret': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      return !signatureIsValid(h.deliveries[0] as Delivery);
    },
  },
  'pt-webhook-timestamp-ms': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      return /t=\d{13}/.test((h.deliveries[0] as Delivery).signature);
    },
  },
  'pt-webhook-created-event-missing': {
    deviates: async (h) => {
      await h.create();
      return !(await h.within(150, () => eventsOf(h, 'business.pix.created').length > 0));
    },
  },
  'pt-webhook-paid-event-missing': {
    deviates: async (h) => {
      await pay(h, (await h.create()).id);
      return !(await h.within(150, () => eventsOf(h, 'business.pix.paid').length > 0));
    },
  },
  'pt-webhook-canceled-event-missing': {
    deviates: async (h) => {
      await cancel(h, (await h.create()).id);
      return !(await h.within(150, () => eventsOf(h, 'business.pix.canceled').length > 0));
    },
  },
  'pt-webhook-external-ref-missing': {
    deviates: async (h) => {
      await h.create({ amount_cents: 1, external_ref: 'order-1' });
      await h.within(2000, () => h.deliveries.length > 0);
      return (h.deliveries[0] as Delivery).event.data.external_ref !== 'order-1';
    },
  },
  'pt-webhook-no-redelivery': {
    answer: () => 500,
    deviates: async (h) => {
      await h.create();
      return !(await h.within(150, () => h.deliveries.length >= 2));
    },
  },
  'pt-webhook-redelivery-new-id': {
    answer: (attempt) => (attempt === 1 ? 500 : 200),
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length >= 2);
      return new Set(h.deliveries.map((d) => d.event.id)).size > 1;
    },
  },
  // A gap is never shorter than the delay the reference scheduled (the next attempt starts after
  // the failed answer, which comes after the delivery): a gap under base × 2^(n−1) can only be a
  // backoff that does not double, whatever the load; load only lengthens gaps, so the fault needs
  // one of three gaps to arrive within its (growing) margin.
  'pt-webhook-backoff-constant': {
    options: { retryBaseMs: 30, retryCapMs: 10_000 },
    answer: () => 500,
    deviates: async (h) => {
      await h.create();
      await h.within(4000, () => h.deliveries.length >= 5);
      // timers may fire up to 1 ms early (millisecond rounding): 3 ms of slack
      return gaps(h.deliveries).some((gap, i) => i > 0 && gap < 30 * 2 ** i - 3);
    },
  },
  // Uncapped, the 7th gap is at least 10 × 2^6 = 640 ms (gaps never shrink below the scheduled
  // delay); capped at 20 ms, a gap reaches 300 ms only if the machine stalls a timer by 280 ms.
  'pt-webhook-backoff-uncapped': {
    options: { retryBaseMs: 10, retryCapMs: 20 },
    answer: () => 500,
    deviates: async (h) => {
      await h.create();
      await h.within(5000, () => h.deliveries.length >= 8);
      return Math.max(...gaps(h.deliveries)) >= 300;
    },
  },
  'pt-webhook-too-many-attempts': {
    options: { retryBaseMs: 2, retryCapMs: 5 },
    answer: () => 500,
    deviates: async (h) => {
      await h.create();
      return h.within(200, () => h.deliveries.length > 8);
    },
  },
  'pt-qr-merchant-fields-off-by-one': {
    deviates: async (h) => {
      const fields = emvFields(String((await h.create()).qr_code));
      return (fields.get('59')?.length ?? 0) > 25 || (fields.get('60')?.length ?? 0) > 15;
    },
  },
  'pt-qr-amount-over-13': { deviates: async (h) => (await createStatus(h, { amount_cents: 1_000_000_000_000 })) === 200 },
  'pt-qr-code-crc-unformatted': {
    deviates: async (h) => {
      const codes = await Promise.all(Array.from({ length: 8 }, async () => String((await h.create()).qr_code)));
      return codes.some((c) => !/6304[0-9A-F]{4}$/.test(c));
    },
  },
  'pt-qr-code-static': { deviates: async (h) => !String((await h.create()).qr_code).includes('br.gov.bcb.pix25') },
  'pt-qr-txid-hyphenated': { deviates: async (h) => /^PT-/.test(emvFields(emvFields(String((await h.create()).qr_code)).get('62') ?? '').get('05') ?? '') },
  'pt-qr-key-and-location': { deviates: async (h) => /^0014br\.gov\.bcb\.pix01/.test(emvFields(String((await h.create()).qr_code)).get('26') ?? '') },
  'pt-ledger-fee-rounding': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_001 })).id);
      const [posting] = (await finance(h)).transactions as Array<{ entries: Array<{ direction: string; amount_cents: number }> }>;
      const total = (direction: string) => (posting?.entries ?? []).filter((e) => e.direction === direction).reduce((s, e) => s + e.amount_cents, 0);
      return total('debit') !== total('credit');
    },
  },
  'pt-available-credited-gross': {
    deviates: async (h) => {
      await pay(h, (await h.create({ amount_cents: 10_000 })).id);
      return (await finance(h)).available_cents === 10_000;
    },
  },
  'pt-pay-race-double-effects': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 10_000 });
      await Promise.all(Array.from({ length: 10 }, () => pay(h, charge.id)));
      const statement = await finance(h);
      return Number(statement.available_cents) > 10_000 && (statement.transactions as Json[]).length === 1;
    },
  },
  'pt-idempotency-key-global': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'shared-key' };
      const ours = await h.create({ amount_cents: 5 }, { headers });
      return (await h.create({ amount_cents: 5 }, { headers, key: h.keys.otherApiKey })).id === ours.id;
    },
  },
  'pt-idempotency-fingerprint-amount-only': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'k3' };
      await h.create({ amount_cents: 5, description: 'first' }, { headers });
      return (await h.call('POST', '/business/pix-charges', { amount_cents: 5, description: 'second' }, { headers })).status !== 409;
    },
  },
  'pt-idempotency-fingerprint-ignores-customer': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'k3-customer' };
      await h.create({ amount_cents: 5, customer_email: 'a@example.com' }, { headers });
      return (await h.call('POST', '/business/pix-charges', { amount_cents: 5, customer_email: 'b@example.com' }, { headers })).status !== 409;
    },
  },
  'pt-paid-e2e-missing': {
    deviates: async (h) => {
      const charge = await h.create();
      await pay(h, charge.id);
      return typeof (await h.call('GET', `/business/pix-charges/${String(charge.id)}`)).body.e2e_id !== 'string';
    },
  },
  'pt-webhook-timestamp-local-time': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      const t = Number(/t=(\d+)/.exec((h.deliveries[0] as Delivery).signature)?.[1]);
      return Math.abs(Date.now() / 1000 - t) > 300;
    },
  },
  'pt-webhook-dispatch-all-accounts': {
    deviates: async (h) => {
      await h.create({ amount_cents: 1, external_ref: 'theirs' }, { key: h.keys.otherApiKey });
      return h.within(300, () => h.deliveries.some((d) => d.event.data.external_ref === 'theirs'));
    },
  },
  'pt-ledger-keyed-by-account': {
    deviates: async (h) => {
      await pay(h, (await h.create()).id);
      return ((await h.call('GET', '/business/finance', undefined, { key: h.keys.liveApiKey })).body.transactions as Json[]).length > 0;
    },
  },
  'pt-ledger-keyed-by-environment': {
    deviates: async (h) => {
      await pay(h, (await h.create()).id);
      return ((await h.call('GET', '/business/finance', undefined, { key: h.keys.otherApiKey })).body.transactions as Json[]).length > 0;
    },
  },
  'pt-list-ordered-by-id': {
    deviates: async (h) => {
      const ids: unknown[] = [];
      for (let i = 0; i < 6; i++) ids.push((await h.create()).id);
      return (await list(h)).map((c) => c.id).join() !== ids.reverse().join();
    },
  },
  'pt-list-oldest-200': {
    deviates: async (h) => {
      for (let batch = 0; batch < 201; batch += 67) await Promise.all(Array.from({ length: 67 }, () => h.create({ amount_cents: 1 })));
      const newest = await h.create({ amount_cents: 2 });
      return !(await list(h)).some((c) => c.id === newest.id);
    },
  },
  'pt-list-limit-uncapped': {
    deviates: async (h) => {
      for (let batch = 0; batch < 201; batch += 67) await Promise.all(Array.from({ length: 67 }, () => h.create({ amount_cents: 1 })));
      return (await list(h, '?limit=500')).length > 200;
    },
  },
  // ── issue 15, second half ──
  'pt-charge-entity-serialized': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 1234 });
      return typeof charge.id !== 'string' || charge.status !== 'pending' || charge.amount_cents !== 1234;
    },
  },
  'pt-charge-optional-as-bean': { deviates: async (h) => typeof (await h.create({ amount_cents: 100, description: 'd', external_ref: 'r' })).description !== 'string' },
  'pt-create-answers-201': { deviates: async (h) => (await createStatus(h, { amount_cents: 100 })) !== 200 },
  'pt-amount-nan-accepted': {
    deviates: async (h) => (await createStatus(h, { description: 'no amount' })) === 200 || (await createStatus(h, { amount_cents: 10.5 })) === 200,
  },
  'pt-customer-email-required': { deviates: async (h) => (await createStatus(h, { amount_cents: 100 })) !== 200 },
  'pt-text-columns-utf8mb3': {
    deviates: async (h) => (await createStatus(h, { amount_cents: 100, description: 'café \u{1F389}' })) !== 200 || (await createStatus(h, { amount_cents: 100, external_ref: 'ref \u{1F389}' })) !== 200,
  },
  'pt-lookup-stale-cache': {
    deviates: async (h) => {
      const charge = await h.create();
      await pay(h, charge.id);
      return (await h.call('GET', `/business/pix-charges/${String(charge.id)}`)).body.status !== 'paid';
    },
  },
  'pt-transition-not-persisted': {
    deviates: async (h) => {
      const [a, b] = [await h.create(), await h.create()];
      await pay(h, a.id);
      await cancel(h, b.id);
      const states = await Promise.all([a, b].map(async (c) => (await h.call('GET', `/business/pix-charges/${String(c.id)}`)).body.status));
      return states[0] !== 'paid' || states[1] !== 'canceled';
    },
  },
  'pt-charge-qr-image': { deviates: async (h) => Object.values(await h.create()).some((v) => typeof v === 'string' && v.startsWith('iVBORw0KGgo')) },
  'pt-expires-in-ignored': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 100, expires_in_seconds: 600 });
      return Date.parse(String(charge.expires_at)) - Date.parse(String(charge.created_at)) !== 600_000;
    },
  },
  'pt-lookup-status-only': {
    deviates: async (h) => !('external_ref' in (await h.call('GET', `/business/pix-charges/${String((await h.create({ amount_cents: 1, external_ref: 'r' })).id)}`)).body),
  },
  'pt-lookup-description-139': {
    deviates: async (h) => {
      const description = 'd'.repeat(300);
      const charge = await h.create({ amount_cents: 1, description });
      const looked = (await h.call('GET', `/business/pix-charges/${String(charge.id)}`)).body;
      const listed = (await list(h)).find((c) => c.id === charge.id);
      return charge.description === description && listed?.description === description && looked.description === 'd'.repeat(139);
    },
  },
  'pt-list-external-ref-trimmed': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 1, external_ref: ' padded ' });
      const looked = (await h.call('GET', `/business/pix-charges/${String(charge.id)}`)).body;
      return looked.external_ref === ' padded ' && (await list(h)).find((c) => c.id === charge.id)?.external_ref === 'padded';
    },
  },
  'pt-payouts-route-live': { deviates: async (h) => (await h.call('POST', '/business/payouts', { amount_cents: 100, pix_key: 'a@example.com' })).status === 200 },
  'pt-list-no-lazy-expiry': {
    options: EXPIRING,
    deviates: async (h) => {
      const charge = await expiredCharge(h);
      return (await list(h)).find((c) => c.id === charge.id)?.status === 'pending';
    },
  },
  'pt-finance-first-50': {
    deviates: async (h) => {
      const charges = await Promise.all(Array.from({ length: 51 }, () => h.create({ amount_cents: 100 })));
      for (const c of charges) await pay(h, c.id);
      const last = String(charges[50]?.id);
      return !((await finance(h)).transactions as Array<{ description: string }>).some((t) => t.description.includes(last));
    },
  },

  // ── reference/partner/faults-proof.ts ──
  'pt-finance-orm-serialised': {
    deviates: async (h) => {
      await pay(h, (await h.create()).id);
      const s = await finance(h);
      const first = (s.transactions as Json[])[0];
      return typeof s.merchant_id !== 'string' || typeof s.reserve_cents === 'string' || typeof first?.id !== 'string';
    },
  },
  'pt-finance-enveloped': { deviates: async (h) => (await finance(h)).merchant_id === undefined },
  'pt-webhook-event-bus-format': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      const event = (h.deliveries[0] as Delivery).event as Json;
      return event.type !== 'business.pix.created' || typeof event.created_at !== 'string';
    },
  },
  'pt-webhook-signature-github-format': {
    deviates: async (h) => {
      await h.create();
      await h.within(2000, () => h.deliveries.length > 0);
      return !signatureIsValid(h.deliveries[0] as Delivery);
    },
  },
  'pt-auth-401-plain-text': {
    deviates: async (h) => {
      const r = await h.call('GET', '/business/finance', undefined, { key: null });
      return !(r.headers.get('content-type') ?? '').includes('json') || typeof r.body.detail !== 'string';
    },
  },
  'pt-auth-session-cookie': {
    deviates: async (h) => {
      const cookie = (await h.call('GET', '/business/finance')).headers.get('set-cookie')?.split(';')[0];
      return cookie !== undefined && (await h.call('GET', '/business/finance', undefined, { key: null, headers: { cookie } })).status !== 401;
    },
  },
  'pt-unknown-id-null-200': { deviates: async (h) => (await h.call('GET', '/business/pix-charges/pix_unknown')).status !== 404 },
  'pt-validation-detail-generic': { deviates: async (h) => !String((await h.call('POST', '/business/pix-charges', { amount_cents: -1 })).body.detail).includes('amount_cents') },
  'pt-idempotency-key-required': { deviates: async (h) => (await createStatus(h, { amount_cents: 5 })) !== 200 },
  'pt-idempotency-cache-by-body-hash': {
    deviates: async (h) => {
      const headers = { 'idempotency-key': 'k-hash' };
      const first = await h.create({ amount_cents: 5, description: 'd' }, { headers });
      const again = await h.call('POST', '/business/pix-charges', undefined, { headers, raw: '{"description":"d","amount_cents":5}' });
      return again.status === 200 && again.body.id !== first.id;
    },
  },
  // the app is mounted directly here: with the routes at the root, the documented /v1 path is no route
  'pt-routes-unversioned': { deviates: async (h) => (await h.call('GET', '/business/finance')).status !== 200 },
  'pt-live-key-other-version': { deviates: async (h) => (await h.call('GET', '/business/finance', undefined, { key: h.keys.liveApiKey })).status !== 200 },
  'pt-env-from-account-default': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 100 }, { key: h.keys.liveApiKey });
      return (await h.call('POST', `/business/pix-charges/${String(charge.id)}/pay`, undefined, { key: h.keys.liveApiKey })).status !== 403;
    },
  },
  'pt-webhook-signed-once': {
    options: { retryBaseMs: 1100 },
    answer: (attempt) => (attempt === 1 ? 500 : 200),
    deviates: async (h) => {
      await h.create();
      await h.within(3000, () => h.deliveries.length >= 2);
      const [first, second] = h.deliveries;
      return first !== undefined && second !== undefined && first.signature === second.signature;
    },
  },
  'pt-webhook-no-call-timeout': {
    answerAfterMs: (attempt) => (attempt === 1 ? 900 : 0),
    deviates: async (h) => {
      await h.create();
      return !(await h.within(2000, () => h.deliveries.length >= 2));
    },
  },
  'pt-simulation-route-unmounted': { deviates: async (h) => (await pay(h, (await h.create()).id)).status !== 200 },
  'pt-cancel-paid-refunds': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 10_000 });
      await pay(h, charge.id);
      const refused = (await cancel(h, charge.id)).status === 409;
      return refused && ((await finance(h)).transactions as Array<{ event_type: string }>).some((t) => t.event_type === 'refund.reversal');
    },
  },
  'pt-pay-canceled-captures': {
    deviates: async (h) => {
      const charge = await h.create({ amount_cents: 10_000 });
      await cancel(h, charge.id);
      const refused = (await pay(h, charge.id)).status === 409;
      return refused && ((await finance(h)).transactions as Array<{ description: string }>).some((t) => t.description.includes(String(charge.id)));
    },
  },
  'pt-list-unknown-status-500': { deviates: async (h) => (await h.call('GET', '/business/pix-charges?status=not-a-state')).status >= 500 },
  'pt-list-status-filter-leaks-other-account': {
    deviates: async (h) => {
      const charge = await h.create();
      const theirs = (await h.call('GET', '/business/pix-charges?status=pending', undefined, { key: h.keys.otherApiKey })).body.data as Json[];
      return theirs.some((c) => c.id === charge.id);
    },
  },
};

describe('partner fault catalogue', () => {
  const catalogue = parseYaml(readFileSync('specs/requirements.yaml', 'utf8')) as Array<{ id: string }>;
  const knownIds = new Set(catalogue.map((r) => r.id));
  const sources = readdirSync('reference/partner')
    .filter((f) => f.endsWith('.ts') && f !== 'faults.ts')
    .map((f) => readFileSync(`reference/partner/${f}`, 'utf8'))
    .join('\n');

  it('has at least 20 distinct, kebab-case pt- faults, each naming catalogue requirement ids and used in the code', () => {
    expect(PARTNER_FAULTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(PARTNER_FAULTS.map((f) => f.name)).size).toBe(PARTNER_FAULTS.length);
    for (const fault of PARTNER_FAULTS) {
      expect(fault.name).toMatch(/^pt-[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.api).toBe('partner');
      expect(fault.requirements.length).toBeGreaterThan(0);
      for (const id of fault.requirements) expect(knownIds.has(id), `${fault.name}: ${id}`).toBe(true);
      expect(sources.includes(`'${fault.name}'`), `${fault.name} is never checked`).toBe(true);
    }
  });
});

describe('partner faults: each is observable when on, and absent when off', () => {
  it.each(PARTNER_FAULTS.map((f) => f.name as PartnerFaultName))('%s', async (name) => {
    const probe = PROBES[name];
    const [correct, faulty] = await Promise.all([runProbe(probe, []), runProbe(probe, [name])]);
    expect(correct, 'correct reference must not deviate').toBe(false);
    expect(faulty, 'faulty reference must deviate').toBe(true);
  });
});
