/**
 * TrackingParameters (contract, "TrackingParameters", same on PIX and card): all optional strings.
 * "1. A value sent in the body wins. 2. A field missing from the object is looked up by the same
 * name in the query string of the origin URL (Origin/Referer) and of postbackUrl."
 */
import type { IncomingMessage } from 'node:http';
import { optionalObject, optionalString } from './validation.js';

export const TRACKING_FIELDS = ['src', 'sck', 'utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;

function queryOf(url: string | undefined): URLSearchParams | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).searchParams;
  } catch {
    return undefined;
  }
}

/** Validates `trackingParameters` and fills missing fields from Origin/Referer, then postbackUrl. */
export function resolveTrackingParameters(
  value: unknown,
  req: IncomingMessage,
  postbackUrl: string | undefined,
  order: 'origin-referer-postback' | 'postback-referer-origin' = 'origin-referer-postback',
): Record<string, string> {
  const sent = optionalObject(value, 'trackingParameters') ?? {};
  // the contract names the sources but no precedence among them: the personality picks one
  const sources = [queryOf(req.headers.origin), queryOf(req.headers.referer), queryOf(postbackUrl)];
  if (order === 'postback-referer-origin') sources.reverse();
  const resolved: Record<string, string> = {};
  for (const field of TRACKING_FIELDS) {
    const fromBody = optionalString(sent[field], `trackingParameters.${field}`);
    if (fromBody !== undefined) {
      resolved[field] = fromBody;
      continue;
    }
    for (const query of sources) {
      const fromUrl = query?.get(field);
      if (fromUrl !== undefined && fromUrl !== null) {
        resolved[field] = fromUrl;
        break;
      }
    }
  }
  return resolved;
}
