// Verdict building from synthetic check outcomes: check states, requirement verdicts, summary,
// strict mode, the conformance.json shape (INTERFACE.md), markdown and the certify certificate.
import { describe, expect, test } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import { buildConformance, exitCodeFor, renderMarkdown } from '../harness/report/verdict.js';
import type { CheckRecord, RunInfo } from '../harness/report/verdict.js';
import { runInfoFromEnv } from '../harness/report/verdict-reporter.js';
import { outcome, reported } from './report-fixtures.js';
import { renderSummary } from '../harness/cli/summary.js';

const catalogue: Requirement[] = [
  { id: 'GW-PIXIN-AMOUNT-MIN', api: 'gateway', section: 'POST /api/v1/pix/in/qrcode', quote: 'minimum 100', kind: 'checkable' },
  { id: 'GW-PIXIN-DOC', api: 'gateway', section: 'POST /api/v1/pix/in/qrcode', quote: 'digits only', kind: 'checkable', ambiguity: 'punctuation' },
  { id: 'GW-AUTH-TOKEN-EXPIRY', api: 'gateway', section: 'POST /api/auth', quote: 'expiresIn', kind: 'timer' },
  { id: 'GW-LEDGER-INTERNAL', api: 'gateway', section: 'Balance', quote: 'settles internally', kind: 'unobservable', reason: 'no endpoint shows it' },
  { id: 'GW-UNCOVERED', api: 'gateway', section: 'Webhooks', quote: 'x', kind: 'checkable' },
  { id: 'PT-CHARGE-CREATE', api: 'partner', section: 'POST /charges', quote: 'y', kind: 'checkable' },
  { id: 'PT-LIVE-KEY', api: 'partner', section: 'Auth', quote: 'z', kind: 'checkable' },
];

const finding = (code: string, requirements: string[]) => reported(code, requirements);

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
    outcome({ check: 'gateway.pixin.amount-min', title: 'amount below minimum is rejected', requirements: ['GW-PIXIN-AMOUNT-MIN'], failures: [finding('status.unexpected', ['GW-PIXIN-AMOUNT-MIN'])] }),
    outcome({ check: 'gateway.pixin.amount-ok', title: 'amount at minimum is accepted', requirements: ['GW-PIXIN-AMOUNT-MIN'] }),
    outcome({ check: 'gateway.pixin.doc', title: 'document with punctuation', requirements: ['GW-PIXIN-DOC'], warnings: [reported('document.punctuation', ['GW-PIXIN-DOC'], { severity: 'warning' })] }),
    outcome({ check: 'gateway.auth.expiry', title: 'token expires', requirements: ['GW-AUTH-TOKEN-EXPIRY'], state: 'not-run', notRun: 'timer check: full profile' }),
    outcome({ check: 'partner.charge.create', title: 'creates a charge', requirements: ['PT-CHARGE-CREATE'], requests: 5, exercised: [{ operation: 'POST /charges', status: 201 }] }),
    outcome({ check: 'partner.live', title: 'live key', requirements: ['PT-LIVE-KEY'], state: 'not-run', notRun: 'PARTNER_LIVE_API_KEY not set' }),
  ];
}

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
    const broken = outcome({ check: 'b', requirements: [], state: 'error', error: 'boom' });
    const withError = buildConformance(run(), [...noFailure.filter((c) => c.state === 'passed'), broken], catalogue);
    expect(withError.errors).toHaveLength(1);
    expect(exitCodeFor(withError)).toBe(3);
  });

  test('under strict, a check failed on warnings lists them as failures', () => {
    const strictFail = outcome({ check: 'gateway.pixin.doc', title: 'doc strict', requirements: ['GW-PIXIN-DOC'], state: 'failed', warnings: [reported('document.punctuation', ['GW-PIXIN-DOC'], { severity: 'warning' })] });
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
      outcome({ check: 'gateway.listed', requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-UNCOVERED'], evaluations: { 'GW-PIXIN-AMOUNT-MIN': { evaluations: 3, failed: 0, warned: 0 } } }),
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
    const typo = outcome({ check: 'g.typo', requirements: ['GW-TYPO'] });
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
    const ok = renderMarkdown(buildConformance(run({ profile: 'certify', seed: 7 }), completeCertify(), catalogue));
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
    const c = outcome({ check: 'gateway.pixin.amount', requirements: ['GW-UNCOVERED'], notes: ['answered 422 (400 or 422 both allowed)'] });
    const report = buildConformance(run(), [c], catalogue);
    expect(JSON.parse(JSON.stringify(report)).checks[0].notes).toEqual(['answered 422 (400 or 422 both allowed)']);
    expect(renderMarkdown(report)).toContain('## Observations (1 checks)');
  });

  test('escapes table cells', () => {
    const c = outcome({ check: 'a|b', title: 'pipe | name', requirements: ['GW-UNCOVERED'] });
    const md = renderMarkdown(buildConformance(run(), [c], catalogue));
    expect(md).toContain('a\\|b');
  });
});

