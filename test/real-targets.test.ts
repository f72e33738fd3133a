// Certifying a real sandbox (issue 19), end to end through the CLI, all on 127.0.0.1:
// - the embedded reference behind an HTTPS reverse proxy with path prefixes (a CA made here with
//   openssl), with the receiver behind a tunnel-like proxy (CALLBACK_PUBLIC_URL with a path):
//   trusted through NODE_EXTRA_CA_CERTS → the same verdict as plain HTTP; untrusted → inconclusive
//   (exit 4) in seconds, with the NODE_EXTRA_CA_CERTS hint;
// - a forward proxy that alone resolves `paygate-sandbox.test`: reached with --proxy and with
//   HTTPS_PROXY/HTTP_PROXY (bursts included); without it, DNS fails → inconclusive with the hint;
// - a target that goes away mid-run → the checks it touches are inconclusive, none fails;
// - a sandbox in maintenance (503 + HTML on every route) → inconclusive in seconds;
// - CALLBACK_PUBLIC_URL unreachable → inconclusive, naming the address.
// The full runs take a few suite files (bursts, webhooks both ways, a few plain checks).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConformanceReport } from '../harness/report/verdict.js';
import { startEmbeddedReference } from '../harness/config/target.js';
import type { EmbeddedReference } from '../harness/config/target.js';
import { envFromReference } from '../harness/run/global-setup.js';
import { conformanceCli } from './fault-matrix/runner.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = mkdtempSync(join(tmpdir(), 'paygate-real-targets-'));
const FILES = ['suites/gateway/balance.test.ts', 'suites/gateway/webhooks.test.ts', 'suites/gateway/atomicity.test.ts', 'suites/partner/webhooks.test.ts', 'suites/partner/charges.test.ts'];

// ------------------------------------------------------------------ servers

const servers: { close(): Promise<void> }[] = [];

function track(server: Server | ReturnType<typeof createNetServer>): void {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  track(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Forwards `req` to `target` (an http:// URL prefix), the rest of the path appended. */
function forward(req: IncomingMessage, res: ServerResponse, target: string, rest: string): void {
  const url = new URL(target.replace(/\/$/, '') + rest);
  const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway');
  });
  req.pipe(upstream);
}

/** A reverse proxy: `prefix` → `target` for each route, 404 otherwise. */
function reverseProxy(routes: { prefix: string; target: string }[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    const route = routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`) || path.startsWith(`${r.prefix}?`));
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no route');
      return;
    }
    forward(req, res, route.target, path.slice(route.prefix.length) || '/');
  };
}

/** An HTTP forward proxy that alone knows `paygate-sandbox.test` (→ 127.0.0.1): CONNECT tunnels and absolute-URI requests. */
function forwardProxy(seen: string[]): Server {
  const resolveHost = (host: string): string => (host === 'paygate-sandbox.test' ? '127.0.0.1' : host);
  const server = createHttpServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI expected');
      return;
    }
    seen.push(`${req.method} ${url.host}`);
    const target = `http://${resolveHost(url.hostname)}:${url.port || '80'}`;
    forward(req, res, target, `${url.pathname}${url.search}`);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    seen.push(`CONNECT ${host}:${port}`);
    const upstream = connect(Number(port), resolveHost(host), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  return server;
}

// ------------------------------------------------------------------ the CA

function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
  const run = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=paygate test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  return { ca: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.pem'), 'utf8') };
}

// ------------------------------------------------------------------ the CLI

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  report: ConformanceReport | undefined;
}

let runCount = 0;
/** Runs the CLI asynchronously (the proxies live in this process), with only `extra` as target configuration. */
function runCli(args: string[], extra: Record<string, string>, timeoutMs = 150_000): Promise<CliResult> {
  runCount += 1;
  const out = join(WORK, `run-${runCount}`);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|GATEWAY_|PARTNER_|PAYGATE_|CALLBACK_|REFERENCE_|HTTPS?_PROXY$|NO_PROXY$|NODE_EXTRA_CA_CERTS$)/i.test(k)) env[k] = v;
  }
  Object.assign(env, { CI: 'true', NO_COLOR: '1', PAYGATE_REPORTS_DIR: out, PAYGATE_INCLUDE: FILES.join(','), ...extra });

  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, conformanceCli(['--seed', '7', ...args]), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: ConformanceReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      } catch {
        report = undefined;
      }
      resolve({ code, stdout, stderr, ms: performance.now() - started, report });
    });
  });
}

