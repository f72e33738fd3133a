/**
 * Secret redaction for everything the suite records (exchanges, curl lines, findings, reports).
 *
 * Two kinds of rules:
 * - known values: every secret the suite holds (client secrets, Basic credentials, bearer tokens,
 *   API keys, webhook secrets, card tokens) is registered with a *kind*; any occurrence in a URL,
 *   header or body (raw, JSON-escaped or URL-encoded) becomes `<redacted:KIND>`. Kinds are named
 *   after the environment variable that would hold the value (`GATEWAY_TOKEN`, `PARTNER_API_KEY`),
 *   so harness/http/curl.ts can turn them into shell variable references.
 * - structural: `Authorization` header values become `Basic <redacted…>` / `Bearer <redacted…>`;
 *   cookies are dropped; JSON string fields named like a secret (`token`, `secret`,
 *   `signatureSecret`, `clientSecret`, `apiKey`, …, which covers `card.token`) are redacted and
 *   their values learnt as known secrets, so the auth response's `token` and the webhook creation
 *   response's `signatureSecret` never reach a report.
 */
import type { TargetConfig } from '../config/target.js';

/** Values shorter than this are not learnt as global secrets (they would redact ordinary text). */
export const MIN_SECRET_LENGTH = 6;

/** JSON keys whose string values are secrets, matched case-insensitively without `_`/`-`. */
const SECRET_KEYS = new Set([
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'secret',
  'clientsecret',
  'signaturesecret',
  'webhooksecret',
  'apikey',
  'password',
]);

const SENSITIVE_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization']);

/** Marker for a redacted value of a given kind. */
export function redactedMarker(kind?: string): string {
  return kind ? `<redacted:${kind}>` : '<redacted>';
}

/** New variants looked for with `includes` before they join the alternation (see Redactor.anyVariant). */
const FOLD_AT = 64;

