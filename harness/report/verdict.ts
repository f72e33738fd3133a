/**
 * The verdict of a run: reports/conformance.json (shape fixed by INTERFACE.md, plus extras) and
 * reports/conformance.md (the same for people; a certificate in the certify profile).
 *
 * Pure: the verdict reporter (and the shard merger) gather check records and call these.
 *
 * Requirement verdict rule (from rule evaluations, never from a check merely listing an ID):
 * - `unobservable` when the catalogue says so (with its reason);
 * - `fail` if a failure finding names it; else `inconclusive` if a check listing it could not be
 *   judged (no answer from the target, no token, its time limit: the cause is the reason); else
 *   `warn` if a warning names it; else `pass` if a rule deciding it was evaluated at least once (in a
 *   check that ran) and found nothing;
 * - `unevaluated` when checks that ran list it but no rule deciding it was evaluated (the
 *   observation it needs never came): never a pass;
 * - `not-run` otherwise, with the reason: the checks' own not-run reasons, the API not tested, a
 *   timer requirement outside full/certify, a harness error, or "no check covers it" (a checkable
 *   requirement no check names: also listed under coverage.notCovered).
 */
import type { Requirement } from '../contract/requirements.js';
import type { CheckApi, CheckOutcome, CheckState } from './outcome.js';
import type { ReportedFinding } from './finding.js';
import { findingHeadline, mdCell, renderFinding, renderSequence, replayCommand } from './format.js';
import type { Profile } from '../cli/args.js';
import { adoptionMarkdown, partialRunNotice } from './adoption-markdown.js';
import type { AcceptedEntry, HistoryComparison } from './adoption-markdown.js';
import type { BaselineStatus } from './baseline.js';
import { relationCoverage, relationsMarkdown } from './verdict-relations.js';
import type { RelationCoverage } from './verdict-relations.js';
export type { Profile, CheckState };
export type Verdict = 'pass' | 'fail' | 'warn' | 'unevaluated' | 'not-run' | 'unobservable' | 'inconclusive';
/**
 * The run's verdict: `inconclusive` when nothing failed but the network, credentials or time kept
 * checks from a verdict; `partial` when nothing failed but a certify or --strict run did not
 * evaluate its whole scope (see {@link Scope}).
 */
export type RunVerdict = 'pass' | 'fail' | 'inconclusive' | 'partial';
export const APIS: readonly CheckApi[] = ['gateway', 'partner'];

/** One check as the run carries it: its outcome, as the worker wrote it. */
export type CheckRecord = CheckOutcome;

/**
 * One check as conformance.json carries it: its outcome, each relation named with only the cells it
 * tried (the relation itself, its cells and why the untried ones were not tried, is in the report's
 * `relations`, once, not under every check that judges it).
 */
export type ReportedCheck = Omit<CheckOutcome, 'relations'> & { relations?: { id: string; tried: string[] }[] };

function reportedCheck(check: CheckRecord): ReportedCheck {
  if (check.relations === undefined) return check;
  return { ...check, relations: check.relations.map((r) => ({ id: r.id, tried: r.tried })) };
}

export interface RunInfo {
  version: string;
  profile: Profile;
  seed: number | null;
  startedAt: string;
  durationMs: number;
  targets: { gateway?: string; partner?: string };
  strict: boolean;
  embedded: boolean;
  /** APIs not tested in this run, with why (`--api gateway`, `PARTNER_BASE_URL not set`) */
  notTested: Partial<Record<CheckApi, string>>;
  shard?: string;
  /** a receiver run: the integrator's webhook endpoint was the target (suites/receiver/) */
  receiver?: { url: string; scheme: CheckApi };
}

export interface Counts {
  passed: number;
  failed: number;
  warnings: number;
  notRun: number;
  requests: number;
  /** harness errors: the suite broke, not the target (never a conformance failure) */
  errors: number;
  /** checks that could not be judged (network, credentials, time limit): never a conformance failure */
  inconclusive: number;
  checks: number;
}

export interface RequirementVerdict {
  id: string;
  verdict: Verdict;
  checks: string[];
  /** how many rule evaluations decided it in this run (over every check) */
  evaluations: number;
  api?: CheckApi;
  section?: string;
  kind?: Requirement['kind'];
  /** why not-run / unobservable */
  reason?: string;
  ambiguity?: string;
}

/** A finding of one check in conformance.json's `failures`/`warnings` (INTERFACE.md's shape, plus the finding). */
export interface FindingEntry extends Partial<ReportedFinding> {
  check: string;
  requirements: string[];
  /** the finding in one line, or the error of a check that failed without a finding */
  message: string;
  replay: string;
  curl: string[];
  api?: CheckApi;
}

