// Safety of runs against a target, judged by a recording proxy that logs every request
// independently of the harness (method, path, and which credential it carried: a Bearer token is
// traced back to the pair it was issued to). The reference runs in-process (shortened timers); the
// suite runs through `npm run conformance`'s entry point.
//
// 1. Production credentials only: the reference's PRODUCTION pair in every gateway slot
//    (GATEWAY_CLIENT_* = GATEWAY_LIVE_* = live pair; GATEWAY_LIVE_* is production by definition),
//    certify profile. No money-moving request (POST /api/v1/pix/out/pixkey, POST /api/v1/card) may
//    carry a token the target issued (unauthenticated negative tests move no money and are allowed,
//    and so does a transfer body of `{}`: no pixKey, no amount).
// 2. No file under a run's reports directory contains any configured secret (client secrets and
//    their Basic credentials, API keys, the partner webhook secret) or any token/secret the target
//    handed out (bearer tokens, webhook signatureSecrets): checked on run 1 and on a quick run with
//    every credential configured (both APIs, webhooks flowing).
// 3. Only GATEWAY_LIVE_* set (no sandbox pair): the run refuses to start and sends nothing.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.js';
import type { ReferenceOptions, RunningReference } from '../reference/server.js';
import { ROOT, runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';
import { startRecordingProxy } from './fault-matrix/recording-proxy.js';
import type { ProxiedRequest, RecordingProxy } from './fault-matrix/recording-proxy.js';

const MONEY_MOVING = new Set(['POST /api/v1/pix/out/pixkey', 'POST /api/v1/card']);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** The spellings of a secret a report could contain: raw, JSON-escaped, URL-encoded. */
function spellings(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** `file: kind` for every secret found in a file under `dir` (the secret itself is never printed). */
function leaks(dir: string, secrets: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file).toString('utf8');
    for (const [secret, kind] of secrets) {
      if (spellings(secret).some((s) => text.includes(s))) found.push(`${file.slice(ROOT.length)}: ${kind}`);
    }
  }
  return found;
}

/** A request to a money-moving route (whatever its body: production credentials never send one). */
function moneyMoving(entry: ProxiedRequest): boolean {
  return MONEY_MOVING.has(`${entry.method} ${entry.path.split('?')[0] ?? ''}`);
}

interface Scenario {
  reference: RunningReference;
  gatewayProxy: RecordingProxy;
  partnerProxy: RecordingProxy;
  result: ConformanceRunResult;
  reportsDir: string;
}

/** The reference's shortened timers (docs/ARCHITECTURE.md), for runs that wait for timers. */
const SHORT_TIMERS: Partial<ReferenceOptions> = {
  tokenTtlMs: 3_000,
  partnerExpiryScale: 0.02,
  partnerRetryBaseMs: 25,
  partnerRetryCapMs: 300_000,
  partnerDeliveryTimeoutMs: 2_000,
};

/** A reference behind two recording proxies, and one CLI run against it. */
async function scenario(
  label: string,
  cliArgs: string[],
  timers: Partial<ReferenceOptions>,
  credentials: (r: RunningReference, partnerUrl: string) => Record<string, string>,
): Promise<Scenario> {
  const callbackPort = await freePort();
  const reference = await startReference({
    gatewayPort: 0,
    partnerPort: 0,
    faults: new Set(),
    chaos: false,
    partnerWebhookUrl: `http://127.0.0.1:${callbackPort}/partner`,
    ...timers,
  });
  const gatewayProxy = await startRecordingProxy(reference.info.gateway.baseUrl);
  const partnerProxy = await startRecordingProxy(new URL(reference.info.partner.baseUrl).origin);
  const reportsDir = join(ROOT, 'reports', 'self-test', label);
  const result = await runConformance({
    label,
    via: 'cli',
    files: [],
    cliArgs,
    reportsDir,
    timeoutMs: 150_000,
    env: {
      GATEWAY_BASE_URL: gatewayProxy.url,
      CALLBACK_PORT: String(callbackPort),
      ...credentials(reference, `${partnerProxy.url}/v1`),
    },
  });
  console.log(`${label}: exit ${result.timedOut ? 'timeout' : String(result.exitCode)} in ${result.durationMs} ms, ${gatewayProxy.log.length} gateway and ${partnerProxy.log.length} partner requests`);
  return { reference, gatewayProxy, partnerProxy, result, reportsDir };
}

async function stopScenario(s: Scenario | undefined): Promise<void> {
  if (s === undefined) return;
  await Promise.all([s.gatewayProxy.close(), s.partnerProxy.close()]);
  await s.reference.close();
}

