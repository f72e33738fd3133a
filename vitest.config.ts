// The project's own tests (test/): generators, harness, specs, reference, fault matrix.
import { defineConfig } from 'vitest/config';

// Self-verification tests that run the whole suite as child processes (each spawns references and
// vitest runs of its own, in parallel where it pays): they run after the unit tests, one file at a
// time, so they neither starve the unit tests of the 2 cores nor each other.
// package/action/CI templates: the tool installed from its packed tarball into another project
// (also with Node 22 and 24), and the GitHub Action's steps, the GitLab jobs and Jenkins stages run
// as scripts (all run the suite against the embedded reference; ~2–4 min each).
const SYSTEM_TESTS = [
  'test/correct-reference.test.ts',
  'test/chaos.test.ts',
  'test/safety.test.ts',
  'test/fault-matrix.test.ts',
  'test/receiver-conformance.test.ts',
  'test/real-targets.test.ts',
  'test/package.test.ts',
  'test/package-node-versions.test.ts',
  'test/action.test.ts',
  'test/ci-templates.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: SYSTEM_TESTS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'system', include: SYSTEM_TESTS, sequence: { groupOrder: 1 }, fileParallelism: false },
      },
    ],
  },
});
