/**
 * `npm run bench -- [flags]`: measures the harness and the reference in one run and writes
 * reports/bench.json, then prints the tables (bench/table.ts).
 *
 * Sections (all by default; `--only a,b` picks some):
 *   startup     the quick profile as `npm run conformance` runs it, --startup-runs times (default 5):
 *               time to the first request the embedded reference receives, wall time; medians
 *   overhead    harness full path vs raw undici, same endpoint/concurrency/connections (+ stage timers)
 *   throughput  the reference's requests/s for charge creation and lookups (raw undici client)
 *   suite       the quick profile end to end through the CLI (the full profile only with --full)
 *   fuzz        the stateful fuzzer's sequences/s and time/requests to detect race/atomicity/
 *               idempotency faults (short by default; --fuzz: 3 seeds per fault, larger budget)
 *   growth      wall time of one property-based suite file at 10/100/1000 runs per property
 *   latency     the quick profile through a delaying proxy (bench/delay-proxy.ts) adding 0, 50, 100,
 *               200 ms to every request: wall time and requests in flight (issue 16's goal)
 *   agreement   opt-in (only with --only agreement): per seed and reference fault, the quick profile
 *               with --concurrency 1 and with the default makes the same findings (bench/agreement.ts)
 *   mutation    opt-in (only with --only mutation): `npm run mutation` on a sample of
 *               --mutation-sample N mutants (default 200) with --seed; hours (bench/mutation.ts)
 *
 * The figures of issue 29 (first request, quick median, 200 ms / 0 ms, overhead) are gathered in
 * `figures` at the top of reports/bench.json, with the load averages of the run.
 *
 * Flags: --full, --fuzz, --only LIST, --startup-runs N, --startup-flags "…" (CLI flags of the
 * startup runs, default "--no-allure"), --delays LIST (latency rows, ms), --seed N, --seeds LIST and
 * --faults LIST (agreement cases), --mutation-sample N, --npm-test (adds the npm-test section: `npm test`
 * timed here, bench/npm-test.ts), --npm-test-ms N (npm test's time measured elsewhere, e.g. the CI
 * job's: recorded as given), --suite-flags "…"
 * (extra CLI flags of the latency runs, e.g. "--concurrency 4"), --reference child|in-process (default child), --short (tiny
 * counts, to check the bench itself), --out PATH, --growth-file PATH, --help.
 * Every loop is bounded in count and time; everything listens on and talks to 127.0.0.1 only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AGREEMENT_FAULTS, measureAgreement } from './agreement.js';
import { measureFuzz } from './fuzz.js';
import { measureGrowth } from './growth.js';
import { measureLatency } from './latency.js';
import { measureMutation } from './mutation.js';
import { givenNpmTest, measureNpmTest } from './npm-test.js';
import { runHarnessOverhead } from './overhead.js';
import { ROOT } from './process.js';
import { startBenchReference } from './reference.js';
import type { ReferenceMode } from './reference.js';
import { benchFigures } from './report.js';
import type { BenchReport } from './report.js';
import { measureStartup } from './startup.js';
import { measureSuite, notMeasured } from './suite.js';
import { renderReport } from './table.js';
import { measureThroughput } from './throughput.js';

const SECTIONS = ['startup', 'overhead', 'throughput', 'suite', 'fuzz', 'growth', 'latency', 'agreement', 'mutation', 'npm-test'] as const;
/**
 * sections run when --only is not given (agreement is many quick-profile runs, mutation hours of
 * them, npm-test 8–15 minutes: opt-in; --npm-test adds it to the default sections)
 */
const DEFAULT_SECTIONS = SECTIONS.filter((s) => s !== 'agreement' && s !== 'mutation' && s !== 'npm-test');
type Section = (typeof SECTIONS)[number];

interface BenchFlags {
  full: boolean;
  fuzz: boolean;
  short: boolean;
  only: Set<Section>;
  reference: ReferenceMode;
  out: string;
  growthFile?: string;
  delays: number[];
  seed: number;
  seeds: number[];
  faults: string[];
  suiteFlags: string[];
  mutationSample: number;
  startupRuns: number;
  startupFlags: string[];
  /** `npm test`'s wall time measured elsewhere (--npm-test-ms) */
  npmTestMs?: number;
}

const HELP = `npm run bench -- [--startup-runs 5] [--startup-flags "--no-allure"] [--full] [--fuzz] [--short] [--only ${SECTIONS.join(',')}] [--reference child|in-process] [--out reports/bench.json] [--growth-file suites/…] [--delays 0,50,100,200] [--seed N] [--seeds 1,2] [--faults a,b] [--mutation-sample 200] [--npm-test | --npm-test-ms N] [--suite-flags "--concurrency 4"]`;

