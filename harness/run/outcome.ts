/**
 * The end of a check: one pure function from what the check recorded and how its body ended to its
 * {@link CheckOutcome}, which the worker writes once and every reporter reads as it is.
 *
 * In order: a check that could not start is not run; a body that threw NotRunError before any
 * failure is not run; a body cut off on the certifier's side (no HTTP answer, no token, its time
 * limit) is inconclusive unless failures about answers the target gave stand
 * (harness/run/inconclusive.ts); the baseline's accepted findings are set apart
 * (harness/run/accepted.ts); then the findings decide: failed, warned or passed. A body that threw
 * something that is none of these is a harness error (HarnessError), or a failed check with the
 * error as its message. The recorded findings are read, never changed.
 */
import type { Exchange } from '../core/exchange.js';
import { HarnessError } from '../core/errors.js';
import type { Finding } from '../rules/finding.js';
import type { Baseline } from '../report/baseline.js';
import { reportFinding } from '../report/finding.js';
import { replayCommand } from '../report/format.js';
import type { Relation } from '../rules/rule.js';
import type { CheckApi, CheckOutcome, CheckSeverity, CheckState, EvaluationCount, Exercised, RelationRecord } from '../report/outcome.js';
import { applyBaseline } from './accepted.js';
import { inconclusiveCause, settleInconclusive } from './inconclusive.js';

/** What a check is, whatever happened in it. */
export interface CheckIdentity {
  check: string;
  /** the vitest full name */
  name: string;
  title: string;
  file: string;
  api: CheckApi;
  area: string;
  severity: CheckSeverity;
  /** the requirements the check sets out to decide */
  requirements: readonly string[];
  /** the relations its rules judge cell by cell (coverage) */
  relations?: readonly Relation[];
}

/** What the check recorded (a CheckRun, read only). */
export interface RecordedRun {
  readonly requirements: readonly string[];
  readonly failures: readonly Finding[];
  readonly warnings: readonly Finding[];
  readonly notes: readonly string[];
  readonly exchanges: readonly Exchange[];
  readonly evaluations: Readonly<Partial<Record<string, EvaluationCount>>>;
  /** relation id → the cells of it the run tried */
  readonly covered?: Readonly<Record<string, readonly string[]>>;
  /** relation id → cell → why the run could not try it */
  readonly untried?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly seed?: number | undefined;
  /** fast-check counterexample path */
  readonly replay?: string | undefined;
  readonly failingSequence?: { readonly steps: string; readonly exchanges: readonly Exchange[] } | undefined;
}

/** How the check's body ended. */
export interface CheckEnd {
  /** the check did not start: why */
  skipped?: string;
  /** it did not start because the run left it out (API, profile, receiver run), not for want of a capability */
  outOfScope?: boolean;
  /** what the body threw, if it threw */
  thrown?: unknown;
  /** the check's time limit (ms), when the body was still running at it */
  outOfTimeMs?: number;
  /** `--confirm-failures`: a failing case run this many times more, and how many of them failed */
  confirmation?: { runs: number; failed: number };
}

export interface EndSettings {
  profile: string;
  /** the run's seed (replay) */
  seed: number;
  /** warnings fail the check too */
  strict: boolean;
  baseline?: Baseline | undefined;
  durationMs: number;
  /** when the check started (ISO 8601): with durationMs, where it sat in the run */
  startedAt?: string;
  laneWaitMs?: number;
  /** redacts text the end adds (notes about findings and causes) */
  redact?: (text: string) => string;
}

/** Errors a check's body throws to stop on the findings it recorded (CheckRun.finish()). */
export function isFindingStop(error: unknown): boolean {
  return error instanceof Error && error.name === 'AssertionError' && Array.isArray((error as { findings?: unknown }).findings);
}