/** Every configured secret of a reference, and every token/secret it handed out through the proxies. */
function secretsOf(s: Scenario): Map<string, string> {
  const g = s.reference.info.gateway;
  const p = s.reference.info.partner;
  const secrets = new Map<string, string>([
    [g.clientSecret, 'GATEWAY_CLIENT_SECRET'],
    [Buffer.from(`${g.clientId}:${g.clientSecret}`).toString('base64'), 'GATEWAY Basic credential'],
    [g.liveClientSecret, 'GATEWAY_LIVE_CLIENT_SECRET'],
    [Buffer.from(`${g.liveClientId}:${g.liveClientSecret}`).toString('base64'), 'GATEWAY_LIVE Basic credential'],
    [g.otherClientSecret, 'GATEWAY_OTHER_CLIENT_SECRET'],
    [Buffer.from(`${g.otherClientId}:${g.otherClientSecret}`).toString('base64'), 'GATEWAY_OTHER Basic credential'],
    [p.apiKey, 'PARTNER_API_KEY'],
    [p.liveApiKey, 'PARTNER_LIVE_API_KEY'],
    [p.otherApiKey, 'PARTNER_OTHER_API_KEY'],
    [p.webhookSecret, 'PARTNER_WEBHOOK_SECRET'],
  ]);
  for (const value of [...s.gatewayProxy.issuedSecrets(), ...s.partnerProxy.issuedSecrets()]) if (!secrets.has(value)) secrets.set(value, 'a token/secret issued by the target');
  return secrets;
}

// The two runs go in parallel (each is mostly waiting on the other's CPU or on timers).
let production: Scenario | undefined;
let everything: Scenario | undefined;
beforeAll(async () => {
  [production, everything] = await Promise.all([
    // production credentials only: the live pair in the sandbox slot too (certify, gateway: the API
    // with money-moving routes; one property run each, the values do not matter here)
    scenario('safety-production', ['--profile', 'certify', '--api', 'gateway', '--max-rps', '1000', '--workers', '2', '--runs', '1', '--seed', '7'], SHORT_TIMERS, (r) => ({
      GATEWAY_CLIENT_ID: r.info.gateway.liveClientId,
      GATEWAY_CLIENT_SECRET: r.info.gateway.liveClientSecret,
      GATEWAY_LIVE_CLIENT_ID: r.info.gateway.liveClientId,
      GATEWAY_LIVE_CLIENT_SECRET: r.info.gateway.liveClientSecret,
    })),
    // every credential configured, both APIs, webhooks flowing: the richest reports to search
    scenario('safety-secrets', ['--profile', 'quick', '--workers', '2', '--seed', '8'], {}, (r, partnerUrl) => {
      const g = r.info.gateway;
      const p = r.info.partner;
      return {
        PARTNER_BASE_URL: partnerUrl,
        GATEWAY_CLIENT_ID: g.clientId,
        GATEWAY_CLIENT_SECRET: g.clientSecret,
        GATEWAY_LIVE_CLIENT_ID: g.liveClientId,
        GATEWAY_LIVE_CLIENT_SECRET: g.liveClientSecret,
        GATEWAY_OTHER_CLIENT_ID: g.otherClientId,
        GATEWAY_OTHER_CLIENT_SECRET: g.otherClientSecret,
        GATEWAY_SPLIT_EMAIL: g.splitEmail,
        PARTNER_API_KEY: p.apiKey,
        PARTNER_LIVE_API_KEY: p.liveApiKey,
        PARTNER_OTHER_API_KEY: p.otherApiKey,
        PARTNER_WEBHOOK_SECRET: p.webhookSecret,
      };
    }),
  ]);
}, 200_000);

afterAll(async () => {
  await Promise.all([stopScenario(production), stopScenario(everything)]);
});

/** The CLI refused the configuration: no verdict, exit 2 (configuration) or 3, and nothing sent. */
function refusedToStart(s: Scenario): boolean {
  return s.result.report === undefined && (s.result.exitCode === 2 || s.result.exitCode === 3) && s.gatewayProxy.log.length === 0;
}

function must(s: Scenario | undefined): Scenario {
  if (s === undefined) throw new Error('the scenario did not run (see beforeAll)');
  return s;
}

