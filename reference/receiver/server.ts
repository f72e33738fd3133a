/**
 * The reference receiver: a webhook consumer written the way both contracts ask, to prove the
 * receiver suite (suites/receiver/) passes a correct endpoint and catches each fault of ./faults.ts.
 * node:http only; independent of the harness (reference/ and the suite never import each other).
 *
 *   POST /gateway   gateway events: ServiceGateway-Signature `t=<epoch>,v1=<hex HMAC>` over
 *                   `<t>.<raw body>` (the raw body is one reading of "JSON of the payload")
 *   POST /partner   partner events: X-Service-Signature over `<t>.<raw request body>`, 300 s tolerance
 *   GET  /gateway/state, /partner/state   the read-back hook: { processed: [{ eventId, endToEndId, count }] }
 *
 * Correct behaviour: verify (constant-time) before anything; answer 200 at once and process on the
 * next tick ("answers 2xx quickly and processes asynchronously"); deduplicate by event id, and the
 * paid effect by end-to-end id (gateway) / e2e_id or external_ref (partner); ignore unknown fields.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseReceiverFaults } from './faults.js';
import type { ReceiverFault } from './faults.js';

export type Scheme = 'gateway' | 'partner';
const HEADER: Record<Scheme, string> = { gateway: 'servicegateway-signature', partner: 'x-service-signature' };
const TOLERANCE_SECONDS = 300;
const MAX_BODY_BYTES = 1024 * 1024;
/** the body-limit-100kb fault's limit: the default of common JSON body parsers */
const FAULTY_BODY_BYTES = 100 * 1000;

/** Fields each scheme's events are known to carry, for the reject-unknown-fields fault. */
const KNOWN: Record<Scheme, ReadonlySet<string>> = {
  gateway: new Set(['id', 'type', 'event', 'scope', 'transaction', 'transfer', 'infraction']),
  partner: new Set(['id', 'type', 'created_at', 'data']),
};

export interface ReceiverOptions {
  secret: string;
  faults?: Iterable<ReceiverFault> | string;
  port?: number;
  host?: string;
  /** answer delay of the answer-slowly fault (default 2500 ms) */
  slowMs?: number;
}

export interface RunningReferenceReceiver {
  /** base URL, e.g. http://127.0.0.1:4321; endpoints at /gateway and /partner */
  url: string;
  endpoint(scheme: Scheme): string;
  stateUrl(scheme: Scheme): string;
  faults: ReadonlySet<ReceiverFault>;
  close(): Promise<void>;
}

interface Entry {
  eventId: string;
  endToEndId: string | null;
  count: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `t=<digits>,v1=<value>` → parts, or undefined. */
function parseHeader(value: string | undefined): { t: string; v1: string } | undefined {
  if (value === undefined) return undefined;
  const items = new Map(value.split(',').map((p) => p.trim().split('=', 2) as [string, string | undefined]));
  const t = items.get('t');
  const v1 = items.get('v1');
  if (t === undefined || v1 === undefined || !/^\d+$/.test(t)) return undefined;
  return { t, v1 };
}

function verify(scheme: Scheme, raw: Buffer, header: string | undefined, secret: string, faults: ReadonlySet<ReceiverFault>): string | undefined {
  if (faults.has('accept-bad-signature')) return undefined;
  if (faults.has('accept-unsigned') && header === undefined) return undefined;
  const parsed = parseHeader(header);
  if (parsed === undefined) return 'missing or malformed signature header';
  let signed: Buffer = raw;
  if (faults.has('verify-reserialized')) {
    try {
      signed = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
    } catch {
      return 'body is not JSON';
    }
  }
  const digest = createHmac('sha256', secret).update(`${parsed.t}.`).update(signed).digest();
  if (faults.has('uppercase-only-digest')) {
    const expected = Buffer.from(digest.toString('hex').toUpperCase());
    const given = Buffer.from(parsed.v1);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature mismatch';
  } else {
    // hex of either case (partner "hex"; gateway sends lowercase, the same digest either way)
    if (!/^[0-9a-fA-F]{64}$/.test(parsed.v1)) return 'v1 is not a hex HMAC-SHA256';
    if (!timingSafeEqual(Buffer.from(parsed.v1, 'hex'), digest)) return 'signature mismatch';
  }
  if (scheme === 'partner' && !faults.has('ignore-timestamp-tolerance')) {
    if (Math.abs(Date.now() / 1000 - Number(parsed.t)) > TOLERANCE_SECONDS) return 'timestamp outside the 300 s tolerance';
  }
  return undefined;
}

function pick(v: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), v);
}