/**
 * One deviation, however many checks saw it: the findings of the run that share a key
 * (harness/report/finding.ts), shown once with the first sighting's details, the checks that saw
 * it and one reproduction.
 */
export interface Deviation extends ReportedFinding {
  /** the checks that saw it, in run order */
  checks: string[];
  /** how many findings share the key over the run */
  sightings: number;
  /** the replay command of the first check that saw it */
  replay: string;
  /** under --strict, a warning fails the run too */
  failing: boolean;
}

/**
 * What the run set out to decide, and what of it was left undecided. In scope: every observable
 * requirement of the APIs the run tests (of the receiver scheme, in a receiver run; timer
 * requirements only in full and certify), and every check of those APIs the profile runs. APIs left
 * out of the run are out of scope, never "missing". A certify or --strict run passes only with
 * nothing missing; otherwise it is PARTIAL.
 */
export interface Scope {
  /** a certify or --strict run: PASS needs the whole scope */
  required: boolean;
  complete: boolean;
  /** the APIs tested */
  apis: CheckApi[];
  /** in-scope requirements and checks */
  requirements: number;
  checks: number;
  /** in-scope requirements not evaluated (not run, unevaluated, inconclusive), with why */
  missingRequirements: { id: string; verdict: Verdict; reason: string }[];
  /** in-scope checks that did not end passed, warned or failed, with why */
  missingChecks: { check: string; state: CheckState; reason: string }[];
  /** what the run left out, with why */
  outOfScope: string[];
}

export interface ConformanceReport {
  tool: 'paygate-conformance';
  /**
   * pass; fail; inconclusive (nothing failed, but checks could not be judged: see `inconclusive`);
   * partial (nothing failed, but a certify or --strict run left part of its scope undecided: see `scope`)
   */
  verdict: RunVerdict;
  version: string;
  profile: Profile;
  seed: number | null;
  startedAt: string;
  durationMs: number;
  targets: { gateway?: string; partner?: string };
  summary: Counts;
  requirements: RequirementVerdict[];
  failures: FindingEntry[];
  // extras
  /** the distinct deviations: failures first, then warnings, each once with the checks that saw it */
  deviations: Deviation[];
  outcome: RunVerdict;
  scope: Scope;
  /** a merge of shards (harness/report/merge.ts): the shards merged, of how many, and what was wrong (--allow-partial) */
  merge?: { shards: number[]; count: number; problems: string[] };
  /** checks that could not be judged, with the cause; with `preflight`, why the run stopped before any check */
  inconclusive: { check: string; api?: CheckApi; reason: string }[];
  /** set when the preflight (harness/run/preflight.ts) stopped the run before any check */
  preflight?: { problems: string[] };
  strict: boolean;
  embedded: boolean;
  shard?: string;
  /** a receiver run's target (the integrator's webhook endpoint) */
  receiver?: { url: string; scheme: CheckApi };
  summaryByApi: Record<CheckApi, Counts>;
  warnings: FindingEntry[];
  errors: { check: string; message: string; replay: string }[];
  notRun: { check: string; api?: CheckApi; reason: string }[];
  unobservable: { id: string; api: CheckApi; section: string; reason: string }[];
  notTested: Partial<Record<CheckApi, string>>;
  coverage: {
    /** catalogue requirements of the tested APIs (or receiver scheme) that a check can decide (kind checkable or timer) */
    checkable: number;
    /** of those, how many got pass / fail / warn */
    checked: number;
    /** of those, the ones no check names */
    notCovered: string[];
    /** IDs named by checks but absent from the catalogue (a typo or a stale ID) */
    unknownRequirements: string[];
    operations: { api?: CheckApi; operation: string; statuses: number[] }[];
  };
  /** each relation judged cell by cell: cells tried / cells, the untried ones with why */
  relations: RelationCoverage[];
  checks: ReportedCheck[];
  // adoption (harness/report/adoption.ts): accepted deviations, baseline status, history
  accepted?: AcceptedEntry[];
  baseline?: BaselineStatus;
  history?: HistoryComparison;
}

/** The command that re-runs one check (used when the check gave no replay line of its own). */
export function defaultReplay(run: Pick<RunInfo, 'profile' | 'seed'>, check: Pick<CheckRecord, 'check' | 'name' | 'title' | 'replay'>): string {
  if (check.replay !== undefined) return check.replay;
  return replayCommand({ profile: run.profile, ...(run.seed !== null && { seed: run.seed }), check: check.check, title: check.title ?? check.name });
}

function emptyCounts(): Counts {
  return { passed: 0, failed: 0, warnings: 0, notRun: 0, requests: 0, errors: 0, inconclusive: 0, checks: 0 };
}

