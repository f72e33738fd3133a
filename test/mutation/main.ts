/**
 * `npm run mutation -- [--sample N] [--seed S] [--concurrency C] [--api gateway|partner|both]
 * [--files TEXT] [--timeout-ms MS] [--min-score PCT] [--stub-triage] [--list]`
 *
 * Mutation testing of the reference with StrykerJS: how many of the mutants of reference/ (a
 * seeded sample, ./mutants.ts) the quick profile kills. One Stryker run per API group (the mutated
 * file's API: gateway/, partner/, or both for shared code), its command runner running
 * ./command.ts in Stryker's sandbox; the sample is enforced by the `paygate-sample` checker and
 * fault code is left out by the `paygate-fault-code` ignorer (./stryker-plugins.ts). Writes
 * reports/mutation.json and reports/mutation.md (./report.ts), with the triage of
 * ./survivors.yaml (./triage.ts).
 *
 * Each verdict is also appended to reports/mutation-progress.jsonl as it comes; --resume takes the
 * verdicts found there for mutants of the same sample (same code) and runs only the rest.
 * --list: enumerate and sample only (no Stryker). --retriage: score the last reports/mutation.json
 * again under the current survivors.yaml (no Stryker). --recheck-timeouts: run the mutants that
 * timed out in the last report again, alone, with --timeout-ms (a shared machine slows a run past
 * Stryker's limit: a timeout counts as detected, so it is worth confirming), and merge the verdicts. --stub-triage: add the untriaged survivors to
 * survivors.yaml as `open` / "not triaged yet", to be triaged by hand. --min-score: exit 1 below it.
 * Not part of `npm test` (minutes per mutant group); `npm run bench -- --only mutation` runs it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { LogLevel } from '@stryker-mutator/api/core';
import type { SampledMutant } from './mutants.js';
import { MUTATOR_OPTIONS, enumerateMutants, keyString, sampleMutants } from './mutants.js';
import type { MutantOutcome } from './report.js';
import { buildReport, renderMarkdown } from './report.js';
import type { MutationReport, ReportInput, ReportedMutant, RunFacts } from './report.js';
import type { MutationApi } from './scope.js';
import { scopeFiles } from './scope.js';
import type { ProgressLine } from './stryker-plugins.js';
import { CHECKER_NAME, IGNORER_NAME, PROGRESS_ENV, REPORTER_NAME, ROOT, SAMPLE_ENV, detailOf, faultCodeIgnorer, outcomeOf, resultIdentity } from './stryker-plugins.js';
import { readTriage, triageIndex, writeTriage } from './triage.js';

export interface MutationFlags {
  sample: number;
  seed: number;
  concurrency: number;
  api?: MutationApi;
  files?: string;
  timeoutMs: number;
  minScore?: number;
  stubTriage: boolean;
  list: boolean;
  /** score reports/mutation.json again under the current survivors.yaml, without running Stryker */
  retriage: boolean;
  recheckTimeouts: boolean;
  /** go on from reports/mutation-progress.jsonl */
  resume: boolean;
  outDir: string;
}

const HELP = 'npm run mutation -- [--sample N (200)] [--seed S (1)] [--concurrency C (1)] [--api gateway|partner|both] [--files TEXT] [--timeout-ms MS (120000)] [--min-score PCT] [--stub-triage] [--list] [--retriage] [--recheck-timeouts] [--resume] [--out-dir reports]';

