/**
 * Independent requests of one check in flight together (issue 16: against a target 100 ms away, a
 * check that sends 60 independent requests one after another waits 6 s).
 *
 * `mapLimited` runs `fn` over the items with at most `limit` in flight and returns the results in
 * item order, so a check that judges the results after the call (or records in `fn` judgements
 * that do not depend on each other) sends and judges the same things whatever the limit: only the
 * timing differs. With a limit of 1 it is a plain loop.
 *
 * A throw stops new items from starting; those in flight are awaited (nothing they record outlives
 * the call), then the first error is thrown.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: width }, lane));
  if (failure !== undefined) throw failure.error;
  return results;
}

/**
 * For requests that may throw (a credential pair with no token): `t.all(items, (i) => settle(send(i)))`
 * never throws, and `taken(answers[k])` in item order throws where the request, sent alone, would
 * have, after the judgements of the ones before it are recorded.
 */
/** A request's answer or what it threw, so requests sent together (t.all) can be taken in order. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The answer, or the request's error thrown here: where the request, sent alone, would have thrown. */
export function taken<T>(s: Settled<T> | undefined): T {
  if (s === undefined) throw new Error('taken: no such request');
  if (!s.ok) throw s.error;
  return s.value;
}
