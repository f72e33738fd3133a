/**
 * Judges each fault's run and writes the matrix: reports/fault-matrix.json and .md.
 *
 * A fault is detected when, in its run, at least one check of its API FAILED with a finding
 * (severity failure, not a warning) and that failing check names one of the fault's requirement
 * IDs (on a finding, or among the check's requirements). Checks that also fail against the correct
 * reference in the same conditions (the baselines) earn no credit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportedCheck, CheckState, ConformanceReport } from '../../harness/report/verdict.js';
import type { ConformanceRunResult } from './runner.js';
import type { FaultRun, FaultSelection } from './select.js';
import { apiOfFile, batchOf } from './select.js';
import type { RequirementProof } from './proof.js';

export interface FaultOutcome {
  fault: string;
  api: 'gateway' | 'partner';
  tier: 'quick' | 'timer';
  intent: string;
  requirements: string[];
  detected: boolean;
  /** failing checks naming one of the fault's requirement IDs */
  detectedBy: string[];
  /** the fault's requirement IDs named by those failures */
  failingRequirements: string[];
  /**
   * true when a failing FINDING names one of the fault's requirement IDs; false when only the
   * failing check's own requirement list does (the finding is filed under another ID)
   */
  namedByFinding: boolean;
  /** the fault breaks only ambiguous requirements: judged under --strict (why: FaultSpec.strict) */
  strict?: string;
  /** the run's wall time (spawn to exit): the time to detection with this packing */
  runMs: number | null;
  /** the shortest duration among the detecting checks */
  detectionCheckMs: number | null;
  run: string | null;
  /** the other faults switched on in that run (the other API's, and batch mates of its own API) */
  pairedWith: string | null;
  /** the fault ran in a batch first and was re-run alone: the batch run and why (select.ts rule 4) */
  batchRerun?: { run: string; why: string };
  files: string[];
  mappedChecks: string[];
  /** what else was seen (for undetected faults: why) */
  seen: {
    /** failing checks of the fault's API that name none of its requirement IDs */
    otherFailures: string[];
    /** checks that only warned on one of the fault's requirement IDs */
    warningsOnRequirements: string[];
    /** mapped checks that did not run, with the reason */
    notRun: string[];
    /** harness errors / timeouts of the run */
    errors: string[];
  };
  /** for undetected faults: the reason in one line */
  reason?: string;
}

export interface FaultMatrix {
  generatedAt: string;
  wallMs: number;
  baseline: { runMs: number; checks: number; failures: string[]; seed: number };
  timerBaseline?: { runMs: number; failingByDesign: string[] };
  runs: { id: string; tier: string; faults: string[]; files: string[]; runMs: number; exitCode: number | null; timedOut: boolean }[];
  summary: { faults: number; detected: number; undetected: string[] };
  faults: FaultOutcome[];
  /** requirement-level proof (proof.ts): which requirements a detected fault proves */
  proof?: RequirementProof;
}

/** Distinct texts, at most `max` (a property repeats one finding per shrink step). */
function distinct(texts: readonly string[], max = 3): string[] {
  const unique = [...new Set(texts)];
  return unique.length > max ? [...unique.slice(0, max), `… ${unique.length - max} more`] : unique;
}

/** Under `--strict` (faults on ambiguous requirements) a warning fails the check too. */
function findingsOf(check: ReportedCheck, strict: boolean): ReportedCheck['failures'] {
  return strict ? [...check.failures, ...check.warnings] : check.failures;
}

function failedWithFinding(check: ReportedCheck, strict: boolean): boolean {
  return check.state === 'failed' && findingsOf(check, strict).length > 0;
}

/** The fault's requirement IDs a failing check names (on its findings first, then its own list). */
function namedIds(check: ReportedCheck, ids: ReadonlySet<string>, strict: boolean): string[] {
  const named = new Set<string>();
  for (const finding of findingsOf(check, strict)) for (const id of finding.requirements) if (ids.has(id)) named.add(id);
  for (const id of check.requirements) if (ids.has(id)) named.add(id);
  return [...named].sort();
}

/** Judges one fault from its run's report. `excluded`: checks that fail on the correct reference too. */
export function judgeFault(selection: FaultSelection, run: FaultRun, result: ConformanceRunResult, excluded: ReadonlySet<string>): FaultOutcome {
  return judge(selection, run, result, excluded, undefined);
}

/** How a batch judges one member: which of its checks it may credit (select.ts, rules 1 and 3). */
interface BatchScope {
  /** the member's own checks: selected by it and by no other member */
  own: ReadonlySet<string>;
  /** every check the member selected (own and shared) */
  selected: ReadonlySet<string>;
  /** the requirement IDs of the other members */
  mateIds: ReadonlySet<string>;
}

