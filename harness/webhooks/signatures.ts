/**
 * Webhook signature verification, the suite's own (independent of reference/shared/). Pure, never
 * throws, compares digests with crypto.timingSafeEqual.
 *
 * Gateway (gateway-api.md, "Callback headers"): "ServiceGateway-Signature | `t=<epoch>,v1=<hmac>`,
 * sent only when the webhook has a signatureSecret"; "Signature: `v1` is the lowercase hex
 * HMAC-SHA256, keyed with the signatureSecret, over the text `<timestamp>.<JSON of the payload>`.
 * Compare in constant time." Whether "JSON of the payload" is the raw body or a re-serialisation is
 * ambiguous (contract README), so a match over either the raw body or the compact
 * `JSON.stringify(JSON.parse(raw))` is accepted, and the result says which.
 *
 * Partner (partner-cashin-api.md, "Authentication" 4): "header `X-Service-Signature` with
 * `t=<epoch>,v1=<hmac>`. `v1` is the hex HMAC-SHA256, keyed with the endpoint secret, over
 * `<timestamp>.<raw request body>`. The raw body, not a re-serialized JSON, must be used.
 * Comparison is constant-time. A timestamp tolerance of 300 seconds is the default in the reference
 * verification." "hex" (not "lowercase hex"): either case is accepted.
 */
import type { FindingCode } from '../rules/codes.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Severity } from '../rules/finding.js';

export const GATEWAY_SIGNATURE_HEADER = 'servicegateway-signature';
export const PARTNER_SIGNATURE_HEADER = 'x-service-signature';
export const PARTNER_TOLERANCE_SECONDS = 300;

export type SignedBody = Buffer | Uint8Array | string;

/** One sub-result. `severity` is the fair default when `ok` is false. */
export interface SignatureCheck {
  ok: boolean;
  code?: FindingCode;
  detail: string;
  severity?: Severity;
}

export interface SignatureFormat {
  /** the header follows `t=<digits>,v1=<hex>` exactly */
  grammar: SignatureCheck;
  /** v1 is 64 hex digits (gateway: lowercase) */
  v1: SignatureCheck;
  /** t is an integer epoch in seconds */
  timestamp: SignatureCheck;
}

export interface SignatureResult {
  /**
   * The verdict a receiver would reach. Gateway: the HMAC matched (over raw body or compact JSON).
   * Partner: the HMAC matched over the raw body AND t is within the tolerance of `receivedAt`.
   */
  ok: boolean;
  /** why not ok: `signature.missing-header`, `signature.header-grammar`, `signature.mismatch`,
   * `signature.reserialized-body` (partner), `signature.timestamp-outside-tolerance` (partner) */
  code?: FindingCode;
  detail: string;
  /** which signing input matched, when one did */
  matchedOver?: 'raw-body' | 'compact-json';
  format: SignatureFormat;
  /** `ok` and every format check ok */
  conforms: boolean;
  /** the header's t as a number, when it parses */
  timestamp?: number;
  /** receivedAt (seconds) − t, when both are known */
  skewSeconds?: number;
}

export interface ParsedSignatureHeader {
  t?: string;
  v1: string[];
  /** every `key=value` item in order */
  items: Array<[string, string]>;
  /** exactly `t=<digits>,v1=<hex>` */
  strict: boolean;
}

const STRICT_GRAMMAR = /^t=\d+,v1=[0-9A-Fa-f]+$/;

function headerText(header: unknown): string | undefined {
  if (typeof header === 'string') return header;
  if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header.join(',');
  return undefined;
}

/** Tolerant parse of `t=<epoch>,v1=<hmac>` (items split on `,`, trimmed); undefined when no `=` item at all. */
export function parseSignatureHeader(header: unknown): ParsedSignatureHeader | undefined {
  const text = headerText(header);
  if (text === undefined) return undefined;
  const items: Array<[string, string]> = [];
  for (const part of text.split(',')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    items.push([part.slice(0, i).trim(), part.slice(i + 1).trim()]);
  }
  if (items.length === 0) return undefined;
  const parsed: ParsedSignatureHeader = { v1: items.filter(([k]) => k === 'v1').map(([, v]) => v), items, strict: STRICT_GRAMMAR.test(text) };
  const t = items.find(([k]) => k === 't');
  if (t) parsed.t = t[1];
  return parsed;
}