/** The texts a secret value may appear as: raw, JSON-escaped, URL-encoded, base64, JSON-escaped twice. */
function variantsOf(value: string): string[] {
  const jsonEscaped = JSON.stringify(value).slice(1, -1);
  // a JSON-escaped value inside a JSON string inside JSON (e.g. an echoed body)
  const all = [value, jsonEscaped, encodeURIComponent(value), Buffer.from(value, 'utf8').toString('base64'), JSON.stringify(jsonEscaped).slice(1, -1)];
  return [...new Set(all)].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

/** A literal string as a RegExp source. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Default kind for a secret JSON field learnt from a body. */
function kindForKey(key: string): string {
  const k = normaliseKey(key);
  if (k === 'signaturesecret') return 'GATEWAY_WEBHOOK_SECRET';
  if (k === 'webhooksecret') return 'WEBHOOK_SECRET';
  if (k === 'clientsecret') return 'CLIENT_SECRET';
  if (k === 'apikey') return 'API_KEY';
  if (k.endsWith('token')) return 'TOKEN';
  return 'SECRET';
}

export class Redactor {
  /** value → kind */
  private readonly secrets = new Map<string, string>();
  /** (variant text, kind), longest first; rebuilt lazily, only when a text holds a secret */
  private variants: [string, string][] | undefined;
  /**
   * One alternation of the variants in `folded`: a single regex scan says whether a text holds any
   * secret at all (about 6x faster than one `includes` per variant on a 5 KB body,
   * bench/stages.ts), so the common case, a text without secrets, skips the per-variant loop.
   * A run learns a new secret every few requests (tokens, card tokens, webhook secrets): the
   * alternation is rebuilt only when {@link FOLD_AT} new variants have gathered in `recent`
   * (looked for with `includes` meanwhile), not on every new secret: rebuilding and compiling a
   * regex of every variant per secret was most of the harness's CPU in a quick run.
   */
  private anyVariant: RegExp | undefined;
  /** variants in the alternation */
  private readonly folded: string[] = [];
  /** variants learnt since the alternation was built */
  private recent: string[] = [];

  /**
   * Registers a secret value. Re-registering a value updates its kind (so a token first learnt
   * structurally as `TOKEN` can be named `GATEWAY_TOKEN` by the token manager). Values shorter than
   * {@link MIN_SECRET_LENGTH} are ignored; they are still hidden by the structural rules.
   */
  register(value: string | undefined, kind: string): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    const known = this.secrets.get(value);
    if (known === kind) return;
    this.secrets.set(value, kind);
    this.variants = undefined;
    // a new kind for a known value changes no text to look for
    if (known !== undefined) return;
    for (const v of variantsOf(value)) this.recent.push(v);
    if (this.recent.length >= FOLD_AT) {
      for (const v of this.recent) this.folded.push(v);
      this.recent = [];
      this.anyVariant = undefined;
    }
  }

  /** header name (lower case) → kind: every value of that header is redacted (`--header`) */
  private readonly headerKinds = new Map<string, string>();

  /**
   * Redacts every value of a request header, whatever its length (a tenant `acme` too), as
   * `<redacted:KIND>`; the value is also registered as a secret (hidden where a body echoes it).
   */
  registerHeader(name: string, value: string, kind: string): void {
    this.headerKinds.set(name.toLowerCase(), kind);
    this.register(value, kind);
  }

  /** True when the value is a registered secret. */
  isSecret(value: string): boolean {
    return this.secrets.has(value);
  }

  /** The kind a value was registered with. */
  kindOf(value: string): string | undefined {
    return this.secrets.get(value);
  }

  private allVariants(): [string, string][] {
    if (this.variants) return this.variants;
    const out = new Map<string, string>();
    for (const [value, kind] of this.secrets) for (const v of variantsOf(value)) out.set(v, kind);
    this.variants = [...out.entries()].sort((a, b) => b[0].length - a[0].length);
    return this.variants;
  }

  /** True when a text may hold a known secret (never false when it does). */
  private mayHoldSecret(text: string): boolean {
    if (this.folded.length > 0) {
      this.anyVariant ??= new RegExp(this.folded.map((v) => escapeRegExp(v)).join('|'));
      if (this.anyVariant.test(text)) return true;
    }
    for (const v of this.recent) if (text.includes(v)) return true;
    return false;
  }

  /** Replaces every known secret (and its escaped/encoded variants) in a text. */
  redactText(text: string): string {
    // fast path: no variant occurs anywhere (the replacement loop below would change nothing)
    if (!this.mayHoldSecret(text)) return text;
    const variants = this.allVariants();
    let out = text;
    for (const [variant, kind] of variants) {
      if (out.includes(variant)) out = out.split(variant).join(redactedMarker(kind));
    }
    return out;
  }

  /**
   * Redacts an `Authorization` header value: `Scheme <redacted:KIND>` for a registered credential,
   * `Scheme <redacted>` otherwise. Unknown credentials are NOT learnt (a negative test's
   * `Bearer invalid` must not redact the word "invalid" everywhere).
   */
  redactAuthorization(value: string): string {
    const m = /^(\S+)(\s+)(.*)$/s.exec(value);
    if (!m) return redactedMarker(this.kindOf(value));
    const [, scheme = '', space = ' ', credential = ''] = m;
    return `${scheme}${space}${redactedMarker(this.kindOf(credential))}`;
  }

  /** Redacts a header map (names lower-cased). */
  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [rawName, value] of Object.entries(headers)) {
      const name = rawName.toLowerCase();
      if (name === 'authorization') out[name] = this.redactAuthorization(value);
      else if (SENSITIVE_HEADERS.has(name)) out[name] = redactedMarker();
      else if (this.headerKinds.has(name)) out[name] = redactedMarker(this.headerKinds.get(name));
      else out[name] = this.redactText(value);
    }
    return out;
  }

  /**
   * Redacts a body text. When it is JSON, secret-named fields are learnt and hidden first; the text
   * keeps its original formatting unless a secret field's value is too short to be learnt, in which
   * case the redacted document is re-serialised. `parsedText`: `JSON.parse(text)` when the caller
   * already has it (harness/http/client.ts parses every response once; this saves a second parse); it is
   * read, never modified. Omitted or undefined: the text is parsed here, unless `parsedKnown` says
   * the caller's parse already found it is not JSON.
   */
  redactBody(text: string, parsedText?: unknown, parsedKnown = parsedText !== undefined): string {
    let parsed: unknown = parsedText;
    let isJson = parsedText !== undefined;
    if (!parsedKnown) {
      try {
        parsed = JSON.parse(text);
        isJson = true;
      } catch {
        // not JSON: known values only
      }
    }
    if (isJson && parsed !== null && typeof parsed === 'object' && this.learnSecretFields(parsed)) {
      // a secret field too short to find in the text: hide it in a re-serialised copy
      const hide = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(hide);
        if (node === null || typeof node !== 'object') return node;
        const copy: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
          copy[k] = isSecretField(k, v) ? redactedMarker(this.kindOf(v)) : hide(v);
        }
        return copy;
      };
      return this.redactText(JSON.stringify(hide(parsed)));
    }
    return this.redactText(text);
  }

  /**
   * Learns the secrets a body reveals (its secret-named JSON fields, as {@link redactBody} does)
   * without redacting it: harness/http/exchange.ts learns from every body when the request is
   * made and redacts the body only when the record is read. `parsedText`/`parsedKnown` as in
   * {@link redactBody}.
   */
  learnBody(text: string, parsedText?: unknown, parsedKnown = parsedText !== undefined): void {
    let parsed: unknown = parsedText;
    if (!parsedKnown) {
      // only a JSON object or array can hold a field (skips the parse of plain text and numbers)
      const first = text.trimStart()[0];
      if (first !== '{' && first !== '[') return;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
    }
    if (parsed !== null && typeof parsed === 'object') this.learnSecretFields(parsed);
  }

  /**
   * Registers the values of secret-named fields (long enough to be found in text) anywhere in a
   * parsed document; true when one is too short to be found, so the text must be re-serialised.
   */
  private learnSecretFields(node: unknown): boolean {
    if (node === null || typeof node !== 'object') return false;
    let short = false;
    if (Array.isArray(node)) {
      for (const item of node) if (this.learnSecretFields(item)) short = true;
      return short;
    }
    const record = node as Record<string, unknown>;
    // for…in over a JSON.parse result: own enumerable keys only, without the entries arrays
    for (const k in record) {
      const v = record[k];
      if (typeof v === 'object') {
        if (v !== null && this.learnSecretFields(v)) short = true;
      } else if (isSecretField(k, v)) {
        if (v.length < MIN_SECRET_LENGTH) short = true;
        else if (!this.secrets.has(v)) this.register(v, kindForKey(k));
      }
    }
    return short;
  }

  /** Redacts any value for display: strings as text, others through JSON. */
  redactValue(value: unknown): string {
    if (typeof value === 'string') return this.redactText(value);
    let text: string;
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
    return this.redactBody(text);
  }
}