function addTo(counts: Counts, check: CheckRecord): void {
  counts.checks += 1;
  counts.requests += check.requests;
  if (check.state === 'passed') counts.passed += 1;
  else if (check.state === 'failed') counts.failed += 1;
  else if (check.state === 'warned') counts.warnings += 1;
  else if (check.state === 'not-run') counts.notRun += 1;
  else if (check.state === 'inconclusive') counts.inconclusive += 1;
  else counts.errors += 1;
}

function findingEntry(run: RunInfo, check: CheckRecord, finding: ReportedFinding): FindingEntry {
  return {
    ...finding,
    check: check.check,
    requirements: finding.requirements.length > 0 ? finding.requirements : check.requirements,
    message: findingHeadline(finding),
    replay: defaultReplay(run, check),
    curl: finding.curl,
    ...(check.api !== undefined && { api: check.api }),
  };
}

/** Groups the run's findings by key: one deviation each, in order of first sighting, failures first. */
export function distinctDeviations(run: RunInfo, checks: readonly CheckRecord[]): Deviation[] {
  const byKey = new Map<string, Deviation>();
  const see = (check: CheckRecord, finding: ReportedFinding): void => {
    const known = byKey.get(finding.key);
    if (known === undefined) {
      byKey.set(finding.key, { ...finding, checks: [check.check], sightings: 1, replay: defaultReplay(run, check), failing: finding.severity === 'failure' || run.strict });
      return;
    }
    known.sightings += 1;
    if (!known.checks.includes(check.check)) known.checks.push(check.check);
  };
  for (const check of checks) {
    if (check.state === 'failed' || check.state === 'warned') for (const f of [...check.failures, ...check.warnings]) see(check, f);
  }
  const all = [...byKey.values()];
  return [...all.filter((d) => d.severity === 'failure'), ...all.filter((d) => d.severity !== 'failure')];
}

/** Evaluations of `id` over the checks that ran (a check that broke or was not run decides nothing). */
export function evaluationsOf(id: string, checks: readonly CheckRecord[]): number {
  let n = 0;
  for (const c of checks) {
    if (c.state === 'not-run' || c.state === 'error') continue;
    n += c.evaluations?.[id]?.evaluations ?? 0;
  }
  return n;
}

function verdictFor(
  requirement: Requirement | undefined,
  id: string,
  checks: readonly CheckRecord[],
  run: RunInfo,
  evaluations: number,
): Pick<RequirementVerdict, 'verdict' | 'reason'> {
  if (requirement?.kind === 'unobservable') return { verdict: 'unobservable', reason: requirement.reason ?? 'unobservable' };
  const outOfScope = receiverScopeReason(requirement, run);
  if (outOfScope !== undefined) return { verdict: 'not-run', reason: outOfScope };
  const ran = checks.filter((c) => c.state === 'passed' || c.state === 'failed' || c.state === 'warned' || c.state === 'inconclusive');
  if (ran.some((c) => c.failures.some((f) => f.requirements.includes(id)))) return { verdict: 'fail' };
  const undecided = checks.filter((c) => c.state === 'inconclusive');
  if (undecided.length > 0) return { verdict: 'inconclusive', reason: [...new Set(undecided.map((c) => `${c.check}: ${c.inconclusive ?? 'inconclusive'}`))].join('; ') };
  if (ran.some((c) => c.warnings.some((f) => f.requirements.includes(id)))) return { verdict: 'warn' };
  if (evaluations > 0) return { verdict: 'pass' };
  if (ran.length > 0) {
    return { verdict: 'unevaluated', reason: `listed by ${ran.map((c) => c.check).join(', ')}, but no rule deciding it was evaluated in this run` };
  }
  const api = requirement?.api ?? (id.startsWith('PT-') ? 'partner' : 'gateway');
  const untested = run.notTested[api];
  if (checks.length > 0) {
    const reasons = new Set<string>();
    for (const c of checks) {
      if (c.state === 'error') reasons.add(`harness error in ${c.check}`);
      else reasons.add(c.notRun ?? 'not run');
    }
    return { verdict: 'not-run', reason: [...reasons].join('; ') };
  }
  if (untested !== undefined) return { verdict: 'not-run', reason: `API not tested (${untested})` };
  if (requirement?.kind === 'timer' && run.profile === 'quick') {
    return { verdict: 'not-run', reason: 'waits for a contract timer: runs in the full and certify profiles' };
  }
  return { verdict: 'not-run', reason: 'no check covers it' };
}

/**
 * Receiver requirements (`target: receiver`) are decided only in a receiver run of their scheme, API
 * requirements never in a receiver run: the reason they are not run, or undefined when in scope.
 */