function toBytes(body: SignedBody): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function hmac(secret: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body])).digest();
}

/** Lowercase hex HMAC-SHA256 of `<timestamp>.<body>` keyed with `secret`. */
export function hmacSha256Hex(secret: string, timestamp: string | number, body: SignedBody): string {
  return hmac(secret, String(timestamp), toBytes(body)).toString('hex');
}

export interface SignOptions {
  secret: string;
  /** epoch seconds (default: now) */
  timestamp?: number | string;
  body: SignedBody;
  /** write v1 in uppercase hex (to build deviating fixtures) */
  uppercase?: boolean;
}

function sign(options: SignOptions): string {
  const t = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const hex = hmacSha256Hex(options.secret, t, options.body);
  return `t=${t},v1=${options.uppercase ? hex.toUpperCase() : hex}`;
}

/** A `ServiceGateway-Signature` value over exactly `body` (suite side, for tests and fixtures). */
export function signGateway(options: SignOptions): string {
  return sign(options);
}

/** An `X-Service-Signature` value over exactly `body` (suite side, for tests and fixtures). */
export function signPartner(options: SignOptions): string {
  return sign(options);
}

function equalsHex(candidateHex: string, digest: Buffer): boolean {
  if (!/^[0-9A-Fa-f]{64}$/.test(candidateHex)) return false;
  const candidate = Buffer.from(candidateHex, 'hex');
  return candidate.length === digest.length && timingSafeEqual(candidate, digest);
}

function checkTimestamp(t: string | undefined): SignatureCheck {
  if (t === undefined) return { ok: false, code: 'signature.timestamp-format', detail: 'no t= item', severity: 'failure' };
  if (!/^\d+$/.test(t)) return { ok: false, code: 'signature.timestamp-format', detail: `t=${JSON.stringify(t)} is not an integer epoch`, severity: 'failure' };
  if (t.length >= 12) {
    return {
      ok: false,
      code: 'signature.timestamp-ms',
      detail: `t=${t} has ${t.length} digits: an epoch in milliseconds, not the Unix epoch in seconds`,
      severity: 'failure',
    };
  }
  return { ok: true, detail: `t=${t} is an integer epoch in seconds` };
}

function checkGrammar(header: ParsedSignatureHeader | undefined, raw: unknown): SignatureCheck {
  if (!header) return { ok: false, code: 'signature.header-grammar', detail: `header ${JSON.stringify(headerText(raw) ?? null)} is not t=<epoch>,v1=<hmac>`, severity: 'failure' };
  if (header.strict) return { ok: true, detail: 'header is exactly t=<epoch>,v1=<hex>' };
  if (header.t === undefined || header.v1.length === 0) {
    return { ok: false, code: 'signature.header-grammar', detail: `header lacks ${header.t === undefined ? 't=' : 'v1='}: ${JSON.stringify(headerText(raw))}`, severity: 'failure' };
  }
  // parseable, but not the documented form (spaces, order, extra items, several v1): tolerated, reported
  return { ok: false, code: 'signature.header-grammar', detail: `header ${JSON.stringify(headerText(raw))} is parseable but not exactly t=<epoch>,v1=<hmac>`, severity: 'warning' };
}

function checkV1(v1: string[], lowercaseRequired: boolean): SignatureCheck {
  if (v1.length === 0) return { ok: false, code: 'signature.v1-format', detail: 'no v1= item', severity: 'failure' };
  const bad = v1.find((v) => !/^[0-9A-Fa-f]{64}$/.test(v));
  if (bad !== undefined) return { ok: false, code: 'signature.v1-format', detail: `v1=${JSON.stringify(bad)} is not 64 hex digits (a hex HMAC-SHA256)`, severity: 'failure' };
  if (lowercaseRequired) {
    const upper = v1.find((v) => /[A-F]/.test(v));
    if (upper !== undefined) return { ok: false, code: 'signature.v1-not-lowercase', detail: `v1=${upper} has uppercase hex digits; the contract says "lowercase hex"`, severity: 'failure' };
  }
  return { ok: true, detail: `v1 is 64 ${lowercaseRequired ? 'lowercase ' : ''}hex digits` };
}