function judge(selection: FaultSelection, run: FaultRun, result: ConformanceRunResult, excluded: ReadonlySet<string>, scope: BatchScope | undefined): FaultOutcome {
  const { fault } = selection;
  const ids = new Set(fault.requirements);
  const report: ConformanceReport | undefined = result.report;
  const checks = (report?.checks ?? []).filter((c) => (c.api ?? apiOfFile(c.file)) === fault.api && (scope === undefined || scope.selected.has(c.check)));
  const strict = run.strict;
  const credits = (c: ReportedCheck): boolean => {
    if (!failedWithFinding(c, strict) || excluded.has(c.check) || namedIds(c, ids, strict).length === 0) return false;
    if (scope === undefined) return true;
    const findings = findingsOf(c, strict);
    return scope.own.has(c.check) && findings.some((f) => f.requirements.some((id) => ids.has(id))) && !findings.some((f) => f.requirements.some((id) => scope.mateIds.has(id)));
  };
  const detecting = checks.filter(credits);
  const failingRequirements = [...new Set(detecting.flatMap((c) => namedIds(c, ids, strict)))].sort();
  const namedByFinding = detecting.some((c) => findingsOf(c, strict).some((f) => f.requirements.some((id) => ids.has(id))));
  const otherFailures = checks
    .filter((c) => c.state === 'failed' && !detecting.includes(c))
    .map((c) => `${c.check}${excluded.has(c.check) ? ' (fails on the correct reference too: no credit)' : ''}: ${distinct(c.failures.map((f) => `${f.code} [${f.requirements.join(',')}]`)).join('; ') || c.error || 'failed'}`);
  const warningsOnRequirements = checks
    .filter((c) => c.warnings.some((w) => w.requirements.some((id) => ids.has(id))))
    .map((c) => `${c.check}: ${distinct(c.warnings.filter((w) => w.requirements.some((id) => ids.has(id))).map((w) => `${w.code} — ${w.title}`)).join('; ')}`);
  const mapped = new Set(selection.mappedChecks);
  const notRun = checks.filter((c) => mapped.has(c.check) && c.state === 'not-run').map((c) => `${c.check}: ${c.notRun ?? 'not run'}`);
  const errors: string[] = [];
  if (result.timedOut) errors.push(`not decided within the matrix's time limit for a ${run.tier} run: killed after ${Math.round(result.durationMs / 1000)} s (a check may wait longer than that for a contract timer)`);
  if (report === undefined) errors.push(`no conformance.json (exit ${result.exitCode ?? result.signal ?? '?'}): ${result.outputTail.slice(-600)}`);
  for (const e of report?.errors ?? []) if ((apiOfFile(e.check) ?? fault.api) === fault.api) errors.push(`${e.check}: ${e.message}`);
  const detected = detecting.length > 0;
  const others = run.faults.filter((s) => s.fault.name !== fault.name).map((s) => s.fault.name);
  const outcome: FaultOutcome = {
    fault: fault.name,
    api: fault.api,
    tier: fault.tier,
    intent: fault.intent,
    requirements: [...fault.requirements],
    detected,
    detectedBy: detecting.map((c) => c.check),
    failingRequirements,
    namedByFinding,
    ...(fault.strict !== undefined && { strict: fault.strict }),
    runMs: result.durationMs,
    detectionCheckMs: detected ? Math.min(...detecting.map((c) => c.durationMs)) : null,
    run: run.id,
    pairedWith: others.length > 0 ? others.join(', ') : null,
    files: selection.files,
    mappedChecks: selection.mappedChecks,
    seen: { otherFailures, warningsOnRequirements, notRun, errors },
  };
  if (!detected) outcome.reason = reasonFor(outcome);
  return outcome;
}

/**
 * Judges one member of a batch (several faults of its API in one reference). `rerun` is set when
 * the batch's result cannot stand for a solo run (select.ts, rule 4): the fault must run alone.
 * `baselineStates`: each check's state against the correct reference (a check that ran there and
 * did not run here was disturbed).
 */
export function judgeBatched(
  selection: FaultSelection,
  run: FaultRun,
  result: ConformanceRunResult,
  excluded: ReadonlySet<string>,
  baselineStates: ReadonlyMap<string, CheckState>,
): { outcome: FaultOutcome; rerun: string | undefined } {
  const mates = batchOf(selection, run).filter((s) => s !== selection);
  if (mates.length === 0) return { outcome: judgeFault(selection, run, result, excluded), rerun: undefined };
  const taken = new Set(mates.flatMap((m) => m.checks));
  const scope: BatchScope = {
    own: new Set(selection.checks.filter((c) => !taken.has(c))),
    selected: new Set(selection.checks),
    mateIds: new Set(mates.flatMap((m) => m.fault.requirements)),
  };
  const outcome = judge(selection, run, result, excluded, scope);
  return { outcome, rerun: rerunReason(selection, run, result, excluded, baselineStates, scope, outcome) };
}

