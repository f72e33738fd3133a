// Verdict building from synthetic check outcomes: check states, requirement verdicts, summary,
// strict mode, the conformance.json shape (INTERFACE.md), markdown and the certify certificate.
import { describe, expect, test } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import type { CheckMeta, FindingSummary } from '../harness/report/meta.js';
import { buildConformance, checkRecordFrom, exitCodeFor, renderMarkdown } from '../harness/report/verdict.js';
import type { CheckRecord, RunInfo, TestOutcome } from '../harness/report/verdict.js';
import { runInfoFromEnv } from '../harness/report/verdict-reporter.js';

const catalogue: Requirement[] = [
  { id: 'GW-PIXIN-AMOUNT-MIN', api: 'gateway', section: 'POST /api/v1/pix/in/qrcode', quote: 'minimum 100', kind: 'checkable' },
  { id: 'GW-PIXIN-DOC', api: 'gateway', section: 'POST /api/v1/pix/in/qrcode', quote: 'digits only', kind: 'checkable', ambiguity: 'punctuation' },
  { id: 'GW-AUTH-TOKEN-EXPIRY', api: 'gateway', section: 'POST /api/auth', quote: 'expiresIn', kind: 'timer' },
  { id: 'GW-LEDGER-INTERNAL', api: 'gateway', section: 'Balance', quote: 'settles internally', kind: 'unobservable', reason: 'no endpoint shows it' },
  { id: 'GW-UNCOVERED', api: 'gateway', section: 'Webhooks', quote: 'x', kind: 'checkable' },
  { id: 'PT-CHARGE-CREATE', api: 'partner', section: 'POST /charges', quote: 'y', kind: 'checkable' },
  { id: 'PT-LIVE-KEY', api: 'partner', section: 'Auth', quote: 'z', kind: 'checkable' },
];

const finding = (code: string, requirements: string[]): FindingSummary => ({
  code,
  title: `${code} title`,
  requirements,
  expected: 'status 400',
  actual: 'status 201',
  curl: ["curl -X POST 'http://127.0.0.1:1/api/v1/pix/in/qrcode' -H \"Authorization: Bearer $GATEWAY_TOKEN\""],
});

const meta = (over: Partial<CheckMeta> & Pick<CheckMeta, 'checkId' | 'requirements'>): CheckMeta => ({
  api: over.checkId.startsWith('partner') ? 'partner' : 'gateway',
  area: 'PIX cash-in',
  severity: 'critical',
  failures: [],
  warnings: [],
  requests: 3,
  // by default every listed requirement was evaluated once (a rule decided it)
  evaluations: Object.fromEntries(over.requirements.map((id) => [id, { evaluations: 1, failed: 0, warned: 0 }])),
  ...over,
});

const outcome = (name: string, state: TestOutcome['state'], m?: CheckMeta, extra: Partial<TestOutcome> = {}): TestOutcome => ({
  name: `suite > ${name}`,
  title: name,
  file: 'suites/gateway/pix-in.test.ts',
  state,
  ...(m !== undefined && { meta: m }),
  durationMs: 12,
  ...extra,
});

const run = (over: Partial<RunInfo> = {}): RunInfo => ({
  version: '0.1.0',
  profile: 'quick',
  seed: 42,
  startedAt: '2026-11-23T10:00:00.000Z',
  durationMs: 1234,
  targets: { gateway: 'http://127.0.0.1:1', partner: 'http://127.0.0.1:2/v1' },
  strict: false,
  embedded: true,
  notTested: {},
  ...over,
});

function sampleChecks(): CheckRecord[] {
  return [
    checkRecordFrom(outcome('amount below minimum is rejected', 'failed', meta({ checkId: 'gateway.pixin.amount-min', requirements: ['GW-PIXIN-AMOUNT-MIN'], failures: [finding('status.unexpected', ['GW-PIXIN-AMOUNT-MIN'])] }), { errors: [{ name: 'AssertionError', message: 'x' }] })),
    checkRecordFrom(outcome('amount at minimum is accepted', 'passed', meta({ checkId: 'gateway.pixin.amount-ok', requirements: ['GW-PIXIN-AMOUNT-MIN'] }))),
    checkRecordFrom(outcome('document with punctuation', 'passed', meta({ checkId: 'gateway.pixin.doc', requirements: ['GW-PIXIN-DOC'], warnings: [finding('document.punctuation', ['GW-PIXIN-DOC'])] }))),
    checkRecordFrom(outcome('token expires', 'skipped', meta({ checkId: 'gateway.auth.expiry', requirements: ['GW-AUTH-TOKEN-EXPIRY'], notRun: 'timer check: full profile' }))),
    checkRecordFrom(outcome('creates a charge', 'passed', meta({ checkId: 'partner.charge.create', requirements: ['PT-CHARGE-CREATE'], requests: 5, exercised: [{ operation: 'POST /charges', status: 201 }] }))),
    checkRecordFrom(outcome('live key', 'failed', meta({ checkId: 'partner.live', requirements: ['PT-LIVE-KEY'] }), { errors: [{ name: 'HarnessError', message: 'PARTNER_LIVE_API_KEY not set', code: 'not-run' }] })),
  ];
}

