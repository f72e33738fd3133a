// The conformance run (suites/ against a target). Run it through the CLI (`npm run conformance`),
// which sets the PAYGATE_* variables read here; `npx vitest run --config vitest.conformance.config.ts`
// also works (quick profile, vitest's default reporter).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { allure2Categories } from './harness/report/categories.js';
import ConformanceSequencer from './harness/run/sequencer.js';

const env = process.env;
// the built package (dist/, compiled by `npm run build`) runs the JavaScript of every file named here
const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
const profile = env['PAYGATE_PROFILE'] ?? 'quick';
const timed = profile === 'full' || profile === 'certify';
const minutes = 60_000;
// quick waits for no contract timer; full/certify wait for token and charge expiry and for
// webhook redelivery backoff (doubling up to a 5-minute cap), so a test may take many minutes
const testTimeout = Number(env['PAYGATE_TEST_TIMEOUT_MS'] ?? (timed ? 45 * minutes : 2 * minutes));
const workers = env['PAYGATE_WORKERS'] !== undefined ? Number(env['PAYGATE_WORKERS']) : undefined;
const reportsDir = env['PAYGATE_REPORTS_DIR'] ?? 'reports';

// PAYGATE_ALLURE=0 (--no-allure): no Allure results, a leaner gate (conformance.json/md, junit.xml)
const allure = env['PAYGATE_ALLURE'] !== '0';
const allureReporter: [string, Record<string, unknown>] = [
  // allure-vitest's reporter, writing each test file's results when the file ends
  `./harness/report/allure-reporter.${ext}`,
  {
    resultsDir: `${reportsDir}/allure-results`,
    // every `expect` as a step would bury the HTTP exchanges (thousands per property)
    reportMatchers: false,
    categories: allure2Categories(),
    environmentInfo: {
      profile,
      seed: env['PAYGATE_SEED'] ?? 'random',
      api: env['PAYGATE_API'] ?? 'both',
      strict: env['PAYGATE_STRICT'] === '1' ? 'yes' : 'no',
    },
  },
];

export default defineConfig({
  test: {
    // PAYGATE_INCLUDE: the project's own end-to-end test of this plumbing runs fixture suites
    include: env['PAYGATE_INCLUDE'] !== undefined ? env['PAYGATE_INCLUDE'].split(',') : [`suites/**/*.test.${ext}`],
    globalSetup: [`./harness/run/global-setup.${ext}`],
    setupFiles: allure ? ['allure-vitest/setup'] : [`./harness/run/no-allure-setup.${ext}`],
    // forks: each worker is a process with its own rate limiter share and HTTP pool; the webhook
    // receiver lives in the global-setup process and workers reach it over HTTP
    pool: 'forks',
    // one module graph per worker, not per file: the harness, the bundled specs and every compiled
    // ajv validator load once per worker process (isolated, each of the ~30 files paid ~1.4 s of
    // imports and spec compilation). Checks share nothing through modules but the worker's Session
    // (HTTP pools, tokens, contract), which is meant to be shared; the fault matrix has always run
    // this way. PAYGATE_ISOLATE=1 restores one fresh module graph per file.
    isolate: env['PAYGATE_ISOLATE'] === '1',
    // the files that chain the most round trips start first (harness/run/sequencer.ts)
    sequence: { sequencer: ConformanceSequencer },
    // at least two workers: a quick run's checks mostly wait (webhook deliveries, race windows, the
    // reference), and with vitest's default of one worker on two cores those waits ran one file
    // after another (with the cached contract a second worker costs ~0.7 s of CPU, and saves more)
    maxWorkers: workers !== undefined && Number.isInteger(workers) && workers > 0 ? workers : Math.max(2, availableParallelism() - 1),
    testTimeout,
    hookTimeout: Math.max(testTimeout, 2 * minutes),
    teardownTimeout: 30_000,
    passWithNoTests: true,
    // the transformed harness and suites kept on disk between runs (node_modules/.experimental-vitest-cache)
    experimental: { fsModuleCache: env['PAYGATE_MODULE_CACHE'] !== '0' },
    reporters: [
      env['PAYGATE_CLI'] === '1' ? `./harness/cli/progress.${ext}` : 'default',
      ...(allure ? [allureReporter] : []),
      // conformance.json/md and junit.xml (PAYGATE_JUNIT_FILE), from the checks' outcomes
      `./harness/report/verdict-reporter.${ext}`,
    ],
  },
});
