/**
 * Fake observations for the gateway rule unit tests (no HTTP): exchanges, answers and deliveries.
 */
import type { Exchange } from '../harness/http/exchange.js';
import type { Judgement } from '../harness/rules/finding.js';
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
