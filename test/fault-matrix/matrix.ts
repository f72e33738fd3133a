/**
 * The fault matrix: proves every reference fault is detected by the suite.
 *
 * 1. Baseline: every suite file against the correct reference (quick profile): the check → file →
 *    requirement map, and the proof that the correct reference draws no failure.
 * 2. Select each fault's files (select.ts) and pack them into runs: a batch of compatible faults of
 *    each API per run (select.ts explains when that is safe).
 * 3. Run the packed runs, `concurrency` at a time (each its own reference, receiver and reports
 *    directory); timer faults in the full profile with shortened reference timers, next to one
 *    "timer baseline" run (the same files, no fault) whose failures earn no credit. As each batch
 *    run ends it is judged (report.ts `judgeBatched`); a fault whose batch result cannot stand for
 *    a run of its own goes back into the queue, for a solo run (one fault per API, paired with a
 *    fault of the other API when one waits).
 * 4. Judge (report.ts) and write reports/fault-matrix.{json,md}.
 *
 * Standalone: `npx tsx test/fault-matrix/matrix.ts [--faults a,b] [--concurrency 4] [--seed N] [--workers N] [--whole-files] [--no-batch] [--no-hints]`.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requirementProof } from './proof.js';
import { loadRequirements } from '../../harness/contract/requirements.js';
import { FAULTS } from '../../reference/faults.js';
import type { FaultSpec } from '../../reference/faults.js';
import type { ReportedCheck, CheckState } from '../../harness/report/verdict.js';
import { judgeBatched, judgeFault, unmappedOutcome, writeMatrix } from './report.js';
import type { FaultMatrix, FaultOutcome } from './report.js';
import { ROOT, VERDICT_ONLY, runConformance, suiteFiles } from './runner.js';
import type { ConformanceRunResult } from './runner.js';
import { meetsHint, narrowSelection, packRuns, selectFiles, titlePattern } from './select.js';
import { readHints } from './hints.js';
import type { FaultRun, FaultSelection } from './select.js';

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
  /** runs at the same time (default 4: a run mostly waits on its reference and on webhooks) */
  concurrency?: number;
  /** worker processes per run (default 1; 2 for timer runs and runs of more than 12 files; the baseline at least 2) */
  workersPerRun?: number;
  /** batches of compatible faults per run (default true); false: one fault per API per run */
  batch?: boolean;
  /** time limit of one quick run / one timer run */
  quickRunTimeoutMs?: number;
  timerRunTimeoutMs?: number;
  /** run only the selected checks of each file (vitest -t), not whole files (default true) */
  narrow?: boolean;
  /** start each fault with the checks that detected it last time (hints.ts; default true) */
  hints?: boolean;
  /** where per-run reports go (default reports/self-test/fault-matrix) */
  workDir?: string;
  /** where fault-matrix.{json,md} go (default reports) */
  outputDir?: string;
  /** progress lines */
  log?: (line: string) => void;
}

interface Planned {
  run: FaultRun;
  kind: 'fault' | 'timer-baseline' | 'solo';
  result?: ConformanceRunResult;
}

/**
 * Runs `initial` with at most `limit` at a time, in order; `after` may return more items (solo
 * re-runs), which `pair` turns into runs: before the rest of `initial` when two wait, else once
 * nothing of `initial` is left to start.
 */
async function runQueue(
  initial: readonly Planned[],
  limit: number,
  task: (item: Planned) => Promise<ConformanceRunResult>,
  after: (item: Planned) => FaultSelection[],
  pair: (waiting: FaultSelection[]) => Planned | undefined,
): Promise<Planned[]> {
  const queue = [...initial];
  const waiting: FaultSelection[] = [];
  const done: Planned[] = [];
  let running = 0;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      while (running < limit) {
        // a solo re-run as soon as two wait (one per API) or nothing else is left: the planned runs
        // still queued are the cheapest (costliest first), the re-runs' batches are already over
        const item = (waiting.length >= 2 ? pair(waiting) : undefined) ?? queue.shift() ?? pair(waiting);
        if (item === undefined) break;
        running += 1;
        task(item).then(
          (result) => {
            item.result = result;
            done.push(item);
            waiting.push(...after(item));
            running -= 1;
            pump();
          },
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      }
      if (running === 0 && queue.length === 0 && waiting.length === 0) resolve(done);
    };
    pump();
  });
}

