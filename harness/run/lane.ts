/**
 * The run coordinator, served by the global-setup process: the quiet-account lanes and the run-wide
 * request gate (rate cap and 429 pauses, {@link RunGate}; workers use harness/http/rate-limit.ts).
 *
 * The run-wide "quiet account" lane (issue 16): a reader-writer lock across the worker processes.
 *
 * A check whose judgement needs nothing else to change the account (a balance delta, "newest
 * first" in a list that other checks fill, a ledger window) declares `exclusive: true` in its
 * CheckSpec and holds its API's lane alone for the whole check. Every other request that writes
 * (anything but a read or the token exchange) holds it shared while it is in flight
 * (harness/http/quiet-lane.ts): the exclusive check waits for the writes in flight, and writes
 * asking after it wait until it is done (writer preference, so a steady stream of writes cannot
 * starve it). Reads never wait. With many checks in flight (`--concurrency`) this keeps those
 * judgements as decisive as in a sequential run, at the cost of a round trip, not of whole checks.
 *
 * The wait of an exclusive check for the holders in flight is bounded (`drainMs`, 8 s by default):
 * a write the target takes long to answer would otherwise stall every write of its API behind the
 * waiting exclusive check. Past the bound the exclusive check starts beside those stragglers (no
 * new write starts until it ends; a later exclusive check does not wait for the same stragglers
 * again) and says so in a note: the suites stay sound under concurrency (quiet windows,
 * re-measures), the lane only makes them decisive.
 *
 * There is one lane per API (the gateway and partner accounts are separate: a gateway balance check
 * need not stop the partner writes).
 *
 * The lock is served by the global-setup process (one per run) on 127.0.0.1. A hold IS an open HTTP
 * response: the server answers `GET /lane/<name>?mode=…` with its headers and a first line when the lock is
 * granted, and the hold ends when the client closes the connection — so a worker that dies (or is
 * killed at a time limit) releases its hold with its sockets, and nothing can stay locked.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RateLimiter } from '../http/rate-limit.js';
import type { LaneMode } from '../http/quiet-lane.js';

export type { LaneMode };

interface Waiter {
  mode: LaneMode;
  /** `stragglers`: shared holders still running when an exclusive grant was forced */
  grant(stragglers: number): void;
  /** a shared holder is asked to release for an exclusive request (see {@link LaneLock.acquire}) */
  yieldRequested?: () => void;
}

/** The lock's state, independent of HTTP (unit-tested alone). */
export class LaneLock {
  private shared = 0;
  private exclusive = false;
  private readonly queue: Waiter[] = [];
  private drainTimer: NodeJS.Timeout | undefined;
  private forced = false;
  /** shared holders an exclusive grant already ran beside: later exclusive requests do not wait for them again */
  private readonly stragglers = new Set<object>();
  private readonly holders = new Set<object>();

  constructor(private readonly drainMs = 8_000) {}

  /**
   * Queues a request; `grant` is called (synchronously when free) once the mode is held, with the
   * number of shared holders still running beside a forced exclusive grant (0 normally). Returns a
   * cancel/release function.
   *
   * `yieldRequested` (shared holders): called when an exclusive request starts waiting for the
   * holders in flight. A worker's hold (harness/http/quiet-lane.ts) then lets its writes in flight
   * finish, releases the hold and queues again behind the exclusive request.
   */
  acquire(mode: LaneMode, grant: (stragglers: number) => void, yieldRequested?: () => void): () => void {
    let state: 'waiting' | 'held' | 'done' = 'waiting';
    const waiter: Waiter = {
      mode,
      grant: (stragglers) => {
        state = 'held';
        if (mode === 'shared') this.holders.add(waiter);
        grant(stragglers);
      },
      ...(yieldRequested !== undefined && { yieldRequested }),
    };
    this.queue.push(waiter);
    this.pump();
    return () => {
      if (state === 'done') return;
      if (state === 'waiting') {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
      } else if (mode === 'shared') {
        this.shared--;
        this.holders.delete(waiter);
        this.stragglers.delete(waiter);
      } else this.exclusive = false;
      state = 'done';
      this.pump();
    };
  }

  /** Grants, in queue order, everything that may run now: shared holders together, exclusive alone. */
  private pump(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0] as Waiter;
      if (this.exclusive) return;
      if (head.mode === 'exclusive') {
        if (this.shared > this.stragglers.size && !this.forced) {
          // bounded wait for the holders in flight (see the module comment); those that can step
          // aside between their runs are asked to, once per wait
          if (this.drainTimer === undefined) for (const holder of this.holders) (holder as Waiter).yieldRequested?.();
          this.drainTimer ??= setTimeout(() => {
            this.drainTimer = undefined;
            this.forced = true;
            this.pump();
          }, this.drainMs);
          this.drainTimer.unref();
          return;
        }
        clearTimeout(this.drainTimer);
        this.drainTimer = undefined;
        this.forced = false;
        for (const holder of this.holders) this.stragglers.add(holder);
        this.queue.shift();
        this.exclusive = true;
        head.grant(this.shared);
        return;
      }
      // a shared request behind a waiting exclusive one waits too (writer preference), so only the head is granted
      this.queue.shift();
      this.shared++;
      head.grant(0);
    }
  }

  get state(): { shared: number; exclusive: boolean; waiting: number } {
    return { shared: this.shared, exclusive: this.exclusive, waiting: this.queue.length };
  }
}

