// The latency bench's delaying proxy: every request waits the added latency once, bodies and
// statuses go through unchanged, and requests in flight are counted (max and time-weighted mean).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { InFlightMeter, startDelayProxy } from '../bench/delay-proxy.js';

describe('delay proxy', () => {
  it('adds the latency to each request and counts them in flight', async () => {
    const upstream = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json', 'x-path': req.url ?? '' }).end(JSON.stringify({ echo: body })));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
    const { port } = upstream.address() as AddressInfo;
    const meter = new InFlightMeter();
    const proxy = await startDelayProxy(`http://127.0.0.1:${port}/v1`, { delayMs: 80 }, meter);
    try {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const t0 = performance.now();
      const answers = await Promise.all(
        [1, 2, 3, 4].map(async (i) => {
          const r = await request(`${proxy.url}/charges?i=${i}`, { method: 'POST', body: `body-${i}` });
          return { status: r.statusCode, path: r.headers['x-path'], json: (await r.body.json()) as { echo: string } };
        }),
      );
      const elapsed = performance.now() - t0;
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect(answers.map((a) => a.json.echo)).toEqual(['body-1', 'body-2', 'body-3', 'body-4']);
      expect(answers[0]?.path).toBe('/v1/charges?i=1');
      // delayed once each, side by side: about 80 ms, not 4 × 80
      expect(elapsed).toBeGreaterThanOrEqual(75);
      expect(elapsed).toBeLessThan(1_500);
      const stats = proxy.stats();
      expect(stats.requests).toBe(4);
      expect(stats.maxInFlight).toBe(4);
      expect(stats.meanInFlight).toBeGreaterThan(1);
      expect(stats.errors).toBe(0);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});
