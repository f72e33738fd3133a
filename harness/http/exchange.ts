/**
 * Records what harness/http/client.ts saw of one request as an {@link Exchange} (harness/core/exchange.ts),
 * with every secret redacted.
 */
import { toCurl } from './curl.js';
import type { Redactor } from './redact.js';
import type { Exchange, RecordedRequest, RecordedResponse } from '../core/exchange.js';
import { parseJsonText } from '../core/json.js';

/** What harness/http/client.ts saw of one request, unredacted: {@link recordExchange} makes the record. */
export interface ExchangeParts {
  api: 'gateway' | 'partner';
  operation?: string | undefined;
  /** upper-case */
  method: string;
  url: string;
  /** relative to the API base address, no query */
  path: string;
  /** request headers as sent, names lower-case */
  headers: Record<string, string>;
  /** the request body as sent, undefined when there was none */
  body?: string | Buffer | undefined;
  startedAt: Date;
  durationMs: number;
  /** 0: no response (see `error`) */
  status: number;
  responseHeaders: Record<string, string>;
  /** response body text as received */
  text: string;
  /** `JSON.parse(text)`, undefined when the body is not JSON */
  json: unknown;
  error?: string | undefined;
}

let sequence = 0;
/** Next run-unique exchange sequence number. */
export function nextExchangeSeq(): number {
  sequence += 1;
  return sequence;
}

/**
 * The redacted record of one request. Most records are never shown (a check that passes prints
 * nothing), so the costly parts (header and body redaction, the curl line, the parse of the
 * redacted body) are made when first read, by whatever reads them (a report, a failure, a rule),
 * and kept. The guarantee is unchanged, because:
 * - every secret a body can reveal is LEARNT here, at once: secret-named JSON fields of the request
 *   and response bodies are registered with the redactor before the record exists (a webhook's
 *   `signatureSecret` echoed in a later response, or a token in an earlier record rendered
 *   afterwards, is hidden wherever it appears), as before;
 * - a part is redacted when read, with the redactor as it is then: it knows every secret it knew
 *   when the request was made and possibly more, so a rendered record hides at least what an
 *   eager one did;
 * - the unredacted values live only in this function's closure: no property, spread, JSON or
 *   structured clone of the record reaches them (each property reads the redacted value).
 */
export function recordExchange(r: Redactor, p: ExchangeParts): Exchange {
  const bodyText = p.body === undefined ? undefined : Buffer.isBuffer(p.body) ? p.body.toString('utf8') : p.body;
  if (bodyText !== undefined) r.learnBody(bodyText);
  if (p.status !== 0) r.learnBody(p.text, p.json, true);
  // the getters below close over these, never over `p`: the raw parse (`p.json`, often the
  // largest thing a request makes) must not live as long as the record
  const sentHeaders = p.headers;
  const receivedHeaders = p.responseHeaders;
  const receivedText = p.text;
  let requestHeaders: Record<string, string> | undefined;
  let requestBody: string | undefined;
  const request: RecordedRequest =
    bodyText === undefined
      ? {
          method: p.method,
          url: r.redactText(p.url),
          path: r.redactText(p.path),
          get headers(): Record<string, string> {
            return (requestHeaders ??= r.redactHeaders(sentHeaders));
          },
          set headers(value: Record<string, string>) {
            requestHeaders = value;
          },
        }
      : {
          method: p.method,
          url: r.redactText(p.url),
          path: r.redactText(p.path),
          get headers(): Record<string, string> {
            return (requestHeaders ??= r.redactHeaders(sentHeaders));
          },
          set headers(value: Record<string, string>) {
            requestHeaders = value;
          },
          get body(): string {
            return (requestBody ??= r.redactBody(bodyText));
          },
          set body(value: string) {
            requestBody = value;
          },
        };
  let curl: string | undefined;
  const exchange: Exchange = {
    seq: nextExchangeSeq(),
    api: p.api,
    request,
    startedAt: p.startedAt.toISOString(),
    durationMs: p.durationMs,
    // a replay line is needed only when a report or a failure shows the exchange
    get curl(): string {
      return (curl ??= toCurl(exchange));
    },
    set curl(value: string) {
      curl = value;
    },
  };
  if (p.operation) exchange.operation = p.operation;
  if (p.status !== 0) {
    let headers: Record<string, string> | undefined;
    let body: string | undefined;
    let json: unknown;
    let parsed = false;
    const response: RecordedResponse = {
      status: p.status,
      get headers(): Record<string, string> {
        return (headers ??= r.redactHeaders(receivedHeaders));
      },
      set headers(value: Record<string, string>) {
        headers = value;
      },
      // parsed again: the caller may have changed its HttpResult.json since
      get body(): string {
        return (body ??= r.redactBody(receivedText));
      },
      set body(value: string) {
        body = value;
      },
      // the parse of the REDACTED body (the caller has the raw one in HttpResult.json)
      get json(): unknown {
        if (!parsed) {
          parsed = true;
          json = parseJsonText(response.body);
        }
        return json;
      },
      set json(value: unknown) {
        parsed = true;
        json = value;
      },
    };
    exchange.response = response;
  }
  if (p.error !== undefined) exchange.error = r.redactText(p.error);
  return exchange;
}
