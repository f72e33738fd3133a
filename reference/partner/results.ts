/**
 * What a partner operation answers, before it is written to the wire. Errors carry only the
 * status and the readable detail; app.ts renders them as `{detail}` ("Errors": "Body: {detail: <readable message>}").
 */
export type ApiResult =
  | { kind: 'ok'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'error'; status: number; detail: string };

export function ok(body: unknown, headers?: Record<string, string>): ApiResult {
  return headers ? { kind: 'ok', status: 200, body, headers } : { kind: 'ok', status: 200, body };
}

export function fail(status: number, detail: string): ApiResult {
  return { kind: 'error', status, detail };
}
