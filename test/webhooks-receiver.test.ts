import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type RunningReceiver } from '../harness/webhooks/receiver.js';
import { ReceiverClient } from '../harness/webhooks/receiver-client.js';
import { summarizeDeliveries } from '../harness/webhooks/dedupe.js';
import { HarnessError } from '../harness/core/errors.js';

let receiver: RunningReceiver;
let client: ReceiverClient;

beforeAll(async () => {
  receiver = await startReceiver({ host: '127.0.0.1', port: 0 });
  client = new ReceiverClient(receiver.url);
});
afterAll(async () => {
  await receiver.close();
});

async function deliver(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${receiver.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.arrayBuffer();
  return res.status;
}

describe('webhook receiver', () => {
  it('binds an ephemeral port on 127.0.0.1 and answers health', async () => {
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(receiver.port).toBeGreaterThan(0);
    expect(await client.healthy()).toBe(true);
  });

  it('records exact bytes, lower-case headers, path and query, and lists them with filters', async () => {
    const raw = Buffer.from('{ "id": "evt_1",  "amount": 1050 }\n');
    expect(await deliver('/gw/a1?src=x', raw, { 'X-Service-Signature': 't=1,v1=ab', 'User-Agent': 'Gateway' })).toBe(200);
    expect(await deliver('/gw/b2', 'not json')).toBe(200);
    const all = await client.deliveries({ pathPrefix: '/gw/' });
    const first = all.find((d) => d.path === '/gw/a1');
    expect(first).toBeDefined();
    expect(first?.url).toBe('/gw/a1?src=x');
    expect(first?.method).toBe('POST');
    expect(first?.rawBody.equals(raw)).toBe(true);
    expect(first?.headers['x-service-signature']).toBe('t=1,v1=ab');
    expect(first?.headers['user-agent']).toBe('Gateway');
    expect(first?.json).toEqual({ id: 'evt_1', amount: 1050 });
    expect(first?.receivedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(first?.answeredStatus).toBe(200);
    const second = (await client.deliveries({ path: '/gw/b2' }))[0];
    expect(second?.json).toBeUndefined();
    expect(second?.bodyText).toBe('not json');
    expect(await client.deliveries({ path: '/gw/b2', afterSeq: second?.seq ?? 0 })).toEqual([]);
    expect(receiver.deliveries({ path: '/gw/a1' })).toHaveLength(1);
  });

  it('never records control routes; unknown control routes answer 404', async () => {
    const before = await client.lastSeq();
    const res = await fetch(`${receiver.url}/_control/nope`);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    expect(await client.lastSeq()).toBe(before);
  });

  it('waitFor resolves with a delivery that arrives while waiting', async () => {
    const path = '/gw/wait-1';
    const waiting = client.waitFor((d) => (d.json as { event?: string } | undefined)?.event === 'transaction_paid', { path, timeoutMs: 5_000, pollMs: 1_000 });
    await deliver(path, JSON.stringify({ id: 'e1', event: 'transaction_created' }));
    await deliver(path, JSON.stringify({ id: 'e2', event: 'transaction_paid' }));
    const found = await waiting;
    expect(found?.json).toEqual({ id: 'e2', event: 'transaction_paid' });
  });

  it('waitFor sees deliveries that arrived before the call, unless afterSeq excludes them', async () => {
    const path = '/gw/wait-2';
    await deliver(path, '{"id":"early"}');
    expect((await client.waitFor(() => true, { path, timeoutMs: 100 }))?.json).toEqual({ id: 'early' });
    const last = await client.lastSeq();
    expect(await client.waitFor(() => true, { path, afterSeq: last, timeoutMs: 150, pollMs: 50 })).toBeUndefined();
  });

  it('waitFor returns undefined on timeout (a missing webhook is the caller’s finding, not a throw)', async () => {
    const started = Date.now();
    expect(await client.waitFor(() => true, { path: '/gw/never', timeoutMs: 200, pollMs: 100 })).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('waitForCount resolves at n, or with the partial list on timeout', async () => {
    const path = '/gw/count';
    const waiting = client.waitForCount(() => true, 3, { path, timeoutMs: 5_000 });
    for (const id of ['a', 'b', 'c']) await deliver(path, JSON.stringify({ id }));
    expect((await waiting).map((d) => (d.json as { id: string }).id)).toEqual(['a', 'b', 'c']);
    expect(await client.waitForCount(() => true, 5, { path, timeoutMs: 100, pollMs: 50 })).toHaveLength(3);
  });

  it('script failFirst 2 → 500, 500, 200, recorded as answered; clearScript restores 200', async () => {
    await client.script('/partner', { failFirst: 2, status: 500 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await deliver('/partner', JSON.stringify({ id: 'evt_retry' })));
    expect(statuses).toEqual([500, 500, 200]);
    expect((await client.deliveries({ path: '/partner' })).map((d) => d.answeredStatus)).toEqual([500, 500, 200]);
    await client.script('/partner', { failFirst: 5, status: 503 });
    expect(await deliver('/partner', '{}')).toBe(503);
    await client.clearScript('/partner');
    expect(await deliver('/partner', '{}')).toBe(200);
  });

  it('script delayMs delays the scripted answers only', async () => {
    await client.script('/gw/slow', { failFirst: 1, status: 200, delayMs: 150 });
    const t0 = Date.now();
    expect(await deliver('/gw/slow', '{}')).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('rejects bad scripts with a HarnessError', async () => {
    await expect(client.script('/_control/x', { failFirst: 1, status: 500 })).rejects.toBeInstanceOf(HarnessError);
    await expect(client.script('/p', { failFirst: -1, status: 500 })).rejects.toBeInstanceOf(HarnessError);
  });
});

describe('ReceiverClient against nothing', () => {
  it('throws HarnessError when the receiver is unreachable', async () => {
    const gone = await startReceiver({ host: '127.0.0.1', port: 0 });
    await gone.close();
    const c = new ReceiverClient(gone.url);
    await expect(c.deliveries()).rejects.toMatchObject({ code: 'webhooks.receiver-unreachable' });
    expect(await c.healthy()).toBe(false);
  });

  it('a second receiver on a taken port fails with webhooks.receiver-bind', async () => {
    await expect(startReceiver({ host: '127.0.0.1', port: receiver.port })).rejects.toMatchObject({ code: 'webhooks.receiver-bind' });
  });
});

describe('summarizeDeliveries', () => {
  it('dedupes by event id and counts duplicates', async () => {
    const path = '/gw/dupes';
    for (const id of ['x', 'y', 'x', 'x']) await deliver(path, JSON.stringify({ id }));
    await deliver(path, 'plain');
    const s = summarizeDeliveries(await client.deliveries({ path }));
    expect(s.unique.map((u) => [u.id, u.count])).toEqual([
      ['x', 3],
      ['y', 1],
    ]);
    expect(s.duplicates).toEqual([{ id: 'x', count: 3 }]);
    expect(s.duplicateCount).toBe(2);
    expect(s.withoutId).toHaveLength(1);
    expect(s.unique[0]?.first.seq).toBeLessThan(s.unique[0]?.deliveries[1]?.seq ?? 0);
  });
});
