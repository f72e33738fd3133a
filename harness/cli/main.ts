/**
 * `npm run conformance -- [flags]` / `npx paygate-conformance [flags]`.
 *
 * Validates flags and the target configuration, hands the options to the test workers through
 * PAYGATE_* environment variables, runs vitest programmatically with vitest.conformance.config.ts,
 * then prints a summary and exits: 0 no check failed; 1 a check failed (or warned, with --strict);
 * 2 bad flags/configuration; 3 the suite itself broke; 4 inconclusive (the preflight found the
 * target untestable from here, or checks could not be judged: network, TLS, proxy, credentials).
 * Not-run checks never fail.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  UsageError,
  apiFilters,
  checkTargetSafety,
  effectiveMaxRps,
  effectiveWorkers,
  grepPattern,
  helpText,
  parseArgs,
  randomSeed,
  workerEnv,
} from './args.js';
import type { CliOptions } from './args.js';
import { renderSummary } from './summary.js';
import { EXIT_INCONCLUSIVE, buildConformance, exitCodeFor } from '../report/verdict.js';
import type { ConformanceReport } from '../report/verdict.js';
import { fragmentPath, loadCatalogue, toolVersion } from '../report/verdict-reporter.js';
import type { VerdictFragment } from '../report/verdict-reporter.js';
import { isEmbeddedTarget } from '../config/target.js';
import { receiverConfigProblems } from '../config/receiver-target.js';
import { RECEIVER_FILTERS } from './args.js';
import { describeProxy, isInconclusiveError, proxySettings } from '../http/network.js';
import { describePlan, planRun } from './plan.js';
import { writePreflightReport } from '../report/preflight-report.js';
import { adoptionHelpLines, extractAdoptionArgs } from './adoption-args.js';
import type { AdoptionOptions } from './adoption-args.js';
import { adoptionEnv, checkAdoption, writeBaselineFile } from './adoption-run.js';
import { evidenceEnv, evidenceHelpLines, extractEvidenceArgs } from './evidence-args.js';
import type { EvidenceOptions } from './evidence-args.js';
import { HAR_FILE, spoolDir } from '../report/har.js';
import { commandFor } from './invocation.js';
import { shellQuote } from '../http/curl.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONFIG_FILE = 'vitest.conformance.config.ts';

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

function header(options: CliOptions, seed: number, env: NodeJS.ProcessEnv): string {
  const parts = [`paygate-conformance ${toolVersion()}`, `profile ${options.profile}`, options.receiver !== undefined ? `receiver ${options.receiver.scheme}` : `api ${options.api}`, `seed ${seed}`];
  const rps = effectiveMaxRps(options);
  if (rps !== undefined) parts.push(`max ${rps} req/s`);
  if (options.runs !== undefined) parts.push(`runs ${options.runs}`);
  if (options.strict) parts.push('strict');
  if (env['PAYGATE_CONCURRENCY'] !== undefined) parts.push(`concurrency ${env['PAYGATE_CONCURRENCY']}`);
  if (options.shard !== undefined) parts.push(`shard ${options.shard.index}/${options.shard.count}`);
  const lines = [parts.join(' · '), `target: ${describeTarget(env, options.api)}`];
  const proxy = describeProxy(proxySettings(env));
  if (proxy !== undefined && !isEmbeddedTarget(env)) lines.push(`proxy: ${proxy}`);
  // the cost up front, always under a rate cap (certify): how many requests, how long
  const plan = planFor(options, env);
  if (plan !== undefined && (rps !== undefined || options.profile !== 'quick')) lines.push(describePlan(plan));
  if (options.seed === undefined) lines.push(`(random seed; replay this run with --seed ${seed})`);
  return lines.join('\n');
}

/** The run's plan (harness/cli/plan.ts); none for fixture suites (PAYGATE_INCLUDE: the project's own tests). */
function planFor(options: CliOptions, env: NodeJS.ProcessEnv): ReturnType<typeof planRun> {
  return env['PAYGATE_INCLUDE'] === undefined ? planRun(options) : undefined;
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
function cleanOutputs(reportsDir: string, options: CliOptions): void {
  if (options.shard !== undefined) {
    rmSync(fragmentPath(reportsDir, options.shard.index), { force: true });
    return;
  }
  for (const name of ['allure-results', 'allure-report', 'conformance.json', 'conformance.md', 'junit.xml', 'verdict-fragments', HAR_FILE, spoolDir(HAR_FILE)]) {
    rmSync(join(reportsDir, name), { recursive: true, force: true });
  }
}

async function readVerdict(reportsDir: string, options: CliOptions): Promise<ConformanceReport | undefined> {
  if (options.shard !== undefined) {
    const path = fragmentPath(reportsDir, options.shard.index);
    if (!existsSync(path)) return undefined;
    const fragment = JSON.parse(readFileSync(path, 'utf8')) as VerdictFragment;
    const { catalogue } = await loadCatalogue();
    return buildConformance(fragment.run, fragment.checks, catalogue);
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

function adoptionHelp(): string {
  return [
    'Adoption flags:',
    ...adoptionHelpLines(),
    '',
    'Evidence flags:',
    ...evidenceHelpLines(),
    '',
    'Subcommands (installed package: npx paygate-conformance <subcommand>):',
    '  (none) | run [flags]            run the suite (the flags above)',
    '  report [--reports-dir DIR]      build DIR/allure-report/index.html, one self-contained file that opens from file://',
    '  merge [--reports-dir DIR] [--baseline FILE] [--history FILE]',
    "                                  merge sharded verdicts (DIR/verdict-fragments/shard-*.json) into DIR/conformance.{json,md};",
    '                                  missing, duplicated or mismatched shards are refused unless --allow-partial (verdict PARTIAL)',
    '  certify --implementation-name N --implementation-version V [flags]',
    '                                  a certify run and its bundle DIR/certificate/ (certificate, HAR, reports, MANIFEST.sha256)',
    '  verify [DIR]                    check a certification bundle (default reports/certificate); exit 1 naming any altered file',
    '  reference                       start the embedded reference sandbox alone and print how to point a client at it',
  ].join('\n');
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: CliOptions;
  let adoption: AdoptionOptions;
  let evidence: EvidenceOptions;
  try {
    const extracted = extractAdoptionArgs(argv);
    adoption = extracted.options;
    const kept = extractEvidenceArgs(extracted.rest);
    evidence = kept.options;
    options = parseArgs(kept.rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`paygate-conformance: ${error.message}\nRun with --help for the flags and environment variables.`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    console.log(`${helpText()}\n\n${adoptionHelp()}`);
    return 0;
  }
  if (options.version) {
    console.log(toolVersion());
    return 0;
  }
  const problems = checkTargetSafety(options, env);
  if (options.personality !== undefined && !isEmbeddedTarget(env)) {
    problems.push('--personality chooses the embedded reference\'s personality, but GATEWAY_BASE_URL/PARTNER_BASE_URL name another target');
  }
  if (problems.length > 0) {
    console.error(['paygate-conformance: refusing to start:', ...problems.map((p) => `  - ${p}`)].join('\n'));
    return 2;
  }

  if (options.receiver !== undefined) {
    const receiverProblems = receiverConfigProblems(options.receiver.url, options.receiver.scheme, env);
    if (receiverProblems.length > 0) {
      console.error(['paygate-conformance: refusing to start:', ...receiverProblems.map((p) => `  - ${p}`)].join('\n'));
      return 2;
    }
  }
  const configProblem = options.receiver !== undefined ? undefined : await checkTargetConfig(env);
  if (configProblem !== undefined) {
    console.error(`paygate-conformance: refusing to start: ${configProblem}`);
    return 2;
  }
  const adoptionProblem = checkAdoption(adoption);
  if (adoptionProblem !== undefined) {
    console.error(`paygate-conformance: refusing to start: ${adoptionProblem}`);
    return 2;
  }

  const seed = options.seed ?? randomSeed();
  const remote = !isEmbeddedTarget(env);
  const exported = { ...workerEnv(options, seed, remote), ...adoptionEnv(adoption) };
  const plan = planFor(options, env);
  if (plan !== undefined) {
    exported['PAYGATE_PLANNED_CHECKS'] = String(plan.checks);
    exported['PAYGATE_PLANNED_REQUESTS'] = String(plan.requests);
  }
  Object.assign(env, exported);
  if (env !== process.env) Object.assign(process.env, exported);
  for (const warning of flagWarnings(options)) console.error(`paygate-conformance: warning: ${warning}`);
  // the user's working directory, not the package's: an installed package must not write into node_modules
  const reportsDir = resolve(process.cwd(), adoption.reportsDir ?? env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  process.env['PAYGATE_REPORTS_DIR'] = reportsDir;
  const evidenceVars = evidenceEnv(evidence, join(reportsDir, HAR_FILE));
  Object.assign(exported, evidenceVars);
  Object.assign(env, evidenceVars);
  if (env !== process.env) Object.assign(process.env, evidenceVars);
  console.log(header(options, seed, env));

  const filters = options.receiver !== undefined ? [...RECEIVER_FILTERS] : apiFilters(options.api);
  if (options.dryRun) {
    console.log(
      [
        'dry run: nothing started.',
        `vitest config: ${join(ROOT, CONFIG_FILE)}`,
        `reports: ${reportsDir}`,
        `test filters: ${filters.length > 0 ? filters.join(' ') : '(all suites)'}`,
        `test name pattern: ${options.grep !== undefined ? grepPattern(options.grep).source : '(none)'}`,
        `workers: ${effectiveWorkers(options, remote) ?? 'vitest default'}`,
        'worker environment:',
        ...Object.entries(exported).map(([k, v]) => `  ${k}=${v}`),
      ].join('\n'),
    );
    return 0;
  }

  cleanOutputs(reportsDir, options);
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
      const written = await writePreflightReport(reportsDir, checked.problems, startedAt);
      lines.push(`reports: ${written.json} (verdict "inconclusive"), ${written.md}`);
    }
    console.error(lines.join('\n'));
    return EXIT_INCONCLUSIVE;
  }
  if (checked !== undefined) for (const note of checked.notes) console.log(`preflight: ${note}`);
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', filters, {
    root: ROOT,
    config: join(ROOT, CONFIG_FILE),
    run: true,
    watch: false,
    passWithNoTests: true,
    ...(options.grep !== undefined && { testNamePattern: grepPattern(options.grep) }),
    ...(options.shard !== undefined && { shard: `${options.shard.index}/${options.shard.count}` }),
  });
  const unhandled = vitest.state.getUnhandledErrors().filter((e) => !isInconclusiveError(e as { code?: unknown })).length;

  const report = await readVerdict(reportsDir, options);
  if (report === undefined) {
    console.error('\npaygate-conformance: the run ended without a verdict (see the errors above): harness error.');
    return 3;
  }
  const rel = (path: string): string => {
    const r = relative(process.cwd(), path);
    return r === '' || r.startsWith('..') ? path : r;
  };
  // commands that work where the user is: the bin's subcommands when installed, the npm scripts in a clone
  const dirFlag = reportsDir === resolve(process.cwd(), 'reports') ? '' : ` --reports-dir ${shellQuote(rel(reportsDir))}`;
  const files: Record<string, string> =
    options.shard !== undefined
      ? {
          fragment: rel(fragmentPath(reportsDir, options.shard.index)),
          allure: rel(join(reportsDir, 'allure-results')),
          merge: `collect every shard's ${rel(reportsDir)}/ into one, then: ${commandFor('merge', { bare: dirFlag === '' })}${dirFlag}`,
        }
      : {
          'conformance': rel(join(reportsDir, 'conformance.md')),
          'json': rel(join(reportsDir, 'conformance.json')),
          'junit': rel(join(reportsDir, 'junit.xml')),
          ...(evidence.har === true && { 'har': rel(join(reportsDir, HAR_FILE)) }),
          ...(!options.noAllure && {
            'allure': `${rel(join(reportsDir, 'allure-results'))} (${commandFor('report', { bare: dirFlag === '' })}${dirFlag} → ${rel(join(reportsDir, 'allure-report', 'index.html'))}, one file)`,
          }),
        };
  console.log(renderSummary(report, { files }));
  if (adoption.writeBaseline !== undefined) console.log(`\n${writeBaselineFile(adoption.writeBaseline, report)}`);
  if (report.summary.checks === 0) {
    // a gate that ran nothing must not pass silently (no suites, a --grep that matched nothing…)
    console.error('\npaygate-conformance: no check ran (no test files or none matched --grep/--api/--shard): exit 3.');
    return 3;
  }
  const code = exitCodeFor(report);
  if (code === 0 && unhandled > 0) return 3;
  return code;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('paygate-conformance: harness error:', error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(3);
    },
  );
}
