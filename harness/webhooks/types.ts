/**
 * Shapes shared by the webhook receiver (one node:http server per run) and its clients (any worker).
 */

/** One recorded delivery as it travels over the control API (body as base64 to keep exact bytes). */
export interface WireDelivery {
  /** receiver-unique, increasing from 1 */
  seq: number;
  /** the request path without query string, e.g. `/partner`, `/gw/<uuid>` */
  path: string;
  /** the request target as received (path plus query string) */
  url: string;
  method: string;
  /** header names lower-case; repeated headers joined with `, ` */
  headers: Record<string, string>;
  /** the exact body bytes, base64 */
  bodyBase64: string;
  /** when the last body byte arrived (ms since the epoch, receiver clock) */
  receivedAt: number;
  /** the status the receiver answered (200 unless scripted) */
  answeredStatus: number;
}

/** A delivery as a client sees it: the exact bytes, their text, and the parsed JSON when it parses. */
export interface Delivery extends Omit<WireDelivery, 'bodyBase64'> {
  rawBody: Buffer;
  /** the body decoded as UTF-8 */
  bodyText: string;
  /** parsed JSON when the body parses, else undefined */
  json?: unknown;
}

export interface DeliveryFilter {
  /** exact path match (no query string) */
  path?: string;
  /** path prefix match, e.g. `/gw/` */
  pathPrefix?: string;
  /** only deliveries with seq greater than this */
  afterSeq?: number;
}

/**
 * A scripted answer for one path: `status` (after `delayMs`) for the next `failFirst` deliveries.
 * With `bodyContains`, only deliveries whose body text contains that marker count (and are
 * answered so), so a check can fail ITS events on a path shared with concurrent checks; such a
 * script is kept apart from the path-wide one and wins over it.
 */
export interface ScriptSpec {
  failFirst: number;
  status: number;
  delayMs?: number;
  bodyContains?: string;
}

/** The control API's answer to a deliveries listing. */
export interface DeliveryListing {
  deliveries: WireDelivery[];
  /** the highest seq recorded so far (0 when none), whatever the filter */
  lastSeq: number;
}

/** Every control route lives under this prefix; it is never recorded as a delivery. */
export const CONTROL_PREFIX = '/_control/';
