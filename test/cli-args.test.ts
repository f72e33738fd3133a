// CLI flags: parsing and validation, --help completeness, the certify safety rule, worker env.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import {
  TARGET_ENV,
  UsageError,
  checkTargetSafety,
  grepPattern,
  helpText,
  isLoopbackHost,
  parseArgs,
  workerEnv,
} from '../harness/cli/args.js';
import { renderSummary } from '../harness/cli/summary.js';
import { formatProgress } from '../harness/cli/progress.js';
import { buildConformance } from '../harness/report/verdict.js';
import { RUN_OPTIONS } from '../harness/cli/commands.js';
import { conformanceCli } from './fault-matrix/runner.js';

/** Every flag and environment variable INTERFACE.md names (kept literal on purpose). */
const INTERFACE_FLAGS = ['--profile', '--api', '--seed', '--runs', '--grep', '--max-rps'];
const BRIEF_FLAGS = ['--strict', '--allow-insecure', '--replay', '--shard', '--help'];
const INTERFACE_ENV = [
  'GATEWAY_BASE_URL',
  'GATEWAY_CLIENT_ID',
  'GATEWAY_CLIENT_SECRET',
  'GATEWAY_LIVE_CLIENT_ID',
  'GATEWAY_LIVE_CLIENT_SECRET',
  'GATEWAY_OTHER_CLIENT_ID',
  'GATEWAY_OTHER_CLIENT_SECRET',
  'GATEWAY_SPLIT_EMAIL',
  'PARTNER_BASE_URL',
  'PARTNER_API_KEY',
  'PARTNER_LIVE_API_KEY',
  'PARTNER_OTHER_API_KEY',
  'PARTNER_WEBHOOK_SECRET',
  'CALLBACK_HOST',
  'CALLBACK_PORT',
  'CALLBACK_PUBLIC_URL',
];

