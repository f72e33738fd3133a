/**
 * The suite's HTTP layer: one {@link HttpClient} per API base address (an undici `Pool`, keep-alive).
 *
 * Every request becomes an {@link Exchange} (secrets redacted, curl attached) handed to the client's
 * listeners, the per-request observers and the process-wide listeners, whatever happened:
 * - a response of any status is returned, never thrown (the caller decides what it means);
 * - a network error or our own timeout yields an exchange with `error` and no response (`status 0`);
 * - 429 is retried after `Retry-After` (capped), a bounded number of times; every attempt is
 *   recorded; when retries run out the 429 exchange is returned as is;
 * - SAFETY: a request marked `moneyMoving` with `credentialEnvironment: 'production'` is refused
 *   before anything is sent (HarnessError `safety.money-moving-production`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { Exchange } from '../core/exchange.js';
import { recordExchange } from './exchange.js';
import { parseJsonText } from '../core/json.js';
import { HarnessError } from '../core/errors.js';
import { defaultRedactor } from './redact.js';
import type { Redactor } from './redact.js';
import { parseRetryAfter, processRateLimiter, runPauses } from './rate-limit.js';
import { proxyDispatcher } from './transport.js';
import { enterRequest, requestKinds } from './quiet-lane.js';
import type { RateLimiter } from './rate-limit.js';
import { CHECK_HEADER, currentCheck } from './check-context.js';
import { headerKind } from './target-network.js';
import type { TargetNetwork } from './target-network.js';
import { userAgent } from '../version.js';

export type ApiName = 'gateway' | 'partner';
export type CredentialEnvironment = 'sandbox' | 'production';

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  api: ApiName;
  method: string;
  /** path relative to the API base address, starting with `/` (partner: after the `/v1` base) */
  path: string;
  query?: Record<string, QueryValue | QueryValue[]> | URLSearchParams;
  /** extra headers; names case-insensitive. Set `authorization` here. */
  headers?: Record<string, string>;
  /** a value serialised with JSON.stringify (content type `application/json` unless overridden) */
  json?: unknown;
  /** a body sent byte for byte (malformed JSON, wrong content types); wins over `json` */
  rawBody?: string | Buffer;
  /** the Content-Type header for `rawBody`/`json` (a header in `headers` wins) */
  contentType?: string;
  /** per-request timeout, whole exchange including the body (default: the client's, 15 s) */
  timeoutMs?: number;
  /** spec operation label for the exchange, e.g. `POST /api/v1/pix/in/qrcode` */
  operation?: string;
  /** true for requests that can move real money (PIX transfer, card charge) */
  moneyMoving?: boolean;
  /** the environment of the credential sent; with `moneyMoving` and `production`, the request is refused */
  credentialEnvironment?: CredentialEnvironment;
  /** retry on 429 (default true) */
  retryOn429?: boolean;
  /** called with every exchange of this request (each 429 attempt included) */
  observers?: ExchangeObserver[];
}

/** What a request produced. `json` is the UNREDACTED parse: use it, never print it. */
export interface HttpResult {
  /** HTTP status, or 0 when no response arrived (see `exchange.error`) */
  status: number;
  /** response headers, names lower-case (repeated headers joined with `, `) */
  headers: Record<string, string>;
  /** response body text as received (unredacted) */
  text: string;
  /** parsed body when it parses as JSON, else undefined (unredacted) */
  json: unknown;
  /** the recorded (redacted) exchange */
  exchange: Exchange;
  /** the client sends the request again after this answer (a 429 with retries left) */
  retried?: true;
}

/** Receives every exchange with the raw result (for validation against unredacted data). */
export interface ExchangeObserver {
  observe(exchange: Exchange, result: HttpResult): void;
}

export type ExchangeListener = (exchange: Exchange, result: HttpResult) => void;

export interface HttpClientOptions {
  /** the API base address: gateway `{base_url}`, partner `{partner_base_url}` ending in `/v1` */
  baseUrl: string;
  api: ApiName;
  /** pool size (default 8) */
  connections?: number;
  /** default per-request timeout in ms (default 15000) */
  timeoutMs?: number;
  /** process-wide request-rate cap (requests per second); unset or 0 = none */
  maxRps?: number;
  /** retries after a 429 (default 3) */
  max429Retries?: number;
  /** upper bound of one wait after a 429 (default 10000 ms) */
  maxRetryAfterMs?: number;
  redactor?: Redactor;
  /** header `user-agent` (default `paygate-conformance/<version>`) */
  userAgent?: string;
  /**
   * the target's own settings (harness/http/target-network.ts): a time limit, extra headers
   * (redacted in every record), a client certificate; only for clients of the target under test
   */
  target?: TargetNetwork;
}

