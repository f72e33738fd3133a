/**
 * Preflight: before any check, can the target be tested from here at all?
 *
 * A few read-only requests per configured API, and one to the receiver's public address:
 * - gateway: `POST /api/auth` with the sandbox pair (DNS, TLS, proxy, credentials, availability),
 *   then `GET /api/v1/balance` (a documented read-only route: with the token, or without one when
 *   auth failed, to tell "every route answers 503" from "auth answers 503");
 * - partner: `GET /business/finance` with the `ak_test_` key and `GET /business/pix-charges/<random>`;
 * - receiver: `GET ${CALLBACK_PUBLIC_URL}/_paygate-preflight/<nonce>` from the suite, answered by a
 *   probe listening where the receiver will (CALLBACK_HOST:CALLBACK_PORT), so a tunnel or reverse
 *   proxy that is down shows before the webhook checks wait for deliveries that cannot come.
 *
 * A problem found here is on the certifier's side (network, proxy, CA, credentials, tunnel) or
 * makes the target untestable (unavailable): the run stops in seconds with an "inconclusive"
 * verdict and one actionable message, never a conformance failure. Nothing here judges
 * conformance: a target that answers anything else is left to the checks.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { HttpClient } from '../http/client.js';
import type { HttpResult } from '../http/client.js';
import { basicAuthorization } from '../http/auth.js';
import { defaultRedactor, registerTargetSecrets } from '../http/redact.js';
import { describeTransportError, hostOf, proxyDispatcher, proxyFor, proxySettings, redactProxyUrl } from '../http/transport.js';
import type { TargetConfig } from '../config/target.js';
import { targetNetwork } from '../http/target-network.js';

export interface PreflightOptions {
  /** which APIs the run tests (default both) */
  api?: 'gateway' | 'partner' | 'both';
  /** per-request time limit (default 10 s) */
  timeoutMs?: number;
  /** probe CALLBACK_PUBLIC_URL (default: when webhook checks will run) */
  probeReceiver?: boolean;
}

export interface PreflightResult {
  /** what stops the run, most actionable first; empty: go ahead */
  problems: string[];
  /** what went well, for the run header */
  notes: string[];
  durationMs: number;
}

function isUnavailable(r: HttpResult): boolean {
  return r.status >= 500 && r.status <= 599;
}

function describeAnswer(r: HttpResult): string {
  const type = r.headers['content-type'] ?? 'no content type';
  return `${r.status} (${type.split(';')[0]})`;
}

function transportProblem(what: string, r: HttpResult): string {
  const problem = describeTransportError(r.exchange.error ?? 'no response', hostOf(r.exchange.request.url));
  return `${problem.hint} [${what}: ${problem.detail}]`;
}

async function probeGateway(target: NonNullable<TargetConfig['gateway']>, timeoutMs: number, problems: string[], notes: string[]): Promise<void> {
  const http = new HttpClient({ api: 'gateway', baseUrl: target.baseUrl, timeoutMs, connections: 2, max429Retries: 2, maxRetryAfterMs: 2_000, target: targetNetwork() });
  try {
    const auth = await http.request({
      api: 'gateway',
      method: 'POST',
      path: '/api/auth',
      operation: 'POST /api/auth',
      headers: { authorization: basicAuthorization(target.sandbox.clientId, target.sandbox.clientSecret) },
    });
    if (auth.status === 0) {
      problems.push(transportProblem(`gateway POST ${target.baseUrl}/api/auth`, auth));
      return;
    }
    const body = auth.json as { token?: unknown } | undefined;
    const token = auth.status === 200 && typeof body?.token === 'string' && body.token !== '' ? body.token : undefined;
    if (token !== undefined) http.redactor.register(token, 'gateway-token');
    const balance = await http.request({
      api: 'gateway',
      method: 'GET',
      path: '/api/v1/balance',
      operation: 'GET /api/v1/balance',
      ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }),
    });
    if (isUnavailable(auth) && (balance.status === 0 || isUnavailable(balance))) {
      problems.push(
        `every gateway route answers ${describeAnswer(auth)}: the target at ${target.baseUrl} is unavailable (maintenance?); try again later [POST /api/auth → ${auth.status}, GET /api/v1/balance → ${balance.status || balance.exchange.error}]`,
      );
      return;
    }
    if (isUnavailable(auth)) {
      problems.push(`the gateway's POST /api/auth answers ${describeAnswer(auth)} (other routes answer): no gateway check can get a token from ${target.baseUrl}; the target's authentication is down`);
      return;
    }
    if (auth.status === 401 || auth.status === 403) {
      problems.push(`gateway credentials refused: POST ${target.baseUrl}/api/auth answered ${auth.status}: check GATEWAY_CLIENT_ID/GATEWAY_CLIENT_SECRET (the sandbox pair)`);
      return;
    }
    if (balance.status === 0) {
      problems.push(transportProblem(`gateway GET ${target.baseUrl}/api/v1/balance`, balance));
      return;
    }
    notes.push(`gateway ${target.baseUrl}: POST /api/auth ${auth.status}, GET /api/v1/balance ${balance.status}`);
  } finally {
    await http.close();
  }
}

