// The package as `npm pack` makes it (prepack compiles it into dist/), packed once for the system
// tests that install it (package, Node versions, CI templates) and kept in node_modules/.cache/
// while the files that go into it are unchanged (sizes and times of everything git would ship or
// track), and installed once into an adopter project in the system temp directory
// (`installedTool`). test/packed-setup.ts starts both when the system tests start.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourcesKey as keyOf } from '../scripts/sources-key.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const sourcesKey = (): string => keyOf(ROOT);
const PACK_ROOT = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'pack');
const PACK_LOCK = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'pack.lock');
/** a packing that left its lock this long ago died with it */
const STALE_LOCK_MS = 10 * 60_000;

/** Takes the pack lock if free (a lock left by a packing that died long ago is taken over). */
function tryPackLock(): boolean {
  mkdirSync(join(PACK_LOCK, '..'), { recursive: true });
  try {
    mkdirSync(PACK_LOCK);
    return true;
  } catch {
    if (existsSync(PACK_LOCK) && Date.now() - statSync(PACK_LOCK).mtimeMs > STALE_LOCK_MS) rmSync(PACK_LOCK, { recursive: true, force: true });
    return false;
  }
}

function releasePackLock(): void {
  rmSync(PACK_LOCK, { recursive: true, force: true });
}

/**
 * Holds the pack lock while `work` runs: two packings at once would empty each other's directory
 * and build into the same dist/ (`npm pack` of this checkout runs prepack → `npm run build`), so
 * whoever packs this checkout holds it (test/packed-setup.ts's packing and install, the GitHub
 * Action's install step, which packs this checkout itself); the other waits.
 */
export async function withPackLockAsync<T>(work: () => Promise<T>): Promise<T> {
  while (!tryPackLock()) await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    return await work();
  } finally {
    releasePackLock();
  }
}

/** The packed tarball of this checkout and the files it holds. */
export interface Packed {
  tarball: string;
  files: string[];
}

function readPacked(dir: string): Packed {
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`test/packed.ts: no tarball in ${dir}`);
  const files = JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as string[];
  return { tarball: join(dir, tarball), files };
}

function packListing(out: string): string[] {
  return (JSON.parse(out.slice(out.indexOf('['))) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
}

/**
 * The tool as an adopter has it: the tarball installed (`npm i <tarball>`) into an empty project in
 * the system temp directory (no path back to this checkout, so no dependency can resolve from its
 * node_modules). One per packing, shared by the tests of the installed tool (package, Node
 * versions); test/packed-setup.ts makes it in the background when the system tests start.
 */
export interface Installed extends Packed {
  /** the adopter project: package.json and node_modules/paygate-conformance */
  project: string;
  /** node_modules/paygate-conformance/bin/paygate-conformance.js */
  bin: string;
}

/** Every checkout its own directory (other worktrees on the machine install theirs). */
const INSTALL_ROOT = join(tmpdir(), `paygate-conformance-installed-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`);

function installedAt(key: string, packed: Packed): Installed {
  const project = join(INSTALL_ROOT, key);
  return { ...packed, project, bin: join(project, 'node_modules', 'paygate-conformance', 'bin', 'paygate-conformance.js') };
}

async function packAndInstall(key: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<Installed> {
  const dir = join(PACK_ROOT, key);
  const listing = join(dir, 'files.json');
  if (!existsSync(listing)) {
    const started = performance.now();
    rmSync(PACK_ROOT, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const pack = await run('npm', ['pack', ROOT, '--pack-destination', dir, '--json', '--loglevel=error'], dir, env, 600_000);
    if (pack.code !== 0) throw new Error(`npm pack failed (exit ${String(pack.code)}):\n${pack.out}`);
    writeFileSync(listing, JSON.stringify(packListing(pack.stdout)));
    log(`packed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const installed = installedAt(key, readPacked(dir));
  const done = join(installed.project, '.installed');
  if (!existsSync(done)) {
    const started = performance.now();
    rmSync(INSTALL_ROOT, { recursive: true, force: true });
    mkdirSync(installed.project, { recursive: true });
    writeFileSync(join(installed.project, 'package.json'), JSON.stringify({ name: 'adopter', version: '1.0.0', private: true }));
    const install = await run('npm', ['i', installed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], installed.project, env, 600_000);
    if (install.code !== 0) throw new Error(`npm i <tarball> failed (exit ${String(install.code)}):\n${install.out}`);
    writeFileSync(done, '');
    log(`installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return installed;
}

/**
 * Packs this checkout and installs the tarball once per change of its sources, holding the pack
 * lock throughout (whoever asks meanwhile waits for it, then finds both made).
 */
export function prepareInstalled(env: NodeJS.ProcessEnv, log: (line: string) => void = () => undefined): Promise<Installed> {
  const key = sourcesKey();
  return withPackLockAsync(() => packAndInstall(key, env, log));
}

/** The shared install (made now when test/packed-setup.ts did not start it, or waited for when it did). */
export function installedTool(): Promise<Installed> {
  return prepareInstalled(cleanEnv());
}

export interface Run {
  code: number | null;
  out: string;
  stdout: string;
  ms: number;
}

/** The user's environment: no target configured (embedded reference), nothing of this run's harness. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(GATEWAY_|PARTNER_|CALLBACK_|PAYGATE_|REFERENCE_|VITEST|npm_)/.test(k) || k === 'NODE_OPTIONS' || k === 'TEST') continue;
    env[k] = v;
  }
  return { ...env, CI: '1', ...extra };
}

export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const timer = setTimeout(() => {
      out += `\n[test] killed after ${timeoutMs} ms`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, out, stdout, ms: performance.now() - started });
    });
  });
}


/** A CI step's script as GitHub and GitLab run `shell: bash` (bash --noprofile --norc -eo pipefail). */
export function bash(script: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 240_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const timer = setTimeout(() => {
      out += `\n[test] killed after ${timeoutMs} ms`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, out });
    });
  });
}