/** The flags (node:util parseArgs, as the CLI's); undefined for --help. Throws with the reason. */
function parseFlags(argv: readonly string[]): BenchFlags | undefined {
  // --suite-flags takes CLI flags as its value ("--concurrency 4"): joined to it, parseArgs takes it whole
  const args: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] ?? '';
    if (a === '--') continue;
    if ((a === '--suite-flags' || a === '--startup-flags') && argv[i + 1] !== undefined) args.push(`${a}=${argv[++i] ?? ''}`);
    else args.push(a);
  }
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      full: { type: 'boolean' },
      fuzz: { type: 'boolean' },
      short: { type: 'boolean' },
      only: { type: 'string' },
      reference: { type: 'string' },
      out: { type: 'string' },
      'growth-file': { type: 'string' },
      delays: { type: 'string' },
      seed: { type: 'string' },
      seeds: { type: 'string' },
      faults: { type: 'string' },
      'suite-flags': { type: 'string' },
      'mutation-sample': { type: 'string' },
      'startup-runs': { type: 'string' },
      'startup-flags': { type: 'string' },
      'npm-test': { type: 'boolean' },
      'npm-test-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return undefined;
  const flags: BenchFlags = { full: values.full === true, fuzz: values.fuzz === true, short: values.short === true, only: new Set(DEFAULT_SECTIONS), reference: 'child', out: resolve(ROOT, 'reports', 'bench.json'), delays: [0, 50, 100, 200], seed: 1, seeds: [1, 2], faults: [...AGREEMENT_FAULTS], suiteFlags: [], mutationSample: 200, startupRuns: 5, startupFlags: ['--no-allure'] };
  const list = (text: string): string[] => text.split(',').map((x) => x.trim()).filter(Boolean);
  if (values.only !== undefined) {
    const names = list(values.only);
    for (const n of names) if (!(SECTIONS as readonly string[]).includes(n)) throw new Error(`unknown section "${n}" (${SECTIONS.join(', ')})`);
    flags.only = new Set(names as Section[]);
  }
  if (values.reference !== undefined) {
    if (values.reference !== 'child' && values.reference !== 'in-process') throw new Error('--reference is child or in-process');
    flags.reference = values.reference;
  }
  if (values.out !== undefined) flags.out = resolve(process.cwd(), values.out);
  if (values['growth-file'] !== undefined) flags.growthFile = values['growth-file'];
  if (values.delays !== undefined) {
    const delays = list(values.delays).map(Number);
    if (delays.some((d) => !Number.isInteger(d) || d < 0 || d > 2000)) throw new Error('--delays is a list of integers 0-2000 (ms)');
    flags.delays = delays;
  }
  if (values.seed !== undefined) {
    const seed = Number(values.seed);
    if (!Number.isSafeInteger(seed)) throw new Error('--seed is an integer');
    flags.seed = seed;
  }
  if (values.seeds !== undefined) {
    const seeds = list(values.seeds).map(Number);
    if (seeds.length === 0 || seeds.some((x) => !Number.isSafeInteger(x))) throw new Error('--seeds is a list of integers');
    flags.seeds = seeds;
  }
  if (values.faults !== undefined) flags.faults = list(values.faults);
  if (values['suite-flags'] !== undefined) flags.suiteFlags = values['suite-flags'].split(/\s+/).filter(Boolean);
  if (values['mutation-sample'] !== undefined) {
    const n = Number(values['mutation-sample']);
    if (!Number.isInteger(n) || n < 1) throw new Error('--mutation-sample is a positive integer');
    flags.mutationSample = n;
  }
  if (values['startup-runs'] !== undefined) {
    const n = Number(values['startup-runs']);
    if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error('--startup-runs is an integer 1-50');
    flags.startupRuns = n;
  }
  if (values['startup-flags'] !== undefined) flags.startupFlags = values['startup-flags'].split(/\s+/).filter(Boolean);
  if (values['npm-test'] === true) flags.only.add('npm-test');
  if (values['npm-test-ms'] !== undefined) {
    const ms = Number(values['npm-test-ms']);
    if (!Number.isSafeInteger(ms) || ms <= 0) throw new Error('--npm-test-ms is a positive integer (milliseconds)');
    if (flags.only.has('npm-test')) throw new Error('--npm-test-ms records a time measured elsewhere: not with --npm-test');
    flags.npmTestMs = ms;
  }
  return flags;
}

const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);