describe('checkRecordFrom', () => {
  test('derives the check state from vitest state and findings', () => {
    const [failed, passed, warned, notRun, , notRunError] = sampleChecks();
    expect(failed?.state).toBe('failed');
    expect(passed?.state).toBe('passed');
    expect(warned?.state).toBe('warned');
    expect(notRun?.state).toBe('not-run');
    expect(notRun?.notRun).toBe('timer check: full profile');
    expect(notRunError?.state).toBe('not-run');
    expect(notRunError?.notRun).toBe('PARTNER_LIVE_API_KEY not set');
  });

  test('a HarnessError is a harness error, not a failure; a test without meta still counts', () => {
    const harness = checkRecordFrom(outcome('broken', 'failed', meta({ checkId: 'g.x', requirements: ['GW-UNCOVERED'] }), { errors: [{ name: 'HarnessError', message: 'receiver down' }] }));
    expect(harness.state).toBe('error');
    expect(harness.error).toBe('receiver down');
    const bare = checkRecordFrom(outcome('plain expect', 'failed', undefined, { errors: [{ name: 'AssertionError', message: 'expected 1 to be 2' }] }));
    expect(bare.state).toBe('failed');
    expect(bare.check).toBe('suites/gateway/pix-in.test.ts > suite > plain expect');
    expect(bare.error).toContain('expected 1');
    const skipped = checkRecordFrom(outcome('skipped by note', 'skipped', undefined, { note: 'needs GATEWAY_SPLIT_EMAIL' }));
    expect(skipped.notRun).toBe('needs GATEWAY_SPLIT_EMAIL');
  });
});

