/**
 * The CLI's final summary: a table of the APIs tested (passed / failed / warnings / not run /
 * requests), requirement coverage over those APIs only, the first failures with the command that
 * replays each, and where the report files are. `summaryJson` is the same for `--json`.
 */
import type { ConformanceReport, Counts, RequirementVerdict } from '../report/verdict.js';
import { APIS } from '../report/verdict.js';
import type { CheckApi } from '../report/meta.js';
import { adoptionSummaryLines, selectionText } from '../report/adoption-markdown.js';
import { commandFor } from './invocation.js';
import { shellQuote } from '../http/curl.js';
import { painter } from './style.js';

const COLUMNS = ['', 'passed', 'failed', 'warnings', 'not run', 'inconclusive', 'harness errors', 'requests'] as const;

function row(label: string, c: Counts): string[] {
  return [label, String(c.passed), String(c.failed), String(c.warnings), String(c.notRun), String(c.inconclusive ?? 0), String(c.errors), String(c.requests)];
}

function table(rows: string[][]): string {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((text, i) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0))).join('  ');
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  const [head, ...rest] = rows;
  return [line(head ?? []), sep, ...rest.slice(0, -1).map(line), sep, line(rest[rest.length - 1] ?? [])].join('\n');
}

/** The APIs this run tested (a receiver run: the receiver's scheme; a partial run: those of the checks selected). */
export function testedApis(report: Pick<ConformanceReport, 'notTested' | 'receiver' | 'selection' | 'checks'>): CheckApi[] {
  if (report.receiver !== undefined) return [report.receiver.scheme];
  const apis = APIS.filter((api) => report.notTested[api] === undefined);
  return report.selection !== undefined ? apis.filter((api) => report.checks.some((c) => c.api === api)) : apis;
}

/** Requirement coverage over the APIs tested: a run of one API says nothing about the other's. */
export function scopedCoverage(report: Pick<ConformanceReport, 'requirements' | 'coverage' | 'unobservable' | 'notTested' | 'receiver' | 'selection' | 'checks'>): { checkable: number; checked: number; unobservable: number; notCovered: string[] } {
  const apis = testedApis(report);
  const inScope = (r: Pick<RequirementVerdict, 'api' | 'reason'>): boolean =>
    r.api !== undefined && apis.includes(r.api) && !/^(no receiver target|receiver run)/.test(r.reason ?? '');
  const rows = report.requirements.filter((r) => inScope(r) && r.verdict !== 'unobservable');
  const ids = new Set(rows.map((r) => r.id));
  return {
    checkable: rows.length,
    checked: rows.filter((r) => r.verdict === 'pass' || r.verdict === 'fail' || r.verdict === 'warn').length,
    unobservable: report.unobservable.filter((u) => apis.includes(u.api)).length,
    notCovered: report.coverage.notCovered.filter((id) => ids.has(id)),
  };
}

export interface SummaryOptions {
  /** report files to list (label → path) */
  files?: Record<string, string>;
  /** check id → its failure file (shown as a replay command) */
  failureFiles?: ReadonlyMap<string, string>;
  /** how many failures to show in full (default 10) */
  maxFailures?: number;
  /** where the text goes (colours only on a terminal, NO_COLOR/FORCE_COLOR honoured) */
  stream?: { isTTY?: boolean };
}

