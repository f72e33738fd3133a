/**
 * Request-rate cap (`--max-rps`) and `Retry-After` parsing.
 *
 * The cap is one scheduler per process shared by every HttpClient (certification against real
 * sandboxes must not exceed the agreed rate, whatever the number of clients), and in a CLI run one
 * scheduler for the whole run ({@link RunRateLimiter}); 429 `Retry-After` waits reach every worker
 * ({@link runPauses}). It is a virtual
 * scheduler: each request reserves the next free slot `1/rps` seconds after the previous one, with a
 * small burst allowance, so waiting requests keep their order and never busy-wait.
 */

import { Agent, request as httpRequest } from 'node:http';

export class RateLimiter {
  private nextFreeAt = 0;

  /**
   * @param maxRps requests per second (> 0)
   * @param burst how many requests may go at once after an idle period (default 1)
   */
  constructor(
    readonly maxRps: number,
    readonly burst = 1,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(maxRps > 0)) throw new RangeError(`rate-limit: maxRps must be > 0, got ${maxRps}`);
  }

  /** Milliseconds to wait before `n` more requests may go; reserves their slots. */
  reserve(n = 1): number {
    const interval = 1000 / this.maxRps;
    const t = this.now();
    const earliest = t - (this.burst - 1) * interval;
    const start = Math.max(this.nextFreeAt, earliest);
    this.nextFreeAt = start + n * interval;
    return Math.max(0, start - t);
  }

  /** Waits until `n` requests may go (they then go together). */
  async take(n = 1): Promise<void> {
    const wait = this.reserve(n);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * The run-wide cap: every worker asks the run coordinator (harness/run/lane.ts, served by the
 * global-setup process at PAYGATE_LANE_URL) for its slots, so the run as a whole keeps `--max-rps`
 * whatever the number of workers and however busy each is. Should the coordinator not answer, the
 * worker falls back to its own share of the cap (PAYGATE_MAX_RPS = total / workers): never faster.
 */
export class RunRateLimiter extends RateLimiter {
  constructor(
    private readonly coordinatorUrl: string,
    share: number,
  ) {
    super(share);
  }

  override async take(n = 1): Promise<void> {
    let wait: number;
    try {
      wait = await askCoordinator(`${this.coordinatorUrl}/rate?n=${n}`);
    } catch {
      await super.take(n);
      return;
    }
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const coordinatorAgent = new Agent({ keepAlive: true, maxSockets: 4 });

function askCoordinator(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: coordinatorAgent, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => {
        const wait = Number((JSON.parse(text || '{}') as { waitMs?: unknown }).waitMs);
        if (res.statusCode === 200 && Number.isFinite(wait)) resolve(wait);
        else reject(new Error(`coordinator answered ${res.statusCode}`));
      });
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error('coordinator timeout')));
    req.once('error', reject);
    req.end();
  });
}

let shared: RateLimiter | undefined;

/**
 * The process-wide limiter for `maxRps`, created on first use; a different rate replaces it.
 * `undefined` or `0` means no cap (returns undefined). In a CLI run with a run coordinator
 * (PAYGATE_LANE_URL and PAYGATE_MAX_RPS_TOTAL set), it is the run-wide {@link RunRateLimiter}, with
 * `maxRps` (this worker's share) as its fallback.
 */
export function processRateLimiter(maxRps: number | undefined, env: NodeJS.ProcessEnv = process.env): RateLimiter | undefined {
  if (!maxRps || maxRps <= 0) return undefined;
  if (shared && shared.maxRps === maxRps) return shared;
  const coordinator = env['PAYGATE_LANE_URL'];
  shared = coordinator && env['PAYGATE_MAX_RPS_TOTAL'] ? new RunRateLimiter(coordinator, maxRps) : new RateLimiter(maxRps);
  return shared;
}

/**
 * The target's `Retry-After`, honoured by the whole run (issue 16): the worker that got a 429
 * reports the wait to the run coordinator, which tells every worker; each holds its next requests
 * to that API until the wait is over. Without a coordinator (PAYGATE_LANE_URL unset) only the
 * worker that saw the 429 waits, as before.
 */
export class RunPauses {
  private readonly until = new Map<string, number>();
  private subscribed = false;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private subscribe(url: string): void {
    if (this.subscribed) return;
    this.subscribed = true;
    const req = httpRequest(`${url}/pauses`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const m = /^pause (\S+) (\d+)$/.exec(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (m) this.hold(m[1] as string, Number(m[2]));
        }
      });
      res.once('error', () => undefined);
    });
    // the subscription must not keep a finished worker alive
    req.once('socket', (socket) => socket.unref());
    req.once('error', () => undefined);
    req.end();
  }

  private hold(key: string, ms: number): void {
    const until = performance.now() + ms;
    if (until > (this.until.get(key) ?? 0)) this.until.set(key, until);
  }

  /** Waits while the run is paused for `key` (an API name). */
  async wait(key: string): Promise<void> {
    await this.pending(key);
  }

  /** The wait {@link wait} makes, or undefined when there is none (no promise, no extra turn). */
  pending(key: string): Promise<void> | undefined {
    const url = this.env['PAYGATE_LANE_URL'];
    if (!url) return undefined;
    this.subscribe(url);
    const left = (this.until.get(key) ?? 0) - performance.now();
    return left > 0 ? new Promise((resolve) => setTimeout(resolve, left)) : undefined;
  }

  /** Tells the run that `key` asked for a pause of `ms` (fire and forget). */
  report(key: string, ms: number): void {
    const url = this.env['PAYGATE_LANE_URL'];
    if (!url || !(ms > 0)) return;
    this.hold(key, ms);
    const req = httpRequest(`${url}/pause?key=${encodeURIComponent(key)}&ms=${Math.round(ms)}`, { method: 'POST', agent: coordinatorAgent, timeout: 5000 }, (res) => res.resume());
    req.once('timeout', () => req.destroy());
    req.once('error', () => undefined);
    req.end();
  }
}

export const runPauses = new RunPauses(process.env);

/**
 * Parses a `Retry-After` header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) into
 * milliseconds from `now`; undefined when absent or unparseable. Negative delays become 0.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^\d+\.\d+$/.test(text)) return Math.round(Number(text) * 1000); // lenient: fractional seconds
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