/** Starts the reference receiver; `port` 0 (default) picks a free port. */
export async function startReferenceReceiver(options: ReceiverOptions): Promise<RunningReferenceReceiver> {
  const faults: ReadonlySet<ReceiverFault> = typeof options.faults === 'string' || options.faults === undefined ? parseReceiverFaults(options.faults) : new Set(options.faults);
  const slowMs = options.slowMs ?? 2500;
  const state: Record<Scheme, Map<string, Entry>> = { gateway: new Map(), partner: new Map() };
  /** dedupe keys of applied paid effects: end-to-end id (gateway); e2e_id and external_ref (partner) */
  const paidKeys: Record<Scheme, Set<string>> = { gateway: new Set(), partner: new Set() };
  /** event ids received (conflict-on-duplicate), and payments whose created event was processed (drop-paid-before-created) */
  const received: Record<Scheme, Set<string>> = { gateway: new Set(), partner: new Set() };
  const created: Record<Scheme, Set<string>> = { gateway: new Set(), partner: new Set() };

  /** The payment an event is about: the transaction or transfer id (gateway), the external_ref (partner). */
  function paymentOf(event: Record<string, unknown>): unknown {
    return pick(event, 'transaction', 'id') ?? pick(event, 'transfer', 'id') ?? pick(event, 'data', 'external_ref');
  }

  function apply(scheme: Scheme, event: Record<string, unknown>): void {
    const eventId = String(event['id']);
    const e2e = pick(event, 'transaction', 'pix', 'endToEndId') ?? pick(event, 'transfer', 'pix', 'endToEndId') ?? pick(event, 'data', 'e2e_id');
    const endToEndId = typeof e2e === 'string' ? e2e : null;
    const entry = state[scheme].get(eventId) ?? { eventId, endToEndId, count: 0 };
    state[scheme].set(eventId, entry);
    const duplicates = !faults.has('process-duplicates');
    if (duplicates && entry.count > 0) return; // the same event id again: acknowledged, not processed
    const name = scheme === 'gateway' ? event['event'] : event['type'];
    const paid = name === 'transaction_paid' || name === 'transfer_completed' || name === 'business.pix.paid';
    const payment = paymentOf(event);
    if (name === 'transaction_created' || name === 'transfer_created' || name === 'business.pix.created') created[scheme].add(String(payment));
    if (paid && faults.has('drop-paid-before-created') && !created[scheme].has(String(payment))) return;
    if (paid && duplicates && !faults.has('dedupe-event-id-only')) {
      const ref = pick(event, 'data', 'external_ref');
      const keys = [endToEndId, scheme === 'partner' && typeof ref === 'string' ? `ref:${ref}` : null].filter((k): k is string => k !== null);
      if (keys.some((k) => paidKeys[scheme].has(k))) return; // the same payment by another event: credited once
      for (const k of keys) paidKeys[scheme].add(k);
    }
    entry.count += 1;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const m = /^\/(gateway|partner)(\/state)?$/.exec(path);
    if (!m) return send(res, 404, { error: 'not found' });
    const scheme = m[1] as Scheme;
    if (m[2] !== undefined) {
      if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
      return send(res, 200, { processed: [...state[scheme].values()] });
    }
    if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
    const raw = await readBody(req, faults.has('body-limit-100kb') ? FAULTY_BODY_BYTES : MAX_BODY_BYTES);
    if (raw === undefined) return send(res, 413, { error: 'body too large' });
    const header = req.headers[HEADER[scheme]];
    const problem = verify(scheme, raw, Array.isArray(header) ? header.join(',') : header, options.secret, faults);
    if (problem !== undefined) return send(res, 401, { error: problem });
    let event: unknown;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    if (!isRecord(event) || typeof event['id'] !== 'string') return send(res, 400, { error: 'not an event' });
    if (faults.has('reject-unknown-fields')) {
      const unknown = Object.keys(event).filter((k) => !KNOWN[scheme].has(k));
      if (unknown.length > 0) return send(res, 422, { error: `unknown fields: ${unknown.join(', ')}` });
    }
    if (faults.has('conflict-on-duplicate')) {
      if (received[scheme].has(event['id'])) return send(res, 409, { error: 'event already received' });
      received[scheme].add(event['id']);
    }
    if (faults.has('answer-slowly')) await new Promise((resolve) => setTimeout(resolve, slowMs));
    const accepted = event;
    setImmediate(() => apply(scheme, accepted));
    send(res, 200, { received: true });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    endpoint: (scheme) => `${url}/${scheme}`,
    stateUrl: (scheme) => `${url}/${scheme}/state`,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