async function probePartner(target: NonNullable<TargetConfig['partner']>, timeoutMs: number, problems: string[], notes: string[]): Promise<void> {
  const http = new HttpClient({ api: 'partner', baseUrl: target.baseUrl, timeoutMs, connections: 2, max429Retries: 2, maxRetryAfterMs: 2_000, target: targetNetwork() });
  try {
    const headers = { authorization: `Bearer ${target.apiKey}` };
    const finance = await http.request({ api: 'partner', method: 'GET', path: '/business/finance', operation: 'GET /business/finance', headers });
    if (finance.status === 0) {
      problems.push(transportProblem(`partner GET ${target.baseUrl}/business/finance`, finance));
      return;
    }
    const charge = await http.request({ api: 'partner', method: 'GET', path: `/business/pix-charges/pc_preflight_${randomUUID().slice(0, 8)}`, operation: 'GET /business/pix-charges/{id}', headers });
    if (isUnavailable(finance) && (charge.status === 0 || isUnavailable(charge))) {
      problems.push(
        `every partner route answers ${describeAnswer(finance)}: the target at ${target.baseUrl} is unavailable (maintenance?); try again later [GET /business/finance → ${finance.status}, GET /business/pix-charges/{id} → ${charge.status || charge.exchange.error}]`,
      );
      return;
    }
    if ((finance.status === 401 || finance.status === 403) && (charge.status === 401 || charge.status === 403)) {
      problems.push(`partner key refused: GET ${target.baseUrl}/business/finance answered ${finance.status}: check PARTNER_API_KEY (an ak_test_ key of this sandbox)`);
      return;
    }
    notes.push(`partner ${target.baseUrl}: GET /business/finance ${finance.status}`);
  } finally {
    await http.close();
  }
}

/**
 * Sends one request to the receiver's public URL and checks it arrives at a probe listening where
 * the receiver will listen. Skipped (undefined) when the receiver's port is not fixed (0).
 */
async function probeReceiver(callback: TargetConfig['callback'], timeoutMs: number, problems: string[], notes: string[]): Promise<void> {
  if (callback.port === 0) return;
  const nonce = randomUUID();
  const seen: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if ((req.url ?? '').includes(nonce)) seen.push(req.url ?? '');
    res.writeHead(200, { 'x-paygate-preflight': nonce, 'content-type': 'text/plain' });
    res.end('paygate-conformance receiver preflight\n');
  });
  const listening = await new Promise<string | undefined>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? `CALLBACK_PORT ${callback.port} on ${callback.host} is in use: stop what holds it or set CALLBACK_PORT to a free port` : `the receiver cannot listen on ${callback.host}:${callback.port}: ${err.message}`));
    server.listen(callback.port, callback.host, () => resolve(undefined));
  });
  if (listening !== undefined) {
    problems.push(listening);
    return;
  }
  const bound = (server.address() as AddressInfo).port;
  const url = `${callback.publicUrl}/_paygate-preflight/${nonce}`;
  const origin = new URL(url).origin;
  const direct = new Agent({ connections: 1 });
  const dispatcher: Dispatcher = proxyDispatcher(origin) ?? direct;
  const via = proxyFor(new URL(url));
  try {
    let answer: { status: number; marker: string | undefined } | undefined;
    let error: string | undefined;
    try {
      const res = await request(url, { method: 'GET', dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      await res.body.text();
      const marker = res.headers['x-paygate-preflight'];
      answer = { status: res.statusCode, marker: Array.isArray(marker) ? marker[0] : marker };
    } catch (err) {
      const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
      error = `${typeof code === 'string' ? `${code}: ` : ''}${err instanceof Error ? err.message : String(err)}`;
    }
    const where = `the receiver listens on ${callback.host}:${bound}`;
    const must = 'the target must reach this address to deliver webhooks';
    if (answer === undefined) {
      const problem = describeTransportError(error ?? 'no response', hostOf(url));
      problems.push(`CALLBACK_PUBLIC_URL ${callback.publicUrl} is unreachable from here (${problem.detail}); ${where}, and ${must}: start the tunnel or reverse proxy, or fix CALLBACK_PUBLIC_URL${via !== undefined ? ` (sent through the proxy ${redactProxyUrl(via)}; NO_PROXY?)` : ''}`);
    } else if (answer.marker !== nonce || seen.length === 0) {
      problems.push(`CALLBACK_PUBLIC_URL ${callback.publicUrl} does not lead to this run's receiver (it answered ${answer.status} without the receiver's mark); ${where}, and ${must}: check the tunnel or reverse proxy forwards there`);
    } else {
      notes.push(`receiver: ${callback.publicUrl} reaches ${callback.host}:${bound} from here; the target must reach it too (webhook checks)`);
    }
  } finally {
    await direct.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Runs every probe (APIs side by side) and returns the problems found. */
export async function preflight(target: TargetConfig, options: PreflightOptions = {}): Promise<PreflightResult> {
  const started = performance.now();
  const api = options.api ?? 'both';
  const timeoutMs = options.timeoutMs ?? 10_000;
  registerTargetSecrets(target, defaultRedactor);
  const problems: string[][] = [[], [], []];
  const notes: string[][] = [[], [], []];
  const tasks: Promise<void>[] = [];
  if (target.gateway && api !== 'partner') tasks.push(probeGateway(target.gateway, timeoutMs, problems[0]!, notes[0]!));
  if (target.partner && api !== 'gateway') tasks.push(probePartner(target.partner, timeoutMs, problems[1]!, notes[1]!));
  const webhooks = (target.gateway !== undefined && api !== 'partner') || (target.partner?.webhookSecret !== undefined && api !== 'gateway');
  if (options.probeReceiver ?? webhooks) tasks.push(probeReceiver(target.callback, timeoutMs, problems[2]!, notes[2]!));
  await Promise.all(tasks);
  const proxy = proxySettings();
  if (proxy.httpsProxy !== undefined || proxy.httpProxy !== undefined) notes.unshift([`proxy: ${redactProxyUrl(proxy.httpsProxy ?? proxy.httpProxy ?? '')}${proxy.noProxy !== undefined ? ` (NO_PROXY=${proxy.noProxy})` : ''}`]);
  return { problems: problems.flat(), notes: notes.flat(), durationMs: Math.round(performance.now() - started) };
}
