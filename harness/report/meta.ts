/**
 * What one check (one vitest test of a suite) tells the report: its identity, the requirements it
 * enforces, what it found and how many requests it made. The suites' check wrapper stores it on the
 * running vitest task (`task.meta.paygateCheck`); vitest carries task meta from the worker to the
 * main process, where harness/report/verdict-reporter.ts reads it with `testCase.meta()`.
 *
 * Everything here is JSON-serialisable on purpose: task meta crosses a process boundary.
 */
import { TestRunner } from 'vitest';
import type { Exchange } from '../core/exchange.js';
import type { Finding } from '../rules/finding.js';
import type { EvaluationCount } from '../run/check-run.js';

/** Rule evaluations per requirement ID, as reports carry them. */
export type ReportedEvaluations = Record<string, EvaluationCount>;
import { replayCommand } from './format.js';
import type { AcceptedRef } from './baseline.js';

export { replayCommand };

export type CheckApi = 'gateway' | 'partner';
export type CheckSeverity = 'blocker' | 'critical' | 'normal' | 'minor';

/** A finding reduced to what a report shows (exchanges become curl lines). */
export interface FindingSummary {
  code: string;
  title: string;
  requirements: string[];
  expected: string;
  actual: string;
  pointer?: string;
  /** one curl per related exchange, secrets already redacted upstream */
  curl: string[];
}

/** One operation/status pair the check exercised (coverage). */
export interface Exercised {
  /** spec operation, e.g. `POST /api/v1/pix/in/qrcode`; `(unmatched)` when none */
  operation: string;
  /** response status, or 0 when the request got no response */
  status: number;
}

export interface CheckMeta {
  /** stable identity, e.g. `gateway.pixin.amount-min` (does not change between runs) */
  checkId: string;
  api: CheckApi;
  /** functional area (Allure feature), e.g. `PIX cash-in` */
  area: string;
  /** requirement IDs the check enforces (from specs/requirements.yaml) */
  requirements: string[];
  severity: CheckSeverity;
  failures: FindingSummary[];
  warnings: FindingSummary[];
  /** set when the check could not run (missing optional credential, API not configured…): the reason */
  notRun?: string;
  /**
   * set when the check could not be judged for a reason on the certifier's side (no HTTP answer,
   * no gateway token, its time limit; harness/run/inconclusive.ts): the cause. Never a failure.
   */
  inconclusive?: string;
  /** HTTP requests made by the check */
  requests: number;
  /** how to replay this check (command line), e.g. with the fast-check seed and path */
  replay?: string;
  /** operations/statuses the check exercised (optional; feeds the coverage section) */
  exercised?: Exercised[];
  /** observations the check reported (never a failure): what the target chose where the contract is open */
  notes?: string[];
  /** rule evaluations per requirement: a requirement passes only when one was evaluated */
  evaluations?: ReportedEvaluations;
  /** findings the run's baseline accepts (`--baseline`): reported, never failing */
  accepted?: (FindingSummary & AcceptedRef)[];
  /** ms the check waited for its quiet-account lane (harness/run/lane.ts), stepping aside included */
  laneWaitMs?: number;
}

export const CHECK_META_KEY = 'paygateCheck';

declare module 'vitest' {
  interface TaskMeta {
    /** set by harness/report/meta.ts `setCheckMeta` */
    paygateCheck?: CheckMeta;
  }
}

/** Something holding a vitest task: the `TestContext` a test function receives, or the task itself. */
export type TaskHolder = { task: { meta: object } } | { meta: object };

function metaObjectOf(holder: TaskHolder | undefined): Record<string, unknown> {
  if (holder !== undefined) {
    const meta = 'task' in holder ? holder.task.meta : holder.meta;
    return meta as Record<string, unknown>;
  }
  const current = TestRunner.getCurrentTest();
  if (current === undefined) {
    throw new Error(
      'report/meta: setCheckMeta called outside a running test; pass the test context (`test(name, (ctx) => …)`)',
    );
  }
  return current.meta as Record<string, unknown>;
}

