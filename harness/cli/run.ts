/**
 * `paygate-conformance [run] [flags]` / `npm run conformance -- [flags]`: the conformance run
 * (harness/cli/main.ts is the script entry, harness/cli/program.ts the CLI).
 *
 * Resolves the settings (flags > environment > paygate-conformance.config.yaml > defaults),
 * validates them and the target configuration, resolves a selection (--check, --requirement…)
 * against the checks' manifest, hands the options to the test workers through PAYGATE_* variables,
 * runs vitest programmatically with vitest.conformance.config.ts, writes a failure file per failing
 * check, then prints a summary and returns the exit code (harness/cli/exit-codes.ts).
 *
 * Progress and everything about the run go to stderr; the summary goes to stdout (with --json, the
 * summary as JSON is all stdout carries).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  RECEIVER_FILTERS,
  apiFilters,
  checkTargetSafety,
  effectiveMaxRps,
  effectiveWorkers,
  grepPattern,
  hasSelection,
  helpText,
  randomSeed,
  workerEnv,
} from './args.js';
import type { CliOptions } from './args.js';
import { RUN_OPTIONS } from './commands.js';
import { parseFlags } from './parse.js';
import { EXIT } from './exit-codes.js';
import { resolveRun } from './config-file.js';
import { renderSummary, summaryJson } from './summary.js';
import { commandFor } from './invocation.js';
import { describePlan, planRun } from './plan.js';
import { packageVersion } from '../version.js';
import { isEmbeddedTarget } from '../config/target.js';
import { receiverConfigProblems } from '../config/receiver-target.js';
import { describeProxy, isInconclusiveError, proxySettings } from '../http/network.js';
import { shellQuote } from '../http/curl.js';
import type { ConformanceReport } from '../report/verdict.js';
import type { VerdictFragment } from '../report/verdict-reporter.js';
import type { Selection } from './selection.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** the conformance config: the source in a clone, the compiled file in the built package */
export const CONFIG_FILE = import.meta.url.endsWith('.ts') ? 'vitest.conformance.config.ts' : 'vitest.conformance.config.js';

/** Where the run's console output goes. */
export interface RunIo {
  /** progress, header, notes: stderr */
  info: (text: string) => void;
  /** the result: stdout (stderr under --json) */
  result: (text: string) => void;
  /** machine-readable output (--json): stdout */
  json: (text: string) => void;
}

export const processIo: RunIo = {
  info: (text) => process.stderr.write(`${text}\n`),
  result: (text) => process.stdout.write(`${text}\n`),
  json: (text) => process.stdout.write(`${text}\n`),
};

/** The `target:` line: the receiver, or only the APIs this run tests (`--api gateway` names the gateway alone). */
function describeTarget(env: NodeJS.ProcessEnv, api: CliOptions['api'] = 'both'): string {
  if (env['PAYGATE_TARGET_KIND'] === 'receiver') return `receiver ${env['PAYGATE_RECEIVER_TARGET_URL'] ?? ''} (${env['PAYGATE_RECEIVER_SCHEME'] ?? ''} webhooks)${env['RECEIVER_STATE_URL'] ? ', read-back hook set' : ', no read-back hook (RECEIVER_STATE_URL)'}`;
  const gateway = env['GATEWAY_BASE_URL'];
  const partner = env['PARTNER_BASE_URL'];
  if (isEmbeddedTarget(env)) {
    const personality = env['REFERENCE_PERSONALITY']?.trim();
    return `embedded reference sandbox (started for this run${personality ? `, personality ${personality}` : ''})${api !== 'both' ? `, ${api} API` : ''}`;
  }
  const parts: string[] = [];
  if (api !== 'partner') parts.push(gateway ? `gateway ${gateway}` : 'gateway not configured');
  if (api !== 'gateway') parts.push(partner ? `partner ${partner}` : 'partner not configured');
  return parts.join(', ');
}

