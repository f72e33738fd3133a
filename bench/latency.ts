/**
 * The quick profile against a remote-looking target: the reference (child process) behind a
 * delaying proxy per API (bench/delay-proxy.ts) that adds 0, 50, 100, 200 ms to every request.
 * The suite runs as a user would run it against a remote sandbox (GATEWAY_BASE_URL… set, its own
 * webhook receiver on a free port that the reference's partner webhooks target; webhooks are not
 * delayed). Recorded: wall time, requests, requests in flight (max, time-weighted mean), results.
 *
 * Goal (issue 16): at 100 ms added, within 1.5× the 0 ms wall time and under 60 s, with the same
 * checks, findings and verdicts.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { envFromReference } from '../harness/run/global-setup.js';
import { startEmbeddedReference } from '../harness/config/target.js';
import { InFlightMeter, startDelayProxy } from './delay-proxy.js';
import { cliArgs, timedRun } from './process.js';
import type { ConformanceSummary } from './process.js';

export const LATENCY_GOAL = { ratio: 1.5, maxMs: 60_000, atMs: 100 } as const;

export interface LatencyRow {
  addedMs: number;
  wallMs: number;
  exitCode: number | null;
  timedOut: boolean;
  checks?: number;
  passed?: number;
  failed?: number;
  warnings?: number;
  notRun?: number;
  harnessErrors?: number;
  /** requests the suite counted (conformance.json) */
  requests?: number;
  /** requests through the proxies */
  proxied: number;
  maxInFlight: number;
  meanInFlight: number;
  /** wall time / the 0 ms row's */
  ratio?: number;
  /** failing checks (ids), to compare verdicts across rows */
  failing?: string[];
  /** checks with warnings (ids) */
  warned?: string[];
  /** requirements whose verdict differs from the 0 ms row's: `ID: verdict at 0 ms → here` */
  verdictChanges?: string[];
  /**
   * the longest suite file (its first check's start to its last check's end; a file runs in one
   * worker, so with enough workers the slowest file bounds the run): the critical path, ms
   */
  criticalPathMs?: number;
  /** check time summed over the run (divided by the workers: the wall a perfect packing would take), ms */
  checkTimeMs?: number;
  /** the slowest files: each file's time (as for criticalPathMs), with their requests */
  slowestFiles?: TimedItem[];
  /** the slowest checks, with their requests (conformance.json `checks[]`) */
  slowestChecks?: TimedItem[];
  note?: string;
}

export interface TimedItem {
  name: string;
  ms: number;
  requests: number;
}

export interface CheckTiming {
  check: string;
  file: string;
  durationMs: number;
  /** when the check started (conformance.json `startedAt`), ms since the epoch */
  startMs?: number;
  requests: number;
}

/**
 * How long one file's checks took: from the first start to the last end when every check has its
 * start (checks that mostly wait run side by side in their file: `waits`), else the sum.
 */
function fileTime(checks: readonly CheckTiming[]): number {
  const starts = checks.map((c) => c.startMs);
  if (starts.some((s) => s === undefined)) return checks.reduce((n, c) => n + c.durationMs, 0);
  const first = Math.min(...(starts as number[]));
  return Math.max(...checks.map((c) => (c.startMs ?? first) + c.durationMs)) - first;
}

/** Per-check and per-file durations of one run (conformance.json `checks[]`), slowest first. */
export function criticalPath(checks: readonly CheckTiming[], top = 12): Pick<LatencyRow, 'criticalPathMs' | 'checkTimeMs' | 'slowestFiles' | 'slowestChecks'> {
  const byFile = new Map<string, CheckTiming[]>();
  for (const c of checks) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const files: TimedItem[] = [...byFile].map(([name, list]) => ({ name, ms: fileTime(list), requests: list.reduce((n, c) => n + c.requests, 0) }));
  const bySlowest = (a: TimedItem, b: TimedItem): number => b.ms - a.ms;
  const slowestFiles = files.sort(bySlowest);
  return {
    criticalPathMs: slowestFiles[0]?.ms ?? 0,
    checkTimeMs: checks.reduce((n, c) => n + c.durationMs, 0),
    slowestFiles: slowestFiles.slice(0, top),
    slowestChecks: checks.map((c) => ({ name: c.check, ms: c.durationMs, requests: c.requests })).sort(bySlowest).slice(0, top),
  };
}

function checkTimings(report: unknown): CheckTiming[] {
  const checks = typeof report === 'object' && report !== null && 'checks' in report && Array.isArray(report.checks) ? (report.checks as unknown[]) : [];
  return checks.flatMap((c): CheckTiming[] => {
    if (typeof c !== 'object' || c === null) return [];
    const r = c as Record<string, unknown>;
    if (typeof r.check !== 'string' || typeof r.durationMs !== 'number') return [];
    const startMs = typeof r.startedAt === 'string' ? Date.parse(r.startedAt) : Number.NaN;
    return [{ check: r.check, file: typeof r.file === 'string' ? r.file : '?', durationMs: r.durationMs, ...(Number.isFinite(startMs) && { startMs }), requests: typeof r.requests === 'number' ? r.requests : 0 }];
  });
}