function states(report: ConformanceReport | undefined): Record<string, string> {
  return Object.fromEntries((report?.checks ?? []).map((c) => [c.check, c.state]));
}

// ------------------------------------------------------------------ setup

let reference: EmbeddedReference;
let refEnv: Record<string, string>;
let certs: { ca: string; key: string; cert: string };
let callbackPort: number;
let tunnelUrl: string;
let httpsUrl: string;
let gatewayOrigin: string;
let partnerBase: string;
const proxied: string[] = [];
let proxyUrl: string;
let maintenanceUrl: string;

beforeAll(async () => {
  mkdirSync(WORK, { recursive: true });
  certs = makeCertificates(WORK);
  callbackPort = await freePort();
  // the tunnel: http://127.0.0.1:T/tunnel/... → the receiver the CLI will start on callbackPort
  const tunnelPort = await listen(createHttpServer(reverseProxy([{ prefix: '/tunnel', target: `http://127.0.0.1:${callbackPort}` }])));
  tunnelUrl = `http://127.0.0.1:${tunnelPort}/tunnel`;
  reference = await startEmbeddedReference({ callbackPublicUrl: tunnelUrl });
  refEnv = envFromReference(reference.info);
  gatewayOrigin = reference.info.gateway.baseUrl.replace(/\/+$/, '');
  partnerBase = reference.info.partner.baseUrl.replace(/\/+$/, '');
  // HTTPS with path prefixes in front of both APIs
  const httpsPort = await listen(createHttpsServer({ key: certs.key, cert: certs.cert }, reverseProxy([
    { prefix: '/sandbox', target: gatewayOrigin },
    { prefix: '/partner/v1', target: partnerBase },
  ])));
  httpsUrl = `https://127.0.0.1:${httpsPort}`;
  proxyUrl = `http://127.0.0.1:${await listen(forwardProxy(proxied))}`;
  maintenanceUrl = `http://127.0.0.1:${await listen(createHttpServer((req, res) => {
    req.resume();
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '3600' });
    res.end('<html><body><h1>Down for maintenance</h1></body></html>');
  }))}`;
}, 60_000);

afterAll(async () => {
  await reference?.stop();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(WORK, { recursive: true, force: true });
});

function targetEnv(gateway: string, partner: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...refEnv, GATEWAY_BASE_URL: gateway, PARTNER_BASE_URL: partner, CALLBACK_PORT: String(callbackPort), CALLBACK_PUBLIC_URL: tunnelUrl, ...extra };
}

// ------------------------------------------------------------------ the scenarios

