/**
 * How a check enters its API's quiet-account lane (harness/run/lane.ts): `exclusive` checks alone,
 * every other check shared. Without a lane server (PAYGATE_LANE_URL unset: a test of the harness
 * itself) or when no grant comes in time, the check runs as it did before the lane existed — the
 * suites stay sound under concurrency (quiet windows); the lane only keeps them decisive — and the
 * exclusive ones say so in a note.
 */
import { takeLane } from './lane.js';
import type { LaneHold } from './lane.js';

/** The longest a check waits for its lane (an exclusive one waits for the longest check in flight). */
export const LANE_MAX_WAIT_MS = 3 * 60_000;

export async function enterLane(
  spec: { api: string; exclusive?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ hold?: LaneHold; note?: string }> {
  const url = env['PAYGATE_LANE_URL'];
  if (!url) return {};
  const mode = spec.exclusive ? 'exclusive' : 'shared';
  const hold = await takeLane(url, spec.api, mode, LANE_MAX_WAIT_MS);
  if (hold && spec.exclusive) {
    const beside = hold.stragglers > 0 ? `, beside ${hold.stragglers} longer check(s) still in flight` : ' alone';
    return { hold, note: `ran with no other check starting on the ${spec.api} account${beside} (waited ${(hold.waitedMs / 1000).toFixed(1)} s)` };
  }
  if (hold) return { hold };
  return spec.exclusive ? { note: `could not run alone on the ${spec.api} account (no grant within ${LANE_MAX_WAIT_MS / 1000} s): ran alongside other checks` } : {};
}
