/**
 * The HTTP Archive (HAR 1.2) of a run: one entry per exchange a check recorded, in the order of the
 * checks and, within a check, of the requests. Exchanges are recorded with every secret already
 * redacted (harness/http/client.ts), so the archive can be handed to anyone as it is.
 *
 * Workers cannot hand the exchanges to the main process in the task meta (a fuzz check records
 * hundreds): at the end of each check the worker appends them, one JSON line per check, to
 * `<har>.parts/<pid>.jsonl` ({@link spoolExchanges}); the verdict reporter then writes the archive
 * ({@link writeHar}) and removes the parts. `PAYGATE_HAR` (the archive's path, set by `--har` and by
 * `certify`) switches it on.
 *
 * Each entry carries `_check` (the check id), `_seq` (the request's number in its worker) and, for
 * a request that got no answer, `_error` with status 0 (HAR's way of saying "no response").
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Exchange } from '../core/exchange.js';

/** The archive's name in the reports directory. */
export const HAR_FILE = 'exchanges.har';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _check: string;
  _seq: number;
  _operation?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

/** One check's exchanges as a worker spools them. */
export interface SpooledCheck {
  check: string;
  exchanges: Exchange[];
}

function headersOf(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return found?.[1];
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** An exchange as a HAR entry. */
export function harEntry(exchange: Exchange, check: string): HarEntry {
  const { request, response } = exchange;
  const requestBody = request.body;
  const started = Number.isNaN(Date.parse(exchange.startedAt)) ? new Date(0).toISOString() : new Date(exchange.startedAt).toISOString();
  const time = Math.max(0, Math.round(exchange.durationMs * 1000) / 1000);
  return {
    startedDateTime: started,
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(request.headers),
      queryString: queryOf(request.url),
      ...(requestBody !== undefined && { postData: { mimeType: header(request.headers, 'content-type') ?? 'application/octet-stream', text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody !== undefined ? Buffer.byteLength(requestBody) : 0,
    },
    response:
      response !== undefined
        ? {
            status: response.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headersOf(response.headers),
            content: { size: Buffer.byteLength(response.body), mimeType: header(response.headers, 'content-type') ?? '', text: response.body },
            redirectURL: header(response.headers, 'location') ?? '',
            headersSize: -1,
            bodySize: Buffer.byteLength(response.body),
          }
        : { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: exchange.error ?? 'no response' },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _check: check,
    _seq: exchange.seq,
    ...(exchange.operation !== undefined && { _operation: exchange.operation }),
  };
}

/** The archive of checks' exchanges, in the order given. */
export function buildHar(checks: readonly SpooledCheck[], version: string, comment?: string): Har {
  const entries = checks.flatMap((c) => [...c.exchanges].sort((a, b) => a.seq - b.seq).map((e) => harEntry(e, c.check)));
  return { log: { version: '1.2', creator: { name: 'paygate-conformance', version }, entries, ...(comment !== undefined && { comment }) } };
}

/** Where workers spool the exchanges of the archive at `harPath`. */
export function spoolDir(harPath: string): string {
  return `${harPath}.parts`;
}

/** Worker: appends one check's exchanges to this process's spool file. */
export function spoolExchanges(harPath: string, check: SpooledCheck): void {
  const dir = spoolDir(harPath);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(check)}\n`);
}

/** Every spooled check, by check id (a check id seen twice keeps both sets). */
export function readSpool(harPath: string): Map<string, Exchange[]> {
  const out = new Map<string, Exchange[]>();
  const dir = spoolDir(harPath);
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const item = JSON.parse(line) as SpooledCheck;
      out.set(item.check, [...(out.get(item.check) ?? []), ...item.exchanges]);
    }
  }
  return out;
}

/**
 * Main process: writes the archive of the spooled exchanges, checks in `order` first (the run's
 * order), then any other, and removes the spool. Returns the number of entries.
 */
export function writeHar(harPath: string, order: readonly string[], version: string): number {
  const spooled = readSpool(harPath);
  const ids = [...order.filter((id) => spooled.has(id)), ...[...spooled.keys()].filter((id) => !order.includes(id))];
  const har = buildHar([...new Set(ids)].map((check) => ({ check, exchanges: spooled.get(check) ?? [] })), version);
  mkdirSync(dirname(harPath), { recursive: true });
  writeFileSync(harPath, `${JSON.stringify(har, null, 1)}\n`);
  rmSync(spoolDir(harPath), { recursive: true, force: true });
  return har.log.entries.length;
}

/** Removes a previous run's spool (the reporter, before the workers start). */
export function clearSpool(harPath: string): void {
  rmSync(spoolDir(harPath), { recursive: true, force: true });
}
