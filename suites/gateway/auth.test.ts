/**
 * Gateway authentication (gateway-api.md "Authentication", "POST /api/auth", "Endpoints", "Errors").
 *
 * - "Header `Authorization: Basic <base64(client_id:client_secret)>`."
 * - "200: `success` boolean, `token` string (JWT), `tokenType` string (Bearer), `expiresIn` integer
 *   in milliseconds." "401 invalid credentials; 429 rate limited."
 * - "All routes except `POST /api/auth` require `Authorization: Bearer <ACCESS_TOKEN>`."
 * - "401 | token missing, invalid or expired"
 * - "The token lifetime is given by `expiresIn` (sample 60000 ms); after expiry a route answers 401
 *   and the client calls `POST /api/auth` again."
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import { basicAuthorization } from '../../harness/http/auth.js';
import type { ApiResponse, GatewayAuthMode, GatewaySendOptions } from '../../harness/http/gateway-client.js';
import { show } from '../../harness/rules/judgement.js';
import {
  TOKEN_EXPIRY_LEEWAY_MS,
  answerTokenExchange,
  readCredentialsFromBasicHeader,
  refuseExpiredToken,
  refuseInvalidCredentials,
  reissueTokenAfterExpiry,
  requireBearerOnEveryRoute,
  type ExpiryProbe,
} from '../../harness/rules/gateway/auth.js';
import { cardChargeBody, isRecord, pixChargeBody, uniqueTag } from './support.js';

const AREA = 'Authentication';

/** The Basic credential the target knows (the sandbox pair), or a notRun when it is missing. */
function sandboxPair(t: { target: { gateway?: { sandbox: { clientId: string; clientSecret: string } } }; notRun(c: string, r: string): never }): { clientId: string; clientSecret: string } {
  const pair = t.target.gateway?.sandbox;
  if (!pair) t.notRun('gateway', 'gateway sandbox pair not configured');
  return pair;
}

