/**
 * Webhook signatures, the suite's own (independent of reference/shared/): signing for fixtures and
 * the receiver suite, and reading a received signature as facts. Pure, never throws, compares
 * digests with crypto.timingSafeEqual. Whether a signature conforms is the signature rules' to
 * judge (harness/rules/gateway/signature.ts, harness/rules/partner/signature.ts): nothing here
 * decides it.
 *
 * Both documents write the header `t=<epoch>,v1=<hmac>` with `v1` a hex HMAC-SHA256 of
 * `<timestamp>.<body>` keyed with the webhook's secret (gateway `ServiceGateway-Signature`, over
 * "the JSON of the payload"; partner `X-Service-Signature`, over "the raw request body").
 * {@link readSignature} says what a header holds and which signing input, if any, its digest
 * verifies over: the exact bytes received, or only their compact re-serialisation
 * (`JSON.stringify(JSON.parse(raw))`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const GATEWAY_SIGNATURE_HEADER = 'servicegateway-signature';
export const PARTNER_SIGNATURE_HEADER = 'x-service-signature';
/** partner "A timestamp tolerance of 300 seconds is the default in the reference verification." */
export const PARTNER_TOLERANCE_SECONDS = 300;

export type SignedBody = Buffer | Uint8Array | string;

/** A signature header, item by item. */
export interface ParsedSignatureHeader {
  /** every `key=value` item in order (split on `,`, trimmed) */
  items: Array<[string, string]>;
  /** every `t` value, in order */
  t: string[];
  /** every `v1` value, in order */
  v1: string[];
  /** the header is exactly `t=<digits>,v1=<hex digits>` */
  exact: boolean;
}

/** Which signing input a signature's digest verifies over. */
export type SigningInput = 'raw-body' | 'compact-json';

/** What one received signature holds (see {@link readSignature}). */
export interface SignatureFacts {
  /** the header as received; undefined when absent or empty */
  header: string | undefined;
  /** its items; undefined when the header has no `key=value` item at all */
  parsed?: ParsedSignatureHeader;
  /**
   * the (t, v1) pair whose digest verifies and over what (the raw body first); undefined when no
   * pair of the header verifies with the secret
   */
  match?: { t: string; v1: string; over: SigningInput };
  /** the lowercase hex HMAC over `<t>.<raw body>` for each t of the header (what v1 should be) */
  expected: Array<{ t: string; hex: string }>;
  /** the raw body is JSON whose compact re-serialisation is other bytes (so a match over it is a re-serialisation) */
  reserializable: boolean;
}

const EXACT_HEADER = /^t=\d+,v1=[0-9A-Fa-f]+$/;

function headerText(header: unknown): string | undefined {
  if (typeof header === 'string') return header;
  if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header.join(',');
  return undefined;
}

/** `key=value` items of a signature header (items split on `,`, trimmed); undefined when there is none. */
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
  const values = (key: string): string[] => items.filter(([k]) => k === key).map(([, v]) => v);
  return { items, t: values('t'), v1: values('v1'), exact: EXACT_HEADER.test(text) };
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

/** `candidate` is 64 hex digits (either case) equal to `digest`, compared in constant time. */
function equalsHex(candidate: string, digest: Buffer): boolean {
  if (!/^[0-9A-Fa-f]{64}$/.test(candidate)) return false;
  const bytes = Buffer.from(candidate, 'hex');
  return bytes.length === digest.length && timingSafeEqual(bytes, digest);
}

function compactOf(raw: Buffer): Buffer | undefined {
  try {
    const compact = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))), 'utf8');
    return compact.equals(raw) ? undefined : compact;
  } catch {
    return undefined;
  }
}

export interface SignatureInput {
  /** the header value (undefined when absent) */
  header: unknown;
  /** the exact bytes received */
  rawBody: SignedBody;
  /** the secret the receiver holds */
  secret: string;
}

/**
 * What a received signature holds: the header's items, and which of its (t, v1) pairs verifies with
 * `secret` over `<t>.<raw body>` or, failing that, over `<t>.<compact re-serialisation>`. Every t of
 * the header is tried (a header may carry several), every v1 (hex, either case).
 */
export function readSignature(input: SignatureInput): SignatureFacts {
  const text = headerText(input.header);
  const facts: SignatureFacts = { header: text === undefined || text.trim() === '' ? undefined : text, expected: [], reserializable: false };
  const parsed = facts.header === undefined ? undefined : parseSignatureHeader(text);
  if (parsed === undefined) return facts;
  facts.parsed = parsed;
  const raw = toBytes(input.rawBody);
  const compact = compactOf(raw);
  facts.reserializable = compact !== undefined;
  const inputs: Array<[SigningInput, Buffer]> = [['raw-body', raw], ...(compact ? [['compact-json', compact] as [SigningInput, Buffer]] : [])];
  for (const t of parsed.t) facts.expected.push({ t, hex: hmac(input.secret, t, raw).toString('hex') });
  for (const [over, bytes] of inputs) {
    for (const t of parsed.t) {
      const digest = hmac(input.secret, t, bytes);
      const v1 = parsed.v1.find((v) => equalsHex(v, digest));
      if (v1 !== undefined) {
        facts.match = { t, v1, over };
        return facts;
      }
    }
  }
  return facts;
}