/**
 * The run-wide request gate, served next to the lanes: the `--max-rps` cap as ONE scheduler for every
 * worker (`GET /rate?n=N` reserves N slots and answers the wait in ms), and the target's 429
 * `Retry-After` for the whole run (`POST /pause?key=<api>&ms=R` from the worker that saw it; every
 * worker subscribed with `GET /pauses` gets a line `pause <api> <ms>` and holds its requests that long).
 */
class RunGate {
  private readonly subscribers = new Set<ServerResponse>();
  /** per API: until when its requests wait (performance.now() ms) */
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly limiter: RateLimiter | undefined) {}

  handle(url: URL, req: IncomingMessage, res: ServerResponse): boolean {
    if (url.pathname === '/rate') {
      const n = Math.max(1, Math.min(1000, Number(url.searchParams.get('n')) || 1));
      const waitMs = this.limiter ? this.limiter.reserve(n) : 0;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ waitMs: Math.round(waitMs) }));
      return true;
    }
    if (url.pathname === '/pause' && req.method === 'POST') {
      const ms = Math.max(0, Math.min(10 * 60_000, Number(url.searchParams.get('ms')) || 0));
      const key = url.searchParams.get('key') ?? '';
      const until = performance.now() + ms;
      if (/^[a-z0-9-]{1,40}$/.test(key) && until > (this.pausedUntil.get(key) ?? 0)) {
        this.pausedUntil.set(key, until);
        for (const sub of this.subscribers) sub.write(`pause ${key} ${Math.round(ms)}\n`);
      }
      res.writeHead(204).end();
      return true;
    }
    if (url.pathname === '/pauses') {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.write('ready\n');
      for (const [key, until] of this.pausedUntil) {
        const left = until - performance.now();
        if (left > 0) res.write(`pause ${key} ${Math.round(left)}\n`);
      }
      this.subscribers.add(res);
      res.once('close', () => this.subscribers.delete(res));
      return true;
    }
    return false;
  }
}

export interface LaneServer {
  url: string;
  /** the lock of one lane (created on first use) */
  lock(name: string): LaneLock;
  close(): Promise<void>;
}

/**
 * One hold of a lane, as the trace (`trace` option, PAYGATE_LANE_TRACE) records it when it ends
 * (epoch ms: the model fuzzers' sibling lanes write to the same file from the workers); `who`: the
 * check an exclusive window belongs to.
 */
export interface LaneTraceEntry {
  lane: string;
  mode: LaneMode;
  who?: string;
  askedMs: number;
  grantedMs?: number;
  /** a sibling-lane measurement: when its moves were answered (its closing read may overlap the next) */
  settledMs?: number;
  endedMs: number;
}

/** Appends one entry to the trace file, if any (an aid: a run never stops for it). */
export function traceLane(file: string | undefined, entry: LaneTraceEntry): void {
  if (file === undefined || file === '') return;
  try {
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } catch {
    // nothing: see above
  }
}

/**
 * Starts the lane server on 127.0.0.1 (ephemeral port). `trace`: a file that gets one JSON line
 * ({@link LaneTraceEntry}) per hold or abandoned wait, for looking at where a run waits
 * (bench/lane-trace.ts).
 */
export async function startLaneServer(options: { drainMs?: number; maxRps?: number; trace?: string } = {}): Promise<LaneServer> {
  const now = (): number => Date.now();
  const gate = new RunGate(options.maxRps !== undefined && options.maxRps > 0 ? new RateLimiter(options.maxRps) : undefined);
  const locks = new Map<string, LaneLock>();
  const lock = (name: string): LaneLock => {
    let found = locks.get(name);
    if (!found) locks.set(name, (found = new LaneLock(options.drainMs)));
    return found;
  };
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://lane');
    if (gate.handle(url, req, res)) return;
    const mode = url.searchParams.get('mode');
    const name = /^\/lane\/([a-z0-9-]{1,40})$/.exec(url.pathname)?.[1];
    if (name === undefined || (mode !== 'shared' && mode !== 'exclusive')) {
      res.writeHead(404).end();
      return;
    }
    const entry: LaneTraceEntry = { lane: name, mode, askedMs: now(), endedMs: 0 };
    const who = url.searchParams.get('who');
    if (who !== null) entry.who = who.slice(0, 120);
    const release = lock(name).acquire(
      mode,
      (stragglers) => {
        entry.grantedMs = now();
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.write(`granted ${stragglers}\n`);
      },
      () => {
        if (!res.writableEnded) res.write('yield\n');
      },
    );
    // the client closing the connection ends the hold (or the wait)
    res.once('close', () => {
      release();
      entry.endedMs = now();
      traceLane(options.trace, entry);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lock,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
