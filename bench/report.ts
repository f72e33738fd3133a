/** The shape of reports/bench.json. */
import type { StartupResult } from './startup.js';
import type { AgreementResult } from './agreement.js';
import type { FuzzResult } from './fuzz.js';
import type { GrowthResult } from './growth.js';
import type { LatencyResult } from './latency.js';
import type { MutationBenchResult } from './mutation.js';
import type { NpmTestResult } from './npm-test.js';
import type { OverheadResult } from './overhead.js';
import type { ReferenceMode } from './reference.js';
import type { StagesResult } from './stages.js';
import type { SuiteRow } from './suite.js';
import type { ThroughputRow } from './throughput.js';

export interface BenchReport {
  tool: 'paygate-conformance-bench';
  startedAt: string;
  totalMs: number;
  outputPath: string;
  machine: { cpus: number; node: string; platform: string; loadBefore: number[]; loadAfter: number[] };
  /** how the reference ran for the in-process measurements (overhead, throughput) */
  reference: ReferenceMode;
  caveat: string;
  flags: string[];
  overhead?: OverheadResult;
  stages?: StagesResult[];
  throughput?: ThroughputRow[];
  suite?: SuiteRow[];
  fuzz?: FuzzResult;
  growth?: GrowthResult;
  latency?: LatencyResult;
  agreement?: AgreementResult;
  mutation?: MutationBenchResult;
  startup?: StartupResult;
  /** `npm test` timed by this run (--npm-test) or given (--npm-test-ms) */
  npmTest?: NpmTestResult;
  /** the figures of issue 29 from this run (see {@link benchFigures}) */
  figures?: BenchFigures;
}

export interface BenchFigures {
  /** median, command spawned → first request at the embedded reference (goal ≤ 2 s) */
  startToFirstRequestMs?: number;
  /** median wall time of the startup section's quick runs (goal ≤ 10 s) and their count */
  quickMedianMs?: number;
  quickRuns?: number;
  /** quick profile wall at 200 ms added per request / at 0 ms (goal ≤ 1.5) */
  latency200Ratio?: number;
  /** harness req/s as a share of raw undici's, per endpoint and concurrency (goal ≥ 0.8) */
  overhead?: { endpoint: string; concurrency: number; ratio: number }[];
  /** `npm test` wall time (goal ≤ 8 min), and whether this run measured it or was given it */
  npmTestMs?: number;
  npmTestSource?: 'measured' | 'given';
  load: { before: number[]; after: number[] };
}

/** The issue-29 figures of a report, gathered from its sections. */
export function benchFigures(report: BenchReport): BenchFigures {
  const f: BenchFigures = { load: { before: report.machine.loadBefore, after: report.machine.loadAfter } };
  if (report.startup) {
    if (report.startup.medianFirstRequestMs !== undefined) f.startToFirstRequestMs = report.startup.medianFirstRequestMs;
    f.quickMedianMs = report.startup.medianWallMs;
    f.quickRuns = report.startup.runs.length;
  }
  const at200 = report.latency?.rows.find((r) => r.addedMs === 200);
  if (at200?.ratio !== undefined) f.latency200Ratio = at200.ratio;
  if (report.overhead) f.overhead = report.overhead.rows.map((r) => ({ endpoint: r.path, concurrency: r.concurrency, ratio: r.ratio }));
  if (report.npmTest) {
    f.npmTestMs = report.npmTest.wallMs;
    f.npmTestSource = report.npmTest.source;
  }
  return f;
}
