/**
 * The fault matrix: proves every reference fault is detected by the suite.
 *
 * 1. Baseline: every suite file against the correct reference (quick profile): the check → file →
 *    requirement map, and the proof that the correct reference draws no failure.
 * 2. Select each fault's files (select.ts), pack one gateway + one partner fault per run.
 * 3. Run the packed runs, `concurrency` at a time (each its own reference, receiver and reports
 *    directory); timer faults in the full profile with shortened reference timers, next to one
 *    "timer baseline" run (the same files, no fault) whose failures earn no credit.
 * 4. Judge (report.ts) and write reports/fault-matrix.{json,md}.
 *
 * Standalone: `npx tsx test/fault-matrix/matrix.ts [--faults a,b] [--concurrency 2] [--seed N] [--workers N] [--whole-files]`.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requirementProof } from './proof.js';
import { loadRequirements } from '../../harness/contract/requirements.js';
import { FAULTS } from '../../reference/faults.js';
import type { FaultSpec } from '../../reference/faults.js';
import type { CheckRecord } from '../../harness/report/verdict.js';
import { judgeFault, unmappedOutcome, writeMatrix } from './report.js';
import type { FaultMatrix, FaultOutcome } from './report.js';
import { ROOT, inParallel, runConformance, suiteFiles } from './runner.js';
import type { ConformanceRunResult } from './runner.js';
import { packRuns, selectFiles, titlePattern } from './select.js';
import type { FaultRun } from './select.js';

/** The reference's shortened timers for timer-tier runs (docs/ARCHITECTURE.md, "The reference process"). */
export const SHORT_TIMERS: Readonly<Record<string, string>> = {
  REFERENCE_TOKEN_TTL_MS: '3000',
  // expires_in_seconds 60 → 1.2 s
  REFERENCE_PARTNER_EXPIRY_SCALE: '0.02',
  // 8 attempts: gaps 100, 200, 400, 800, 800, 800, 800 ms (a fault: up to 6.4 s, or 12 attempts).
  // The embedded run hands the cap and call timeout to the suite (PAYGATE_PARTNER_RETRY_CAP_MS,
  // PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS via harness/run/global-setup.ts), which judges gaps against them.
  REFERENCE_PARTNER_RETRY_BASE_MS: '100',
  REFERENCE_PARTNER_RETRY_CAP_MS: '800',
  REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS: '2000',
};

export interface MatrixOptions {
  /** faults to run (default: the whole catalogue) */
  faults?: readonly FaultSpec[];
  seed?: number;
  /** runs at the same time (default 2) */
  concurrency?: number;
  /** worker processes per run (default 1) */
  workersPerRun?: number;
  /** time limit of one quick run / one timer run */
  quickRunTimeoutMs?: number;
  timerRunTimeoutMs?: number;
  /** run only the selected checks of each file (vitest -t), not whole files (default true) */
  narrow?: boolean;
  /** where per-run reports go (default reports/self-test/fault-matrix) */
  workDir?: string;
  /** where fault-matrix.{json,md} go (default reports) */
  outputDir?: string;
  /** progress lines */
  log?: (line: string) => void;
}

interface Planned {
  run: FaultRun;
  kind: 'fault' | 'timer-baseline';
}

function describeFailure(check: CheckRecord): string {
  return `${check.check} (${check.file}): ${check.failures.map((f) => `${f.code} [${f.requirements.join(',')}] ${f.title}`).join('; ') || check.error || 'failed'}`;
}