/**
 * Overrides the dispatcher for requests to one origin inside a scope; harness/http/burst.ts uses it
 * to put each request of a burst on its own pre-connected connection.
 */
export interface DispatchScope {
  origin: string;
  dispatcher: Dispatcher;
  /** the burst already reserved its rate slots */
  skipRateLimit?: boolean;
  /** the burst already holds the quiet-account lanes for all its requests (quiet-lane.ts) */
  laneHeld?: boolean;
}
export const dispatchScope = new AsyncLocalStorage<DispatchScope>();

/** Next run-unique exchange sequence number (harness/http/exchange.ts keeps the counter). */
export { nextExchangeSeq } from './exchange.js';

const globalListeners = new Set<ExchangeListener>();
/** Subscribes to every exchange of every client in this process (report collectors). Returns an unsubscribe function. */
export function onAnyExchange(listener: ExchangeListener): () => void {
  globalListeners.add(listener);
  return () => globalListeners.delete(listener);
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  // for…in: undici's header object is a plain object (no entries array per response)
  for (const k in raw) {
    const v = raw[k];
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

const parseJson = parseJsonText;

function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = query instanceof URLSearchParams ? query : new URLSearchParams();
  if (!(query instanceof URLSearchParams)) {
    for (const [k, v] of Object.entries(query)) {
      for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) params.append(k, String(item));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function isTimeout(err: unknown): boolean {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

export class HttpClient {
  readonly api: ApiName;
  /** base address without trailing slash */
  readonly baseUrl: string;
  /** `protocol://host:port` */
  readonly origin: string;
  readonly redactor: Redactor;
  private readonly basePath: string;
  /** a direct keep-alive pool, or the process's proxy agent when HTTPS_PROXY/--proxy applies (harness/http/transport.ts) */
  private readonly pool: Dispatcher;
  private readonly timeoutMs: number;
  private readonly limiter: RateLimiter | undefined;
  private readonly max429Retries: number;
  private readonly maxRetryAfterMs: number;
  private readonly userAgent: string;
  private readonly extraHeaders: readonly (readonly [string, string])[];
  private readonly listeners = new Set<ExchangeListener>();
  /** the pool is the shared proxy agent: never closed by one client */
  private readonly proxied: boolean;

  constructor(options: HttpClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new HarnessError('config.base-url', `not a URL: ${JSON.stringify(options.baseUrl)}`);
    }
    this.api = options.api;
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = `${this.origin}${this.basePath}`;
    const tls = url.protocol === 'https:' ? options.target?.tls : undefined;
    this.pool = proxyDispatcher(this.origin, undefined, options.connections, tls) ?? new Pool(this.origin, { connections: options.connections ?? 8, pipelining: 1, ...(tls !== undefined && { connect: { ...tls } }) });
    this.proxied = !(this.pool instanceof Pool);
    this.timeoutMs = options.timeoutMs ?? options.target?.timeoutMs ?? 15_000;
    this.limiter = processRateLimiter(options.maxRps);
    this.max429Retries = options.max429Retries ?? 3;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.redactor = options.redactor ?? defaultRedactor;
    this.userAgent = options.userAgent ?? userAgent();
    this.extraHeaders = options.target?.headers ?? [];
    for (const [name, value] of this.extraHeaders) this.redactor.registerHeader(name, value, headerKind(name));
  }

  /** Subscribes to every exchange of this client. Returns an unsubscribe function. */
  onExchange(listener: ExchangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends a request (retrying 429s) and returns the last attempt's result. Never throws for what
   * the target does; throws HarnessError only for the safety guard or a malformed request option.
   */
  async request(options: RequestOptions): Promise<HttpResult> {
    if (options.moneyMoving && options.credentialEnvironment === 'production') {
      throw new HarnessError(
        'safety.money-moving-production',
        `refused to send ${options.method} ${options.path}: it can move money and the credential is a production one`,
      );
    }
    if (!options.path.startsWith('/')) {
      throw new HarnessError('http.path', `request path must start with "/": ${JSON.stringify(options.path)}`);
    }
    for (let attempt = 0; ; attempt++) {
      // a Retry-After another worker got from this API holds this request too (rate-limit.ts)
      const pause = runPauses.pending(this.api);
      if (pause) await pause;
      // a 429 to this attempt is sent again
      const retryable = options.retryOn429 !== false && attempt < this.max429Retries;
      const result = await this.laned(options, retryable);
      if (!(result.status === 429 && retryable)) return result;
      const advised = parseRetryAfter(result.headers['retry-after']);
      const wait = Math.min(advised ?? 250 * 2 ** attempt, this.maxRetryAfterMs);
      if (advised !== undefined) runPauses.report(this.api, wait);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** A request holds its kind's quiet-account lane of the API while it is in flight (harness/http/quiet-lane.ts). */
  private async laned(options: RequestOptions, retryable: boolean): Promise<HttpResult> {
    const scope = dispatchScope.getStore();
    const scoped = scope !== undefined && scope.origin === this.origin ? scope : undefined;
    if (scoped?.laneHeld === true) return this.once(options, retryable, scoped);
    const end = await enterRequest(this.api, requestKinds(options.method, options.operation));
    try {
      return await this.once(options, retryable, scoped);
    } finally {
      end();
    }
  }

  /**
   * One attempt; `retryable`: the client sends it again after a 429. `scoped`: the dispatch scope of
   * this origin the request runs in, if any.
   */
  private async once(options: RequestOptions, retryable: boolean, scoped: DispatchScope | undefined): Promise<HttpResult> {
    const q = options.path.indexOf('?');
    const pathOnly = q < 0 ? options.path : options.path.slice(0, q);
    const inlineQuery = q < 0 ? undefined : options.path.slice(q + 1);
    const query = inlineQuery ? `?${inlineQuery}${buildQuery(options.query).replace(/^\?/, '&')}` : buildQuery(options.query);
    const requestPath = `${this.basePath}${pathOnly}${query}`;
    const url = `${this.origin}${requestPath}`;

    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    // the check that sent it, so the target's logs can be matched with the report
    const check = currentCheck();
    if (check !== undefined) headers[CHECK_HEADER] = check;
    // the target's own headers (--header); a request's own headers win
    for (const [name, value] of this.extraHeaders) headers[name.toLowerCase()] = value;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      if (options.contentType) headers['content-type'] = options.contentType;
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;

    if (this.limiter && !scoped?.skipRateLimit) await this.limiter.take();
    const dispatcher: Dispatcher = scoped?.dispatcher ?? this.pool;

    // undici's own timers (no AbortController and timer per request): the answer's headers, then
    // each stretch of the body, must come within the timeout
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const startedAt = new Date();
    const t0 = performance.now();
    let status = 0;
    let responseHeaders: Record<string, string> = {};
    let text = '';
    let error: string | undefined;
    try {
      const res = await dispatcher.request({
        // a Pool ignores it; an agent (proxy) needs it
        origin: this.origin,
        path: requestPath,
        method: options.method.toUpperCase() as Dispatcher.HttpMethod,
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      responseHeaders = headerRecord(res.headers);
      text = Buffer.from(await res.body.arrayBuffer()).toString('utf8');
    } catch (err) {
      error = isTimeout(err) ? `timeout after ${timeoutMs} ms` : describeError(err);
      if (status !== 0) error = `${error} (while reading the body of a ${status} response)`;
      status = 0;
    }
    const durationMs = Math.round((performance.now() - t0) * 10) / 10;
    const json = parseJson(text);
    const exchange = recordExchange(this.redactor, {
      api: options.api,
      operation: options.operation,
      method: options.method.toUpperCase(),
      url,
      path: pathOnly,
      headers,
      body,
      startedAt,
      durationMs,
      status,
      responseHeaders,
      text,
      json,
      error,
    });

    const result: HttpResult = { status, headers: responseHeaders, text, json, exchange };
    if (status === 429 && retryable) result.retried = true;
    for (const l of this.listeners) l(exchange, result);
    for (const o of options.observers ?? []) o.observe(exchange, result);
    for (const l of globalListeners) l(exchange, result);
    return result;
  }

  /** Closes the pool after in-flight requests finish. */
  async close(): Promise<void> {
    if (!this.proxied) await this.pool.close();
  }

  /** Closes the pool at once, aborting in-flight requests. */
  async destroy(): Promise<void> {
    if (!this.proxied) await this.pool.destroy();
  }
}
