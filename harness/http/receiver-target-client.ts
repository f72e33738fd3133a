/**
 * Delivers webhook events to the receiver target (an integrator's endpoint) the way the platform
 * does, and reads its optional read-back hook. Every exchange goes to the observer (the check's
 * CheckRun) with the endpoint secret redacted; the signature header is an HMAC, not a secret.
 */
import { HttpClient } from './client.js';
import type { ExchangeObserver, HttpResult } from './client.js';
import { defaultRedactor } from './redact.js';
import type { ReceiverTarget } from '../config/receiver-target.js';
import { isRecord } from '../core/json.js';

/** One entry of the read-back hook's `processed` list (README "Receiver conformance"). */
export interface ProcessedEntry {
  eventId: string;
  endToEndId?: string | null;
  count: number;
}

export type StateRead = { ok: true; entries: ProcessedEntry[]; result: HttpResult } | { ok: false; problem: string; result?: HttpResult };

/** Parses `{ "processed": [ { "eventId", "endToEndId"?, "count" } ] }`; a string says what is wrong. */
export function parseReceiverState(json: unknown): ProcessedEntry[] | string {
  if (!isRecord(json) || !Array.isArray(json['processed'])) return 'expected a JSON object with a "processed" array';
  const entries: ProcessedEntry[] = [];
  for (const [i, raw] of (json['processed'] as unknown[]).entries()) {
    if (!isRecord(raw) || typeof raw['eventId'] !== 'string' || typeof raw['count'] !== 'number' || !Number.isInteger(raw['count']) || raw['count'] < 0) {
      return `processed[${i}] must be { "eventId": string, "count": integer >= 0, "endToEndId"?: string | null }`;
    }
    const e2e = raw['endToEndId'];
    entries.push({ eventId: raw['eventId'], count: raw['count'], ...((typeof e2e === 'string' || e2e === null) && { endToEndId: e2e }) });
  }
  return entries;
}

/** Sum of counts for these event ids. */
export function countFor(entries: readonly ProcessedEntry[], eventIds: readonly string[]): number | undefined {
  const hits = entries.filter((e) => eventIds.includes(e.eventId));
  return hits.length === 0 ? undefined : hits.reduce((n, e) => n + e.count, 0);
}

const clients = new Map<string, HttpClient>();

function clientFor(url: URL, api: ReceiverTarget['scheme'], timeoutMs: number): HttpClient {
  const key = `${api} ${url.origin} ${timeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    // gateway "Callback headers": User-Agent | Gateway
    client = new HttpClient({ api, baseUrl: url.origin, timeoutMs, connections: 16, ...(api === 'gateway' && { userAgent: 'Gateway' }), max429Retries: 0 });
    clients.set(key, client);
  }
  return client;
}

/** How long the suite waits for one answer: partner 10 s per call (+ margin) by contract; gateway "not shown": 15 s of our patience. */
export function deliveryTimeoutMs(scheme: ReceiverTarget['scheme']): number {
  return scheme === 'partner' ? 10_500 : 15_000;
}

export class ReceiverTargetClient {
  constructor(
    readonly target: ReceiverTarget,
    private readonly observer: ExchangeObserver,
  ) {
    defaultRedactor.register(target.secret, 'RECEIVER_SIGNATURE_SECRET');
  }

  /** POSTs `rawBody` exactly as given to the endpoint, with these headers (Content-Type application/json unless given). */
  deliver(rawBody: string, headers: Record<string, string>): Promise<HttpResult> {
    const url = new URL(this.target.url);
    return clientFor(url, this.target.scheme, deliveryTimeoutMs(this.target.scheme)).request({
      api: this.target.scheme,
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      rawBody,
      contentType: 'application/json',
      headers,
      retryOn429: false,
      observers: [this.observer],
    });
  }

  /** Reads the hook once; `ok: false` with the problem when absent or malformed. */
  async readState(): Promise<StateRead> {
    if (this.target.stateUrl === undefined) return { ok: false, problem: 'RECEIVER_STATE_URL not set' };
    const url = new URL(this.target.stateUrl);
    const result = await clientFor(url, this.target.scheme, 10_000).request({ api: this.target.scheme, method: 'GET', path: `${url.pathname}${url.search}`, retryOn429: false });
    if (result.status !== 200) return { ok: false, problem: `RECEIVER_STATE_URL answered ${result.status === 0 ? (result.exchange.error ?? 'nothing') : result.status}`, result };
    const parsed = parseReceiverState(result.json);
    if (typeof parsed === 'string') return { ok: false, problem: `RECEIVER_STATE_URL: ${parsed}`, result };
    return { ok: true, entries: parsed, result };
  }
}