export function receiverScopeReason(requirement: Pick<Requirement, 'target' | 'api'> | undefined, run: Pick<RunInfo, 'receiver'>): string | undefined {
  if (requirement === undefined) return undefined;
  if (requirement.target === 'receiver') {
    if (run.receiver === undefined) return 'no receiver target (a receiver run: --receiver-url URL --receiver-scheme gateway|partner)';
    if (run.receiver.scheme !== requirement.api) return `receiver run of the ${run.receiver.scheme} scheme: ${requirement.api} receiver duties not run`;
    return undefined;
  }
  return run.receiver !== undefined ? 'receiver run: API requirements are not tested' : undefined;
}

/** Whether a catalogue requirement is one this run sets out to decide (see {@link Scope}). */
export function inScope(requirement: Requirement, run: Pick<RunInfo, 'notTested' | 'profile' | 'receiver'>): boolean {
  if (requirement.kind === 'unobservable') return false;
  if (receiverScopeReason(requirement, run) !== undefined) return false;
  if (run.receiver === undefined && run.notTested[requirement.api] !== undefined) return false;
  return !(requirement.kind === 'timer' && run.profile === 'quick');
}

function scopeOf(run: RunInfo, checks: readonly CheckRecord[], catalogue: readonly Requirement[], verdicts: readonly RequirementVerdict[]): Scope {
  const apis = run.receiver !== undefined ? [run.receiver.scheme] : APIS.filter((api) => run.notTested[api] === undefined);
  const byId = new Map(verdicts.map((v) => [v.id, v]));
  const decided = new Set<Verdict>(['pass', 'warn', 'fail']);
  const wanted = catalogue.filter((r) => inScope(r, run));
  const missingRequirements = wanted
    .map((r) => byId.get(r.id))
    .filter((v): v is RequirementVerdict => v !== undefined && !decided.has(v.verdict))
    .map((v) => ({ id: v.id, verdict: v.verdict, reason: v.reason ?? v.verdict }));
  const ownChecks = checks.filter((c) => !(c.state === 'not-run' && c.outOfScope === true));
  const missingChecks = ownChecks
    .filter((c) => c.state === 'not-run' || c.state === 'inconclusive' || c.state === 'error')
    .map((c) => ({ check: c.check, state: c.state, reason: c.notRun ?? c.inconclusive ?? c.error ?? c.state }));
  const outOfScope = [
    ...Object.entries(run.notTested).map(([api, why]) => `${api} API not tested (${why})`),
    ...(run.profile === 'quick' ? ['timer requirements and checks: the quick profile waits for no contract timer'] : []),
    ...(run.receiver === undefined ? ['receiver duties: no receiver run'] : []),
    'unobservable statements: no documented surface shows them',
  ];
  return {
    required: run.profile === 'certify' || run.strict,
    complete: missingRequirements.length === 0 && missingChecks.length === 0,
    apis,
    requirements: wanted.length,
    checks: ownChecks.length,
    missingRequirements,
    missingChecks,
    outOfScope,
  };
}

