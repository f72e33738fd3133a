/**
 * Reading JSON request bodies. Contract, "Endpoints": "All bodies are JSON"; an invalid body is a
 * 400, never a 5xx (fault `gw-error-malformed-json-500` breaks exactly that).
 */
import type { IncomingMessage } from 'node:http';
import { readRawBody } from '../shared/http.js';
import { ApiError, failure } from './errors.js';
import { isJsonObject, type JsonObject } from './validation.js';

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The body as a JSON object, or a 400 saying why not. */
export async function readJsonObject(req: IncomingMessage, faults: ReadonlySet<string>): Promise<JsonObject> {
  const raw = await readRawBody(req);
  if (raw.length === 0) throw failure(400, 'body: a JSON object is required');
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw failure(400, 'content-type: must be application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    if (faults.has('gw-error-malformed-json-500')) {
      throw new ApiError(500, { success: false, message: 'Internal server error' });
    }
    throw failure(400, 'body: malformed JSON');
  }
  if (!isJsonObject(parsed)) throw failure(400, 'body: must be a JSON object');
  return parsed;
}

/** Simulation routes take no body; whatever is sent is read and ignored (see DECISIONS.md). */
export async function discardBody(req: IncomingMessage): Promise<void> {
  await readRawBody(req);
}
