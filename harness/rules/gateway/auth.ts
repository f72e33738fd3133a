/**
 * Gateway authentication (gateway-api.md "POST /api/auth", "Authentication", "Endpoints", "Errors").
 *
 * - "Header `Authorization: Basic <base64(client_id:client_secret)>`." ({@link readCredentialsFromBasicHeader})
 * - "401 invalid credentials; 429 rate limited." ({@link refuseInvalidCredentials})
 * - "200: `success` boolean, `token` string (JWT), `tokenType` string (Bearer), `expiresIn` integer
 *   in milliseconds." ({@link answerTokenExchange})
 * - "All routes except `POST /api/auth` require `Authorization: Bearer <ACCESS_TOKEN>`"; "then send
 *   `Authorization: Bearer <ACCESS_TOKEN>` on every other route"; "401 | token missing, invalid or
 *   expired"; "Every route can answer 401 and 429." ({@link requireBearerOnEveryRoute})
 * - "The token lifetime is given by `expiresIn` (sample 60000 ms); after expiry a route answers 401
 *   and the client calls `POST /api/auth` again." ({@link refuseExpiredToken}, {@link reissueTokenAfterExpiry})
 *
 * A 401 comes from the authentication layer, before any route: its body may have any shape.
 */
import type { Exchange } from '../../core/exchange.js';
import { kindOf, show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { isRecord } from '../../core/json.js';
import type { Answer } from './errors.js';

/** A compact JWS: three base64url segments (the signature may be empty only for `alg: none`, refused elsewhere). */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** POST /api/auth with a credential in some form, and its answer. */
export interface CredentialExchange {
  answer: Answer;
  /**
   * `basic`: the configured pair as `Basic <base64(id:secret)>`; `unreadable`: no header, or the
   * pair in another form (another scheme, not base64, no colon, not encoded)
   */
  form: 'basic' | 'unreadable';
  /** what was sent, for the titles */
  label: string;
}

/**
 * "Header `Authorization: Basic <base64(client_id:client_secret)>`.": the pair in that form gets its
 * token (200); the same credential missing or in another form is not read as credentials, so "401
 * invalid credentials". A 400 for an unparseable header is a reading the text does not exclude: another
 * 4xx only warns; a 2xx (a token for an unreadable header) or a 5xx fails.
 */
export const readCredentialsFromBasicHeader = defineRule({
  name: 'readCredentialsFromBasicHeader',
  requirements: ['GW-AUTH-BASIC'],
  codes: { 'auth.basic-not-exchanged': 'failure', 'auth.unreadable-header-status': 'failure', 'auth.unreadable-header-other-4xx': 'warning' },
  judge(o: CredentialExchange, v) {
    if (o.form === 'basic') {
      judgeStatus(v, o.answer.exchange, 200, { unexpected: 'auth.basic-not-exchanged' }, `POST /api/auth with ${o.label}`);
      return;
    }
    judgeStatus(v, o.answer.exchange, 401, { unexpected: 'auth.unreadable-header-status', otherClientError: 'auth.unreadable-header-other-4xx' }, `POST /api/auth with ${o.label}`);
  },
});

/**
 * "401 invalid credentials": a wrong secret, an unknown client id or an empty secret gets exactly 401,
 * and never a token, whatever the status.
 */
export const refuseInvalidCredentials = defineRule({
  name: 'refuseInvalidCredentials',
  requirements: ['GW-AUTH-401-INVALID'],
  codes: { 'auth.invalid-credentials-status': 'failure', 'auth.token-for-invalid-credentials': 'failure' },
  judge(o: { answer: Answer; label: string }, v) {
    const { answer } = o;
    judgeStatus(v, answer.exchange, 401, { unexpected: 'auth.invalid-credentials-status' }, `POST /api/auth with ${o.label}`);
    const token = isRecord(answer.json) ? answer.json.token : undefined;
    if (typeof token === 'string' && token !== '') {
      v.find('auth.token-for-invalid-credentials', { title: `POST /api/auth issued a token for invalid credentials (${o.label})`, expected: 'no token ("401 invalid credentials")', actual: `HTTP ${answer.status} with a token`, exchanges: [answer.exchange] });
    }
  },
});

/**
 * The 200 of POST /api/auth, the values a client relies on (the schema judges the types); a status
 * other than 200 decides nothing here ({@link readCredentialsFromBasicHeader} judges it):
 * - not an object: failure; `success` other than true: WARNING (contradictory, harmless);
 * - `token` not a compact JWT ("`token` string (JWT)"): failure;
 * - `tokenType` not "Bearer" in any letter case: failure (auth schemes are case-insensitive, RFC 9110
 *   §11.1, so `bearer` conforms);
 * - `expiresIn` under 1000: WARNING (reads as seconds; the contract fixes no minimum lifetime, so a
 *   tiny value is suspicious, not proven wrong).
 */
export const answerTokenExchange = defineRule({
  name: 'answerTokenExchange',
  requirements: ['GW-AUTH-200-SHAPE', 'GW-AUTH-TOKEN-JWT', 'GW-AUTH-TOKEN-TYPE-BEARER', 'GW-AUTH-EXPIRES-IN-MS'],
  codes: { 'auth.exchange-not-object': 'failure', 'auth.success-false': 'warning', 'auth.token-not-jwt': 'failure', 'auth.token-type': 'failure', 'auth.expires-in-unit': 'warning' },
  judge(answer: Answer, v) {
    if (answer.status !== 200) return v.nothingToJudge();
    v.shows(answer.exchange);
    const body = answer.json;
    if (!isRecord(body)) {
      return v.find('auth.exchange-not-object', { requirements: ['GW-AUTH-200-SHAPE'], title: 'the 200 of POST /api/auth is not a JSON object', expected: '{success, token, tokenType, expiresIn}', actual: `${kindOf(body)} ${show(body)}` });
    }
    if (body.success !== true) {
      v.find('auth.success-false', { requirements: ['GW-AUTH-200-SHAPE'], title: 'a successful exchange says success other than true', expected: 'success: true on a 200', actual: `success: ${show(body.success)}` });
    }
    if (typeof body.token !== 'string' || !JWT.test(body.token)) {
      const text = typeof body.token === 'string' ? `a string of ${body.token.length} characters with ${body.token.split('.').length - 1} dot(s)` : kindOf(body.token);
      v.find('auth.token-not-jwt', { requirements: ['GW-AUTH-TOKEN-JWT'], title: 'token is not a JWT', expected: 'token: a compact JWT (three base64url segments)', actual: text });
    }
    if (typeof body.tokenType !== 'string' || body.tokenType.toLowerCase() !== 'bearer') {
      v.find('auth.token-type', { requirements: ['GW-AUTH-TOKEN-TYPE-BEARER'], title: 'tokenType is not Bearer', expected: 'tokenType: "Bearer" (letter case free)', actual: `tokenType: ${show(body.tokenType)}` });
    }
    const expiresIn = body.expiresIn;
    if (typeof expiresIn === 'number' && Number.isInteger(expiresIn) && expiresIn < 1000) {
      v.find('auth.expires-in-unit', { requirements: ['GW-AUTH-EXPIRES-IN-MS'], title: 'expiresIn looks like seconds, not milliseconds', expected: 'a lifetime in milliseconds (sample 60000)', actual: `expiresIn: ${expiresIn} (under one second)` });
    }
  },
});

/** A protected route called with a token of some kind, and its answer. */
export interface BearerUse {
  answer: Answer;
  /**
   * `issued`: a token POST /api/auth just gave; `missing`: no header or an empty Bearer; `invalid`:
   * garbage, unsigned or tampered
   */
  token: 'issued' | 'missing' | 'invalid';
  /** the route and the token, for the titles */
  label: string;
}

/**
 * The Bearer token on every route: "All routes except `POST /api/auth` require `Authorization: Bearer
 * <ACCESS_TOKEN>`", "then send `Authorization: Bearer <ACCESS_TOKEN>` on every other route", "401 |
 * token missing, invalid or expired", "Every route can answer 401 and 429." A token just issued opens
 * the route (2xx); a route called without a usable token answers 401, whatever the body (another
 * status, 403 included, fails).
 */
export const requireBearerOnEveryRoute = defineRule({
  name: 'requireBearerOnEveryRoute',
  requirements: ['GW-AUTH-BEARER-EVERY-ROUTE', 'GW-AUTH-401-MISSING', 'GW-AUTH-401-INVALID-TOKEN', 'GW-ANY-401-429'],
  codes: { 'auth.issued-token-refused': 'failure', 'auth.token-not-refused': 'failure' },
  judge(o: BearerUse, v) {
    if (o.token === 'issued') {
      v.decides('GW-AUTH-BEARER-EVERY-ROUTE');
      judgeStatus(v, o.answer.exchange, '2xx', { unexpected: 'auth.issued-token-refused' }, o.label);
      return;
    }
    v.decides(o.token === 'missing' ? 'GW-AUTH-401-MISSING' : 'GW-AUTH-401-INVALID-TOKEN', 'GW-AUTH-BEARER-EVERY-ROUTE', 'GW-ANY-401-429');
    judgeStatus(v, o.answer.exchange, 401, { unexpected: 'auth.token-not-refused' }, o.label);
  },
});

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
 * conforms (the suite notes it); the LAST probe, sent beyond the leeway, must answer 401. Probes: in
 * time order; the last one is the verdict. A last probe inside the leeway that was accepted decides
 * nothing yet (the suite probes again).
 */
export const refuseExpiredToken = defineRule({
  name: 'refuseExpiredToken',
  requirements: ['GW-AUTH-EXPIRY'],
  codes: { 'auth.expired-token-accepted': 'failure' },
  judge(probes: readonly ExpiryProbe[], v) {
    const last = probes[probes.length - 1];
    if (!last) return v.nothingToJudge();
    if (last.afterExpiryMs < TOKEN_EXPIRY_LEEWAY_MS && last.exchange.response?.status !== 401) return v.nothingToJudge();
    v.shows(...probes.map((p) => p.exchange));
    judgeStatus(v, last.exchange, 401, { unexpected: 'auth.expired-token-accepted' }, `a token ${Math.round(last.afterExpiryMs / 1000)} s past its expiresIn`);
  },
});

/**
 * "the client calls `POST /api/auth` again": after expiry a new exchange answers 200 and its token opens
 * a route (a token handed back already expired does not).
 */
export const reissueTokenAfterExpiry = defineRule({
  name: 'reissueTokenAfterExpiry',
  requirements: ['GW-AUTH-REAUTH'],
  codes: { 'auth.reauth-refused': 'failure', 'auth.reissued-token-refused': 'failure' },
  judge(o: { again: Answer; use?: Answer }, v) {
    if (!judgeStatus(v, o.again.exchange, 200, { unexpected: 'auth.reauth-refused' }, 'POST /api/auth after the token expired')) return;
    if (o.use) {
      v.shows(o.again.exchange);
      judgeStatus(v, o.use.exchange, '2xx', { unexpected: 'auth.reissued-token-refused' }, 'a route with the token issued after expiry');
    }
  },
});

