// Headless Chromium opening a file:// URL inside a network namespace with only loopback
// (`unshare -n`): nothing can phone home, nothing outside is needed. Shared by the report tests.
//
// Needs /usr/bin/chromium (Debian `chromium`), `unshare` (util-linux) and `ip` (iproute2). Missing
// tools fail the tests in CI (CI set; .ci/run installs them) and skip them locally with a note.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
export const CHROMIUM = '/usr/bin/chromium';
/** Wall-clock bound for the namespace (server + chromium); the test itself gets 60 s. */
const BROWSER_TIMEOUT_MS = 40_000;

function onPath(command: string): boolean {
  for (const dir of [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/sbin']) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

export const missing = [
  ...(existsSync(CHROMIUM) ? [] : [`${CHROMIUM} (Debian package chromium)`]),
  ...(onPath('unshare') ? [] : ['unshare (util-linux)']),
  ...(onPath('ip') ? [] : ['ip (iproute2)']),
];
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';
export const skipLocally = missing.length > 0 && !inCi;
if (skipLocally) {
  console.warn(`browser tests: skipped, missing ${missing.join(', ')}; install with \`apt-get install -y chromium util-linux iproute2\` (in CI this test fails instead)`);
}

/** Inside the namespace: loopback up, chromium opens the report as a file and dumps the DOM to stdout. */
const NAMESPACE_SCRIPT = `
ip link set lo up || exit 91
exec "$CHROMIUM_BIN" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \\
  --disable-background-networking --disable-component-update --disable-sync \\
  --user-data-dir="$PROFILE_DIR" --virtual-time-budget=10000 --dump-dom \\
  "$REPORT_URL"
`;

export interface BrowserRun {
  dom: string;
  stderr: string;
  code: number | null;
  timedOut: boolean;
  ms: number;
}

export function runInLoopbackNamespace(env: Record<string, string>): Promise<BrowserRun> {
  const started = Date.now();
  // as root, a plain network namespace; otherwise map to root in a user namespace first
  const args = process.getuid?.() === 0 ? ['-n'] : ['-r', '-n'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn('unshare', [...args, 'sh', '-c', NAMESPACE_SCRIPT], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a timeout kills unshare, sh and every chromium process
    });
    let dom = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      dom += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, BROWSER_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup(); // leftovers (chromium helpers) if any
      resolvePromise({ dom, stderr, code, timedOut, ms: Date.now() - started });
    });
  });
}

/** Chromium's stderr minus its routine D-Bus / GPU noise, for failure messages. */
export function relevant(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/dbus|DBus|gpu|GPU|viz_main|angle|ANGLE/.test(line))
    .slice(-30)
    .join('\n');
}

/**
 * Opens `file` (a path) from file:// in headless Chromium in a loopback-only namespace; returns the
 * DOM after 10 s of virtual time. `hash`: a route inside the page (`#<id>`: an Allure result).
 */
export async function openFileInBrowser(file: string, hash = ''): Promise<BrowserRun & { context: string }> {
  if (missing.length > 0) {
    throw new Error(`browser: missing ${missing.join(', ')}; CI must install them (see .ci/run: apt-get install -y chromium util-linux iproute2)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'paygate-chromium-'));
  mkdirSync(profile, { recursive: true });
  try {
    const run = await runInLoopbackNamespace({ CHROMIUM_BIN: CHROMIUM, REPORT_URL: `${pathToFileURL(file).href}${hash}`, PROFILE_DIR: profile });
    const context = `exit ${String(run.code)} after ${run.ms} ms${run.timedOut ? ' (timed out, killed)' : ''}; DOM ${run.dom.length} chars\n${relevant(run.stderr)}`;
    return { ...run, context };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A leaf of the Allure results tree with this test name. */
export function treeLeaf(name: string): RegExp {
  return new RegExp(`data-testid="tree-leaf-title"[^>]*>\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*<`);
}
