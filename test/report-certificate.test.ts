// The certification bundle (harness/report/certificate.ts): what the certificate states (the
// implementation, hashes of the contract it was judged against, every in-scope requirement with its
// evaluations and evidence), and `verify`: a bundle verifies as written and fails, naming the file,
// once one byte of any of its files changes, or a file is added or removed.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import { buildConformance, renderMarkdown } from '../harness/report/verdict.js';
import type { ConformanceReport, RunInfo } from '../harness/report/verdict.js';
import { buildHar } from '../harness/report/har.js';
import { renderJUnit } from '../harness/report/junit.js';
import { MANIFEST, buildCertificate, contractHashes, manifestText, renderCertificate, sha256File, verifyBundle, writeBundle } from '../harness/report/certificate.js';
import type { Certificate } from '../harness/report/certificate.js';
import type { Exchange } from '../harness/core/exchange.js';
import { outcome } from './report-fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const catalogue: Requirement[] = [
  { id: 'GW-AUTH-200-SHAPE', api: 'gateway', section: 'POST /api/auth', quote: 'q', kind: 'checkable' },
  { id: 'GW-BAL-FIELDS', api: 'gateway', section: 'Balance', quote: 'q', kind: 'checkable' },
  { id: 'GW-LEDGER', api: 'gateway', section: 'Balance', quote: 'q', kind: 'unobservable', reason: 'r' },
  { id: 'PT-CHARGE-CREATE', api: 'partner', section: 'POST /charges', quote: 'q', kind: 'checkable' },
];
const run: RunInfo = { version: '0.1.0', profile: 'certify', seed: 7, startedAt: '2026-11-24T10:00:00.000Z', durationMs: 1000, targets: { gateway: 'https://sandbox.example:8443' }, strict: false, embedded: false, notTested: { partner: 'PARTNER_BASE_URL not set' } };
const exchange = (seq: number): Exchange => ({ seq, api: 'gateway', operation: 'GET /api/v1/balance', request: { method: 'GET', url: 'https://sandbox.example:8443/api/v1/balance', headers: { authorization: 'Bearer <redacted:token>' } }, response: { status: 200, headers: {}, body: '{}' }, startedAt: '2026-11-24T10:00:01.000Z', durationMs: 5, curl: 'curl …' });

/** A finished certify run's reports directory, as the verdict reporter leaves it. */
function reportsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-cert-'));
  dirs.push(dir);
  const checks = [
    outcome({ check: 'gateway.auth.shape', requirements: ['GW-AUTH-200-SHAPE'], requests: 2 }),
    outcome({ check: 'gateway.balance.fields', requirements: ['GW-BAL-FIELDS', 'GW-AUTH-200-SHAPE'], requests: 1, evaluations: { 'GW-BAL-FIELDS': { evaluations: 3, failed: 0, warned: 0 } } }),
  ];
  const report = buildConformance(run, checks, catalogue);
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(dir, 'conformance.md'), renderMarkdown(report));
  writeFileSync(join(dir, 'junit.xml'), renderJUnit(checks, { startedAt: run.startedAt, properties: {} }));
  writeFileSync(join(dir, 'exchanges.har'), JSON.stringify(buildHar([{ check: 'gateway.auth.shape', exchanges: [exchange(1), exchange(2)] }, { check: 'gateway.balance.fields', exchanges: [exchange(3)] }], '0.1.0')));
  mkdirSync(join(dir, 'allure-report'));
  writeFileSync(join(dir, 'allure-report', 'index.html'), '<!DOCTYPE html><html><body><div id="app"></div></body></html>\n');
  return dir;
}

