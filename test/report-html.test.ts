// `npm run report`: Allure 3 HTML from a tiny hand-written allure-results dir, with the Google Tag
// Manager / analytics tags Allure embeds removed. Generation takes about 1 s here.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildHtmlReport, findAnalytics, scrubHtml, scrubUrls } from '../harness/report/build-html.js';
import { categorize } from '../harness/report/categories.js';
import { evaluateQualityGate, parseQualityGate } from '../harness/report/quality-gate.js';
import { requirementsPageHref } from '../harness/report/requirements-page.js';
import { spawnSync } from 'node:child_process';
import { conformanceCli } from './fault-matrix/runner.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function result(uuid: string, name: string, status: string, message?: string): object {
  return {
    uuid,
    historyId: `h-${uuid}`,
    name,
    fullName: `suites/gateway/x.test.ts#${name}`,
    status,
    ...(message !== undefined && { statusDetails: { message, trace: `AssertionError: ${message}\n    at x` } }),
    stage: 'finished',
    start: 1_700_000_000_000,
    stop: 1_700_000_000_100,
    labels: [
      { name: 'epic', value: 'gateway' },
      { name: 'feature', value: 'PIX cash-in' },
      { name: 'story', value: 'GW-PIXIN-AMOUNT-MIN' },
      { name: 'severity', value: 'critical' },
    ],
    links: [{ name: 'GW-PIXIN-AMOUNT-MIN', url: '../conformance.md#GW-PIXIN-AMOUNT-MIN', type: 'requirement' }],
    parameters: [{ name: 'seed', value: '42' }],
    steps: [],
    attachments: [],
  };
}

function allText(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out += allText(path);
    else if (/\.(html|js|css|json)$/.test(name)) out += readFileSync(path, 'utf8');
  }
  return out;
}

describe('build-html', () => {
  test('generates index.html with no Google Tag Manager / analytics left', () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-html-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    writeFileSync(join(results, '11111111-result.json'), JSON.stringify(result('11111111', 'amount at minimum is accepted', 'passed')));
    writeFileSync(join(results, '22222222-result.json'), JSON.stringify(result('22222222', 'amount below minimum is rejected', 'failed', 'status.unexpected: expected 400')));
    writeFileSync(
      join(root, 'conformance.json'),
      JSON.stringify({ version: '0.1.0', profile: 'quick', seed: 42, startedAt: '2026-11-23T10:00:00Z', targets: { gateway: 'http://127.0.0.1:1' }, notTested: { partner: 'PARTNER_BASE_URL not set' }, embedded: false, strict: false, outcome: 'fail', summary: { passed: 1, failed: 1, warnings: 0, notRun: 0, errors: 0, requests: 2, checks: 2 } }),
    );
    const out = join(root, 'allure-report');
    const built = buildHtmlReport({ resultsDir: results, outputDir: out });
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    // single-file mode: the report's data is inlined as base64 payloads of d("path","…") calls
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const inlined = [...html.matchAll(/\bd\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g)];
    expect(inlined.map((m) => m[1])).toContain('widgets/tree.json');
    const everything = `${allText(out)}\n${inlined.map((m) => Buffer.from(m[2] ?? '', 'base64').toString('utf8')).join('\n')}`;
    expect(everything).not.toMatch(/googletagmanager/i);
    expect(everything).not.toMatch(/google-analytics/i);
    expect(everything).not.toMatch(/\bgtag\b/); // case-sensitive: `toStringTag` is not a hit
    expect(findAnalytics(out)).toEqual([]);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<div id="app">');
    expect(readFileSync(join(results, 'environment.properties'), 'utf8')).toContain('target.gateway=http\\://127.0.0.1\\:1');
    expect(existsSync(join(results, 'categories.json'))).toBe(true);
    expect(everything).toContain('Contract violation');
    expect(built.durationMs).toBeLessThan(20_000);
  }, 30_000);

  test('fails clearly without results', () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-html-empty-'));
    dirs.push(root);
    expect(() => buildHtmlReport({ resultsDir: join(root, 'allure-results'), outputDir: join(root, 'out') })).toThrow(/no test results/);
  });
});

