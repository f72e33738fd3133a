/**
 * `npm run conformance -- [flags]` / `npx paygate-conformance [flags]`.
 *
 * Validates flags and the target configuration, hands the options to the test workers through
 * PAYGATE_* environment variables, runs vitest programmatically with vitest.conformance.config.ts,
 * then prints a summary and exits: 0 no check failed; 1 a check failed (or warned, with --strict);
 * 2 bad flags/configuration; 3 the suite itself broke. Not-run checks never fail.
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
import { buildConformance, exitCodeFor } from '../report/verdict.js';
import type { ConformanceReport } from '../report/verdict.js';
import { fragmentPath, loadCatalogue, toolVersion } from '../report/verdict-reporter.js';
import type { VerdictFragment } from '../report/verdict-reporter.js';
import { isEmbeddedTarget } from '../config/target.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONFIG_FILE = 'vitest.conformance.config.ts';

function describeTarget(env: NodeJS.ProcessEnv): string {
  const gateway = env['GATEWAY_BASE_URL'];
  const partner = env['PARTNER_BASE_URL'];
  if (isEmbeddedTarget(env)) return 'embedded reference sandbox (started for this run)';
  return [gateway ? `gateway ${gateway}` : 'gateway not configured', partner ? `partner ${partner}` : 'partner not configured'].join(', ');
}

function header(options: CliOptions, seed: number, env: NodeJS.ProcessEnv): string {
  const parts = [`paygate-conformance ${toolVersion()}`, `profile ${options.profile}`, `api ${options.api}`, `seed ${seed}`];
  const rps = effectiveMaxRps(options);
  if (rps !== undefined) parts.push(`max ${rps} req/s`);
  if (options.runs !== undefined) parts.push(`runs ${options.runs}`);
  if (options.strict) parts.push('strict');
  if (env['PAYGATE_CONCURRENCY'] !== undefined) parts.push(`concurrency ${env['PAYGATE_CONCURRENCY']}`);
  if (options.shard !== undefined) parts.push(`shard ${options.shard.index}/${options.shard.count}`);
  return `${parts.join(' · ')}\ntarget: ${describeTarget(env)}${options.seed === undefined ? `\n(random seed; replay this run with --seed ${seed})` : ''}`;
}

/** Removes the previous run's outputs (a sharded run only removes its own fragment). */
function cleanOutputs(reportsDir: string, options: CliOptions): void {
  if (options.shard !== undefined) {
    rmSync(fragmentPath(reportsDir, options.shard.index), { force: true });
    return;
  }
  for (const name of ['allure-results', 'allure-report', 'conformance.json', 'conformance.md', 'junit.xml', 'verdict-fragments']) {
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

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`paygate-conformance: ${error.message}\nRun with --help for the flags and environment variables.`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    console.log(helpText());
    return 0;
  }
  if (options.version) {
    console.log(toolVersion());
    return 0;
  }
  const problems = checkTargetSafety(options, env);
  if (problems.length > 0) {
    console.error(['paygate-conformance: refusing to start:', ...problems.map((p) => `  - ${p}`)].join('\n'));
    return 2;
  }

  const configProblem = await checkTargetConfig(env);
  if (configProblem !== undefined) {
    console.error(`paygate-conformance: refusing to start: ${configProblem}`);
    return 2;
  }

  const seed = options.seed ?? randomSeed();
  const remote = !isEmbeddedTarget(env);
  const exported = workerEnv(options, seed, remote);
  Object.assign(env, exported);
  if (env !== process.env) Object.assign(process.env, exported);
  const reportsDir = resolve(ROOT, env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  process.env['PAYGATE_REPORTS_DIR'] = reportsDir;
  console.log(header(options, seed, env));

  const filters = apiFilters(options.api);
  if (options.dryRun) {
    console.log(
      [
        'dry run: nothing started.',
        `vitest config: ${join(ROOT, CONFIG_FILE)}`,
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
  const unhandled = vitest.state.getUnhandledErrors().length;

  const report = await readVerdict(reportsDir, options);
  if (report === undefined) {
    console.error('\npaygate-conformance: the run ended without a verdict (see the errors above): harness error.');
    return 3;
  }
  const rel = (path: string): string => {
    const r = relative(process.cwd(), path);
    return r === '' || r.startsWith('..') ? path : r;
  };
  const files: Record<string, string> =
    options.shard !== undefined
      ? { fragment: rel(fragmentPath(reportsDir, options.shard.index)), allure: rel(join(reportsDir, 'allure-results')) }
      : {
          'conformance': rel(join(reportsDir, 'conformance.md')),
          'json': rel(join(reportsDir, 'conformance.json')),
          'junit': rel(join(reportsDir, 'junit.xml')),
          'allure': `${rel(join(reportsDir, 'allure-results'))} (npm run report → ${rel(join(reportsDir, 'allure-report', 'index.html'))})`,
        };
  console.log(renderSummary(report, { files }));
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
