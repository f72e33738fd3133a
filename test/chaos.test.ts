// Resilience of the suite.
// 1. reference/shared/chaos.ts on its own (deterministic randomness).
// 2. The whole quick profile against the reference with REFERENCE_CHAOS=1 (random 429 +
//    Retry-After, latency 0-200 ms, delayed webhooks) passes with zero failures and finishes, in a
//    mix of free choices drawn to meet chaos head on (reference/DECISIONS.md, "Personalities"). The
//    default personality passes in the fault matrix's baseline; `npm run soak -- --chaos` runs more.
// 3. Hostile targets (a server that never answers, one that closes every connection, one that
//    answers HTML): the harness clients report clear outcomes within their time limits, and suite
//    checks run against them never pass, hang or crash: the HTML target's answers are failures; a
//    target that never answers or drops every connection gives no answer to judge, so its checks
//    are inconclusive (with the cause), never failures blamed on the target.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chaosDeliveryDelayMs, withChaos } from '../reference/shared/chaos.js';
import { Session } from '../harness/run/session.js';
import { HarnessError } from '../harness/core/errors.js';
import type { TargetConfig } from '../harness/config/target.js';
import { describeRun, runCorrect } from './fault-matrix/correct.js';
import type { CorrectRunSummary } from './fault-matrix/correct.js';
import { ROOT, inParallel, runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';

type Behaviour = 'hang' | 'close' | 'html';

interface Hostile {
  url: string;
  close(): Promise<void>;
}

/** A tiny target that misbehaves on every request. */
async function startHostile(behaviour: Behaviour): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (behaviour === 'hang') return; // never answers
    if (behaviour === 'close') {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Service temporarily unavailable</body></html>');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function targetAt(url: string): TargetConfig {
  return {
    embedded: false,
    notRun: [],
    callback: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1:9' },
    gateway: { baseUrl: url, sandbox: { clientId: 'hostile-client', clientSecret: 'hostile-secret-value' } },
    partner: { baseUrl: `${url}/v1`, apiKey: 'ak_test_hostile_key_value' },
  };
}

describe('reference/shared/chaos.ts', () => {
  test('answers 429 with Retry-After before the API sees the request, otherwise passes through after a bounded delay', async () => {
    let handled = 0;
    const sequence = [0, 0.01, 0.9, 0, 0.5, 0.3];
    let i = 0;
    const random = (): number => sequence[i++ % sequence.length] as number;
    const handler = withChaos(
      async (_req, res) => {
        handled += 1;
        res.end('ok');
      },
      { random, rateLimitedBody: { detail: 'too many requests' }, maxLatencyMs: 50 },
    );
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // latency 0, then 0.01 < 0.05 → 429, Retry-After from 0.9 → "1"
      const first = await fetch(`http://127.0.0.1:${port}/`);
      expect(first.status).toBe(429);
      expect(first.headers.get('retry-after')).toBe('1');
      expect(await first.json()).toEqual({ detail: 'too many requests' });
      expect(handled).toBe(0);
      // latency 0 (0 × 51), then 0.5 → handled
      const t0 = performance.now();
      const second = await fetch(`http://127.0.0.1:${port}/`);
      expect(second.status).toBe(200);
      expect(handled).toBe(1);
      expect(performance.now() - t0).toBeLessThan(1_000);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('webhook deliveries are delayed 0-1000 ms only with REFERENCE_CHAOS=1', () => {
    expect(chaosDeliveryDelayMs({}, () => 0.99)).toBe(0);
    expect(chaosDeliveryDelayMs({ REFERENCE_CHAOS: '0' }, () => 0.99)).toBe(0);
    expect(chaosDeliveryDelayMs({ REFERENCE_CHAOS: '1' }, () => 0.5)).toBe(500);
    expect(chaosDeliveryDelayMs({ REFERENCE_CHAOS: '1' }, () => 0.999)).toBeLessThan(1_000);
  });
});

// The two long parts (the chaos run, mostly waiting on its added latency, and the suite runs against
// hostile targets, mostly waiting on timeouts) run side by side.
const servers = new Map<Behaviour, Hostile>();
const urlOf = (b: Behaviour): string => (servers.get(b) as Hostile).url;
let chaosMixRun: CorrectRunSummary | undefined;
/**
 * The mix run under chaos: mix:68 draws the choices that meet chaos head on (a rate limit of its
 * own, delayed first deliveries on both APIs, a longer partner redelivery gap) and a risk reserve
 * held by a second posting. Replay: REFERENCE_CHAOS=1 npm run conformance -- --seed 68 --personality mix:68 --concurrency 8
 */
const CHAOS_MIX = 68;
/** property runs in flight in the chaos run (the CLI's default against a remote target) */
const CHAOS_CONCURRENCY = 8;
let hostileRuns: ConformanceRunResult[] = [];

/** A few checks of one request each (after the gateway's token), against one hostile target. */
function hostileRun(behaviour: Behaviour): Promise<ConformanceRunResult> {
  // against a target that never answers, each request costs the harness's default 15 s timeout
  const pattern = ['GET /api/v1/balance answers', 'a body sent to POST /api/auth', 'the announced payouts route'].join('|');
  return runConformance({
    label: `hostile-${behaviour}`,
    files: ['suites/gateway/balance.test.ts', 'suites/gateway/general.test.ts', 'suites/partner/errors.test.ts'],
    testNamePattern: pattern,
    reportsDir: join(ROOT, 'reports', 'self-test', `hostile-${behaviour}`),
    workers: 2,
    timeoutMs: 100_000,
    env: {
      GATEWAY_BASE_URL: urlOf(behaviour),
      GATEWAY_CLIENT_ID: 'hostile-client',
      GATEWAY_CLIENT_SECRET: 'hostile-secret-value',
      PARTNER_BASE_URL: `${urlOf(behaviour)}/v1`,
      PARTNER_API_KEY: 'ak_test_hostile_key_value',
      CALLBACK_PORT: '0',
    },
  });
}

beforeAll(async () => {
  for (const behaviour of ['hang', 'close', 'html'] as const) servers.set(behaviour, await startHostile(behaviour));
  const [chaosMix, hostile] = await Promise.all([
    // the added latency is idle time: more workers than cores keep the run short. Chaos plays a busy
    // remote host, and the run uses what the CLI uses against one: property runs in flight together
    // (`--concurrency`, its remote default of 8). Its random 429s pause the whole run for their
    // Retry-After (harness/http/rate-limit.ts); with runs in flight together fewer of those pauses
    // line up one after another: 139.6 s → 89.7 s (docs/PERFORMANCE.md, fourth pass)
    runCorrect({ seed: CHAOS_MIX, label: `chaos-mix-${CHAOS_MIX}`, env: { REFERENCE_CHAOS: '1', REFERENCE_PERSONALITY: `mix:${CHAOS_MIX}` }, workers: 4, concurrency: CHAOS_CONCURRENCY, timeoutMs: 200_000 }),
    inParallel(['hang', 'close', 'html'] as const, 3, hostileRun),
  ]);
  chaosMixRun = chaosMix;
  console.log(describeRun(chaosMix));
  hostileRuns = hostile;
}, 240_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

describe('the quick profile against the chaos reference', () => {
  test(`personality mix:${CHAOS_MIX}: passes with zero failures, finishes, and met rate limiting on the way`, () => {
    const personality = `mix:${CHAOS_MIX}`;
    const run = chaosMixRun;
    if (run === undefined) throw new Error('the chaos run did not run (see beforeAll)');
    expect(run.timedOut, 'the run did not finish in time').toBe(false);
    expect(run.errors, `harness errors:\n${run.errors.join('\n')}`).toEqual([]);
    expect(run.failures, `failures against the chaos reference (replay: REFERENCE_CHAOS=1 npm run conformance -- --seed ${run.seed} --personality ${personality} --concurrency ${CHAOS_CONCURRENCY}):\n${run.failures.join('\n')}`).toEqual([]);
    expect(run.exitCode).toBe(0);
    const statuses = (run.report?.coverage.operations ?? []).flatMap((o) => o.statuses);
    expect(statuses, 'no 429 was seen: is REFERENCE_CHAOS wired?').toContain(429);
  });
});

describe('hostile targets', () => {
  test('harness clients: a target that never answers yields a timed-out exchange (status 0), not a hang', async () => {
    const session = await Session.create(targetAt(urlOf('hang')), { timeoutMs: 700 });
    try {
      const run = session.check('hostile hang', ['PT-AUTH-401']);
      const t0 = performance.now();
      const r = await session.partner(run).getCharge('pc_missing');
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(r.status).toBe(0);
      expect(r.exchange.error ?? '').toMatch(/timeout|abort/i);
      // the gateway needs a token first: the failed authentication is a HarnessError with a clear message
      const t1 = performance.now();
      const error = await session.gateway(run).getBalance().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(performance.now() - t1).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as Error).message).toMatch(/did not return a token/);
    } finally {
      await session.close();
    }
  });

  test('harness clients: a target that closes connections yields an exchange with the network error', async () => {
    const session = await Session.create(targetAt(urlOf('close')), { timeoutMs: 2_000 });
    try {
      const run = session.check('hostile close');
      const r = await session.partner(run).createCharge({ amount_cents: 100 });
      expect(r.status).toBe(0);
      expect(r.exchange.error ?? '').not.toBe('');
      expect(run.exchanges).toHaveLength(1);
    } finally {
      await session.close();
    }
  });

  test('harness clients: a non-JSON answer is returned as text and judged by the contract, never thrown', async () => {
    const session = await Session.create(targetAt(urlOf('html')), { timeoutMs: 2_000 });
    try {
      const run = session.check('hostile html');
      const r = await session.partner(run).getFinance();
      expect(r.status).toBe(200);
      expect(r.json).toBeUndefined();
      expect(run.failures.length, 'a 200 answer that is not JSON must be a failure').toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  test('suite checks against each hostile target end with failures (HTML) or inconclusive (no answer), within bounds', () => {
    const results = hostileRuns;
    expect(results).toHaveLength(3);
    const problems: string[] = [];
    results.forEach((result) => {
      const report = result.report;
      const line = `${result.label}: exit ${result.timedOut ? 'timeout' : String(result.exitCode)}, ${result.durationMs} ms`;
      console.log(`${line}; ${report ? `${report.summary.failed} failed, ${report.summary.inconclusive} inconclusive, ${report.summary.errors} errors, ${report.summary.passed} passed, ${report.summary.notRun} not run` : 'no report'}`);
      if (result.timedOut) problems.push(`${line}: did not finish`);
      if (report === undefined) {
        problems.push(`${line}: no conformance.json (crash?):\n${result.outputTail.slice(-1500)}`);
        return;
      }
      if (report.summary.checks === 0) problems.push(`${line}: no check ran`);
      if (report.summary.passed > 0) problems.push(`${line}: ${report.summary.passed} check(s) passed against a broken target: ${report.checks.filter((c) => c.state === 'passed').map((c) => c.check).join(', ')}`);
      if (result.label === 'hostile-html') {
        if (report.summary.failed + report.summary.errors === 0) problems.push(`${line}: neither failures nor errors`);
        if (result.exitCode !== 1 && result.exitCode !== 3) problems.push(`${line}: exit code should be 1 (failures) or 3 (harness errors)`);
      } else {
        // no answer at all: nothing to judge; the cause is named, the target is not blamed
        if (report.summary.inconclusive === 0) problems.push(`${line}: no check inconclusive`);
        if (report.summary.failed > 0) problems.push(`${line}: failures blamed on a target that never answered: ${report.failures.map((f) => f.message).join('; ')}`);
        if (report.verdict !== 'inconclusive') problems.push(`${line}: verdict ${report.verdict}, expected inconclusive`);
      }
      if (/Unhandled (Rejection|Error)|unhandled error #/i.test(result.outputTail)) problems.push(`${line}: unhandled error:\n${result.outputTail.slice(-1500)}`);
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
