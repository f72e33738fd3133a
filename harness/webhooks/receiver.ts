/**
 * The suite's webhook receiver: ONE node:http server per run (started by the global setup in the
 * main process). It records every delivery with its exact bytes and answers 200, or a scripted
 * status for the first n deliveries to a path (to exercise partner redelivery: "Redelivery: up to 8
 * attempts per event, exponential backoff…"). Test workers reach it over HTTP through the control
 * API under `/_control/` (see receiver-client.ts).
 *
 * Control API:
 * - `GET  /_control/health` → `{ok: true}`
 * - `GET  /_control/deliveries?path=&pathPrefix=&afterSeq=&waitMs=` → {@link DeliveryListing};
 *   with `waitMs`, a long poll: answers as soon as at least one matching delivery exists, or after
 *   `waitMs` (max 30 s) with an empty list.
 * - `PUT  /_control/scripts` body `{path, failFirst, status, delayMs?, bodyContains?}` → 204
 *   (`bodyContains`: only deliveries whose body contains the marker are scripted)
 * - `DELETE /_control/scripts?path=&bodyContains=` → 204 (no `path`: clears every script)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../core/errors.js';
import { CONTROL_PREFIX, type DeliveryFilter, type DeliveryListing, type ScriptSpec, type WireDelivery } from './types.js';

export interface ReceiverOptions {
  host: string;
  /** 0 picks a free port */
  port: number;
  /** bodies above this are cut (still recorded, flagged by a header `x-receiver-truncated`); default 5 MiB */
  maxBodyBytes?: number;
}

export interface RunningReceiver {
  /** base URL, e.g. `http://127.0.0.1:4799` (no trailing slash) */
  url: string;
  host: string;
  port: number;
  /** in-process view of the recorded deliveries (the same data the control API serves) */
  deliveries(filter?: DeliveryFilter): WireDelivery[];
  script(path: string, spec: ScriptSpec): void;
  clearScript(path?: string, bodyContains?: string): void;
  close(): Promise<void>;
}

interface ActiveScript extends ScriptSpec {
  remaining: number;
}

interface Waiter {
  filter: DeliveryFilter;
  resolve: () => void;
}

const MAX_WAIT_MS = 30_000;

function matchesFilter(d: WireDelivery, f: DeliveryFilter): boolean {
  if (f.path !== undefined && d.path !== f.path) return false;
  if (f.pathPrefix !== undefined && !d.path.startsWith(f.pathPrefix)) return false;
  if (f.afterSeq !== undefined && d.seq <= f.afterSeq) return false;
  return true;
}

function lowerCaseHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > max) {
        truncated = true;
        chunks.push(chunk.subarray(0, Math.max(0, max - size)));
        size = max;
      } else {
        chunks.push(chunk);
        size += chunk.length;
      }
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), truncated }));
    req.on('error', reject);
  });
}

function parseFilter(params: URLSearchParams): DeliveryFilter {
  const filter: DeliveryFilter = {};
  const path = params.get('path');
  if (path !== null) filter.path = path;
  const prefix = params.get('pathPrefix');
  if (prefix !== null) filter.pathPrefix = prefix;
  const after = params.get('afterSeq');
  if (after !== null && /^\d+$/.test(after)) filter.afterSeq = Number(after);
  return filter;
}

function parseScript(value: unknown): (ScriptSpec & { path: string }) | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const { path, failFirst, status, delayMs, bodyContains } = v;
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith(CONTROL_PREFIX)) return undefined;
  if (typeof failFirst !== 'number' || !Number.isInteger(failFirst) || failFirst < 0) return undefined;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return undefined;
  if (delayMs !== undefined && (typeof delayMs !== 'number' || delayMs < 0)) return undefined;
  if (bodyContains !== undefined && (typeof bodyContains !== 'string' || bodyContains === '')) return undefined;
  return {
    path,
    failFirst,
    status,
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(bodyContains === undefined ? {} : { bodyContains }),
  };
}

/** Scripts live under their path, or path + marker for a `bodyContains` script. */
function scriptKey(path: string, bodyContains?: string): string {
  return bodyContains === undefined ? path : `${path}\u0000${bodyContains}`;
}