export function parseMutationFlags(argv: readonly string[]): MutationFlags {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      sample: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'min-score': { type: 'string' },
      files: { type: 'string' },
      'out-dir': { type: 'string' },
      api: { type: 'string' },
      'stub-triage': { type: 'boolean' },
      list: { type: 'boolean' },
      retriage: { type: 'boolean' },
      'recheck-timeouts': { type: 'boolean' },
      resume: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) throw new Error(HELP);
  const int = (name: string, text: string | undefined, min: number, fallback: number): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} needs an integer ≥ ${min}, got "${text}"`);
    return n;
  };
  const api = values.api;
  if (api !== undefined && api !== 'gateway' && api !== 'partner' && api !== 'both') throw new Error('--api is gateway, partner or both');
  return {
    sample: int('sample', values.sample, 1, 200),
    seed: int('seed', values.seed, 0, 1),
    concurrency: int('concurrency', values.concurrency, 1, 1),
    timeoutMs: int('timeout-ms', values['timeout-ms'], 1000, 120_000),
    ...(values['min-score'] !== undefined && { minScore: int('min-score', values['min-score'], 0, 0) }),
    ...(api !== undefined && { api }),
    ...(values.files !== undefined && { files: values.files }),
    stubTriage: values['stub-triage'] === true,
    list: values.list === true,
    retriage: values.retriage === true,
    recheckTimeouts: values['recheck-timeouts'] === true,
    resume: values.resume === true,
    outDir: values['out-dir'] ?? join(ROOT, 'reports'),
  };
}

function strykerVersion(): string {
  const pkg = createRequire(import.meta.url)('@stryker-mutator/core/package.json') as { version: string };
  return pkg.version;
}

/** One Stryker run over the group's files; the sample file tells the checker which mutants to run. */
async function runGroup(api: MutationApi, mutants: readonly SampledMutant[], flags: MutationFlags, work: string): Promise<MutantOutcome[]> {
  const sampleFile = join(work, `sample-${api}.json`);
  writeFileSync(sampleFile, JSON.stringify(mutants.map((m) => m.identity)));
  process.env[SAMPLE_ENV] = sampleFile;
  const { Stryker } = await import('@stryker-mutator/core');
  const stryker = new Stryker({
    mutate: [...new Set(mutants.map((m) => m.file))],
    testRunner: 'command',
    commandRunner: { command: `node_modules/.bin/tsx test/mutation/command.ts --api ${api} --seed ${flags.seed}` },
    plugins: [],
    appendPlugins: [fileURLToPath(new URL('./stryker-plugins.ts', import.meta.url))],
    checkers: [CHECKER_NAME],
    ignorers: [IGNORER_NAME],
    checkerNodeArgs: ['--import', 'tsx'],
    mutator: MUTATOR_OPTIONS,
    concurrency: flags.concurrency,
    timeoutMS: flags.timeoutMs,
    timeoutFactor: 2,
    reporters: ['progress-append-only', REPORTER_NAME],
    incremental: false,
    disableTypeChecks: false,
    tempDirName: join(work, `sandbox-${api}`),
    cleanTempDir: 'always',
    ignorePatterns: ['reports', '.vitest-cache'],
    logLevel: 'info' as LogLevel,
    fileLogLevel: 'off' as LogLevel,
    allowConsoleColors: false,
  });
  const results = await stryker.runMutationTest();
  const byIdentity = new Map(mutants.map((m) => [m.identity, m]));
  const out: MutantOutcome[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    const outcome = outcomeOf(r);
    if (outcome === undefined) continue;
    const m = byIdentity.get(resultIdentity(r));
    if (m === undefined) continue;
    seen.add(m.identity);
    const detail = detailOf(outcome, r.statusReason);
    out.push({ ...m, outcome, ...(detail !== undefined && { detail }) });
  }
  for (const m of mutants) if (!seen.has(m.identity)) out.push({ ...m, outcome: 'error', detail: 'Stryker reported no result for this mutant (its identity differs from the enumeration)' });
  return out;
}

/** The verdicts of reports/mutation-progress.jsonl, by identity (a later line wins). */
export function readProgress(text: string): Map<string, ProgressLine> {
  const out = new Map<string, ProgressLine>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const p = JSON.parse(line) as ProgressLine;
      if (typeof p.identity === 'string' && typeof p.outcome === 'string') out.set(p.identity, p);
    } catch {
      // a line cut by the crash that --resume recovers from
    }
  }
  return out;
}

export async function runMutation(flags: MutationFlags): Promise<number> {
  process.chdir(ROOT);
  mkdirSync(flags.outDir, { recursive: true });
  const progressFile = join(flags.outDir, 'mutation-progress.jsonl');
  process.env[PROGRESS_ENV] = progressFile;
  if (flags.retriage || flags.recheckTimeouts) {
    const { tool: _tool, counts: _counts, killedByExit: _k, score: _s, survivors: _sv, regressions: _r, errors: _e, mutants, ...facts } = JSON.parse(readFileSync(join(flags.outDir, 'mutation.json'), 'utf8')) as MutationReport;
    if (flags.retriage) return writeReports(flags, { ...facts, outcomes: mutants });
    return recheckTimeouts(flags, facts, mutants);
  }
  const started = Date.now();
  const files = scopeFiles(ROOT).filter((f) => flags.files === undefined || f.includes(flags.files));
  const { mutants: all, ignored } = await enumerateMutants(ROOT, files, faultCodeIgnorer);
  const population = all.filter((m) => flags.api === undefined || m.api === flags.api);
  const sample = sampleMutants(population, flags.sample, flags.seed);
  const done = flags.resume && existsSync(progressFile) ? readProgress(readFileSync(progressFile, 'utf8')) : new Map<string, ProgressLine>();
  const decided: MutantOutcome[] = sample.flatMap((m) => {
    const p = done.get(m.identity);
    return p === undefined ? [] : [{ ...m, outcome: p.outcome, ...(p.detail !== undefined && { detail: p.detail }) }];
  });
  const rest = sample.filter((m) => !done.has(m.identity));
  const groups = (['gateway', 'partner', 'both'] as const).map((api) => ({ api, mutants: rest.filter((m) => m.api === api) })).filter((g) => g.mutants.length > 0);
  console.log(`mutation: ${population.length} mutants in ${files.length} files (${ignored} in fault code left out); sample ${sample.length} (seed ${flags.seed})${flags.resume ? `, ${decided.length} decided in ${progressFile}` : ''}; to run: ${groups.map((g) => `${g.api} ${g.mutants.length}`).join(', ') || 'none'}`);
  if (flags.list) {
    for (const m of sample) console.log(`${m.api}\t${m.file}:${m.line}\t${m.mutator}\t${m.original} → ${m.replacement}`);
    return 0;
  }
  if (!flags.resume) writeFileSync(progressFile, '');
  const work = mkdtempSync(join(tmpdir(), 'paygate-mutation-'));
  const outcomes: MutantOutcome[] = [...decided];
  const timings: { api: MutationApi; mutants: number; durationMs: number }[] = [];
  const reportNow = (): number => writeReports(flags, {
    stryker: strykerVersion(),
    command: `npm run mutation -- --sample ${flags.sample} --seed ${flags.seed}${flags.api !== undefined ? ` --api ${flags.api}` : ''}${flags.files !== undefined ? ` --files ${flags.files}` : ''} --concurrency ${flags.concurrency}`,
    seed: flags.seed,
    sampleSize: flags.sample,
    population: population.length,
    faultCode: ignored,
    files: files.length,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    concurrency: flags.concurrency,
    groups: timings,
    outcomes,
  });
  try {
    for (const g of groups) {
      const t0 = Date.now();
      outcomes.push(...(await runGroup(g.api, g.mutants, flags, work)));
      timings.push({ api: g.api, mutants: g.mutants.length, durationMs: Date.now() - t0 });
      // the groups done so far, should a later one break
      if (g !== groups.at(-1)) reportNow();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return reportNow();
}

/** The timed-out mutants of a report, run again (same code: their keys must still be found) and merged in. */
async function recheckTimeouts(flags: MutationFlags, facts: RunFacts, previous: readonly ReportedMutant[]): Promise<number> {
  const started = Date.now();
  const wanted = new Set(previous.filter((m) => m.outcome === 'timeout').map((m) => keyString(m)));
  const files = [...new Set(previous.filter((m) => wanted.has(keyString(m))).map((m) => m.file))];
  const { mutants: all } = await enumerateMutants(ROOT, files, faultCodeIgnorer);
  const again = all.filter((m) => wanted.has(keyString(m)));
  console.log(`mutation: ${wanted.size} timed-out mutants to run again (${again.length} found in the code as it is now), --timeout-ms ${flags.timeoutMs}`);
  const fresh = new Map<string, MutantOutcome>();
  const work = mkdtempSync(join(tmpdir(), 'paygate-mutation-'));
  try {
    for (const api of ['gateway', 'partner', 'both'] as const) {
      const group = again.filter((m) => m.api === api);
      if (group.length > 0) for (const o of await runGroup(api, group, flags, work)) fresh.set(keyString(o), o);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const outcomes = previous.map((m) => {
    const o = fresh.get(keyString(m));
    return o === undefined ? m : { ...o, detail: `${o.detail ?? o.outcome} (rechecked after a timeout)` };
  });
  return writeReports(flags, { ...facts, durationMs: facts.durationMs + (Date.now() - started), outcomes });
}

/** Scores the outcomes under the current triage, writes mutation.json/md (and the triage stubs), returns the exit code. */
function writeReports(flags: MutationFlags, input: Omit<ReportInput, 'triage'>): number {
  const triage = readTriage();
  const report = buildReport({ ...input, triage: triageIndex(triage) });
  mkdirSync(flags.outDir, { recursive: true });
  writeFileSync(join(flags.outDir, 'mutation.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(flags.outDir, 'mutation.md'), renderMarkdown(report));
  if (flags.stubTriage) {
    const known = new Set(triage.map((t) => keyString(t)));
    const stubs = report.survivors.filter((s) => !known.has(keyString(s))).map((s) => ({ file: s.file, mutator: s.mutator, original: s.original, replacement: s.replacement, context: s.context, status: 'open' as const, relation: 'not triaged yet', reason: 'not triaged yet' }));
    if (stubs.length > 0) writeTriage([...triage, ...stubs]);
    console.log(`survivors.yaml: ${stubs.length} untriaged survivors added as open`);
  }
  const pct = report.score === null ? 'n/a' : `${(report.score * 100).toFixed(1)} %`;
  console.log(`mutation score ${pct} (${report.counts.killed + report.counts.timeout} detected, ${report.counts.survived} survived, ${report.counts.equivalent} equivalent, ${report.counts.untriaged} untriaged) · ${join(flags.outDir, 'mutation.md')}`);
  if (flags.minScore !== undefined && (report.score ?? 0) * 100 < flags.minScore) return 1;
  return 0;
}

if (process.argv[1] !== undefined && /mutation[\\/]main\.[jt]s$/.test(process.argv[1])) {
  let flags: MutationFlags;
  try {
    flags = parseMutationFlags(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  runMutation(flags).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(3);
    },
  );
}
