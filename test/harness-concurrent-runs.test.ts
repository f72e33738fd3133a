// Concurrent property runs (--concurrency): the values are fast-check's own for the seed, at most
// `limit` runs are in flight, and any failing or throwing run hands the verdict back (undefined).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runConcurrently } from '../harness/run/concurrent-runs.js';

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
