/**
 * The CLI's final summary, a function of the run's report (the checks' outcomes): a table per API
 * (passed / failed / warnings / not run / requests), the distinct deviations (each once, with the
 * checks that saw it and one reproduction), the failed checks with their replay line, and where the
 * report files are.
 */
import type { ConformanceReport, Counts } from '../report/verdict.js';
import { APIS, defaultReplay } from '../report/verdict.js';
import type { Deviation } from '../report/verdict.js';
import { renderFinding } from '../report/format.js';
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
  const all = report.deviations ?? [];
  const numbered = (n: number, text: string): string[] => {
    const [first = '', ...rest] = text.split('\n');
    const prefix = `  ${n}. `;
    return [`${prefix}${first}`, ...rest.map((line) => `${' '.repeat(prefix.length)}${line}`)];
  };
  const deviations = (title: string, list: readonly Deviation[]): void => {
    if (list.length === 0) return;
    const checks = new Set(list.flatMap((d) => d.checks)).size;
    out.push('', `${title} (${list.length} distinct, seen by ${checks} check${checks === 1 ? '' : 's'}):`);
    for (const d of list.slice(0, max)) out.push(...numbered(all.indexOf(d) + 1, renderFinding(d, { checks: d.checks, sightings: d.sightings })));
    if (list.length > max) out.push(`  … ${list.length - max} more in conformance.md`);
  };
  deviations('deviations', all.filter((d) => d.severity === 'failure'));
  deviations(`warnings${report.strict ? ' — --strict: they fail the run' : ' — do not fail the run'}`, all.filter((d) => d.severity !== 'failure'));
  const failed = report.checks.filter((c) => c.state === 'failed');
  if (failed.length > 0) {
    const number = new Map(all.map((d, i) => [d.key, i + 1]));
    out.push('', `failed checks (${failed.length}):`);
    for (const c of failed.slice(0, max)) {
      const refs = [...new Set([...c.failures, ...(c.failures.length === 0 ? c.warnings : [])].map((f) => `#${number.get(f.key) ?? '?'}`))];
      out.push(`  ✗ ${c.check}: ${refs.length > 0 ? `deviation ${refs.join(', ')}` : (c.error ?? 'the test failed').split('\n')[0]}`, `    replay: ${defaultReplay(report, c)}`);
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