describe('the certificate', () => {
  let reports: string;
  let bundle: string;
  let cert: Certificate;
  beforeEach(() => {
    reports = reportsDir();
    bundle = join(reports, 'certificate');
    cert = writeBundle(bundle, { reportsDir: reports, reportHtml: join(reports, 'allure-report', 'index.html') }, { name: 'acme-gateway', version: '2.4.1' }, {});
  });

  test('names the implementation, the tool, profile, seed, target host, date and what it was judged against', () => {
    expect(readdirSync(bundle).sort()).toEqual(['MANIFEST.sha256', 'certificate.json', 'certificate.md', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml', 'report.html']);
    expect(cert).toMatchObject({ implementation: { name: 'acme-gateway', version: '2.4.1' }, tool: { name: 'paygate-conformance', version: '0.1.0' }, verdict: 'pass', profile: 'certify', seed: 7, date: '2026-11-24T10:00:00.000Z', target: { hosts: { gateway: 'sandbox.example:8443' } } });
    expect(cert.scope).toMatchObject({ apis: ['gateway'], complete: true });
    expect(cert.scope.outOfScope).toContain('partner API not tested (PARTNER_BASE_URL not set)');
    const own = contractHashes();
    expect(Object.keys(cert.hashes.contract)).toEqual(['specs/contract/gateway-api.md', 'specs/contract/partner-cashin-api.md']);
    expect(cert.hashes.contract['specs/contract/gateway-api.md']).toBe(sha256File(join(process.cwd(), 'specs/contract/gateway-api.md')));
    expect(cert.hashes).toEqual(own);
    expect(cert.files['report.html']).toBe(sha256File(join(bundle, 'report.html')));
    expect(cert.accepted).toEqual([]);
  });

  test('discloses the deviations a baseline accepted', () => {
    const report = JSON.parse(readFileSync(join(bundle, 'conformance.json'), 'utf8')) as ConformanceReport;
    const accepted = [{ check: 'gateway.balance.fields', code: 'balance.format', requirements: ['GW-BAL-FIELDS'], title: 'one decimal', expected: '2', actual: '1', severity: 'failure' as const, key: 'k', curl: [], entry: 0, reason: 'PAY-123', expires: '2027-01-01' }];
    const withBaseline = buildCertificate({ report: { ...report, accepted }, implementation: { name: 'x', version: '1' }, files: {} });
    expect(withBaseline.accepted).toEqual([{ check: 'gateway.balance.fields', code: 'balance.format', requirements: ['GW-BAL-FIELDS'], title: 'one decimal', reason: 'PAY-123', expires: '2027-01-01' }]);
    expect(renderCertificate(withBaseline)).toContain('## Accepted deviations (1)');
  });

  test('lists every in-scope requirement with its verdict, evaluation count and evidence', () => {
    expect(cert.requirements.map((r) => r.id)).toEqual(['GW-AUTH-200-SHAPE', 'GW-BAL-FIELDS']);
    expect(cert.requirements[1]).toEqual({
      id: 'GW-BAL-FIELDS',
      api: 'gateway',
      verdict: 'pass',
      evaluations: 3,
      evidence: [{ check: 'gateway.balance.fields', state: 'passed', evaluations: 3, junit: 'suites/gateway/pix-in.test.ts › gateway.balance.fields', har: { first: 2, count: 1 } }],
    });
    expect(cert.requirements[0]?.evidence.map((e) => [e.check, e.har])).toEqual([['gateway.auth.shape', { first: 0, count: 2 }]]);
    const md = readFileSync(join(bundle, 'certificate.md'), 'utf8');
    expect(md).toContain('# Certificate of conformance — acme-gateway 2.4.1');
    expect(md).toContain('## Verdict: **PASS**');
    expect(md).toContain('| `GW-BAL-FIELDS` | pass | 3 | gateway.balance.fields (3; HAR 2–2) |');
    expect(md).toContain(`| \`specs/contract/gateway-api.md\` | \`${cert.hashes.contract['specs/contract/gateway-api.md']}\` |`);
  });

  test('a bundle verifies; one byte changed in any file fails verify, naming the file', () => {
    expect(verifyBundle(bundle, {})).toMatchObject({ ok: true, problems: [] });
    for (const name of readdirSync(bundle).filter((n) => n !== MANIFEST)) {
      const path = join(bundle, name);
      const original = readFileSync(path);
      const changed = Buffer.from(original);
      changed[Math.floor(changed.length / 2)] = (changed[Math.floor(changed.length / 2)]! + 1) % 256;
      writeFileSync(path, changed);
      const result = verifyBundle(bundle, {});
      expect(result.ok, name).toBe(false);
      expect(result.problems.join('\n')).toContain(`${name}: altered`);
      writeFileSync(path, original);
    }
    expect(verifyBundle(bundle, {}).ok).toBe(true);
  });

  test('an added, removed or consistently rewritten file fails verify too', () => {
    writeFileSync(join(bundle, 'extra.txt'), 'x');
    expect(verifyBundle(bundle, {}).problems).toEqual(['extra.txt: not in MANIFEST.sha256 (added after the bundle was written)']);
    unlinkSync(join(bundle, 'extra.txt'));
    unlinkSync(join(bundle, 'junit.xml'));
    expect(verifyBundle(bundle, {}).problems).toContain('junit.xml: missing (listed in MANIFEST.sha256)');
    // a verdict edited in conformance.json with the manifest regenerated: the certificate still disagrees
    const fresh = reportsDir();
    const other = join(fresh, 'certificate');
    writeBundle(other, { reportsDir: fresh, reportHtml: join(fresh, 'allure-report', 'index.html') }, { name: 'x', version: '1' }, {});
    const json = JSON.parse(readFileSync(join(other, 'conformance.json'), 'utf8')) as { verdict: string };
    writeFileSync(join(other, 'conformance.json'), JSON.stringify({ ...json, verdict: 'fail' }));
    writeFileSync(join(other, MANIFEST), manifestText(other));
    const problems = verifyBundle(other, {}).problems.join('\n');
    expect(problems).toContain('conformance.json: does not match certificate.json');
    expect(problems).toContain('certificate.json: verdict pass, but conformance.json says fail');
  });

  test('signing is a hook: PAYGATE_SIGN_COMMAND signs the manifest, PAYGATE_VERIFY_COMMAND checks it', () => {
    const reportsAgain = reportsDir();
    const signed = join(reportsAgain, 'certificate');
    // a stand-in for a real signer: the "signature" is the manifest's own hash
    writeBundle(signed, { reportsDir: reportsAgain, reportHtml: join(reportsAgain, 'allure-report', 'index.html') }, { name: 'x', version: '1' }, { PAYGATE_SIGN_COMMAND: 'sha256sum {manifest} > {signature}' });
    const check = { PAYGATE_VERIFY_COMMAND: 'sha256sum --status -c {signature}' };
    expect(verifyBundle(signed, check)).toMatchObject({ ok: true });
    appendFileSync(join(signed, MANIFEST), '\n');
    expect(verifyBundle(signed, check).problems).toContain('MANIFEST.sha256.sig: PAYGATE_VERIFY_COMMAND rejected the signature');
  });
});