function rerunReason(
  selection: FaultSelection,
  run: FaultRun,
  result: ConformanceRunResult,
  excluded: ReadonlySet<string>,
  baselineStates: ReadonlyMap<string, CheckState>,
  scope: BatchScope,
  outcome: FaultOutcome,
): string | undefined {
  if (result.timedOut || result.report === undefined) return outcome.seen.errors[0] ?? 'the batch run broke';
  if (!outcome.detected) return 'not detected in the batch';
  const missing = selection.fault.requirements.filter((id) => !outcome.failingRequirements.includes(id));
  if (missing.length > 0) return `not credited in the batch: ${missing.join(', ')}`;
  if (outcome.seen.errors.length > 0) return `harness errors: ${outcome.seen.errors[0] ?? ''}`;
  const credited = new Set(outcome.detectedBy);
  for (const c of result.report.checks) {
    if (!scope.own.has(c.check) || excluded.has(c.check)) continue;
    const before = baselineStates.get(c.check);
    if (c.state === 'failed' && !credited.has(c.check)) return `${c.check} failed with no finding naming the fault: ${distinct(c.failures.map((f) => `${f.code} [${f.requirements.join(',')}]`)).join('; ') || c.error || 'failed'}`;
    if (c.state === 'error' || c.state === 'inconclusive') return `${c.check} ${c.state}: ${c.error ?? c.inconclusive ?? ''}`.trim();
    if (c.state === 'not-run' && before !== undefined && before !== 'not-run') return `${c.check} not run (${before} against the correct reference): ${c.notRun ?? ''}`.trim();
  }
  return undefined;
}

function reasonFor(o: FaultOutcome): string {
  const first = o.seen.errors[0];
  if (first !== undefined) return first.startsWith('not decided') ? first : `the run broke: ${first}`;
  if (o.seen.warningsOnRequirements.length > 0) return `only warnings on its requirements: ${o.seen.warningsOnRequirements.join(' | ')}`;
  if (o.mappedChecks.length > 0 && o.seen.notRun.length === o.mappedChecks.length) return `every check naming its requirements was not run: ${o.seen.notRun.join(' | ')}`;
  if (o.seen.otherFailures.length > 0) return `failures, but none naming ${o.requirements.join('/')}: ${o.seen.otherFailures.join(' | ')}`;
  return `the ${o.mappedChecks.length} check(s) naming its requirements passed: the fault is not observed by them`;
}

/** A fault no check can see: no baseline check names any of its requirement IDs (not run at all). */
export function unmappedOutcome(selection: FaultSelection): FaultOutcome {
  const { fault } = selection;
  return {
    fault: fault.name,
    api: fault.api,
    tier: fault.tier,
    intent: fault.intent,
    requirements: [...fault.requirements],
    detected: false,
    detectedBy: [],
    failingRequirements: [],
    namedByFinding: false,
    runMs: null,
    detectionCheckMs: null,
    run: null,
    pairedWith: null,
    files: [],
    mappedChecks: [],
    seen: { otherFailures: [], warningsOnRequirements: [], notRun: [], errors: [] },
    reason: `no check names any of its requirement IDs (${fault.requirements.join(', ')}) in the baseline run`,
  };
}

