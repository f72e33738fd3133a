// Concurrent property runs (--concurrency): the values are fast-check's own for the seed, at most
// `limit` runs are in flight, and any failing or throwing run hands the verdict back (undefined).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runConcurrently, startOrder } from '../harness/run/concurrent-runs.js';

const arb = fc.record({ a: fc.integer(), b: fc.string(), c: fc.array(fc.nat({ max: 9 }), { maxLength: 4 }) });

describe('runConcurrently', () => {
  it('runs exactly the values fc.check draws for the same seed and numRuns', async () => {
    for (const seed of [1, 42, -7]) {
      const sequential: string[] = [];
      await fc.assert(fc.asyncProperty(arb, async (v) => {
        sequential.push(JSON.stringify(v));
        return true;
      }), { seed, numRuns: 12 });
      const concurrent = await runConcurrently(arb, { seed, numRuns: 12 }, 4, async (v) => ({ passed: true, result: JSON.stringify(v) }));
      expect(concurrent).toEqual(sequential);
    }
  });

  it('keeps at most `limit` runs in flight and returns results in run order', async () => {
    let inFlight = 0;
    let max = 0;
    const out = await runConcurrently(fc.nat(), { seed: 3, numRuns: 20 }, 5, async (_v, index) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5 + (index % 3)));
      inFlight--;
      return { passed: true, result: index };
    });
    expect(max).toBe(5);
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('starts the largest values first (fast-check draws them last), results still in run order', async () => {
    const started: number[] = [];
    const lengths = await runConcurrently(fc.array(fc.nat(), { maxLength: 30 }), { seed: 5, numRuns: 30 }, 1, async (v, index) => {
      started.push(index);
      return { passed: true, result: v.length };
    });
    const values = fc.sample(fc.array(fc.nat(), { maxLength: 30 }), { seed: 5, numRuns: 30 });
    expect(lengths).toEqual(values.map((v) => v.length));
    expect(started).toEqual(startOrder(values));
    expect([...started].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const sizes = started.map((i) => (values[i] as number[]).length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(started[0]).not.toBe(0);
  });

  it('sizes a command sequence by its commands (it prints none before it ran) without running it', () => {
    const commands = fc.commands([fc.nat().map((n) => ({ check: () => true, run: () => { throw new Error(`ran ${n}`); }, toString: () => `c${n}` }))], { maxCommands: 8 });
    const values = fc.sample(commands, { seed: 2, numRuns: 20 });
    const order = startOrder(values);
    const sizes = order.map((i) => [...(values[i] as Iterable<unknown>)].length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(sizes[0]).toBeGreaterThan(sizes[sizes.length - 1] as number);
  });

  it('returns undefined when a run fails or throws, and starts no run after that', async () => {
    let started = 0;
    const failing = await runConcurrently(fc.nat(), { seed: 3, numRuns: 50 }, 2, async (_v, index) => {
      started++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { passed: index !== 3, result: index };
    });
    expect(failing).toBeUndefined();
    expect(started).toBeLessThan(50);
    const throwing = await runConcurrently(fc.nat(), { seed: 3, numRuns: 5 }, 2, async (_v, index) => {
      if (index === 1) throw new Error('suite bug');
      return { passed: true, result: index };
    });
    expect(throwing).toBeUndefined();
  });
});
