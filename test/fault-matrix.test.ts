// The fault matrix (test/fault-matrix/matrix.ts): every fault of the reference catalogue makes at
// least one check FAIL with a finding naming one of the fault's requirement IDs (judged in a batch of
// compatible faults, or alone when the batch cannot decide: test/fault-matrix/select.ts); the
// correct reference (baseline) draws no failure. Writes reports/fault-matrix.{json,md}. Budget:
// about 3 minutes on 2 cores (4 runs at a time).
// PAYGATE_MATRIX_SEED=N replays with another seed; PAYGATE_MATRIX_VERBOSE=1 prints each run.
import { describe, expect, test } from 'vitest';
import { FAULTS } from '../reference/faults.js';
import { runFaultMatrix } from './fault-matrix/matrix.js';
import type { FaultMatrix } from './fault-matrix/report.js';
import { undetectedText } from './fault-matrix/report.js';
import { lostProofs, readProofBaseline } from './fault-matrix/proof.js';

// a cap for a hang, not a budget: the batched matrix took 531 s with the load average at 25-30 on 2 cores
const MATRIX_TIMEOUT_MS = 12 * 60_000;

describe('fault matrix', () => {
  let matrix: FaultMatrix | undefined;

  test(
    'every reference fault is detected by a failing check naming its requirement',
    async () => {
      const seed = Number(process.env['PAYGATE_MATRIX_SEED']);
      matrix = await runFaultMatrix({
        ...(Number.isSafeInteger(seed) && process.env['PAYGATE_MATRIX_SEED'] !== undefined && { seed }),
        log: (line) => {
          if (process.env['PAYGATE_MATRIX_VERBOSE'] === '1') console.log(`[fault-matrix] ${line}`);
        },
      });
      expect(matrix.faults.map((o) => o.fault).sort()).toEqual(FAULTS.map((f) => f.name).sort());
      const undetected = undetectedText(matrix);
      expect(matrix.summary.undetected, `${matrix.summary.undetected.length} undetected fault(s) (see reports/fault-matrix.md):\n${undetected}`).toEqual([]);
    },
    MATRIX_TIMEOUT_MS,
  );

  test('no requirement loses its proof (test/fault-matrix/proof-baseline.json)', () => {
    if (matrix?.proof === undefined) throw new Error('the matrix did not run (see the first test)');
    const lost = lostProofs(matrix.proof, readProofBaseline());
    expect(lost, `requirements no detected fault proves any more (reports/fault-matrix.md):\n${lost.join('\n')}`).toEqual([]);
  });

  test('every checkable and timer requirement is proven by a fault or exempt with a reason (specs/requirements.yaml)', () => {
    if (matrix?.proof === undefined) throw new Error('the matrix did not run (see the first test)');
    expect(matrix.proof.unproven, `requirements with neither a proving fault nor an \`exempt:\` reason (reports/fault-matrix.md):\n${matrix.proof.unproven.join('\n')}`).toEqual([]);
  });

  test('the correct reference draws no failure in the matrix baselines', () => {
    if (matrix === undefined) throw new Error('the matrix did not run (see the previous test)');
    expect(matrix.baseline.failures, `failures against the correct reference:\n${matrix.baseline.failures.join('\n')}`).toEqual([]);
  });
});
