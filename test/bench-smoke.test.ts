// Keeps the benchmark code working in CI: the harness-overhead measurement with tiny counts
// (in-process reference, a few requests), and the report's shape and rendering.
import { describe, expect, it } from 'vitest';
import { linearFit, median } from '../bench/load.js';
import { runHarnessOverhead } from '../bench/overhead.js';
import { sequencesToFailure } from '../bench/fuzz.js';
import { renderReport } from '../bench/table.js';
import { benchFigures } from '../bench/report.js';
import type { BenchReport } from '../bench/report.js';
import { STARTUP_GOALS } from '../bench/startup.js';
import { fileDurations, givenNpmTest } from '../bench/npm-test.js';

describe('bench', () => {
  it('measures harness vs raw undici and renders the table', async () => {
    const r = await runHarnessOverhead({
      reference: 'in-process',
      endpoints: ['balance', 'pix-lookup'],
      concurrencies: [1, 2],
      rounds: 1,
      durationMs: 100,
      maxRequests: 10,
      warmupPerWorker: 1,
      stages: true,
      stageLimits: { maxCalls: 20, maxMsPerStage: 10 },
    });
    expect(r.reference).toBe('in-process');
    expect(r.overhead.rows.map((row) => [row.endpoint, row.concurrency])).toEqual([
      ['balance', 1],
      ['pix-lookup', 1],
      ['balance', 2],
      ['pix-lookup', 2],
    ]);
    for (const row of r.overhead.rows) {
      expect(row.errors).toBe(0);
      expect(row.connections).toBe(row.concurrency);
      expect(row.rawRps).toBeGreaterThan(0);
      expect(row.harnessRps).toBeGreaterThan(0);
      expect(row.ratio).toBeCloseTo(row.harnessRps / row.rawRps, 1);
      expect(row.rounds).toHaveLength(1);
      expect(row.rounds[0]?.raw.requests).toBeLessThanOrEqual(10);
      expect(row.harnessCpuUsPerRequest).toBeGreaterThan(0);
    }
    expect(typeof r.overhead.meetsGoal).toBe('boolean');
    expect(r.overhead.worstRatio).toBe(Math.min(...r.overhead.rows.map((row) => row.ratio)));
    expect(r.stages?.map((s) => s.operation)).toEqual(['GET /api/v1/pix/in/qrcode/{transactionId}', 'GET /api/v1/balance']);
    for (const s of r.stages ?? []) {
      expect(s.perRequestUs).toBeGreaterThan(0);
      expect(s.stages.every((x) => x.calls > 0 && x.usPerCall >= 0)).toBe(true);
    }

    const report: BenchReport = {
      tool: 'paygate-conformance-bench',
      startedAt: new Date(0).toISOString(),
      totalMs: 1,
      outputPath: 'reports/bench.json',
      machine: { cpus: 2, node: process.version, platform: process.platform, loadBefore: [0, 0, 0], loadAfter: [0, 0, 0] },
      reference: r.reference,
      caveat: 'noisy',
      flags: [],
      overhead: r.overhead,
      ...(r.stages ? { stages: r.stages } : {}),
      suite: [{ profile: 'full', measured: false, note: 'not measured' }],
    };
    const text = renderReport(report);
    expect(text).toContain('Harness overhead');
    expect(text).toContain('GET /api/v1/pix/in/qrcode/{transactionId}');
    expect(text).toContain('not measured');
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    // the figures, gathered from the sections
    report.startup = {
      flags: ['--seed', '1'],
      runs: [
        { wallMs: 9000, firstRequestMs: 1500, exitCode: 0, load: 1 },
        { wallMs: 11_000, firstRequestMs: 2500, exitCode: 0, load: 1 },
        { wallMs: 10_000, exitCode: 0, load: 1 },
      ],
      medianWallMs: 10_000,
      medianFirstRequestMs: 2000,
      goals: STARTUP_GOALS,
    };
    report.figures = benchFigures(report);
    expect(report.figures).toMatchObject({ startToFirstRequestMs: 2000, quickMedianMs: 10_000, quickRuns: 3 });
    expect(report.figures.overhead).toHaveLength(r.overhead.rows.length);
    expect(renderReport(report)).toContain('first request 2.00 s');
    expect(median([3, 1, 2])).toBe(2);
  }, 15_000);

  it('fits lines and reads the sequences to the first failure', () => {
    const fit = linearFit([{ x: 10, y: 1100 }, { x: 100, y: 2000 }, { x: 1000, y: 11_000 }]);
    expect(fit.slope).toBeCloseTo(10, 6);
    expect(fit.intercept).toBeCloseTo(1000, 6);
    expect(fit.r2).toBeCloseTo(1, 6);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const run = { exitCode: 1, signal: null, wallMs: 1, timedOut: false, outputTail: '' };
    expect(sequencesToFailure({ ...run, outputTail: 'x: shrunk counterexample after 7 run(s) and 3 shrink(s)' })).toBe(7);
    expect(sequencesToFailure({ ...run, report: { failures: [{ check: 'c', requirements: [], message: '', replay: '--seed 5 --replay "4:1~0:2"' }] } })).toBe(5);
    expect(sequencesToFailure({ ...run, outputTail: 'Replay with: npm run conformance -- --seed 1000 --grep "x"  (fast-check path "2:1:0:0~EAC:F")' })).toBe(3);
    expect(sequencesToFailure(run)).toBeUndefined();
  });

  it('reads the test files\' durations of npm test and carries a given npm test time into the figures', () => {
    const json = { testResults: [{ name: `${process.cwd()}/test/a.test.ts`, startTime: 1000, endTime: 3500 }, { name: `${process.cwd()}/test/b.test.ts`, startTime: 0, endTime: 9000 }, { name: 'broken' }] };
    expect(fileDurations(json)).toEqual([{ file: 'test/b.test.ts', ms: 9000 }, { file: 'test/a.test.ts', ms: 2500 }]);
    const report = { machine: { cpus: 2, node: 'v20', platform: 'linux', loadBefore: [1], loadAfter: [1] }, npmTest: givenNpmTest(420_000) } as unknown as BenchReport;
    report.figures = benchFigures(report);
    expect(report.figures).toMatchObject({ npmTestMs: 420_000, npmTestSource: 'given' });
    expect(renderReport({ ...report, startedAt: 'now', reference: 'child', caveat: '' })).toContain('npm test 420.00 s (given)');
  });
});
