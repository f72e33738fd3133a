/**
 * The report of a run the preflight stopped (harness/run/preflight.ts): conformance.json and .md
 * with `"verdict": "inconclusive"`, the problems, and every requirement that a check would have
 * decided marked `inconclusive` with the first problem as the reason: no check ran, so nothing was
 * found about the target, and no requirement is "not covered".
 */
import { buildConformance } from './verdict.js';
import type { ConformanceReport } from './verdict.js';
import { loadCatalogue, runInfoFromEnv, writeConformance } from './verdict-reporter.js';

/** Turns an empty run's report into the preflight's inconclusive one. */
export function preflightConformance(base: ConformanceReport, problems: readonly string[]): ConformanceReport {
  const reason = `not judged: the preflight stopped the run (${problems[0] ?? 'target untestable from here'})`;
  return {
    ...base,
    verdict: 'inconclusive',
    outcome: 'inconclusive',
    preflight: { problems: [...problems] },
    requirements: base.requirements.map((r) => (r.verdict === 'not-run' && r.kind !== 'unobservable' && !/^API not tested/.test(r.reason ?? '') ? { ...r, verdict: 'inconclusive', reason } : r)),
    coverage: { ...base.coverage, notCovered: [] },
  };
}

/** Writes conformance.json/.md for a run the preflight stopped; returns their paths. */
export async function writePreflightReport(dir: string, problems: readonly string[], startedAt: Date, env: NodeJS.ProcessEnv = process.env): Promise<{ json: string; md: string }> {
  const run = runInfoFromEnv(env, startedAt, Date.now() - startedAt.getTime());
  const { catalogue } = await loadCatalogue();
  return writeConformance(dir, preflightConformance(buildConformance(run, [], catalogue), problems));
}
