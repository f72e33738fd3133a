/**
 * Fuzzer efficiency: the stateful fuzzer (suites/<api>/fuzz-model.test.ts) run directly with vitest.
 *
 * - Sequences/s: two runs against the clean reference with PAYGATE_RUNS = small and large; the
 *   slope between them removes process/vitest/reference start-up (the intercept).
 * - Detection: for every fault whose name contains race/atomic/idempotency (reference/faults.ts),
 *   the fuzzer of its API runs with REFERENCE_FAULTS=<fault> and distinct seeds. Per run: wall time
 *   to the failing verdict (start-up and shrinking included), total requests (shrinking included),
 *   and the sequences to the FIRST failure, read from the harness's note "after N run(s)" or the
 *   replay path; the time/requests to the first failure are then N ÷ sequences/s and
 *   N × requests/sequence of the clean run. Bounded: a time budget for all fault runs together.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { linearFit, median, round } from './load.js';
import { ROOT, timedRun, vitestArgs } from './process.js';
import type { TimedRun } from './process.js';

export type FuzzApi = 'gateway' | 'partner';

export interface FuzzRate {
  api: FuzzApi;
  file: string;
  available: boolean;
  runs?: { sequences: number; wallMs: number; requests: number; exitCode: number | null }[];
  sequencesPerSecond?: number;
  requestsPerSequence?: number;
  startupMs?: number;
  note?: string;
}

export interface FaultDetection {
  fault: string;
  api: FuzzApi;
  available: boolean;
  attempts: { seed: number; detected: boolean; wallMs: number; requests: number; sequencesToFailure?: number; requirements: string[]; timedOut: boolean }[];
  detected: number;
  medianWallMs?: number;
  medianRequests?: number;
  medianSequencesToFailure?: number;
  /** median sequences to failure ÷ sequences/s of the clean run */
  estimatedMsToFirstFailure?: number;
  /** median sequences to failure × requests/sequence of the clean run */
  estimatedRequestsToFirstFailure?: number;
  note?: string;
}

export interface FuzzResult {
  rates: FuzzRate[];
  faults: FaultDetection[];
  /** faults not run because the time budget ran out */
  skipped: string[];
}

export interface FuzzOptions {
  /** PAYGATE_RUNS of the two rate runs */
  rateRuns: [number, number];
  /** PAYGATE_RUNS of a detection run (the fuzzer stops at the first failure) */
  detectRuns: number;
  repetitions: number;
  /** wall-time budget for all detection runs together */
  budgetMs: number;
  timeoutMsPerRun: number;
  /** limit detection to these faults (default: every race/atomic/idempotency fault) */
  faults?: string[];
}

export function fuzzFile(api: FuzzApi): string {
  return join('suites', api, 'fuzz-model.test.ts');
}

/** Fault names of the race/atomicity/idempotency family, from the reference's own catalogue. */
export async function raceFaults(): Promise<{ name: string; api: FuzzApi; requirements: string[] }[]> {
  const { FAULTS } = await import('../reference/faults.js');
  return FAULTS.filter((f) => /race|atomic|idempotency/.test(f.name)).map((f) => ({ name: f.name, api: f.api, requirements: f.requirements }));
}

/** Sequences to the first failure: the harness note "after N run(s)", else the replay path's first index + 1. */
export function sequencesToFailure(run: TimedRun): number | undefined {
  const texts = [run.outputTail, ...(run.report?.failures ?? []).flatMap((f) => [f.message, f.replay])];
  for (const t of texts) {
    const m = /after (\d+) run\(s\)/.exec(t);
    if (m) return Number(m[1]);
  }
  for (const t of texts) {
    // `(fast-check path "2:1:0~EAC:F")` in the replay line, or `--replay "2:1:0~…"`
    const m = /path\s+"(\d+)[:~"]/.exec(t) ?? /--replay\s+["']?(\d+)[:~"'\s]/.exec(t);
    if (m) return Number(m[1]) + 1;
  }
  return undefined;
}

async function runFuzzer(api: FuzzApi, runs: number, seed: number, timeoutMs: number, fault?: string): Promise<TimedRun> {
  const env: Record<string, string> = { PAYGATE_PROFILE: 'quick', PAYGATE_RUNS: String(runs), PAYGATE_SEED: String(seed), PAYGATE_API: api };
  if (fault) env['REFERENCE_FAULTS'] = fault;
  return timedRun({ args: vitestArgs([fuzzFile(api)]), env, timeoutMs });
}

