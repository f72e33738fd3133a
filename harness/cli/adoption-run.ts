/**
 * `--write-baseline FILE`: a baseline accepting every finding of the run, for a team adopting the
 * gate (it fills in the reasons).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { baselineYaml } from '../report/baseline.js';
import type { ConformanceReport } from '../report/verdict.js';

/** Writes a baseline accepting every finding of the run (failures, warnings, already accepted ones); returns a line for the user. */
export function writeBaselineFile(file: string, report: Pick<ConformanceReport, 'checks' | 'startedAt' | 'profile' | 'seed'>): string {
  const sources = report.checks.map((c) => ({ check: c.check, findings: [...c.failures, ...c.warnings, ...(c.accepted ?? [])] }));
  const count = sources.reduce((n, s) => n + s.findings.length, 0);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, baselineYaml(sources, `written from the run of ${report.startedAt} (profile ${report.profile}, seed ${report.seed ?? 'n/a'}): ${count} finding(s).`));
  return `baseline written: ${file} (${count} finding(s); fill in each reason, then pass it with --baseline)`;
}
