/**
 * Which check a request belongs to, carried through its async calls (property runs, bursts), so
 * that every request names its check in a header and a target's logs can be matched with a report.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Sent with every request to the target: the id of the check that made it. */
export const CHECK_HEADER = 'x-paygate-check';

const current = new AsyncLocalStorage<string>();

/** Runs `fn` as part of check `id`. */
export function inCheck<R>(id: string, fn: () => R): R {
  return current.run(id, fn);
}

/** The id of the check running here, if any. */
export function currentCheck(): string | undefined {
  return current.getStore();
}
