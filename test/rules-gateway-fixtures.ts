// Fake gateway exchanges for the rule unit tests (no HTTP): a rule sees only plain data.
import type { Exchange } from '../harness/http/exchange.js';
import type { Judgement, Severity } from '../harness/rules/finding.js';

let seq = 0;

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
