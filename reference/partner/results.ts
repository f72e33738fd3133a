/**
 * What a partner operation answers, before it is written to the wire. Errors carry the status and
 * the readable detail (and, for a refused field, the field and its rule, so the personality can
 * word it); app.ts renders them as `{detail}` ("Errors": "Body: {detail: <readable message>}").
 */
import type { Personality } from '../personality.js';

export type ApiResult =
  /** `body` undefined: an answer without a body (204) */
  | { kind: 'ok'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'error'; status: number; detail: string; field?: string; rule?: string };

export function ok(body: unknown, headers?: Record<string, string>): ApiResult {
  return headers ? { kind: 'ok', status: 200, body, headers } : { kind: 'ok', status: 200, body };
}

export function noContent(): ApiResult {
  return { kind: 'ok', status: 204, body: undefined };
}

export function fail(status: number, detail: string, field?: string, rule?: string): ApiResult {
  return field !== undefined ? { kind: 'error', status, detail, field, rule } : { kind: 'error', status, detail };
}

/** The `detail` text of an error under a personality ("detail points to the field" either way). */
export function detailText(result: Extract<ApiResult, { kind: 'error' }>, p: Personality): string {
  if (p.ptDetailLanguage === 'en') return result.detail;
  if (result.field !== undefined) return `Campo ${result.field} inválido: ${result.rule ?? ''}`;
  return `Falha na requisição: ${result.detail}`;
}
