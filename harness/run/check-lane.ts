/**
 * How an `exclusive` check holds its API's quiet-account lane (harness/run/lane.ts) for its whole
 * run, while other checks' writes hold it shared one request at a time (harness/http/quiet-lane.ts).
 * Without a lane server (PAYGATE_LANE_URL unset: a test of the harness itself) or when no grant
 * comes in time, the check runs as it did before the lane existed — the suites stay sound under
 * concurrency (quiet windows); the lane only keeps them decisive — and says so in a note.
 */
import { LANE_MAX_WAIT_MS, runHoldingLane, takeLane } from '../http/quiet-lane.js';
import type { LaneHold } from '../http/quiet-lane.js';

export { LANE_MAX_WAIT_MS };

export interface ExclusiveLane {
  hold?: LaneHold;
  note?: string;
  /** runs `fn` as the holder: its writes (and those of what it awaits) pass the lane */
  run<R>(fn: () => R): R;
  /** ends the hold */
  release(): void;
}

/** Takes the lane of `spec.api` alone; the code run through `run` writes past it. */
export async function enterExclusiveLane(spec: { api: string }, env: NodeJS.ProcessEnv = process.env): Promise<ExclusiveLane> {
  const url = env['PAYGATE_LANE_URL'];
  const unheld = { run: <R>(fn: () => R): R => fn(), release: () => undefined };
  if (!url) return unheld;
  const hold = await takeLane(url, spec.api, 'exclusive', LANE_MAX_WAIT_MS);
  if (!hold) {
    return { ...unheld, note: `could not run alone on the ${spec.api} account (no grant within ${LANE_MAX_WAIT_MS / 1000} s): ran alongside other checks` };
  }
  const beside = hold.stragglers > 0 ? `, beside ${hold.stragglers} longer write(s) still in flight` : '';
  return {
    hold,
    note: `ran with no other check writing to the ${spec.api} account${beside} (waited ${(hold.waitedMs / 1000).toFixed(1)} s)`,
    run: (fn) => runHoldingLane(spec.api, fn),
    release: () => hold.release(),
  };
}
