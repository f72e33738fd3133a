// End to end through the real CLI, vitest.conformance.config.ts, the global setup (receiver +
// configured target), allure-vitest, junit and the verdict reporter, with fixture "suites"
// (PAYGATE_INCLUDE) written under reports/ (git-ignored) so they resolve the project's packages.
// The target URL is a dead loopback port: fixtures make no requests. About 3-5 s.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runFixtureCli } from './cli-fixtures.js';
import type { ConformanceReport } from '../harness/report/verdict.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = join(ROOT, 'reports', `selftest-cli-${process.pid}`);
const OUT = join(WORK, 'out');

const FIXTURE = `
import { expect, inject, test } from 'vitest';
import { writeOutcome } from '../../harness/report/outcome.js';
import type { CheckOutcome } from '../../harness/report/outcome.js';
import { reportFinding } from '../../harness/report/finding.js';
import { annotateCheck, attachExchange, reportOutcome } from '../../harness/report/allure.js';

const base = (check: string, title: string, requirements: string[]): CheckOutcome => ({ check, name: title, title, file: 'fixture.test.ts', api: 'gateway', area: 'PIX cash-in', requirements, severity: 'critical', state: 'passed', failures: [], warnings: [], requests: 1, durationMs: 1 });
const exchange = { seq: 1, api: 'gateway' as const, operation: 'POST /api/v1/pix/in/qrcode', request: { method: 'POST', url: 'http://127.0.0.1:9/api/v1/pix/in/qrcode', headers: { authorization: '<redacted:bearer>' }, body: '{"amountInCents":99}' }, response: { status: 201, headers: {}, body: '{}', json: {} }, startedAt: new Date().toISOString(), durationMs: 3, curl: 'curl -X POST http://127.0.0.1:9/api/v1/pix/in/qrcode' };
const annotate = (o: CheckOutcome, parameters?: Record<string, number>) => annotateCheck({ checkId: o.check, api: 'gateway', area: o.area ?? '', requirements: o.requirements, severity: 'critical' }, parameters ? { parameters } : {});

test('fixture passes', async (ctx) => {
  const outcome = base('fixture.pass', 'fixture passes', ['GW-FIX-A']);
  await annotate(outcome, { size: 3 });
  await attachExchange(exchange);
  expect(inject('paygateTarget').gateway?.baseUrl).toBe('http://127.0.0.1:9');
  expect(process.env['PAYGATE_RECEIVER_URL']).toMatch(/^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
  expect(process.env['PAYGATE_SEED']).toBe('5');
  writeOutcome({ ...outcome, exercised: [{ operation: 'POST /api/v1/pix/in/qrcode', status: 201 }] }, ctx);
});

test('fixture fails', async (ctx) => {
  const outcome = base('fixture.fail', 'fixture fails', ['GW-FIX-A']);
  await annotate(outcome);
  const finding = reportFinding({ code: 'status.unexpected', title: 'amount below minimum accepted', severity: 'failure', requirements: ['GW-FIX-A' as never], expected: '400', actual: '201', exchanges: [exchange] });
  writeOutcome({ ...outcome, state: 'failed', failures: [finding] }, ctx);
  const error = new Error('fixture.fail: 1 finding(s) break the contract');
  error.name = 'AssertionError';
  throw error;
});

test('fixture warns', async (ctx) => {
  const warning = reportFinding({ code: 'doc.punct', title: 'punctuation rejected', severity: 'warning', requirements: ['GW-FIX-B' as never], expected: 'accepted', actual: '400', exchanges: [] });
  await reportOutcome({ ...base('fixture.warn', 'fixture warns', ['GW-FIX-B']), state: 'warned', warnings: [warning] }, ctx);
});

test('fixture not run', (ctx) => {
  writeOutcome({ ...base('fixture.notrun', 'fixture not run', ['GW-FIX-C']), state: 'not-run', notRun: 'GATEWAY_SPLIT_EMAIL not set' }, ctx);
  ctx.skip('GATEWAY_SPLIT_EMAIL not set');
});

test('fixture outcome without context', () => {
  writeOutcome(base('fixture.noctx', 'fixture outcome without context', ['GW-FIX-D']));
});
`;

function runCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): ReturnType<typeof runFixtureCli> {
  return runFixtureCli(args, WORK, OUT, extraEnv);
}

/**
 * Runs `body` with a fixture suite `source` written under reports/ (removed afterwards): `env`
 * points a run at it and at its own reports directory `out`.
 */
