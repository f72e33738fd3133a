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
export async function enterExclusiveLane(spec: { api: string; id?: string }, kinds: readonly QuietKind[] = QUIET_KINDS, env: NodeJS.ProcessEnv = process.env): Promise<ExclusiveLane> {
  const url = env['PAYGATE_LANE_URL'];
  const unheld = { run: <R>(fn: () => R): R => fn(), release: () => undefined };
  if (!url) return unheld;
  // inside a window (this async context), only the lanes it does not hold yet: a burst window
  // nested in a ledger window takes reads and records, not the money lane it already has
  const names = QUIET_KINDS.filter((k) => kinds.includes(k))
    .map((k) => laneName(spec.api, k))
    .filter((name) => !laneHeldHere(name));
  const started = performance.now();
  // the money lane, whose windows are the long ones (ledger windows, balance checks), is taken first
  // and alone: the other lanes are asked once it is held, so their requests are not stopped while
  // the window waits for another check's ledger window to end
  const leading = names.length > 1 && names[0] === laneName(spec.api, 'money') ? 1 : 0;
  const holds = await takeInOrder(url, names, { leading, ...(spec.id !== undefined && { who: spec.id }) });
  if (!holds) return { ...unheld, note: `could not run alone on the ${spec.api} account (no grant within ${LANE_MAX_WAIT_MS / 1000} s): ran alongside other checks` };
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

/**
 * Takes the lanes of `kinds` like {@link enterExclusiveLane} while `opening` runs: the window's own
 * first requests (the opening statement of a race window) go out while the requests of other checks
 * in flight drain, instead of one after the other. Resolves once both are done, with what `opening`
 * returned (if it throws, the lanes are given back and the error rethrown).
 *
 * The opening may only read. Its reads belong to the window: they pass the reads lane being taken
 * (a read of ours in flight when the lane is granted is the window's own, and the window's body
 * starts after it), so they never wait for the window they open. That is sound only where no other
 * check can hold the reads lane alone meanwhile, so the overlap is made only inside a window that
 * holds the API's money lane: every window that takes reads alone takes money first, so none can be
 * running (a list-order check holding records alone is not disturbed by reads). Elsewhere the
 * opening runs first, then the take.
 */
export async function enterExclusiveLaneAfter<O>(spec: { api: string; id?: string }, kinds: readonly QuietKind[], opening: () => Promise<O>, env: NodeJS.ProcessEnv = process.env): Promise<{ opened: O; lane: ExclusiveLane }> {
  if (!laneHeldHere(laneName(spec.api, 'money'))) {
    const opened = await opening();
    return { opened, lane: await enterExclusiveLane(spec, kinds, env) };
  }
  const taking = enterExclusiveLane(spec, kinds, env);
  const reads = kinds.includes('reads') ? [laneName(spec.api, 'reads')] : [];
  const [opened, lane] = await Promise.allSettled([runHoldingLanes(reads, opening), taking]);
  if (opened.status === 'rejected') {
    if (lane.status === 'fulfilled') lane.value.release();
    throw opened.reason;
  }
  if (lane.status === 'rejected') throw lane.reason;
  return { opened: opened.value, lane: lane.value };
}

/**
 * How long, at least, a lane granted before an earlier one of the same window is kept while the
 * earlier one is still awaited: drains that end together are granted a few ms apart, in any order.
 * It is kept as long as its own drain took, if longer: the drains of one window's lanes wait for
 * requests sent at about the same time, so they end about a round trip apart at most, and holding
 * the lane that long stops its requests no longer than its drain did.
 */
export const LATER_LANE_GRACE_MS = 50;

/**
 * Takes `names` (in lane order) exclusively, their drains overlapping: every lane is asked at once.
 * A lane granted while an earlier one is still awaited is kept as long as its drain took (at least
 * {@link LATER_LANE_GRACE_MS}), then given back and asked again once every earlier one is held. So a holder never sits on a lane
 * while it waits for an earlier one: the lane order that keeps two windows, or a window and a
 * holder whose requests need a later lane (a list-order check holding `records` whose lists are
 * `reads`; a burst holding records shared while it waits for reads), from waiting for each other is
 * kept, give or take the grace. Usually the drains end together (a burst inside a ledger window:
 * records and reads), and then the window waits for one drain (about one round trip of the requests
 * in flight) instead of one per lane. `leading`: the first lanes taken one by one before the others
 * are asked. Undefined (nothing held) when a lane was not granted in time.
 */
export async function takeInOrder(url: string, names: readonly string[], options: { who?: string; leading?: number } = {}): Promise<LaneHold[] | undefined> {
  const who = options.who === undefined ? {} : { who: options.who };
  const leading = Math.min(options.leading ?? 0, names.length);
  const kept: (LaneHold | undefined)[] = [];
  for (const name of names.slice(0, leading)) {
    const hold = await takeLane(url, name, 'exclusive', LANE_MAX_WAIT_MS, who);
    if (!hold) {
      for (const h of kept) h?.release();
      return undefined;
    }
    kept.push(hold);
  }
  const graces: (NodeJS.Timeout | undefined)[] = [];
  let held = leading; // lanes [0, held) are held
  let abandoned = false;
  const asked = performance.now();
  const first = names.map((name, j) =>
    j < leading
      ? Promise.resolve(true)
      : takeLane(url, name, 'exclusive', LANE_MAX_WAIT_MS, who).then((hold) => {
          if (!hold) return false;
          if (abandoned) hold.release();
          else {
            kept[j] = hold;
            // an earlier lane still awaited: kept for the grace only (see above)
            if (j > held) {
              graces[j] = setTimeout(() => {
                if (held >= j || kept[j] !== hold) return;
                hold.release();
                kept[j] = undefined;
              }, Math.max(LATER_LANE_GRACE_MS, performance.now() - asked));
            }
          }
          return true;
        }),
  );
  for (let j = leading; j < names.length; j++) {
    let granted = await first[j];
    clearTimeout(graces[j]);
    if (granted && kept[j] === undefined) {
      // given back after the grace: asked again now that every earlier lane is held
      kept[j] = await takeLane(url, names[j] as string, 'exclusive', LANE_MAX_WAIT_MS, who);
      granted = kept[j] !== undefined;
    }
    if (!granted) {
      abandoned = true;
      for (const [k, h] of kept.entries()) {
        clearTimeout(graces[k]);
        h?.release();
      }
      return undefined;
    }
    held = j + 1;
  }
  return kept as LaneHold[];
}
