/**
 * Merges sharded verdict fragments (reports/verdict-fragments/shard-*.json, one per
 * `--shard i/n` run) into one reports/conformance.json and conformance.md.
 *
 *   paygate-conformance merge [--reports-dir reports] [--allow-partial] [fragment.json …]
 *
 * Strict: a merge is one whole run or nothing. A missing or duplicated shard, or fragments that
 * disagree on the tool version, profile, seed, strictness, shard count or target, are refused
 * (nothing is written; exit 5 for missing or duplicated shards, 2 for fragments of different runs)
 * unless `--allow-partial`, which merges what there is and makes the verdict PARTIAL (exit 5 unless
 * a check failed). Otherwise the exit code is a whole run's: 0 pass, 1 a check failed (or warned
 * under --strict), 3 harness errors, 4 inconclusive, 5 partial. Allure results merge by copying
 * every shard's allure-results files into one directory (file names are UUIDs); see
 * docs/REPORTS.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Requirement } from '../contract/requirements.js';
import { EXIT_PARTIAL, buildConformance, exitCodeFor } from './verdict.js';
import type { ConformanceReport, RunInfo } from './verdict.js';
import { loadCatalogue, writeConformance } from './verdict-reporter.js';
import type { VerdictFragment } from './verdict-reporter.js';
import { completeReport } from './adoption.js';
import type { AdoptionOptions } from './adoption.js';
import { adoptionSummaryLines } from './adoption-markdown.js';
import type { SelectionPart } from './adoption-markdown.js';
import { commandFor } from '../cli/invocation.js';
import { shellQuote } from '../http/curl.js';
import { targetKey } from './history.js';

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

/** What is wrong with a set of fragments: shards missing or twice (incomplete), or fragments of different runs (mismatched). */
export interface MergeProblems {
  incomplete: string[];
  mismatched: string[];
}

export function mergeProblems(fragments: readonly VerdictFragment[]): MergeProblems {
  const first = fragments[0];
  if (first === undefined) return { incomplete: ['no fragments'], mismatched: [] };
  const incomplete: string[] = [];
  const mismatched: string[] = [];
  const count = first.shard.count;
  const indexes = fragments.map((f) => f.shard.index);
  for (let i = 1; i <= count; i += 1) if (!indexes.includes(i)) incomplete.push(`shard ${i}/${count} is missing`);
  const twice = [...new Set(indexes.filter((index, at) => indexes.indexOf(index) !== at))];
  for (const index of twice) incomplete.push(`shard ${index}/${count} appears more than once`);
  const differ = (what: string, of: (f: VerdictFragment) => unknown): void => {
    const values = [...new Set(fragments.map((f) => JSON.stringify(of(f))))];
    if (values.length > 1) mismatched.push(`fragments disagree on the ${what}: ${values.join(' vs ')}`);
  };
  differ('shard count', (f) => f.shard.count);
  differ('tool version', (f) => f.run.version);
  differ('profile', (f) => f.run.profile);
  differ('seed', (f) => f.run.seed);
  differ('strictness (--strict)', (f) => f.run.strict);
  differ('target', (f) => `${targetKey(f.run)}${f.run.receiver !== undefined ? ` receiver ${f.run.receiver.scheme} ${f.run.receiver.url}` : ''}`);
  return { incomplete, mismatched };
}

/**
 * One run from several shards: earliest start, latest end, the union of checks (a shard given
 * twice counts once). With problems, the verdict is PARTIAL unless a check failed.
 */
export function mergeFragments(fragments: readonly VerdictFragment[], catalogue: readonly Requirement[]): { report: ConformanceReport; problems: string[] } {
  const first = fragments[0];
  if (first === undefined) throw new Error('merge: no fragments');
  const found = mergeProblems(fragments);
  const problems = [...found.incomplete, ...found.mismatched];
  const unique = fragments.filter((f, at) => fragments.findIndex((g) => g.shard.index === f.shard.index) === at);
  const start = Math.min(...unique.map((f) => Date.parse(f.run.startedAt)));
  const end = Math.max(...unique.map((f) => Date.parse(f.run.startedAt) + f.run.durationMs));
  const run: RunInfo = {
    ...first.run,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    strict: unique.some((f) => f.run.strict),
    targets: Object.assign({}, ...unique.map((f) => f.run.targets)) as RunInfo['targets'],
  };
  delete run.shard;
  const report = buildConformance(run, unique.flatMap((f) => f.checks), catalogue);
  report.merge = { shards: unique.map((f) => f.shard.index).sort((a, b) => a - b), count: first.shard.count, problems };
  if (problems.length > 0) {
    report.scope = { ...report.scope, complete: false };
    if (report.outcome === 'pass') {
      report.outcome = 'partial';
      report.verdict = 'partial';
    }
  }
  return { report, problems };
}

/**
 * `paygate-conformance merge [--reports-dir DIR] [--allow-partial] [--baseline FILE] [--history FILE] [fragment.json …]`
 * (flags parsed by harness/cli/program.ts). The exit code is the run's (README.md "Exit codes").
 */
export async function mergeCommand(values: { [flag: string]: unknown }, files: readonly string[]): Promise<number> {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const dir = resolve(text('reports-dir') ?? process.env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  const baseline = text('baseline');
  const history = text('history');
  const allowPartial = values['allow-partial'] === true;
  const adoption: AdoptionOptions = {
    ...(baseline !== undefined && { baselineFile: resolve(baseline) }),
    ...(history !== undefined && { historyFile: resolve(history) }),
  };
  const paths = files.length > 0 ? files.map((f) => resolve(f)) : fragmentFiles(dir);
  if (paths.length === 0) {
    console.error(`merge: no fragments in ${join(dir, 'verdict-fragments')}`);
    return 2;
  }
  const fragments = readFragments(paths);
  const found = mergeProblems(fragments);
  if (!allowPartial && found.incomplete.length + found.mismatched.length > 0) {
    for (const p of [...found.incomplete, ...found.mismatched]) console.error(`merge: ${p}`);
    console.error(`merge: refused, nothing written: a merge is one whole run (--allow-partial merges anyway, with the verdict PARTIAL)`);
    return found.mismatched.length > 0 ? 2 : EXIT_PARTIAL;
  }
  const { catalogue, problem } = await loadCatalogue();
  if (problem !== undefined) console.warn(`merge: requirement catalogue unavailable: ${problem}`);
  const { report, problems } = mergeFragments(fragments, catalogue);
  for (const p of problems) console.warn(`merge: --allow-partial: ${p}`);
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