/** Starts the receiver. A bind failure is a {@link HarnessError} (`webhooks.receiver-bind`), never a finding. */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const maxBody = options.maxBodyBytes ?? 5 * 1024 * 1024;
  const recorded: WireDelivery[] = [];
  const scripts = new Map<string, ActiveScript>();
  let waiters: Waiter[] = [];
  let seq = 0;
  const timers = new Set<NodeJS.Timeout>();

  const list = (filter: DeliveryFilter = {}): WireDelivery[] => recorded.filter((d) => matchesFilter(d, filter));

  const setScript = (path: string, spec: ScriptSpec): void => {
    scripts.set(scriptKey(path, spec.bodyContains), { ...spec, remaining: spec.failFirst });
  };
  const clearScript = (path?: string, bodyContains?: string): void => {
    if (path === undefined) scripts.clear();
    else scripts.delete(scriptKey(path, bodyContains));
  };
  /** The marker script whose marker the body contains (and still has answers left), else the path's. */
  const scriptFor = (path: string, bodyText: string): ActiveScript | undefined => {
    for (const [key, script] of scripts) {
      if (script.bodyContains !== undefined && script.remaining > 0 && key === scriptKey(path, script.bodyContains) && bodyText.includes(script.bodyContains)) return script;
    }
    return scripts.get(path);
  };

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = url.pathname.slice(CONTROL_PREFIX.length);
    if (route === 'health' && req.method === 'GET') return sendJson(res, 200, { ok: true });
    if (route === 'deliveries' && req.method === 'GET') {
      const filter = parseFilter(url.searchParams);
      const waitText = url.searchParams.get('waitMs');
      const waitMs = waitText !== null && /^\d+$/.test(waitText) ? Math.min(Number(waitText), MAX_WAIT_MS) : 0;
      const answer = (): void => {
        if (res.writableEnded) return;
        const listing: DeliveryListing = { deliveries: list(filter), lastSeq: seq };
        sendJson(res, 200, listing);
      };
      if (waitMs === 0 || list(filter).length > 0) return answer();
      const waiter: Waiter = { filter, resolve: answer };
      waiters.push(waiter);
      const done = (): void => {
        waiters = waiters.filter((w) => w !== waiter);
        answer();
      };
      waiter.resolve = done;
      later(waitMs, done);
      res.on('close', () => {
        waiters = waiters.filter((w) => w !== waiter);
      });
      return;
    }
    if (route === 'scripts' && (req.method === 'PUT' || req.method === 'POST')) {
      const { body } = await readBody(req, 64 * 1024);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const spec = parseScript(parsed);
      if (!spec) return sendJson(res, 400, { error: 'expected {path: "/…" (not /_control/), failFirst: int ≥ 0, status: 100–599, delayMs?: ≥ 0}' });
      const { path, ...rest } = spec;
      setScript(path, rest);
      res.writeHead(204).end();
      return;
    }
    if (route === 'scripts' && req.method === 'DELETE') {
      clearScript(url.searchParams.get('path') ?? undefined, url.searchParams.get('bodyContains') ?? undefined);
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 404, { error: `no control route ${req.method ?? ''} ${url.pathname}` });
  }

  async function handleDelivery(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { body, truncated } = await readBody(req, maxBody);
    const headers = lowerCaseHeaders(req.rawHeaders);
    if (truncated) headers['x-receiver-truncated'] = 'true';
    const script = scriptFor(url.pathname, body.toString('utf8'));
    let status = 200;
    let delayMs = 0;
    if (script && script.remaining > 0) {
      script.remaining -= 1;
      status = script.status;
      delayMs = script.delayMs ?? 0;
    }
    const delivery: WireDelivery = {
      seq: ++seq,
      path: url.pathname,
      url: req.url ?? url.pathname,
      method: req.method ?? 'POST',
      headers,
      bodyBase64: body.toString('base64'),
      receivedAt: Date.now(),
      answeredStatus: status,
    };
    recorded.push(delivery);
    for (const w of [...waiters]) if (matchesFilter(delivery, w.filter)) w.resolve();
    const answer = (): void => {
      if (res.writableEnded || res.destroyed) return;
      sendJson(res, status, { received: true, seq: delivery.seq });
    };
    if (delayMs > 0) later(delayMs, answer);
    else answer();
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver.invalid');
    const handler = url.pathname.startsWith(CONTROL_PREFIX) || url.pathname === CONTROL_PREFIX.slice(0, -1) ? handleControl : handleDelivery;
    handler(req, res, url).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `receiver: ${err instanceof Error ? err.message : String(err)}` });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(new HarnessError('webhooks.receiver-bind', `webhook receiver could not listen on ${options.host}:${options.port}: ${err.message}`));
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;

  return {
    url,
    host: address.address,
    port: address.port,
    deliveries: list,
    script: setScript,
    clearScript,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const w of [...waiters]) w.resolve();
        waiters = [];
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
