/**
 * The CLI's final summary, a function of the run's report (the checks' outcomes): a table of the
 * APIs tested (passed / failed / warnings / not run / requests), requirement coverage over those
 * APIs only, the distinct deviations (each once, with the checks that saw it and one reproduction),
 * the failed checks with the command that replays each, and where the report files are.
 * `summaryJson` is the same for `--json`.
 */
import type { ConformanceReport, Counts, RequirementVerdict } from '../report/verdict.js';
import { APIS, defaultReplay } from '../report/verdict.js';
import type { Deviation } from '../report/verdict.js';
import type { CheckApi } from '../report/outcome.js';
import { renderFinding } from '../report/format.js';
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
  const apisText = `the ${apis.join(' and ')} ${apis.length === 1 ? 'API' : 'APIs'}`;
  out.push(
    partial
      ? `requirements decided: ${cov.checked} by the checks selected (of ${cov.checkable} checkable of ${apisText})`
      : `requirements decided: ${cov.checked}/${cov.checkable} checkable of ${apisText}; ${cov.unobservable} unobservable; ${cov.notCovered.length} not covered by any check`,
  );
  if (report.selection !== undefined) {
    out.push(paint('yellow', `partial run: ${report.selection.checks.length} of ${report.selection.of} checks selected (${selectionText(report.selection)}): no verdict on the whole contract`));
  }

  const max = options.maxFailures ?? 10;
  const all = report.deviations ?? [];
  const numbered = (n: number, text: string): string[] => {
    const [first = '', ...rest] = text.split('\n');
    const prefix = `  ${n}. `;
    return [`${prefix}${first}`, ...rest.map((line) => `${' '.repeat(prefix.length)}${line}`)];
  };
  const deviations = (title: string, list: readonly Deviation[], colour: 'red' | 'yellow'): void => {
    if (list.length === 0) return;
    const checks = new Set(list.flatMap((d) => d.checks)).size;
    out.push('', paint(colour, `${title} (${list.length} distinct, seen by ${checks} check${checks === 1 ? '' : 's'}):`));
    for (const d of list.slice(0, max)) out.push(...numbered(all.indexOf(d) + 1, renderFinding(d, { checks: d.checks, sightings: d.sightings })));
    if (list.length > max) out.push(`  … ${list.length - max} more in conformance.md`);
  };
  deviations('deviations', all.filter((d) => d.severity === 'failure'), 'red');
  deviations(`warnings${report.strict ? ' — --strict: they fail the run' : ' — do not fail the run'}`, all.filter((d) => d.severity !== 'failure'), 'yellow');
  const failed = report.checks.filter((c) => c.state === 'failed');
  if (failed.length > 0) {
    const number = new Map(all.map((d, i) => [d.key, i + 1]));
    out.push('', paint('red', `failed checks (${failed.length}):`));
    for (const c of failed.slice(0, max)) {
      const refs = [...new Set([...c.failures, ...(c.failures.length === 0 ? c.warnings : [])].map((f) => `#${number.get(f.key) ?? '?'}`))];
      // the failure file replays it with the run's flags, seed and path (harness/cli/replay.ts)
      const file = options.failureFiles?.get(c.check);
      const confirmed = c.confirmation !== undefined ? ` (${c.confirmation.label} ${c.confirmation.failed}/${c.confirmation.runs})` : '';
      out.push(`  ${paint('red', '✗')} ${c.check}: ${refs.length > 0 ? `deviation ${refs.join(', ')}` : (c.error ?? 'the test failed').split('\n')[0]}${confirmed}`, `    replay: ${file !== undefined ? `${commandFor('run')} replay ${shellQuote(file)}` : defaultReplay(report, c)}`);
    }
    if (failed.length > max) out.push(`  … ${failed.length - max} more in conformance.md`);
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
  const scope = report.scope;
  if (scope !== undefined && scope.required && !scope.complete) {
    out.push('', `partial — ${scope.missingRequirements.length} requirement(s) and ${scope.missingChecks.length} check(s) in scope left undecided (a certify or --strict run passes only on its whole scope):`);
    for (const c of scope.missingChecks.slice(0, max)) out.push(`  - ${c.check} (${c.state}): ${c.reason}`);
    for (const r of scope.missingRequirements.slice(0, Math.max(0, max - scope.missingChecks.length))) out.push(`  - ${r.id} (${r.verdict}): ${r.reason}`);
    const shown = Math.min(max, scope.missingChecks.length) + Math.min(Math.max(0, max - scope.missingChecks.length), scope.missingRequirements.length);
    const total = scope.missingChecks.length + scope.missingRequirements.length;
    if (total > shown) out.push(`  … ${total - shown} more under Scope in conformance.md`);
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
