/**
 * Suite wall time: the conformance CLI end to end (process start to exit) against its embedded
 * reference, with the requests sent and checks run as reports/conformance.json counts them.
 * Goal for the quick profile: well under 60 s. The full profile waits for contract timers (token
 * and charge expiry, webhook redelivery backoff), so it is measured only on request (`--full`).
 */
import { cliArgs, timedRun } from './process.js';

export const QUICK_GOAL_MS = 60_000;

export interface SuiteRow {
  profile: 'quick' | 'full';
  measured: boolean;
  /** why not measured, or what went wrong */
  note?: string;
  wallMs?: number;
  exitCode?: number | null;
  timedOut?: boolean;
  checks?: number;
  passed?: number;
  failed?: number;
  warnings?: number;
  notRun?: number;
  harnessErrors?: number;
  requests?: number;
  /** the run's own durationMs from conformance.json (vitest start to end) */
  reportedDurationMs?: number;
  meetsGoal?: boolean;
  /** the slowest test files (junit times; workers overlap, so these do not add up to the wall time) */
  slowestFiles?: { file: string; seconds: number }[];
}

export async function measureSuite(profile: 'quick' | 'full', options: { timeoutMs: number; seed?: number }): Promise<SuiteRow> {
  const flags = ['--profile', profile, '--seed', String(options.seed ?? 1)];
  const run = await timedRun({ args: cliArgs(flags), timeoutMs: options.timeoutMs });
  const s = run.report?.summary;
  const row: SuiteRow = { profile, measured: true, wallMs: run.wallMs, exitCode: run.exitCode, timedOut: run.timedOut };
  if (s) {
    Object.assign(row, {
      checks: s.checks,
      passed: s.passed,
      failed: s.failed,
      warnings: s.warnings,
      notRun: s.notRun,
      harnessErrors: s.errors,
      requests: s.requests,
    });
  }
  if (run.fileTimes?.length) row.slowestFiles = run.fileTimes.slice(0, 5);
  if (run.report?.durationMs !== undefined) row.reportedDurationMs = run.report.durationMs;
  if (run.timedOut) row.note = `killed after ${options.timeoutMs} ms`;
  else if (!s) row.note = `no conformance.json (exit ${run.exitCode}): ${run.outputTail.slice(-400).trim()}`;
  else if (run.exitCode !== 0) row.note = `exit ${run.exitCode}: ${s.failed} failed, ${s.errors} harness errors against the clean reference`;
  if (profile === 'quick') row.meetsGoal = !run.timedOut && run.wallMs < QUICK_GOAL_MS;
  return row;
}

export function notMeasured(profile: 'quick' | 'full', note: string): SuiteRow {
  return { profile, measured: false, note };
}
