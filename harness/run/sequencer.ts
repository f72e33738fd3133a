/**
 * The order in which the conformance run hands its files to the workers (vitest `sequence.sequencer`).
 *
 * Checks of one file run one after another; files run side by side, one per worker. Against a remote
 * target the run ends when the longest chain of round trips ends, so the files whose checks chain
 * the most round trips start first, on the first workers to be ready, and the short ones fill the
 * gaps (longest-processing-time-first scheduling). Vitest's own order (the last run's durations in
 * its cache, else the file size) depends on what ran last on this machine, at which latency: a run
 * at 0 ms or a `--grep` run reorders the next one, and a fresh checkout starts the large files
 * first, whatever they wait for. A fixed order also starts two runs of one seed in the same way
 * (which checks run together still depends on timing).
 *
 * The weights are the seconds each file took at 200 ms per round trip, the latency the bench's
 * goal is set at (`npx tsx bench/latency-one.ts 200 <dir>`, conformance.json: the sum of its
 * checks' durationMs, quick profile, seed 1, the mean of two runs at load ~4). At 200 ms some files
 * weigh far more than at 100 ms (gateway isolation 2.5 → 9.7 s: its deliveries wait per round
 * trip): ordered by the 100 ms figures it started fourteenth and ended the run alone. At 0 ms the
 * order changes little (the files are short). They only order the files, so they need refreshing
 * only when a file's share changes a lot. A file not listed
 * goes after the listed ones, in vitest's order. In full and certify the timer files come first:
 * they wait for minutes (token and charge expiry, redelivery backoff), so their waits overlap the
 * rest of the run.
 */
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/** seconds at 200 ms per round trip (see the module comment) */
export const FILE_WEIGHTS: Readonly<Record<string, number>> = {
  'suites/partner/fuzz-model.test.ts': 13.7,
  'suites/gateway/fuzz-negative.test.ts': 12.7,
  'suites/gateway/pix-transfers.test.ts': 11.4,
  'suites/gateway/fuzz-model.test.ts': 10.2,
  'suites/gateway/isolation.test.ts': 9.7,
  'suites/gateway/pix-charges.test.ts': 8.5,
  'suites/partner/keys-environments.test.ts': 7.8,
  'suites/gateway/card.test.ts': 6.8,
  'suites/gateway/webhooks.test.ts': 6.3,
  'suites/partner/isolation.test.ts': 6.3,
  'suites/partner/atomicity.test.ts': 6.2,
  'suites/partner/fuzz-negative.test.ts': 5.4,
  'suites/partner/list.test.ts': 5.3,
  'suites/gateway/separation.test.ts': 5.2,
  // its three checks wait side by side (`waits`): the file's span, not their sum (11.6 s)
  'suites/gateway/atomicity.test.ts': 5.1,
  'suites/partner/idempotency.test.ts': 3.6,
  'suites/partner/finance.test.ts': 3.1,
  'suites/gateway/auth.test.ts': 2.7,
  'suites/gateway/errors.test.ts': 2.7,
  'suites/partner/charges.test.ts': 2.7,
  'suites/partner/transitions.test.ts': 2.7,
  'suites/gateway/echo.test.ts': 2.3,
  'suites/gateway/statuses.test.ts': 2.3,
  'suites/partner/errors.test.ts': 1.8,
  'suites/gateway/balance.test.ts': 1.6,
  'suites/partner/webhooks.test.ts': 1.6,
  'suites/partner/statuses.test.ts': 1.5,
  'suites/partner/states.test.ts': 1.3,
  'suites/gateway/events.test.ts': 0.9,
  'suites/partner/echo.test.ts': 0.8,
  'suites/gateway/general.test.ts': 0.7,
  'suites/partner/events.test.ts': 0.7,
  'suites/gateway/idempotency.test.ts': 0.4,
};

/** files holding `tier: 'timer'` checks (full and certify wait minutes in them) */
export const TIMER_FILES: readonly string[] = ['suites/gateway/auth.test.ts', 'suites/partner/isolation.test.ts', 'suites/partner/transitions.test.ts', 'suites/partner/webhooks-redelivery.test.ts'];

/**
 * Orders `files` (paths relative to the project root, in vitest's order): timer files first when
 * `timed`, then by weight (heaviest first, equal weights by path), then the unlisted ones in the
 * order given.
 */
export function orderFiles<T>(files: readonly T[], pathOf: (file: T) => string, timed: boolean): T[] {
  const rank = (file: T): [number, number, string] => {
    const path = pathOf(file);
    const weight = FILE_WEIGHTS[path];
    return [timed && TIMER_FILES.includes(path) ? 0 : 1, -(weight ?? -1), weight === undefined ? '' : path];
  };
  // Array.prototype.sort is stable: unlisted files (equal ranks) keep vitest's order
  return [...files].sort((a, b) => {
    const [ta, wa, pa] = rank(a);
    const [tb, wb, pb] = rank(b);
    return ta - tb || wa - wb || pa.localeCompare(pb);
  });
}

export default class ConformanceSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const profile = process.env['PAYGATE_PROFILE'] ?? 'quick';
    // the built package runs the compiled suites (.js): the weights name the sources
    const pathOf = (f: TestSpecification): string => relative(root, f.moduleId).split('\\').join('/').replace(/\.js$/, '.ts');
    return orderFiles(await super.sort(files), pathOf, profile === 'full' || profile === 'certify');
  }
}
