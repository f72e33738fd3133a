/**
 * The network between the suite and the target, without loading the HTTP stack (the CLI and the
 * reporters read these at start-up; harness/http/transport.ts builds on them with undici).
 *
 * Proxies: `--proxy URL` (PAYGATE_PROXY) or HTTPS_PROXY / HTTP_PROXY / NO_PROXY (upper or lower
 * case), as curl reads them; loopback addresses always go direct.
 */
import { isIP } from 'node:net';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

function first(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The proxy settings of this process: PAYGATE_PROXY (--proxy) wins over HTTPS_PROXY/HTTP_PROXY. */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const forced = first(env, 'PAYGATE_PROXY');
  const httpsProxy = forced ?? first(env, 'HTTPS_PROXY', 'https_proxy');
  const httpProxy = forced ?? first(env, 'HTTP_PROXY', 'http_proxy');
  const noProxy = first(env, 'NO_PROXY', 'no_proxy');
  return { ...(httpProxy && { httpProxy }), ...(httpsProxy && { httpsProxy }), ...(noProxy && { noProxy }) };
}

/** True for `localhost`, 127.0.0.0/8 and ::1 (and IPv4-mapped loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host) || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** NO_PROXY matching as curl does it: `*`, exact host, a domain suffix (`.example.com` or `example.com`), optional `:port`. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (isLoopbackHost(url.hostname)) return true;
  if (noProxy === undefined) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\]$/g, ''));
    const name = (m?.[1] ?? entry).replace(/^\*?\./, '');
    if (m?.[2] !== undefined && m[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy URL a request to `url` goes through, or undefined (direct). */
export function proxyFor(url: URL, settings: ProxySettings = proxySettings()): string | undefined {
  if (bypassesProxy(url, settings.noProxy)) return undefined;
  return url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
}

/** A short description of the proxy settings for the run header, or undefined when none. */
export function describeProxy(settings: ProxySettings = proxySettings()): string | undefined {
  const proxies = [...new Set([settings.httpsProxy, settings.httpProxy].filter((p): p is string => p !== undefined))].map(redactProxyUrl);
  if (proxies.length === 0) return undefined;
  return `${proxies.join(', ')}${settings.noProxy !== undefined ? ` (NO_PROXY=${settings.noProxy})` : ''}`;
}

/** A proxy URL without its password (`http://user:***@proxy:3128`). */
export function redactProxyUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return text;
  }
}

/**
 * True for an error (possibly serialized across the worker boundary) that means "could not be
 * judged": an InconclusiveError or a failed gateway authentication. Such an error escaping a check
 * as an unhandled rejection is a consequence of what already made that check inconclusive, never
 * a check of its own.
 */
export function isInconclusiveError(error: { code?: unknown } | undefined): boolean {
  return error?.code === 'inconclusive' || error?.code === 'auth.failed' || error?.code === 'burst.connect' || error?.code === 'burst.connect-timeout';
}