describe('parseArgs', () => {
  test('defaults', () => {
    expect(parseArgs([])).toEqual({ profile: 'quick', api: 'both', strict: false, allowInsecure: false, noPreflight: false, noAllure: false, dryRun: false, help: false, version: false });
  });

  test('every flag, both spellings', () => {
    const o = parseArgs(['--profile', 'certify', '--api=partner', '--seed=-12', '--runs=50', '--grep', 'amount (min)', '--max-rps', '2.5', '--strict', '--allow-insecure', '--replay', '3:1:0', '--shard=2/3', '--workers', '4', '--dry-run', '--proxy', 'http://proxy.example:3128', '--no-preflight', '--no-allure', '--']);
    expect(o).toEqual({
      profile: 'certify',
      api: 'partner',
      seed: -12,
      runs: 50,
      grep: 'amount (min)',
      maxRps: 2.5,
      strict: true,
      allowInsecure: true,
      proxy: 'http://proxy.example:3128',
      noPreflight: true,
      noAllure: true,
      replay: '3:1:0',
      shard: { index: 2, count: 3 },
      workers: 4,
      dryRun: true,
      help: false,
      version: false,
    });
    expect(parseArgs(['-h']).help).toBe(true);
  });

  test.each([
    [['--profile', 'slow'], /--profile must be one of quick, full, certify/],
    [['--api', 'all'], /--api must be one of gateway, partner, both/],
    [['--seed', 'abc'], /--seed expects an integer/],
    [['--seed', '99999999999'], /--seed must be between/],
    [['--runs', '0'], /--runs must be between 1/],
    [['--max-rps', '0'], /--max-rps expects a positive number/],
    [['--max-rps', 'fast'], /--max-rps expects a positive number/],
    [['--proxy', 'socks5://p:1080'], /--proxy expects an http\(s\) URL/],
    [['--shard', '3/2'], /--shard expects i\/n/],
    [['--shard', '1'], /--shard expects i\/n/],
    [['--replay', '1:2'], /--replay needs the --seed/],
    [['--grep'], /--grep needs a value/],
    [['--seed', '--strict'], /--seed needs a value/],
    [['--strict=yes'], /--strict takes no value/],
    [['--frobnicate'], /unknown flag --frobnicate/],
    [['--requirment', 'X'], /unknown flag --requirment \(did you mean --requirement\?\)/],
    [['--seed', '-12'], /--seed needs a value \(a value starting with "-" goes as --seed=-12\)/],
    [['--header', 'no-colon'], /--header expects NAME:VALUE/],
    [['--request-timeout', 'soon'], /--request-timeout expects a duration/],
    [['--client-cert', 'c.pem'], /--client-cert and --client-key go together/],
    [['--severity', 'high'], /--severity must be one of blocker, critical, normal, minor/],
    [['gateway'], /unexpected argument "gateway"/],
    [['--seed', '1', '--seed', '2'], /--seed given twice/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});

describe('--help', () => {
  const help = helpText();
  test('documents every flag', () => {
    for (const flag of [...INTERFACE_FLAGS, ...BRIEF_FLAGS, ...RUN_OPTIONS.map((f) => `--${f.name}`)]) expect(help).toContain(flag);
  });
  test('documents every INTERFACE.md environment variable', () => {
    for (const name of INTERFACE_ENV) expect(help).toContain(name);
    expect(TARGET_ENV.map((e) => e.name).sort()).toEqual([...INTERFACE_ENV].sort());
  });
});

describe('certify safety', () => {
  const certify = { profile: 'certify' as const, allowInsecure: false };
  test('refuses plain HTTP to a non-loopback host', () => {
    const problems = checkTargetSafety(certify, { GATEWAY_BASE_URL: 'http://example.com' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/GATEWAY_BASE_URL is plain HTTP.*--allow-insecure/);
    expect(checkTargetSafety(certify, { PARTNER_BASE_URL: 'http://10.0.0.5/v1' })).toHaveLength(1);
  });
  test('accepts HTTPS, loopback, and --allow-insecure', () => {
    expect(checkTargetSafety(certify, { GATEWAY_BASE_URL: 'http://127.0.0.1:8080', PARTNER_BASE_URL: 'http://localhost:9/v1' })).toEqual([]);
    expect(checkTargetSafety(certify, { GATEWAY_BASE_URL: 'http://[::1]:8080' })).toEqual([]);
    expect(checkTargetSafety(certify, { GATEWAY_BASE_URL: 'https://sandbox.example.com' })).toEqual([]);
    expect(checkTargetSafety({ profile: 'certify', allowInsecure: true }, { GATEWAY_BASE_URL: 'http://example.com' })).toEqual([]);
    expect(checkTargetSafety({ profile: 'quick', allowInsecure: false }, { GATEWAY_BASE_URL: 'http://example.com' })).toEqual([]);
  });
  test('rejects a malformed base URL in any profile', () => {
    expect(checkTargetSafety({ profile: 'quick', allowInsecure: false }, { GATEWAY_BASE_URL: 'not a url' })[0]).toMatch(/not a valid URL/);
    expect(checkTargetSafety({ profile: 'quick', allowInsecure: false }, { PARTNER_BASE_URL: 'ftp://x/v1' })[0]).toMatch(/http\(s\)/);
  });
  test('loopback detection', () => {
    for (const host of ['127.0.0.1', '127.8.9.1', 'localhost', 'api.localhost', '[::1]', '::1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', '::2', 'localhost.example.com']) expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('worker environment', () => {
  test('carries every option; the rate cap is split per worker', () => {
    const env = workerEnv(parseArgs(['--profile', 'certify', '--runs', '10', '--strict', '--seed', '5', '--replay', '1:2', '--api', 'gateway']), 5);
    expect(env).toEqual({
      PAYGATE_CLI: '1',
      PAYGATE_PROFILE: 'certify',
      PAYGATE_SEED: '5',
      PAYGATE_API: 'gateway',
      PAYGATE_STRICT: '1',
      PAYGATE_REPLAY_FLAGS: JSON.stringify(['--profile', 'certify', '--api', 'gateway', '--strict', '--runs', '10']),
      PAYGATE_RUNS: '10',
      PAYGATE_REPLAY: '1:2',
      PAYGATE_WORKERS: '3',
      PAYGATE_MAX_RPS_TOTAL: '5',
      PAYGATE_MAX_RPS: '1.666',
    });
    expect(workerEnv(parseArgs(['--max-rps', '4']), 1)).toMatchObject({ PAYGATE_WORKERS: '2', PAYGATE_MAX_RPS: '2' });
    expect(workerEnv(parseArgs(['--no-allure']), 1)).toMatchObject({ PAYGATE_ALLURE: '0' });
    expect(workerEnv(parseArgs([]), 1)['PAYGATE_ALLURE']).toBeUndefined();
    expect(workerEnv(parseArgs(['--profile', 'full']), 1)).toMatchObject({ PAYGATE_WORKERS: '3' });
    const quick = workerEnv(parseArgs([]), 1);
    expect(quick['PAYGATE_MAX_RPS']).toBeUndefined();
    expect(quick['PAYGATE_WORKERS']).toBeUndefined();
    expect(workerEnv(parseArgs(['--max-rps', '3', '--workers', '3']), 1)['PAYGATE_MAX_RPS']).toBe('1');
  });
  test('--concurrency: worker processes and property runs in flight; remote targets default to 8', () => {
    expect(workerEnv(parseArgs(['--concurrency', '6']), 1)).toMatchObject({ PAYGATE_WORKERS: '6', PAYGATE_CONCURRENCY: '6' });
    // the embedded reference shares this machine's CPUs: nothing changes unless asked
    const embedded = workerEnv(parseArgs([]), 1, false);
    expect(embedded['PAYGATE_CONCURRENCY']).toBeUndefined();
    expect(embedded['PAYGATE_WORKERS']).toBeUndefined();
    expect(workerEnv(parseArgs([]), 1, true)).toMatchObject({ PAYGATE_WORKERS: '8', PAYGATE_CONCURRENCY: '8' });
    // a rate cap, not the latency, bounds a capped run
    expect(workerEnv(parseArgs(['--max-rps', '4']), 1, true)).toMatchObject({ PAYGATE_WORKERS: '2', PAYGATE_MAX_RPS: '2' });
    expect(workerEnv(parseArgs(['--max-rps', '4']), 1, true)['PAYGATE_CONCURRENCY']).toBeUndefined();
    // full/certify keep at least the three workers of the timer files; --workers wins
    expect(workerEnv(parseArgs(['--profile', 'full', '--concurrency', '2']), 1)).toMatchObject({ PAYGATE_WORKERS: '3', PAYGATE_CONCURRENCY: '2' });
    expect(workerEnv(parseArgs(['--concurrency', '4', '--workers', '2']), 1)).toMatchObject({ PAYGATE_WORKERS: '2', PAYGATE_CONCURRENCY: '4' });
    expect(() => parseArgs(['--concurrency', '0'])).toThrow(/between 1 and 64/);
  });
  test('--grep is literal text', () => {
    expect(grepPattern('amount (min) $1').test('x amount (min) $1 y')).toBe(true);
    expect(grepPattern('a.c').test('abc')).toBe(false);
  });
});

describe('progress and summary', () => {
  test('progress line is short', () => {
    const line = formatProgress({ collected: 40, done: 12, failed: 1, warned: 2, notRun: 3, errors: 0, requests: 145, elapsedMs: 12_400 });
    expect(line).toBe('[paygate] checks 12/40 · failed 1 · warnings 2 · not run 3 · requests 145 · 12s · eta ~29s');
  });
  test('progress shows inconclusive checks, the planned total from the start and an ETA at the rate cap', () => {
    const line = formatProgress({ collected: 3, planned: 120, done: 2, failed: 0, warned: 0, notRun: 0, errors: 0, inconclusive: 1, requests: 50, plannedRequests: 1550, maxRps: 5, elapsedMs: 10_000 });
    expect(line).toBe('[paygate] checks 2/120 · failed 0 · inconclusive 1 · requests 50/~1550 · 10s · eta ~5m00s');
  });
  test('summary table has a row per API and the report paths', () => {
    const report = buildConformance(
      { version: '0.1.0', profile: 'quick', seed: 3, startedAt: new Date(0).toISOString(), durationMs: 1500, targets: { gateway: 'http://127.0.0.1:1' }, strict: false, embedded: false, notTested: { partner: 'PARTNER_BASE_URL not set' } },
      [{ check: 'g', name: 'g', file: 'f', api: 'gateway', requirements: [], state: 'passed', failures: [], warnings: [], requests: 7, durationMs: 1 }],
      [],
    );
    const text = renderSummary(report, { files: { json: 'reports/conformance.json' } });
    expect(text).toMatch(/passed\s+failed\s+warnings\s+not run\s+inconclusive\s+harness errors\s+requests/);
    expect(text).toMatch(/gateway\s+1\s+0\s+0\s+0\s+0\s+0\s+7/);
    expect(text).toContain('partner: not tested (PARTNER_BASE_URL not set)');
    // counts and coverage only for the API tested
    expect(text).not.toMatch(/^partner\s+\d/m);
    expect(text).toContain('checkable of the gateway API');
    expect(text).toMatch(/total\s+1\s+0\s+0\s+0\s+0\s+0\s+7/);
    expect(text).toContain('reports/conformance.json');
    expect(text).toContain('result: PASS');
  });
});

describe('the CLI process', () => {

  const cli = (args: string[], env: Record<string, string> = {}) => {
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|GATEWAY_|PARTNER_|PAYGATE_|CALLBACK_)/.test(k)) clean[k] = v;
    return spawnSync(process.execPath, conformanceCli(args), { encoding: 'utf8', env: { ...clean, ...env } });
  };

  test('certify refuses http://example.com without --allow-insecure (exit 2)', () => {
    const r = cli(['--profile', 'certify', '--dry-run'], { GATEWAY_BASE_URL: 'http://example.com', GATEWAY_CLIENT_ID: 'x', GATEWAY_CLIENT_SECRET: 'y' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('refusing to start');
    expect(r.stderr).toContain('--allow-insecure');
  });

  test('certify accepts http://127.0.0.1 and --allow-insecure (dry run)', () => {
    const creds = { GATEWAY_CLIENT_ID: 'id', GATEWAY_CLIENT_SECRET: 'secret' };
    const local = cli(['--profile', 'certify', '--dry-run', '--seed', '77'], { GATEWAY_BASE_URL: 'http://127.0.0.1:8080', ...creds });
    expect(local.status).toBe(0);
    expect(local.stderr).toContain('seed 77');
    expect(local.stdout).toContain('PAYGATE_MAX_RPS_TOTAL=5');
    const insecure = cli(['--profile', 'certify', '--dry-run', '--allow-insecure'], { GATEWAY_BASE_URL: 'http://example.com', ...creds });
    expect(insecure.status).toBe(0);
    expect(insecure.stderr).toMatch(/random seed; replay this run with --seed -?\d+/);
  });

  test('--allow-insecure outside certify is warned about; the target line names only the APIs tested; --help documents exit 4, proxies and private CAs', () => {
    const env = { GATEWAY_BASE_URL: 'https://gw.example', GATEWAY_CLIENT_ID: 'id', GATEWAY_CLIENT_SECRET: 'secret', PARTNER_BASE_URL: 'https://pt.example/v1', PARTNER_API_KEY: 'ak_test_k' };
    const r = cli(['--dry-run', '--allow-insecure', '--api', 'gateway'], env);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/warning: --allow-insecure only matters with --profile certify/);
    expect(r.stderr).toContain('target: gateway https://gw.example\n');
    expect(r.stderr + r.stdout).not.toContain('pt.example');
    const certify = cli(['--dry-run', '--profile', 'certify', '--proxy', 'http://proxy.example:3128'], env);
    expect(certify.stderr).toContain('proxy: http://proxy.example:3128');
    expect(certify.stderr).toMatch(/plan: ~\d+ checks, ~\d+ requests at most 5 req\/s → about \d+ (s|min|h)/);
    expect(certify.stdout).toMatch(/PAYGATE_PLANNED_CHECKS=\d+/);
    const help = cli(['--help']);
    for (const text of ['4  inconclusive', '5  partial', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', '--proxy URL', '--no-preflight']) expect(help.stdout).toContain(text);
  });

  test('a base URL without its credentials exits 2 before anything starts', () => {
    const r = cli(['--dry-run'], { PARTNER_BASE_URL: 'https://pt.example/v1' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('PARTNER_API_KEY');
  });

  test('bad flags exit 2 with the reason; --help exits 0', () => {
    const bad = cli(['--profile', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--profile must be one of');
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('PARTNER_WEBHOOK_SECRET');
  });
});