export async function measureFuzzRate(api: FuzzApi, options: Pick<FuzzOptions, 'rateRuns' | 'timeoutMsPerRun'>): Promise<FuzzRate> {
  const file = fuzzFile(api);
  if (!existsSync(join(ROOT, file))) return { api, file, available: false, note: 'not available (no fuzz-model.test.ts)' };
  const runs: NonNullable<FuzzRate['runs']> = [];
  for (const n of options.rateRuns) {
    const r = await runFuzzer(api, n, 4242, options.timeoutMsPerRun);
    runs.push({ sequences: n, wallMs: r.wallMs, requests: r.report?.summary?.requests ?? 0, exitCode: r.exitCode });
    if (r.timedOut) return { api, file, available: true, runs, note: `PAYGATE_RUNS=${n} did not finish within ${options.timeoutMsPerRun} ms` };
  }
  const fit = linearFit(runs.map((r) => ({ x: r.sequences, y: r.wallMs })));
  const reqFit = linearFit(runs.map((r) => ({ x: r.sequences, y: r.requests })));
  const out: FuzzRate = { api, file, available: true, runs, requestsPerSequence: round(reqFit.slope, 1) };
  const notes: string[] = [];
  // more sequences took no longer: start-up noise swamped the difference; no rate rather than a wrong one
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (first && last && last.wallMs - first.wallMs < 1500) notes.push('the runs differ by < 1.5 s: the rate is within start-up noise');
  if (fit.slope > 0) {
    out.sequencesPerSecond = round(1000 / fit.slope, 2);
    out.startupMs = round(fit.intercept, 0);
  } else notes.push('the larger run was not slower (noise): no rate; use --fuzz for longer runs');
  const failed = runs.filter((r) => r.exitCode !== 0);
  if (failed.length) notes.push(`exit ${failed.map((r) => r.exitCode).join('/')} against the clean reference (a finding or harness error)`);
  if (notes.length) out.note = notes.join('; ');
  return out;
}

export async function measureFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const rates: FuzzRate[] = [];
  for (const api of ['gateway', 'partner'] as const) rates.push(await measureFuzzRate(api, options));
  const faults: FaultDetection[] = [];
  const skipped: string[] = [];
  const all = await raceFaults();
  const chosen = options.faults ? all.filter((f) => options.faults?.includes(f.name)) : all;
  // alternate the APIs so that a budget cut short still covers both fuzzers
  const gw = chosen.filter((f) => f.api === 'gateway');
  const pt = chosen.filter((f) => f.api === 'partner');
  const selected = Array.from({ length: Math.max(gw.length, pt.length) }, (_, i) => [gw[i], pt[i]]).flat().filter((f) => f !== undefined);
  const t0 = performance.now();
  for (const fault of selected) {
    const rate = rates.find((r) => r.api === fault.api);
    if (!rate?.available) {
      faults.push({ fault: fault.name, api: fault.api, available: false, attempts: [], detected: 0, note: 'not available (no fuzz-model.test.ts for its API)' });
      continue;
    }
    const attempts: FaultDetection['attempts'] = [];
    for (let rep = 0; rep < options.repetitions; rep++) {
      const left = options.budgetMs - (performance.now() - t0);
      if (left <= 5_000) break;
      const seed = 1000 + rep * 7919;
      const r = await runFuzzer(fault.api, options.detectRuns, seed, Math.min(options.timeoutMsPerRun, left), fault.name);
      const failures = r.report?.failures ?? [];
      const requirements = [...new Set(failures.flatMap((f) => f.requirements))];
      const stf = sequencesToFailure(r);
      attempts.push({
        seed,
        detected: (r.report?.summary?.failed ?? 0) > 0,
        wallMs: r.wallMs,
        requests: r.report?.summary?.requests ?? 0,
        ...(stf !== undefined ? { sequencesToFailure: stf } : {}),
        requirements,
        timedOut: r.timedOut,
      });
    }
    if (attempts.length === 0) {
      skipped.push(fault.name);
      continue;
    }
    const hits = attempts.filter((a) => a.detected);
    const d: FaultDetection = { fault: fault.name, api: fault.api, available: true, attempts, detected: hits.length };
    if (hits.length) {
      d.medianWallMs = round(median(hits.map((a) => a.wallMs)), 0);
      d.medianRequests = round(median(hits.map((a) => a.requests)), 0);
      const seqs = hits.map((a) => a.sequencesToFailure).filter((n): n is number => n !== undefined);
      if (seqs.length) {
        d.medianSequencesToFailure = median(seqs);
        if (rate.sequencesPerSecond) d.estimatedMsToFirstFailure = round((d.medianSequencesToFailure / rate.sequencesPerSecond) * 1000, 0);
        if (rate.requestsPerSequence) d.estimatedRequestsToFirstFailure = round(d.medianSequencesToFailure * rate.requestsPerSequence, 0);
      }
      const named = hits.some((a) => a.requirements.some((id) => fault.requirements.includes(id)));
      if (!named) d.note = `detected, but no failure names the fault's requirements (${fault.requirements.join(', ')})`;
    } else {
      d.note = `not detected in ${attempts.length} run(s) of ${options.detectRuns} sequences`;
    }
    faults.push(d);
  }
  return { rates, faults, skipped };
}
