/**
 * Completes a run's report for a repository adopting the gate, where the whole run is known (the
 * verdict reporter of an unsharded run, or the merge of shards): the accepted findings collected
 * from the checks, the baseline's status (stale and expired entries; under --strict they fail the
 * run) and the comparison with the run history, which it then appends to.
 *
 * Options come from the environment the CLI sets (PAYGATE_BASELINE, PAYGATE_HISTORY) or from the
 * merge command's flags.
 */
import type { AcceptedEntry, SelectionPart } from './adoption-markdown.js';
import { baselineStatus, loadBaseline } from './baseline.js';
import { appendHistory, compareWithHistory, historyRecord, readHistory } from './history.js';
import type { ConformanceReport } from './verdict.js';

export interface AdoptionOptions {
  baselineFile?: string;
  historyFile?: string;
  /** for expiry (default now) */
  today?: Date;
  /** the embedded reference's faults (default REFERENCE_FAULTS): part of the target's identity in the history */
  referenceFaults?: string;
  /** a partial run's selection (PAYGATE_SELECTION, set by the CLI) */
  selection?: SelectionPart;
  /** the configuration file the run read (PAYGATE_CONFIG_FILE) */
  configFile?: string;
}

declare module './verdict.js' {
  interface ConformanceReport {
    /** set when the run was partial (--check, --requirement, --area, --severity, --grep) */
    selection?: SelectionPart;
    /** the configuration file the run read */
    config?: { file: string };
  }
}

export function adoptionFromEnv(env: NodeJS.ProcessEnv = process.env): AdoptionOptions {
  const baselineFile = env['PAYGATE_BASELINE'];
  const historyFile = env['PAYGATE_HISTORY'];
  const selection = env['PAYGATE_SELECTION'];
  const configFile = env['PAYGATE_CONFIG_FILE'];
  return {
    ...(baselineFile !== undefined && baselineFile !== '' && { baselineFile }),
    ...(historyFile !== undefined && historyFile !== '' && { historyFile }),
    ...(selection !== undefined && selection !== '' && { selection: JSON.parse(selection) as SelectionPart }),
    ...(configFile !== undefined && configFile !== '' && { configFile }),
  };
}

export function acceptedEntries(report: Pick<ConformanceReport, 'checks'>): AcceptedEntry[] {
  return report.checks.flatMap((c) => (c.accepted ?? []).map((a) => ({ ...a, check: c.check, requirements: a.requirements.length > 0 ? a.requirements : c.requirements })));
}

/** Adds accepted findings, baseline status and history to the report (in place) and appends to the history file. */
export function completeReport(report: ConformanceReport, options: AdoptionOptions): ConformanceReport {
  if (options.configFile !== undefined) report.config = { file: options.configFile };
  if (options.selection !== undefined) {
    // a partial run: what was left out is not "not covered by any check", it was not selected
    report.selection = options.selection;
    for (const r of report.requirements) {
      if (r.verdict === 'not-run' && r.reason === 'no check covers it') r.reason = 'not selected in this partial run';
    }
    report.coverage.notCovered = [];
  }
  const accepted = acceptedEntries(report);
  if (accepted.length > 0) report.accepted = accepted;
  // a requirement that passes only because its deviation is accepted says so in its row
  for (const r of report.requirements) {
    if (r.verdict !== 'pass' && r.verdict !== 'warn') continue;
    const codes = [...new Set(accepted.filter((a) => a.requirements.includes(r.id)).map((a) => a.code))];
    if (codes.length > 0) r.reason = [`accepted deviation (baseline): ${codes.join(', ')}`, r.reason].filter((x) => x !== undefined).join('; ');
  }
  if (options.baselineFile !== undefined) {
    // an entry is stale only if what it names ran to the end: a failed check may have stopped at its
    // first new finding (a property stops at its first counterexample) before meeting the accepted one
    const ran = {
      checks: new Set(report.checks.filter((c) => c.state === 'passed' || c.state === 'warned').map((c) => c.check)),
      requirements: new Set(report.requirements.filter((r) => r.verdict === 'pass' || r.verdict === 'warn').map((r) => r.id)),
    };
    report.baseline = baselineStatus(loadBaseline(options.baselineFile), accepted, options.today ?? new Date(), ran);
    if (report.strict && report.baseline.problems > 0) report.outcome = 'fail';
  }
  if (options.historyFile !== undefined) {
    const record = historyRecord(report, report.embedded ? (options.referenceFaults ?? process.env['REFERENCE_FAULTS']) : undefined);
    report.history = compareWithHistory(readHistory(options.historyFile), record, options.historyFile);
    appendHistory(options.historyFile, record);
  }
  return report;
}