function seconds(ms: number | null): string {
  return ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

export function renderMatrixMarkdown(matrix: FaultMatrix): string {
  const out: string[] = [];
  out.push('# Fault matrix', '');
  out.push(
    `${matrix.summary.detected}/${matrix.summary.faults} faults detected; wall time ${seconds(matrix.wallMs)} ` +
      `(${matrix.runs.length} runs; baseline ${seconds(matrix.baseline.runMs)}, ${matrix.baseline.checks} checks). Generated ${matrix.generatedAt}.`,
    '',
  );
  if (matrix.proof !== undefined) {
    const p = matrix.proof;
    out.push(
      `Requirements proven (a detected fault breaks it and a failing check names it): **${Object.keys(p.proven).length} / ${p.provable}** checkable and timer requirements; ` +
        `${Object.keys(p.exempt ?? {}).length} exempt with the catalogue's reason; ${p.unproven.length} without proof.`,
      '',
    );
  }
  if (matrix.summary.undetected.length > 0) {
    out.push('## Undetected', '');
    for (const o of matrix.faults.filter((f) => !f.detected)) {
      out.push(`- **${o.fault}** (${o.api}, ${o.tier}) — ${o.intent}`, `  - requirements: ${o.requirements.join(', ')}`, `  - files: ${o.files.join(', ') || '(none)'}`, `  - why: ${o.reason ?? '?'}`);
    }
    out.push('');
  }
  if (matrix.baseline.failures.length > 0) {
    out.push('## Failures against the correct reference (baseline)', '', ...matrix.baseline.failures.map((f) => `- ${f}`), '');
  }
  if (matrix.timerBaseline !== undefined && matrix.timerBaseline.failingByDesign.length > 0) {
    out.push('## Checks failing with shortened timers on the correct reference (no credit in timer runs)', '', ...matrix.timerBaseline.failingByDesign.map((f) => `- ${f}`), '');
  }
  const loose = matrix.faults.filter((o) => o.detected && !o.namedByFinding);
  if (loose.length > 0) {
    out.push(
      '## Detected at check level only',
      '',
      'The failing check names the fault\'s requirement, but its failing findings are filed under other IDs:',
      '',
      ...loose.map((o) => `- ${o.fault}: ${o.detectedBy.join(', ')}`),
      '',
    );
  }
  const reruns = matrix.faults.filter((o) => o.batchRerun !== undefined);
  if (reruns.length > 0) {
    out.push(
      '## Re-run alone after a batch',
      '',
      'A batch result stands for a fault only when it is complete and undisturbed (test/fault-matrix/select.ts, rule 4); these faults were judged on a run of their own:',
      '',
      ...reruns.map((o) => `- ${o.fault} (batch ${o.batchRerun?.run ?? '?'}): ${(o.batchRerun?.why ?? '').replace(/\|/g, '\\|')}`),
      '',
    );
  }
  out.push('## Faults', '', '| fault | api | tier | detected | by checks | failing requirements | run | time |', '|---|---|---|---|---|---|---|---|');
  for (const o of matrix.faults) {
    out.push(`| ${o.fault} | ${o.api} | ${o.tier} | ${o.detected ? (o.strict !== undefined ? 'yes (--strict)' : 'yes') : '**NO**'} | ${o.detectedBy.join(', ') || '—'} | ${o.failingRequirements.join(', ') || '—'} | ${o.run ?? '—'} | ${seconds(o.runMs)} |`);
  }
  if (matrix.proof !== undefined) {
    out.push('', '## Requirements proven', '', '| requirement | proving faults |', '|---|---|');
    for (const [id, faults] of Object.entries(matrix.proof.proven).sort(([a], [b]) => a.localeCompare(b))) out.push(`| ${id} | ${faults.join(', ')} |`);
    const exempt = Object.entries(matrix.proof.exempt ?? {}).sort(([a], [b]) => a.localeCompare(b));
    out.push('', `## Exceptions: no fault can prove them (${exempt.length})`, '', '| requirement | why (specs/requirements.yaml `exempt`) |', '|---|---|');
    for (const [id, why] of exempt) out.push(`| ${id} | ${why.replace(/\|/g, '\\|')} |`);
    out.push('', `## Requirements without a proving fault or a reason (${matrix.proof.unproven.length})`, '', matrix.proof.unproven.join(', ') || '(none)');
  }
  out.push('', '## Runs', '', '| run | tier | faults | files | time | exit |', '|---|---|---|---|---|---|');
  for (const r of matrix.runs) out.push(`| ${r.id} | ${r.tier} | ${r.faults.join(', ')} | ${r.files.length} | ${seconds(r.runMs)} | ${r.timedOut ? 'timeout' : String(r.exitCode)} |`);
  out.push('');
  return out.join('\n');
}

export function writeMatrix(dir: string, matrix: FaultMatrix): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'fault-matrix.json');
  const md = join(dir, 'fault-matrix.md');
  writeFileSync(json, `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(md, renderMatrixMarkdown(matrix));
  return { json, md };
}

/** The failure list of an undetected-fault assertion, for people. */
export function undetectedText(matrix: FaultMatrix): string {
  return matrix.faults
    .filter((o) => !o.detected)
    .map((o) =>
      [
        `- ${o.fault} (${o.api}, ${o.tier}): ${o.intent}`,
        `    requirements: ${o.requirements.join(', ')}`,
        `    files run: ${o.files.join(', ') || '(none)'}`,
        `    seen: ${o.reason ?? '?'}`,
      ].join('\n'),
    )
    .join('\n');
}
