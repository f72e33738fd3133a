// The quiet-account lane: shared holders together, an exclusive one alone and ahead of later shared
// requests; a hold ends when its connection closes (a dead worker cannot keep the lane).
import { afterEach, describe, expect, it } from 'vitest';
import { LaneLock, startLaneServer, takeLane } from '../harness/run/lane.js';
import type { LaneServer } from '../harness/run/lane.js';
import { LaneSeat, enterLane } from '../harness/run/check-lane.js';
import { RunPauses, RunRateLimiter } from '../harness/http/rate-limit.js';

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

  it('a shared check steps aside over HTTP: the exclusive one runs, then the check holds the lane again', async () => {
    server = await startLaneServer({ drainMs: 10_000 });
    const hold = await takeLane(server.url, 'gateway', 'shared', 2000);
    const seat = new LaneSeat(hold, 'gateway', server.url);
    expect(seat.wanted).toBe(false);
    let exclusiveRan = false;
    const exclusive = takeLane(server.url, 'gateway', 'exclusive', 5000).then(async (x) => {
      exclusiveRan = true;
      await new Promise((resolve) => setTimeout(resolve, 50));
      x?.release();
      return x;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seat.wanted).toBe(true);
    await seat.stepAside();
    expect(exclusiveRan).toBe(true);
    expect((await exclusive)?.stragglers).toBe(0);
    expect(seat.stepped).toBe(1);
    expect(seat.wanted).toBe(false);
    expect(server.lock('gateway').state).toEqual({ shared: 1, exclusive: false, waiting: 0 });
    seat.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.lock('gateway').state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('runs without the lane (with a note for exclusive checks) when no server answers', async () => {
    expect(await enterLane({ api: 'gateway' }, {})).toEqual({});
    const none = await enterLane({ api: 'gateway', exclusive: true }, { PAYGATE_LANE_URL: 'http://127.0.0.1:9' });
    expect(none.hold).toBeUndefined();
    expect(none.note).toMatch(/could not run alone/);
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
