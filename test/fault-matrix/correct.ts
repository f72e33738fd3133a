/**
 * Whole-suite runs against the correct reference (no fault), through the real entry point
 * (`npm run conformance` = harness/cli/main.ts): the zero-false-failure tests, the soak runner and
 * the chaos test share them.
 */
import { join } from 'node:path';
import type { ConformanceReport } from '../../harness/report/verdict.js';
import { ROOT, runConformance } from './runner.js';
import type { ConformanceRunResult } from './runner.js';

export interface CorrectRunOptions {
  seed: number;
  /** extra environment for the run (and so the reference): REFERENCE_CHAOS=1… */
  env?: Record<string, string>;
  profile?: 'quick' | 'full';
  workers?: number;
  /** property runs (and checks) in flight at once (`--concurrency`, as against a remote target); default: the embedded reference's one at a time */
  concurrency?: number;
  timeoutMs?: number;
  /** reports directory (default reports/self-test/<label>) */
  reportsDir?: string;
  label?: string;
}

export interface CorrectRunSummary {
  seed: number;
  label: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  checks: number;
  requests: number;
  /** `check: code [requirements] title — actual` of every failure (should be empty) */
  failures: string[];
  /** the same for warnings (allowed) */
  warnings: string[];
  /** harness errors: the suite broke (should be empty) */
  errors: string[];
  /** checks not run, with the reason */
  notRun: string[];
  report: ConformanceReport | undefined;
  result: ConformanceRunResult;
}

export async function runCorrect(options: CorrectRunOptions): Promise<CorrectRunSummary> {
  const label = options.label ?? `correct-seed-${options.seed}`;
  const result = await runConformance({
    label,
    via: 'cli',
    files: [],
    // these runs are judged from conformance.json alone (the package and action tests cover the Allure output)
    cliArgs: ['--profile', options.profile ?? 'quick', '--seed', String(options.seed), '--workers', String(options.workers ?? 2), ...(options.concurrency !== undefined ? ['--concurrency', String(options.concurrency)] : []), '--no-allure'],
    reportsDir: options.reportsDir ?? join(ROOT, 'reports', 'self-test', label),
    env: options.env ?? {},
    timeoutMs: options.timeoutMs ?? 180_000,
  });
  return summarize(options.seed, label, result);
}

export function summarize(seed: number, label: string, result: ConformanceRunResult): CorrectRunSummary {
  const report = result.report;
  const failures = (report?.failures ?? []).map((f) => `${f.check}: ${f.code ?? ''} [${f.requirements.join(',')}] ${f.title ?? f.message} — ${f.actual ?? ''}`.trim());
  const warnings = (report?.warnings ?? []).map((f) => `${f.check}: ${f.code ?? ''} [${f.requirements.join(',')}] ${f.title ?? f.message}`);
  const errors = (report?.errors ?? []).map((e) => `${e.check}: ${e.message}`);
  if (report === undefined) errors.push(`no conformance.json (exit ${result.exitCode ?? result.signal ?? '?'}${result.timedOut ? ', killed after its time limit' : ''}):\n${result.outputTail.slice(-1500)}`);
  else if (result.timedOut) errors.push(`killed after its time limit (${result.durationMs} ms)`);
  return {
    seed,
    label,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    checks: report?.summary.checks ?? 0,
    requests: report?.summary.requests ?? 0,
    failures,
    warnings: [...new Set(warnings)],
    errors,
    notRun: (report?.notRun ?? []).map((n) => `${n.check}: ${n.reason}`),
    report,
    result,
  };
}

/** One paragraph for people. */
export function describeRun(run: CorrectRunSummary): string {
  const lines = [
    `${run.label}: seed ${run.seed}, exit ${run.timedOut ? 'timeout' : String(run.exitCode)}, ${run.checks} checks, ${run.requests} requests, ${(run.durationMs / 1000).toFixed(1)} s; ` +
      `${run.failures.length} failure(s), ${run.errors.length} error(s), ${run.warnings.length} warning(s), ${run.notRun.length} not run`,
  ];
  for (const f of run.failures) lines.push(`  FAIL ${f}`);
  for (const e of run.errors) lines.push(`  ERROR ${e}`);
  for (const w of run.warnings) lines.push(`  warn ${w}`);
  return lines.join('\n');
}