/**
 * Field name → secret-named: every response body's string fields are looked at, and a run meets
 * the same few hundred names again and again (bounded: a target may send any names).
 */
const secretKeyNames = new Map<string, boolean>();

function isSecretKey(key: string): boolean {
  let secret = secretKeyNames.get(key);
  if (secret === undefined) {
    secret = SECRET_KEYS.has(normaliseKey(key));
    if (secretKeyNames.size < 4096) secretKeyNames.set(key, secret);
  }
  return secret;
}

/** A secret-named field holding a non-empty string. */
function isSecretField(key: string, value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && isSecretKey(key);
}

/** The process-wide redactor used by default by every harness module. */
export const defaultRedactor = new Redactor();

/** Kind names (and environment variables) of the target's secrets. */
export const SecretKinds = {
  gatewayClientSecret: { sandbox: 'GATEWAY_CLIENT_SECRET', live: 'GATEWAY_LIVE_CLIENT_SECRET', other: 'GATEWAY_OTHER_CLIENT_SECRET' },
  gatewayBasic: { sandbox: 'GATEWAY_BASIC', live: 'GATEWAY_LIVE_BASIC', other: 'GATEWAY_OTHER_BASIC' },
  gatewayToken: { sandbox: 'GATEWAY_TOKEN', live: 'GATEWAY_LIVE_TOKEN', other: 'GATEWAY_OTHER_TOKEN' },
  partnerApiKey: { test: 'PARTNER_API_KEY', live: 'PARTNER_LIVE_API_KEY', other: 'PARTNER_OTHER_API_KEY' },
  partnerWebhookSecret: 'PARTNER_WEBHOOK_SECRET',
  gatewayWebhookSecret: 'GATEWAY_WEBHOOK_SECRET',
  cardToken: 'CARD_TOKEN',
} as const;

/** base64 of `id:secret`, as sent after `Basic `. */
export function basicCredential(clientId: string, clientSecret: string): string {
  return Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64');
}

/** Registers a gateway pair's client secret and its Basic credential under the pair's kinds. */
export function registerPairSecrets(redactor: Redactor, pair: { clientId: string; clientSecret: string }, which: 'sandbox' | 'live' | 'other'): void {
  redactor.register(pair.clientSecret, SecretKinds.gatewayClientSecret[which]);
  redactor.register(basicCredential(pair.clientId, pair.clientSecret), SecretKinds.gatewayBasic[which]);
}

/** Registers every secret of a target configuration (client secrets, Basic credentials, keys). */
export function registerTargetSecrets(config: TargetConfig, redactor: Redactor = defaultRedactor): void {
  const gw = config.gateway;
  if (gw) {
    for (const which of ['sandbox', 'live', 'other'] as const) {
      const pair = gw[which];
      if (pair) registerPairSecrets(redactor, pair, which);
    }
  }
  const pt = config.partner;
  if (pt) {
    redactor.register(pt.apiKey, SecretKinds.partnerApiKey.test);
    redactor.register(pt.liveApiKey, SecretKinds.partnerApiKey.live);
    redactor.register(pt.otherApiKey, SecretKinds.partnerApiKey.other);
    redactor.register(pt.webhookSecret, SecretKinds.partnerWebhookSecret);
  }
}
