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

  it('releases the lane when a step throws', async () => {
    const lane = new SiblingLane();
    await expect(lane.measure(async () => {
      throw new Error('stop');
    })).rejects.toThrow('stop');
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
