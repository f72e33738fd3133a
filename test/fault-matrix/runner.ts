/**
 * Runs the conformance suite (or some of its files) as a child process against the embedded
 * reference, the way `npx vitest run --config vitest.conformance.config.ts <files>` does, with its
 * own reports directory, and reads back reports/conformance.json.
 *
 * The child gets a clean environment: no target variables (so the global setup starts the
 * reference, which inherits REFERENCE_* from here), no PAYGATE_* / REFERENCE_* / VITEST* leaking in
 * from the test process that spawned it. Each run is its own process group, killed on timeout.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ConformanceReport } from '../../harness/report/verdict.js';
import { referenceBundle } from './reference-bundle.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONFORMANCE_CONFIG = 'vitest.conformance.config.ts';

/** Variables that must not leak from the parent into a conformance run. */
const INHERITED_OUT = /^(VITEST|TEST$|NODE_ENV$|GATEWAY_|PARTNER_|PAYGATE_|CALLBACK_|REFERENCE_|FORCE_COLOR$)/;

export interface ConformanceRunOptions {
  /** a short name for logs */
  label: string;
  /** test files relative to the project root; empty: every suite file */
  files: readonly string[];
  /**
   * `cli`: through `npm run conformance`'s entry point (harness/cli/main.ts) with `cliArgs`
   * (files and testNamePattern are then ignored); default `vitest`: vitest directly, files selected.
   */
  via?: 'vitest' | 'cli';
  cliArgs?: readonly string[];
  /** absolute reports directory of this run (emptied first) */
  reportsDir: string;
  /** extra environment: REFERENCE_FAULTS, REFERENCE_* timers, PAYGATE_PROFILE, PAYGATE_SEED… */
  env?: Record<string, string>;
  /** worker processes of the run (PAYGATE_WORKERS) */
  workers?: number;
  /** the whole run is killed after this long */
  timeoutMs: number;
  /** vitest -t pattern */
  testNamePattern?: string;
  /**
   * false: `--no-isolate`, one worker process runs several files in turn (the contract and modules
   * load once per worker instead of once per file). Default: the config's (isolated).
   */
  isolate?: boolean;
  /** also write the whole output here (diagnosis) */
  logFile?: string;
  /**
   * vitest reporters instead of the config's (`--reporter`, which replaces them): the fault matrix
   * needs only conformance.json (`VERDICT_ONLY`), and the Allure results and JUnit file the config
   * writes cost a run about as much CPU as its checks.
   */
  reporters?: readonly string[];
  /**
   * false: vitest transforms every module afresh. Default: a `vitest` run reads the project's
   * modules, already transformed, from MODULE_CACHE (vitest's fsModuleCache, keyed by each file's
   * content and the config): of a small run's ~4.5 CPU-seconds, ~1.8 were transforms.
   */
  moduleCache?: boolean;
}

/** vitest's file-system module cache shared by the conformance runs the project's tests spawn. */
export const MODULE_CACHE = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'vitest-modules');

/** The verdict reporter alone (conformance.json/md) and vitest's quietest console reporter. */
export const VERDICT_ONLY: readonly string[] = ['./harness/report/verdict-reporter.ts', 'dot'];

export interface ConformanceRunResult {
  label: string;
  files: readonly string[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** wall time from spawn to exit */
  durationMs: number;
  /** conformance.json, when the run wrote one */
  report: ConformanceReport | undefined;
  /** the last part of stdout+stderr (diagnosis) */
  outputTail: string;
}

function vitestCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
}

/**
 * Node's arguments for the conformance CLI as `npm run conformance` starts it: one process, its
 * loader (scripts/conformance-loader.mjs: vitest/node, then tsx). tsx's own CLI would start a second
 * Node process and load vitest through tsx's hooks: ~1 s more CPU per run.
 */
export function conformanceCli(args: readonly string[]): string[] {
  return ['--import', pathToFileURL(join(ROOT, 'scripts', 'conformance-loader.mjs')).href, join(ROOT, 'harness', 'cli', 'main.ts'), ...args];
}

/** The environment of a conformance child process. */
export function childEnv(extra: Record<string, string> = {}, workers?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!INHERITED_OUT.test(key)) env[key] = value;
  // the reference bundled once (test/fault-matrix/reference-bundle.ts), not its source through tsx each run
  Object.assign(env, { CI: 'true', NO_COLOR: '1', PAYGATE_REFERENCE_SCRIPT: referenceBundle() });
  if (workers !== undefined) env['PAYGATE_WORKERS'] = String(workers);
  Object.assign(env, extra);
  return env;
}

/** Runs the suite files once; never throws for what the run found, only resolves with its outcome. */
export function runConformance(options: ConformanceRunOptions): Promise<ConformanceRunResult> {
  rmSync(options.reportsDir, { recursive: true, force: true });
  mkdirSync(options.reportsDir, { recursive: true });
  const env = childEnv({ PAYGATE_REPORTS_DIR: options.reportsDir, ...(options.env ?? {}) }, options.workers);
  const args =
    options.via === 'cli'
      ? conformanceCli(options.cliArgs ?? [])
      : [
          vitestCli(),
          'run',
          '--config',
          CONFORMANCE_CONFIG,
          ...(options.isolate === false ? ['--no-isolate'] : []),
          ...(options.moduleCache !== false ? ['--experimental.fsModuleCache', `--experimental.fsModuleCachePath=${MODULE_CACHE}`] : []),
          ...(options.testNamePattern !== undefined ? ['-t', options.testNamePattern] : []),
          ...(options.reporters ?? []).map((r) => `--reporter=${r}`),
          ...options.files,
        ];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    const logStream = options.logFile !== undefined ? createWriteStream(options.logFile) : undefined;
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-8000);
      logStream?.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal); // the run's own process group: vitest, its workers, the reference
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 3_000).unref();
    }, options.timeoutMs);
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      logStream?.end();
      killGroup('SIGKILL'); // stray grandchildren (a reference that outlived its parent)
      const path = join(options.reportsDir, 'conformance.json');
      let report: ConformanceReport | undefined;
      if (existsSync(path)) {
        try {
          report = JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
        } catch {
          report = undefined;
        }
      }
      resolve({
        label: options.label,
        files: options.files,
        exitCode,
        signal,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        report,
        outputTail: tail,
      });
    });
  });
}

/** Runs tasks with at most `limit` at a time, in the given order; results in input order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next;
      next += 1;
      if (index >= items.length) return;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker()));
  return results;
}

/** The suite's test files on disk (relative), for one API or both. */
export function suiteFiles(api?: 'gateway' | 'partner'): string[] {
  const apis = api === undefined ? (['gateway', 'partner'] as const) : [api];
  const out: string[] = [];
  for (const a of apis) {
    const dir = join(ROOT, 'suites', a);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) if (name.endsWith('.test.ts')) out.push(`suites/${a}/${name}`);
  }
  return out;
}

