/**
 * Property runs in flight at once (`--concurrency`, issue 16).
 *
 * `fc.check` over an async property awaits one run before it draws the next, so a property of 8 runs
 * against a target 100 ms away waits 8 round trips per request of a run. The runs of a property
 * share no state (each has its own CheckRun, and the suites create what they act on), so they can be
 * in flight together. The values must be the ones `fc.check` would draw for the same seed, or the
 * concurrent run would test something else than the sequential one: `fc.sample` with the same seed
 * and numRuns draws exactly those (fast-check generates run i from the same seeded stream in both;
 * test/harness-concurrent-runs.test.ts keeps this true across upgrades).
 *
 * A concurrent phase only ever decides a PASS. When any run fails (or throws), its outcome is thrown
 * away and the caller runs the property the old way, one run at a time through `fc.check` with the
 * same seed: that run is the verdict, and it shrinks and prints the replay path as before. So
 * concurrency can never create a failure the sequential run would not report (a run disturbed by a
 * concurrent one is re-judged alone), and a failure keeps its shrunk counterexample and replay.
 *
 * Start order: the largest values first (e.g. the longest command sequences; {@link startOrder}),
 * ties in run order. fast-check draws its small values first (its bias grows with the run index), so
 * in run order the longest runs would start last and the phase would end with one or two of them
 * running alone; largest-first keeps the lanes evenly busy. Only the timing changes: the same values
 * run, results come back in run order, and a failure still hands the verdict to the sequential run.
 */
import fc from 'fast-check';
import { mapLimited } from './parallel.js';

/** What one run of a property left: whether it passed, and what it recorded. */
export interface RunOutcome<X> {
  passed: boolean;
  /** the run's own record (exchanges, warnings), merged by the caller in run order */
  result: X;
}

/**
 * Draws `numRuns` values as `fc.check(…, { seed, numRuns })` would, runs `runOne` on them with at
 * most `limit` in flight, and returns every outcome in run order, or `undefined` as soon as one run
 * failed or threw (the remaining runs are not started; those in flight are awaited so nothing
 * outlives the call).
 */
export async function runConcurrently<T, X>(
  arbitrary: fc.Arbitrary<T>,
  parameters: { seed: number; numRuns: number },
  limit: number,
  runOne: (value: T, index: number) => Promise<RunOutcome<X>>,
): Promise<X[] | undefined> {
  const values = fc.sample(arbitrary, { seed: parameters.seed, numRuns: parameters.numRuns });
  const results: X[] = new Array<X>(values.length);
  try {
    // a failing or thrown run (harness or suite error, a precondition) starts no further run; the
    // sequential run judges it
    await mapLimited(startOrder(values), limit, async (index) => {
      const outcome = await runOne(values[index] as T, index);
      if (!outcome.passed) throw NOT_PASSED;
      results[index] = outcome.result;
    });
  } catch {
    return undefined;
  }
  return results;
}

const NOT_PASSED = new Error('a concurrent run did not pass');

/**
 * Run indexes, largest value first, ties in run order. Size: the number of items of an iterable
 * (a command sequence prints nothing of its commands before it ran, so its printed form says
 * nothing; iterating it does not run it), otherwise the length of fast-check's printed form.
 */
export function startOrder(values: readonly unknown[]): number[] {
  const size = values.map(sizeOf);
  return values.map((_, i) => i).sort((a, b) => (size[b] as number) - (size[a] as number) || a - b);
}

function sizeOf(value: unknown): number {
  if (typeof value === 'object' && value !== null && Symbol.iterator in value) {
    let n = 0;
    for (const _ of value as Iterable<unknown>) n++;
    return n;
  }
  return fc.stringify(value).length;
}
