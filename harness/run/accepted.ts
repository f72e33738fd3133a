/**
 * The worker's side of accepted deviations (`--baseline`, harness/report/baseline.ts): before a
 * check decides its outcome, the findings the baseline accepts are taken out of the CheckRun (so
 * `finish()` fails only on the others) and kept as accepted findings, which the check's meta
 * carries to every report (conformance.json/md through the verdict reporter), Allure (a tag and a
 * step per finding) and JUnit (a test annotation, written as a `<property>`).
 */
import * as allure from 'allure-js-commons';
import type { TestContext } from 'vitest';
import type { Finding } from '../rules/finding.js';
import { acceptedRef, loadBaseline, partitionFindings } from '../report/baseline.js';
import type { AcceptedRef, Baseline } from '../report/baseline.js';
import { summarizeFinding } from '../report/meta.js';
import type { FindingSummary } from '../report/meta.js';

/** An accepted finding as a check's meta and the reports carry it. */
export type AcceptedFinding = FindingSummary & AcceptedRef;

let cached: { path: string; baseline: Baseline } | undefined;

/** The run's baseline (PAYGATE_BASELINE, set by the CLI), read once per worker. */
export function runBaseline(env: NodeJS.ProcessEnv = process.env): Baseline | undefined {
  const path = env['PAYGATE_BASELINE'];
  if (path === undefined || path === '') return undefined;
  if (cached?.path !== path) cached = { path, baseline: loadBaseline(path) };
  return cached.baseline;
}

/** The findings lists of a CheckRun (harness/run/session.ts). */
export interface FindingLists {
  readonly failures: Finding[];
  readonly warnings: Finding[];
}

/**
 * Removes the findings `baseline` accepts from the run's lists (in place) and returns them as
 * accepted findings. No baseline: nothing changes.
 */
export function takeAccepted(run: FindingLists, checkId: string, checkRequirements: readonly string[], baseline: Baseline | undefined = runBaseline()): AcceptedFinding[] {
  if (baseline === undefined || baseline.entries.length === 0) return [];
  const out: AcceptedFinding[] = [];
  for (const [list, severity] of [[run.failures, 'failure'], [run.warnings, 'warning']] as const) {
    const { accepted, kept } = partitionFindings(baseline.entries, checkId, checkRequirements, list);
    if (accepted.length === 0) continue;
    list.splice(0, list.length, ...kept);
    for (const a of accepted) out.push({ ...summarizeFinding(a.finding), ...acceptedRef(baseline, a.entry, severity) });
  }
  return out;
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

export function acceptedLine(a: AcceptedFinding): string {
  return `accepted deviation ${a.code} (${a.severity}; baseline entry #${a.entry + 1}${a.expires !== undefined ? `, expires ${a.expires}` : ''}): ${a.title} — ${a.reason}`;
}

/** Allure (tag + one step each) and JUnit (a test annotation each) for the accepted findings. */
export async function reportAccepted(accepted: readonly AcceptedFinding[], ctx: Pick<TestContext, 'annotate'>): Promise<void> {
  if (accepted.length === 0) return;
  await allure.tag('accepted-deviation');
  for (const a of accepted) {
    await allure.logStep(acceptedLine(a), allure.Status.SKIPPED);
    await ctx.annotate(acceptedLine(a), 'accepted-deviation');
  }
}
