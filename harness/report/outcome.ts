/**
 * The outcome of one check: written once, at the end of the check, by the worker
 * (harness/run/outcome.ts decides it), and read as it is by every reporter: the verdict reporter
 * (conformance.json/md), the console summary, Allure and JUnit. Nothing downstream works a check's
 * state out again, and nothing edits a finding it carries.
 *
 * The worker stores it on the running vitest task (`task.meta.paygateOutcome`); vitest carries task
 * meta from the worker to the main process. Everything here is JSON on purpose: task meta crosses a
 * process boundary.
 */
import { TestRunner } from 'vitest';
import type { ReportedFinding } from './finding.js';
import type { AcceptedRef } from './baseline.js';

export type CheckApi = 'gateway' | 'partner';
export type CheckSeverity = 'blocker' | 'critical' | 'normal' | 'minor';

/**
 * How a check ended: `failed` (a finding of severity failure; any finding under --strict),
 * `warned`, `passed`, `not-run` (a missing optional credential, the API not tested: the reason),
 * `inconclusive` (the certifier's side: no HTTP answer, no token, its time limit: the cause) or
 * `error` (the suite itself broke: never a conformance verdict).
 */
export type CheckState = 'passed' | 'failed' | 'warned' | 'not-run' | 'error' | 'inconclusive';

/** How often rules deciding one requirement were evaluated in a check, and with what outcome. */
export interface EvaluationCount {
  /** evaluations (each rule call deciding the requirement counts one) */
  evaluations: number;
  /** evaluations that found a failure naming it */
  failed: number;
  /** evaluations that found only a warning naming it */
  warned: number;
}

/** Rule evaluations per requirement ID, as reports carry them. */
export type ReportedEvaluations = Record<string, EvaluationCount>;

/** One operation/status pair the check exercised (coverage). */
export interface Exercised {
  /** spec operation, e.g. `POST /api/v1/pix/in/qrcode`; `(unmatched)` when none */
  operation: string;
  /** response status, or 0 when the request got no response */
  status: number;
}

/** A relation a check's rules judge cell by cell (harness/rules/rule.ts `Relation`) and the cells the check tried. */
export interface RelationRecord {
  id: string;
  title: string;
  cells: string[];
  /** cells only a contract timer reaches (full and certify profiles) */
  timerCells?: string[];
  /** cells no run can try, with the reason */
  untryable?: Record<string, string>;
  /** the cells this check tried */
  tried: string[];
  /** cells this check could not try in this run, with why (an optional credential not configured) */
  cannotTry?: Record<string, string>;
}

/** A finding the run's baseline accepts (`--baseline`): reported, never failing. */
export type AcceptedFinding = ReportedFinding & AcceptedRef;

/** The shortest failing sequence of a model-based fuzzer (harness/run/model.ts). */
export interface FailingSequence {
  /** the numbered steps, what each called and what the target answered */
  steps: string;
  /** every request of the sequence, in order */
  curl: string[];
}

export interface CheckOutcome {
  /** stable identity, e.g. `gateway.pixin.amount-min`; `file > test name` for a test that is not a check */
  check: string;
  /** the vitest full name (`describe > test`) */
  name: string;
  /** the test's own name (what a replay's --grep matches) */
  title?: string;
  /** the suite file, relative to the project root */
  file: string;
  api?: CheckApi;
  /** functional area (Allure feature), e.g. `PIX cash-in` */
  area?: string;
  severity?: CheckSeverity;
  /** the requirements the check sets out to decide, then every one a rule evaluated in it */
  requirements: string[];
  state: CheckState;
  /** findings of severity failure, after the baseline */
  failures: ReportedFinding[];
  /** findings of severity warning, after the baseline */
  warnings: ReportedFinding[];
  /** findings the baseline accepted */
  accepted?: AcceptedFinding[];
  /** why the check did not run */
  notRun?: string;
  /**
   * not run because the run left it out (the API not tested, the profile's tier, a receiver run or
   * not): out of the run's scope. A check not run for a missing capability is in scope, and missing.
   */
  outOfScope?: boolean;
  /** why the check could not be judged */
  inconclusive?: string;
  /** the check's time limit (ms), when it ran out of it */
  deadlineMs?: number;
  /** the error when the check failed without a finding, or the harness error */
  error?: string;
  /** observations (never a failure): what the target chose where the contract is open */
  notes?: string[];
  /** rule evaluations per requirement: a requirement passes only when one was evaluated */
  evaluations?: ReportedEvaluations;
  /** the relations its rules judge cell by cell, and the cells it tried (absent when none) */
  relations?: RelationRecord[];
  /** HTTP requests made */
  requests: number;
  /** operations/statuses exercised (coverage) */
  exercised?: Exercised[];
  /** the command that replays the check */
  replay?: string;
  /** the fast-check seed and counterexample path behind `replay` */
  seed?: number;
  replayPath?: string;
  /** the shortest failing sequence of a model-based fuzzer */
  sequence?: FailingSequence;
  /**
   * `--confirm-failures N`: the failing case run N times more in the same run; `confirmed` when
   * every one failed again, `flaky` otherwise (the check still fails: the deviation was seen)
   */
  confirmation?: { runs: number; failed: number; label: 'confirmed' | 'flaky' };
  durationMs: number;
  /** when the check started (ISO 8601); checks of one file may run side by side (`waits`) */
  startedAt?: string;
  /** ms waited for the quiet-account lanes (harness/run/lane.ts), included in durationMs */
  laneWaitMs?: number;
}

export const OUTCOME_META_KEY = 'paygateOutcome';

declare module 'vitest' {
  interface TaskMeta {
    /** set once by {@link writeOutcome} */
    paygateOutcome?: CheckOutcome;
  }
}

/** Something holding a vitest task: the `TestContext` a test function receives, or the task itself. */
export type TaskHolder = { task: { meta: object } } | { meta: object };

function metaObjectOf(holder: TaskHolder | undefined): Record<string, unknown> {
  if (holder !== undefined) return ('task' in holder ? holder.task.meta : holder.meta) as Record<string, unknown>;
  const current = TestRunner.getCurrentTest();
  if (current === undefined) throw new Error('report/outcome: writeOutcome called outside a running test; pass the test context');
  return current.meta as Record<string, unknown>;
}

/**
 * Stores the check's outcome on the vitest task, once, at the end of the check. Pass the test
 * context when tests run concurrently (`test.concurrent`): the "current test" is then ambiguous.
 */
export function writeOutcome(outcome: CheckOutcome, holder?: TaskHolder): void {
  // a JSON round trip: the value survives the worker → main process hop unchanged
  metaObjectOf(holder)[OUTCOME_META_KEY] = JSON.parse(JSON.stringify(outcome)) as CheckOutcome;
}

/** The outcome stored on a task, if its test is a check that ended. */
export function readOutcome(holder?: TaskHolder): CheckOutcome | undefined {
  return metaObjectOf(holder)[OUTCOME_META_KEY] as CheckOutcome | undefined;
}