interface Matching {
  parsed?: ParsedSignatureHeader;
  format: SignatureFormat;
  matchedRaw: boolean;
  matchedCompact: boolean;
  expectedRawHex?: string;
  timestamp?: number;
}

function match(header: unknown, rawBody: SignedBody, secret: string, lowercaseRequired: boolean): Matching {
  const parsed = parseSignatureHeader(header);
  const format: SignatureFormat = {
    grammar: checkGrammar(parsed, header),
    v1: checkV1(parsed?.v1 ?? [], lowercaseRequired),
    timestamp: checkTimestamp(parsed?.t),
  };
  const result: Matching = { format, matchedRaw: false, matchedCompact: false };
  if (parsed) result.parsed = parsed;
  if (!parsed || parsed.t === undefined || parsed.v1.length === 0) return result;
  const t = parsed.t;
  if (/^\d+$/.test(t)) result.timestamp = Number(t);
  const raw = toBytes(rawBody);
  const rawDigest = hmac(secret, t, raw);
  result.expectedRawHex = rawDigest.toString('hex');
  result.matchedRaw = parsed.v1.some((v) => equalsHex(v, rawDigest));
  if (!result.matchedRaw) {
    let compact: string | undefined;
    try {
      compact = JSON.stringify(JSON.parse(raw.toString('utf8')));
    } catch {
      compact = undefined;
    }
    if (compact !== undefined && !Buffer.from(compact, 'utf8').equals(raw)) {
      const compactDigest = hmac(secret, t, Buffer.from(compact, 'utf8'));
      result.matchedCompact = parsed.v1.some((v) => equalsHex(v, compactDigest));
    }
  }
  return result;
}

function finish(base: Omit<SignatureResult, 'conforms'>): SignatureResult {
  const { grammar, v1, timestamp } = base.format;
  return { ...base, conforms: base.ok && grammar.ok && v1.ok && timestamp.ok };
}

function missing(name: string, format: SignatureFormat): SignatureResult {
  return finish({ ok: false, code: 'signature.missing-header', detail: `no ${name} header`, format });
}

export interface GatewayVerifyInput {
  /** the `ServiceGateway-Signature` header value (undefined when absent) */
  header: unknown;
  /** the exact bytes received */
  rawBody: SignedBody;
  /** the webhook's signatureSecret */
  secret: string;
  /** ms epoch the delivery arrived (only used to report `skewSeconds`: the gateway states no tolerance) */
  receivedAt?: number;
}

/**
 * Verifies a gateway callback signature. `ok` when v1 matches the HMAC over the raw body or over
 * the compact re-serialisation (ambiguous "JSON of the payload"; `matchedOver` says which). The
 * format results report, separately: header grammar, v1 as 64 LOWERCASE hex digits (uppercase is a
 * deviation: the text says lowercase), t as an integer epoch in SECONDS (13 digits = milliseconds,
 * a deviation). No timestamp tolerance is checked: the gateway document states none.
 */
export function verifyGatewaySignature(input: GatewayVerifyInput): SignatureResult {
  try {
    const m = match(input.header, input.rawBody, input.secret, true);
    if (headerText(input.header) === undefined || (typeof input.header === 'string' && input.header.trim() === '')) return missing('ServiceGateway-Signature', m.format);
    const base = { format: m.format } as Omit<SignatureResult, 'conforms' | 'ok' | 'detail'>;
    if (m.timestamp !== undefined) base.timestamp = m.timestamp;
    if (m.timestamp !== undefined && input.receivedAt !== undefined) base.skewSeconds = Math.round(input.receivedAt / 1000 - m.timestamp);
    if (!m.parsed || m.parsed.t === undefined || m.parsed.v1.length === 0) {
      return finish({ ...base, ok: false, code: 'signature.header-grammar', detail: m.format.grammar.detail });
    }
    if (m.matchedRaw) return finish({ ...base, ok: true, matchedOver: 'raw-body', detail: 'v1 matches the HMAC over <t>.<raw body>' });
    if (m.matchedCompact) {
      return finish({ ...base, ok: true, matchedOver: 'compact-json', detail: 'v1 matches the HMAC over <t>.<compact JSON re-serialisation>, not over the raw body (accepted: "JSON of the payload" is ambiguous)' });
    }
    return finish({
      ...base,
      ok: false,
      code: 'signature.mismatch',
      detail: `v1 matches neither the HMAC over <t>.<raw body> (expected ${m.expectedRawHex ?? '?'}) nor over the compact JSON re-serialisation`,
    });
  } catch (err) {
    return finish({ ok: false, code: 'signature.error', detail: `could not verify: ${err instanceof Error ? err.message : String(err)}`, format: emptyFormat() });
  }
}

