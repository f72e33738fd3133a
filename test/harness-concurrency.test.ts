import { afterEach, describe, expect, it } from 'vitest';
import { burst } from '../harness/http/burst.js';
import { HttpClient } from '../harness/http/client.js';
import { Redactor } from '../harness/http/redact.js';
import { HarnessError } from '../harness/core/errors.js';
import { sendJson, startServer } from './harness-fixtures.js';
import type { TestServer } from './harness-fixtures.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

/** Holds every request until `n` are in flight at once (or 3 s pass), then answers all. */
async function barrierServer(n: number): Promise<{ server: TestServer; stats: { maxInFlight: number; ports: Set<number> } }> {
  const stats = { maxInFlight: 0, ports: new Set<number>() };
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const server = await startServer((req, _body, res) => {
    inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    stats.ports.add(req.socket.remotePort ?? 0);
    const answer = (): void => {
      inFlight -= 1;
      sendJson(res, req.url === '/fail' ? 500 : 200, { n: inFlight });
    };
    waiting.push(answer);
    if (inFlight >= n) for (const w of waiting.splice(0)) w();
    else setTimeout(() => waiting.includes(answer) && waiting.splice(waiting.indexOf(answer), 1) && answer(), 3000).unref();
  });
  cleanup.push(server.close);
  return { server, stats };
}

describe('burst', () => {
  it('fires N requests at once over N separate connections', async () => {
    const n = 12;
    const { server, stats } = await barrierServer(n);
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', connections: 1, redactor: new Redactor() });
    cleanup.push(() => http.destroy());
    const result = await burst(n, () => http.request({ api: 'gateway', method: 'POST', path: '/pay' }), { origin: server.url });
    expect(stats.maxInFlight).toBe(n);
    expect(stats.ports.size).toBe(n);
    expect(result.values.map((r) => r.status)).toEqual(Array.from({ length: n }, () => 200));
    expect(result.errors).toEqual([]);
    expect(result.outcomes.map((o) => o.index)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('collects failures without throwing', async () => {
    const { server } = await barrierServer(3);
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor: new Redactor() });
    cleanup.push(() => http.destroy());
    const result = await burst(
      4,
      async (i) => {
        if (i === 3) throw new Error('made up');
        return http.request({ api: 'gateway', method: 'GET', path: i === 0 ? '/fail' : '/ok' });
      },
      { origin: `${server.url}/base` },
    );
    expect(result.outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(result.values.map((r) => r.status)).toEqual([500, 200, 200]);
    expect(String(result.errors[0])).toContain('made up');
  });

  it('cannot open connections: HarnessError', async () => {
    const s = await startServer(() => undefined);
    await s.close();
    await expect(burst(2, () => Promise.resolve(1), { origin: s.url })).rejects.toBeInstanceOf(HarnessError);
  });
});
