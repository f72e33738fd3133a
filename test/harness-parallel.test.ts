// t.all: independent requests in flight together, results in item order, a throw stops new items.
import { describe, expect, it } from 'vitest';
import { mapLimited } from '../harness/run/parallel.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapLimited', () => {
  it('keeps at most `limit` in flight and returns results in item order', async () => {
    let inFlight = 0;
    let max = 0;
    const out = await mapLimited([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
      max = Math.max(max, ++inFlight);
      await sleep(ms);
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
    expect(max).toBe(3);
  });

  it('is a plain loop with a limit of 1 (or a nonsense limit)', async () => {
    for (const limit of [1, 0, Number.NaN]) {
      const order: number[] = [];
      await mapLimited([3, 1, 2], limit, async (ms) => {
        order.push(ms);
        await sleep(ms);
      });
      expect(order).toEqual([3, 1, 2]);
    }
    expect(await mapLimited([], 4, async () => 1)).toEqual([]);
  });

  it('a throw starts no new item, awaits those in flight, then throws the first error', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = mapLimited([0, 1, 2, 3, 4, 5], 2, async (_v, i) => {
      started.push(i);
      await sleep(i === 0 ? 5 : 20);
      settled++;
      if (i === 0) throw new Error('first');
      return i;
    });
    await expect(run).rejects.toThrow('first');
    expect(started).toEqual([0, 1]);
    expect(settled).toBe(2);
  });
});