function withFixtureSuite(name: string, source: string, body: (fixture: { out: string; env: NodeJS.ProcessEnv }) => void): void {
  const dir = join(ROOT, 'reports', `selftest-${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, `${name}.test.ts`), source);
    const out = join(dir, 'out');
    body({ out, env: { PAYGATE_INCLUDE: `${relative(ROOT, dir)}/*.test.ts`, PAYGATE_REPORTS_DIR: out } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a CLI run', () => {
  let result: ReturnType<typeof runCli>;
  let report: ConformanceReport;

  beforeAll(() => {
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'fixture.test.ts'), FIXTURE);
    result = runCli(['--seed', '5']);
    report = JSON.parse(readFileSync(join(OUT, 'conformance.json'), 'utf8')) as ConformanceReport;
  }, 60_000);
  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  test('exits 1 because a check failed; progress on stderr, the summary on stdout', () => {
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('seed 5');
    expect(result.stderr).toMatch(/\[paygate\] checks 5\/5 · failed 1 · warnings 1 · not run 1 · requests 5/);
    expect(result.stdout).not.toContain('[paygate]');
    expect(result.stdout).toMatch(/gateway\s+2\s+1\s+1\s+1\s+0\s+0\s+5/);
    // vitest's own "JUNIT report written to …" never lands in the summary
    expect(result.stdout).not.toContain('JUNIT report written');
    expect(result.stdout).toContain(`replay: npm run conformance -- replay ${relative(ROOT, OUT)}/failures/fixture.fail.json`);
    expect(result.stdout).toContain('result: FAIL');
  });

  test('writes a failure file per failing check: flags, seed, findings, the requests', () => {
    const failure = JSON.parse(readFileSync(join(OUT, 'failures', 'fixture.fail.json'), 'utf8')) as { kind: string; check: { id: string; title: string }; flags: string[]; seed: number; findings: { code: string }[]; requests: string[]; replay: string };
    expect(failure).toMatchObject({ kind: 'paygate-failure', check: { id: 'fixture.fail', title: 'fixture fails' }, flags: ['--profile', 'quick'], seed: 5 });
    expect(failure.findings.map((f) => f.code)).toEqual(['status.unexpected']);
    expect(failure.requests).toEqual(['curl -X POST http://127.0.0.1:9/api/v1/pix/in/qrcode']);
    expect(readdirSync(join(OUT, 'failures'))).toEqual(['fixture.fail.json']);
  });

  test('writes conformance.json from the tests\' meta', () => {
    expect(report.summary).toMatchObject({ passed: 2, failed: 1, warnings: 1, notRun: 1, requests: 5, errors: 0 });
    expect(report.seed).toBe(5);
    expect(report.targets).toEqual({ gateway: 'http://127.0.0.1:9' });
    expect(report.notTested).toEqual({ partner: 'PARTNER_BASE_URL not set' });
    expect(report.notRun).toEqual([{ check: 'fixture.notrun', api: 'gateway', reason: 'GATEWAY_SPLIT_EMAIL not set' }]);
    expect(report.requirements.find((r) => r.id === 'GW-FIX-A')).toMatchObject({ verdict: 'fail', checks: ['fixture.pass', 'fixture.fail'] });
    expect(report.coverage.operations).toEqual([{ api: 'gateway', operation: 'POST /api/v1/pix/in/qrcode', statuses: [201] }]);
    expect(readFileSync(join(OUT, 'conformance.md'), 'utf8')).toContain('amount below minimum accepted');
  });

  test('writes junit.xml at the configured path and allure results with labels and steps', () => {
    const junit = readFileSync(join(OUT, 'junit.xml'), 'utf8');
    expect(junit).toContain('fixture fails');
    expect(junit).toContain('punctuation rejected'); // the warning, on system-err
    const results = readdirSync(join(OUT, 'allure-results')).filter((n) => n.endsWith('-result.json'));
    expect(results).toHaveLength(5);
    const parsed = results.map((n) => JSON.parse(readFileSync(join(OUT, 'allure-results', n), 'utf8')) as { name: string; labels: { name: string; value: string }[]; links: { type?: string }[]; steps: { name: string }[] });
    const passing = parsed.find((r) => r.name === 'fixture passes');
    expect(passing?.labels).toEqual(expect.arrayContaining([{ name: 'epic', value: 'gateway' }, { name: 'feature', value: 'PIX cash-in' }, { name: 'story', value: 'GW-FIX-A' }, { name: 'severity', value: 'critical' }]));
    expect(passing?.links[0]?.type).toBe('requirement');
    expect(passing?.steps[0]?.name).toBe('#1 POST /api/v1/pix/in/qrcode → 201 (3 ms)');
    const warned = parsed.find((r) => r.name === 'fixture warns');
    expect(warned?.labels).toEqual(expect.arrayContaining([{ name: 'tag', value: 'warning' }]));
    // matchers are not steps (reportMatchers: false)
    expect(JSON.stringify(parsed)).not.toContain('toBe');
  });

  test('--strict turns the warning into a failure of the run; a run with no check exits 3', () => {
    const strict = runCli(['--seed', '5', '--strict', '--grep', 'fixture warns']);
    expect(strict.status, strict.stdout + strict.stderr).toBe(1);
    expect(strict.stdout).toContain('--strict: they fail the run');
    const partner = runCli(['--api', 'partner']);
    expect(partner.status, partner.stdout + partner.stderr).toBe(3);
    expect(partner.stderr).toContain('no check ran');
    expect(existsSync(join(OUT, 'conformance.json'))).toBe(true);
  }, 60_000);
});

/** A fixture rule of the property fixtures below: an integer above 10 is a failure. */
const AT_MOST_TEN = `const atMostTen = defineRule({
  name: 'fixtureAtMostTen',
  requirements: ['GW-PIXIN-CREATE-200'],
  codes: { 'fixture.too-big': 'failure' },
  judge(n: number, v) {
    if (n > 10) v.find('fixture.too-big', { title: 'above 10', expected: 'at most 10', actual: String(n) });
  },
});
`;

// A property that found a failure and is still shrinking it when the check's time limit comes (a
// slow or remote target): the check fails on the last failing run found, it is not inconclusive.
const SHRINKING = `
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import { defineRule } from '../../harness/rules/rule.js';

${AT_MOST_TEN}
check('a property still shrinking at the time limit', { id: 'fixture.shrinking', api: 'gateway', area: 'PIX cash-in', rules: [atMostTen], timeoutMs: 3000 }, async (t) => {
  await t.property('slow shrink', fc.integer({ min: 0, max: 1_000_000 }), async (n, it) => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    it.judge(atMostTen, n);
  }, { numRuns: 20 });
});
`;

describe('a check whose time limit comes while a property shrinks a failure', () => {
  test('fails on the last failing run found, with a note, instead of ending inconclusive', () => {
    withFixtureSuite('shrinking', SHRINKING, ({ out, env }) => {
      const run = runCli(['--seed', '5', '--no-allure'], env);
      expect(run.status, run.stdout + run.stderr).toBe(1);
      const shrinking = (JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport).checks.find((c) => c.check === 'fixture.shrinking');
      expect(shrinking?.state).toBe('failed');
      expect(shrinking?.failures.map((f) => f.code)).toEqual(['fixture.too-big']);
      expect(shrinking?.notes?.join('\n')).toContain("the check's time limit stopped fast-check while it was shrinking a failure");
    });
  }, 60_000);
});

// --confirm-failures N: a failing check runs N times more in the same run (a property replays its
// shrunk case); it is confirmed when it failed every time, flaky (k/N) otherwise.
const CONFIRM = `
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import { defineRule } from '../../harness/rules/rule.js';

${AT_MOST_TEN}
check('a property that always fails', { id: 'fixture.always', api: 'gateway', area: 'PIX cash-in', rules: [atMostTen] }, async (t) => {
  await t.property('big', fc.integer({ min: 0, max: 1000 }), async (n, it) => {
    it.judge(atMostTen, n);
  }, { numRuns: 20 });
});

let calls = 0;
check('a check that fails once', { id: 'fixture.once', api: 'gateway', area: 'PIX cash-in', rules: [atMostTen] }, async (t) => {
  calls += 1;
  t.judge(atMostTen, calls === 1 ? 11 : 1);
});

// the same run shows \`waits: true\`: checks of one file that mostly wait run side by side (the second
// one fails unless it runs while the first one still waits)
let firstWaiting = false;
check('a check that waits', { id: 'fixture.waits', api: 'gateway', area: 'PIX cash-in', rules: [atMostTen], waits: true }, async (t) => {
  firstWaiting = true;
  await new Promise((resolve) => setTimeout(resolve, 500));
  firstWaiting = false;
  t.judge(atMostTen, 1);
});
check('a check that waits beside it', { id: 'fixture.beside', api: 'gateway', area: 'PIX cash-in', rules: [atMostTen], waits: true }, async (t) => {
  t.judge(atMostTen, firstWaiting ? 1 : 11);
});
`;

describe('--confirm-failures', () => {
  test('labels a failure confirmed (k = N) or flaky (k < N); the check fails either way (and `waits` checks run side by side)', () => {
    withFixtureSuite('confirm', CONFIRM, ({ out, env }) => {
      const run = runCli(['--seed', '5', '--no-allure', '--confirm-failures', '2'], env);
      expect(run.status, run.stdout + run.stderr).toBe(1);
      const checks = (JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport).checks;
      expect(checks.find((c) => c.check === 'fixture.always')).toMatchObject({ state: 'failed', confirmation: { runs: 2, failed: 2, label: 'confirmed' } });
      expect(checks.find((c) => c.check === 'fixture.once')).toMatchObject({ state: 'failed', confirmation: { runs: 2, failed: 0, label: 'flaky' } });
      // `waits: true`: the two waiting checks ran side by side
      expect(checks.filter((c) => c.check === 'fixture.waits' || c.check === 'fixture.beside').map((c) => c.state)).toEqual(['passed', 'passed']);
      expect(run.stdout).toContain('fixture.once: deviation #1 (flaky 0/2)');
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<property name="confirmation" value="confirmed 2/2"/>');
      expect(readFileSync(join(out, 'conformance.md'), 'utf8')).toContain('— flaky 0/2');
    });
  }, 60_000);
});

// certify: a certify run with an optional credential missing is PARTIAL (exit 5), and its bundle
// (reports/certificate/) verifies until one byte of one of its files changes.
const CERTIFY = `
import { check } from '../../harness/run/check.js';
import { defineRule } from '../../harness/rules/rule.js';

const conforms = defineRule({ name: 'fixtureConforms', requirements: ['GW-PIXIN-CREATE-200'], codes: {}, judge(_n: number) {} });

check('a check that passes', { id: 'fixture.passes', api: 'gateway', area: 'PIX cash-in', rules: [conforms] }, async (t) => {
  t.judge(conforms, 1);
});

check('a check that needs the production pair', { id: 'fixture.live', api: 'gateway', area: 'PIX cash-in', rules: [conforms], needs: ['gateway.live'] }, async (t) => {
  t.judge(conforms, 1);
});
`;

describe('certify and verify', () => {
  test('a certify run missing an optional credential is PARTIAL; its bundle verifies, and fails verify once a byte changes', () => {
    withFixtureSuite('certify', CERTIFY, ({ out, env }) => {
      expect(runCli(['certify', '--implementation-version', '1.0'], env).status).toBe(2);
      const run = runCli(['certify', '--implementation-name', 'acme', '--implementation-version', '2.4.1', '--seed', '5'], env);
      expect(run.status, run.stdout + run.stderr).toBe(5);
      expect(run.stdout).toContain('result: PARTIAL');
      expect(run.stdout).toContain('fixture.live (not-run): GATEWAY_LIVE_CLIENT_ID');
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      expect(report.verdict).toBe('partial');
      expect(report.scope.missingChecks.map((c) => c.check)).toEqual(['fixture.live']);
      const bundle = join(out, 'certificate');
      expect(readdirSync(bundle).sort()).toEqual(['MANIFEST.sha256', 'certificate.json', 'certificate.md', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml', 'report.html']);
      expect(JSON.parse(readFileSync(join(bundle, 'certificate.json'), 'utf8'))).toMatchObject({ implementation: { name: 'acme', version: '2.4.1' }, verdict: 'partial', profile: 'certify', seed: 5, target: { hosts: { gateway: '127.0.0.1:9' } } });
      const verified = runCli(['verify', bundle]);
      expect(verified.status, verified.stdout + verified.stderr).toBe(0);
      const html = join(bundle, 'report.html');
      const bytes = readFileSync(html);
      bytes[100] = (bytes[100]! + 1) % 256;
      writeFileSync(html, bytes);
      const altered = runCli(['verify', bundle]);
      expect(altered.status).toBe(1);
      expect(altered.stderr).toContain('report.html: altered');
    });
  }, 180_000);
});
