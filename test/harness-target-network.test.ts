// What a real sandbox needs on every request (harness/http/target-network.ts, harness/http/client.ts):
// the time limit (--request-timeout), extra headers sent to the target and redacted in every record
// (--header), a client certificate (--client-cert/--client-key, mTLS: direct and in a burst), the
// User-Agent naming the tool's version and a header naming the check.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient } from '../harness/http/client.js';
import { Redactor } from '../harness/http/redact.js';
import { inCheck } from '../harness/http/check-context.js';
import { targetNetwork } from '../harness/http/target-network.js';
import { parseArgs, workerEnv } from '../harness/cli/args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'paygate-network-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('headers, time limit, User-Agent, check header', () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const slow = req.url === '/v1/slow';
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), slow ? 2000 : 0);
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  test('every request carries them; the records show the header values redacted, curl as $PAYGATE_HEADER_*', async () => {
    const redactor = new Redactor();
    const client = new HttpClient({ api: 'partner', baseUrl: base, redactor, target: { timeoutMs: 300, headers: [['X-Tenant', 'acme'], ['X-Waf-Token', 'waf-secret-123']] } });
    try {
      const r = await inCheck('partner.charges.description-max', () => client.request({ api: 'partner', method: 'GET', path: '/echo', headers: { authorization: 'Bearer ak_test_0123456789' } }));
      expect(r.status).toBe(200);
      expect(seen.at(-1)).toMatchObject({ 'x-tenant': 'acme', 'x-waf-token': 'waf-secret-123', 'user-agent': `paygate-conformance/${VERSION}`, 'x-paygate-check': 'partner.charges.description-max', authorization: 'Bearer ak_test_0123456789' });
      expect(r.exchange.request.headers['x-tenant']).toBe('<redacted:PAYGATE_HEADER_X_TENANT>');
      expect(r.exchange.curl).toContain('"x-waf-token: $PAYGATE_HEADER_X_WAF_TOKEN"');
      expect(JSON.stringify(r.exchange)).not.toMatch(/waf-secret-123|acme/);
      // outside a check: no check header; a request's own header wins over --header
      await client.request({ api: 'partner', method: 'GET', path: '/echo', headers: { 'x-tenant': 'other' } });
      expect(seen.at(-1)?.['x-paygate-check']).toBeUndefined();
      expect(seen.at(-1)?.['x-tenant']).toBe('other');
      // the time limit: no answer within 300 ms
      const slow = await client.request({ api: 'partner', method: 'GET', path: '/slow' });
      expect(slow.status).toBe(0);
      expect(slow.exchange.error).toBe('timeout after 300 ms');
    } finally {
      await client.destroy();
    }
  });

  test('the flags reach the workers as PAYGATE_* variables, read back by targetNetwork()', () => {
    const env = workerEnv(parseArgs(['--request-timeout', '1500ms', '--header', 'X-Tenant: acme', '--header', 'X-Trace:t-1']), 1);
    expect(env).toMatchObject({ PAYGATE_REQUEST_TIMEOUT_MS: '1500', PAYGATE_TARGET_HEADERS: '[["X-Tenant","acme"],["X-Trace","t-1"]]' });
    expect(targetNetwork(env)).toEqual({ timeoutMs: 1500, headers: [['X-Tenant', 'acme'], ['X-Trace', 't-1']] });
    expect(parseArgs(['--request-timeout', '30']).network?.requestTimeoutMs).toBe(30_000);
    expect(() => parseArgs(['--header', 'Authorization: Bearer x'])).toThrow(/the suite sets this header itself/);
    expect(() => targetNetwork({ PAYGATE_CLIENT_CERT: join(work, 'missing.pem'), PAYGATE_CLIENT_KEY: join(work, 'missing.key') })).toThrow(/cannot read the client certificate/);
  });
});

/** A CA, a server certificate for 127.0.0.1 and a client certificate, with openssl. */
function certificates(dir: string): void {
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=paygate test CA');
  for (const [name, ext] of [['server', 'subjectAltName=IP:127.0.0.1'], ['client', 'extendedKeyUsage=clientAuth']] as const) {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(join(dir, `${name}.ext`), `${ext}\n`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`);
  }
}

// the client side runs in a child: NODE_EXTRA_CA_CERTS (trusting the test CA) is read at start-up
const CLIENT = `
import { HttpClient } from '${join(ROOT, 'harness/http/client.ts')}';
import { burst } from '${join(ROOT, 'harness/http/burst.ts')}';
import { targetNetwork } from '${join(ROOT, 'harness/http/target-network.ts')}';
const baseUrl = process.argv[2];
const client = new HttpClient({ api: 'gateway', baseUrl, target: targetNetwork() });
const one = await client.request({ api: 'gateway', method: 'GET', path: '/api/v1/balance' });
const both = await burst(2, () => client.request({ api: 'gateway', method: 'GET', path: '/api/v1/balance' }), { origin: baseUrl }).catch((e) => ({ values: [], error: String(e) }));
console.log(JSON.stringify({ status: one.status, error: one.exchange.error ?? null, burst: both.values.map((v) => v.status) }));
await client.destroy();
process.exit(0);
`;

describe('mTLS (--client-cert / --client-key)', () => {
  test('a target that requires a client certificate answers with it, refuses without; bursts too', async () => {
    certificates(work);
    const read = (name: string): Buffer => readFileSync(join(work, name));
    const server = createHttpsServer({ key: read('server.key'), cert: read('server.pem'), ca: read('ca.pem'), requestCert: true, rejectUnauthorized: true }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // .mts: an ES module (top-level await) outside the project's package.json
    writeFileSync(join(work, 'client.mts'), CLIENT);
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    // asynchronously: the server lives in this process
    const child = (env: Record<string, string>): Promise<{ status: number; error: string | null; burst: number[] }> =>
      new Promise((resolve, reject) => {
        execFile(process.execPath, [tsx, join(work, 'client.mts'), base], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'), ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
          if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { status: number; error: string | null; burst: number[] });
        });
      });
    try {
      const cli = workerEnv(parseArgs(['--client-cert', join(work, 'client.pem'), '--client-key', join(work, 'client.key')]), 1);
      const withCert = await child({ PAYGATE_CLIENT_CERT: cli['PAYGATE_CLIENT_CERT'] ?? '', PAYGATE_CLIENT_KEY: cli['PAYGATE_CLIENT_KEY'] ?? '' });
      expect(withCert).toEqual({ status: 200, error: null, burst: [200, 200] });
      const without = await child({});
      expect(without.status).toBe(0);
      expect(without.error).not.toBeNull();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
