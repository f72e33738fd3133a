/**
 * A per-credential request-rate limit (personality choice `rateLimitPerSecond`): past the limit
 * within one second a request is answered 429 with `Retry-After` before the API sees it, so a
 * retry is always safe. Gateway: "Every route can answer 401 and 429"; partner: "Rate limits: not
 * shown".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from './http.js';

/** Writes a 429; `retryAfterSeconds` is how long the caller should wait. */
export type TooManyRequests = (res: ServerResponse, retryAfterSeconds: number) => void;

/** `Retry-After` as delta-seconds or as an HTTP-date (RFC 9110 §10.2.3 allows both). */
export function retryAfterValue(seconds: number, format: 'seconds' | 'http-date', now: number = Date.now()): string {
  if (format === 'seconds') return String(seconds);
  // an HTTP-date has whole seconds: round up so the date is never earlier than the wait
  return new Date(Math.ceil(now / 1000) * 1000 + seconds * 1000).toUTCString();
}

export function withRateLimit(handler: Handler, perSecond: number, tooMany: TooManyRequests): Handler {
  if (perSecond <= 0) return handler;
  const windows = new Map<string, { second: number; count: number }>();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const second = Math.floor(Date.now() / 1000);
    const key = req.headers.authorization ?? '';
    let window = windows.get(key);
    if (!window || window.second !== second) {
      window = { second, count: 0 };
      windows.set(key, window);
      if (windows.size > 10_000) windows.clear();
    }
    window.count += 1;
    if (window.count > perSecond) {
      tooMany(res, 1);
      return;
    }
    await handler(req, res);
  };
}