export function renderSummary(report: ConformanceReport, options: SummaryOptions = {}): string {
  const paint = painter(options.stream ?? { isTTY: false });
  const rows: string[][] = [[...COLUMNS]];
  const apis = testedApis(report);
  for (const api of apis) rows.push(row(api, report.summaryByApi[api]));
  rows.push(row('total', report.summary));
  const out: string[] = ['', table(rows)];
  const partial = report.selection !== undefined;
  for (const api of APIS) {
    const untested = report.notTested[api];
    if (!apis.includes(api) && untested !== undefined) out.push(`${api}: not tested (${untested})`);
    else if (!apis.includes(api) && partial) out.push(`${api}: no check selected`);
  }
  out.push('');
  const cov = scopedCoverage(report);
  const scope = `the ${apis.join(' and ')} ${apis.length === 1 ? 'API' : 'APIs'}`;
  out.push(
    partial
      ? `requirements decided: ${cov.checked} by the checks selected (of ${cov.checkable} checkable of ${scope})`
      : `requirements decided: ${cov.checked}/${cov.checkable} checkable of ${scope}; ${cov.unobservable} unobservable; ${cov.notCovered.length} not covered by any check`,
  );
  if (report.selection !== undefined) {
    out.push(paint('yellow', `partial run: ${report.selection.checks.length} of ${report.selection.of} checks selected (${selectionText(report.selection)}): no verdict on the whole contract`));
  }

  const max = options.maxFailures ?? 10;
  if (report.failures.length > 0) {
    out.push('', paint('red', `failures (${report.failures.length}):`));
    for (const f of report.failures.slice(0, max)) {
      const file = options.failureFiles?.get(f.check);
      out.push(`  ${paint('red', '✗')} ${f.check} [${f.requirements.join(', ')}]`, `    ${f.message}`, `    replay: ${file !== undefined ? `${commandFor('run')} replay ${shellQuote(file)}` : f.replay}`);
    }
    if (report.failures.length > max) out.push(`  … ${report.failures.length - max} more in conformance.md`);
  }
  if (report.warnings.length > 0) {
    out.push('', paint('yellow', `warnings (${report.warnings.length})${report.strict ? ' — --strict: they fail the run' : ' — do not fail the run'}:`));
    for (const w of report.warnings.slice(0, max)) out.push(`  ${paint('yellow', '!')} ${w.check} [${w.requirements.join(', ')}]: ${w.message}`);
    if (report.warnings.length > max) out.push(`  … ${report.warnings.length - max} more in conformance.md`);
  }
  const undecided = report.inconclusive ?? [];
  if (report.preflight !== undefined) {
    out.push('', 'preflight: the run stopped before any check (inconclusive: this says nothing about the target):');
    for (const p of report.preflight.problems) out.push(`  ? ${p}`);
  } else if (undecided.length > 0) {
    out.push('', `inconclusive (${undecided.length}) — not judged: the network, credentials or time limit on the certifier's side, not the target:`);
    for (const i of undecided.slice(0, max)) out.push(`  ? ${i.check}: ${i.reason}`);
    if (undecided.length > max) out.push(`  … ${undecided.length - max} more in conformance.md`);
  }
  if (report.errors.length > 0) {
    out.push('', paint('magenta', `harness errors (${report.errors.length}) — the suite broke, not the target:`));
    for (const e of report.errors.slice(0, max)) out.push(`  ✗ ${e.check}: ${e.message}`);
  }
  out.push(...adoptionSummaryLines(report, max));
  const result = report.outcome.toUpperCase();
  const colour = report.outcome === 'pass' ? 'green' : report.outcome === 'fail' ? 'red' : 'yellow';
  out.push(
    '',
    `seed ${report.seed ?? 'n/a'} · profile ${report.profile}${report.strict ? ' (strict)' : ''} · ${(report.durationMs / 1000).toFixed(1)} s · result: ${paint(['bold', colour], `${result}${partial ? ' (partial run)' : ''}`)}`,
  );
  if (options.files !== undefined) {
    out.push('', 'reports:');
    for (const [label, path] of Object.entries(options.files)) out.push(`  ${label.padEnd(12)} ${path}`);
  }
  return out.join('\n');
}

/** `--json`: the run's summary for scripts (stdout carries nothing else). */
export function summaryJson(report: ConformanceReport, context: { exitCode: number; reportsDir: string; failureFiles: ReadonlyMap<string, string> }): Record<string, unknown> {
  const apis = testedApis(report);
  return {
    tool: report.tool,
    version: report.version,
    outcome: report.outcome,
    exitCode: context.exitCode,
    profile: report.profile,
    seed: report.seed,
    strict: report.strict,
    partial: report.selection !== undefined,
    ...(report.selection !== undefined && { selection: report.selection }),
    targets: report.targets,
    apis,
    summary: report.summary,
    summaryByApi: Object.fromEntries(apis.map((api) => [api, report.summaryByApi[api]])),
    coverage: scopedCoverage(report),
    failures: report.failures.map((f) => ({ check: f.check, requirements: f.requirements, code: f.code, message: f.message, ...(context.failureFiles.has(f.check) && { failureFile: context.failureFiles.get(f.check) }) })),
    warnings: report.warnings.length,
    inconclusive: report.inconclusive.length,
    reports: { dir: context.reportsDir, json: `${context.reportsDir}/conformance.json`, md: `${context.reportsDir}/conformance.md`, junit: `${context.reportsDir}/junit.xml` },
  };
}
