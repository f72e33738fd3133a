/**
 * Gateway authentication (contract: gateway "Authentication" 1-2, "POST /api/auth"): a credential
 * pair is exchanged with HTTP Basic at `POST /api/auth` for a Bearer token whose lifetime is
 * `expiresIn` milliseconds; after expiry a route answers 401 and the client authenticates again.
 *
 * Partner authentication is a static `Authorization: Bearer <API_KEY>`; {@link partnerApiKey}
 * picks the key.
 */
import { HarnessError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import type { CredentialEnvironment, ExchangeObserver, HttpClient, HttpResult } from './client.js';
import { SecretKinds, basicCredential, registerPairSecrets } from './redact.js';
import type { GatewayCredentials, PartnerTarget } from '../config/target.js';

/** Which gateway pair: sandbox (required), live (production) or other (second account). */
export type GatewayPairName = 'sandbox' | 'live' | 'other';
/** Which partner key: test (`ak_test_`), live (`ak_live_`) or other (second account). */
export type PartnerKeyName = 'test' | 'live' | 'other';

/** `Basic base64(id:secret)`. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${basicCredential(clientId, clientSecret)}`;
}

/** The result of one `POST /api/auth`. */
export interface AuthResult {
  result: HttpResult;
  exchange: Exchange;
  /** the token when the response is a 200 with a string `token`, else undefined */
  token?: string;
  /** `expiresIn` when it is a positive number */
  expiresInMs?: number;
}

export class AuthFailedError extends HarnessError {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super('auth.failed', message);
  }
}

export interface TokenManagerOptions {
  /** renew this long before `expiresIn` runs out (default: 10% of expiresIn, at most 5 s) */
  refreshMarginMs?: number;
  /** lifetime assumed when the response has no usable `expiresIn` (default 60000) */
  defaultLifetimeMs?: number;
  now?: () => number;
}

/**
 * Obtains and caches a gateway token for one credential pair. Concurrent callers share one
 * in-flight authentication. Tokens are registered with the HTTP client's redactor.
 */
export class GatewayTokenManager {
  readonly environment: CredentialEnvironment;
  private token: string | undefined;
  private validUntil = 0;
  private inFlight: Promise<string> | undefined;
  private readonly now: () => number;

  constructor(
    readonly http: HttpClient,
    readonly pair: GatewayCredentials,
    readonly pairName: GatewayPairName = 'sandbox',
    private readonly options: TokenManagerOptions = {},
  ) {
    this.environment = pairName === 'live' ? 'production' : 'sandbox';
    this.now = options.now ?? Date.now;
    registerPairSecrets(http.redactor, pair, pairName);
  }

  /**
   * One raw `POST /api/auth` with this pair (no caching, no throwing): for the auth suite. A
   * successful token is registered for redaction but NOT cached.
   */
  async authenticate(observer?: ExchangeObserver): Promise<AuthResult> {
    const result = await this.http.request({
      api: 'gateway',
      method: 'POST',
      path: '/api/auth',
      operation: 'POST /api/auth',
      headers: { authorization: basicAuthorization(this.pair.clientId, this.pair.clientSecret) },
      credentialEnvironment: this.environment,
      observers: observer ? [observer] : [],
    });
    const out: AuthResult = { result, exchange: result.exchange };
    const body = result.json as { token?: unknown; expiresIn?: unknown } | undefined;
    if (result.status === 200 && body && typeof body.token === 'string' && body.token.length > 0) {
      out.token = body.token;
      this.http.redactor.register(body.token, SecretKinds.gatewayToken[this.pairName]);
    }
    if (body && typeof body.expiresIn === 'number' && body.expiresIn > 0) out.expiresInMs = body.expiresIn;
    return out;
  }

  /** A valid token (cached until shortly before `expiresIn`); throws AuthFailedError when auth fails. */
  async getToken(observer?: ExchangeObserver): Promise<string> {
    if (this.token && this.now() < this.validUntil) return this.token;
    this.inFlight ??= this.refresh(observer).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forgets the cached token (the next call authenticates). */
  invalidate(): void {
    this.token = undefined;
    this.validUntil = 0;
  }

  private async refresh(observer?: ExchangeObserver): Promise<string> {
    const auth = await this.authenticate(observer);
    if (!auth.token) {
      throw new AuthFailedError(
        `POST /api/auth with the ${this.pairName} pair did not return a token (status ${auth.result.status || auth.exchange.error})`,
        auth.exchange,
      );
    }
    const lifetime = auth.expiresInMs ?? this.options.defaultLifetimeMs ?? 60_000;
    const margin = this.options.refreshMarginMs ?? Math.min(5000, lifetime * 0.1);
    this.token = auth.token;
    this.validUntil = this.now() + lifetime - margin;
    return auth.token;
  }

  /**
   * Runs `fn` with a token; if it answers 401, authenticates again once and retries (gateway
   * "Authentication" 2: after expiry a route answers 401 and the client calls POST /api/auth again).
   */
  async withToken<T extends { status: number }>(fn: (token: string) => Promise<T>, observer?: ExchangeObserver): Promise<T> {
    // the cached token without a detour through a promise (every gateway request comes here)
    const first = this.token && this.now() < this.validUntil ? this.token : await this.getToken(observer);
    const result = await fn(first);
    if (result.status !== 401) return result;
    if (this.token === first) this.invalidate();
    const fresh = await this.getToken(observer);
    return fn(fresh);
  }
}

/** The partner API key for a key name; undefined when that optional key is not configured. */
export function partnerApiKey(target: PartnerTarget, which: PartnerKeyName = 'test'): string | undefined {
  if (which === 'live') return target.liveApiKey;
  if (which === 'other') return target.otherApiKey;
  return target.apiKey;
}

/** The environment a partner key selects by its prefix (partner "Authentication" 2). */
export function partnerKeyEnvironment(apiKey: string): CredentialEnvironment {
  return apiKey.startsWith('ak_live_') ? 'production' : 'sandbox';
}

/**
 * The `name=value` pairs of a response's Set-Cookie (repeated headers arrive joined with `, `; an
 * Expires date's comma is not followed by `name=`), as one Cookie request header; undefined when
 * none. The partner checks replay them WITHOUT a key: "No OAuth, session or SDK".
 */
export function cookieHeaderFrom(setCookie: string | undefined): string | undefined {
  if (setCookie === undefined || setCookie.trim() === '') return undefined;
  const pairs = setCookie
    .split(/,\s*(?=[!#$%&'*+\-.^_`|~0-9A-Za-z]+=)/)
    .map((c) => c.split(';')[0]?.trim() ?? '')
    .filter((pair) => /^[^=\s]+=/.test(pair));
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}