function header(options: CliOptions, seed: number, env: NodeJS.ProcessEnv, selection: Selection | undefined, cwd: string): string {
  const parts = [`paygate-conformance ${packageVersion()}`, `profile ${options.profile}`, options.receiver !== undefined ? `receiver ${options.receiver.scheme}` : `api ${options.api}`, `seed ${seed}`];
  const rps = effectiveMaxRps(options);
  if (rps !== undefined) parts.push(`max ${rps} req/s`);
  if (options.runs !== undefined) parts.push(`runs ${options.runs}`);
  if (options.strict) parts.push('strict');
  if (env['PAYGATE_CONCURRENCY'] !== undefined) parts.push(`concurrency ${env['PAYGATE_CONCURRENCY']}`);
  if (options.shard !== undefined) parts.push(`shard ${options.shard.index}/${options.shard.count}`);
  const lines = [parts.join(' · '), `target: ${describeTarget(env, options.api)}`];
  if (options.config !== undefined) lines.push(`config: ${displayPath(options.config, cwd)}`);
  if (selection !== undefined) lines.push(`partial run: ${selection.ids.length} of ${selection.record.of} checks selected${selection.ids.length <= 5 ? ` (${selection.ids.join(', ')})` : ''}`);
  const proxy = describeProxy(proxySettings(env));
  if (proxy !== undefined && !isEmbeddedTarget(env)) lines.push(`proxy: ${proxy}`);
  const network = options.network;
  if (network?.headers !== undefined) lines.push(`headers to the target: ${network.headers.map(([name]) => name).join(', ')} (values redacted)`);
  if (network?.clientCert !== undefined || network?.clientPfx !== undefined) lines.push(`client certificate (mTLS): ${network.clientPfx ?? network.clientCert ?? ''}`);
  // the cost up front, always under a rate cap (certify): how many requests, how long
  const plan = planFor(options, env, selection);
  if (plan !== undefined && (rps !== undefined || options.profile !== 'quick')) lines.push(describePlan(plan));
  if (options.seed === undefined) lines.push(`(random seed; replay this run with --seed ${seed})`);
  return lines.join('\n');
}

/** The run's plan (harness/cli/plan.ts); none for fixture suites (PAYGATE_INCLUDE: the project's own tests). */
function planFor(options: CliOptions, env: NodeJS.ProcessEnv, selection: Selection | undefined): ReturnType<typeof planRun> {
  if (env['PAYGATE_INCLUDE'] !== undefined) return undefined;
  return planRun({ ...options, ...(selection !== undefined && { ids: new Set(selection.ids) }) });
}

function displayPath(path: string, cwd: string): string {
  const r = relative(cwd, path);
  return r === '' || r.startsWith('..') ? path : r;
}

/** Flags that are accepted but do nothing in this run: said, not silently ignored. */
function flagWarnings(options: CliOptions): string[] {
  const out: string[] = [];
  if (options.allowInsecure && options.profile !== 'certify') {
    out.push('--allow-insecure only matters with --profile certify (plain HTTP is always allowed otherwise): ignored');
  }
  return out;
}

/** Runs the preflight probes; the problems found (empty: go ahead). */
async function runPreflight(options: CliOptions, env: NodeJS.ProcessEnv): Promise<{ problems: string[]; notes: string[]; durationMs: number } | undefined> {
  if (options.noPreflight || env['PAYGATE_PREFLIGHT'] === '0' || isEmbeddedTarget(env)) return undefined;
  const { loadTargetConfig } = await import('../config/target.js');
  const { preflight } = await import('../run/preflight.js');
  return preflight(loadTargetConfig(env), { api: options.api });
}

/** Removes the previous run's outputs (a sharded run only removes its own fragment). */
async function cleanOutputs(reportsDir: string, options: CliOptions): Promise<void> {
  const { fragmentPath } = await import('../report/verdict-reporter.js');
  if (options.shard !== undefined) {
    rmSync(fragmentPath(reportsDir, options.shard.index), { force: true });
    return;
  }
  const { HAR_FILE, spoolDir } = await import('../report/har.js');
  for (const name of ['allure-results', 'allure-report', 'conformance.json', 'conformance.md', 'junit.xml', 'verdict-fragments', 'failures', HAR_FILE, spoolDir(HAR_FILE)]) {
    rmSync(join(reportsDir, name), { recursive: true, force: true });
  }
}

async function readVerdict(reportsDir: string, options: CliOptions, selection: Selection | undefined): Promise<ConformanceReport | undefined> {
  const { buildConformance } = await import('../report/verdict.js');
  const { fragmentPath, loadCatalogue } = await import('../report/verdict-reporter.js');
  if (options.shard !== undefined) {
    const path = fragmentPath(reportsDir, options.shard.index);
    if (!existsSync(path)) return undefined;
    const fragment = JSON.parse(readFileSync(path, 'utf8')) as VerdictFragment & { selection?: Selection['record'] };
    if (selection !== undefined) {
      // the merge of the shards records the selection (harness/report/merge.ts)
      fragment.selection = selection.record;
      writeFileSync(path, `${JSON.stringify(fragment, null, 2)}\n`);
    }
    const { catalogue } = await loadCatalogue();
    const report = buildConformance(fragment.run, fragment.checks, catalogue);
    if (selection !== undefined) report.selection = selection.record;
    return report;
  }
  const path = join(reportsDir, 'conformance.json');
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
}