function log(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  let flags: BenchFlags | undefined;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${HELP}`);
    return 2;
  }
  if (!flags) {
    console.log(HELP);
    return 0;
  }
  const short = flags.short;
  const t0 = performance.now();
  const report: BenchReport = {
    tool: 'paygate-conformance-bench',
    startedAt: new Date().toISOString(),
    totalMs: 0,
    outputPath: flags.out,
    machine: { cpus: cpus().length, node: process.version, platform: process.platform, loadBefore: load(), loadAfter: [] },
    reference: flags.reference,
    caveat:
      'Numbers from one run on a shared machine: other processes steal CPU, so req/s and wall times are noisy (compare ratios and CPU µs/request, and re-run on an idle machine for absolute values).',
    flags: [...argv].filter((a) => a !== '--'),
  };

  if (flags.only.has('startup')) {
    log(`start-up and the quick profile, ${short ? 1 : flags.startupRuns} run(s)…`);
    report.startup = await measureStartup({ runs: short ? 1 : flags.startupRuns, seed: flags.seed, flags: flags.startupFlags, timeoutMs: 5 * 60_000, log });
  }

  if (flags.only.has('overhead')) {
    log('harness overhead vs raw undici…');
    const r = await runHarnessOverhead({
      reference: flags.reference,
      endpoints: ['balance', 'pix-lookup'],
      concurrencies: [1, 32],
      rounds: short ? 1 : 3,
      durationMs: short ? 300 : 1500,
      maxRequests: short ? 500 : 60_000,
      stages: true,
    });
    report.overhead = r.overhead;
    if (r.stages) report.stages = r.stages;
  }

  if (flags.only.has('throughput')) {
    log('reference throughput…');
    const ref = await startBenchReference(flags.reference);
    try {
      report.throughput = await measureThroughput(ref.info, { concurrencies: [1, 64], durationMs: short ? 300 : 2000, maxRequests: short ? 500 : 30_000 });
    } finally {
      await ref.stop();
    }
  }

  if (flags.only.has('suite')) {
    log('quick profile end to end…');
    const rows = [await measureSuite('quick', { timeoutMs: 5 * 60_000 })];
    if (flags.full) {
      log('full profile end to end (timer waits; up to 90 min)…');
      rows.push(await measureSuite('full', { timeoutMs: 90 * 60_000 }));
    } else rows.push(notMeasured('full', 'not measured (waits for contract timers; run with --full)'));
    report.suite = rows;
  }

  if (flags.only.has('fuzz')) {
    log(`fuzzer (${flags.fuzz ? 'long' : 'short'} version)…`);
    report.fuzz = await measureFuzz(
      flags.fuzz
        ? { rateRuns: [5, 200], detectRuns: 100, repetitions: 3, budgetMs: 25 * 60_000, timeoutMsPerRun: 5 * 60_000 }
        : { rateRuns: short ? [1, 3] : [5, 60], detectRuns: short ? 5 : 40, repetitions: 1, budgetMs: short ? 30_000 : 240_000, timeoutMsPerRun: 2 * 60_000 },
    );
  }

  if (flags.only.has('growth')) {
    log('cost growth with --runs…');
    report.growth = await measureGrowth({ runs: short ? [1, 3] : [10, 100, 1000], timeoutMsPerRun: short ? 60_000 : 4 * 60_000, ...(flags.growthFile ? { file: flags.growthFile } : {}) });
  }

  if (flags.only.has('latency')) {
    log('quick profile with added latency…');
    report.latency = await measureLatency({
      // short: still the 200 ms row, so a short run has every figure of bench.json `figures`
      delays: short ? [0, 200] : flags.delays,
      seed: flags.seed,
      flags: flags.suiteFlags,
      // 2 063 requests one at a time at 200 ms would take ~7 min: the limit leaves room for that
      timeoutMs: 12 * 60_000,
      log,
    });
  }

  if (flags.only.has('agreement')) {
    log(`quick profile with and without --concurrency: seeds ${flags.seeds.join(',')}, ${flags.faults.length} fault(s) and the correct reference…`);
    report.agreement = await measureAgreement({ seeds: short ? flags.seeds.slice(0, 1) : flags.seeds, faults: short ? flags.faults.slice(0, 1) : flags.faults, timeoutMs: 10 * 60_000, log });
  }

  if (flags.only.has('mutation')) {
    const sample = short ? 3 : flags.mutationSample;
    log(`mutation testing of the reference: ${sample} mutants, seed ${flags.seed} (minutes per mutant group)…`);
    report.mutation = await measureMutation({ sample, seed: flags.seed, outDir: dirname(flags.out), timeoutMs: 8 * 3600_000 });
  }

  if (flags.only.has('npm-test')) {
    log('npm test (typecheck, lint, the project\'s tests; 8–15 minutes)…');
    report.npmTest = await measureNpmTest({ timeoutMs: 40 * 60_000, log });
  } else if (flags.npmTestMs !== undefined) report.npmTest = givenNpmTest(flags.npmTestMs);

  report.machine.loadAfter = load();
  report.figures = benchFigures(report);
  report.totalMs = Math.round(performance.now() - t0);
  mkdirSync(dirname(flags.out), { recursive: true });
  writeFileSync(flags.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(renderReport(report));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench: failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
