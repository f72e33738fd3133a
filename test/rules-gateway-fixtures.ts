/**
 * Fake observations for the gateway rule unit tests (no HTTP): exchanges, answers and deliveries; a
 * rule sees only plain data.
 */
import type { Exchange } from '../harness/core/exchange.js';
import type { Judgement, Severity } from '../harness/rules/finding.js';
import type { GatewayDelivery } from '../harness/rules/gateway/webhooks.js';
import { signGateway } from '../harness/webhooks/signatures.js';

let seq = 0;

export function exchange(status: number | undefined, json?: unknown, options: { url?: string; operation?: string; body?: string } = {}): Exchange {
  seq += 1;
  const body = options.body ?? (json === undefined ? '' : JSON.stringify(json));
  const ex: Exchange = {
    seq,
    api: 'gateway',
    operation: options.operation ?? 'GET /api/v1/thing',
    request: { method: 'GET', url: options.url ?? 'http://127.0.0.1:9/api/v1/thing', headers: {} },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    curl: 'curl …',
  };
  if (status === undefined) ex.error = 'ECONNRESET';
  else ex.response = { status, headers: {}, body, ...(json !== undefined ? { json } : {}) };
  return ex;
}

export interface FakeAnswer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

export function answer(status: number, json?: unknown, options: { url?: string; body?: string } = {}): FakeAnswer {
  return { status, json, exchange: exchange(status, json, options) };
}

export function delivery(json: unknown, options: { headers?: Record<string, string>; secret?: string; t?: string; raw?: string; seq?: number } = {}): GatewayDelivery {
  const raw = options.raw ?? JSON.stringify(json);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Gateway', ...options.headers };
  if (options.secret !== undefined) headers['servicegateway-signature'] = signGateway({ secret: options.secret, body: raw, ...(options.t !== undefined ? { timestamp: options.t } : {}) });
  return { seq: options.seq ?? 1, path: '/gw/x', method: 'POST', headers, rawBody: Buffer.from(raw), receivedAt: Date.now(), bodyText: raw, json };
}

/** The codes and severities a judgement found, e.g. ["failure:atomicity.confirmed-twice"]. */
export function found(j: Judgement): string[] {
  return j.findings.map((f) => `${f.severity}:${f.code}`);
}

/** An exchange answered with `status` and `body` (an object is sent as JSON; a string as it is). */
export function answered(status: number, body: unknown = '', request: { method?: string; path?: string } = {}): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  const path = request.path ?? '/api/v1/pix/in/qrcode';
  const response = { status, headers: { 'content-type': 'application/json' }, body: text, ...(json !== undefined ? { json } : {}) };
  return {
    seq: ++seq,
    api: 'gateway',
    request: { method: request.method ?? 'POST', url: `http://127.0.0.1:1${path}`, path, headers: {} },
    response,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    curl: 'curl …',
  };
}

/** An exchange that got no response at all. */
export function unanswered(): Exchange {
  return { seq: ++seq, api: 'gateway', request: { method: 'GET', url: 'http://127.0.0.1:1/api/v1/balance', path: '/api/v1/balance', headers: {} }, error: 'ECONNREFUSED', startedAt: new Date(0).toISOString(), durationMs: 1, curl: 'curl …' };
}

/** The severities a judgement found, in order ([] when it conforms). */
export function severities(j: Judgement): Severity[] {
  return j.findings.map((f) => f.severity);
}

/** The codes a judgement found. */
export function codes(j: Judgement): string[] {
  return j.findings.map((f) => f.code);
}
