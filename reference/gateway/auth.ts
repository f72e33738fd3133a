/**
 * Authentication. Contract, "Authentication" and "POST /api/auth": a client id + secret pair,
 * exchanged with HTTP Basic for a Bearer token that lives `expiresIn` milliseconds; the pair
 * selects the environment. The token looks like a JWT (HS256, signed with a key of this process).
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readRawBody } from '../shared/http.js';
import { failure, unauthorized } from './errors.js';
import type { Personality } from '../personality.js';
import { formatTimestamp } from '../shared/time.js';
import type { Environment, Principal } from './store.js';

interface RegisteredClient {
  accountId: string;
  environment: Environment;
  /** "only its hash is stored" */
  secretSha256: Buffer;
}

export interface IssuedPair {
  clientId: string;
  clientSecret: string;
}

export const ACCOUNT_A = 'acc_loja_a';
export const ACCOUNT_B = 'acc_loja_b';

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

interface TokenClaims {
  sub: string;
  env: Environment;
  cid: string;
  iat: number;
  /** JWT `exp` is in seconds; `exp_ms` keeps the millisecond lifetime the contract states */
  exp: number;
  exp_ms: number;
  jti: string;
}

function isTokenClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return typeof claims.sub === 'string' && (claims.env === 'sandbox' || claims.env === 'production') &&
    typeof claims.cid === 'string' && typeof claims.exp_ms === 'number';
}

export class Authenticator {
  private readonly clients = new Map<string, RegisteredClient>();
  private readonly signingKey = randomBytes(32);
  /** fault `gw-auth-opaque-session-token`: opaque session id → its claims */
  private readonly sessions = new Map<string, TokenClaims>();
  /** fault `gw-auth-cached-token-reissued`: client id → the first token issued to it */
  private readonly cachedTokens = new Map<string, string>();

  constructor(
    private readonly tokenTtlMs: number,
    private readonly faults: ReadonlySet<string>,
    private readonly personality: Personality,
  ) {}

  /** Creates a credential pair for an account in one environment. */
  issuePair(accountId: string, environment: Environment): IssuedPair {
    const prefix = environment === 'sandbox' ? 'ci_test_' : 'ci_live_';
    const clientId = `${prefix}${randomBytes(9).toString('hex')}`;
    const clientSecret = `cs_${randomBytes(24).toString('base64url')}`;
    this.clients.set(clientId, { accountId, environment, secretSha256: sha256(clientSecret) });
    return { clientId, clientSecret };
  }

  /** `POST /api/auth`: Basic credentials → token. */
  async exchange(req: IncomingMessage): Promise<Record<string, unknown>> {
    const principal = this.checkBasic(req.headers.authorization);
    const body = await readRawBody(req);
    // "No body is accepted": a non-empty body is refused rather than silently ignored (DECISIONS.md)
    // fault: the body is parsed without a guard and the exchange crashes on it
    if (body.length > 0 && this.faults.has('gw-auth-body-500')) throw failure(500, 'internal error');
    if (body.length > 0) throw failure(400, 'body: POST /api/auth accepts no body');
    const issuedAt = Date.now();
    const expiresIn = this.faults.has('gw-auth-expires-in-seconds') ? Math.round(this.tokenTtlMs / 1000) : this.tokenTtlMs;
    // fault: a session service, an opaque id, its own tokenType and no {success} wrapper
    if (this.faults.has('gw-auth-opaque-session-token')) {
      const session = randomBytes(24).toString('hex');
      this.sessions.set(session, this.claims(principal, issuedAt));
      return { token: session, tokenType: 'Session', expiresIn };
    }
    // fault: the client's cached token is handed back, expired or not
    const cached = this.faults.has('gw-auth-cached-token-reissued') ? this.cachedTokens.get(principal.clientId) : undefined;
    const token = cached ?? this.sign(principal, issuedAt);
    if (this.faults.has('gw-auth-cached-token-reissued')) this.cachedTokens.set(principal.clientId, token);
    const p = this.personality;
    // personality: an extra, undocumented expiry instant
    const extra = p.gwAuthExpiresAt ? { expiresAt: formatTimestamp(issuedAt + this.tokenTtlMs, { precision: p.gwTimestampPrecision, offset: p.gwTimestampOffset }) } : {};
    // fault: the lifetime is serialised as a string
    return { success: true, token, tokenType: 'Bearer', expiresIn: this.faults.has('gw-auth-expires-in-string') ? String(expiresIn) : expiresIn, ...extra };
  }

  /** Resolves the caller of a `/api/v1` route from `Authorization: Bearer <token>`. */
  authenticate(authorization: string | undefined): Principal {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    // fault: the framework's default entry point answers 403 to an anonymous caller
    if (!match && this.faults.has('gw-auth-missing-token-403')) throw failure(403, 'Access Denied');
    if (!match) throw unauthorized('Authorization: Bearer token required');
    const token = match[1] as string;
    const claims = this.sessions.get(token) ?? this.verify(token);
    if (!claims) {
      if (this.faults.has('gw-auth-garbage-token-accepted')) return this.defaultSandboxPrincipal();
      throw unauthorized('invalid token');
    }
    if (Date.now() >= claims.exp_ms && !this.faults.has('gw-auth-expired-token-accepted')) {
      throw unauthorized('token expired');
    }
    return { accountId: claims.sub, environment: claims.env, clientId: claims.cid };
  }

  private checkBasic(authorization: string | undefined): Principal {
    // fault: `header.split(' ')[1]`, whatever the scheme
    const scheme = this.faults.has('gw-auth-scheme-ignored') ? /^\S+\s+([A-Za-z0-9+/=_-]+)\s*$/i : /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i;
    const match = scheme.exec(authorization ?? '');
    if (!match) throw unauthorized('Authorization: Basic credentials required');
    const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthorized('invalid credentials');
    const clientId = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    const client = this.clients.get(clientId);
    if (!client) throw unauthorized('invalid credentials');
    const secretMatches = timingSafeEqual(sha256(secret), client.secretSha256);
    if (!secretMatches && !this.faults.has('gw-auth-wrong-secret-accepted')) throw unauthorized('invalid credentials');
    // fault: production lives on another host; this one refuses its pairs
    if (client.environment === 'production' && this.faults.has('gw-production-pair-refused')) throw unauthorized('invalid credentials');
    return { accountId: client.accountId, environment: client.environment, clientId };
  }

  private sign(principal: Principal, now: number): string {
    const claims = this.claims(principal, now);
    const unsigned = `${base64url(JSON.stringify({ alg: this.personality.gwTokenAlg, typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
    return `${unsigned}.${this.mac(unsigned)}`;
  }

  private claims(principal: Principal, now: number): TokenClaims {
    return {
      sub: principal.accountId,
      env: principal.environment,
      cid: principal.clientId,
      iat: Math.floor(now / 1000),
      exp: Math.ceil((now + this.tokenTtlMs) / 1000),
      exp_ms: now + this.tokenTtlMs,
      jti: randomUUID(),
    };
  }

  private mac(unsigned: string): string {
    return createHmac(this.personality.gwTokenAlg === 'HS512' ? 'sha512' : 'sha256', this.signingKey).update(unsigned).digest('base64url');
  }

  private verify(token: string): TokenClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.mac(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return isTokenClaims(claims) ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private defaultSandboxPrincipal(): Principal {
    for (const [clientId, client] of this.clients) {
      if (client.environment === 'sandbox') return { accountId: client.accountId, environment: 'sandbox', clientId };
    }
    return { accountId: ACCOUNT_A, environment: 'sandbox', clientId: 'unknown' };
  }
}
