/** The shape of reports/bench.json. */
import type { AgreementResult } from './agreement.js';
import type { FuzzResult } from './fuzz.js';
import type { GrowthResult } from './growth.js';
import type { LatencyResult } from './latency.js';
import type { MutationBenchResult } from './mutation.js';
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
}
