// `npm run report`: Allure 3 HTML from a tiny hand-written allure-results dir, with the Google Tag
// Manager / analytics tags Allure embeds removed. Generation takes about 1 s here.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildHtmlReport, findAnalytics, scrubHtml, scrubUrls } from '../harness/report/build-html.js';
import { categorize } from '../harness/report/categories.js';

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