/**
 * Stores the check's meta on the vitest task so the verdict reporter can read it. Call it once at
 * the end of the check (calling again replaces it). Pass the test context when tests run
 * concurrently (`test.concurrent`): the "current test" is then ambiguous and only the context is
 * reliable.
 */
export function setCheckMeta(meta: CheckMeta, holder?: TaskHolder): void {
  // a JSON round trip guarantees the value survives the worker → main process hop unchanged
  metaObjectOf(holder)[CHECK_META_KEY] = JSON.parse(JSON.stringify(meta)) as CheckMeta;
}

/** Reads back the meta stored on a task (tests, and the check wrapper updating it). */
export function getCheckMeta(holder?: TaskHolder): CheckMeta | undefined {
  return metaObjectOf(holder)[CHECK_META_KEY] as CheckMeta | undefined;
}

/** A finding as the report shows it. */
export function summarizeFinding(finding: Finding): FindingSummary {
  return {
    code: finding.code,
    title: finding.title,
    requirements: [...finding.requirements],
    expected: finding.expected,
    actual: finding.actual,
    ...(finding.pointer !== undefined && { pointer: finding.pointer }),
    curl: finding.exchanges.map((exchange) => exchange.curl),
  };
}

/** Splits findings into the two lists of a CheckMeta. */
export function splitFindings(findings: readonly Finding[]): Pick<CheckMeta, 'failures' | 'warnings'> {
  return {
    failures: findings.filter((f) => f.severity === 'failure').map(summarizeFinding),
    warnings: findings.filter((f) => f.severity === 'warning').map(summarizeFinding),
  };
}

/** The distinct operation/status pairs a list of exchanges exercised. */
export function exercisedBy(exchanges: readonly Exchange[]): Exercised[] {
  const seen = new Map<string, Exercised>();
  for (const exchange of exchanges) {
    const item = { operation: exchange.operation ?? '(unmatched)', status: exchange.response?.status ?? 0 };
    seen.set(`${item.operation} ${item.status}`, item);
  }
  return [...seen.values()];
}

/** What a finished check run provides (harness/run/session.ts `CheckRun.summary()` has this shape). */
export interface CheckRunLike {
  requirements: readonly string[];
  failures: readonly Finding[];
  warnings: readonly Finding[];
  exchanges: readonly Exchange[];
  seed?: number;
  /** fast-check counterexample path */
  replay?: string;
}

export interface CheckIdentity {
  checkId: string;
  api: CheckApi;
  area: string;
  severity: CheckSeverity;
  /** the test's own name, for the replay line's --grep */
  title?: string;
  /** the profile to replay with (default PAYGATE_PROFILE) */
  profile?: string;
  notRun?: string;
}

/** Builds a CheckMeta from a finished check run (CheckRun.summary()) and the check's identity. */
export function checkMetaFromRun(run: CheckRunLike, identity: CheckIdentity): CheckMeta {
  const meta: CheckMeta = {
    checkId: identity.checkId,
    api: identity.api,
    area: identity.area,
    requirements: [...run.requirements],
    severity: identity.severity,
    failures: run.failures.map(summarizeFinding),
    warnings: run.warnings.map(summarizeFinding),
    requests: run.exchanges.length,
    exercised: exercisedBy(run.exchanges),
  };
  if (identity.notRun !== undefined) meta.notRun = identity.notRun;
  if (run.replay !== undefined || identity.title !== undefined) {
    meta.replay = replayCommand({
      ...(identity.profile !== undefined && { profile: identity.profile }),
      ...(run.seed !== undefined && { seed: run.seed }),
      ...(run.replay !== undefined && { path: run.replay }),
      ...(identity.title !== undefined && { title: identity.title }),
    });
  }
  return meta;
}
