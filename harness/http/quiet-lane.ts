/**
 * The quiet-account lanes, worker side (the lock and its server: harness/run/lane.ts).
 *
 * A window whose judgement needs nothing else to happen on its API's account (a balance delta,
 * "newest first" in a list, a ledger window, a race burst) holds the lanes of what it needs quiet
 * **exclusively**: a whole check (`exclusive` in its CheckSpec) or a window of it (`t.alone`),
 * harness/run/check-lane.ts. Every request holds the lane of its kind ({@link QuietKind}: money,
 * records or reads) **shared** while it is in flight. So:
 *
 * - an exclusive window waits for the requests of its kinds in flight (one round trip), not for
 *   whole checks to end;
 * - while it runs, other checks' requests of those kinds wait; the others go on;
 * - a burst (harness/http/burst.ts) holds its lanes once for all its requests, so a waiting
 *   exclusive window never splits it.
 *
 * A worker keeps one shared hold per lane and counts its requests in flight under it. When an
 * exclusive window asks (the server writes `yield`), the worker sends no new request of that kind,
 * lets those in flight finish, releases the hold, and queues again behind the window. Without a
 * lane server (PAYGATE_LANE_URL unset: a test of the harness itself), or when no grant comes within
 * {@link LANE_MAX_WAIT_MS}, requests go out unheld, as before the lane existed: the suites stay
 * sound under concurrency (quiet windows, re-measures); the lane keeps them decisive.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';

export type LaneMode = 'shared' | 'exclusive';

/** The longest a window or a request waits for its lane (an exclusive one waits for the requests in flight). */
export const LANE_MAX_WAIT_MS = 3 * 60_000;

export interface LaneHold {
  /** ms spent waiting for the grant */
  waitedMs: number;
  /** shared holders still running beside this exclusive hold (its drain wait ran out) */
  stragglers: number;
  /** an exclusive request waits for this (shared) hold: release it once the requests in flight are done */
  readonly yieldRequested: boolean;
  release(): void;
}

/**
 * Takes the lane in `mode` from the server at `url`. Resolves with the hold, or `undefined` when no
 * grant came within `maxWaitMs` or the server is unreachable (the caller then runs as before the
 * lane existed, and says so). `onYield`: called when an exclusive request waits for this hold.
 * `unref`: the held connection does not keep the process alive (a worker's idle shared hold).
 */
export function takeLane(
  url: string,
  name: string,
  mode: LaneMode,
  maxWaitMs: number,
  options: { onYield?: () => void; unref?: boolean; who?: string } = {},
): Promise<LaneHold | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    const done = (hold: LaneHold | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!hold) req?.destroy();
      resolve(hold);
    };
    const timer = setTimeout(() => done(undefined), maxWaitMs);
    try {
      const who = options.who === undefined ? '' : `&who=${encodeURIComponent(options.who)}`;
      req = request(`${url}/lane/${encodeURIComponent(name)}?mode=${mode}${who}`, { method: 'GET', agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          done(undefined);
          return;
        }
        let hold: { waitedMs: number; stragglers: number; yieldRequested: boolean; release(): void } | undefined;
        res.on('data', (chunk: Buffer) => {
          const text = chunk.toString('utf8');
          if (!hold) {
            const stragglers = Number(/^granted (\d+)/.exec(text)?.[1] ?? 0);
            hold = { waitedMs: Math.round(performance.now() - started), stragglers, yieldRequested: false, release: () => req?.destroy() };
            if (options.unref) res.socket.unref();
            done(hold);
          }
          if (/^yield$/m.test(text)) {
            hold.yieldRequested = true;
            options.onYield?.();
          }
        });
        res.once('error', () => undefined);
      });
      req.once('error', () => done(undefined));
      req.end();
    } catch {
      done(undefined);
    }
  });
}

/** A write: anything but a read or the token exchange (which changes no account). */
export function changesAccount(method: string, operation?: string): boolean {
  const m = method.toUpperCase();
  return m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS' && operation !== 'POST /api/auth';
}

/**
 * What a request can disturb, each with its own lane per API: `money` (balances, the ledger: pays,
 * completions, card sales, transfers), `records` (what the lists show, in their order: creating a
 * charge, registering a webhook) and `reads` (nothing on the account, only the target's attention:
 * lookups, lists). A balance window needs only `money` quiet, a list-order
 * check only `records`, so charge creations (most of the negative fuzzing) never wait for a balance
 * window; a race burst wants the target to itself (all three): a race window of a few
 * milliseconds is missed when the target is busy answering other checks meanwhile.
 */
export type QuietKind = 'money' | 'records' | 'reads';
export const QUIET_KINDS: readonly QuietKind[] = ['money', 'records', 'reads'];

const RECORD_WRITES: ReadonlySet<string> = new Set(['POST /api/v1/pix/in/qrcode', 'POST /api/v1/webhook', 'DELETE /api/v1/webhook/{id}', 'POST /business/pix-charges']);
const MONEY_WRITES: ReadonlySet<string> = new Set([
  'POST /api/v1/pix/in/qrcode/{transactionId}/pay',
  'POST /api/v1/pix/out/pixkey',
  'POST /api/v1/pix/out/pixkey/{transferId}/complete',
  'POST /api/v1/card',
  'POST /business/pix-charges/{id}/pay',
  'POST /business/pix-charges/{id}/cancel',
]);

/**
 * The lanes a request holds while in flight: `reads` for a read, money and records for a write the
 * suite does not know, none for the token exchange. A worker's token is shared by every check in it
 * (harness/http/auth.ts keeps one refresh in flight): a refresh held behind one check's window would
 * stall another check of the same worker that awaits the same token inside that window, for good
 * (seen with two checks of one worker side by side, once a run outlived the 60 s token). The
 * exchange neither moves nor shows anything of the account.
 */
