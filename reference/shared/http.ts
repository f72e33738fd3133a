/**
 * Minimal node:http plumbing for the reference: body reading, JSON answers, a tiny router.
 * Each API (gateway/, partner/) builds a `Handler` with these and server.ts mounts it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Largest request body the reference reads; bigger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {}

export async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export interface RouteMatch {
  params: Record<string, string>;
}

export interface Route<C> {
  method: string;
  /** pattern like `/api/v1/pix/in/qrcode/:transactionId/pay` */
  pattern: string;
  handle: (ctx: C, match: RouteMatch) => Promise<void> | void;
}

/** Finds the route for a method and path; `methodMismatch` tells 405 from 404. */
export function matchRoute<C>(
  routes: readonly Route<C>[],
  method: string,
  path: string,
): { route: Route<C>; match: RouteMatch } | { route: undefined; methodMismatch: boolean } {
  let methodMismatch = false;
  const parts = path.split('/');
  for (const route of routes) {
    const patternParts = route.pattern.split('/');
    if (patternParts.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const p = patternParts[i] as string;
      const actual = parts[i] as string;
      if (p.startsWith(':')) {
        if (actual === '') { ok = false; break; }
        try {
          params[p.slice(1)] = decodeURIComponent(actual);
        } catch {
          params[p.slice(1)] = actual;
        }
      } else if (p !== actual) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (route.method !== method) {
      methodMismatch = true;
      continue;
    }
    return { route, match: { params } };
  }
  return { route: undefined, methodMismatch };
}
