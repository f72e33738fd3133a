// The project's own tests (test/): generators, harness, specs, reference, fault matrix.
import { defineConfig } from 'vitest/config';
import ProjectSequencer from './test/system-sequencer.js';

// Self-verification tests that run the whole suite as child processes (each spawns references and
// vitest runs of its own, in parallel where it pays): they run after the unit tests, so they do not
// starve the unit tests of the 2 cores, two files at a time (test/system-sequencer.ts): the fault
// matrix in one slot, the others one after another in the second; much of their time is waiting
// (webhook windows, personalities' dispatch delays, npm installs), which the other slot fills.
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

// The real-targets test keeps its reference in the test process, behind proxies in that process:
// beside the fault matrix's runs (load average 30 on 2 cores) their idle keep-alive connections were
// cut mid-run (checks inconclusive). test/system-sequencer.ts starts it after the matrix, beside the
// short files of the other slot, rather than alone after all of them.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    sequence: { sequencer: ProjectSequencer },
    projects: [
      {
        extends: true,
        // vitest's default is one worker less than the cores: one file at a time on 2 cores, while
        // many unit files mostly wait on processes and sockets of their own (130 s → 80 s)
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: SYSTEM_TESTS, sequence: { groupOrder: 0 }, maxWorkers: 2 },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: SYSTEM_TESTS,
          // one pack and install for every test of the installed tool, made while the unit tests run
          globalSetup: ['test/packed-setup.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
    ],
  },
});
