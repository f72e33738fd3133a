/**
 * Runs a child process (the conformance CLI, a vitest run) and times it from spawn to exit.
 *
 * - the child gets a clean target environment (no GATEWAY_/PARTNER_ variables, no fixed
 *   CALLBACK_PORT, no REFERENCE_FAULTS unless given) so it runs against its own embedded reference;
 * - its reports go to a fresh temporary directory (PAYGATE_REPORTS_DIR), never to the reports/ that
 *   other runs on this machine may be writing;
 * - it runs in its own process group and is killed as a group (SIGTERM, then SIGKILL) when it
 *   outlives its time limit, so no vitest fork or reference child is left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

const requireHere = createRequire(import.meta.url);
export const TSX_CLI = requireHere.resolve('tsx/cli');
export const VITEST_CLI = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

export interface TimedRun {
  exitCode: number | null;
  signal: string | null;
  wallMs: number;
  timedOut: boolean;
  /** the last few KB of stdout + stderr */
  outputTail: string;
  /** reports/conformance.json of the run, when it wrote one */
  report?: ConformanceSummary;
  /** test files by time spent, slowest first (from junit.xml `<testsuite name time>`) */
  fileTimes?: { file: string; seconds: number }[];
}

/** `<testsuite name="…" … time="…">` entries of a JUnit report, slowest first. */
export function junitFileTimes(xml: string): { file: string; seconds: number }[] {
  const out: { file: string; seconds: number }[] = [];
  for (const m of xml.matchAll(/<testsuite\s[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(m[0])?.[1];
    const time = /\stime="([^"]*)"/.exec(m[0])?.[1];
    if (name !== undefined && time !== undefined && Number.isFinite(Number(time))) out.push({ file: name, seconds: Number(time) });
  }
  return out.sort((a, b) => b.seconds - a.seconds);
}

/** The parts of reports/conformance.json the bench reads (harness/report/verdict.ts ConformanceReport). */
export interface ConformanceSummary {
  durationMs?: number;
  summary?: { passed: number; failed: number; warnings: number; notRun: number; requests: number; errors: number; checks: number };
  failures?: { check: string; requirements: string[]; message: string; replay: string }[];
  warnings?: { check: string; requirements: string[]; message: string }[];
  requirements?: { id: string; verdict: string }[];
  errors?: { check: string; message: string; replay: string }[];
}

const CLEARED = /^(GATEWAY_|PARTNER_|CALLBACK_|PAYGATE_|REFERENCE_|VITEST)/;

export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!CLEARED.test(k)) env[k] = v;
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

export interface RunOptions {
  args: string[];
  env?: Record<string, string>;
  timeoutMs: number;
}

/** Spawns `node <args>` from the project root with a temporary reports directory and times it. */
export async function timedRun(options: RunOptions): Promise<TimedRun> {
  const reportsDir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
  try {
    const env = cleanEnv({ PAYGATE_REPORTS_DIR: reportsDir, ...options.env });
    const t0 = performance.now();
    const child = spawn(process.execPath, options.args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
    }, options.timeoutMs);
    const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.once('error', () => resolve({ code: null, signal: null }));
      child.once('close', (c, s) => resolve({ code: c, signal: s }));
    });
    clearTimeout(timer);
    const wallMs = Math.round(performance.now() - t0);
    // the group may still hold a straggler (a reference child orphaned by a crash)
    if (timedOut) killGroup('SIGKILL');
    const run: TimedRun = { exitCode: code, signal, wallMs, timedOut, outputTail: tail };
    const reportPath = join(reportsDir, 'conformance.json');
    if (existsSync(reportPath)) {
      try {
        run.report = JSON.parse(readFileSync(reportPath, 'utf8')) as ConformanceSummary;
      } catch {
        // a half-written report: leave it out
      }
    }
    const junitPath = join(reportsDir, 'junit.xml');
    if (existsSync(junitPath)) run.fileTimes = junitFileTimes(readFileSync(junitPath, 'utf8'));
    return run;
  } finally {
    rmSync(reportsDir, { recursive: true, force: true });
  }
}

/** `node --import scripts/conformance-loader.mjs harness/cli/main.ts <flags>`: the conformance CLI, as `npm run conformance` runs it. */
export function cliArgs(flags: string[]): string[] {
  // as `npm run conformance` runs it: its loader (vitest/node, then tsx) in the CLI's own process
  return ['--import', pathToFileURL(join(ROOT, 'scripts', 'conformance-loader.mjs')).href, join(ROOT, 'harness', 'cli', 'main.ts'), ...flags];
}

/** `node vitest.mjs run --config vitest.conformance.config.ts <files>`: a direct suite-file run. */
export function vitestArgs(files: string[]): string[] {
  return [VITEST_CLI, 'run', '--config', join(ROOT, 'vitest.conformance.config.ts'), ...files];
}
