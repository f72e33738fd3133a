/**
 * Gateway API client: one method per documented operation (gateway-api.md "Endpoints"). Every call
 * goes through harness/http/client.ts (recorded, redacted, rate-capped) and is handed to the client's
 * observer (a CheckRun, which validates every response against the contract).
 *
 * Methods return whatever the target answered ({@link ApiResponse}); they throw only for harness
 * problems (safety guard, failed authentication: AuthFailedError).
 * Bodies are `unknown` so negative tests can send anything; the interfaces below type the happy path.
 */
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../core/exchange.js';
import type { CredentialEnvironment, ExchangeObserver, HttpClient, HttpResult, RequestOptions } from './client.js';
import type { GatewayTokenManager } from './auth.js';
import { basicAuthorization } from './auth.js';
import type { GatewayCredentials } from '../config/target.js';
import { SecretKinds, registerPairSecrets } from './redact.js';

/** What an API call produced. `json` is the UNREDACTED parse (use it; print `exchange` instead). */
export interface ApiResponse {
  /** HTTP status, 0 when no response arrived (`exchange.error` says why) */
  status: number;
  json: unknown;
  /** response headers, lower-case names */
  headers: Record<string, string>;
  exchange: Exchange;
}

/** The ApiResponse of a harness request (both clients). */
export function toResponse(r: HttpResult): ApiResponse {
  return { status: r.status, json: r.json, headers: r.headers, exchange: r.exchange };
}

/**
 * The send options of one documented call: `extra` (the client's own, e.g. `auth`) merged with the
 * caller's per-call options; a raw body wins over `body`. Shared by both clients.
 */
export function callOptions<T extends Omit<RequestOptions, 'api' | 'observers' | 'credentialEnvironment'>>(
  method: string, path: string, operation: string, body: unknown, opts: CallOptions, extra: Partial<T>,
): T {
  const options = { method, path, operation, ...extra } as T;
  if (opts.headers || extra.headers) options.headers = { ...extra.headers, ...opts.headers };
  if (opts.timeoutMs !== undefined) options.timeoutMs = opts.timeoutMs;
  if (opts.retryOn429 !== undefined) options.retryOn429 = opts.retryOn429;
  if (opts.rawBody !== undefined) options.rawBody = opts.rawBody;
  else if (body !== undefined) options.json = body;
  if (opts.contentType !== undefined) options.contentType = opts.contentType;
  return options;
}

/** Extra per-call options (negative tests, timing). */
export interface CallOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** send this text instead of the JSON body */
  rawBody?: string | Buffer;
  contentType?: string;
  retryOn429?: boolean;
}

export interface BillingAddress {
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  state: string;
  zipCode: string;
}

export interface TrackingParameters {
  src?: string;
  sck?: string;
  utm_source?: string;
  utm_campaign?: string;
  utm_medium?: string;
  utm_content?: string;
  utm_term?: string;
}

/** POST /api/v1/pix/in/qrcode body. */
export interface PixChargeRequest {
  amountInCents: number;
  customer: {
    documentType: 'cpf' | 'cnpj';
    document: string;
    name?: string;
    email?: string;
    phone?: string;
    billingAddress?: BillingAddress;
  };
  description?: string;
  postbackUrl?: string;
  items?: { title: string; tangible: boolean; quantity: number; amountInCents: number; shippingAddress?: Record<string, unknown> }[];
  trackingParameters?: TrackingParameters;
  splits?: { email: string; percentage: number }[];
}

/** POST /api/v1/pix/out/pixkey body. */
export interface TransferRequest {
  pixKey: string;
  amount: number;
  currency?: 'BRL';
  description?: string;
  postbackUrl?: string;
}

/** POST /api/v1/card body. */
export interface CardChargeRequest {
  amountInCents: number;
  currency: 'USD' | 'EUR';
  description?: string;
  postbackUrl?: string;
  card: { token: string; last4: string; brand: string; holderName: string; installments?: number };
  customer: {
    name: string;
    documentType: 'cpf' | 'cnpj';
    document: string;
    email: string;
    phone?: string;
    billingAddress: BillingAddress;
  };
  trackingParameters?: TrackingParameters;
}