export function requestKinds(method: string, operation?: string): readonly QuietKind[] {
  if (operation === 'POST /api/auth') return [];
  if (!changesAccount(method, operation)) return ['reads'];
  if (operation !== undefined && RECORD_WRITES.has(operation)) return ['records'];
  if (operation !== undefined && MONEY_WRITES.has(operation)) return ['money'];
  return ['money', 'records'];
}

/** The lane of one kind of an API (`gateway`, `gateway-records`, `gateway-reads`). */
export function laneName(api: string, kind: QuietKind): string {
  return kind === 'money' ? api : `${api}-${kind}`;
}

const NOTHING = (): void => undefined;

/**
 * The lanes the code running now holds exclusively (an exclusive check's body, a `t.alone` window):
 * its own requests pass. Async-local, so a check running beside it in the same worker is not exempt.
 */
const exclusiveScope = new AsyncLocalStorage<ReadonlySet<string>>();

/** The code running now holds the `name` lane exclusively (a window inside a window takes only what it lacks). */
export function laneHeldHere(name: string): boolean {
  return exclusiveScope.getStore()?.has(name) === true;
}

/** Runs `fn` as a holder of the `names` lanes: its requests (and those of what it awaits) pass them. */
export function runHoldingLanes<R>(names: readonly string[], fn: () => R): R {
  const held = exclusiveScope.getStore();
  return exclusiveScope.run(new Set([...(held ?? []), ...names]), fn);
}

/** One lane as this worker's requests see it (see the module comment). */
export class RequestLane {
  private hold: LaneHold | undefined;
  private acquiring: Promise<LaneHold | undefined> | undefined;
  private inFlight = 0;
  private readonly releaseWaiters: (() => void)[] = [];
  /** ms during which at least one request of this worker waited for the lane */
  private blockedTotal = 0;
  private waiting = 0;
  private blockedSince = 0;

  constructor(
    private readonly url: string,
    private readonly name: string,
  ) {}

  /** ms this worker's requests spent waiting for the lane so far (overlapping waits count once) */
  get blockedMs(): number {
    return this.blockedTotal + (this.waiting > 0 ? performance.now() - this.blockedSince : 0);
  }

  /** Waits until a request may go out; returns the function that ends it (call it once the answer is in). */
  async enter(): Promise<() => void> {
    if (this.heldHere()) return NOTHING;
    if (this.hold !== undefined && !this.hold.yieldRequested) return this.admit();
    if (this.waiting++ === 0) this.blockedSince = performance.now();
    try {
      for (;;) {
        const hold = this.hold;
        if (hold !== undefined && !hold.yieldRequested) return this.admit();
        if (hold !== undefined) {
          // asked to yield: the requests in flight finish, the hold goes, then this one queues again
          this.releaseIfYielded();
          if (this.hold !== undefined) await new Promise<void>((resolve) => this.releaseWaiters.push(resolve));
          continue;
        }
        this.acquiring ??= takeLane(this.url, this.name, 'shared', LANE_MAX_WAIT_MS, { onYield: () => this.releaseIfYielded(), unref: true }).then((taken) => {
          this.acquiring = undefined;
          this.hold = taken;
          return taken;
        });
        const taken = await this.acquiring;
        // no grant in time or no server: the request goes out unheld (module comment)
        if (taken === undefined) return this.admit();
      }
    } finally {
      if (--this.waiting === 0) this.blockedTotal += performance.now() - this.blockedSince;
    }
  }

  /** the code running now holds this lane exclusively ({@link runHoldingLanes}) */
  private heldHere(): boolean {
    return laneHeldHere(this.name);
  }

  private admit(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      this.releaseIfYielded();
    };
  }

  private releaseIfYielded(): void {
    if (this.inFlight > 0 || this.hold?.yieldRequested !== true) return;
    this.hold.release();
    this.hold = undefined;
    for (const wake of this.releaseWaiters.splice(0)) wake();
  }
}

const lanes = new Map<string, RequestLane>();

/**
 * Holds, in lane order (so two holders can never wait for each other), this worker's lanes of
 * `kinds` on `api` for one request; returns the function that ends it. Without a lane server: nothing.
 */
export async function enterRequest(api: string, kinds: readonly QuietKind[], env: NodeJS.ProcessEnv = process.env): Promise<() => void> {
  const ends: (() => void)[] = [];
  for (const kind of QUIET_KINDS) {
    if (!kinds.includes(kind)) continue;
    const lane = requestLane(laneName(api, kind), env);
    if (lane) ends.push(await lane.enter());
  }
  return () => {
    for (let i = ends.length - 1; i >= 0; i--) ends[i]?.();
  };
}

/** ms this worker's requests to `api` waited for its lanes so far */
export function requestsBlockedMs(api: string, env: NodeJS.ProcessEnv = process.env): number {
  return QUIET_KINDS.reduce((n, kind) => n + (requestLane(laneName(api, kind), env)?.blockedMs ?? 0), 0);
}

/** This worker's lane of one name, or undefined without a lane server (PAYGATE_LANE_URL unset). */
export function requestLane(name: string, env: NodeJS.ProcessEnv = process.env): RequestLane | undefined {
  const url = env['PAYGATE_LANE_URL'];
  if (!url) return undefined;
  const key = `${url} ${name}`;
  let lane = lanes.get(key);
  if (!lane) lanes.set(key, (lane = new RequestLane(url, name)));
  return lane;
}
