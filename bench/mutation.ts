/**
 * The `mutation` section (opt-in: `npm run bench -- --only mutation [--mutation-sample N] [--seed S]`):
 * runs `npm run mutation` (test/mutation/main.ts) as a child and keeps its summary; the full report
 * is written beside bench.json (mutation.json, mutation.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TSX_CLI, timedRun } from './process.js';

export interface MutationBenchResult {
  sample: number;
  seed: number;
  exitCode: number | null;
  wallMs: number;
  /** detected / (run − equivalent), 0..1 */
  score: number | null;
  counts?: Record<string, number>;
  report: string;
  note?: string;
}

export async function measureMutation(options: { sample: number; seed: number; outDir: string; timeoutMs: number }): Promise<MutationBenchResult> {
  const run = await timedRun({ args: [TSX_CLI, join(ROOT, 'test', 'mutation', 'main.ts'), '--sample', String(options.sample), '--seed', String(options.seed), '--out-dir', options.outDir], timeoutMs: options.timeoutMs });
  const report = join(options.outDir, 'mutation.json');
  const base = { sample: options.sample, seed: options.seed, exitCode: run.exitCode, wallMs: run.wallMs, report };
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as { score: number | null; counts: Record<string, number> };
    return { ...base, score: json.score, counts: json.counts };
  } catch {
    return { ...base, score: null, note: run.timedOut ? 'timed out' : run.outputTail.slice(-500) };
  }
}
