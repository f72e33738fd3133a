/**
 * Soak: the whole quick profile against the correct reference, many times with different seeds
 * (`npm run soak`, i.e. `tsx test/fault-matrix/soak.ts`). Prints each run, the pass count and every
 * failure with the seed that replays it (`npm run conformance -- --seed N --personality P`). Exit 0
 * only if every run passed (no failure, no harness error; warnings allowed).
 * `--mix` gives each run its own mix of the reference's free choices: run seed N runs against
 * `mix:N` (reference/DECISIONS.md, "Personalities"); a failing run prints what its mix drew.
 *
 * `--keep choice,choice` keeps those choices at their default (REFERENCE_PERSONALITY_KEEP): to see
 * what else a set of mixes finds once one choice is known to trip a check.
 *
 *   npm run soak -- [--runs 20] [--concurrency 2] [--seed BASE] [--profile quick|full] [--chaos] [--personality default|alt|mix:SEED | --mix] [--keep choice,…] [--workers 1]
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describePersonality, parseKeepDefault, parsePersonality, personality, type PersonalitySpec } from '../../reference/personality.js';
import { describeRun, runCorrect } from './correct.js';
import type { CorrectRunSummary } from './correct.js';
import { ROOT, inParallel } from './runner.js';

export interface SoakOptions {
  runs: number;
  concurrency: number;
  baseSeed: number;
  profile: 'quick' | 'full';
  chaos: boolean;
  /** the embedded reference's personality (REFERENCE_PERSONALITY), or `mix`: each run against the mix of its own seed */
  personality: PersonalitySpec | 'mix';
  /** worker processes per run (a chaos run mostly waits: more workers than cores keep it short) */
  workers: number;
  /** choices kept at their default value (REFERENCE_PERSONALITY_KEEP) */
  keep: string[];
}

function parse(argv: readonly string[]): SoakOptions {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const int = (name: string, fallback: number): number => {
    const text = value(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw new Error(`soak: ${name} expects an integer, got "${text}"`);
    return n;
  };
  const profile = value('--profile') ?? 'quick';
  if (profile !== 'quick' && profile !== 'full') throw new Error(`soak: --profile must be quick or full, got "${profile}"`);
  const named = value('--personality');
  if (named !== undefined && argv.includes('--mix')) throw new Error('soak: --mix draws a mix per run; it cannot go with --personality');
  // an unknown choice name stops the soak before any run
  personality('default', parseKeepDefault(value('--keep')));
  let chosen: SoakOptions['personality'] = 'mix';
  if (!argv.includes('--mix')) {
    try {
      chosen = parsePersonality(named ?? 'default');
    } catch {
      throw new Error(`soak: --personality must be default, alt or mix:SEED, got "${named ?? ''}"`);
    }
  }
  return {
    runs: Math.max(1, int('--runs', 20)),
    concurrency: Math.max(1, int('--concurrency', 2)),
    baseSeed: int('--seed', Math.floor(Math.random() * 1_000_000_000)),
    profile,
    chaos: argv.includes('--chaos'),
    personality: chosen,
    workers: Math.max(1, int('--workers', 1)),
    keep: parseKeepDefault(value('--keep')),
  };
}

/** The personality a run of the soak starts its reference with: `mix:<run seed>` under --mix. */
export function personalityOfRun(options: Pick<SoakOptions, 'personality'>, seed: number): PersonalitySpec {
  return options.personality === 'mix' ? `mix:${seed}` : options.personality;
}

export async function soak(options: SoakOptions, log: (line: string) => void = console.log): Promise<CorrectRunSummary[]> {
  const seeds = Array.from({ length: options.runs }, (_, i) => (options.baseSeed + i * 7_919) % 2_147_483_647);
  const personalityText = options.personality === 'mix' ? 'a mix per run (mix:<seed>)' : options.personality;
  const keep = options.keep.length > 0 ? `REFERENCE_PERSONALITY_KEEP=${options.keep.join(',')} ` : '';
  log(`soak: ${options.runs} runs (${options.profile}${options.chaos ? ', chaos' : ''}, personality ${personalityText}${keep ? `, ${keep.trim()}` : ''}), ${options.concurrency} at a time, seeds ${seeds[0]}…`);
  const started = performance.now();
  let done = 0;
  const runs = await inParallel(seeds, options.concurrency, async (seed, index) => {
    const run = await runCorrect({
      seed,
      profile: options.profile,
      workers: options.workers,
      label: `soak-${index + 1}`,
      reportsDir: join(ROOT, 'reports', 'self-test', 'soak', `run-${index + 1}`),
      // a chaos run waits on injected delays and 5xx retries: longer than a plain quick run, more so on a loaded machine
      timeoutMs: options.profile === 'full' ? 20 * 60_000 : options.chaos ? 12 * 60_000 : 5 * 60_000,
      env: { REFERENCE_PERSONALITY: personalityOfRun(options, seed), ...(options.keep.length > 0 && { REFERENCE_PERSONALITY_KEEP: options.keep.join(',') }), ...(options.chaos && { REFERENCE_CHAOS: '1' }) },
    });
    done += 1;
    const ok = run.failures.length === 0 && run.errors.length === 0;
    log(`[${done}/${options.runs}] seed ${seed}, ${personalityOfRun(options, seed)}: ${ok ? 'PASS' : 'FAIL'} (${run.checks} checks, ${run.failures.length} failures, ${run.errors.length} errors, ${run.warnings.length} warnings, ${(run.durationMs / 1000).toFixed(1)} s)`);
    return run;
  });
  const failed = runs.filter((r) => r.failures.length > 0 || r.errors.length > 0);
  log('');
  log(`soak: ${runs.length - failed.length}/${runs.length} runs passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const run of failed) {
    const spec = personalityOfRun(options, run.seed);
    const mixed = spec.startsWith('mix:') ? `\n  ${describePersonality(personality(spec, options.keep))}` : '';
    log(`${describeRun(run)}\n  replay: ${options.chaos ? 'REFERENCE_CHAOS=1 ' : ''}${keep}npm run conformance -- --seed ${run.seed} --personality ${spec}${mixed}`);
  }
  const warnings = new Set(runs.flatMap((r) => r.warnings));
  if (warnings.size > 0) log(`distinct warnings over all runs (allowed): ${warnings.size}\n${[...warnings].map((w) => `  ${w}`).join('\n')}`);
  return runs;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  let options: SoakOptions;
  try {
    options = parse(process.argv.slice(2).filter((a) => a !== '--'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  soak(options).then(
    (runs) => process.exit(runs.every((r) => r.failures.length === 0 && r.errors.length === 0) ? 0 : 1),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(3);
    },
  );
}