/** The target configuration's own validation (harness/config/target.ts), run before anything starts. */
async function checkTargetConfig(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { loadTargetConfig } = await import('../config/target.js');
    loadTargetConfig(env);
    return undefined;
  } catch (error) {
    if (error instanceof Error && error.name === 'HarnessError' && /^config\./.test(String((error as { code?: unknown }).code))) return error.message;
    throw error;
  }
}

async function checkBaseline(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const { BaselineError, loadBaseline } = await import('../report/baseline.js');
  try {
    loadBaseline(file);
    return undefined;
  } catch (error) {
    if (error instanceof BaselineError) return error.message;
    throw error;
  }
}

/** vitest's own console lines (its JUnit reporter's "JUNIT report written to …") go to stderr, not into the summary. */
function vitestStream(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const text = chunk.toString();
      if (!/JUNIT report written to/.test(text)) write(text);
      callback();
    },
  });
}

export interface RunResult {
  code: number;
  report?: ConformanceReport;
  reportsDir?: string;
  options?: CliOptions;
  /** check id → failure file */
  failureFiles?: Map<string, string>;
}

export interface RunControl {
  io?: RunIo;
  /** print no summary (replay prints its own verdict) */
  quiet?: boolean;
  cwd?: string;
}

/**
 * The run: parse, resolve, validate, run, report. The process environment is put back as it was
 * afterwards (the run exports its settings and the embedded reference's addresses into it): a second
 * run in this process (replay) starts from the same place.
 */