describe('scrubbing', () => {
  const page = [
    '<html><head><script>window.allureReportOptions = {"id":"awesome"}</script>',
    '<link rel="preconnect" href="https://www.googletagmanager.com">',
    '</head><body><div id="app"></div><script src="app-1.js"></script>',
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-LNDJ3J7WT0"></script>',
    "<script>\n window.dataLayer = window.dataLayer || [];\n function gtag(){dataLayer.push(arguments);}\n gtag('js', new Date());\n gtag('config', 'G-LNDJ3J7WT0');\n</script>",
    '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X"></iframe></noscript>',
    '</body></html>',
  ].join('\n');

  test('removes GTM script, gtag bootstrap, preconnect and noscript, keeps the app', () => {
    const { html, removed } = scrubHtml(page);
    expect(removed).toBe(4);
    expect(html).toContain('<script src="app-1.js"></script>');
    expect(html).toContain('window.allureReportOptions');
    expect(html).not.toMatch(/googletagmanager|gtag|dataLayer/);
  });

  test('neutralises analytics URLs inside scripts', () => {
    const { text, removed } = scrubUrls('var u="https://www.google-analytics.com/g/collect?v=2";var h="www.googletagmanager.com";');
    expect(removed).toBe(2);
    expect(text).toBe('var u="about:blank";var h="analytics.invalid";');
  });
});

describe('categories', () => {
  test('harness errors, timeouts and 5xx come before contract violations', () => {
    expect(categorize('failed', 'x', 'HarnessError: receiver down\n at y')?.id).toBe('harness-error');
    expect(categorize('broken', 'Test timed out in 30000ms.')?.id).toBe('timeout');
    expect(categorize('failed', 'status.unexpected: expected 201, received HTTP 503')?.id).toBe('target-5xx');
    expect(categorize('failed', 'contract.schema: /amount must be integer')?.id).toBe('contract-violation');
    expect(categorize('broken', 'TypeError: x is undefined')?.id).toBe('test-defect');
  });
});

