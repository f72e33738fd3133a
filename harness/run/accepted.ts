/**
 * The worker's side of accepted deviations (`--baseline`, harness/report/baseline.ts): at the end of
 * a check, the findings the baseline accepts are set apart from the others (so the check fails only
 * on the others) and reported as accepted findings in its outcome; a property iteration that broke
 * the contract only in accepted ways passes, so fast-check keeps looking for new deviations.
 */
import type { Finding } from '../rules/finding.js';
import { acceptedRef, loadBaseline, partitionFindings } from '../report/baseline.js';
import type { Baseline } from '../report/baseline.js';
import { reportFinding } from '../report/finding.js';
import type { AcceptedFinding } from '../report/outcome.js';

let cached: { path: string; baseline: Baseline } | undefined;

/** The run's baseline (PAYGATE_BASELINE, set by the CLI), read once per worker. */
export function runBaseline(env: NodeJS.ProcessEnv = process.env): Baseline | undefined {
  const path = env['PAYGATE_BASELINE'];
  if (path === undefined || path === '') return undefined;
  if (cached?.path !== path) cached = { path, baseline: loadBaseline(path) };
  return cached.baseline;
}

/** A check's findings with the baseline applied. */
export interface AfterBaseline {
  failures: Finding[];
  warnings: Finding[];
  accepted: AcceptedFinding[];
}

/** Sets the findings `baseline` accepts apart from the rest. Pure; no baseline: nothing is accepted. */
export function applyBaseline(
  found: { readonly failures: readonly Finding[]; readonly warnings: readonly Finding[] },
  checkId: string,
  checkRequirements: readonly string[],
  baseline: Baseline | undefined,
): AfterBaseline {
  if (baseline === undefined || baseline.entries.length === 0) return { failures: [...found.failures], warnings: [...found.warnings], accepted: [] };
  const accepted: AcceptedFinding[] = [];
  const split = (list: readonly Finding[], severity: 'failure' | 'warning'): Finding[] => {
    const { accepted: matched, kept } = partitionFindings(baseline.entries, checkId, checkRequirements, list);
    for (const a of matched) accepted.push({ ...reportFinding(a.finding), ...acceptedRef(baseline, a.entry, severity) });
    return kept;
  };
  const failures = split(found.failures, 'failure');
  const warnings = split(found.warnings, 'warning');
  return { failures, warnings, accepted };
}

/**
 * The findings the baseline does not accept; accepted failures are added to `acceptedFailures`
 * (a property iteration that broke the contract only in accepted ways then passes).
 */
export function withoutAccepted(checkId: string, checkRequirements: readonly string[], findings: readonly Finding[], acceptedFailures: Finding[], baseline: Baseline | undefined = runBaseline()): Finding[] {
  if (baseline === undefined || baseline.entries.length === 0) return [...findings];
  const { accepted, kept } = partitionFindings(baseline.entries, checkId, checkRequirements, findings);
  for (const a of accepted) if (a.finding.severity === 'failure') acceptedFailures.push(a.finding);
  return kept;
}
