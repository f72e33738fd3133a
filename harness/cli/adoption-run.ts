/**
 * What the CLI does with the adoption flags (harness/cli/adoption-args.ts) around a run: validate
 * the baseline before anything starts, hand the files to the workers and the verdict reporter,
 * and write a baseline from the run's findings (`--write-baseline`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AdoptionOptions } from './adoption-args.js';
import { BaselineError, baselineYaml, loadBaseline } from '../report/baseline.js';
import type { ConformanceReport } from '../report/verdict.js';

/** A problem that stops the run before it starts (exit 2), or undefined. */
export function checkAdoption(options: AdoptionOptions): string | undefined {
  if (options.baseline === undefined) return undefined;
  try {
    loadBaseline(options.baseline);
    return undefined;
  } catch (error) {
    if (error instanceof BaselineError) return error.message;
    throw error;
  }
}

/** PAYGATE_* variables for the workers (baseline) and the verdict reporter (baseline, history). */
export function adoptionEnv(options: AdoptionOptions): Record<string, string> {
  return {
    ...(options.baseline !== undefined && { PAYGATE_BASELINE: options.baseline }),
    ...(options.history !== undefined && { PAYGATE_HISTORY: options.history }),
  };
}

/** Writes a baseline accepting every finding of the run (failures, warnings, already accepted ones); returns a line for the user. */
export function writeBaselineFile(file: string, report: Pick<ConformanceReport, 'checks' | 'startedAt' | 'profile' | 'seed'>): string {
  const sources = report.checks.map((c) => ({ check: c.check, findings: [...c.failures, ...c.warnings, ...(c.accepted ?? [])] }));
  const count = sources.reduce((n, s) => n + s.findings.length, 0);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, baselineYaml(sources, `written from the run of ${report.startedAt} (profile ${report.profile}, seed ${report.seed ?? 'n/a'}): ${count} finding(s).`));
  return `baseline written: ${file} (${count} finding(s); fill in each reason, then pass it with --baseline)`;
}
