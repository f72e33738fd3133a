/**
 * How a window (an `exclusive` check's whole run, or a `t.alone` window) holds its API's
 * quiet-account lanes (harness/run/lane.ts) of the kinds it needs, while every request holds its
 * own kind's lane shared, one request at a time (harness/http/quiet-lane.ts).
 * Without a lane server (PAYGATE_LANE_URL unset: a test of the harness itself) or when no grant
 * comes in time, the check runs as it did before the lane existed — the suites stay sound under
 * concurrency (quiet windows); the lane only keeps them decisive — and says so in a note.
 */
import { LANE_MAX_WAIT_MS, QUIET_KINDS, laneHeldHere, laneName, runHoldingLanes, takeLane } from '../http/quiet-lane.js';
import type { LaneHold, QuietKind } from '../http/quiet-lane.js';

export { LANE_MAX_WAIT_MS };

export interface ExclusiveLane {
  hold?: LaneHold;
  note?: string;
  /** runs `fn` as the holder: its requests (and those of what it awaits) pass the lanes */
  run<R>(fn: () => R): R;
  /** ends the hold */
  release(): void;
}

/**
 * Takes the lanes of `kinds` (default all: the target to itself) on `spec.api` alone, in lane
 * order; the code run through `run` sends past them. `hold.waitedMs` is the whole wait.
 */
export async function enterExclusiveLane(spec: { api: string }, kinds: readonly QuietKind[] = QUIET_KINDS, env: NodeJS.ProcessEnv = process.env): Promise<ExclusiveLane> {
  const url = env['PAYGATE_LANE_URL'];
  const unheld = { run: <R>(fn: () => R): R => fn(), release: () => undefined };
  if (!url) return unheld;
  // inside a window (this async context), only the lanes it does not hold yet: a burst window
  // nested in a ledger window takes reads and records, not the money lane it already has
  const names = QUIET_KINDS.filter((k) => kinds.includes(k))
    .map((k) => laneName(spec.api, k))
    .filter((name) => !laneHeldHere(name));
  const started = performance.now();
  const holds: LaneHold[] = [];
  for (const name of names) {
    const hold = await takeLane(url, name, 'exclusive', LANE_MAX_WAIT_MS);
    if (!hold) {
      for (const h of holds) h.release();
      return { ...unheld, note: `could not run alone on the ${spec.api} account (no grant within ${LANE_MAX_WAIT_MS / 1000} s): ran alongside other checks` };
    }
    holds.push(hold);
  }
  const stragglers = holds.reduce((n, h) => n + h.stragglers, 0);
  const hold: LaneHold = { waitedMs: Math.round(performance.now() - started), stragglers, yieldRequested: false, release: () => holds.forEach((h) => h.release()) };
  const what = kinds.length === 1 ? { money: 'moving money on', records: 'creating records on', reads: 'reading' }[kinds[0] as QuietKind] : 'sending anything to';
  const beside = stragglers > 0 ? `, beside ${stragglers} longer request(s) still in flight` : '';
  return {
    hold,
    note: `ran with no other check ${what} the ${spec.api} account${beside} (waited ${(hold.waitedMs / 1000).toFixed(1)} s)`,
    run: (fn) => runHoldingLanes(names, fn),
    release: () => hold.release(),
  };
}