/** Builds conformance.json from the run, every check record and the requirement catalogue. */
export function buildConformance(
  run: RunInfo,
  checks: readonly CheckRecord[],
  catalogue: readonly Requirement[],
): ConformanceReport {
  const summary = emptyCounts();
  const summaryByApi: Record<CheckApi, Counts> = { gateway: emptyCounts(), partner: emptyCounts() };
  for (const check of checks) {
    addTo(summary, check);
    if (check.api !== undefined) addTo(summaryByApi[check.api], check);
  }

  const byRequirement = new Map<string, CheckRecord[]>();
  for (const check of checks) {
    for (const id of new Set(check.requirements)) {
      const list = byRequirement.get(id) ?? [];
      list.push(check);
      byRequirement.set(id, list);
    }
  }
  const known = new Set(catalogue.map((r) => r.id));
  const requirements: RequirementVerdict[] = [];
  const notCovered: string[] = [];
  let checkable = 0;
  let checked = 0;
  for (const requirement of catalogue) {
    const named = byRequirement.get(requirement.id) ?? [];
    const evaluations = evaluationsOf(requirement.id, named);
    const { verdict, reason } = verdictFor(requirement, requirement.id, named, run, evaluations);
    // coverage counts what the run tested: an `--api partner` run leaves the gateway's requirements out
    const tested = receiverScopeReason(requirement, run) === undefined && (run.receiver !== undefined || run.notTested[requirement.api] === undefined);
    if (requirement.kind !== 'unobservable' && tested) {
      checkable += 1;
      if (verdict === 'pass' || verdict === 'fail' || verdict === 'warn') checked += 1;
      if (named.length === 0) notCovered.push(requirement.id);
    }
    requirements.push({
      id: requirement.id,
      verdict,
      checks: named.map((c) => c.check),
      evaluations,
      api: requirement.api,
      section: requirement.section,
      kind: requirement.kind,
      ...(reason !== undefined && { reason }),
      ...(requirement.ambiguity !== undefined && { ambiguity: requirement.ambiguity }),
    });
  }
  const unknownRequirements = [...byRequirement.keys()].filter((id) => !known.has(id)).sort();
  for (const id of unknownRequirements) {
    const named = byRequirement.get(id) ?? [];
    const evaluations = evaluationsOf(id, named);
    const { verdict, reason } = verdictFor(undefined, id, named, run, evaluations);
    requirements.push({
      id,
      verdict,
      checks: named.map((c) => c.check),
      evaluations,
      api: id.startsWith('PT-') ? 'partner' : 'gateway',
      ...(reason !== undefined && { reason }),
    });
  }

  const failures: FindingEntry[] = [];
  const warnings: FindingEntry[] = [];
  const errors: ConformanceReport['errors'] = [];
  const notRun: ConformanceReport['notRun'] = [];
  const inconclusive: ConformanceReport['inconclusive'] = [];
  for (const check of checks) {
    if (check.state === 'inconclusive') {
      inconclusive.push({ check: check.check, ...(check.api !== undefined && { api: check.api }), reason: check.inconclusive ?? 'inconclusive' });
    }
    if (check.state === 'failed') {
      for (const finding of check.failures) failures.push(findingEntry(run, check, finding));
      if (check.failures.length === 0 && check.warnings.length > 0) {
        // --strict: the check failed on its warnings
        for (const finding of check.warnings) {
          const entry = findingEntry(run, check, finding);
          failures.push({ ...entry, message: `[strict] ${entry.message}` });
        }
      } else if (check.failures.length === 0) {
        failures.push({
          check: check.check,
          requirements: check.requirements,
          message: check.error ?? 'the test failed',
          replay: defaultReplay(run, check),
          curl: [],
          ...(check.api !== undefined && { api: check.api }),
        });
      }
    }
    if (check.state === 'warned' || (check.state === 'failed' && check.failures.length > 0)) {
      for (const finding of check.warnings) warnings.push(findingEntry(run, check, finding));
    }
    if (check.state === 'error') {
      errors.push({ check: check.check, message: check.error ?? 'harness error', replay: defaultReplay(run, check) });
    }
    if (check.state === 'not-run') {
      notRun.push({ check: check.check, ...(check.api !== undefined && { api: check.api }), reason: check.notRun ?? 'not run' });
    }
  }

  const operations = new Map<string, { api?: CheckApi; operation: string; statuses: Set<number> }>();
  for (const check of checks) {
    for (const item of check.exercised ?? []) {
      const key = `${check.api ?? ''} ${item.operation}`;
      const entry = operations.get(key) ?? { ...(check.api !== undefined && { api: check.api }), operation: item.operation, statuses: new Set<number>() };
      entry.statuses.add(item.status);
      operations.set(key, entry);
    }
  }

  const scope = scopeOf(run, checks, catalogue, requirements);
  const outcome: RunVerdict =
    summary.failed > 0 || summary.errors > 0 || (run.strict && summary.warnings > 0) ? 'fail' : summary.inconclusive > 0 ? 'inconclusive' : scope.required && !scope.complete ? 'partial' : 'pass';
  return {
    tool: 'paygate-conformance',
    verdict: outcome,
    version: run.version,
    profile: run.profile,
    seed: run.seed,
    startedAt: run.startedAt,
    durationMs: Math.round(run.durationMs),
    targets: run.targets,
    summary,
    requirements,
    failures,
    outcome,
    deviations: distinctDeviations(run, checks),
    scope,
    inconclusive,
    strict: run.strict,
    embedded: run.embedded,
    ...(run.shard !== undefined && { shard: run.shard }),
    ...(run.receiver !== undefined && { receiver: run.receiver }),
    summaryByApi,
    warnings,
    errors,
    notRun,
    unobservable: catalogue
      .filter((r) => r.kind === 'unobservable')
      .map((r) => ({ id: r.id, api: r.api, section: r.section, reason: r.reason ?? '' })),
    notTested: run.notTested,
    coverage: {
      checkable,
      checked,
      notCovered,
      unknownRequirements,
      operations: [...operations.values()]
        .map((o) => ({ ...(o.api !== undefined && { api: o.api }), operation: o.operation, statuses: [...o.statuses].sort((a, b) => a - b) }))
        .sort((a, b) => `${a.api ?? ''} ${a.operation}`.localeCompare(`${b.api ?? ''} ${b.operation}`)),
    },
    relations: relationCoverage(checks, run.profile),
    checks: checks.map(reportedCheck),
  };
}

