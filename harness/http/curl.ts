/**
 * `toCurl(exchange)`: a copy-pasteable curl command replaying the recorded request.
 *
 * The exchange is already redacted (harness/http/redact.ts); every `<redacted:KIND>` marker whose kind
 * looks like an environment variable name becomes a shell reference (`"$GATEWAY_TOKEN"`), so the
 * command works once the user exports the variable and never carries the value. A Basic credential
 * of a known pair (`<redacted:GATEWAY_BASIC>`) becomes `-u "$GATEWAY_CLIENT_ID:$GATEWAY_CLIENT_SECRET"`.
 * Everything else is single-quoted (POSIX shells).
 */
import type { Exchange, RecordedRequest } from '../core/exchange.js';

const MARKER = /<redacted:([A-Z][A-Z0-9_]*)>/g;

/** POSIX single-quote escaping: `it's` → `'it'\''s'`. */
export function shellQuote(text: string): string {
  if (text === '') return "''";
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Quotes a word in which `<redacted:NAME>` markers become `$NAME` references. Uses one double-quoted
 * string when the literal parts are safe inside double quotes, else concatenates quoted pieces.
 */
export function shellWord(text: string): string {
  const parts: ({ literal: string } | { variable: string })[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const index = m.index ?? 0;
    if (index > last) parts.push({ literal: text.slice(last, index) });
    parts.push({ variable: m[1] ?? '' });
    last = index + m[0].length;
  }
  if (parts.length === 0) return shellQuote(text);
  if (last < text.length) parts.push({ literal: text.slice(last) });
  const literalsSafe = parts.every((p) => !('literal' in p) || !/[$`\\"!\n]/.test(p.literal));
  if (literalsSafe) {
    return `"${parts.map((p) => ('literal' in p ? p.literal : `$${p.variable}`)).join('')}"`;
  }
  return parts.map((p) => ('literal' in p ? shellQuote(p.literal) : `"$${p.variable}"`)).join('');
}

/** Headers curl sets itself or that would confuse a replay. */
const SKIP_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** The curl command for a recorded request (or exchange). */
export function toCurl(exchange: Pick<Exchange, 'request'> | { request: RecordedRequest }): string {
  const req = exchange.request;
  const args: string[] = ['curl', '-sS', '-i', '-X', shellQuote(req.method.toUpperCase())];
  for (const [name, value] of Object.entries(req.headers)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    const basic = /^Basic\s+<redacted:([A-Z][A-Z0-9_]*)_BASIC>$/i.exec(value);
    if (name.toLowerCase() === 'authorization' && basic) {
      const prefix = basic[1] ?? 'GATEWAY';
      args.push('-u', `"$${prefix}_CLIENT_ID:$${prefix}_CLIENT_SECRET"`);
      continue;
    }
    args.push('-H', shellWord(`${name}: ${value}`));
  }
  if (req.body !== undefined) args.push('--data-binary', shellWord(req.body));
  args.push(shellWord(req.url));
  return args.join(' ');
}