describe('environment info', () => {
  test('names accepted deviations, baseline entries to review, verdict changes and flaky checks', async () => {
    const { environmentInfo } = await import('../harness/report/build-html.js');
    const base = { version: '0.1.0', profile: 'quick', seed: 1, strict: false, startedAt: 'x', targets: {}, notTested: {}, embedded: true, outcome: 'pass', summary: { passed: 1, failed: 0, warnings: 0, notRun: 0, errors: 0, requests: 1, checks: 1 } };
    const info = environmentInfo({
      ...base,
      accepted: [{ check: 'c', code: 'emv.crc', reason: 'vendor', requirements: [], title: 't', expected: 'e', actual: 'a', entry: 0, severity: 'failure' }],
      baseline: { file: 'b', entries: [], accepted: 1, stale: [{ entry: 1, code: 'x', reason: 'r', check: 'd', matched: 0, expired: false }], expired: [], problems: 1 },
      history: { file: 'h', target: 't', previous: { startedAt: 'then', seed: 1, outcome: 'fail' }, changed: [{ id: 'PT-A', from: 'fail', to: 'pass' }], flaky: [{ check: 'f', seed: 1, states: ['passed', 'failed', 'passed'] }], runs: 2 },
    } as never);
    expect(info['accepted deviations']).toBe('c emv.crc (vendor)');
    expect(info['baseline entries to review']).toMatch(/stale baseline entry #2 check d · x/);
    expect(info['since last run']).toBe('PT-A: fail → pass');
    expect(info['flaky checks']).toBe('f (passed → failed → passed)');
  });
});

/** The report's inlined data files (single-file mode: d("path","base64")), decoded. */
function inlinedData(index: string): Map<string, string> {
  const html = readFileSync(index, 'utf8');
  return new Map([...html.matchAll(/\bd\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g)].map((m) => [m[1] ?? '', Buffer.from(m[2] ?? '', 'base64').toString('utf8')]));
}

describe('history, trends, the requirements page and a quality gate', () => {
  const conformance = (failed: number) => ({
    version: '0.1.0', profile: 'quick', seed: 42, startedAt: '2026-11-23T10:00:00Z', targets: {}, notTested: {}, embedded: true, strict: false, outcome: failed > 0 ? 'fail' : 'pass',
    summary: { passed: 3, failed, warnings: 1, notRun: 0, errors: 0, inconclusive: 0, requests: 9, checks: 4 + failed },
    requirements: [{ id: 'GW-PIXIN-AMOUNT-MIN', verdict: failed > 0 ? 'fail' : 'pass', evaluations: 7, checks: [] }],
    scope: { required: false, complete: true, apis: ['gateway'], requirements: 10, checks: 5, missingRequirements: [{ id: 'GW-X', verdict: 'not-run', reason: 'r' }], missingChecks: [], outOfScope: [] },
  });

  test('--history: each report appends its run; the next one carries the earlier runs (trends)', () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-history-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    const history = join(root, 'allure-history.jsonl');
    writeFileSync(join(results, '11111111-result.json'), JSON.stringify(result('11111111', 'amount at minimum is accepted', 'passed')));
    buildHtmlReport({ resultsDir: results, outputDir: join(root, 'one'), historyPath: history });
    writeFileSync(join(results, '11111111-result.json'), JSON.stringify(result('11111111', 'amount at minimum is accepted', 'failed', 'status.unexpected')));
    const second = buildHtmlReport({ resultsDir: results, outputDir: join(root, 'two'), historyPath: history });
    expect(readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(2);
    const earlier = [...inlinedData(second.index)].filter(([path]) => path.startsWith('data/history/'));
    expect(earlier).toHaveLength(1);
    expect(earlier[0]?.[1]).toContain('"status":"passed"');
  }, 60_000);

  test('the requirements catalogue is a page of the report, with the quoted words and the run\'s verdicts', () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-reqpage-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    writeFileSync(join(results, '11111111-result.json'), JSON.stringify(result('11111111', 'amount at minimum is accepted', 'passed')));
    writeFileSync(join(root, 'conformance.json'), JSON.stringify(conformance(0)));
    const built = buildHtmlReport({ resultsDir: results, outputDir: join(root, 'allure-report') });
    const page = inlinedData(built.index).get(`data/test-results/${requirementsPageHref().slice(1)}.json`);
    expect(page).toContain('Requirements catalogue');
    expect(page).toContain('GW-PIXIN-AMOUNT-MIN');
    expect(page).toContain('pass (7)');
  }, 60_000);

  test('--quality-gate: rules on the run\'s verdict, shown in the report; a failed gate exits 1', () => {
    expect(parseQualityGate('maxFailures=0, successRate=0.9')).toEqual({ maxFailures: 0, successRate: 0.9 });
    expect(() => parseQualityGate('maxFailures=zero')).toThrow(/not a rule/);
    expect(() => parseQualityGate('successRate=95')).toThrow(/ratio between 0 and 1/);
    const pass = evaluateQualityGate({ maxFailures: 0, minTestsCount: 4, successRate: 1, minRequirementsDecided: 0.9 }, conformance(0) as never);
    expect(pass.passed).toBe(true);
    const fail = evaluateQualityGate({ maxFailures: 0, maxWarnings: 0 }, conformance(1) as never);
    expect(fail.results.map((r) => [r.rule, r.actual, r.success])).toEqual([['maxFailures', 1, false], ['maxWarnings', 1, false]]);
    const root = mkdtempSync(join(tmpdir(), 'paygate-gate-'));
    dirs.push(root);
    mkdirSync(join(root, 'allure-results'));
    writeFileSync(join(root, 'allure-results', '11111111-result.json'), JSON.stringify(result('11111111', 'amount below minimum is rejected', 'failed', 'x')));
    writeFileSync(join(root, 'conformance.json'), JSON.stringify(conformance(1)));
    const run = spawnSync(process.execPath, conformanceCli(['report', '--reports-dir', root, '--quality-gate', 'maxFailures=0']), { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('quality gate FAILED: ✗ failed checks (and harness errors): 1 (at most 0)');
    expect(readFileSync(join(root, 'allure-results', 'environment.properties'), 'utf8')).toContain('quality gate=FAILED');
  }, 60_000);
});
