/**
 * Concurrency bursts: N requests released at the same instant over N separate connections, to
 * exercise "transitions are atomic: concurrent confirmations never apply the effect twice"
 * (gateway "States and transitions", partner "States and transitions").
 *
 * Each request gets its own undici `Client` whose TCP (or TLS) connection is opened BEFORE the
 * barrier; once every connection is up, all requests are started in the same tick. The requests are
 * made through the ordinary API clients: inside `makeRequest`, harness/http/client.ts picks the dedicated
 * connection for the burst's origin from an async-local scope. Rate-limit slots for the whole burst
 * are reserved up front so a `--max-rps` cap delays the burst but does not spread it out.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Client } from 'undici';
import { dispatchScope } from './client.js';
import { processRateLimiter } from './rate-limit.js';
import { HarnessError } from '../core/errors.js';
import { proxyFor, redactProxyUrl } from './transport.js';

export type BurstOutcome<T> =
  | { index: number; status: 'fulfilled'; value: T; startedAt: number; settledAt: number }
  | { index: number; status: 'rejected'; reason: unknown; startedAt: number; settledAt: number };

export interface BurstOptions {
  /** the base URL (or origin) the requests go to: the API's base address */
  origin: string;
  /** timeout for opening the connections before the barrier (default 10 s) */
  connectTimeoutMs?: number;
  /** the `--max-rps` cap, if any: the burst reserves N slots before starting */
  maxRps?: number;
  /**
   * holds the quiet-account lanes of the burst's API (harness/http/quiet-lane.ts `enterRequest`) once
   * for the whole burst, so an exclusive check that starts waiting meanwhile never splits it;
   * returns the function that ends the hold
   */
  holdLanes?: () => Promise<() => void>;
}

export interface BurstResult<T> {
  outcomes: BurstOutcome<T>[];
  /** fulfilled values, in request order */
  values: T[];
  /** rejection reasons, in request order */
  errors: unknown[];
  /** spread between the first and last request start (ms): how simultaneous the burst was */
  startSpreadMs: number;
}

/**
 * A connection to `url`'s host through an HTTP proxy: `CONNECT host:port`, then (https) TLS inside
 * the tunnel, so a burst behind HTTPS_PROXY/--proxy still has one pre-opened connection per request.
 */
function openTunnel(url: URL, proxy: string, timeoutMs: number): Promise<net.Socket> {
  const proxyUrl = new URL(proxy);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const proxySocket =
      proxyUrl.protocol === 'https:'
        ? tls.connect({ host: proxyUrl.hostname, port: Number(proxyUrl.port || 443) })
        : net.connect({ host: proxyUrl.hostname.replace(/^\[|\]$/g, ''), port: Number(proxyUrl.port || 80) });
    const fail = (message: string): void => {
      clearTimeout(timer);
      proxySocket.destroy();
      reject(new HarnessError('burst.connect', `could not open a connection to ${url.origin} through the proxy ${redactProxyUrl(proxy)}: ${message}`));
    };
    const timer = setTimeout(() => fail(`no tunnel within ${timeoutMs} ms`), timeoutMs);
    proxySocket.once('error', (err) => fail(err.message));
    proxySocket.once(proxyUrl.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const auth = proxyUrl.username ? `proxy-authorization: Basic ${Buffer.from(`${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`).toString('base64')}\r\n` : '';
      proxySocket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth}\r\n`);
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      proxySocket.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') return fail(`the proxy answered the CONNECT with ${status ?? 'something that is not HTTP'}`);
      if (head.length > end + 4) proxySocket.unshift(head.subarray(end + 4));
      if (url.protocol !== 'https:') {
        clearTimeout(timer);
        resolve(proxySocket);
        return;
      }
      const secure = tls.connect({ socket: proxySocket, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
      secure.once('secureConnect', () => {
        clearTimeout(timer);
        resolve(secure);
      });
      secure.once('error', (err) => fail(err.message));
    };
    proxySocket.on('data', onData);
  });
}

function openSocket(url: URL, timeoutMs: number): Promise<net.Socket> {
  const proxy = proxyFor(url);
  if (proxy !== undefined) return openTunnel(url, proxy, timeoutMs);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
        : net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new HarnessError('burst.connect-timeout', `could not open a connection to ${url.origin} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new HarnessError('burst.connect', `could not open a connection to ${url.origin}: ${err.message}`));
    });
  });
}

/**
 * Runs `makeRequest(i)` for i in 0..n-1 at the same instant, each over its own pre-opened
 * connection, and collects every outcome. Never throws for a request's failure; throws
 * HarnessError only when the connections cannot be opened.
 */
export async function burst<T>(n: number, makeRequest: (index: number) => Promise<T>, options: BurstOptions): Promise<BurstResult<T>> {
  if (!Number.isInteger(n) || n < 1) throw new HarnessError('burst.size', `burst size must be a positive integer, got ${n}`);
  const url = new URL(options.origin);
  const origin = url.origin;
  const sockets = await Promise.allSettled(Array.from({ length: n }, () => openSocket(url, options.connectTimeoutMs ?? 10_000)));
  const failed = sockets.find((s) => s.status === 'rejected');
  if (failed) {
    for (const s of sockets) if (s.status === 'fulfilled') s.value.destroy();
    throw (failed as PromiseRejectedResult).reason;
  }
  const clients = sockets.map((s) => {
    let socket: net.Socket | undefined = (s as PromiseFulfilledResult<net.Socket>).value;
    return new Client(origin, {
      pipelining: 1,
      connect: (_opts, callback) => {
        // the pre-opened connection first; a fresh one should undici need to reconnect (e.g. 429 retry after close)
        const ready = socket;
        socket = undefined;
        // always asynchronously: undici does not expect a re-entrant callback from its connector
        if (ready && !ready.destroyed) process.nextTick(() => callback(null, ready));
        else openSocket(url, options.connectTimeoutMs ?? 10_000).then((fresh) => callback(null, fresh), (err: Error) => callback(err, null));
      },
    });
  });

  const limiter = processRateLimiter(options.maxRps);
  if (limiter) await limiter.take(n);

  const outcomes: BurstOutcome<T>[] = [];
  const endWrite = await options.holdLanes?.();
  try {
    // the barrier: every connection is open; start all requests in this tick
    const pending = clients.map((dispatcher, index) =>
      dispatchScope.run({ origin, dispatcher, skipRateLimit: true, laneHeld: true }, async (): Promise<BurstOutcome<T>> => {
        const startedAt = performance.now();
        try {
          const value = await makeRequest(index);
          return { index, status: 'fulfilled', value, startedAt, settledAt: performance.now() };
        } catch (reason) {
          return { index, status: 'rejected', reason, startedAt, settledAt: performance.now() };
        }
      }),
    );
    outcomes.push(...(await Promise.all(pending)));
  } finally {
    endWrite?.();
    await Promise.allSettled(clients.map((c) => c.destroy()));
  }
  const starts = outcomes.map((o) => o.startedAt);
  return {
    outcomes,
    values: outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])),
    errors: outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : [])),
    startSpreadMs: starts.length ? Math.max(...starts) - Math.min(...starts) : 0,
  };
}