export async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, control: RunControl = {}): Promise<RunResult> {
  const saved = { ...process.env };
  try {
    return await run(argv, env, control);
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

async function run(argv: readonly string[], env: NodeJS.ProcessEnv, control: RunControl): Promise<RunResult> {
  const io = control.io ?? processIo;
  const cwd = control.cwd ?? process.cwd();
  const parsed = parseFlags(argv, RUN_OPTIONS);
  if (parsed.values['help'] === true) {
    io.result(helpText());
    return { code: EXIT.pass };
  }
  if (parsed.values['version'] === true) {
    io.result(packageVersion());
    return { code: EXIT.pass };
  }
  const resolved = resolveRun(parsed.values, parsed.given, env, cwd);
  const options = resolved.options;
  // the configuration file's target and secrets, where the environment has none (workers inherit them)
  Object.assign(env, resolved.env);
  if (env !== process.env) Object.assign(process.env, resolved.env);
  const out: RunIo = options.json === true ? { ...io, result: io.info } : io;

  const problems = checkTargetSafety(options, env);
  if (options.personality !== undefined && !isEmbeddedTarget(env)) {
    problems.push('--personality chooses the embedded reference\'s personality, but GATEWAY_BASE_URL/PARTNER_BASE_URL name another target');
  }
  if (options.receiver !== undefined) problems.push(...receiverConfigProblems(options.receiver.url, options.receiver.scheme, env));
  const configProblem = options.receiver !== undefined ? undefined : await checkTargetConfig(env);
  if (configProblem !== undefined) problems.push(configProblem);
  const baselineProblem = await checkBaseline(options.baseline);
  if (baselineProblem !== undefined) problems.push(baselineProblem);
  if (problems.length > 0) {
    io.info(['paygate-conformance: refusing to start:', ...problems.map((p) => `  - ${p}`)].join('\n'));
    return { code: EXIT.usage };
  }

  // a selection registers only its checks, and vitest loads only the files that hold them
  let selection: Selection | undefined;
  let namePattern: RegExp | undefined;
  if (hasSelection(options)) {
    const { loadManifest } = await import('./manifest.js');
    const { selectChecks } = await import('./selection.js');
    const manifest = await loadManifest(env);
    // fixture suites that register tests without check() (the project's own tests) have no manifest: --grep matches titles
    if (manifest.checks.length === 0 && options.grep !== undefined && options.check === undefined && options.requirement === undefined && options.area === undefined && options.severity === undefined && options.excludeCheck === undefined) {
      namePattern = grepPattern(options.grep);
    } else selection = selectChecks(manifest.checks, options);
  }

  const seed = options.seed ?? randomSeed();
  const remote = !isEmbeddedTarget(env);
  const exported: Record<string, string> = { ...workerEnv(options, seed, remote) };
  if (options.baseline !== undefined) exported['PAYGATE_BASELINE'] = options.baseline;
  if (options.history !== undefined) exported['PAYGATE_HISTORY'] = options.history;
  if (options.config !== undefined) exported['PAYGATE_CONFIG_FILE'] = options.config;
  if (selection !== undefined) {
    exported['PAYGATE_SELECT'] = JSON.stringify(selection.ids);
    exported['PAYGATE_SELECTION'] = JSON.stringify(selection.record);
  }
  const plan = planFor(options, env, selection);
  if (plan !== undefined) {
    exported['PAYGATE_PLANNED_CHECKS'] = String(plan.checks);
    exported['PAYGATE_PLANNED_REQUESTS'] = String(plan.requests);
  }
  // the user's working directory, not the package's: an installed package must not write into node_modules
  const reportsDir = resolve(cwd, options.reportsDir ?? env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  if (options.har === true) {
    // every check spools its exchanges there; the verdict reporter writes the archive (harness/report/har.ts)
    const { HAR_FILE } = await import('../report/har.js');
    exported['PAYGATE_HAR'] = join(reportsDir, HAR_FILE);
  }
  Object.assign(env, exported);
  if (env !== process.env) Object.assign(process.env, exported);
  for (const warning of flagWarnings(options)) io.info(`paygate-conformance: warning: ${warning}`);
  process.env['PAYGATE_REPORTS_DIR'] = reportsDir;
  io.info(header(options, seed, env, selection, cwd));

  const { runnableFile } = await import('./manifest.js');
  // a run against one configured API loads that API's files only: its counts are the tested API's
  // (suites/<api>/; the project's own fixture suites, PAYGATE_INCLUDE, are not laid out by API)
  const only = remote && options.api === 'both' && options.receiver === undefined && env['PAYGATE_INCLUDE'] === undefined ? (['gateway', 'partner'] as const).filter((api) => (env[`${api.toUpperCase()}_BASE_URL`] ?? '') !== '') : [];
  const filters =
    selection !== undefined
      ? selection.files.map(runnableFile)
      : options.receiver !== undefined
        ? [...RECEIVER_FILTERS]
        : only.length === 1
          ? apiFilters(only[0] ?? 'both')
          : apiFilters(options.api);
  if (options.dryRun) {
    // the checks that would run (the suites' manifest; fixture suites without check() have none)
    const { loadManifest } = await import('./manifest.js');
    const { inScope } = await import('./selection.js');
    const planned = selection?.ids ?? inScope((await loadManifest(env)).checks, only.length === 1 ? (only[0] ?? 'both') : options.api, options.receiver !== undefined).map((c) => c.id);
    out.result(
      [
        'dry run: nothing started.',
        `vitest config: ${join(ROOT, CONFIG_FILE)}`,
        `reports: ${reportsDir}`,
        `test filters: ${filters.length > 0 ? filters.join(' ') : '(all suites)'}`,
        `checks (${planned.length}${selection !== undefined ? ` of ${selection.record.of}, partial run` : ''}):`,
        ...planned.map((id) => `  ${id}`),
        `test name pattern: ${namePattern !== undefined ? namePattern.source : '(none)'}`,
        `workers: ${effectiveWorkers(options, remote) ?? 'at least 2 (vitest.conformance.config.ts)'}`,
        'worker environment:',
        ...Object.entries(exported).map(([k, v]) => `  ${k}=${k === 'PAYGATE_TARGET_HEADERS' ? '<redacted>' : v}`),
      ].join('\n'),
    );
    return { code: EXIT.pass, options };
  }

  await cleanOutputs(reportsDir, options);
  const startedAt = new Date();
  const checked = await runPreflight(options, env);
  if (checked !== undefined && checked.problems.length > 0) {
    const [first, ...others] = checked.problems;
    const lines = [
      '',
      `paygate-conformance: INCONCLUSIVE, stopped before any check (preflight, ${(checked.durationMs / 1000).toFixed(1)} s): ${first ?? ''}`,
      ...others.map((p) => `  also: ${p}`),
      'No check ran: this says nothing about the target\'s conformance. Fix the above and run again (--no-preflight skips these probes).',
    ];
    if (options.shard === undefined) {
      const { writePreflightReport } = await import('../report/preflight-report.js');
      const written = await writePreflightReport(reportsDir, checked.problems, startedAt);
      lines.push(`reports: ${written.json} (verdict "inconclusive"), ${written.md}`);
    }
    io.info(lines.join('\n'));
    return { code: EXIT.inconclusive, options, reportsDir };
  }
  if (checked !== undefined) for (const note of checked.notes) io.info(`preflight: ${note}`);
  // the receiver and the target (the embedded reference: a process of its own) start now, while
  // vitest starts in this process; its global setup takes them over (harness/run/global-setup.ts)
  const early = options.receiver === undefined && process.env['PAYGATE_TARGET_KIND'] !== 'receiver' ? await import('../run/global-setup.js') : undefined;
  early?.startTargetEarly(process.env);
  let unhandled: number;
  try {
    const { startVitest } = await import('vitest/node');
    const vitest = await startVitest(
      'test',
      filters,
      {
        root: ROOT,
        config: join(ROOT, CONFIG_FILE),
        run: true,
        watch: false,
        passWithNoTests: true,
        ...(namePattern !== undefined && { testNamePattern: namePattern }),
        ...(options.shard !== undefined && { shard: `${options.shard.index}/${options.shard.count}` }),
      },
      {},
      { stdout: vitestStream(io.info), stderr: vitestStream(io.info) },
    );
    unhandled = vitest.state.getUnhandledErrors().filter((e) => !isInconclusiveError(e as { code?: unknown })).length;
    await vitest.close();
  } finally {
    // stopped here when no global setup took them over (a run that ended before it)
    await early?.releaseEarlyTarget();
  }

  const report = await readVerdict(reportsDir, options, selection);
  if (report === undefined) {
    io.info('\npaygate-conformance: the run ended without a verdict (see the errors above): harness error.');
    return { code: EXIT.harness, options, reportsDir };
  }
  const rel = (path: string): string => displayPath(path, cwd);
  const { writeFailureFiles } = await import('./failure-files.js');
  const failureFiles = options.shard === undefined ? writeFailureFiles(report, options, reportsDir, rel) : new Map<string, string>();
  const { exitCodeFor } = await import('../report/verdict.js');
  let code = exitCodeFor(report);
  if (code === EXIT.pass && unhandled > 0) code = EXIT.harness;
  const noCheck = report.summary.checks === 0;
  if (noCheck) code = EXIT.harness;

  if (control.quiet !== true) {
    // commands that work where the user is: the bin's subcommands when installed, the npm scripts in a clone
    const dirFlag = reportsDir === resolve(cwd, 'reports') ? '' : ` --reports-dir ${shellQuote(rel(reportsDir))}`;
    const { fragmentPath } = await import('../report/verdict-reporter.js');
    const files: Record<string, string> =
      options.shard !== undefined
        ? {
            fragment: rel(fragmentPath(reportsDir, options.shard.index)),
            allure: rel(join(reportsDir, 'allure-results')),
            merge: `collect every shard's ${rel(reportsDir)}/ into one, then: ${commandFor('merge', { bare: dirFlag === '' })}${dirFlag}`,
          }
        : {
            conformance: rel(join(reportsDir, 'conformance.md')),
            json: rel(join(reportsDir, 'conformance.json')),
            junit: rel(join(reportsDir, 'junit.xml')),
            ...(options.har === true && { har: rel(join(reportsDir, 'exchanges.har')) }),
            ...(failureFiles.size > 0 && { failures: `${rel(join(reportsDir, 'failures'))}/ (one file per failing check: \`${commandFor('run')} replay FILE\`)` }),
            ...(!options.noAllure && {
              allure: `${rel(join(reportsDir, 'allure-results'))} (${commandFor('report', { bare: dirFlag === '' })}${dirFlag} → ${rel(join(reportsDir, 'allure-report', 'index.html'))}, one file)`,
            }),
          };
    out.result(renderSummary(report, { files, failureFiles: new Map([...failureFiles].map(([id, path]) => [id, rel(path)])), stream: options.json === true ? process.stderr : process.stdout }));
    if (options.writeBaseline !== undefined) {
      const { writeBaselineFile } = await import('./adoption-run.js');
      out.result(`\n${writeBaselineFile(options.writeBaseline, report)}`);
    }
    if (noCheck) {
      // a gate that ran nothing must not pass silently (no suites, a --grep that matched nothing…)
      io.info('\npaygate-conformance: no check ran (no test files or none matched --grep/--api/--shard): exit 3.');
    }
    if (options.json === true) io.json(JSON.stringify(summaryJson(report, { exitCode: code, reportsDir, failureFiles }), null, 2));
  }
  return { code, report, reportsDir, options, failureFiles };
}
