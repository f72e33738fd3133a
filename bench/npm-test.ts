/**
 * `npm test` as CI runs it (issue 29: within 8 minutes on 2 cores): its three steps in order,
 * stopping at the first that fails as `&&` does (`npm run typecheck`, `npm run lint`, the project's
 * vitest run with a JSON reporter beside the default one, for the duration of every test file).
 * Opt-in (`--npm-test`: about 8–15 minutes); `--npm-test-ms N` records a time measured elsewhere
 * (e.g. the CI job's) instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from './process.js';

export const NPM_TEST_GOAL_MS = 8 * 60_000;

export interface NpmTestStep {
  name: string;
  ms: number;
  exitCode: number | null;
}

export interface NpmTestFile {
  file: string;
  ms: number;
}

export interface NpmTestResult {
  /** measured by this bench, or given with --npm-test-ms */
  source: 'measured' | 'given';
  wallMs: number;
  goalMs: number;
  exitCode?: number | null;
  steps?: NpmTestStep[];
  /** the slowest test files of the vitest step (their own durations; system files run two at a time) */
  slowestFiles?: NpmTestFile[];
  load?: { before: number[]; after: number[] };
  note?: string;
}

const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);

function step(name: string, command: string, args: string[], timeoutMs: number, log?: (text: string) => void): Promise<NpmTestStep & { tail: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      log?.(`npm test: ${name} killed after ${timeoutMs} ms`);
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    const done = (exitCode: number | null): void => {
      clearTimeout(timer);
      resolve({ name, ms: Math.round(performance.now() - t0), exitCode, tail });
    };
    child.once('error', () => done(null));
    child.once('close', (code) => done(code));
  });
}

/** Per-file durations from vitest's JSON reporter (testResults[]: name, startTime, endTime). */
export function fileDurations(json: unknown): NpmTestFile[] {
  const results = typeof json === 'object' && json !== null && 'testResults' in json && Array.isArray(json.testResults) ? (json.testResults as unknown[]) : [];
  return results
    .flatMap((r): NpmTestFile[] => {
      if (typeof r !== 'object' || r === null) return [];
      const x = r as { name?: unknown; startTime?: unknown; endTime?: unknown };
      if (typeof x.name !== 'string' || typeof x.startTime !== 'number' || typeof x.endTime !== 'number') return [];
      return [{ file: relative(ROOT, x.name), ms: Math.round(x.endTime - x.startTime) }];
    })
    .sort((a, b) => b.ms - a.ms);
}

export async function measureNpmTest(options: { timeoutMs: number; log?: (text: string) => void }): Promise<NpmTestResult> {
  const before = load();
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-npm-test-'));
  const jsonFile = join(dir, 'vitest.json');
  const started = performance.now();
  const steps: NpmTestStep[] = [];
  let note: string | undefined;
  try {
    const plan: [string, string, string[]][] = [
      ['typecheck', 'npm', ['run', 'typecheck']],
      ['lint', 'npm', ['run', 'lint']],
      ['test:unit', 'npm', ['run', 'test:unit', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`]],
    ];
    for (const [name, command, args] of plan) {
      options.log?.(`npm test: ${name}…`);
      const left = Math.max(1000, options.timeoutMs - (performance.now() - started));
      const { tail, ...result } = await step(name, command, args, left, options.log);
      steps.push(result);
      if (result.exitCode !== 0) {
        note = `${name} exited ${String(result.exitCode)}: ${tail.slice(-600).trim()}`;
        break;
      }
    }
    const files = existsSync(jsonFile) ? fileDurations(JSON.parse(readFileSync(jsonFile, 'utf8'))) : [];
    const last = steps[steps.length - 1];
    return {
      source: 'measured',
      wallMs: Math.round(performance.now() - started),
      goalMs: NPM_TEST_GOAL_MS,
      exitCode: last?.exitCode ?? null,
      steps,
      slowestFiles: files.slice(0, 12),
      load: { before, after: load() },
      ...(note !== undefined && { note }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A time measured elsewhere (the CI job's, or a quiet machine's), recorded as given. */
export function givenNpmTest(ms: number): NpmTestResult {
  return { source: 'given', wallMs: ms, goalMs: NPM_TEST_GOAL_MS, note: 'given with --npm-test-ms (not measured by this bench run)' };
}
