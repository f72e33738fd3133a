// `npm run report` produces a report that a browser actually renders, offline: Allure 3 HTML from a
// tiny synthetic allure-results dir, loaded in headless Chromium inside a network namespace that
// has only loopback (`unshare -n`), so nothing can phone home and nothing outside is needed.
//
// The Awesome report is a multi-file SPA that fetches data/*.json and widgets/*.json: under file://
// those fetches are blocked and the page stays on its loader, so the report is served over
// http://127.0.0.1 by a small node server started inside the same namespace. Chromium dumps the DOM
// after a 10 s virtual-time budget (about 2–3 s of wall time here); the whole test takes ~5 s.
//
// Needs /usr/bin/chromium (Debian `chromium`), `unshare` (util-linux) and `ip` (iproute2). Missing
// tools fail the test in CI (CI set; .ci/run installs them) and skip it locally with a note.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildHtmlReport } from '../harness/report/build-html.js';

const CHROMIUM = '/usr/bin/chromium';
const PASSED_NAME = 'zebra quokka settles the PIX charge';
const FAILED_NAME = 'narwhal axolotl rejects the refund';
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

const missing = [
  ...(existsSync(CHROMIUM) ? [] : [`${CHROMIUM} (Debian package chromium)`]),
  ...(onPath('unshare') ? [] : ['unshare (util-linux)']),
  ...(onPath('ip') ? [] : ['ip (iproute2)']),
];
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';
const skipLocally = missing.length > 0 && !inCi;
if (skipLocally) {
  console.warn(`report-browser: skipped, missing ${missing.join(', ')}; install with \`apt-get install -y chromium util-linux iproute2\` (in CI this test fails instead)`);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function result(uuid: string, name: string, status: 'passed' | 'failed'): object {
  return {
    uuid,
    historyId: `h-${uuid}`,
    name,
    fullName: `suites/gateway/browser.test.ts#${name}`,
    status,
    ...(status === 'failed' && { statusDetails: { message: 'status.unexpected: expected 400', trace: 'AssertionError: status.unexpected: expected 400\n    at x' } }),
    stage: 'finished',
    start: 1_700_000_000_000,
    stop: 1_700_000_000_100,
    labels: [
      { name: 'epic', value: 'gateway' },
      { name: 'feature', value: 'PIX cash-in' },
      { name: 'story', value: 'GW-PIXIN-AMOUNT-MIN' },
    ],
    links: [],
    parameters: [],
    steps: [],
    attachments: [],
  };
}

/** Static file server run inside the namespace: argv = [root, portFile, logFile]; logs `status url` per request. */
const SERVER = `
const { createServer } = require('node:http');
const { readFile, appendFileSync, writeFileSync } = require('node:fs');
const { join, normalize, extname } = require('node:path');
const [root, portFile, logFile] = process.argv.slice(1);
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.svg': 'image/svg+xml', '.txt': 'text/plain' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
  const file = join(root, normalize(path === '/' ? '/index.html' : path));
  readFile(file, (error, body) => {
    const status = error || !file.startsWith(root) ? 404 : 200;
    appendFileSync(logFile, status + ' ' + req.url + '\\n');
    res.writeHead(status, { 'content-type': types[extname(file)] || 'application/octet-stream' });
    res.end(status === 200 ? body : 'not found');
  });
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
`;

/** Inside the namespace: loopback up, server up, chromium dumps the DOM to stdout, server down. */
const NAMESPACE_SCRIPT = `
ip link set lo up || exit 91
"$NODE_BIN" -e "$SERVER_JS" "$REPORT_DIR" "$PORT_FILE" "$LOG_FILE" >/dev/null 2>&1 &
srv=$!
i=0
while [ ! -s "$PORT_FILE" ]; do
  i=$((i+1)); if [ "$i" -gt 200 ]; then kill "$srv"; echo "static server did not start" >&2; exit 92; fi
  sleep 0.05
done
rc=0
"$CHROMIUM_BIN" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \\
  --disable-background-networking --disable-component-update --disable-sync \\
  --user-data-dir="$PROFILE_DIR" --virtual-time-budget=10000 --dump-dom \\
  "http://127.0.0.1:$(cat "$PORT_FILE")/index.html" || rc=$?
kill "$srv"
exit "$rc"
`;

interface BrowserRun {
  dom: string;
  stderr: string;
  code: number | null;
  timedOut: boolean;
  ms: number;
}

function runInLoopbackNamespace(env: Record<string, string>): Promise<BrowserRun> {
  const started = Date.now();
  // as root, a plain network namespace; otherwise map to root in a user namespace first
  const args = process.getuid?.() === 0 ? ['-n'] : ['-r', '-n'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn('unshare', [...args, 'sh', '-c', NAMESPACE_SCRIPT], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a timeout kills unshare, sh, server and every chromium process
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
function relevant(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/dbus|DBus|gpu|GPU|viz_main|angle|ANGLE/.test(line))
    .slice(-30)
    .join('\n');
}

describe('report in a browser', () => {
  test.skipIf(skipLocally)('renders the suite results in headless Chromium with loopback-only networking', async () => {
    if (missing.length > 0) {
      throw new Error(`report-browser: missing ${missing.join(', ')}; CI must install them (see .ci/run: apt-get install -y chromium util-linux iproute2)`);
    }
    const root = mkdtempSync(join(tmpdir(), 'paygate-browser-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    writeFileSync(join(results, 'aaaa1111-result.json'), JSON.stringify(result('aaaa1111', PASSED_NAME, 'passed')));
    writeFileSync(join(results, 'bbbb2222-result.json'), JSON.stringify(result('bbbb2222', FAILED_NAME, 'failed')));
    const reportDir = join(root, 'allure-report');
    buildHtmlReport({ resultsDir: results, outputDir: reportDir });
    const profile = join(root, 'chromium-profile');
    mkdirSync(profile);
    const logFile = join(root, 'server.log');

    const run = await runInLoopbackNamespace({
      NODE_BIN: process.execPath,
      SERVER_JS: SERVER,
      CHROMIUM_BIN: CHROMIUM,
      REPORT_DIR: reportDir,
      PORT_FILE: join(root, 'port'),
      LOG_FILE: logFile,
      PROFILE_DIR: profile,
    });
    const context = `exit ${String(run.code)} after ${run.ms} ms${run.timedOut ? ' (timed out, killed)' : ''}; DOM ${run.dom.length} chars\n${relevant(run.stderr)}`;
    expect(run.timedOut, context).toBe(false);
    expect(run.code, context).toBe(0);

    // the static server saw the page and the report's data fetched from it, all found
    const requests = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : [];
    expect(requests, context).toContain('200 /index.html');
    expect(requests.some((line) => /^200 \/widgets\/.*tree\.json/.test(line)), `requests: ${requests.join(', ')}`).toBe(true);
    // the app probes optional widgets (e.g. widgets/metrics.json) that a report without history lacks
    const failed = requests.filter((line) => !line.startsWith('200 ') && !/^404 \/widgets\/metrics\.json(?:\?|$)/.test(line));
    expect(failed, 'requests that failed').toEqual([]);

    // the SPA rendered the results tree: both tests as leaves, with their statuses
    const dom = run.dom;
    expect(dom, context).toContain('<div id="app">');
    const leaf = (name: string): RegExp => new RegExp(`data-testid="tree-leaf-title"[^>]*>\\s*${name}\\s*<`);
    expect(dom, `test names not rendered in the results tree; ${context}`).toMatch(leaf(PASSED_NAME));
    expect(dom).toMatch(leaf(FAILED_NAME));
    expect(dom).toContain('data-testid="tree-leaf-status-passed"');
    expect(dom).toContain('data-testid="tree-leaf-status-failed"');
    expect(dom).toContain('paygate-conformance');
    expect(dom).not.toMatch(/googletagmanager|google-analytics/i);
    expect(dom).not.toMatch(/\bgtag\s*\(/);
  }, 60_000);
});
