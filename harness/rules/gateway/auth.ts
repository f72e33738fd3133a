/**
 * Gateway authentication (gateway-api.md "POST /api/auth", "Authentication", "Errors").
 *
 * - "Header `Authorization: Basic <base64(client_id:client_secret)>`." "200: `success` boolean,
 *   `token` string (JWT), `tokenType` string (Bearer), `expiresIn` integer in milliseconds."
 *   "401 invalid credentials; 429 rate limited."
 * - "The token lifetime is given by `expiresIn` (sample 60000 ms); after expiry a route answers 401
 *   and the client calls `POST /api/auth` again."
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { isRecord } from '../../core/json.js';

export type Observed = Omit<RuleContext, 'requirements'>;

/** A compact JWS: three base64url segments (the signature may be empty only for `alg: none`, refused elsewhere). */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The values a client relies on in a 200 of POST /api/auth (the schema checks the types):
 * - `success` other than true on a 200: WARNING (`auth.success-false`: contradictory, harmless);
 * - `token` not a compact JWT ("`token` string (JWT)"): failure `auth.token-not-jwt`;
 * - `tokenType` not "Bearer" in any letter case: failure `auth.token-type`. Auth schemes are
 *   case-insensitive (RFC 9110 §11.1), so `bearer` conforms (issue 14);
 * - `expiresIn` under 1000: WARNING `auth.expires-in-unit` (reads as seconds; the contract fixes no
 *   minimum lifetime, so a tiny value is suspicious, not proven wrong).
 */
export function verifyTokenResponse(body: unknown, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-AUTH-200-SHAPE', 'GW-AUTH-TOKEN-JWT', 'GW-AUTH-TOKEN-TYPE-BEARER', 'GW-AUTH-EXPIRES-IN-MS'] };
  const findings: Finding[] = [];
  if (!isRecord(body)) {
    findings.push(makeFinding(ctx, { code: 'auth.token-not-jwt', requirements: ['GW-AUTH-200-SHAPE'], title: 'the 200 of POST /api/auth is not a JSON object', severity: 'failure', expected: '{success, token, tokenType, expiresIn}', actual: `${kindOf(body)} ${show(body)}` }));
    return judge(ctx, findings);
  }
  if (body.success !== true) {
    findings.push(makeFinding(ctx, { code: 'auth.success-false', requirements: ['GW-AUTH-200-SHAPE'], title: 'a successful exchange says success other than true', severity: 'warning', expected: 'success: true on a 200', actual: `success: ${show(body.success)}` }));
  }
  if (typeof body.token !== 'string' || !JWT.test(body.token)) {
    const text = typeof body.token === 'string' ? `a string of ${body.token.length} characters with ${body.token.split('.').length - 1} dot(s)` : `${kindOf(body.token)}`;
    findings.push(makeFinding(ctx, { code: 'auth.token-not-jwt', requirements: ['GW-AUTH-TOKEN-JWT'], title: 'token is not a JWT', severity: 'failure', expected: 'token: a compact JWT (three base64url segments)', actual: text }));
  }
  if (typeof body.tokenType !== 'string' || body.tokenType.toLowerCase() !== 'bearer') {
    findings.push(makeFinding(ctx, { code: 'auth.token-type', requirements: ['GW-AUTH-TOKEN-TYPE-BEARER'], title: 'tokenType is not Bearer', severity: 'failure', expected: 'tokenType: "Bearer" (letter case free)', actual: `tokenType: ${show(body.tokenType)}` }));
  }
  const expiresIn = body.expiresIn;
  if (typeof expiresIn === 'number' && Number.isInteger(expiresIn) && expiresIn < 1000) {
    findings.push(makeFinding(ctx, { code: 'auth.expires-in-unit', requirements: ['GW-AUTH-EXPIRES-IN-MS'], title: 'expiresIn looks like seconds, not milliseconds', severity: 'warning', expected: 'a lifetime in milliseconds (sample 60000)', actual: `expiresIn: ${expiresIn} (under one second)` }));
  }
  return judge(ctx, findings);
}

/**
 * "401 invalid credentials": a wrong secret or an unknown client id gets 401 and never a token.
 * The status is judged by {@link expectStatus}; a token in the answer fails whatever the status.
 */
export function ensureNoTokenForInvalidCredentials(exchange: Exchange, json: unknown, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-AUTH-401-INVALID'], exchanges: [...(at.exchanges ?? []), exchange] };
  const status = expectStatus(exchange, 401, ctx);
  const token = isRecord(json) ? json.token : undefined;
  if (typeof token !== 'string' || token === '') return status;
  return judge(ctx, ...status.findings, makeFinding(ctx, { code: 'auth.token-for-invalid-credentials', title: 'POST /api/auth issued a token for invalid credentials', severity: 'failure', expected: 'no token (401 invalid credentials)', actual: `HTTP ${exchange.response?.status ?? 'none'} with a token` }));
}

/**
 * A missing or unreadable Basic header: the credentials are absent or unreadable, so "401 invalid
 * credentials". A 400 for an unparseable header is a reading the text does not exclude: another 4xx
 * is a WARNING; 2xx and 5xx fail.
 */
export function expectCredentialsRefused(exchange: Exchange, at: Observed = {}): Judgement {
  return expectStatus(exchange, 401, { ...at, requirements: ['GW-AUTH-401-INVALID', 'GW-AUTH-BASIC'] }, { otherClientError: 'warning' });
}

/**
 * "401 | token missing, invalid or expired"; "All routes except POST /api/auth require
 * Authorization: Bearer <ACCESS_TOKEN>". A protected route called without a usable token answers 401.
 * `kind`: missing (no header, empty Bearer) or invalid (garbage, unsigned, tampered).
 */
export function expectTokenRefused(exchange: Exchange, kind: 'missing' | 'invalid', at: Observed = {}): Judgement {
  const requirements: RequirementId[] = [kind === 'missing' ? 'GW-AUTH-401-MISSING' : 'GW-AUTH-401-INVALID-TOKEN', 'GW-AUTH-BEARER-EVERY-ROUTE', 'GW-ANY-401-429'];
  return expectStatus(exchange, 401, { ...at, requirements });
}

export interface ExpiryProbe {
  /** ms after issue + expiresIn when the expired token was used */
  afterExpiryMs: number;
  exchange: Exchange;
}

/** Clock leeway a token validator commonly allows past `exp` (jsonwebtoken/jose default to 0–60 s). */
export const TOKEN_EXPIRY_LEEWAY_MS = 30_000;

/**
 * "after expiry a route answers 401". Validators commonly allow a clock leeway past `exp`, and the
 * contract names none: a token still accepted within {@link TOKEN_EXPIRY_LEEWAY_MS} of its expiry
 * conforms (the suite notes it); the LAST probe, sent beyond the leeway, must answer 401. Probes:
 * in time order; the last one is the verdict.
 */
export function judgeTokenExpiry(probes: readonly ExpiryProbe[], at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-AUTH-EXPIRY', 'GW-AUTH-401-INVALID-TOKEN'] };
  const last = probes[probes.length - 1];
  if (!last) return judge(ctx);
  if (last.afterExpiryMs < TOKEN_EXPIRY_LEEWAY_MS && last.exchange.response?.status !== 401) {
    // probed only inside the leeway and still accepted: nothing decided yet (the caller probes again)
    return { requirements: [], findings: [] };
  }
  const all = { ...ctx, exchanges: [...(at.exchanges ?? []), ...probes.map((p) => p.exchange)] };
  return expectStatus(last.exchange, 401, all);
}
