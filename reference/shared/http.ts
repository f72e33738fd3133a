/**
 * Minimal node:http plumbing for the reference: body reading, JSON answers, a tiny router.
 * Each API (gateway/, partner/) builds a `Handler` with these and server.ts mounts it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Personality } from '../personality.js';

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

/** How an API writes its JSON answers: the personality's formatting choices (reference/personality.ts). */
export interface ResponseStyle {
  indent: 0 | 2 | 4;
  sortKeys: boolean;
  headerCase: 'lower' | 'title';
  charset: boolean;
}

export const DEFAULT_STYLE: ResponseStyle = { indent: 0, sortKeys: false, headerCase: 'lower', charset: true };

export function responseStyle(p: Personality): ResponseStyle {
  return { indent: p.jsonIndent, sortKeys: p.jsonSortKeys, headerCase: p.headerCase, charset: p.jsonCharset };
}

/** A copy of a JSON value with object keys sorted at every depth. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** `content-type` → `Content-Type` (header names are case-insensitive, RFC 9110 §5.1). */
export function titleCase(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

export function casedHeaders(headers: Record<string, string>, headerCase: 'lower' | 'title'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[headerCase === 'title' ? titleCase(name) : name.toLowerCase()] = value;
  return out;
}

export function jsonText(body: unknown, style: Pick<ResponseStyle, 'indent' | 'sortKeys'>): string {
  return JSON.stringify(style.sortKeys ? sortedKeys(body) : body, null, style.indent || undefined);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, style: ResponseStyle = DEFAULT_STYLE): void {
  const text = jsonText(body, style);
  res.writeHead(status, casedHeaders({
    'content-type': style.charset ? 'application/json; charset=utf-8' : 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  }, style.headerCase));
  res.end(text);
}

/** An answer without a body (204). */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}, style: ResponseStyle = DEFAULT_STYLE): void {
  res.writeHead(status, casedHeaders(headers, style.headerCase));
  res.end();
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

/** Finds the route for a method and path; `methodMismatch` tells 405 from 404, `allowed` fills the 405's Allow header. */
export function matchRoute<C>(
  routes: readonly Route<C>[],
  method: string,
  path: string,
): { route: Route<C>; match: RouteMatch } | { route: undefined; methodMismatch: boolean; allowed: string[] } {
  let methodMismatch = false;
  const allowed: string[] = [];
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
      if (!allowed.includes(route.method)) allowed.push(route.method);
      continue;
    }
    return { route, match: { params } };
  }
  // RFC 9110 §15.5.6: a 405 MUST carry Allow with the target's methods
  return { route: undefined, methodMismatch, allowed };
}
