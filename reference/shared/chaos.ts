/**
 * `REFERENCE_CHAOS=1`: the reference behaves like a busy real host, within what the contracts
 * allow, so the suite can prove it neither fails nor hangs on it (test/chaos.test.ts):
 *
 * - about 5 % of requests are answered 429 with `Retry-After` of 0 or 1 second, before the API
 *   handles them (no side effect: a retry is always safe). Gateway "Endpoints": "Every route can
 *   answer 401 and 429"; the partner document shows no rate limit ("Rate limits: not shown").
 * - every request waits a random 0–200 ms before it is handled;
 * - webhook deliveries (first attempts) wait a random 0–1000 ms before they are sent: neither
 *   contract promises a delivery delay.
 *
 * `withChaos` wraps an API's Handler (reference/server.ts); the webhook senders, told by their
 * options, call {@link deliveryDelayMs} where they schedule a first attempt.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from './http.js';
import { sendJson } from './http.js';

export interface ChaosOptions {
  /** share of requests answered 429 (default 0.05) */
  rateLimitedShare: number;
  /** upper bound of the random latency before a request is handled (default 200 ms) */
  maxLatencyMs: number;
  /** the 429 body (each API's error shape) */
  rateLimitedBody: unknown;
  /** writes the 429 instead of `rateLimitedBody` (the personality's body and Retry-After) */
  tooManyRequests?: (res: ServerResponse, retryAfterSeconds: number) => void;
  /** source of randomness in [0, 1) (tests) */
  random: () => number;
}

export const DEFAULT_CHAOS: Omit<ChaosOptions, 'rateLimitedBody'> = {
  rateLimitedShare: 0.05,
  maxLatencyMs: 200,
  random: Math.random,
};

/** Upper bound of the random delay before a webhook's first delivery attempt. */
export const MAX_DELIVERY_DELAY_MS = 1_000;

/** True when `REFERENCE_CHAOS=1`. */
export function chaosEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.REFERENCE_CHAOS?.trim() === '1';
}

/** The delay before a first webhook delivery attempt: 0 unless chaos is on. */
export function deliveryDelayMs(chaos: boolean, random: () => number = Math.random): number {
  return chaos ? Math.floor(random() * MAX_DELIVERY_DELAY_MS) : 0;
}

/** {@link deliveryDelayMs} with chaos read from the environment. */
export function chaosDeliveryDelayMs(env: NodeJS.ProcessEnv = process.env, random: () => number = Math.random): number {
  return deliveryDelayMs(chaosEnabled(env), random);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Wraps a Handler with random latency and random 429 answers. */
export function withChaos(handler: Handler, options: Partial<ChaosOptions> & Pick<ChaosOptions, 'rateLimitedBody'>): Handler {
  const { rateLimitedShare, maxLatencyMs, random, rateLimitedBody, tooManyRequests } = { ...DEFAULT_CHAOS, ...options };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const latency = Math.floor(random() * (maxLatencyMs + 1));
    if (latency > 0) await sleep(latency);
    if (random() < rateLimitedShare) {
      // answered before the API sees the request: nothing happened, a retry is safe
      const seconds = random() < 0.5 ? 0 : 1;
      if (tooManyRequests) tooManyRequests(res, seconds);
      else sendJson(res, 429, rateLimitedBody, { 'retry-after': String(seconds) });
      return;
    }
    await handler(req, res);
  };
}
