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

/**
 * A shared check's seat in its lane, which a check made of independent runs (a property, fuzz
 * sequences) hands over between runs when an exclusive check waits for it (lane.ts,
 * `yieldRequested`): it lets its runs in flight finish, releases the hold and queues again behind
 * the exclusive check, so that one gets a quiet account within one run instead of waiting out the
 * drain bound and then starting beside it.
 */
const MAX_ASIDE_MS = 60_000;

export class LaneSeat {
  /** times this check stepped aside */
  stepped = 0;
  /** ms spent out of the lane, waiting to take it again */
  asideMs = 0;

  constructor(
    private hold: LaneHold | undefined,
    private readonly api: string,
    private readonly url: string | undefined = process.env['PAYGATE_LANE_URL'],
  ) {}

  /** an exclusive check waits for this seat (never once the check spent a minute aside: its own time limit comes first) */
  get wanted(): boolean {
    return this.hold?.yieldRequested === true && this.url !== undefined && this.asideMs < MAX_ASIDE_MS;
  }

  /** releases the hold and takes the lane again (granted after the exclusive check that asked) */
  async stepAside(): Promise<void> {
    if (!this.wanted || this.url === undefined) return;
    this.hold?.release();
    this.stepped++;
    const started = performance.now();
    this.hold = await takeLane(this.url, this.api, 'shared', LANE_MAX_WAIT_MS);
    this.asideMs += performance.now() - started;
  }

  release(): void {
    this.hold?.release();
  }
}
