/**
 * Request-rate cap (`--max-rps`) and `Retry-After` parsing.
 *
 * The cap is one scheduler per process shared by every HttpClient (certification against real
 * sandboxes must not exceed the agreed rate, whatever the number of clients). It is a virtual
 * scheduler: each request reserves the next free slot `1/rps` seconds after the previous one, with a
 * small burst allowance, so waiting requests keep their order and never busy-wait.
 */

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

let shared: RateLimiter | undefined;

/**
 * The process-wide limiter for `maxRps`, created on first use; a different rate replaces it.
 * `undefined` or `0` means no cap (returns undefined).
 */
export function processRateLimiter(maxRps: number | undefined): RateLimiter | undefined {
  if (!maxRps || maxRps <= 0) return undefined;
  if (!shared || shared.maxRps !== maxRps) shared = new RateLimiter(maxRps);
  return shared;
}

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
