/**
 * `paygate-conformance replay FILE [--target URL]`: runs the check of a failure file
 * (reports/failures/<check-id>.json, harness/cli/failure-files.ts) again, alone, with the flags,
 * seed and fast-check path it failed with, and says whether it is FIXED or STILL FAILING.
 *
 * The target is the one configured now (environment, configuration file), or `--target URL`: the
 * base URL of the check's API (the receiver's URL for a receiver check). Credentials and headers
 * are never in the file: they come from the environment and configuration as for any run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXIT } from './exit-codes.js';
import { FAILURE_KIND } from './failure-files.js';
import type { FailureFile } from './failure-files.js';
import { UsageError } from './parse.js';
import type { RawValues } from './parse.js';
import { painter } from './style.js';
import { processIo, runCommand } from './run.js';
import type { ReportedCheck } from '../report/verdict.js';

export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'NOT JUDGED';

function readFailureFile(file: string): FailureFile {
  if (!existsSync(file)) throw new UsageError(`${file}: no such file (failure files are reports/failures/<check-id>.json)`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== FAILURE_KIND) throw new UsageError(`${file}: not a failure file of paygate-conformance`);
  return value as FailureFile;
}

/** The run's flags for the replay: the failing run's, its seed and path, this check only. */
export function replayArgs(failure: FailureFile, options: { reportsDir: string; config?: string; target?: string }): { argv: string[]; env: Record<string, string> } {
  const argv = [...failure.flags];
  const env: Record<string, string> = {};
  if (failure.seed !== null) argv.push('--seed', String(failure.seed));
  if (failure.path !== undefined) argv.push('--replay', failure.path);
  argv.push('--check', failure.check.id, '--reports-dir', options.reportsDir, '--no-allure');
  if (options.config !== undefined) argv.push('--config', options.config);
  if (options.target !== undefined) {
    const receiver = argv.indexOf('--receiver-url');
    if (receiver !== -1) argv[receiver + 1] = options.target;
    else if (failure.check.api === 'gateway') env['GATEWAY_BASE_URL'] = options.target;
    else if (failure.check.api === 'partner') env['PARTNER_BASE_URL'] = options.target;
    else throw new UsageError(`--target: the failure file does not say which API ${failure.check.id} tests`);
  }
  return { argv, env };
}

/** The check stopped on fast-check's "Unable to replay": the run its path starts from passes now. */
function pathGone(check: ReportedCheck): boolean {
  return check.state === 'failed' && check.failures.length === 0 && /Unable to replay/i.test(check.error ?? '');
}

function withoutPath(argv: readonly string[]): string[] {
  const i = argv.indexOf('--replay');
  return i === -1 ? [...argv] : [...argv.slice(0, i), ...argv.slice(i + 2)];
}

/** FIXED when the check passes now (warnings do not fail it unless the run was strict), STILL FAILING when it fails. */
export function replayVerdict(check: ReportedCheck | undefined): ReplayVerdict {
  if (check === undefined) return 'NOT JUDGED';
  if (check.state === 'failed') return 'STILL FAILING';
  if (check.state === 'passed' || check.state === 'warned') return 'FIXED';
  return 'NOT JUDGED';
}

export async function replayCommand(positionals: readonly string[], values: RawValues, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('replay takes one failure file: replay reports/failures/<check-id>.json');
  const file = resolve(positionals[0] ?? '');
  const failure = readFailureFile(file);
  const id = failure.check.id;
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  // beside the run's reports: reports/failures/x.json → reports/replays/x/
  const reportsDir = resolve(text('reports-dir') ?? join(dirname(dirname(file)), 'replays', id.replace(/[^A-Za-z0-9._-]+/g, '_')));
  const config = text('config');
  const target = text('target');
  const { argv, env: targetEnv } = replayArgs(failure, { reportsDir, ...(config !== undefined && { config }), ...(target !== undefined && { target }) });
  Object.assign(env, targetEnv);
  const paint = painter(process.stdout);
  process.stderr.write(`replay ${id}: ${failure.flags.join(' ')} --seed ${failure.seed ?? 'random'}${failure.path !== undefined ? ` --replay ${failure.path}` : ''}${target !== undefined ? ` against ${target}` : ''}\n`);
  if (failure.headers !== undefined) process.stderr.write(`the failing run sent the header(s) ${failure.headers.join(', ')}: they come from the configuration or --header flags of this run, not from the file\n`);
  let result = await runCommand(argv, env, { io: processIo, quiet: true });
  let check = result.report?.checks.find((c) => c.check === id);
  if (failure.path !== undefined && check !== undefined && pathGone(check)) {
    // fast-check follows the path from the failing run it starts at; when that run passes now there
    // is no path to follow: the same seed replays every run the property made, as when it failed
    process.stderr.write(`the failing case's path no longer fails; replaying ${id} with seed ${failure.seed ?? 'random'} alone\n`);
    result = await runCommand(withoutPath(argv), env, { io: processIo, quiet: true });
    check = result.report?.checks.find((c) => c.check === id);
  }
  const verdict = result.report === undefined ? 'NOT JUDGED' : replayVerdict(check);
  const was = failure.findings.map((f) => f.code);
  const now = check?.failures.map((f) => f.code) ?? [];
  const lines: string[] = [];
  if (verdict === 'FIXED') lines.push(`${paint(['bold', 'green'], 'FIXED')}: ${id} passes now (it failed with ${[...new Set(was)].join(', ')})`);
  else if (verdict === 'STILL FAILING') {
    const same = now.filter((code) => was.includes(code));
    lines.push(`${paint(['bold', 'red'], 'STILL FAILING')}: ${id}${same.length > 0 ? ` (${[...new Set(same)].join(', ')} again)` : now.length > 0 ? ` (now ${[...new Set(now)].join(', ')}; it failed with ${[...new Set(was)].join(', ')})` : ''}`);
    for (const f of check?.failures ?? []) lines.push(`  ✗ ${f.title}: expected ${f.expected}; received ${f.actual}`);
  } else {
    const why = check?.notRun ?? check?.inconclusive ?? check?.error ?? (result.report === undefined ? 'the run ended without a verdict' : 'the check did not run');
    lines.push(`${paint(['bold', 'yellow'], 'NOT JUDGED')}: ${id}: ${why}`);
  }
  if (result.reportsDir !== undefined) lines.push(`reports of the replay: ${result.reportsDir}`);
  process.stdout.write(`${values['json'] === true ? JSON.stringify({ check: id, verdict, findings: check?.failures ?? [], reportsDir: result.reportsDir }, null, 2) : lines.join('\n')}\n`);
  if (verdict === 'FIXED') return EXIT.pass;
  if (verdict === 'STILL FAILING') return EXIT.failed;
  return result.code === EXIT.usage || result.code === EXIT.harness ? result.code : EXIT.inconclusive;
}