export async function runFaultMatrix(options: MatrixOptions = {}): Promise<FaultMatrix> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 20_261_122;
  const concurrency = options.concurrency ?? 4;
  const workers = options.workersPerRun ?? 1;
  const narrow = options.narrow ?? true;
  const workDir = options.workDir ?? join(ROOT, 'reports', 'self-test', 'fault-matrix');
  const faults = options.faults ?? FAULTS;
  const quickTimeout = options.quickRunTimeoutMs ?? 150_000;
  // a timer check with a fault on may wait out its own limit before it concludes (a charge that never
  // expires, a token still accepted past the clock leeway); the timer runs start first, beside the quick ones
  const timerTimeout = options.timerRunTimeoutMs ?? 200_000;
  rmSync(workDir, { recursive: true, force: true });
  const allFiles = suiteFiles();
  if (allFiles.length === 0) throw new Error('fault matrix: no suite files under suites/');

  // 1. baseline
  log(`baseline: ${allFiles.length} files, quick, seed ${seed}`);
  const baseline = await runConformance({
    label: 'baseline',
    files: allFiles,
    reportsDir: join(workDir, 'baseline'),
    env: { PAYGATE_PROFILE: 'quick', PAYGATE_SEED: String(seed) },
    workers: Math.max(2, workers),
    isolate: false,
    timeoutMs: quickTimeout * 2,
  });
  const baselineReport = baseline.report;
  if (baselineReport === undefined) {
    throw new Error(`fault matrix: the baseline run wrote no conformance.json (exit ${baseline.exitCode ?? baseline.signal ?? '?'}):\n${baseline.outputTail}`);
  }
  const baselineChecks = baselineReport.checks;
  const baselineFailing = baselineChecks.filter((c) => c.state === 'failed' || c.state === 'error');
  log(`baseline: ${baselineChecks.length} checks in ${baseline.durationMs} ms, ${baselineFailing.length} failing`);

  // 2. selection and packing
  const selections = faults.map((fault) => selectFiles(fault, baselineChecks, allFiles));
  const runs = packRuns(selections);
  const planned: Planned[] = runs.map((run) => ({ run, kind: 'fault' }));
  const timerRuns = runs.filter((r) => r.tier === 'timer');
  if (timerRuns.length > 0) {
    // the same checks with no fault; the longest-running item, so it starts first
    const files = [...new Set(timerRuns.flatMap((r) => r.files))].sort();
    const testNamePattern = titlePattern(timerRuns.flatMap((r) => r.faults.flatMap((s) => s.titles)));
    planned.unshift({ run: { id: 'timer-baseline', tier: 'timer', faults: [], files, testNamePattern, estimateMs: Number.MAX_SAFE_INTEGER, strict: false }, kind: 'timer-baseline' });
  }

  // 3. the runs
  const results = await inParallel(planned, concurrency, async ({ run }) => {
    const names = run.faults.map((s) => s.fault.name);
    const env: Record<string, string> = {
      PAYGATE_PROFILE: run.tier === 'timer' ? 'full' : 'quick',
      PAYGATE_SEED: String(seed),
      ...(names.length > 0 && { REFERENCE_FAULTS: names.join(',') }),
      ...(run.tier === 'timer' && SHORT_TIMERS),
      ...(run.strict && { PAYGATE_STRICT: '1' }),
    };
    const result = await runConformance({
      label: run.id,
      files: run.files,
      reportsDir: join(workDir, run.id),
      env,
      workers,
      // one worker process runs the run's files in turn: modules and the contract load once
      isolate: false,
      ...(narrow && run.testNamePattern !== '' && { testNamePattern: run.testNamePattern }),
      timeoutMs: run.tier === 'timer' ? timerTimeout : quickTimeout,
    });
    log(`${run.id} [${run.tier}] ${names.join(' + ') || 'no fault'}: ${run.files.length} files, ${result.durationMs} ms, exit ${result.timedOut ? 'timeout' : String(result.exitCode)}`);
    return result;
  });

  // 4. judge
  const excludedQuick = new Set(baselineFailing.map((c) => c.check));
  const timerIndex = planned.findIndex((p) => p.kind === 'timer-baseline');
  const timerBaseline: ConformanceRunResult | undefined = timerIndex >= 0 ? results[timerIndex] : undefined;
  const timerFailing = (timerBaseline?.report?.checks ?? []).filter((c) => c.state === 'failed' || c.state === 'error');
  const excludedTimer = new Set([...excludedQuick, ...timerFailing.map((c) => c.check)]);
  const outcomes = new Map<string, FaultOutcome>();
  planned.forEach(({ run, kind }, index) => {
    if (kind !== 'fault') return;
    const result = results[index] as ConformanceRunResult;
    for (const selection of run.faults) {
      outcomes.set(selection.fault.name, judgeFault(selection, run, result, run.tier === 'timer' ? excludedTimer : excludedQuick));
    }
  });
  for (const selection of selections) if (!outcomes.has(selection.fault.name)) outcomes.set(selection.fault.name, unmappedOutcome(selection));
  const ordered = faults.map((f) => outcomes.get(f.name) as FaultOutcome);

  const matrix: FaultMatrix = {
    generatedAt: new Date().toISOString(),
    wallMs: Math.round(performance.now() - started),
    baseline: { runMs: baseline.durationMs, checks: baselineChecks.length, failures: baselineFailing.map(describeFailure), seed },
    ...(timerBaseline !== undefined && {
      timerBaseline: { runMs: timerBaseline.durationMs, failingByDesign: timerFailing.map(describeFailure) },
    }),
    runs: planned.map(({ run }, index) => {
      const result = results[index] as ConformanceRunResult;
      return {
        id: run.id,
        tier: run.tier,
        faults: run.faults.map((s) => s.fault.name),
        files: run.files,
        runMs: result.durationMs,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
      };
    }),
    summary: {
      faults: ordered.length,
      detected: ordered.filter((o) => o.detected).length,
      undetected: ordered.filter((o) => !o.detected).map((o) => o.fault),
    },
    faults: ordered,
    proof: requirementProof(ordered, loadRequirements()),
  };
  writeMatrix(options.outputDir ?? join(ROOT, 'reports'), matrix);
  return matrix;
}

function flag(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

async function main(argv: readonly string[]): Promise<number> {
  const names = flag(argv, '--faults')?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names?.filter((n) => !FAULTS.some((f) => f.name === n)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown fault(s): ${unknown.join(', ')}`);
    return 2;
  }
  const concurrency = flag(argv, '--concurrency');
  const seed = flag(argv, '--seed');
  const workers = flag(argv, '--workers');
  const wide = argv.includes('--whole-files');
  const matrix = await runFaultMatrix({
    ...(names !== undefined && { faults: FAULTS.filter((f) => names.includes(f.name)) }),
    ...(concurrency !== undefined && { concurrency: Number(concurrency) }),
    ...(seed !== undefined && { seed: Number(seed) }),
    ...(workers !== undefined && { workersPerRun: Number(workers) }),
    ...(wide && { narrow: false }),
    log: (line) => console.log(line),
  });
  console.log(`${matrix.summary.detected}/${matrix.summary.faults} detected in ${matrix.wallMs} ms; see reports/fault-matrix.md`);
  if (matrix.summary.undetected.length > 0) console.log(`undetected: ${matrix.summary.undetected.join(', ')}`);
  return matrix.summary.undetected.length === 0 && matrix.baseline.failures.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(3);
    },
  );
}
