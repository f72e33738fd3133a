/**
 * The gateway's error answers. Contract, "Errors": two body shapes occur, `{success: false,
 * message}` and `{error: <CODE>, message}`; codes seen `NOT_FOUND` (404 lookups) and
 * `IDEMPOTENCY_CONFLICT` (409). Handlers throw `ApiError`; `renderError` applies the
 * personality (shape, wording, 400 vs 422 for field rules) and app.ts writes it.
 */
import type { Personality } from '../personality.js';

export interface ErrorMeta {
  /** a field rule was broken: 400 or 422 by the personality ("422 | validation failure; message points to the field") */
  field?: string;
  problem?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    readonly meta: ErrorMeta = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

/** `{success: false, message}` with any status. */
export function failure(status: number, message: string, headers: Record<string, string> = {}): ApiError {
  return new ApiError(status, { success: false, message }, headers);
}

/**
 * 400 (or 422, by the personality) for a body that breaks a documented rule. The message starts
 * with the field's path so a client (and the suite) can tell which field was refused ("message
 * points to the field").
 */
export function invalidField(field: string, problem: string): ApiError {
  return new ApiError(400, { success: false, message: `${field}: ${problem}` }, {}, { field, problem });
}

/** 401: "token missing, invalid or expired" (and invalid credentials at POST /api/auth). */
export function unauthorized(message: string): ApiError {
  return failure(401, message, { 'www-authenticate': 'Bearer' });
}

/** 404 `{error: NOT_FOUND, message}`; fault `gw-error-not-found-without-code` uses the other shape. */
export function notFound(what: string, faults: ReadonlySet<string>): ApiError {
  const message = `${what} not found`;
  if (faults.has('gw-error-not-found-without-code')) return failure(404, message);
  return new ApiError(404, { error: 'NOT_FOUND', message });
}

const CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'VALIDATION_ERROR',
};

export interface RenderedError {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * The answer for an error under a personality. `invalidStatus` is the status the route gives a
 * field-rule failure (400 or 422). 404 and 409 keep the shapes the contract shows for them.
 */
export function renderError(error: ApiError, p: Personality, invalidStatus: 400 | 422 = 400): RenderedError {
  const status = error.meta.field !== undefined && error.status === 400 ? invalidStatus : error.status;
  const headers = { ...error.headers };
  if (status === 401) headers['www-authenticate'] = p.gwWwwAuthenticate;
  if (error.body.success !== false || typeof error.body.message !== 'string') return { status, body: error.body, headers };
  let message = error.body.message;
  if (p.gwMessageLanguage === 'pt') {
    message = error.meta.field !== undefined
      ? `O campo ${error.meta.field} é inválido: ${error.meta.problem ?? ''}`
      : `Requisição recusada: ${message}`;
  }
  const shape = status === 401 ? p.gwUnauthorizedShape : p.gwErrorShape;
  const code = CODES[status];
  if (shape === 'error-code' && code !== undefined) return { status, body: { error: code, message }, headers };
  return { status, body: { success: false, message }, headers };
}