/**
 * The process exit code a report implies: 0 pass; 1 a check failed (or, with --strict, warned);
 * 3 harness errors (the suite broke: no conformance verdict); 4 inconclusive: nothing failed, but
 * checks could not be judged (network, TLS, DNS, proxy, credentials, an unavailable target: the
 * certifier's side, see `inconclusive`). Not-run never fails.
 */
export const EXIT_INCONCLUSIVE = 4;
/** 5 partial: nothing failed, but a certify or --strict run (or a merge of incomplete shards) left part of its scope undecided. */
export const EXIT_PARTIAL = 5;
export function exitCodeFor(report: Pick<ConformanceReport, 'summary' | 'strict'> & Partial<Pick<ConformanceReport, 'preflight' | 'baseline' | 'outcome'>>): number {
  if (report.summary.failed > 0 || (report.strict && report.summary.warnings > 0)) return 1;
  if (report.strict && (report.baseline?.problems ?? 0) > 0) return 1; // stale/expired baseline entries
  if (report.summary.errors > 0) return 3;
  if ((report.summary.inconclusive ?? 0) > 0 || report.preflight !== undefined) return EXIT_INCONCLUSIVE;
  if (report.outcome === 'partial') return EXIT_PARTIAL;
  return 0;
}

// ---------------------------------------------------------------- markdown

const cell = mdCell;

const VERDICT_MARK: Record<Verdict, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  unevaluated: '❔ unevaluated',
  'not-run': '⏭️ not-run',
  unobservable: '👁️‍🗨️ unobservable',
  inconclusive: '❔ inconclusive',
};

function countsRow(label: string, c: Counts): string {
  return `| ${label} | ${c.passed} | ${c.failed} | ${c.warnings} | ${c.notRun} | ${c.inconclusive ?? 0} | ${c.errors} | ${c.requests} |`;
}

/**
 * The distinct deviations, each once (the one renderer words it), with the checks that saw it and
 * one reproduction; then each failed check once, naming its deviations and its replay command.
 */
function deviationSections(report: ConformanceReport): string[] {
  const out: string[] = [];
  const number = new Map(report.deviations.map((d, i) => [d.key, i + 1]));
  const failing = report.deviations.filter((d) => d.severity === 'failure');
  const warning = report.deviations.filter((d) => d.severity !== 'failure');
  const section = (title: string, list: readonly Deviation[], note?: string): void => {
    if (list.length === 0) return;
    const checks = new Set(list.flatMap((d) => d.checks));
    out.push(`## ${title} (${list.length} distinct, seen by ${checks.size} check${checks.size === 1 ? '' : 's'})`, '');
    if (note !== undefined) out.push(note, '');
    for (const d of list) {
      out.push(`<a id="deviation-${d.key}"></a>`, '');
      out.push(renderFinding(d, { format: 'markdown', heading: `### ${number.get(d.key) ?? '?'}.`, checks: d.checks, sightings: d.sightings }), '');
    }
  };
  section('Deviations', failing);
  section('Warnings', warning, `Ambiguous or advisory points: they do not fail the run${report.strict ? ', except under --strict (this run)' : ' unless --strict'}.`);
  const failed = report.checks.filter((c) => c.state === 'failed');
  if (failed.length > 0) {
    out.push(`## Failed checks (${failed.length})`, '', '| check | deviations | replay |', '|---|---|---|');
    for (const c of failed) {
      const refs = [...new Set([...c.failures, ...(c.failures.length === 0 ? c.warnings : [])].map((f) => f.key))].map((key) => `[#${number.get(key) ?? '?'}](#deviation-${key})`);
      const what = refs.length > 0 ? refs.join(', ') : cell(c.error ?? 'the test failed');
      const confirmed = c.confirmation !== undefined ? ` — ${c.confirmation.label} ${c.confirmation.failed}/${c.confirmation.runs}` : '';
      out.push(`| ${cell(c.check)} | ${what}${confirmed}${c.sequence !== undefined ? ' (failing sequence below)' : ''} | \`${cell(c.replay ?? defaultReplay(report, c))}\` |`);
    }
    out.push('');
    for (const c of failed.filter((f) => f.sequence !== undefined)) {
      out.push(`### Failing sequence of ${cell(c.check)}`, '', renderSequence(c.sequence!, 'markdown'), '');
    }
  }
  return out;
}