/** Uses `token` on GET /api/v1/balance (a route that moves nothing). */
async function useToken(it: RunTools, token: string) {
  return it.gateway().send({ method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance', auth: { authorization: `Bearer ${token}` } });
}

check(
  'POST /api/auth with the sandbox pair answers 200 with a Bearer token that opens the other routes',
  {
    id: 'gateway.auth.exchange-shape',
    api: 'gateway',
    area: AREA,
    rules: [readCredentialsFromBasicHeader, answerTokenExchange, requireBearerOnEveryRoute],
    severity: 'critical',
  },
  async (t) => {
    // "Header Authorization: Basic <base64(client_id:client_secret)>" → "200: success, token, tokenType, expiresIn"
    const r = await t.gateway().auth();
    t.judge(readCredentialsFromBasicHeader, { answer: r, form: 'basic', label: 'the sandbox pair' });
    // the values a client relies on (success, token as JWT, tokenType Bearer in any case, expiresIn in ms)
    t.judge(answerTokenExchange, r);
    if (r.status !== 200 || !isRecord(r.json)) return;
    const body = r.json;
    const expiresIn = body.expiresIn;
    if (typeof body.tokenType === 'string' && body.tokenType !== 'Bearer') t.run.note(`tokenType is ${show(body.tokenType)} (auth schemes are case-insensitive; accepted)`);
    t.run.note(`expiresIn: ${show(expiresIn)} ms`);
    if (typeof body.token !== 'string' || body.token === '') return;
    // the JWT's own exp/iat (claims not shown by the contract): an observation only
    const payload = body.token.split('.')[1];
    if (payload) {
      try {
        const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (isRecord(claims) && typeof claims.exp === 'number' && typeof claims.iat === 'number') {
          t.run.note(`JWT exp − iat = ${claims.exp - claims.iat} s; expiresIn = ${show(expiresIn)} ms`);
        }
      } catch {
        t.run.note('the token payload segment is not base64url JSON (claims are not shown by the contract)');
      }
    }
    // "then send Authorization: Bearer <ACCESS_TOKEN> on every other route"
    const use = await useToken(t, body.token);
    t.judge(requireBearerOnEveryRoute, { answer: use, token: 'issued', label: 'GET /api/v1/balance with the token just issued' });
  },
);

check(
  'POST /api/auth with a wrong secret or an unknown client id answers 401 and no token',
  {
    id: 'gateway.auth.invalid-credentials',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidCredentials],
    severity: 'critical',
  },
  async (t) => {
    // "401 invalid credentials" (a fixed status)
    const pair = sandboxPair(t);
    const gw = t.gateway();
    const cases = [
      { label: 'wrong secret', pair: { clientId: pair.clientId, clientSecret: `${pair.clientSecret}x` } },
      { label: 'another wrong secret', pair: { clientId: pair.clientId, clientSecret: `wrong-${randomUUID()}` } },
      { label: 'unknown client id', pair: { clientId: `unknown-${randomUUID()}`, clientSecret: pair.clientSecret } },
      { label: 'empty secret', pair: { clientId: pair.clientId, clientSecret: '' } },
    ];
    // independent refusals: sent together (up to --concurrency), judged in case order
    const answers = await t.all(cases, (c) => gw.auth(c.pair));
    for (const [k, c] of cases.entries()) {
      const r = answers[k] as ApiResponse;
      t.judge(refuseInvalidCredentials, { answer: r, label: c.label });
    }
  },
);

check(
  'POST /api/auth with a missing or malformed Basic header is refused (401)',
  {
    id: 'gateway.auth.malformed-basic',
    api: 'gateway',
    area: AREA,
    rules: [readCredentialsFromBasicHeader],
    severity: 'critical',
  },
  async (t) => {
    const pair = sandboxPair(t);
    const gw = t.gateway();
    const basic = basicAuthorization(pair.clientId, pair.clientSecret);
    const cases: { label: string; authorization: string | null }[] = [
      { label: 'no Authorization header', authorization: null },
      { label: 'Basic without credentials', authorization: 'Basic' },
      { label: 'Basic with text that is not base64', authorization: 'Basic !!!not-base64!!!' },
      { label: 'Basic without a colon', authorization: `Basic ${Buffer.from(`${pair.clientId}${pair.clientSecret}`).toString('base64')}` },
      { label: 'Bearer scheme carrying the Basic credential', authorization: basic.replace(/^Basic/, 'Bearer') },
      { label: 'unencoded id:secret', authorization: `Basic ${pair.clientId}:${pair.clientSecret}` },
    ];
    // independent refusals: sent together (up to --concurrency), judged in case order
    const answers = await t.all(cases, (c) => (c.authorization === null ? gw.auth(null) : gw.auth(null, { authorization: c.authorization })));
    for (const [k, c] of cases.entries()) {
      const r = answers[k] as ApiResponse;
      // the credentials are missing or unreadable: "401 invalid credentials". A 400 for an
      // unparseable header is a reading the text does not exclude, so another 4xx only warns.
      if (!t.judge(readCredentialsFromBasicHeader, { answer: r, form: 'unreadable', label: c.label }) && r.status >= 400 && r.status <= 499) t.run.note(`${c.label}: HTTP ${r.status}`);
    }
  },
);

interface RouteCase {
  label: string;
  options: GatewaySendOptions;
}

/** Every documented route except POST /api/auth, with a valid body so only the credential is wrong. */
function protectedRoutes(callbackUrl: (path: string) => string): RouteCase[] {
  const id = randomUUID();
  const transfer = { pixKey: `${uniqueTag('k')}@example.com`, amount: 100, description: uniqueTag('auth') };
  return [
    { label: 'create PIX charge', options: { method: 'POST', path: '/api/v1/pix/in/qrcode', operation: 'POST /api/v1/pix/in/qrcode', json: pixChargeBody() } },
    { label: 'get PIX charge', options: { method: 'GET', path: `/api/v1/pix/in/qrcode/${id}`, operation: 'GET /api/v1/pix/in/qrcode/{transactionId}' } },
    { label: 'pay PIX charge', options: { method: 'POST', path: `/api/v1/pix/in/qrcode/${id}/pay`, operation: 'POST /api/v1/pix/in/qrcode/{transactionId}/pay' } },
    { label: 'create PIX transfer', options: { method: 'POST', path: '/api/v1/pix/out/pixkey', operation: 'POST /api/v1/pix/out/pixkey', json: transfer, headers: { 'x-idempotency-key': randomUUID() }, moneyMoving: true } },
    { label: 'get PIX transfer', options: { method: 'GET', path: `/api/v1/pix/out/pixkey/${id}`, operation: 'GET /api/v1/pix/out/pixkey/{transferId}' } },
    { label: 'complete PIX transfer', options: { method: 'POST', path: `/api/v1/pix/out/pixkey/${id}/complete`, operation: 'POST /api/v1/pix/out/pixkey/{transferId}/complete' } },
    { label: 'create card charge', options: { method: 'POST', path: '/api/v1/card', operation: 'POST /api/v1/card', json: cardChargeBody(), moneyMoving: true } },
    { label: 'get transaction', options: { method: 'GET', path: `/api/v1/transactions/${id}`, operation: 'GET /api/v1/transactions/{transactionId}' } },
    { label: 'get balance', options: { method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance' } },
    { label: 'list webhooks', options: { method: 'GET', path: '/api/v1/webhook', operation: 'GET /api/v1/webhook' } },
    { label: 'create webhook', options: { method: 'POST', path: '/api/v1/webhook', operation: 'POST /api/v1/webhook', json: { url: callbackUrl(`/gw/${uniqueTag('auth-wh')}`), events: ['transaction_created'] } } },
    { label: 'delete webhook', options: { method: 'DELETE', path: `/api/v1/webhook/${Math.floor(Math.random() * 1e9) + 1e9}`, operation: 'DELETE /api/v1/webhook/{id}' } },
  ];
}

/** A real token with one character of its signature changed (a JWT whose signature no longer verifies). */
function tamper(token: string): string {
  const parts = token.split('.');
  const target = parts.length === 3 && (parts[2] ?? '').length > 2 ? 2 : -1;
  const flip = (s: string, at: number): string => {
    const ch = s[at] ?? 'A';
    return `${s.slice(0, at)}${ch === 'A' ? 'B' : 'A'}${s.slice(at + 1)}`;
  };
  // change the FIRST character of the signature: its bits are all significant in base64url
  if (target === 2) return [parts[0], parts[1], flip(parts[2] ?? '', 0)].join('.');
  return flip(token, Math.floor(token.length / 2));
}

check(
  'every /api/v1 route answers 401 without a token, with a garbage token and with a tampered token',
  {
    id: 'gateway.auth.routes-require-bearer',
    api: 'gateway',
    area: AREA,
    rules: [requireBearerOnEveryRoute],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    const fresh = await gw.auth();
    const realToken = isRecord(fresh.json) && typeof fresh.json.token === 'string' ? fresh.json.token : undefined;
    const modes: { label: string; auth: GatewayAuthMode; kind: 'missing' | 'invalid' }[] = [
      // "All routes except POST /api/auth require Authorization: Bearer <ACCESS_TOKEN>"; "401 | token missing, invalid or expired"
      { label: 'no Authorization header', auth: 'none', kind: 'missing' },
      { label: 'garbage Bearer token', auth: { authorization: `Bearer garbage-${randomUUID()}` }, kind: 'invalid' },
      { label: 'empty Bearer', auth: { authorization: 'Bearer ' }, kind: 'missing' },
      {
        label: 'unsigned JWT (alg none)',
        auth: { authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(`{"sub":"x","exp":${Math.floor(Date.now() / 1000) + 3600}}`).toString('base64url')}.` },
        kind: 'invalid',
      },
    ];
    if (realToken) modes.push({ label: 'real token with a tampered signature', auth: { authorization: `Bearer ${tamper(realToken)}` }, kind: 'invalid' });
    else t.run.note('no token from POST /api/auth: the tampered-token case was not sent');
    // every probe is refused before it touches anything (fresh ids, fresh bodies per mode): independent,
    // so they are sent together (up to --concurrency) and judged in mode × route order
    const probes = modes.flatMap((mode) => protectedRoutes(t.callbackUrl).map((route) => ({ mode, route })));
    const answers = await t.all(probes, ({ mode, route }) => gw.send({ ...route.options, auth: mode.auth }));
    for (const [k, { mode, route }] of probes.entries()) {
      const r = answers[k] as ApiResponse;
      t.judge(requireBearerOnEveryRoute, { answer: r, token: mode.kind, label: `${route.label} with ${mode.label}` });
    }
  },
);

check(
  'after expiresIn the token is refused with 401 and a new POST /api/auth gives a working token',
  {
    id: 'gateway.auth.token-expiry',
    api: 'gateway',
    area: AREA,
    rules: [refuseExpiredToken, reissueTokenAfterExpiry, readCredentialsFromBasicHeader, answerTokenExchange, requireBearerOnEveryRoute],
    severity: 'critical',
    tier: 'timer',
  },
  async (t) => {
    const gw = t.gateway();
    const first = await gw.auth();
    t.judge(readCredentialsFromBasicHeader, { answer: first, form: 'basic', label: 'the sandbox pair' });
    t.judge(answerTokenExchange, first);
    const body = isRecord(first.json) ? first.json : {};
    const token = typeof body.token === 'string' ? body.token : undefined;
    const expiresIn = typeof body.expiresIn === 'number' && Number.isFinite(body.expiresIn) ? body.expiresIn : undefined;
    if (!token || expiresIn === undefined || expiresIn <= 0) return t.notRun('gateway', `no usable token/expiresIn from POST /api/auth (expiresIn ${show(body.expiresIn)})`);
    // the wait is derived from what the target says; a lifetime beyond the check's budget is not waited for
    if (expiresIn > 10 * 60_000) return t.notRun('timer', `expiresIn is ${expiresIn} ms: longer than this check waits (10 minutes)`);
    const issuedAt = Date.now();
    const before = await useToken(t, token);
    t.judge(requireBearerOnEveryRoute, { answer: before, token: 'issued', label: 'GET /api/v1/balance with the token before it expires' });

    // "after expiry a route answers 401". Validators commonly allow a clock leeway past exp and the
    // contract names none: probe just after expiresIn, and once more beyond the leeway if still accepted
    const sleepUntil = async (at: number) => {
      const wait = at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    };
    const probes: ExpiryProbe[] = [];
    for (const afterExpiryMs of [1000, TOKEN_EXPIRY_LEEWAY_MS + 1000]) {
      await sleepUntil(issuedAt + expiresIn + afterExpiryMs);
      const probe = await useToken(t, token);
      probes.push({ afterExpiryMs, exchange: probe.exchange });
      if (probe.status === 401) break;
      t.run.note(`the token was still accepted ${afterExpiryMs / 1000} s after expiresIn (HTTP ${probe.status})`);
    }
    t.judge(refuseExpiredToken, probes);
    // "the client calls POST /api/auth again"
    const again = await gw.auth();
    const newToken = again.status === 200 && isRecord(again.json) && typeof again.json.token === 'string' ? again.json.token : undefined;
    t.judge(reissueTokenAfterExpiry, { again, ...(newToken ? { use: await useToken(t, newToken) } : {}) });
  },
);
