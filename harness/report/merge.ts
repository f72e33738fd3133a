/**
 * Merges sharded verdict fragments (reports/verdict-fragments/shard-*.json, one per
 * `--shard i/n` run) into one reports/conformance.json and conformance.md.
 *
 *   paygate-conformance merge [--reports-dir reports] [fragment.json …]
 *
 * The exit code is a whole run's (one table: README.md "Exit codes"; 2 for bad input, 5 is reserved
 * for a merge of incomplete shards). Allure results merge by copying every shard's allure-results
 * files into one directory (file names are UUIDs); see docs/REPORTS.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Requirement } from '../contract/requirements.js';
import { buildConformance, exitCodeFor } from './verdict.js';
import type { ConformanceReport, RunInfo } from './verdict.js';
import { loadCatalogue, writeConformance } from './verdict-reporter.js';
import type { VerdictFragment } from './verdict-reporter.js';
import { completeReport } from './adoption.js';
import type { AdoptionOptions } from './adoption.js';
import { adoptionSummaryLines } from './adoption-markdown.js';
import type { SelectionPart } from './adoption-markdown.js';
import { commandFor } from '../cli/invocation.js';
import { shellQuote } from '../http/curl.js';

/** A shard's fragment; a partial run's shards also carry its selection. */
type Fragment = VerdictFragment & { selection?: SelectionPart };

function isFragment(value: unknown): value is Fragment {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'paygate-verdict-fragment';
}

export function readFragments(paths: readonly string[]): Fragment[] {
  return paths.map((path) => {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isFragment(value)) throw new Error(`merge: ${path} is not a verdict fragment`);
    return value;
  });
}

export function fragmentFiles(dir: string): string[] {
  const fragmentsDir = join(dir, 'verdict-fragments');
  if (!existsSync(fragmentsDir)) return [];
  return readdirSync(fragmentsDir)
    .filter((name) => /^shard-\d+\.json$/.test(name))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]))
    .map((name) => join(fragmentsDir, name));
}

/** One run from several shards: earliest start, latest end, the union of checks. */
export function mergeFragments(fragments: readonly VerdictFragment[], catalogue: readonly Requirement[]): { report: ConformanceReport; problems: string[] } {
  const first = fragments[0];
  if (first === undefined) throw new Error('merge: no fragments');
  const problems: string[] = [];
  const count = first.shard.count;
  const indexes = new Set(fragments.map((f) => f.shard.index));
  for (let i = 1; i <= count; i += 1) if (!indexes.has(i)) problems.push(`shard ${i}/${count} is missing`);
  if (indexes.size !== fragments.length) problems.push('the same shard appears more than once');
  if (fragments.some((f) => f.shard.count !== count)) problems.push('fragments disagree on the shard count');
  if (fragments.some((f) => f.run.seed !== first.run.seed)) problems.push('fragments ran with different seeds');
  if (fragments.some((f) => f.run.profile !== first.run.profile)) problems.push('fragments ran with different profiles');
  const start = Math.min(...fragments.map((f) => Date.parse(f.run.startedAt)));
  const end = Math.max(...fragments.map((f) => Date.parse(f.run.startedAt) + f.run.durationMs));
  const run: RunInfo = {
    ...first.run,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    strict: fragments.some((f) => f.run.strict),
    targets: Object.assign({}, ...fragments.map((f) => f.run.targets)) as RunInfo['targets'],
  };
  delete run.shard;
  const checks = fragments.flatMap((f) => f.checks);
  return { report: buildConformance(run, checks, catalogue), problems };
}

/**
 * `paygate-conformance merge [--reports-dir DIR] [--baseline FILE] [--history FILE] [fragment.json …]`
 * (flags parsed by harness/cli/program.ts). The exit code is the run's (README.md "Exit codes").
 */
export async function mergeCommand(values: { [flag: string]: unknown }, files: readonly string[]): Promise<number> {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const dir = resolve(text('reports-dir') ?? process.env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  const baseline = text('baseline');
  const history = text('history');
  const adoption: AdoptionOptions = {
    ...(baseline !== undefined && { baselineFile: resolve(baseline) }),
    ...(history !== undefined && { historyFile: resolve(history) }),
  };
  const paths = files.length > 0 ? files.map((f) => resolve(f)) : fragmentFiles(dir);
  if (paths.length === 0) {
    console.error(`merge: no fragments in ${join(dir, 'verdict-fragments')}`);
    return 2;
  }
  const { catalogue, problem } = await loadCatalogue();
  if (problem !== undefined) console.warn(`merge: requirement catalogue unavailable: ${problem}`);
  const fragments = readFragments(paths);
  const { report, problems } = mergeFragments(fragments, catalogue);
  for (const p of problems) console.warn(`merge: warning: ${p}`);
  // a partial run's shards carry its selection (harness/cli/main.ts): the merged run is partial too
  const selection = fragments.find((f) => f.selection !== undefined)?.selection;
  if (selection !== undefined) adoption.selection = selection;
  const written = writeConformance(dir, completeReport(report, adoption));
  const s = report.summary;
  console.log(`merged ${paths.length} fragment(s): ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings, ${s.notRun} not run, ${s.inconclusive ?? 0} inconclusive, ${s.errors} harness errors, ${s.requests} requests`);
  for (const line of adoptionSummaryLines(report)) console.log(line);
  console.log(`${written.json}\n${written.md}`);
  const dirFlag = dir === resolve('reports') ? '' : ` --reports-dir ${shellQuote(relative(process.cwd(), dir) || '.')}`;
  console.log(`HTML report of the merged run: ${commandFor('report', { bare: dirFlag === '' })}${dirFlag}`);
  return exitCodeFor(report);
}
