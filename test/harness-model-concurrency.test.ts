// Model-based sequences under --concurrency (harness/run/model.ts): the sibling lane keeps a
// measurement alone among the sequences in flight, and concurrent runs draw exactly the command
// sequences fc.check draws for the seed (so a pass decided concurrently is about the same sequences).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SiblingLane } from '../harness/run/model.js';
import { runConcurrently } from '../harness/run/concurrent-runs.js';

const tick = (ms = 2): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('SiblingLane', () => {
  it('runs a measurement with no moving step in flight, and moving steps beside each other', async () => {
    const lane = new SiblingLane();
    let moving = 0;
    let maxMoving = 0;
    let measuring = 0;
    const overlaps: string[] = [];
    const move = (i: number) =>
      lane.move(async () => {
        moving++;
        maxMoving = Math.max(maxMoving, moving);
        if (measuring > 0) overlaps.push(`move ${i} inside a measurement`);
        await tick(3 + (i % 3));
        moving--;
        return i;
      });
    const measure = (i: number) =>
      lane.measure(async () => {
        measuring++;
        if (moving > 0 || measuring > 1) overlaps.push(`measurement ${i} beside ${moving} moving, ${measuring - 1} measuring`);
        await tick(4);
        measuring--;
        return -i;
      });
    const results = await Promise.all([move(1), move(2), measure(3), move(4), measure(5), move(6), move(7)]);
    expect(results).toEqual([1, 2, -3, 4, -5, 6, 7]);
    expect(overlaps).toEqual([]);
    expect(maxMoving).toBeGreaterThan(1);
  });

  it('lets the next opening read go beside a settled closing read, never a move inside any window', async () => {
    const lane = new SiblingLane();
    const open = new Set<number>(); // measurements between their opening read's start and closing read's end
    const events: string[] = [];
    const violations: string[] = [];
    const moveNow = (who: string, own?: number): void => {
      for (const m of open) if (m !== own) violations.push(`${who} moved inside measurement ${m}'s window`);
    };
    const measure = (i: number, settle = true) =>
      lane.measure(async (w) => {
        open.add(i);
        events.push(`open ${i}`);
        await tick(3);
        await w.beforeMove();
        moveNow(`measurement ${i}`, i);
        await tick(3);
        if (settle) w.settle();
        events.push(`closing ${i}`);
        await tick(4);
        events.push(`closed ${i}`);
        open.delete(i);
        return i;
      });
    const move = (i: number) =>
      lane.move(async () => {
        moveNow(`move ${i}`);
        await tick(2);
        return i;
      });
    const results = await Promise.all([measure(1), measure(2), move(3), measure(4, false), move(5), measure(6), measure(7)]);
    expect(results).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(violations).toEqual([]);
    // pipelining happened: measurement 2 opened before measurement 1's closing read was answered
    expect(events.indexOf('open 2')).toBeLessThan(events.indexOf('closed 1'));
    // a measurement that never settles keeps the lane to itself until it ends
    const after4 = events.indexOf('closed 4');
    expect(events.slice(events.indexOf('open 4') + 1, after4).filter((e) => e.startsWith('open'))).toEqual([]);
  });

  it('runs a settled measurement alone when nothing else waits (sequential runs never wait)', async () => {
    const lane = new SiblingLane();
    const order: string[] = [];
    await lane.measure(async (w) => {
      order.push('read');
      await w.beforeMove();
      order.push('move');
      w.settle();
      w.settle();
      order.push('read');
    });
    await lane.move(async () => order.push('move'));
    await lane.measure(async () => order.push('read'));
    expect(order).toEqual(['read', 'move', 'read', 'move', 'read']);
  });

  it('releases the lane when a step throws', async () => {
    const lane = new SiblingLane();
    await expect(lane.measure(async () => {
      throw new Error('stop');
    })).rejects.toThrow('stop');
    await expect(lane.measure(async (w) => {
      w.settle();
      throw new Error('after settle');
    })).rejects.toThrow('after settle');
    await expect(lane.measure(async () => 'next')).resolves.toBe('next');
    await expect(lane.move(async () => 'moved')).resolves.toBe('moved');
  });
});

describe('concurrent model sequences', () => {
  class Cmd implements fc.AsyncCommand<{ n: number }, { log: string[] }> {
    constructor(readonly v: number) {}
    check(): boolean {
      return true;
    }
    async run(m: { n: number }, r: { log: string[] }): Promise<void> {
      m.n += this.v;
      r.log.push(String(this.v));
    }
    toString(): string {
      return `cmd(${this.v})`;
    }
  }
  const commands = fc.commands([fc.integer({ min: 0, max: 99 }).map((v) => new Cmd(v)), fc.nat({ max: 9 }).map((v) => new Cmd(-v))], { maxCommands: 10, size: 'max' });

  it('draws the command sequences fc.check runs for the same seed', async () => {
    for (const seed of [1, 42]) {
      const sequential: string[] = [];
      await fc.assert(fc.asyncProperty(commands, async (cmds) => {
        const real = { log: [] as string[] };
        await fc.asyncModelRun(() => ({ model: { n: 0 }, real }), cmds);
        sequential.push(real.log.join(','));
      }), { seed, numRuns: 15 });
      const concurrent = await runConcurrently(commands, { seed, numRuns: 15 }, 4, async (cmds) => {
        const real = { log: [] as string[] };
        await tick(1);
        await fc.asyncModelRun(() => ({ model: { n: 0 }, real }), cmds);
        return { passed: true, result: real.log.join(',') };
      });
      expect(concurrent).toEqual(sequential);
    }
  });
});
