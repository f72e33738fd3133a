import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, onAnyExchange } from '../harness/http/client.js';
import type { Exchange } from '../harness/core/exchange.js';
import { HarnessError } from '../harness/core/errors.js';
import { Redactor } from '../harness/http/redact.js';
import { RateLimiter, parseRetryAfter } from '../harness/http/rate-limit.js';
import { sendJson, startServer } from './harness-fixtures.js';
import type { TestServer } from './harness-fixtures.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  cleanup.push(s.close);
  return s;
}

function client(baseUrl: string, extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  const c = new HttpClient({ baseUrl, api: 'gateway', redactor: new Redactor(), ...extra });
  cleanup.push(() => c.destroy());
  return c;
}

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0')).toBe(0);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('spaces requests 1/rps apart without busy waiting', () => {
    let t = 0;
    const limiter = new RateLimiter(10, 1, () => t);
    expect(limiter.reserve()).toBe(0);
    expect(limiter.reserve()).toBe(100);
    expect(limiter.reserve(3)).toBe(200);
    t = 1000;
    expect(limiter.reserve()).toBe(0);
  });
});

describe('HttpClient', () => {
  it('records an exchange with request and response, relative path and curl', async () => {
    const s = await serve((req, body, res) => sendJson(res, 200, { method: req.method, url: req.url, body }));
    const c = client(`${s.url}/v1`, { api: 'partner' });
    const seen: Exchange[] = [];
    c.onExchange((e) => seen.push(e));
    const r = await c.request({ api: 'partner', method: 'POST', path: '/business/pix-charges', query: { status: 'paid' }, json: { a: 1 } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ method: 'POST', url: '/v1/business/pix-charges?status=paid', body: '{"a":1}' });
    expect(seen).toHaveLength(1);
    const ex = r.exchange;
    expect(ex.request.path).toBe('/business/pix-charges');
    expect(ex.request.url).toBe(`${s.url}/v1/business/pix-charges?status=paid`);
    expect(ex.request.headers['content-type']).toBe('application/json');
    expect(ex.response?.json).toEqual(r.json);
    expect(ex.curl).toContain(`'${s.url}/v1/business/pix-charges?status=paid'`);
    expect(ex.seq).toBeGreaterThan(0);
  });

  it('sends raw bodies byte for byte with the given content type', async () => {
    const s = await serve((req, body, res) => sendJson(res, 200, { ct: req.headers['content-type'], body }));
    const c = client(s.url);
    const r = await c.request({ api: 'gateway', method: 'POST', path: '/x', rawBody: '{"broken":', contentType: 'text/plain' });
    expect(r.json).toEqual({ ct: 'text/plain', body: '{"broken":' });
    expect(r.exchange.request.body).toBe('{"broken":');
  });

  it('retries a 429 after Retry-After and returns the success', async () => {
    let calls = 0;
    const s = await serve((_req, _body, res) => {
      calls += 1;
      if (calls <= 2) sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '0' });
      else sendJson(res, 200, { ok: true });
    });
    const c = client(s.url);
    const seen: Exchange[] = [];
    const r = await c.request({ api: 'gateway', method: 'GET', path: '/r', observers: [{ observe: (e) => seen.push(e) }] });
    expect(r.status).toBe(200);
    expect(calls).toBe(3);
    expect(seen.map((e) => e.response?.status)).toEqual([429, 429, 200]);
  });

  it('bounds 429 retries and caps the wait, returning the last 429', async () => {
    let calls = 0;
    const s = await serve((_req, _body, res) => {
      calls += 1;
      sendJson(res, 429, {}, { 'retry-after': '3600' });
    });
    const c = client(s.url, { max429Retries: 3, maxRetryAfterMs: 20 });
    const t0 = Date.now();
    const r = await c.request({ api: 'gateway', method: 'GET', path: '/r' });
    expect(r.status).toBe(429);
    expect(calls).toBe(4);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('does not retry when retryOn429 is false', async () => {
    let calls = 0;
    const s = await serve((_req, _body, res) => {
      calls += 1;
      sendJson(res, 429, {});
    });
    const r = await client(s.url).request({ api: 'gateway', method: 'GET', path: '/r', retryOn429: false });
    expect(r.status).toBe(429);
    expect(calls).toBe(1);
  });

  it('turns a timeout into an exchange with an error, not a throw', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    const c = client(s.url);
    const r = await c.request({ api: 'gateway', method: 'GET', path: '/slow', timeoutMs: 100 });
    expect(r.status).toBe(0);
    expect(r.exchange.response).toBeUndefined();
    expect(r.exchange.error).toBe('timeout after 100 ms');
  });

  it('records a connection failure as an exchange error', async () => {
    const s = await startServer(() => undefined);
    const url = s.url;
    await s.close();
    const r = await client(url).request({ api: 'gateway', method: 'GET', path: '/x', timeoutMs: 2000 });
    expect(r.status).toBe(0);
    expect(r.exchange.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it('SAFETY: refuses money-moving requests with production credentials and sends nothing', async () => {
    let calls = 0;
    const s = await serve((_req, _body, res) => {
      calls += 1;
      sendJson(res, 200, {});
    });
    const c = client(s.url);
    const seen: Exchange[] = [];
    const stop = onAnyExchange((e) => seen.push(e));
    cleanup.push(async () => {
      stop();
    });
    const attempt = c.request({ api: 'gateway', method: 'POST', path: '/api/v1/pix/out/pixkey', json: { amount: 1 }, moneyMoving: true, credentialEnvironment: 'production' });
    await expect(attempt).rejects.toBeInstanceOf(HarnessError);
    await expect(attempt).rejects.toMatchObject({ code: 'safety.money-moving-production' });
    expect(calls).toBe(0);
    expect(seen).toHaveLength(0);
    // the same request with sandbox credentials goes through
    const ok = await c.request({ api: 'gateway', method: 'POST', path: '/api/v1/pix/out/pixkey', json: { amount: 1 }, moneyMoving: true, credentialEnvironment: 'sandbox' });
    expect(ok.status).toBe(200);
    expect(calls).toBe(1);
  });

  it('applies the process-wide max-rps cap', async () => {
    const s = await serve((_req, _body, res) => sendJson(res, 200, {}));
    const c = client(s.url, { maxRps: 50 });
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => c.request({ api: 'gateway', method: 'GET', path: '/x' })));
    // 6 requests at 50 rps: the last starts ≥ 100 ms after the first
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
  });
});