/** POST /api/v1/webhook body. */
export interface WebhookRequest {
  url: string;
  events: string[];
}

/** How a raw call authenticates: the managed token (default), none, or an explicit header value. */
export type GatewayAuthMode = 'token' | 'none' | { authorization: string };

export interface GatewaySendOptions extends Omit<RequestOptions, 'api' | 'observers' | 'credentialEnvironment'> {
  auth?: GatewayAuthMode;
}

export interface GatewayClientOptions {
  http: HttpClient;
  tokens: GatewayTokenManager;
  /** receives every exchange (a CheckRun) */
  observer?: ExchangeObserver;
}

const enc = encodeURIComponent;

/** Marks a rejection handled (see {@link GatewayClient.send}); one function for every request. */
const handled = (): undefined => undefined;

export class GatewayClient {
  readonly http: HttpClient;
  readonly tokens: GatewayTokenManager;
  readonly observer: ExchangeObserver | undefined;

  constructor(options: GatewayClientOptions) {
    this.http = options.http;
    this.tokens = options.tokens;
    this.observer = options.observer;
    this.observerList = options.observer ? [options.observer] : [];
  }

  /** The environment of this client's credential pair (`live` pair → production). */
  get environment(): CredentialEnvironment {
    return this.tokens.environment;
  }

  /** The same client reporting to another observer. */
  withObserver(observer: ExchangeObserver | undefined): GatewayClient {
    return new GatewayClient({ http: this.http, tokens: this.tokens, observer });
  }

  /** the observer list every request of this client carries (read only by harness/http/client.ts) */
  private readonly observerList: ExchangeObserver[];

  /**
   * Any request (negative tests): `auth` 'token' (default; renewed once after a 401), 'none', or an
   * explicit `Authorization` value.
   */
  send(options: GatewaySendOptions): Promise<ApiResponse> {
    const sending = this.sendNow(options);
    // a check may start several calls and await them in turn: when the token cannot be had, the
    // first await throws and the others would surface as "unhandled rejections" (vitest pseudo-errors).
    // Marked handled here; every caller that awaits still gets the rejection.
    sending.catch(handled);
    return sending;
  }

  private async sendNow(options: GatewaySendOptions): Promise<ApiResponse> {
    const auth = options.auth ?? 'token';
    // one options object per request (this runs for every request of the suite): `auth` rides
    // along unread by the HTTP client
    const base: RequestOptions = { ...options, api: 'gateway', credentialEnvironment: this.environment, observers: this.observerList };
    if (auth === 'none') return toResponse(await this.http.request(base));
    if (typeof auth === 'object') {
      base.headers = { ...options.headers, authorization: auth.authorization };
      return toResponse(await this.http.request(base));
    }
    const result = await this.tokens.withToken((token) => {
      base.headers = { ...options.headers, authorization: `Bearer ${token}` };
      return this.http.request(base);
    }, this.observer);
    return toResponse(result);
  }

  private call(method: string, path: string, operation: string, body: unknown, opts: CallOptions = {}, extra: Partial<GatewaySendOptions> = {}): Promise<ApiResponse> {
    return this.send(callOptions<GatewaySendOptions>(method, path, operation, body, opts, extra));
  }

  /**
   * POST /api/auth with a pair (default: this client's) over HTTP Basic; `null` sends no
   * Authorization header. No caching: the raw exchange, for the auth suite. Tokens it returns are
   * redacted from every record.
   */
  async auth(pair?: GatewayCredentials | null, opts: CallOptions & { authorization?: string; json?: unknown } = {}): Promise<ApiResponse> {
    const p = pair === undefined ? this.tokens.pair : pair;
    const headers: Record<string, string> = { ...opts.headers };
    const authorization = opts.authorization ?? (p ? basicAuthorization(p.clientId, p.clientSecret) : undefined);
    if (authorization !== undefined) headers.authorization = authorization;
    if (p && p !== this.tokens.pair) {
      registerPairSecrets(this.http.redactor, p, 'sandbox');
    }
    const response = await this.call('POST', '/api/auth', 'POST /api/auth', opts.json, { ...opts, headers }, { auth: 'none' });
    const body = response.json as { token?: unknown } | undefined;
    if (typeof body?.token === 'string') this.http.redactor.register(body.token, SecretKinds.gatewayToken[this.tokens.pairName]);
    return response;
  }