export interface PartnerVerifyInput {
  /** the `X-Service-Signature` header value (undefined when absent) */
  header: unknown;
  /** the exact bytes received */
  rawBody: SignedBody;
  /** the endpoint secret */
  secret: string;
  /** ms epoch the delivery arrived (the receiver's clock) */
  receivedAt: number;
  /** default 300 */
  toleranceSeconds?: number;
}

/**
 * Verifies a partner webhook signature. `ok` only when v1 (hex, either case) matches the HMAC over
 * `<t>.<raw request body>` AND |receivedAt − t| ≤ tolerance (300 s). A match only over a re-serialised
 * JSON is NOT ok (`signature.reserialized-body`): the contract says "The raw body, not a re-serialized
 * JSON, must be used".
 */
export function verifyPartnerSignature(input: PartnerVerifyInput): SignatureResult {
  try {
    const tolerance = input.toleranceSeconds ?? PARTNER_TOLERANCE_SECONDS;
    const m = match(input.header, input.rawBody, input.secret, false);
    if (headerText(input.header) === undefined || (typeof input.header === 'string' && input.header.trim() === '')) return missing('X-Service-Signature', m.format);
    const base = { format: m.format } as Omit<SignatureResult, 'conforms' | 'ok' | 'detail'>;
    if (m.timestamp !== undefined) {
      base.timestamp = m.timestamp;
      base.skewSeconds = Math.round(input.receivedAt / 1000 - m.timestamp);
    }
    if (!m.parsed || m.parsed.t === undefined || m.parsed.v1.length === 0) {
      return finish({ ...base, ok: false, code: 'signature.header-grammar', detail: m.format.grammar.detail });
    }
    const skew = base.skewSeconds;
    const outside = skew === undefined || Math.abs(skew) > tolerance;
    const toleranceText = skew === undefined ? `t=${m.parsed.t} is not an epoch` : `t is ${Math.abs(skew)} s ${skew >= 0 ? 'before' : 'after'} arrival (tolerance ${tolerance} s)`;
    if (m.matchedRaw) {
      if (outside) return finish({ ...base, ok: false, matchedOver: 'raw-body', code: 'signature.timestamp-outside-tolerance', detail: `v1 matches over <t>.<raw body>, but ${toleranceText}` });
      return finish({ ...base, ok: true, matchedOver: 'raw-body', detail: `v1 matches the HMAC over <t>.<raw body>; ${toleranceText}` });
    }
    if (m.matchedCompact) {
      return finish({
        ...base,
        ok: false,
        matchedOver: 'compact-json',
        code: 'signature.reserialized-body',
        detail: `v1 matches only over a re-serialised (compact) JSON, not over the raw request body; the contract says "The raw body, not a re-serialized JSON, must be used"${outside ? `; also ${toleranceText}` : ''}`,
      });
    }
    return finish({
      ...base,
      ok: false,
      code: 'signature.mismatch',
      detail: `v1 does not match the HMAC over <t>.<raw body> (expected ${m.expectedRawHex ?? '?'})${outside ? `; also ${toleranceText}` : ''}`,
    });
  } catch (err) {
    return finish({ ok: false, code: 'signature.error', detail: `could not verify: ${err instanceof Error ? err.message : String(err)}`, format: emptyFormat() });
  }
}

function emptyFormat(): SignatureFormat {
  const unknown: SignatureCheck = { ok: false, code: 'signature.error', detail: 'not checked', severity: 'failure' };
  return { grammar: unknown, v1: unknown, timestamp: unknown };
}