function scopeSection(scope: Scope, merge: ConformanceReport['merge']): string[] {
  const out = ['## Scope', ''];
  if (merge !== undefined) {
    out.push(`- Merged from shard(s) ${merge.shards.join(', ')} of ${merge.count}${merge.problems.length > 0 ? ` (--allow-partial: ${cell(merge.problems.join('; '))})` : ''}.`);
  }
  out.push(`- In scope: ${scope.requirements} requirement(s) and ${scope.checks} check(s) of ${scope.apis.join(' and ') || 'no API'}${scope.required ? ' (a certify or --strict run: PASS needs all of them decided)' : ''}.`);
  out.push(`- ${scope.complete ? 'Complete: every requirement and check in scope was decided.' : `Left undecided: ${scope.missingRequirements.length} requirement(s), ${scope.missingChecks.length} check(s).`}`);
  for (const o of scope.outOfScope) out.push(`- Out of scope: ${cell(o)}`);
  out.push('');
  if (scope.missingChecks.length > 0) {
    out.push(`### Checks in scope not decided (${scope.missingChecks.length})`, '', '| check | state | why |', '|---|---|---|');
    for (const c of scope.missingChecks) out.push(`| ${cell(c.check)} | ${c.state} | ${cell(c.reason)} |`);
    out.push('');
  }
  if (scope.missingRequirements.length > 0) {
    out.push(`### Requirements in scope not decided (${scope.missingRequirements.length})`, '', '| requirement | verdict | why |', '|---|---|---|');
    for (const r of scope.missingRequirements) out.push(`| [${r.id}](#${r.id}) | ${r.verdict} | ${cell(r.reason)} |`);
    out.push('');
  }
  return out;
}