describe('a real sandbox over the network', () => {
  let plain: CliResult;

  test('plain HTTP through the tunnel: the reference passes (the baseline verdict)', async () => {
    plain = await runCli([], targetEnv(gatewayOrigin, partnerBase));
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.report?.verdict).toBe('pass');
    expect(plain.stderr).toContain(`preflight: receiver: ${tunnelUrl} reaches`);
    expect(plain.report?.summary.passed).toBeGreaterThan(10);
  }, 160_000);

  test('HTTPS with a private CA trusted through NODE_EXTRA_CA_CERTS, base URLs with path prefixes: the same verdict as plain HTTP', async () => {
    const tls = await runCli([], targetEnv(`${httpsUrl}/sandbox`, `${httpsUrl}/partner/v1`, { NODE_EXTRA_CA_CERTS: certs.ca }));
    expect(tls.code, tls.stdout + tls.stderr).toBe(0);
    expect(tls.report?.verdict).toBe('pass');
    expect(states(tls.report)).toEqual(states(plain.report));
    expect(tls.report?.targets).toEqual({ gateway: `${httpsUrl}/sandbox`, partner: `${httpsUrl}/partner/v1` });
  }, 160_000);

  test('an untrusted certificate: inconclusive before any check, in seconds, with the NODE_EXTRA_CA_CERTS hint', async () => {
    const r = await runCli([], targetEnv(`${httpsUrl}/sandbox`, `${httpsUrl}/partner/v1`));
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stderr).toMatch(/INCONCLUSIVE, stopped before any check/);
    expect(r.stderr).toMatch(/not trusted: .*set NODE_EXTRA_CA_CERTS=/);
    expect(r.report?.verdict).toBe('inconclusive');
    expect(r.report?.summary.failed).toBe(0);
    expect(r.report?.requirements.some((q) => q.verdict === 'fail')).toBe(false);
    expect(r.report?.requirements.filter((q) => q.verdict === 'inconclusive').length).toBeGreaterThan(50);
  }, 60_000);

  test('a host only the forward proxy resolves: reached with --proxy (bursts included); without it DNS fails → inconclusive with the proxy hint', async () => {
    const gateway = `http://paygate-sandbox.test:${new URL(gatewayOrigin).port}`;
    const partner = `http://paygate-sandbox.test:${new URL(partnerBase).port}/v1`;
    const direct = await runCli([], targetEnv(gateway, partner));
    expect(direct.code, direct.stdout + direct.stderr).toBe(4);
    expect(direct.stderr).toMatch(/DNS failed for host paygate-sandbox\.test.*HTTPS_PROXY/);

    proxied.length = 0;
    const viaFlag = await runCli(['--proxy', proxyUrl], targetEnv(gateway, partner));
    expect(viaFlag.code, viaFlag.stdout + viaFlag.stderr).toBe(0);
    expect(viaFlag.stderr).toContain(`proxy: ${proxyUrl}`);
    expect(states(viaFlag.report)).toEqual(states(plain.report));
    expect(proxied.some((s) => s.includes('paygate-sandbox.test'))).toBe(true);
  }, 200_000);

  test('HTTPS_PROXY/HTTP_PROXY in the environment: the target through the proxy, the receiver direct', async () => {
    const gateway = `http://paygate-sandbox.test:${new URL(gatewayOrigin).port}`;
    const partner = `http://paygate-sandbox.test:${new URL(partnerBase).port}/v1`;
    proxied.length = 0;
    const r = await runCli(['--dry-run'], targetEnv(gateway, partner, { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain(`proxy: ${proxyUrl}`);
    // --dry-run starts nothing: the real thing on a webhook check (the receiver, on loopback, must go direct)
    const run = await runCli(['--api', 'gateway', '--grep', 'every run event reaches each subscribed webhook'], targetEnv(gateway, partner, { http_proxy: proxyUrl, HTTPS_PROXY: proxyUrl }));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.report?.summary.passed).toBe(1);
    expect(proxied.some((s) => s.includes('paygate-sandbox.test'))).toBe(true);
    expect(proxied.filter((s) => /127\.0\.0\.1|localhost/.test(s))).toEqual([]);
  }, 160_000);

  test('a target that goes away mid-run: the checks it touches are inconclusive with the cause, none fails', async () => {
    // in front of the partner API: answers the preflight and the first requests, then drops every connection
    let served = 0;
    const dying = await listen(createHttpServer((req, res) => {
      served += 1;
      if (served > 40) {
        req.socket.destroy();
        return;
      }
      forward(req, res, new URL(partnerBase).origin, req.url ?? '/');
    }));
    const r = await runCli(['--api', 'partner'], targetEnv(gatewayOrigin, `http://127.0.0.1:${dying}${new URL(partnerBase).pathname}`));
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.report?.verdict).toBe('inconclusive');
    expect(r.report?.summary.failed).toBe(0);
    expect(r.report?.summary.errors).toBe(0);
    expect(r.report?.summary.inconclusive).toBeGreaterThan(0);
    expect(r.report?.inconclusive[0]?.reason).toMatch(/got no response .*(cut|refused)/);
    expect(r.stdout + r.stderr).not.toMatch(/unhandled error/i);
  }, 160_000);

  test('a sandbox in maintenance (503 + HTML everywhere): inconclusive within seconds, never a conformance failure', async () => {
    const r = await runCli(['--profile', 'certify'], targetEnv(maintenanceUrl, `${maintenanceUrl}/v1`));
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stderr).toMatch(/every (gateway|partner) route answers 503 \(text\/html\): the target at .* is unavailable/);
    expect(r.report?.verdict).toBe('inconclusive');
    expect(r.report?.summary.failed).toBe(0);
  }, 60_000);

  test('CALLBACK_PUBLIC_URL unreachable: inconclusive, naming the address the target must reach', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/hooks`;
    const r = await runCli([], targetEnv(gatewayOrigin, partnerBase, { CALLBACK_PUBLIC_URL: dead }));
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stderr).toContain(`CALLBACK_PUBLIC_URL ${dead} is unreachable from here`);
    expect(r.stderr).toContain(`the receiver listens on 127.0.0.1:${callbackPort}`);
    expect(r.stderr).toContain('the target must reach this address');
    expect(r.report?.verdict).toBe('inconclusive');
  }, 60_000);
});
