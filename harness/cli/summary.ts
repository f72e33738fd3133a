/**
 * The CLI's final summary: a table per API (passed / failed / warnings / not run / requests), the
 * first failures with their replay line, and where the report files are.
 */
import type { ConformanceReport, Counts } from '../report/verdict.js';
import { APIS } from '../report/verdict.js';
import { adoptionSummaryLines } from '../report/adoption-markdown.js';

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

export interface SummaryOptions {
  /** report files to list (label → path) */
  files?: Record<string, string>;
  /** how many failures to show in full (default 10) */
  maxFailures?: number;
}

export function renderSummary(report: ConformanceReport, options: SummaryOptions = {}): string {
  const rows: string[][] = [[...COLUMNS]];
  for (const api of APIS) {
    const counts = report.summaryByApi[api];
    const untested = report.notTested[api];
    rows.push(row(untested !== undefined && counts.checks === 0 ? `${api} (not tested: ${untested})` : api, counts));
  }
  rows.push(row('total', report.summary));
  const out: string[] = ['', table(rows), ''];
  const cov = report.coverage;
  out.push(`requirements decided: ${cov.checked}/${cov.checkable} checkable; ${report.unobservable.length} unobservable; ${cov.notCovered.length} not covered by any check`);

  const max = options.maxFailures ?? 10;
  if (report.failures.length > 0) {
    out.push('', `failures (${report.failures.length}):`);
    for (const f of report.failures.slice(0, max)) {
      out.push(`  ✗ ${f.check} [${f.requirements.join(', ')}]`, `    ${f.message}`, `    replay: ${f.replay}`);
    }
    if (report.failures.length > max) out.push(`  … ${report.failures.length - max} more in conformance.md`);
  }
  if (report.warnings.length > 0) {
    out.push('', `warnings (${report.warnings.length})${report.strict ? ' — --strict: they fail the run' : ' — do not fail the run'}:`);
    for (const w of report.warnings.slice(0, max)) out.push(`  ! ${w.check} [${w.requirements.join(', ')}]: ${w.message}`);
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
    out.push('', `harness errors (${report.errors.length}) — the suite broke, not the target:`);
    for (const e of report.errors.slice(0, max)) out.push(`  ✗ ${e.check}: ${e.message}`);
  }
  out.push(...adoptionSummaryLines(report, max));
  out.push('', `seed ${report.seed ?? 'n/a'} · profile ${report.profile}${report.strict ? ' (strict)' : ''} · ${(report.durationMs / 1000).toFixed(1)} s · result: ${report.outcome.toUpperCase()}`);
  if (options.files !== undefined) {
    out.push('', 'reports:');
    for (const [label, path] of Object.entries(options.files)) out.push(`  ${label.padEnd(12)} ${path}`);
  }
  return out.join('\n');
}