test('the report scanner finds a planted secret in any spelling (so a clean scan means something)', () => {
  const dir = join(ROOT, 'reports', 'self-test', 'safety-scanner');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'nested'), { recursive: true });
  const secret = 'sk_planted/secret+value"1';
  writeFileSync(join(dir, 'a.json'), JSON.stringify({ note: `x${secret}y` }));
  writeFileSync(join(dir, 'nested', 'b.txt'), `curl 'http://h/?k=${encodeURIComponent(secret)}'`);
  writeFileSync(join(dir, 'c.md'), 'nothing here');
  const found = leaks(dir, new Map([[secret, 'PLANTED']]));
  rmSync(dir, { recursive: true, force: true });
  expect(found.map((f) => f.replace(/^.*safety-scanner\//, ''))).toEqual(['a.json: PLANTED', 'nested/b.txt: PLANTED']);
});

describe('a run with production credentials only (GATEWAY_CLIENT_* = GATEWAY_LIVE_* = the live pair)', () => {
  // Two safe designs pass: the harness treats a pair equal to GATEWAY_LIVE_* as production (runs
  // every check, refuses the money-moving requests), or it refuses to start with a clear message.
  test('the run finished (or refused to start: exit 2/3, no request sent)', () => {
    const { result, gatewayProxy } = must(production);
    expect(result.timedOut, result.outputTail.slice(-2000)).toBe(false);
    if (refusedToStart(must(production))) return;
    expect(result.report, `no conformance.json:\n${result.outputTail.slice(-2000)}`).toBeDefined();
    expect(gatewayProxy.log.length).toBeGreaterThan(0);
  });

  test('no money-moving request carried a token issued to the production pair', () => {
    const s = must(production);
    const live = s.reference.info.gateway.liveClientId;
    const authenticated = s.gatewayProxy.log.filter((e) => moneyMoving(e) && e.credential === 'bearer-issued');
    const lines = authenticated.map((e) => `${e.method} ${e.path} → ${e.status} (token of ${e.clientId === live ? 'the production pair' : (e.clientId ?? '?')})`);
    expect(lines, `money-moving requests sent with a production token (${lines.length}):\n${[...new Set(lines)].join('\n')}`).toEqual([]);
  });

  test('no report file contains a configured secret or a token the target issued', () => {
    const s = must(production);
    if (!refusedToStart(s)) expect(filesUnder(s.reportsDir).length, 'the run wrote no report files').toBeGreaterThan(0);
    const found = leaks(s.reportsDir, secretsOf(s));
    expect(found, `secrets found in report files:\n${found.join('\n')}`).toEqual([]);
  });
});

describe('a run with every credential configured (both APIs, webhooks)', () => {
  test('the run finished with a report and no failure', () => {
    const { result, gatewayProxy, partnerProxy } = must(everything);
    expect(result.timedOut, result.outputTail.slice(-2000)).toBe(false);
    expect(result.report, `no conformance.json:\n${result.outputTail.slice(-2000)}`).toBeDefined();
    expect(result.report?.failures.map((f) => `${f.check}: ${f.title ?? f.message}`)).toEqual([]);
    expect(gatewayProxy.log.length).toBeGreaterThan(0);
    expect(partnerProxy.log.length).toBeGreaterThan(0);
  });

  test('no report file contains a configured secret or a token the target issued', () => {
    const s = must(everything);
    const secrets = secretsOf(s);
    expect(secrets.size, 'the proxies saw no issued token').toBeGreaterThan(10);
    const found = leaks(s.reportsDir, secrets);
    expect(found, `secrets found in report files:\n${found.join('\n')}`).toEqual([]);
  });
});

describe('a run with only GATEWAY_LIVE_* (no sandbox pair)', () => {
  test('refuses to start and sends nothing', async () => {
    const reference = await startReference({ gatewayPort: 0, partnerPort: 0, faults: new Set(), chaos: false });
    const proxy = await startRecordingProxy(reference.info.gateway.baseUrl);
    try {
      const run = await runConformance({
        label: 'safety-live-only',
        via: 'cli',
        files: [],
        cliArgs: ['--profile', 'certify', '--api', 'gateway', '--seed', '7'],
        reportsDir: join(ROOT, 'reports', 'self-test', 'safety-live-only'),
        timeoutMs: 60_000,
        env: {
          GATEWAY_BASE_URL: proxy.url,
          GATEWAY_LIVE_CLIENT_ID: reference.info.gateway.liveClientId,
          GATEWAY_LIVE_CLIENT_SECRET: reference.info.gateway.liveClientSecret,
          CALLBACK_PORT: '0',
        },
      });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode, run.outputTail.slice(-1500)).not.toBe(0);
      expect(proxy.log.filter(moneyMoving)).toEqual([]);
      expect(proxy.log).toEqual([]);
    } finally {
      await proxy.close();
      await reference.close();
    }
  }, 90_000);
});
