/**
 * Absolute https URLs for `postbackUrl` ("string (URI)": gateway POST /api/v1/pix/in/qrcode,
 * /api/v1/pix/out/pixkey, /api/v1/card) and webhook `url`.
 * Hosts are under the reserved `example.com`/`example.org` names (RFC 2606), so nothing real is called.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

const SEGMENT_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-_';

export interface HttpsUrlOptions {
  /** Append a query string (used to test the TrackingParameters lookup in `postbackUrl`). */
  query?: Record<string, string>;
}

/** An absolute `https://` URI with 0–3 path segments. */
export function httpsUrl(options: HttpsUrlOptions = {}): Arbitrary<string> {
  const segment = fc.string({ unit: fc.constantFrom(...SEGMENT_CHARS), minLength: 1, maxLength: 12 });
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  return fc
    .tuple(fc.constantFrom('hooks.example.com', 'api.example.org', 'example.com'), fc.array(segment, { maxLength: 3 }))
    .map(([host, path]) => `https://${host}/${path.join('/')}${query}`);
}

/** Values that are not absolute URIs (no scheme). */
export function malformedUrl(): Arbitrary<string> {
  return fc.constantFrom('not a url', 'hooks.example.com/callback', '/relative/path', '://missing-scheme');
}
