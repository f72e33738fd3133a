// The bench's per-file times (bench/latency.ts criticalPath): a file's span when its checks ran side by side.
import { describe, expect, test } from 'vitest';
import { criticalPath } from '../bench/latency.js';

describe('criticalPath', () => {
  test('a file whose checks overlapped takes its span, not the sum of its checks', () => {
    const t0 = Date.parse('2026-11-28T10:00:00.000Z');
    const path = criticalPath([
      { check: 'a.one', file: 'a.test.ts', durationMs: 1000, startMs: t0, requests: 2 },
      { check: 'a.two', file: 'a.test.ts', durationMs: 1000, startMs: t0 + 200, requests: 3 },
      { check: 'b.one', file: 'b.test.ts', durationMs: 900, startMs: t0, requests: 1 },
      { check: 'b.two', file: 'b.test.ts', durationMs: 600, startMs: t0 + 900, requests: 1 },
    ]);
    expect(path.slowestFiles).toEqual([
      { name: 'b.test.ts', ms: 1500, requests: 2 },
      { name: 'a.test.ts', ms: 1200, requests: 5 },
    ]);
    expect(path.criticalPathMs).toBe(1500);
    expect(path.checkTimeMs).toBe(3500);
  });

  test('without start times (an older report) a file takes the sum of its checks', () => {
    const path = criticalPath([
      { check: 'a.one', file: 'a.test.ts', durationMs: 1000, requests: 2 },
      { check: 'a.two', file: 'a.test.ts', durationMs: 1000, startMs: 5, requests: 3 },
    ]);
    expect(path.criticalPathMs).toBe(2000);
  });
});
