/**
 * A delaying HTTP reverse proxy: what a remote target looks like to the suite, without touching the
 * target's code. Every request waits `delayMs` before it is forwarded (so each round trip costs the
 * added latency once, as a far-away sandbox would), then goes to `target` unchanged (method, path,
 * headers including Host — links the target builds from Host keep pointing at the proxy, so they
 * are delayed too) and the answer streams back.
 *
 * It counts requests in flight (received, answer not yet finished): the maximum and the
 * time-weighted mean over the span between the first request and the last answer — the figure
 * that says how much of the latency the suite overlaps.
 *
 * Bounded: it listens on 127.0.0.1 only, refuses more than `maxInFlight` requests at once (503), and
 * gives up on an upstream answer after `upstreamTimeoutMs` (504).
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface DelayProxyStats {
  requests: number;
  maxInFlight: number;
  /** time-weighted mean of requests in flight between the first request and the last answer */
  meanInFlight: number;
  /** requests the proxy answered itself (503 over the bound, 502/504 upstream trouble) */
  errors: number;
}

export interface DelayProxy {
  /** `http://127.0.0.1:<port>` followed by the target's path prefix */
  url: string;
  stats(): DelayProxyStats;
  close(): Promise<void>;
}

export interface DelayProxyOptions {
  /** added before each request is forwarded, ms (0: none) */
  delayMs: number;
  maxInFlight?: number;
  upstreamTimeoutMs?: number;
}

/** Time-weighted in-flight counter shared by several proxies (one run's gateway and partner ports). */
export class InFlightMeter {
  private inFlight = 0;
  private max = 0;
  private area = 0;
  private firstAt: number | undefined;
  private lastAt = 0;
  requests = 0;
  errors = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  private advance(): number {
    const t = this.now();
    if (this.firstAt !== undefined) this.area += this.inFlight * (t - this.lastAt);
    this.lastAt = t;
    return t;
  }

  enter(): void {
    const t = this.advance();
    this.firstAt ??= t;
    this.requests++;
    this.inFlight++;
    this.max = Math.max(this.max, this.inFlight);
  }

  leave(): void {
    this.advance();
    this.inFlight--;
  }

  stats(): DelayProxyStats {
    const span = this.firstAt === undefined ? 0 : this.lastAt - this.firstAt;
    return {
      requests: this.requests,
      maxInFlight: this.max,
      meanInFlight: span > 0 ? Math.round((this.area / span) * 100) / 100 : 0,
      errors: this.errors,
    };
  }
}

/** Starts a delaying proxy on 127.0.0.1 (ephemeral port) in front of `target` (a base URL). */
export async function startDelayProxy(target: string, options: DelayProxyOptions, meter = new InFlightMeter()): Promise<DelayProxy> {
  const upstream = new URL(target);
  if (upstream.protocol !== 'http:') throw new Error(`delay-proxy: only http targets (got ${upstream.protocol})`);
  const maxInFlight = options.maxInFlight ?? 1024;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 60_000;
  // no socket cap: a burst of N requests reaches the target over N connections, as it left the suite
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const sockets = new Set<Socket>();
  let current = 0;

  const fail = (res: ServerResponse, status: number, text: string): void => {
    meter.errors++;
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
    res.end(text);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    meter.enter();
    current++;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      current--;
      meter.leave();
    };
    res.once('close', finish);
    if (current > maxInFlight) {
      fail(res, 503, `delay-proxy: more than ${maxInFlight} requests in flight`);
      req.resume();
      return;
    }
    // the body is read while the delay runs, so a request can be sent again (below)
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const bodyRead = new Promise<void>((resolve) => req.once('end', resolve));
    const forward = (retried: boolean): void => {
      const out = httpRequest(
        { agent, hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(res);
          answer.once('error', () => res.destroy());
        },
      );
      out.setTimeout(upstreamTimeoutMs, () => {
        out.destroy();
        fail(res, 504, `delay-proxy: no answer within ${upstreamTimeoutMs} ms`);
      });
      out.once('error', (error: NodeJS.ErrnoException) => {
        // a kept-alive connection the target closed just as it was reused: nothing reached the
        // target, so the request goes again on a fresh connection (as Node's docs advise)
        if (!retried && out.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent) return forward(true);
        if (!res.writableEnded) fail(res, 502, `delay-proxy: ${error.message}`);
      });
      out.end(Buffer.concat(chunks));
    };
    const start = (): void => void bodyRead.then(() => forward(false));
    if (options.delayMs > 0) setTimeout(start, options.delayMs);
    else start();
  };

  const server = createServer(handle);
  // the suite's own clients time out; a stale keep-alive socket must not hold close() up
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const prefix = upstream.pathname.replace(/\/+$/, '');
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    stats: () => meter.stats(),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}
