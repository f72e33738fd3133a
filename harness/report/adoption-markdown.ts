/**
 * The sections of conformance.md for a repository adopting the gate: accepted deviations
 * (`--baseline`), the baseline's stale and expired entries, and what changed since the last run
 * (`--history`). Pure; called by renderMarkdown (harness/report/verdict.ts).
 */
import type { BaselineStatus } from './baseline.js';
import type { AcceptedFinding } from './outcome.js';
import { baselineProblemLines } from './baseline.js';
import type { HistoryComparison } from './history.js';
import { findingHeadline } from './format.js';

export type { HistoryComparison };

/** One accepted finding in conformance.json: the finding as the check's outcome carries it, and the check. */
export type AcceptedEntry = AcceptedFinding & { check: string };

/** A partial run's selection (harness/cli/selection.ts), as conformance.json records it. */
export interface SelectionPart {
  partial: true;
  /** as given: `check`, `excludeCheck`, `requirement`, `area`, `severity`, `grep` */
  given: Partial<Record<'check' | 'excludeCheck' | 'requirement' | 'area' | 'severity' | 'grep', string | string[]>>;
  checks: string[];
  of: number;
}

/** What this module reads from a report (a subset of ConformanceReport). */
export interface AdoptionParts {
  strict: boolean;
  selection?: SelectionPart;
  accepted?: readonly AcceptedEntry[];
  baseline?: BaselineStatus;
  history?: HistoryComparison;
}

function cell(text: string | number | undefined): string {
  return String(text ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** `--check a --area b` (how a partial run was selected, for people). */
export function selectionText(selection: SelectionPart): string {
  const flag: Record<string, string> = { check: '--check', excludeCheck: '--exclude-check', requirement: '--requirement', area: '--area', severity: '--severity', grep: '--grep' };
  return Object.entries(selection.given)
    .map(([key, value]) => `${flag[key] ?? key} ${(Array.isArray(value) ? value : [value]).join(',')}`)
    .join(' ');
}

/** The line at the top of conformance.md of a partial run: it must never read as a full one. */
export function partialRunNotice(report: Pick<AdoptionParts, 'selection'>): string[] {
  const s = report.selection;
  if (s === undefined) return [];
  return [
    `> **Partial run**: ${s.checks.length} of ${s.of} checks selected (\`${cell(selectionText(s))}\`). Requirements of the checks left out read "not-run"; this is no verdict on the whole contract.`,
    '',
  ];
}

export function adoptionMarkdown(report: AdoptionParts): string[] {
  const out: string[] = [];
  const accepted = report.accepted ?? [];
  if (report.baseline !== undefined) {
    out.push(`## Accepted deviations (${accepted.length})`, '');
    out.push(`Baseline \`${cell(report.baseline.file)}\`: ${report.baseline.entries.length} entr${report.baseline.entries.length === 1 ? 'y' : 'ies'}. These findings are known and accepted; they do not fail the run.`, '');
    if (accepted.length > 0) {
      out.push('| check | code | severity | requirements | finding | reason | expires |', '|---|---|---|---|---|---|---|');
      for (const a of accepted) {
        out.push(`| ${cell(a.check)} | \`${cell(a.code)}\` | ${a.severity} | ${cell(a.requirements.join(', '))} | ${cell(findingHeadline(a))} | ${cell(a.reason)} | ${cell(a.expires ?? '')} |`);
      }
      out.push('');
    }
    const problems = baselineProblemLines(report.baseline);
    if (problems.length > 0) {
      out.push(`**Baseline entries to review (${problems.length})${report.strict ? ' — --strict: they fail the run' : ''}:**`, '');
      for (const p of problems) out.push(`- ${cell(p)}`);
      out.push('');
    }
  }
  const h = report.history;
  if (h !== undefined) {
    out.push('## Since the last run', '');
    if (h.previous === undefined) out.push(`First run on this target and profile in \`${cell(h.file)}\` (${cell(h.target)}).`, '');
    else {
      out.push(`Compared with the run of ${h.previous.startedAt} (seed ${h.previous.seed ?? 'n/a'}, ${h.previous.outcome.toUpperCase()}) on ${cell(h.target)}; ${h.runs} earlier run(s) in \`${cell(h.file)}\`.`, '');
      if (h.changed.length === 0) out.push('No requirement changed verdict.', '');
      else {
        out.push(`Requirements whose verdict changed (${h.changed.length}):`, '', '| requirement | before | now |', '|---|---|---|');
        for (const c of h.changed) out.push(`| [${c.id}](#${c.id}) | ${c.from} | ${c.to} |`);
        out.push('');
      }
    }
    if (h.flaky.length > 0) {
      out.push(`**Flaky checks (${h.flaky.length})**: their outcome changed between runs with the same seed, so the suite's inputs were the same:`, '');
      for (const f of h.flaky) out.push(`- ${cell(f.check)} (seed ${f.seed ?? 'n/a'}): ${f.states.join(' → ')}`);
      out.push('');
    }
  }
  return out;
}

/** Console lines (the CLI's closing summary) for the same information. */
export function adoptionSummaryLines(report: AdoptionParts, max = 10): string[] {
  const out: string[] = [];
  const accepted = report.accepted ?? [];
  if (accepted.length > 0) {
    out.push('', `accepted deviations (${accepted.length}) — in the baseline, do not fail the run:`);
    for (const a of accepted.slice(0, max)) out.push(`  ~ ${a.check} [${a.code}]: ${a.title} — ${a.reason}${a.expires !== undefined ? ` (expires ${a.expires})` : ''}`);
    if (accepted.length > max) out.push(`  … ${accepted.length - max} more in conformance.md`);
  }
  if (report.baseline !== undefined) {
    const problems = baselineProblemLines(report.baseline);
    if (problems.length > 0) {
      out.push('', `baseline entries to review (${problems.length})${report.strict ? ' — --strict: they fail the run' : ''}:`);
      for (const p of problems) out.push(`  ! ${p}`);
    }
  }
  const h = report.history;
  if (h !== undefined) {
    if (h.previous === undefined) out.push('', `history: first run on this target and profile (${h.file})`);
    else {
      out.push('', `since the last run (${h.previous.startedAt}): ${h.changed.length === 0 ? 'no requirement changed verdict' : `${h.changed.length} requirement(s) changed verdict`}`);
      for (const c of h.changed.slice(0, max)) out.push(`  ${c.id}: ${c.from} → ${c.to}`);
      if (h.changed.length > max) out.push(`  … ${h.changed.length - max} more in conformance.md`);
    }
    for (const f of h.flaky.slice(0, max)) out.push(`  flaky: ${f.check} (seed ${f.seed ?? 'n/a'}: ${f.states.join(' → ')})`);
  }
  return out;
}
