/**
 * The test Stryker's command runner runs for each mutant, in its sandbox (the mutated reference):
 * the quick profile through the CLI, the API the mutant belongs to only, no Allure, with the
 * embedded reference in its default personality and, when that passes, in the alt one (the code of
 * the choices the contract leaves open runs under one of the two). Stryker activates the mutant
 * through __STRYKER_ACTIVE_MUTANT__, which the CLI's embedded reference inherits.
 *
 *   tsx test/mutation/command.ts --api gateway|partner|both --seed N
 *
 * Exit 0: every run passed (the mutant survived). Exit 1: a run ended otherwise (killed), with the
 * CLI's exit code and the failing checks printed (Stryker keeps the output as the mutant's status
 * reason): 1 a check failed, 3 the suite or the reference broke, 4 inconclusive (the reference no
 * longer answers). Each makes a CI gate fail, so each kills; the report counts them apart.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Verdict {
  failures?: { check?: string; requirements?: string[] }[];
}

/** What a failed run says about why: the failing checks and their requirements, or the exit code. */
export function killedBy(exitCode: number | null, reportText: string | undefined): string {
  if (reportText !== undefined) {
    try {
      const report = JSON.parse(reportText) as Verdict;
      const named = [...new Set((report.failures ?? []).map((f) => `${f.check ?? '?'} [${(f.requirements ?? []).join(', ')}]`))];
      if (named.length > 0) return named.slice(0, 5).join('; ') + (named.length > 5 ? `; … ${named.length - 5} more` : '');
    } catch {
      // fall through: a broken report says the run broke
    }
  }
  return `exit ${exitCode ?? 'signal'} (no failing check in conformance.json: a harness error, or the reference did not start)`;
}

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

function main(args: readonly string[]): number {
  const api = flag(args, '--api') ?? 'both';
  const seed = flag(args, '--seed') ?? '1';
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const dir = mkdtempSync(join(tmpdir(), 'paygate-mutant-'));
  try {
    for (const personality of ['default', 'alt']) {
      const reports = join(dir, personality);
      const run = spawnSync(process.execPath, [tsx, 'harness/cli/main.ts', '--api', api, '--seed', seed, '--no-allure', '--no-preflight', '--personality', personality, '--reports-dir', reports], {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      });
      if (run.status === 0) continue;
      let report: string | undefined;
      try {
        report = readFileSync(join(reports, 'conformance.json'), 'utf8');
      } catch {
        report = undefined;
      }
      console.log(`killed (${personality} personality, exit ${run.status ?? run.signal ?? '?'}): ${killedBy(run.status, report)}`);
      if (report === undefined) console.log((run.stderr ?? '').slice(-1500));
      return 1;
    }
    console.log('survived (default and alt personalities)');
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && /mutation[\\/]command\.[jt]s$/.test(process.argv[1])) process.exit(main(process.argv.slice(2)));