  /** POST /api/v1/pix/in/qrcode */
  createPixCharge(body: PixChargeRequest | unknown, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', '/api/v1/pix/in/qrcode', 'POST /api/v1/pix/in/qrcode', body, opts);
  }

  /** GET /api/v1/pix/in/qrcode/{transactionId} */
  getPixCharge(transactionId: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', `/api/v1/pix/in/qrcode/${enc(transactionId)}`, 'GET /api/v1/pix/in/qrcode/{transactionId}', undefined, opts);
  }

  /** POST /api/v1/pix/in/qrcode/{transactionId}/pay (sandbox simulation; production answers 403) */
  payPixCharge(transactionId: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', `/api/v1/pix/in/qrcode/${enc(transactionId)}/pay`, 'POST /api/v1/pix/in/qrcode/{transactionId}/pay', undefined, opts);
  }

  /**
   * POST /api/v1/pix/out/pixkey: MONEY-MOVING (refused with production credentials).
   * `idempotencyKey`: undefined → a fresh UUID; null → the `x-idempotency-key` header is omitted.
   */
  createTransfer(body: TransferRequest | unknown, opts: CallOptions & { idempotencyKey?: string | null } = {}): Promise<ApiResponse> {
    const { idempotencyKey, ...rest } = opts;
    const key = idempotencyKey === undefined ? randomUUID() : idempotencyKey;
    const headers: Record<string, string> = key === null ? {} : { 'x-idempotency-key': key };
    return this.call('POST', '/api/v1/pix/out/pixkey', 'POST /api/v1/pix/out/pixkey', body, rest, { moneyMoving: true, headers });
  }

  /** GET /api/v1/pix/out/pixkey/{transferId} */
  getTransfer(transferId: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', `/api/v1/pix/out/pixkey/${enc(transferId)}`, 'GET /api/v1/pix/out/pixkey/{transferId}', undefined, opts);
  }

  /** POST /api/v1/pix/out/pixkey/{transferId}/complete (sandbox simulation) */
  completeTransfer(transferId: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', `/api/v1/pix/out/pixkey/${enc(transferId)}/complete`, 'POST /api/v1/pix/out/pixkey/{transferId}/complete', undefined, opts);
  }

  /** POST /api/v1/card: MONEY-MOVING (refused with production credentials). The card token is redacted. */
  createCardCharge(body: CardChargeRequest | unknown, opts?: CallOptions): Promise<ApiResponse> {
    const token = (body as { card?: { token?: unknown } } | null | undefined)?.card?.token;
    if (typeof token === 'string') this.http.redactor.register(token, SecretKinds.cardToken);
    return this.call('POST', '/api/v1/card', 'POST /api/v1/card', body, opts, { moneyMoving: true });
  }

  /** GET /api/v1/transactions/{transactionId} (response body not shown by the contract) */
  getTransaction(transactionId: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', `/api/v1/transactions/${enc(transactionId)}`, 'GET /api/v1/transactions/{transactionId}', undefined, opts);
  }

  /** GET /api/v1/balance */
  getBalance(opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', '/api/v1/balance', 'GET /api/v1/balance', undefined, opts);
  }

  /** GET /api/v1/webhook (response body not shown) */
  listWebhooks(opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', '/api/v1/webhook', 'GET /api/v1/webhook', undefined, opts);
  }

  /** POST /api/v1/webhook; the returned `signatureSecret` is redacted from every record */
  createWebhook(body: WebhookRequest | unknown, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', '/api/v1/webhook', 'POST /api/v1/webhook', body, opts);
  }

  /** DELETE /api/v1/webhook/{id} (response body not shown) */
  deleteWebhook(id: string | number, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('DELETE', `/api/v1/webhook/${enc(String(id))}`, 'DELETE /api/v1/webhook/{id}', undefined, opts);
  }
}
