/**
 * One HTTP request/response pair as the suite saw it. Recorded by harness/http/client.ts with every
 * secret already redacted, so it can go into any report as it is.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  /**
   * the path as the client asked for it, relative to the API base address (no query), e.g.
   * `/api/v1/pix/in/qrcode/abc` or, for the partner API, `/business/pix-charges`; used to match the
   * spec operation. Undefined for exchanges not made through harness/http/client.ts.
   */
  path?: string;
  /** header names lower-case; secret values replaced by `<redacted:kind>` */
  headers: Record<string, string>;
  /** body text as sent (secrets redacted), undefined when there was none */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** body text as received (secrets redacted) */
  body: string;
  /** parsed JSON when the body parses, else undefined */
  json?: unknown;
}

export interface Exchange {
  /** run-unique sequence number */
  seq: number;
  /** which API the exchange belongs to */
  api: 'gateway' | 'partner';
  /** the spec operation it matched, e.g. `POST /api/v1/pix/in/qrcode`; undefined when none */
  operation?: string;
  request: RecordedRequest;
  /** undefined when the request failed before a response (see `error`) */
  response?: RecordedResponse;
  /** network failure or our timeout, as text */
  error?: string;
  startedAt: string;
  durationMs: number;
  /** a curl command that replays the request, secrets as shell variables (e.g. "$GATEWAY_TOKEN") */
  curl: string;
}