/** conformance.md: verdicts, coverage, unobservable statements, failures with reproduction. */
export function renderMarkdown(report: ConformanceReport): string {
  const out: string[] = [];
  const certify = report.profile === 'certify';
  const result = report.outcome.toUpperCase();
  out.push(certify ? '# Certificate of conformance — paygate-conformance' : '# Conformance report — paygate-conformance', '');
  out.push(...partialRunNotice(report));
  if (certify) {
    out.push(`## Result: **${result}**`, '');
    out.push(
      report.outcome === 'inconclusive'
        ? report.preflight !== undefined
          ? `No verdict: the run stopped before any check because the target could not be tested from here (${report.preflight.problems.join('; ')}). This says nothing about the target's conformance.`
          : `No check failed, but ${report.summary.inconclusive} check(s) could not be judged (no answer from the target, no token, or their time limit; listed below): no certificate can be issued.`
        : report.outcome === 'partial'
        ? `No check failed, but the run did not evaluate its whole scope: ${report.scope.missingRequirements.length} requirement(s) and ${report.scope.missingChecks.length} check(s) in scope were left undecided (listed under Scope): no certificate of conformance can be issued for part of the work.`
        : report.outcome === 'pass'
        ? 'No check failed against the target below' + (report.summary.warnings > 0 ? `; ${report.summary.warnings} check(s) reported warnings on points the contract leaves ambiguous (listed below).` : '.')
        : `The target does not conform: ${report.summary.failed} check(s) failed` +
            (report.summary.errors > 0 ? `, ${report.summary.errors} could not be evaluated (harness errors)` : '') +
            (report.strict && report.summary.warnings > 0 ? `, ${report.summary.warnings} warned (--strict makes warnings fail)` : '') +
            '.',
      '',
    );
  } else {
    out.push(`Outcome: **${result}**`, '');
  }
  out.push('| | |', '|---|---|');
  out.push(`| Tool | ${report.tool} ${report.version} |`);
  out.push(`| Date | ${report.startedAt} |`);
  out.push(`| Profile | ${report.profile}${report.strict ? ' (strict: warnings fail)' : ''} |`);
  out.push(`| Seed | ${report.seed ?? 'n/a'} |`);
  if (report.receiver !== undefined) out.push(`| Target (receiver) | \`${cell(report.receiver.url)}\` (${report.receiver.scheme} webhooks; the APIs are not tested in a receiver run) |`);
  for (const api of APIS) {
    const url = report.targets[api];
    const untested = report.notTested[api];
    out.push(`| Target (${api}) | ${url !== undefined ? `\`${cell(url)}\`` : ''}${untested !== undefined ? ` not tested: ${cell(untested)}` : ''}${report.embedded ? ' (embedded reference)' : ''} |`);
  }
  out.push(`| Duration | ${(report.durationMs / 1000).toFixed(1)} s |`);
  if (report.shard !== undefined) out.push(`| Shard | ${report.shard} |`);
  out.push('');

  if (report.preflight !== undefined) {
    out.push('## Preflight: the run stopped before any check', '', ...report.preflight.problems.map((p) => `- ${cell(p)}`), '');
  }
  out.push('## Summary', '', '| | passed | failed | warnings | not run | inconclusive | harness errors | requests |', '|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const api of APIS) out.push(countsRow(api, report.summaryByApi[api]));
  out.push(countsRow('**total**', report.summary), '');
  out.push(...deviationSections(report));

  const cov = report.coverage;
  out.push('## Coverage', '');
  out.push(`- Checkable requirements decided (pass/fail/warn): **${cov.checked} / ${cov.checkable}**`);
  out.push(`- Unobservable statements: ${report.unobservable.length}`);
  const unevaluated = report.requirements.filter((r) => r.verdict === 'unevaluated').map((r) => r.id);
  if (unevaluated.length > 0) out.push(`- Listed by a check that ran, but never evaluated (${unevaluated.length}): ${unevaluated.map((id) => `[${id}](#${id})`).join(', ')}`);
  if (cov.notCovered.length > 0) out.push(`- Not covered by any check (${cov.notCovered.length}): ${cov.notCovered.map((id) => `[${id}](#${id})`).join(', ')}`);
  if (cov.unknownRequirements.length > 0) out.push(`- IDs named by checks but missing from the catalogue: ${cov.unknownRequirements.join(', ')}`);
  out.push('');
  if (cov.operations.length > 0) {
    out.push('| API | operation | statuses seen |', '|---|---|---|');
    for (const op of cov.operations) out.push(`| ${op.api ?? ''} | \`${cell(op.operation)}\` | ${op.statuses.map((s) => (s === 0 ? 'no response' : String(s))).join(', ')} |`);
    out.push('');
  }

  out.push(...relationsMarkdown(report.relations ?? [], cell));
  out.push(...scopeSection(report.scope, report.merge));
  out.push(...adoptionMarkdown(report));
  const observed = report.checks.filter((c) => c.notes !== undefined && c.notes.length > 0);
  if (observed.length > 0) {
    out.push(`## Observations (${observed.length} checks)`, '', 'What the target showed where the contract leaves a choice open; never a failure.', '');
    for (const c of observed) out.push(`- **${cell(c.check)}**: ${(c.notes ?? []).map(cell).join('; ')}`);
    out.push('');
  }
  if ((report.inconclusive ?? []).length > 0) {
    out.push(`## Inconclusive checks (${report.inconclusive.length})`, '', 'These could not be judged: the cause is on the certifier\'s side or between the suite and the target, not a finding about the target.', '');
    for (const i of report.inconclusive) out.push(`- **${cell(i.check)}**${i.api !== undefined ? ` (${i.api})` : ''}: ${cell(i.reason)}`);
    out.push('');
  }
  if (report.errors.length > 0) {
    out.push(`## Harness errors (${report.errors.length})`, '', 'The suite itself failed here; these are not findings about the target.', '');
    for (const e of report.errors) out.push(`- **${cell(e.check)}**: ${cell(e.message)} — replay: \`${cell(e.replay)}\``);
    out.push('');
  }

  for (const api of APIS) {
    const rows = report.requirements.filter((r) => r.api === api);
    if (rows.length === 0) continue;
    out.push(`## Requirements — ${api} (${rows.length})`, '', '| requirement | section | verdict | evaluations | checks | notes |', '|---|---|---|---|---|---|');
    for (const r of rows) {
      const notes = [r.reason, r.ambiguity !== undefined ? `ambiguous: ${r.ambiguity}` : undefined].filter((x) => x !== undefined).join('; ');
      out.push(`| <a id="${r.id}"></a>\`${r.id}\` | ${cell(r.section)} | ${VERDICT_MARK[r.verdict]} | ${r.evaluations} | ${cell(r.checks.join(', '))} | ${cell(notes)} |`);
    }
    out.push('');
  }

  if (report.unobservable.length > 0) {
    out.push('## Unobservable statements', '', 'The contract states these, but no documented surface shows them: no check can decide them.', '');
    out.push('| requirement | section | why |', '|---|---|---|');
    for (const u of report.unobservable) out.push(`| \`${u.id}\` | ${cell(u.section)} | ${cell(u.reason)} |`);
    out.push('');
  }
  if (report.notRun.length > 0) {
    out.push(`## Checks not run (${report.notRun.length})`, '', '| check | API | reason |', '|---|---|---|');
    for (const n of report.notRun) out.push(`| ${cell(n.check)} | ${n.api ?? ''} | ${cell(n.reason)} |`);
    out.push('');
  }
  if (certify) {
    out.push('---', '', `Issued by ${report.tool} ${report.version} on ${report.startedAt}, profile ${report.profile}, seed ${report.seed ?? 'n/a'}. Result: **${result}**.`, '');
  }
  return out.join('\n');
}
