/**
 * The flags a repository adopting the gate uses around a run (where reports go, accepted
 * deviations, run history). Parsed apart from harness/cli/args.ts (the run's own flags): main.ts
 * takes these out of argv first and hands the rest to parseArgs.
 */
import { resolve } from 'node:path';
import { UsageError } from './args.js';

export interface AdoptionOptions {
  /** absolute; default ./reports of the working directory (or PAYGATE_REPORTS_DIR) */
  reportsDir?: string;
  /** YAML of accepted deviations (harness/report/baseline.ts) */
  baseline?: string;
  /** write a baseline accepting every finding of this run */
  writeBaseline?: string;
  /** JSON-lines history file (harness/report/history.ts) */
  history?: string;
}

export const ADOPTION_FLAGS: readonly { flag: string; value: string; help: string; key: keyof AdoptionOptions }[] = [
  { flag: '--reports-dir', value: 'DIR', key: 'reportsDir', help: 'where every report goes (default ./reports of the working directory; also PAYGATE_REPORTS_DIR)' },
  { flag: '--baseline', value: 'FILE', key: 'baseline', help: 'YAML of accepted deviations (check or requirement, finding code, reason, optional expires): the run fails only on findings not in it; stale or expired entries are reported (and fail under --strict)' },
  { flag: '--write-baseline', value: 'FILE', key: 'writeBaseline', help: "write a baseline accepting every finding of this run (a team adopting the gate starts from it; fill in the reasons)" },
  { flag: '--history', value: 'FILE', key: 'history', help: 'append this run to a JSON-lines history; the reports name requirements whose verdict changed since the last run on the same target and profile, and checks whose outcome changed and changed back on the same seed (flaky)' },
];

/** Takes the adoption flags out of argv (paths resolved against cwd); returns the rest untouched. */
export function extractAdoptionArgs(argv: readonly string[], cwd: string = process.cwd()): { rest: string[]; options: AdoptionOptions } {
  const rest: string[] = [];
  const options: AdoptionOptions = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const spec = ADOPTION_FLAGS.find((f) => f.flag === name);
    if (spec === undefined) {
      rest.push(arg);
      continue;
    }
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`);
      value = next;
      i += 1;
    }
    if (value.trim() === '') throw new UsageError(`${name} needs a non-empty path`);
    if (options[spec.key] !== undefined) throw new UsageError(`${name} given twice`);
    options[spec.key] = resolve(cwd, value);
  }
  return { rest, options };
}

export function adoptionHelpLines(): string[] {
  return ADOPTION_FLAGS.map((f) => `  ${`${f.flag} ${f.value}`.padEnd(30)} ${f.help}`);
}
