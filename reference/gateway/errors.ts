/**
 * The gateway's error answers. Contract, "Errors": two body shapes occur, `{success: false,
 * message}` and `{error: <CODE>, message}`; codes seen `NOT_FOUND` (404 lookups) and
 * `IDEMPOTENCY_CONFLICT` (409). Handlers throw `ApiError`; app.ts renders it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

/** `{success: false, message}` with any status. */
export function failure(status: number, message: string, headers: Record<string, string> = {}): ApiError {
  return new ApiError(status, { success: false, message }, headers);
}

/**
 * 400 for a body that breaks a documented rule. The message starts with the field's path so a
 * client (and the suite) can tell which field was refused ("message points to the field").
 */
export function invalidField(field: string, problem: string): ApiError {
  return failure(400, `${field}: ${problem}`);
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
