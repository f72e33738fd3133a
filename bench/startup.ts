/**
 * Start-up and the quick profile end to end, as a user runs it in a clone (`npm run conformance --
 * --seed N …`: the CLI under tsx as a loader, the embedded reference, its default workers): per
 * run, the wall time from spawning the command to the first request the embedded reference
 * receives (bench/first-request.mjs, preloaded) and to the command's exit, with the run's checks and
 * requests. Medians over the runs; goals of issue 29: first request within 2 s, quick within 10 s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './load.js';
import { cliArgs, timedRun } from './process.js';

export const STARTUP_GOALS = { firstRequestMs: 2000, quickMs: 10_000 } as const;

export interface StartupRun {
  wallMs: number;
  /** from spawning the command to the first request the embedded reference received */
  firstRequestMs?: number;
  exitCode: number | null;
  checks?: number;
  failed?: number;
  requests?: number;
  /** load average (1 min) when the run started */
  load: number;
}

export interface StartupResult {
  flags: string[];
  runs: StartupRun[];
  medianWallMs: number;
  medianFirstRequestMs?: number;
  goals: typeof STARTUP_GOALS;
}

const PRELOAD = new URL('./first-request.mjs', import.meta.url).href;

export async function measureStartup(options: { runs: number; seed: number; flags: string[]; timeoutMs: number; log?: (text: string) => void }): Promise<StartupResult> {
  const flags = ['--seed', String(options.seed), ...options.flags];
  const runs: StartupRun[] = [];
  for (let i = 0; i < options.runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-startup-'));
    const marks = join(dir, 'first-request');
    try {
      const load = Math.round((loadavg()[0] ?? 0) * 100) / 100;
      const spawnedAt = Date.now();
      const run = await timedRun({
        args: cliArgs(flags),
        env: { PAYGATE_BENCH_FIRST_REQUEST: marks, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${PRELOAD}`.trim() },
        timeoutMs: options.timeoutMs,
      });
      let first: number | undefined;
      try {
        const times = readFileSync(marks, 'utf8').split('\n').filter(Boolean).map(Number);
        if (times.length > 0) first = Math.min(...times) - spawnedAt;
      } catch {
        // no request reached the reference
      }
      const s = run.report?.summary;
      const row: StartupRun = { wallMs: run.wallMs, exitCode: run.exitCode, load };
      if (first !== undefined) row.firstRequestMs = first;
      if (s) Object.assign(row, { checks: s.checks, failed: s.failed, requests: s.requests });
      runs.push(row);
      options.log?.(`quick run ${i + 1}/${options.runs}: ${run.wallMs} ms, first request at ${first ?? '?'} ms (load ${load})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const firsts = runs.map((r) => r.firstRequestMs).filter((x): x is number => x !== undefined);
  const result: StartupResult = { flags, runs, medianWallMs: Math.round(median(runs.map((r) => r.wallMs))), goals: STARTUP_GOALS };
  if (firsts.length > 0) result.medianFirstRequestMs = Math.round(median(firsts));
  return result;
}