describe('buildConformance', () => {
  test('has the INTERFACE.md shape', () => {
    const report = buildConformance(run(), sampleChecks(), catalogue);
    expect(report).toMatchObject({
      tool: 'paygate-conformance',
      version: '0.1.0',
      profile: 'quick',
      seed: 42,
      startedAt: '2026-11-23T10:00:00.000Z',
      durationMs: 1234,
      targets: { gateway: 'http://127.0.0.1:1', partner: 'http://127.0.0.1:2/v1' },
    });
    expect(Object.keys(report.summary)).toEqual(expect.arrayContaining(['passed', 'failed', 'warnings', 'notRun', 'requests']));
    for (const r of report.requirements) {
      expect(r.id).toMatch(/^(GW|PT)-/);
      expect(['pass', 'fail', 'warn', 'unevaluated', 'not-run', 'unobservable']).toContain(r.verdict);
      expect(Array.isArray(r.checks)).toBe(true);
    }
    for (const f of report.failures) {
      expect(typeof f.check).toBe('string');
      expect(Array.isArray(f.requirements)).toBe(true);
      expect(typeof f.message).toBe('string');
      expect(typeof f.replay).toBe('string');
      expect(Array.isArray(f.curl)).toBe(true);
    }
    // survives JSON (it is written as JSON)
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test('applies the requirement verdict rule', () => {
    const report = buildConformance(run(), sampleChecks(), catalogue);
    const verdict = (id: string) => report.requirements.find((r) => r.id === id);
    expect(verdict('GW-PIXIN-AMOUNT-MIN')).toMatchObject({ verdict: 'fail', checks: ['gateway.pixin.amount-min', 'gateway.pixin.amount-ok'] });
    expect(verdict('GW-PIXIN-DOC')).toMatchObject({ verdict: 'warn', ambiguity: 'punctuation' });
    expect(verdict('GW-AUTH-TOKEN-EXPIRY')).toMatchObject({ verdict: 'not-run', reason: 'timer check: full profile' });
    expect(verdict('GW-LEDGER-INTERNAL')).toMatchObject({ verdict: 'unobservable', reason: 'no endpoint shows it' });
    expect(verdict('GW-UNCOVERED')).toMatchObject({ verdict: 'not-run', reason: 'no check covers it' });
    expect(verdict('PT-CHARGE-CREATE')).toMatchObject({ verdict: 'pass' });
    expect(verdict('PT-LIVE-KEY')).toMatchObject({ verdict: 'not-run', reason: 'PARTNER_LIVE_API_KEY not set' });
    expect(report.coverage.notCovered).toEqual(['GW-UNCOVERED']);
    expect(report.coverage.checkable).toBe(6);
    expect(report.coverage.checked).toBe(3);
    expect(report.coverage.operations).toEqual([{ api: 'partner', operation: 'POST /charges', statuses: [201] }]);
    expect(report.unobservable).toEqual([{ id: 'GW-LEDGER-INTERNAL', api: 'gateway', section: 'Balance', reason: 'no endpoint shows it' }]);
  });

  test('summarises checks, per API too; failures carry replay and curl', () => {
    const report = buildConformance(run(), sampleChecks(), catalogue);
    expect(report.summary).toEqual({ passed: 2, failed: 1, warnings: 1, notRun: 2, requests: 20, errors: 0, inconclusive: 0, checks: 6 });
    expect(report.summaryByApi.partner).toMatchObject({ passed: 1, notRun: 1, requests: 8 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({
      check: 'gateway.pixin.amount-min',
      requirements: ['GW-PIXIN-AMOUNT-MIN'],
      message: 'status.unexpected title: expected status 400; received status 201',
      replay: "npm run conformance -- --profile quick --seed 42 --grep 'amount below minimum is rejected'",
    });
    expect(report.failures[0]?.curl[0]).toContain('curl -X POST');
    expect(report.warnings).toHaveLength(1);
    expect(report.outcome).toBe('fail');
    expect(exitCodeFor(report)).toBe(1);
  });

  test('warnings do not fail the run unless strict; not-run never fails; harness errors exit 3', () => {
    const noFailure = sampleChecks().filter((c) => c.state !== 'failed');
    const lenient = buildConformance(run(), noFailure, catalogue);
    expect(lenient.outcome).toBe('pass');
    expect(exitCodeFor(lenient)).toBe(0);
    const strict = buildConformance(run({ strict: true }), noFailure, catalogue);
    expect(strict.outcome).toBe('fail');
    expect(exitCodeFor(strict)).toBe(1);
    const onlyNotRun = buildConformance(run(), noFailure.filter((c) => c.state === 'not-run'), catalogue);
    expect(exitCodeFor(onlyNotRun)).toBe(0);
    const broken = checkRecordFrom(outcome('b', 'failed', undefined, { errors: [{ name: 'HarnessError', message: 'boom' }] }));
    const withError = buildConformance(run(), [...noFailure.filter((c) => c.state === 'passed'), broken], catalogue);
    expect(withError.errors).toHaveLength(1);
    expect(exitCodeFor(withError)).toBe(3);
  });

  test('under strict, a check failed on warnings lists them as failures', () => {
    const strictFail = checkRecordFrom(
      outcome('doc strict', 'failed', meta({ checkId: 'gateway.pixin.doc', requirements: ['GW-PIXIN-DOC'], warnings: [finding('document.punctuation', ['GW-PIXIN-DOC'])] }), {
        errors: [{ name: 'AssertionError', message: '1 finding(s) break the contract' }],
      }),
    );
    const report = buildConformance(run({ strict: true }), [strictFail], catalogue);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]?.message).toMatch(/^\[strict\] document\.punctuation/);
  });

  test('an API not tested makes its requirements not-run with the reason', () => {
    const gatewayOnly = sampleChecks().filter((c) => c.api === 'gateway');
    const report = buildConformance(run({ notTested: { partner: '--api gateway' }, targets: { gateway: 'http://127.0.0.1:1' } }), gatewayOnly, catalogue);
    expect(report.requirements.find((r) => r.id === 'PT-CHARGE-CREATE')).toMatchObject({ verdict: 'not-run', reason: 'API not tested (--api gateway)' });
  });

  test('a timer requirement without checks in quick says why', () => {
    const report = buildConformance(run(), [], catalogue);
    expect(report.requirements.find((r) => r.id === 'GW-AUTH-TOKEN-EXPIRY')?.reason).toMatch(/full and certify/);
  });

  test('a requirement a passing check lists but no rule evaluated is unevaluated, never pass', () => {
    const checks = [
      checkRecordFrom(outcome('listed only', 'passed', meta({ checkId: 'gateway.listed', requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-UNCOVERED'], evaluations: { 'GW-PIXIN-AMOUNT-MIN': { evaluations: 3, failed: 0, warned: 0 } } }))),
    ];
    const report = buildConformance(run(), checks, catalogue);
    const byId = Object.fromEntries(report.requirements.map((r) => [r.id, r]));
    expect(byId['GW-PIXIN-AMOUNT-MIN']).toMatchObject({ verdict: 'pass', evaluations: 3 });
    expect(byId['GW-UNCOVERED']).toMatchObject({ verdict: 'unevaluated', evaluations: 0 });
    expect(byId['GW-UNCOVERED']?.reason).toContain('gateway.listed');
    const md = renderMarkdown(report);
    expect(md).toContain('| evaluations |');
    expect(md).toContain('never evaluated (1)');
  });

  test('IDs unknown to the catalogue are reported, not dropped', () => {
    const typo = checkRecordFrom(outcome('typo', 'passed', meta({ checkId: 'g.typo', requirements: ['GW-TYPO'] })));
    const report = buildConformance(run(), [typo], catalogue);
    expect(report.coverage.unknownRequirements).toEqual(['GW-TYPO']);
    expect(report.requirements.find((r) => r.id === 'GW-TYPO')?.verdict).toBe('pass');
  });
});

describe('renderMarkdown', () => {
  test('has verdicts with anchors, coverage, unobservable reasons and reproduction', () => {
    const md = renderMarkdown(buildConformance(run(), sampleChecks(), catalogue));
    expect(md).toContain('# Conformance report');
    expect(md).toContain('<a id="GW-PIXIN-AMOUNT-MIN"></a>');
    expect(md).toMatch(/GW-PIXIN-AMOUNT-MIN.*❌ fail/);
    expect(md).toMatch(/GW-PIXIN-DOC.*⚠️ warn/);
    expect(md).toContain('## Coverage');
    expect(md).toContain('## Unobservable statements');
    expect(md).toContain('no endpoint shows it');
    expect(md).toContain('- **Expected:** status 400');
    expect(md).toContain('- **Received:** status 201');
    expect(md).toContain("--grep 'amount below minimum is rejected'");
    expect(md).toContain('curl -X POST');
    expect(md).toContain('## Checks not run');
    expect(md).not.toContain('Certificate');
  });

  test('certify renders a certificate with target, date, version, profile, seed and PASS/FAIL', () => {
    const passing = sampleChecks().filter((c) => c.state !== 'failed');
    const ok = renderMarkdown(buildConformance(run({ profile: 'certify', seed: 7 }), passing, catalogue));
    expect(ok).toContain('# Certificate of conformance');
    expect(ok).toContain('## Result: **PASS**');
    expect(ok).toContain('| Target (gateway) | `http://127.0.0.1:1`');
    expect(ok).toContain('| Date | 2026-11-23T10:00:00.000Z |');
    expect(ok).toContain('| Tool | paygate-conformance 0.1.0 |');
    expect(ok).toContain('| Profile | certify |');
    expect(ok).toContain('| Seed | 7 |');
    const bad = renderMarkdown(buildConformance(run({ profile: 'certify' }), sampleChecks(), catalogue));
    expect(bad).toContain('## Result: **FAIL**');
    expect(bad).toContain('1 check(s) failed');
  });

  test("a check's observations reach conformance.json and the Observations section", () => {
    const c = checkRecordFrom(outcome('invalid amount', 'passed', meta({ checkId: 'gateway.pixin.amount', requirements: ['GW-UNCOVERED'], notes: ['answered 422 (400 or 422 both allowed)'] })));
    expect(c.notes).toEqual(['answered 422 (400 or 422 both allowed)']);
    const report = buildConformance(run(), [c], catalogue);
    expect(JSON.parse(JSON.stringify(report)).checks[0].notes).toEqual(['answered 422 (400 or 422 both allowed)']);
    expect(renderMarkdown(report)).toContain('## Observations (1 checks)');
    expect(checkRecordFrom(outcome('quiet', 'passed', meta({ checkId: 'g.q', requirements: ['GW-UNCOVERED'] }))).notes).toBeUndefined();
  });

  test('escapes table cells', () => {
    const c = checkRecordFrom(outcome('pipe | name', 'passed', meta({ checkId: 'a|b', requirements: ['GW-UNCOVERED'] })));
    const md = renderMarkdown(buildConformance(run(), [c], catalogue));
    expect(md).toContain('a\\|b');
  });
});

describe('runInfoFromEnv', () => {
  test('reads profile, seed, strict, targets and what is not tested', () => {
    const info = runInfoFromEnv(
      { PAYGATE_PROFILE: 'full', PAYGATE_SEED: '-5', PAYGATE_STRICT: '1', PAYGATE_API: 'gateway', GATEWAY_BASE_URL: 'https://gw.example', PARTNER_BASE_URL: 'https://pt.example/v1' },
      new Date('2026-01-01T00:00:00Z'),
      10,
    );
    expect(info).toMatchObject({ profile: 'full', seed: -5, strict: true, targets: { gateway: 'https://gw.example', partner: 'https://pt.example/v1' }, notTested: { partner: '--api gateway' } });
    const bare = runInfoFromEnv({ GATEWAY_BASE_URL: 'https://gw.example' }, new Date(), 0);
    expect(bare).toMatchObject({ profile: 'quick', seed: null, strict: false, notTested: { partner: 'PARTNER_BASE_URL not set' } });
  });
});