export interface LatencyResult {
  profile: 'quick';
  seed: number;
  /** extra CLI flags of every row (e.g. --concurrency 8) */
  flags: string[];
  rows: LatencyRow[];
  goal: typeof LATENCY_GOAL;
  /** the 100 ms row is within ratio × the 0 ms row and under maxMs */
  meetsGoal?: boolean;
  /** every row has the 0 ms row's failing checks */
  sameVerdicts?: boolean;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One quick-profile run with `addedMs` on every request to either API. */
export async function runAtLatency(addedMs: number, options: { seed: number; flags: string[]; timeoutMs: number; faults?: string; reportsDir?: string; laneTrace?: string }): Promise<LatencyRow & { report?: ConformanceSummary }> {
  const callbackPort = await freePort();
  const callbackPublicUrl = `http://127.0.0.1:${callbackPort}`;
  const reference = await startEmbeddedReference({
    callbackPublicUrl,
    faults: options.faults ?? '',
    env: { REFERENCE_HOST: '127.0.0.1', REFERENCE_GATEWAY_PORT: '0', REFERENCE_PARTNER_PORT: '0', REFERENCE_CHAOS: '' },
  });
  const meter = new InFlightMeter();
  const gateway = await startDelayProxy(reference.info.gateway.baseUrl, { delayMs: addedMs }, meter);
  const partner = await startDelayProxy(reference.info.partner.baseUrl, { delayMs: addedMs }, meter);
  try {
    const env = {
      ...envFromReference(reference.info),
      GATEWAY_BASE_URL: gateway.url,
      PARTNER_BASE_URL: partner.url,
      CALLBACK_HOST: '127.0.0.1',
      CALLBACK_PORT: String(callbackPort),
      // kept reports (allure results with each check's start and stop) instead of a temporary directory
      ...(options.reportsDir !== undefined && { PAYGATE_REPORTS_DIR: options.reportsDir }),
      // every lane hold of the run, one JSON line each (bench/lane-trace.ts reads it)
      ...(options.laneTrace !== undefined && { PAYGATE_LANE_TRACE: options.laneTrace }),
    };
    const run = await timedRun({ args: cliArgs(['--profile', 'quick', '--seed', String(options.seed), ...options.flags]), env, timeoutMs: options.timeoutMs });
    const s = run.report?.summary;
    const traffic = meter.stats();
    const row: LatencyRow & { report?: ConformanceSummary } = {
      addedMs,
      wallMs: run.wallMs,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      proxied: traffic.requests,
      maxInFlight: traffic.maxInFlight,
      meanInFlight: traffic.meanInFlight,
    };
    if (s) {
      Object.assign(row, { checks: s.checks, passed: s.passed, failed: s.failed, warnings: s.warnings, notRun: s.notRun, harnessErrors: s.errors, requests: s.requests });
      row.failing = [...new Set((run.report?.failures ?? []).map((f) => f.check))].sort();
      row.warned = [...new Set((run.report?.warnings ?? []).map((f) => f.check))].sort();
      Object.assign(row, criticalPath(checkTimings(run.report)));
    }
    if (run.report) row.report = run.report;
    if (run.timedOut) row.note = `killed after ${options.timeoutMs} ms`;
    else if (!s) row.note = `no conformance.json (exit ${run.exitCode}): ${run.outputTail.slice(-400).trim()}`;
    else if (traffic.errors > 0) row.note = `${traffic.errors} request(s) answered by the proxy itself (bound or upstream error)`;
    return row;
  } finally {
    await gateway.close();
    await partner.close();
    await reference.stop();
  }
}

export async function measureLatency(options: { delays: number[]; seed?: number; flags?: string[]; timeoutMs: number; log?: (text: string) => void }): Promise<LatencyResult> {
  const seed = options.seed ?? 1;
  const flags = options.flags ?? [];
  const rows: LatencyRow[] = [];
  const verdicts = new Map<LatencyRow, Map<string, string>>();
  for (const addedMs of options.delays) {
    options.log?.(`quick profile at +${addedMs} ms per request…`);
    const { report, ...row } = await runAtLatency(addedMs, { seed, flags, timeoutMs: options.timeoutMs });
    rows.push(row);
    if (report?.requirements) verdicts.set(row, new Map(report.requirements.map((r) => [r.id, r.verdict])));
  }
  const base = rows.find((r) => r.addedMs === 0);
  const baseVerdicts = base ? verdicts.get(base) : undefined;
  if (baseVerdicts) {
    for (const r of rows) {
      const mine = verdicts.get(r);
      if (!mine || r === base) continue;
      const ids = [...new Set([...baseVerdicts.keys(), ...mine.keys()])].sort();
      r.verdictChanges = ids.filter((id) => baseVerdicts.get(id) !== mine.get(id)).map((id) => `${id}: ${baseVerdicts.get(id) ?? '-'} → ${mine.get(id) ?? '-'}`);
    }
  }
  if (base) for (const r of rows) r.ratio = Math.round((r.wallMs / base.wallMs) * 100) / 100;
  const result: LatencyResult = { profile: 'quick', seed, flags, rows, goal: LATENCY_GOAL };
  const at = rows.find((r) => r.addedMs === LATENCY_GOAL.atMs);
  if (base && at) result.meetsGoal = !at.timedOut && at.wallMs < LATENCY_GOAL.maxMs && at.wallMs <= LATENCY_GOAL.ratio * base.wallMs;
  if (base?.failing) {
    result.sameVerdicts = rows.every((r) => JSON.stringify(r.failing) === JSON.stringify(base.failing) && (r.verdictChanges ?? []).length === 0);
  }
  return result;
}