function isNotRun(error: unknown): error is HarnessError {
  return error instanceof HarnessError && error.code === 'not-run';
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

/** The check's relations with the cells its run tried (none tried when it did not run). */
export function relationRecords(relations: readonly Relation[] | undefined, covered: Readonly<Record<string, readonly string[]>> | undefined, untried?: RecordedRun['untried']): RelationRecord[] {
  return (relations ?? []).map((r) => {
    const skipped = Object.entries(untried?.[r.id] ?? {}).filter(([cell]) => r.cells.includes(cell) && covered?.[r.id]?.includes(cell) !== true);
    return {
    id: r.id,
    title: r.title,
    cells: [...r.cells],
    ...(r.timerCells !== undefined && r.timerCells.length > 0 && { timerCells: [...r.timerCells] }),
    ...(r.untryable !== undefined && Object.keys(r.untryable).length > 0 && { untryable: { ...r.untryable } }),
    tried: r.cells.filter((cell) => covered?.[r.id]?.includes(cell) === true),
    ...(skipped.length > 0 && { cannotTry: Object.fromEntries(skipped) }),
    };
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The outcome of a check (see the module comment). */
export function endCheck(identity: CheckIdentity, run: RecordedRun | undefined, end: CheckEnd, settings: EndSettings): CheckOutcome {
  const base = {
    check: identity.check,
    name: identity.name,
    title: identity.title,
    file: identity.file,
    api: identity.api,
    area: identity.area,
    severity: identity.severity,
    durationMs: Math.round(settings.durationMs),
    ...(settings.startedAt !== undefined && { startedAt: settings.startedAt }),
    ...(settings.laneWaitMs !== undefined && settings.laneWaitMs > 0 && { laneWaitMs: Math.round(settings.laneWaitMs) }),
  };
  if (end.skipped !== undefined || run === undefined) {
    const relations = relationRecords(identity.relations, undefined);
    return { ...base, requirements: [...identity.requirements], ...(relations.length > 0 && { relations }), state: 'not-run', notRun: end.skipped ?? 'not run', ...(end.outOfScope === true && { outOfScope: true }), failures: [], warnings: [], requests: 0 };
  }
  const redact = settings.redact ?? ((text: string) => text);
  const notes = [...run.notes];
  const thrown = end.thrown;
  let notRun: string | undefined;
  let cause: string | undefined;
  let broken: unknown;
  // a body that stopped on the findings it recorded (CheckRun.finish()) ends like one that returned
  const stoppedOnFindings = isFindingStop(thrown) && run.failures.length + run.warnings.length > 0;
  if (thrown !== undefined && !stoppedOnFindings) {
    // a check that found failures before it had to stop still fails: its findings are never dropped
    if (isNotRun(thrown)) {
      if (run.failures.length === 0) notRun = thrown.message;
      else notes.push(redact(`stopped early: ${thrown.message}`));
    } else {
      cause = inconclusiveCause(run.exchanges, thrown);
      if (cause === undefined) broken = thrown;
    }
  }
  let failures: readonly Finding[] = run.failures;
  let inconclusive: string | undefined;
  if (notRun === undefined && broken === undefined) {
    const settled = settleInconclusive(run, cause, end.outOfTimeMs);
    failures = settled.failures;
    inconclusive = settled.inconclusive;
    notes.push(...settled.notes.map(redact));
  }
  const requirements = [...new Set([...identity.requirements, ...run.requirements])];
  // --baseline: accepted deviations are set apart before the findings decide the state
  const kept = applyBaseline({ failures, warnings: run.warnings }, identity.check, requirements, settings.baseline);
  let state: CheckState;
  let error: string | undefined;
  if (notRun !== undefined) state = 'not-run';
  else if (broken !== undefined) {
    if (kept.failures.length > 0) {
      state = 'failed';
      notes.push(redact(`stopped by an error: ${errorText(broken)}`));
    }
    else if (broken instanceof HarnessError) {
      state = 'error';
      error = errorText(broken);
    } else {
      state = 'failed';
      error = errorText(broken);
    }
  } else if (inconclusive !== undefined) state = 'inconclusive';
  else if (kept.failures.length > 0 || (settings.strict && kept.warnings.length > 0)) state = 'failed';
  else if (kept.warnings.length > 0) state = 'warned';
  else state = 'passed';
  const seed = run.seed ?? settings.seed;
  const relations = relationRecords(identity.relations, run.covered, run.untried);
  const sequence = run.failingSequence;
  return {
    ...base,
    requirements,
    state,
    failures: kept.failures.map(reportFinding),
    warnings: kept.warnings.map(reportFinding),
    ...(kept.accepted.length > 0 && { accepted: kept.accepted }),
    ...(notRun !== undefined && { notRun }),
    ...(state === 'inconclusive' && inconclusive !== undefined && { inconclusive }),
    ...(state === 'inconclusive' && end.outOfTimeMs !== undefined && { deadlineMs: end.outOfTimeMs }),
    ...(error !== undefined && { error }),
    ...(notes.length > 0 && { notes }),
    evaluations: structuredClone(run.evaluations) as Record<string, EvaluationCount>,
    ...(relations.length > 0 && { relations }),
    requests: run.exchanges.length,
    exercised: exercisedBy(run.exchanges),
    replay: replayCommand({ profile: settings.profile, seed, title: identity.title, check: identity.check, ...(run.replay !== undefined && { path: run.replay }) }),
    seed,
    ...(run.replay !== undefined && { replayPath: run.replay }),
    ...(sequence !== undefined && state === 'failed' && { sequence: { steps: redact(sequence.steps), curl: sequence.exchanges.map((e) => e.curl) } }),
    ...(end.confirmation !== undefined && state === 'failed' && { confirmation: { ...end.confirmation, label: end.confirmation.failed === end.confirmation.runs ? ('confirmed' as const) : ('flaky' as const) } }),
  };
}
