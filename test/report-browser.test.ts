// `npm run report` / `paygate-conformance report` produces ONE file that a browser renders from
// file://, offline: Allure 3 single-file HTML from a tiny synthetic allure-results dir, opened as a
// file by headless Chromium inside a network namespace that has only loopback (`unshare -n`), so
// nothing can phone home and nothing outside is needed. (The multi-file report fetched data files,
// which browsers block from file://: it stayed on its loader.) Chromium dumps the DOM after a 10 s
// virtual-time budget (about 2–3 s of wall time here); the whole test takes ~5 s.
// Browser plumbing (and the tools it needs): test/browser-file.ts.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildHtmlReport } from '../harness/report/build-html.js';
import { checkDescription, requirementLink, requirementsPageHref } from '../harness/report/requirements-page.js';
import { loadRequirements } from '../harness/contract/requirements.js';
import { openFileInBrowser, skipLocally, treeLeaf } from './browser-file.js';

const PASSED_NAME = 'zebra quokka settles the PIX charge';
const FAILED_NAME = 'narwhal axolotl rejects the refund';

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

describe('report in a browser', () => {
  test.skipIf(skipLocally)('renders the suite results from file:// in headless Chromium with loopback-only networking', async () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-browser-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    writeFileSync(join(results, 'aaaa1111-result.json'), JSON.stringify(result('aaaa1111', PASSED_NAME, 'passed')));
    writeFileSync(join(results, 'bbbb2222-result.json'), JSON.stringify(result('bbbb2222', FAILED_NAME, 'failed')));
    const reportDir = join(root, 'allure-report');
    const { index } = buildHtmlReport({ resultsDir: results, outputDir: reportDir });
    // one self-contained file: nothing else a browser would have to load
    expect(readdirSync(reportDir).filter((name) => !name.endsWith('.json'))).toEqual(['index.html']);

    const run = await openFileInBrowser(index);
    const context = run.context;
    expect(run.timedOut, context).toBe(false);
    expect(run.code, context).toBe(0);

    // the SPA rendered the results tree: both tests as leaves, with their statuses
    const dom = run.dom;
    expect(dom, context).toContain('<div id="app">');
    expect(dom, `test names not rendered in the results tree; ${context}`).toMatch(treeLeaf(PASSED_NAME));
    expect(dom).toMatch(treeLeaf(FAILED_NAME));
    expect(dom).toContain('data-testid="tree-leaf-status-passed"');
    expect(dom).toContain('data-testid="tree-leaf-status-failed"');
    expect(dom).toContain('paygate-conformance');
    expect(dom).not.toMatch(/googletagmanager|google-analytics/i);
    expect(dom).not.toMatch(/\bgtag\s*\(/);
  }, 60_000);
});

describe('the requirements inside the single file', () => {
  test.skipIf(skipLocally)("a check's page and the catalogue page show the contract's quoted words from file://, offline", async () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-browser-'));
    dirs.push(root);
    const results = join(root, 'allure-results');
    mkdirSync(results);
    // a plain-words quote (markdown leaves it as it is), and a check deciding it
    const requirement = loadRequirements().find((r) => /^[A-Za-z ,.]{30,}$/.test(r.quote));
    if (requirement === undefined) throw new Error('no plain-words requirement in the catalogue');
    const other = loadRequirements().find((r) => r.id !== requirement.id && /^[A-Za-z ,.]{30,}$/.test(r.quote));
    writeFileSync(join(results, 'cccc3333-result.json'), JSON.stringify({ ...result('cccc3333', PASSED_NAME, 'passed'), description: checkDescription([requirement.id]), links: [{ name: requirement.id, url: requirementLink(requirement.id), type: 'requirement' }] }));
    const { index } = buildHtmlReport({ resultsDir: results, outputDir: join(root, 'allure-report') });

    const check = await openFileInBrowser(index, `#${createHash('md5').update('cccc3333').digest('hex')}`);
    expect(check.code, check.context).toBe(0);
    expect(check.dom, check.context).toContain(requirement.quote);
    const page = await openFileInBrowser(index, requirementsPageHref());
    expect(page.code, page.context).toBe(0);
    expect(page.dom, page.context).toContain('Requirements catalogue');
    expect(page.dom).toContain(requirement.quote);
    expect(page.dom).toContain(other?.quote ?? '');
    expect(page.dom).not.toMatch(/googletagmanager|google-analytics/i);
  }, 90_000);
});