/** Every in-scope requirement of `catalogue` decided by a check that passed or warned: a complete certify run. */
function completeCertify(): CheckRecord[] {
  return [
    outcome({ check: 'gateway.pixin.amount-ok', requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-UNCOVERED'] }),
    outcome({ check: 'gateway.pixin.doc', requirements: ['GW-PIXIN-DOC'], warnings: [reported('document.punctuation', ['GW-PIXIN-DOC'], { severity: 'warning' })] }),
    outcome({ check: 'gateway.auth.expiry', requirements: ['GW-AUTH-TOKEN-EXPIRY'] }),
    outcome({ check: 'partner.charge.create', requirements: ['PT-CHARGE-CREATE'] }),
    outcome({ check: 'partner.live', requirements: ['PT-LIVE-KEY'] }),
  ];
}

describe('verdicts over a complete scope', () => {
  test('a certify run that decided everything in scope passes', () => {
    const report = buildConformance(run({ profile: 'certify' }), completeCertify(), catalogue);
    expect(report.scope).toMatchObject({ required: true, complete: true, apis: ['gateway', 'partner'], requirements: 6, checks: 5, missingRequirements: [], missingChecks: [] });
    expect(report.verdict).toBe('pass');
    expect(exitCodeFor(report)).toBe(0);
  });

  test('a certify run with one optional credential missing ends PARTIAL (exit 5), saying what is missing and why', () => {
    const checks = completeCertify().map((c) => (c.check === 'partner.live' ? { ...c, state: 'not-run' as const, notRun: 'PARTNER_LIVE_API_KEY not set', evaluations: {} } : c));
    const report = buildConformance(run({ profile: 'certify' }), checks, catalogue);
    expect(report.verdict).toBe('partial');
    expect(exitCodeFor(report)).toBe(5);
    expect(report.scope.missingChecks).toEqual([{ check: 'partner.live', state: 'not-run', reason: 'PARTNER_LIVE_API_KEY not set' }]);
    expect(report.scope.missingRequirements).toEqual([{ id: 'PT-LIVE-KEY', verdict: 'not-run', reason: 'PARTNER_LIVE_API_KEY not set' }]);
    const md = renderMarkdown(report);
    expect(md).toContain('## Result: **PARTIAL**');
    expect(md).toMatch(/\| partner\.live \| not-run \| PARTNER_LIVE_API_KEY not set \|/);
    expect(renderSummary(report)).toContain('partner.live (not-run): PARTNER_LIVE_API_KEY not set');
    // the same run without certify or --strict: a pass, as before
    expect(buildConformance(run({ profile: 'full' }), checks, catalogue).verdict).toBe('pass');
    // a failure still wins
    expect(exitCodeFor(buildConformance(run({ profile: 'certify' }), [...checks, ...sampleChecks().slice(0, 1)], catalogue))).toBe(1);
  });

  test('APIs left out of the run are out of scope, never missing; so are checks the profile does not run', () => {
    const gatewayOnly = completeCertify().filter((c) => c.api === 'gateway');
    const report = buildConformance(run({ profile: 'certify', notTested: { partner: '--api gateway' } }), gatewayOnly, catalogue);
    expect(report.scope).toMatchObject({ complete: true, apis: ['gateway'], requirements: 4 });
    expect(report.scope.outOfScope).toContain('partner API not tested (--api gateway)');
    expect(report.verdict).toBe('pass');
    // --strict in quick: timer requirements and timer checks are out of scope
    const quick = completeCertify().map((c) => (c.check === 'gateway.auth.expiry' ? { ...c, state: 'not-run' as const, outOfScope: true, notRun: 'waits for a contract timer', evaluations: {} } : c));
    expect(buildConformance(run({ strict: true }), quick.filter((c) => c.check !== 'gateway.pixin.doc'), catalogue.filter((r) => r.id !== 'GW-PIXIN-DOC')).verdict).toBe('pass');
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

describe('distinct deviations', () => {
  // one wrong-typed field in the token exchange's answer, met by every check that fetched a token
  const tokenField = (n: number) =>
    reported('contract.schema', ['GW-AUTH-EXPIRES-IN-MS'], {
      title: 'POST /api/auth → 200: response body /expiresIn must be integer',
      operation: 'POST /api/auth',
      pointer: '/expiresIn',
      expected: 'type integer',
      actual: `"6000${n}"`,
      curl: [`curl -X POST 'http://127.0.0.1:1/api/auth' # sighting-${n}`],
    });
  const checks = Array.from({ length: 13 }, (_, i) =>
    outcome({ check: `gateway.c${i + 1}`, requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-AUTH-EXPIRES-IN-MS'], failures: [tokenField(i + 1)] }),
  );
  checks.push(outcome({ check: 'gateway.own', requirements: ['GW-PIXIN-AMOUNT-MIN'], failures: [finding('status.unexpected', ['GW-PIXIN-AMOUNT-MIN']), tokenField(99)] }));

  test('one key per deviation, whichever check saw it', () => {
    expect(new Set(checks.map((c) => c.failures.find((f) => f.code === 'contract.schema')?.key)).size).toBe(1);
    const report = buildConformance(run(), checks, catalogue);
    expect(report.deviations.map((d) => [d.code, d.checks.length, d.sightings])).toEqual([
      ['contract.schema', 14, 14],
      ['status.unexpected', 1, 1],
    ]);
    expect(report.deviations[0]?.checks.slice(0, 2)).toEqual(['gateway.c1', 'gateway.c2']);
    // check and requirement verdicts are the same as without grouping
    expect(report.failures).toHaveLength(15);
    expect(report.summary.failed).toBe(14);
    expect(report.requirements.find((r) => r.id === 'GW-PIXIN-AMOUNT-MIN')?.verdict).toBe('fail');
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test('conformance.md and the console show it once, with the checks that saw it and one reproduction', () => {
    const report = buildConformance(run(), checks, catalogue);
    const md = renderMarkdown(report);
    const console = renderSummary(report);
    for (const text of [md, console]) {
      expect(text.split('/expiresIn must be integer').length - 1).toBe(1);
      expect(text).toContain('Seen by 14 checks: gateway.c1, gateway.c2');
      expect(text).toContain("curl -X POST 'http://127.0.0.1:1/api/auth' # sighting-1");
      expect(text).not.toContain('sighting-2');
    }
    expect(md.indexOf('## Deviations (2 distinct, seen by 14 checks)')).toBeLessThan(md.indexOf('## Coverage'));
    expect(md).toContain('## Failed checks (14)');
    expect(md).toMatch(/\| gateway\.own \| \[#2\]\(#deviation-\w+\), \[#1\]\(#deviation-\w+\) \|/);
    expect(console).toContain('deviations (2 distinct, seen by 14 checks):');
    expect(console).toContain("✗ gateway.c1: deviation #1\n    replay: npm run conformance -- --profile quick --seed 42 --grep gateway.c1");
  });
});
