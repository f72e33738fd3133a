// The quiet-account lane: shared holders together, an exclusive one alone and ahead of later shared
// requests; a hold ends when its connection closes (a dead worker cannot keep the lane).
import { afterEach, describe, expect, it } from 'vitest';
import { LaneLock, startLaneServer } from '../harness/run/lane.js';
import type { LaneServer } from '../harness/run/lane.js';
import { RequestLane, changesAccount, enterRequest, requestLane, takeLane, requestKinds } from '../harness/http/quiet-lane.js';
import { enterExclusiveLane, enterExclusiveLaneAfter, takeInOrder } from '../harness/run/check-lane.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunPauses, RunRateLimiter } from '../harness/http/rate-limit.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const QUIET = ['money', 'records', 'reads'] as const;

/** A request waiting for its lane: `went` turns true once it may go out; `end` ends it. */
function watch(entering: Promise<() => void> | undefined): { readonly went: boolean; end(): Promise<void> } {
  let went = false;
  const entered = entering?.then((end) => {
    went = true;
    return end;
  });
  return {
    get went() {
      return went;
    },
    end: async () => (await entered)?.(),
  };
}

/** A request that must wait while a window is held: it has not gone 50 ms on; after `release`, it goes. */
async function expectHeldUntil(entering: Promise<() => void> | undefined, release: () => void): Promise<void> {
  const request = watch(entering);
  await sleep(50);
  expect(request.went).toBe(false);
  release();
  await request.end();
  expect(request.went).toBe(true);
}

