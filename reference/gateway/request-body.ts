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

/** A copy without `null` members at any depth: an optional field sent as null counts as absent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/**
 * The body as a JSON object, or a 400 saying why not. `nullsAbsent` (personality
 * `gwNullOptionalFields: absent`) drops null members, so an optional field sent as null is absent
 * and a required one is "required".
 */
export async function readJsonObject(req: IncomingMessage, faults: ReadonlySet<string>, nullsAbsent = false): Promise<JsonObject> {
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
  return nullsAbsent ? (withoutNulls(parsed) as JsonObject) : parsed;
}

/**
 * Simulation routes take no body ("No body."): whatever is sent is read and ignored, or refused
 * with 400 (personality `gwSimulationBody`).
 */
export async function discardBody(req: IncomingMessage, refuse = false): Promise<void> {
  const raw = await readRawBody(req);
  if (refuse && raw.length > 0) throw failure(400, 'body: this route accepts no body');
}
