/**
 * Partner PIX cash-in API client: one method per documented operation (partner-cashin-api.md
 * "Endpoints"). Paths are relative to `{partner_base_url}` (which ends in `/v1`). Every call is
 * recorded, redacted and handed to the observer (a CheckRun validating it against the contract).
 */
import type { ExchangeObserver, HttpClient, RequestOptions, CredentialEnvironment } from './client.js';
import type { PartnerKeyName } from './auth.js';
import { partnerKeyEnvironment } from './auth.js';
import { SecretKinds } from './redact.js';
import type { ApiResponse, CallOptions } from './gateway-client.js';
import { callOptions, toResponse } from './gateway-client.js';

export type { ApiResponse, CallOptions } from './gateway-client.js';

/** POST /v1/business/pix-charges body. */
export interface PartnerChargeRequest {
  amount_cents: number;
  description?: string;
  external_ref?: string;
  customer_email?: string;
  expires_in_seconds?: number;
}

/** Charge states (partner "PIX charge" status). */
export type PartnerChargeStatus = 'pending' | 'paid' | 'expired' | 'canceled';

/** How a raw call authenticates: this client's key (default), none, or an explicit header value. */
export type PartnerAuthMode = 'key' | 'none' | { authorization: string };

export interface PartnerSendOptions extends Omit<RequestOptions, 'api' | 'observers' | 'credentialEnvironment'> {
  auth?: PartnerAuthMode;
}

export interface PartnerClientOptions {
  http: HttpClient;
  apiKey: string;
  /** which configured key this is (names its redaction marker / curl variable); default `test` */
  keyName?: PartnerKeyName;
  observer?: ExchangeObserver;
}

const enc = encodeURIComponent;

export class PartnerClient {
  readonly http: HttpClient;
  readonly apiKey: string;
  readonly keyName: PartnerKeyName;
  readonly observer: ExchangeObserver | undefined;
  /** `production` for the live key or any `ak_live_` key */
  readonly environment: CredentialEnvironment;

  constructor(options: PartnerClientOptions) {
    this.http = options.http;
    this.apiKey = options.apiKey;
    this.keyName = options.keyName ?? 'test';
    this.observer = options.observer;
    this.environment = this.keyName === 'live' ? 'production' : partnerKeyEnvironment(options.apiKey);
    this.http.redactor.register(options.apiKey, SecretKinds.partnerApiKey[this.keyName]);
  }

  /** The same client reporting to another observer. */
  withObserver(observer: ExchangeObserver | undefined): PartnerClient {
    return new PartnerClient({ http: this.http, apiKey: this.apiKey, keyName: this.keyName, observer });
  }

  /** Any request (negative tests): `auth` 'key' (default), 'none', or an explicit Authorization value. */
  async send(options: PartnerSendOptions): Promise<ApiResponse> {
    const { auth = 'key', ...rest } = options;
    const headers: Record<string, string> = { ...rest.headers };
    if (auth === 'key') headers.authorization = `Bearer ${this.apiKey}`;
    else if (typeof auth === 'object') headers.authorization = auth.authorization;
    const result = await this.http.request({
      ...rest,
      headers,
      api: 'partner',
      credentialEnvironment: this.environment,
      observers: this.observer ? [this.observer] : [],
    });
    return toResponse(result);
  }

  private call(method: string, path: string, operation: string, body: unknown, opts: CallOptions = {}, extra: Partial<RequestOptions> = {}): Promise<ApiResponse> {
    return this.send(callOptions<PartnerSendOptions>(method, path, operation, body, opts, extra));
  }

  /**
   * POST /business/pix-charges. `idempotencyKey` (optional, recommended by the contract): sent as
   * `Idempotency-Key` when given; omitted otherwise.
   */
  createCharge(body: PartnerChargeRequest | unknown, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<ApiResponse> {
    const { idempotencyKey, ...rest } = opts;
    const headers: Record<string, string> = idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey };
    return this.call('POST', '/business/pix-charges', 'POST /business/pix-charges', body, rest, { headers });
  }

  /** GET /business/pix-charges/{id} */
  getCharge(id: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', `/business/pix-charges/${enc(id)}`, 'GET /business/pix-charges/{id}', undefined, opts);
  }

  /** GET /business/pix-charges?status=… (status optional; any string for negative tests) */
  listCharges(filter: { status?: PartnerChargeStatus | string } = {}, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', '/business/pix-charges', 'GET /business/pix-charges', undefined, opts, filter.status === undefined ? {} : { query: { status: filter.status } });
  }

  /** POST /business/pix-charges/{id}/cancel */
  cancelCharge(id: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', `/business/pix-charges/${enc(id)}/cancel`, 'POST /business/pix-charges/{id}/cancel', undefined, opts);
  }

  /** POST /business/pix-charges/{id}/pay (sandbox only; production answers 403) */
  payCharge(id: string, opts?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', `/business/pix-charges/${enc(id)}/pay`, 'POST /business/pix-charges/{id}/pay', undefined, opts);
  }

  /** GET /business/finance */
  getFinance(opts?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', '/business/finance', 'GET /business/finance', undefined, opts);
  }
}
