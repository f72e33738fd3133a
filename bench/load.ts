/**
 * A closed-loop load generator: `concurrency` workers each send one request, wait for it, send the
 * next. Every run is bounded twice: by wall time (`durationMs`) and by count (`maxRequests`), so a
 * slow machine ends a run early and a fast one never floods the target's memory.
 *
 * Client CPU (`process.cpuUsage`) is measured across the run: CPU µs per request is steadier than
 * requests/s on a busy machine (other processes steal wall time, not the CPU we did use).
 */

export interface LoadOptions {
  concurrency: number;
  /** stop starting requests after this long (ms) */
  durationMs: number;
  /** stop after this many requests in total */
  maxRequests: number;
  /** untimed requests per worker before the measured window (connection set-up, JIT) */
  warmupPerWorker?: number;
}

export interface LoadResult {
  concurrency: number;
  requests: number;
  /** requests whose `fn` threw or returned false */
  errors: number;
  elapsedMs: number;
  rps: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** client process CPU (user + system) per request, µs */
  cpuUsPerRequest: number;
}

/** One request: resolves true when it succeeded as expected. `worker` is the worker index. */
export type RequestFn = (worker: number) => Promise<boolean>;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Runs `fn` in a closed loop; see {@link LoadOptions} for the bounds. */
export async function runLoad(fn: RequestFn, options: LoadOptions): Promise<LoadResult> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const warmup = options.warmupPerWorker ?? 3;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = 0; i < warmup; i++) await fn(w).catch(() => false);
    }),
  );

  const latencies: number[] = [];
  let started = 0;
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + options.durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (started < options.maxRequests && performance.now() < deadline) {
        started += 1;
        const s = performance.now();
        let ok = false;
        try {
          ok = await fn(w);
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - s);
        if (!ok) errors += 1;
      }
    }),
  );
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  return {
    concurrency,
    requests,
    errors,
    elapsedMs: round(elapsedMs),
    rps: round(requests / (elapsedMs / 1000)),
    latencyP50Ms: round(percentile(latencies, 50), 2),
    latencyP99Ms: round(percentile(latencies, 99), 2),
    cpuUsPerRequest: requests ? round((cpu.user + cpu.system) / requests) : 0,
  };
}

/** The median of numbers (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Least-squares line through points: `y = intercept + slope·x`, with r². */
export function linearFit(points: readonly { x: number; y: number }[]): { slope: number; intercept: number; r2: number } {
  const n = points.length;
  if (n < 2) return { slope: 0, intercept: points[0]?.y ?? 0, r2: 0 };
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  const r2 = sxx === 0 || syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept, r2 };
}