function describeFailure(check: ReportedCheck): string {
  return `${check.check} (${check.file}): ${check.failures.map((f) => `${f.code} [${f.requirements.join(',')}] ${f.title}`).join('; ') || check.error || 'failed'}`;
}

export async function runFaultMatrix(options: MatrixOptions = {}): Promise<FaultMatrix> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 20_261_122;
  // six runs in flight: the long runs mostly wait on webhooks (20-40 s windows), so on 2 cores six
  // keep the CPU about 90 % busy (measured: 332 s at six, 395 s at four, same detections)
  const concurrency = options.concurrency ?? 6;
  // one worker per run: the runs in flight already keep both cores busy, and a second worker
  // process per run costs its own imports, contract and validators (~1.3 CPU-s); two for the timer
  // runs (their checks wait out contract timers, one file's wait beside another's) and long runs
  const workersOf = (run: FaultRun): number => options.workersPerRun ?? (run.tier === 'timer' || run.files.length > 12 ? 2 : 1);
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
    workers: Math.max(2, options.workersPerRun ?? 2),
    isolate: false,
    reporters: VERDICT_ONLY,
    timeoutMs: quickTimeout * 2,
  });
  const baselineReport = baseline.report;
  if (baselineReport === undefined) {
    throw new Error(`fault matrix: the baseline run wrote no conformance.json (exit ${baseline.exitCode ?? baseline.signal ?? '?'}):\n${baseline.outputTail}`);
  }
  const baselineChecks = baselineReport.checks;
  const baselineFailing = baselineChecks.filter((c) => c.state === 'failed' || c.state === 'error');
  const baselineStates = new Map<string, CheckState>(baselineChecks.map((c) => [c.check, c.state]));
  const checkMs = new Map(baselineChecks.map((c) => [c.check, c.durationMs]));
  log(`baseline: ${baselineChecks.length} checks in ${baseline.durationMs} ms, ${baselineFailing.length} failing`);

  // 2. selection and packing
  const hints = options.hints === false ? new Map() : readHints();
  const selections = faults.map((fault) => narrowSelection(selectFiles(fault, baselineChecks, allFiles), hints.get(fault.name), baselineChecks));
  log(`${selections.filter((s) => s.full !== undefined).length} faults narrowed to their last detecting checks (test/fault-matrix/detections.json)`);
  const runs = packRuns(selections, { batch: options.batch ?? true, checkMs });
  const planned: Planned[] = runs.map((run) => ({ run, kind: 'fault' }));
  const timerRuns = runs.filter((r) => r.tier === 'timer');
  if (timerRuns.length > 0) {
    // the same checks with no fault; the longest-running item, so it starts first
    const files = [...new Set(timerRuns.flatMap((r) => r.files))].sort();
    const testNamePattern = titlePattern(timerRuns.flatMap((r) => r.faults.flatMap((s) => s.titles)));
    planned.unshift({ run: { id: 'timer-baseline', tier: 'timer', faults: [], files, testNamePattern, estimateMs: Number.MAX_SAFE_INTEGER, strict: false }, kind: 'timer-baseline' });
  }
  const batchedFaults = runs.filter((r) => r.faults.length > 2).length;
  log(`${faults.length} faults in ${runs.length} runs (${batchedFaults} with batches), ${concurrency} at a time`);

  // 3. the runs; each batch run is judged as it ends, its doubtful faults queued for solo runs
  const excludedQuick = new Set(baselineFailing.map((c) => c.check));
  let timerBaseline: ConformanceRunResult | undefined;
  const excludedFor = (run: FaultRun): ReadonlySet<string> => {
    if (run.tier !== 'timer') return excludedQuick;
    const timerFailing = (timerBaseline?.report?.checks ?? []).filter((c) => c.state === 'failed' || c.state === 'error');
    return new Set([...excludedQuick, ...timerFailing.map((c) => c.check)]);
  };
  const outcomes = new Map<string, FaultOutcome>();
  const rerunOf = new Map<string, { run: string; why: string }>();
  // timer runs are judged against the timer baseline: judged after it ends (it starts first)
  const timerPending: Planned[] = [];
  const judgeRun = (item: Planned): FaultSelection[] => {
    const result = item.result as ConformanceRunResult;
    const { run } = item;
    if (item.kind === 'timer-baseline') {
      timerBaseline = result;
      return timerPending.splice(0).flatMap(judgeRun);
    }
    if (run.tier === 'timer' && timerBaseline === undefined && timerRuns.length > 0) {
      timerPending.push(item);
      return [];
    }
    const solo: FaultSelection[] = [];
    for (const selection of run.faults) {
      if (item.kind === 'solo') {
        const outcome = judgeFault(selection, run, result, excludedFor(run));
        const first = rerunOf.get(selection.fault.name);
        outcomes.set(selection.fault.name, first !== undefined ? { ...outcome, batchRerun: first } : outcome);
        continue;
      }
      const judged = judgeBatched(selection, run, result, excludedFor(run), baselineStates);
      const { outcome } = judged;
      const rerun = judged.rerun ?? (selection.full !== undefined && !meetsHint(selection, outcome) ? `its last detecting checks fell short (${outcome.detected ? `credited ${outcome.failingRequirements.join(', ')} of ${(selection.expect ?? []).join(', ')}` : 'not detected'}): its whole selection` : undefined);
      if (rerun === undefined) outcomes.set(selection.fault.name, outcome);
      else {
        rerunOf.set(selection.fault.name, { run: run.id, why: rerun });
        // the re-run judges the fault as a matrix without hints would
        solo.push(selection.full ?? selection);
      }
    }
    if (solo.length > 0) log(`${run.id}: re-run alone: ${solo.map((s) => `${s.fault.name} (${rerunOf.get(s.fault.name)?.why.slice(0, 160) ?? ''})`).join('; ')}`);
    return solo;
  };
  let soloCount = 0;
  const pairSolo = (waiting: FaultSelection[]): Planned | undefined => {
    const first = waiting.shift();
    if (first === undefined) return undefined;
    const sameClass = (s: FaultSelection): boolean => s.fault.api !== first.fault.api && s.fault.tier === first.fault.tier && (s.fault.strict !== undefined) === (first.fault.strict !== undefined);
    const index = waiting.findIndex(sameClass);
    const partner = index >= 0 ? waiting.splice(index, 1) : [];
    const [run] = packRuns([first, ...partner], { batch: false, checkMs });
    if (run === undefined) return undefined;
    soloCount += 1;
    run.id = `solo-${String(soloCount).padStart(2, '0')}`;
    return { run, kind: 'solo' };
  };
  const finished = await runQueue(
    planned,
    concurrency,
    async ({ run }) => {
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
        workers: workersOf(run),
        // one worker process runs the run's files in turn: modules and the contract load once
        isolate: false,
        reporters: VERDICT_ONLY,
        ...(narrow && run.testNamePattern !== '' && { testNamePattern: run.testNamePattern }),
        timeoutMs: run.tier === 'timer' ? timerTimeout : quickTimeout,
      });
      log(`${run.id} [${run.tier}] ${names.join(' + ') || 'no fault'}: ${run.files.length} files, ${result.durationMs} ms, exit ${result.timedOut ? 'timeout' : String(result.exitCode)}`);
      return result;
    },
    judgeRun,
    pairSolo,
  );

  // 4. report
  const timerFailing = (timerBaseline?.report?.checks ?? []).filter((c) => c.state === 'failed' || c.state === 'error');
  for (const selection of selections) if (!outcomes.has(selection.fault.name)) outcomes.set(selection.fault.name, unmappedOutcome(selection));
  const ordered = faults.map((f) => outcomes.get(f.name) as FaultOutcome);

  const matrix: FaultMatrix = {
    generatedAt: new Date().toISOString(),
    wallMs: Math.round(performance.now() - started),
    baseline: { runMs: baseline.durationMs, checks: baselineChecks.length, failures: baselineFailing.map(describeFailure), seed },
    ...(timerBaseline !== undefined && {
      timerBaseline: { runMs: timerBaseline.durationMs, failingByDesign: timerFailing.map(describeFailure) },
    }),
    runs: [...finished].sort((a, b) => a.run.id.localeCompare(b.run.id)).map(({ run, result: r }) => {
      const result = r as ConformanceRunResult;
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
  const noBatch = argv.includes('--no-batch');
  const noHints = argv.includes('--no-hints');
  const matrix = await runFaultMatrix({
    ...(names !== undefined && { faults: FAULTS.filter((f) => names.includes(f.name)) }),
    ...(concurrency !== undefined && { concurrency: Number(concurrency) }),
    ...(seed !== undefined && { seed: Number(seed) }),
    ...(workers !== undefined && { workersPerRun: Number(workers) }),
    ...(wide && { narrow: false }),
    ...(noBatch && { batch: false }),
    ...(noHints && { hints: false }),
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
