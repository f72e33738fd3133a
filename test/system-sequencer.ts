/**
 * The order of the project's own test files (vitest.config.ts `sequence.sequencer`). The unit
 * project keeps vitest's order. The system project runs two files at a time: the fault matrix
 * (the longest by far) starts first and keeps one slot; the other files follow it, longest first,
 * through the other slot, so they end about when the matrix does. Vitest's own order (the last
 * run's durations, else file size) would depend on what ran last on the machine, and a fresh CI
 * checkout would start with the largest source files.
 */
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/** System test files, longest first (seconds measured on a quiet 2-core machine; only the order matters). */
export const SYSTEM_ORDER: readonly string[] = [
  'test/fault-matrix.test.ts',
  'test/chaos.test.ts',
  // the tests of the installed tool find the tarball and the install made while the unit tests ran
  // (test/packed-setup.ts): no longer the packing and three installs one after another
  'test/package.test.ts',
  'test/correct-reference.test.ts',
  'test/receiver-conformance.test.ts',
  // after the four files before it, which take longer than the matrix in the other slot: beside the
  // matrix's runs its in-process proxies lost idle connections (vitest.config.ts)
  'test/real-targets.test.ts',
  'test/action.test.ts',
  'test/ci-templates.test.ts',
  'test/safety.test.ts',
  'test/package-node-versions.test.ts',
];

export default class ProjectSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const index = SYSTEM_ORDER.indexOf(relative(this.ctx.config.root, f.moduleId).split('\\').join('/'));
      if (index >= 0) return index;
      // a system file not listed yet goes after the listed ones, never before the matrix
      return f.project.name.startsWith('system') ? SYSTEM_ORDER.length : -1;
    };
    // stable: unit files (rank -1) keep vitest's order; system files follow SYSTEM_ORDER
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