describe('LaneLock', () => {
  it('grants shared holders together, an exclusive one alone, with writer preference', () => {
    const lock = new LaneLock();
    const log: string[] = [];
    const s1 = lock.acquire('shared', () => log.push('s1'));
    const s2 = lock.acquire('shared', () => log.push('s2'));
    const x = lock.acquire('exclusive', () => log.push('x'));
    const s3 = lock.acquire('shared', () => log.push('s3'));
    expect(log).toEqual(['s1', 's2']);
    s1();
    expect(log).toEqual(['s1', 's2']);
    s2();
    expect(log).toEqual(['s1', 's2', 'x']);
    x();
    expect(log).toEqual(['s1', 's2', 'x', 's3']);
    s3();
    s3(); // releasing twice changes nothing
    expect(lock.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('an exclusive request waits for the holders in flight at most drainMs, then starts beside them', async () => {
    const lock = new LaneLock(30);
    const log: string[] = [];
    const long = lock.acquire('shared', () => log.push('long'));
    const x = lock.acquire('exclusive', (stragglers) => log.push(`x beside ${stragglers}`));
    const later = lock.acquire('shared', () => log.push('later'));
    expect(log).toEqual(['long']);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(log).toEqual(['long', 'x beside 1']);
    long();
    expect(log).toEqual(['long', 'x beside 1']);
    x();
    expect(log).toEqual(['long', 'x beside 1', 'later']);
    later();
    // a straggler already run beside is not waited for again
    const straggler = lock.acquire('shared', () => log.push('straggler'));
    const x1 = lock.acquire('exclusive', (n) => log.push(`x1 beside ${n}`));
    await new Promise((resolve) => setTimeout(resolve, 80));
    x1();
    const x2 = lock.acquire('exclusive', (n) => log.push(`x2 beside ${n}`));
    expect(log.slice(-3)).toEqual(['straggler', 'x1 beside 1', 'x2 beside 1']);
    x2();
    straggler();
    expect(lock.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('asks the shared holders in flight to step aside once when an exclusive request starts waiting', () => {
    const lock = new LaneLock(10_000);
    const asked: string[] = [];
    const a = lock.acquire('shared', () => undefined, () => asked.push('a'));
    const b = lock.acquire('shared', () => undefined, () => asked.push('b'));
    let granted = false;
    const x = lock.acquire('exclusive', () => (granted = true));
    expect(asked).toEqual(['a', 'b']);
    // a later request does not ask again while the same wait lasts
    const later = lock.acquire('shared', () => undefined, () => asked.push('later'));
    expect(asked).toEqual(['a', 'b']);
    a();
    b();
    expect(granted).toBe(true);
    x();
    later();
    expect(lock.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('a cancelled wait leaves the queue', () => {
    const lock = new LaneLock();
    const s = lock.acquire('shared', () => undefined);
    const cancel = lock.acquire('exclusive', () => undefined);
    cancel();
    let granted = false;
    lock.acquire('shared', () => (granted = true));
    expect(granted).toBe(true);
    s();
  });
});

describe('lane server', () => {
  let server: LaneServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('holds over HTTP and releases when the connection closes; lanes are independent', async () => {
    server = await startLaneServer();
    const shared = await takeLane(server.url, 'gateway', 'shared', 2000);
    expect(shared).toBeDefined();
    // the partner lane is not held by a gateway check
    const otherApi = await takeLane(server.url, 'partner', 'exclusive', 2000);
    expect(otherApi).toBeDefined();
    otherApi?.release();
    // the gateway's exclusive waits while the shared hold lasts
    expect(await takeLane(server.url, 'gateway', 'exclusive', 150)).toBeUndefined();
    const waiting = takeLane(server.url, 'gateway', 'exclusive', 5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    shared?.release();
    const exclusive = await waiting;
    expect(exclusive).toBeDefined();
    exclusive?.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.lock('gateway').state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it("a worker's writes share one hold; an exclusive request waits for the writes in flight only, and later writes wait for it", async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const lane = new RequestLane(server.url, 'gateway');
    const end1 = await lane.enter();
    const end2 = await lane.enter();
    expect(server.lock('gateway').state).toEqual({ shared: 1, exclusive: false, waiting: 0 });
    const log: string[] = [];
    const exclusive = takeLane(server.url, 'gateway', 'exclusive', 5000).then((hold) => {
      log.push('exclusive');
      return hold;
    });
    await sleep(50);
    const later = lane.enter().then((end) => {
      log.push('later write');
      return end;
    });
    end1();
    await sleep(30);
    expect(log).toEqual([]);
    end2();
    const hold = await exclusive;
    expect(hold?.stragglers).toBe(0);
    await sleep(30);
    expect(log).toEqual(['exclusive']);
    hold?.release();
    (await later)();
    expect(log).toEqual(['exclusive', 'later write']);
    expect(lane.blockedMs).toBeGreaterThanOrEqual(25);
  });

  it('an idle hold is released as soon as an exclusive request asks', async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const lane = new RequestLane(server.url, 'partner');
    (await lane.enter())();
    expect(server.lock('partner').state.shared).toBe(1);
    const t0 = performance.now();
    const hold = await takeLane(server.url, 'partner', 'exclusive', 5000);
    expect(performance.now() - t0).toBeLessThan(1000);
    hold?.release();
    await sleep(30);
    expect(server.lock('partner').state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it("an exclusive holder's own writes pass; a check beside it in the same worker waits; after it, writes hold the lane shared again", async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const env = { PAYGATE_LANE_URL: server.url };
    const writes = requestLane('gateway', env);
    expect(writes).toBeDefined();
    (await writes?.enter())?.();
    const alone = await enterExclusiveLane({ api: 'gateway' }, ['money'], env);
    expect(alone.hold).toBeDefined();
    expect(alone.note).toMatch(/no other check moving money on the gateway account/);
    // the holder's writes, even after an await
    await alone.run(async () => {
      await sleep(1);
      const end = await writes?.enter();
      end?.();
    });
    expect(server.lock('gateway').state).toEqual({ shared: 0, exclusive: true, waiting: 0 });
    // a write of another check in this worker waits for the holder
    // released twice: the second is a no-op
    await expectHeldUntil(writes?.enter(), () => {
      alone.release();
      alone.release();
    });
    await sleep(30);
    expect(server.lock('gateway').state).toEqual({ shared: 1, exclusive: false, waiting: 0 });
  });

  it('a window inside a window takes only the lanes it lacks (a burst inside a ledger window does not wait for itself)', async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const env = { PAYGATE_LANE_URL: server.url };
    const ledger = await enterExclusiveLane({ api: 'partner' }, ['money'], env);
    const burst = await ledger.run(() => enterExclusiveLane({ api: 'partner' }, undefined, env));
    expect(burst.hold).toBeDefined();
    expect(server.lock('partner').state.exclusive).toBe(true);
    expect(server.lock('partner-records').state.exclusive).toBe(true);
    expect(server.lock('partner-reads').state.exclusive).toBe(true);
    burst.release();
    await sleep(30);
    expect(server.lock('partner-reads').state.exclusive).toBe(false);
    expect(server.lock('partner').state.exclusive).toBe(true);
    ledger.release();
  });

  it("a window's lanes drain together: a burst inside a ledger window waits for the reads and the records in flight at once", async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const env = { PAYGATE_LANE_URL: server.url };
    const records = new RequestLane(server.url, 'partner-records');
    const reads = new RequestLane(server.url, 'partner-reads');
    const ledger = await enterExclusiveLane({ api: 'partner' }, ['money'], env);
    // a creation and a read of other checks in flight, each answered 150 ms on
    const creation = await records.enter();
    const read = await reads.enter();
    setTimeout(creation, 150);
    setTimeout(read, 150);
    // another read 100 ms on, answered 150 ms after it went out: taken one after the other, the
    // reads lane would be asked only once records is held (150 ms) and wait for it (250 ms)
    let later: Promise<void> | undefined;
    setTimeout(() => (later = reads.enter().then((end) => void setTimeout(end, 150))), 100);
    const t0 = performance.now();
    const burst = await ledger.run(() => enterExclusiveLane({ api: 'partner' }, undefined, env));
    // one drain: both lanes were asked at once, so the later read waits for the window
    expect(performance.now() - t0).toBeLessThan(230);
    expect(server.lock('partner-records').state.exclusive).toBe(true);
    expect(server.lock('partner-reads').state.exclusive).toBe(true);
    burst.release();
    ledger.release();
    await later;
  });

  it('a lane granted before an earlier one is given back until the earlier one is held (no hold of a later lane while waiting)', async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    // a list-order check holds records alone; its own lists need reads
    const listOrder = await takeLane(server.url, 'partner-records', 'exclusive', 2000);
    const window = takeInOrder(server.url, ['partner-records', 'partner-reads']);
    await sleep(50);
    // the window does not sit on reads while it waits for records: the list-order check's read goes out
    const list = await takeLane(server.url, 'partner-reads', 'shared', 1000);
    expect(list).toBeDefined();
    list?.release();
    listOrder?.release();
    const holds = await window;
    expect(holds).toHaveLength(2);
    expect(server.lock('partner-records').state.exclusive).toBe(true);
    expect(server.lock('partner-reads').state.exclusive).toBe(true);
    for (const h of holds ?? []) h.release();
    await sleep(30);
    expect(server.lock('partner-reads').state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it("inside a ledger window, a race window's lanes are taken while its opening statement is read; elsewhere one after the other", async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const env = { PAYGATE_LANE_URL: server.url };
    const reads = new RequestLane(server.url, 'partner-reads');
    // another check's read in flight, answered 150 ms on
    const read = await reads.enter();
    setTimeout(read, 150);
    const ledger = await enterExclusiveLane({ api: 'partner' }, ['money'], env);
    const opening = (): Promise<string> => sleep(150).then(() => 'statement');
    // another read 100 ms on, answered 150 ms after it went out: with the lanes taken after the
    // opening, the window would wait for it (250 ms); taken during it, the read waits for the window
    let later: Promise<void> | undefined;
    setTimeout(() => (later = reads.enter().then((end) => void setTimeout(end, 150))), 100);
    let t0 = performance.now();
    const { opened, lane } = await ledger.run(() => enterExclusiveLaneAfter({ api: 'partner' }, QUIET, opening, env));
    expect(opened).toBe('statement');
    expect(performance.now() - t0).toBeLessThan(230);
    expect(server.lock('partner-reads').state.exclusive).toBe(true);
    lane.release();
    await later;
    // an opening that fails gives the lanes back
    await expect(ledger.run(() => enterExclusiveLaneAfter({ api: 'partner' }, QUIET, () => Promise.reject(new Error('no statement')), env))).rejects.toThrow('no statement');
    await sleep(30);
    expect(server.lock('partner-reads').state.exclusive).toBe(false);
    ledger.release();
    // outside a money window: the opening first, then the lanes (its requests hold their lanes as usual)
    const held = await reads.enter();
    setTimeout(held, 150);
    t0 = performance.now();
    const outside = await enterExclusiveLaneAfter({ api: 'partner' }, ['reads'], opening, env);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
    outside.lane.release();
  });

  it('the trace records every hold, with the check of an exclusive one', async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'lane-trace-')), 'lane-trace.jsonl');
    server = await startLaneServer({ trace });
    const hold = await takeLane(server.url, 'gateway', 'exclusive', 2000, { who: 'gateway.balance.pix-credit' });
    hold?.release();
    await sleep(50);
    const [entry] = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entry).toMatchObject({ lane: 'gateway', mode: 'exclusive', who: 'gateway.balance.pix-credit' });
    expect(entry?.['endedMs']).toBeGreaterThanOrEqual(entry?.['grantedMs'] as number);
  });

  it('runs without the lane (with a note for exclusive checks) when no server answers', async () => {
    expect(requestLane('gateway', {})).toBeUndefined();
    expect((await enterExclusiveLane({ api: 'gateway' }, undefined, {})).hold).toBeUndefined();
    const none = await enterExclusiveLane({ api: 'gateway' }, undefined, { PAYGATE_LANE_URL: 'http://127.0.0.1:9' });
    expect(none.hold).toBeUndefined();
    expect(none.note).toMatch(/could not run alone/);
    // a write whose lane server does not answer goes out unheld
    const end = await new RequestLane('http://127.0.0.1:9', 'gateway').enter();
    end();
  });

  it('a request holds the lane of what it can disturb: a list-order window does not stop a pay, a balance window does not stop a charge creation, a burst window stops everything', async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const env = { PAYGATE_LANE_URL: server.url };
    expect(requestKinds('POST', 'POST /business/pix-charges/{id}/pay')).toEqual(['money']);
    expect(requestKinds('POST', 'POST /business/pix-charges')).toEqual(['records']);
    expect(requestKinds('POST', 'POST /api/v1/pix/out/pixkey')).toEqual(['money']);
    expect(requestKinds('POST', 'POST /api/v1/pix/in/qrcode')).toEqual(['records']);
    expect(requestKinds('POST', undefined)).toEqual(['money', 'records']);
    expect(requestKinds('GET', 'GET /business/pix-charges')).toEqual(['reads']);
    // the token exchange holds no lane: a worker's shared token refresh must never wait for a window
    // that another check of the worker, awaiting the same token, holds
    expect(requestKinds('POST', 'POST /api/auth')).toEqual([]);
    const listOrder = await enterExclusiveLane({ api: 'partner' }, ['records'], env);
    // a pay goes out beside a list-order window; a creation waits for it
    (await enterRequest('partner', ['money'], env))();
    await expectHeldUntil(enterRequest('partner', ['records'], env), () => listOrder.release());
    // a write the suite does not know holds both, so both kinds of window wait for it
    const unknown = await enterRequest('partner', ['money', 'records'], env);
    expect(server.lock('partner').state.shared).toBe(1);
    expect(server.lock('partner-records').state.shared).toBe(1);
    unknown();
    const both = await enterExclusiveLane({ api: 'partner' }, undefined, env);
    expect(server.lock('partner').state.exclusive).toBe(true);
    expect(server.lock('partner-records').state.exclusive).toBe(true);
    // the default window has the target to itself: a read waits too
    // … but not the token exchange (no lane), which another check of the worker may await inside the window
    const exchange = watch(enterRequest('partner', requestKinds('POST', 'POST /api/auth'), env));
    await sleep(50);
    expect(exchange.went).toBe(true);
    await exchange.end();
    await expectHeldUntil(enterRequest('partner', ['reads'], env), () => both.release());
  });

  it('only writes change the account: reads and the token exchange do not', () => {
    expect(changesAccount('GET', 'GET /api/v1/balance')).toBe(false);
    expect(changesAccount('head')).toBe(false);
    expect(changesAccount('OPTIONS')).toBe(false);
    expect(changesAccount('POST', 'POST /api/auth')).toBe(false);
    expect(changesAccount('POST', 'POST /api/v1/pix/in/qrcode')).toBe(true);
    expect(changesAccount('post')).toBe(true);
    expect(changesAccount('DELETE', 'DELETE /api/v1/webhooks/{id}')).toBe(true);
  });
});

describe('run-wide request gate', () => {
  let server: LaneServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('one --max-rps schedule for every worker: two limiters together keep the total rate', async () => {
    server = await startLaneServer({ maxRps: 20 });
    // two workers' limiters, each with its fallback share of 10 req/s
    const a = new RunRateLimiter(server.url, 10);
    const b = new RunRateLimiter(server.url, 10);
    const t0 = performance.now();
    await Promise.all([...Array.from({ length: 5 }, () => a.take()), ...Array.from({ length: 5 }, () => b.take())]);
    const elapsed = performance.now() - t0;
    // 10 requests at 20 req/s: the last slot starts 450 ms after the first
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('falls back to the worker share when the coordinator does not answer', async () => {
    const limiter = new RunRateLimiter('http://127.0.0.1:9', 1000);
    const t0 = performance.now();
    await limiter.take();
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it("a Retry-After one worker got holds the other workers' requests to that API", async () => {
    server = await startLaneServer();
    const env = { PAYGATE_LANE_URL: server.url };
    const seen = new RunPauses(env);
    const other = new RunPauses(env);
    await other.wait('gateway'); // subscribes
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen.report('gateway', 300);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t0 = performance.now();
    await other.wait('partner'); // another API is not held
    expect(performance.now() - t0).toBeLessThan(50);
    await other.wait('gateway');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
  });
});
