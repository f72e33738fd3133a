// Accepted deviations (harness/report/baseline.ts, harness/run/accepted.ts): parsing, matching,
// entry status (stale, expired), the report sections, and writing a baseline from a run.
import { describe, expect, test } from 'vitest';
import {
  BaselineError,
  baselineProblemLines,
  baselineStatus,
  baselineYaml,
  isExpired,
  matchEntry,
  parseBaseline,
  partitionFindings,
} from '../harness/report/baseline.js';
import { applyBaseline } from '../harness/run/accepted.js';
import { adoptionMarkdown, adoptionSummaryLines } from '../harness/report/adoption-markdown.js';
import { acceptedEntries } from '../harness/report/adoption.js';
import { exitCodeFor } from '../harness/report/verdict.js';
import type { Finding } from '../harness/rules/finding.js';
import { fixtureIds } from './harness-fixtures.js';

const YAML = `
accepted:
  - check: partner.charges.description-max
    code: status.unexpected
    reason: "tracked in PAY-123"
    expires: 2027-03-01
  - requirement: PT-CHARGE-QR-EMV
    code: emv.crc
    reason: vendor library
`;

function finding(code: string, requirements: string[], severity: Finding['severity'] = 'failure'): Finding {
  return { code, title: `${code} title`, severity, requirements: fixtureIds(...requirements), expected: 'x', actual: 'y', exchanges: [] };
}

describe('parseBaseline', () => {
  test('reads entries with check or requirement, code, reason and an optional date', () => {
    const b = parseBaseline(YAML, 'b.yaml');
    expect(b.entries).toEqual([
      { check: 'partner.charges.description-max', code: 'status.unexpected', reason: 'tracked in PAY-123', expires: '2027-03-01' },
      { requirement: 'PT-CHARGE-QR-EMV', code: 'emv.crc', reason: 'vendor library' },
    ]);
    expect(parseBaseline('', 'empty.yaml').entries).toEqual([]);
    expect(parseBaseline('- {check: a, code: c, reason: r}', 'list.yaml').entries).toHaveLength(1);
  });

  test.each([
    ['accepted: {a: 1}', /b\.yaml: accepted: must be array/],
    ['accepted:\n  - {code: c, reason: r}', /accepted\[0\]: needs one of check, requirement, requirements/],
    ['accepted:\n  - {check: a, reason: r}', /accepted\[0\]\.code: required/],
    ['accepted:\n  - {check: a, code: c}', /accepted\[0\]\.reason: required/],
    ['accepted:\n  - {check: a, code: c, reason: r, expires: tomorrow}', /accepted\[0\]\.expires: must be a date YYYY-MM-DD/],
    ['accepted:\n  - {check: a, code: c, reason: r, until: 2027-01-01}', /accepted\[0\]\.until: unknown key/],
    ['accepted:\n  - {check: a, code: c, reason: r, expire: 2027-01-01}', /accepted\[0\]\.expire: unknown key \(did you mean expires\?\)/],
    ['accepted: [', /not valid YAML/],
  ])('rejects %j with a clear message', (text, message) => {
    expect(() => parseBaseline(text, 'b.yaml')).toThrow(BaselineError);
    expect(() => parseBaseline(text, 'b.yaml')).toThrow(message);
  });
});

describe('matching', () => {
  const { entries } = parseBaseline(YAML, 'b.yaml');
  test('an entry matches on code and every id it names', () => {
    expect(matchEntry(entries, 'partner.charges.description-max', [], finding('status.unexpected', ['PT-CHARGE-DESC-MAX']))).toBe(0);
    expect(matchEntry(entries, 'partner.charges.other', [], finding('status.unexpected', ['PT-CHARGE-DESC-MAX']))).toBeUndefined();
    expect(matchEntry(entries, 'partner.charges.description-max', [], finding('contract.schema', []))).toBeUndefined();
    expect(matchEntry(entries, 'any.check', [], finding('emv.crc', ['PT-CHARGE-QR-EMV']))).toBe(1);
    expect(matchEntry(entries, 'any.check', [], finding('emv.crc', ['PT-OTHER']))).toBeUndefined();
  });

  test("a finding naming no requirement is matched by the check's requirements", () => {
    expect(matchEntry(entries, 'any.check', ['PT-CHARGE-QR-EMV'], finding('emv.crc', []))).toBe(1);
  });

  test('partition keeps what no entry accepts', () => {
    const found = [finding('emv.crc', ['PT-CHARGE-QR-EMV']), finding('contract.schema', ['PT-X'])];
    const { accepted, kept } = partitionFindings(entries, 'c', [], found);
    expect(accepted.map((a) => [a.finding.code, a.entry])).toEqual([['emv.crc', 1]]);
    expect(kept.map((f) => f.code)).toEqual(['contract.schema']);
  });

  test('applyBaseline sets accepted failures and warnings apart, leaving the run as it was', () => {
    const baseline = parseBaseline(YAML, 'b.yaml');
    const run = { failures: [finding('emv.crc', ['PT-CHARGE-QR-EMV']), finding('contract.schema', ['PT-X'])], warnings: [finding('emv.crc', ['PT-CHARGE-QR-EMV'], 'warning')] };
    const after = applyBaseline(run, 'c', [], baseline);
    expect(after.failures.map((f) => f.code)).toEqual(['contract.schema']);
    expect(after.warnings).toEqual([]);
    expect(after.accepted.map((a) => [a.code, a.severity, a.entry, a.reason])).toEqual([
      ['emv.crc', 'failure', 1, 'vendor library'],
      ['emv.crc', 'warning', 1, 'vendor library'],
    ]);
    expect(run.failures).toHaveLength(2);
    expect(applyBaseline(run, 'c', [], undefined).accepted).toEqual([]);
  });
});

describe('entry status', () => {
  const baseline = parseBaseline(YAML, 'b.yaml');
  test('expired from its date on (UTC)', () => {
    expect(isExpired({ expires: '2027-03-01' }, new Date('2027-02-28T23:59:59Z'))).toBe(false);
    expect(isExpired({ expires: '2027-03-01' }, new Date('2027-03-01T00:00:00Z'))).toBe(true);
    expect(isExpired({}, new Date('2099-01-01T00:00:00Z'))).toBe(false);
  });

  test('stale entries match nothing; expired entries are listed; problems count each entry once', () => {
    const status = baselineStatus(baseline, [{ entry: 0 }, { entry: 0 }], new Date('2027-06-01T00:00:00Z'));
    expect(status.accepted).toBe(2);
    expect(status.stale.map((e) => e.entry)).toEqual([1]);
    expect(status.expired.map((e) => e.entry)).toEqual([0]);
    expect(status.problems).toBe(2);
    const lines = baselineProblemLines(status);
    expect(lines[0]).toMatch(/stale baseline entry #2 requirement PT-CHARGE-QR-EMV · emv\.crc/);
    expect(lines[1]).toMatch(/expired baseline entry #1 check partner\.charges\.description-max · status\.unexpected: expired on 2027-03-01/);
    const clean = baselineStatus(baseline, [{ entry: 0 }, { entry: 1 }], new Date('2026-01-01T00:00:00Z'));
    expect(clean.problems).toBe(0);
  });

  test('an unmatched entry about a check or requirement that did not run is not stale', () => {
    const ran = { checks: new Set(['partner.charges.description-max']), requirements: new Set<string>() };
    expect(baselineStatus(baseline, [], new Date('2026-01-01T00:00:00Z'), ran).stale.map((e) => e.entry)).toEqual([0]);
    const none = { checks: new Set<string>(), requirements: new Set(['PT-CHARGE-QR-EMV']) };
    expect(baselineStatus(baseline, [], new Date('2026-01-01T00:00:00Z'), none).stale.map((e) => e.entry)).toEqual([1]);
  });

  test('stale or expired entries fail the run only under --strict', () => {
    const status = baselineStatus(baseline, [], new Date('2026-01-01T00:00:00Z'));
    const summary = { passed: 3, failed: 0, warnings: 0, notRun: 0, inconclusive: 0, requests: 9, errors: 0, checks: 3 };
    expect(exitCodeFor({ summary, strict: false, baseline: status })).toBe(0);
    expect(exitCodeFor({ summary, strict: true, baseline: status })).toBe(1);
  });
});

describe('reports', () => {
  const baseline = parseBaseline(YAML, 'b.yaml');
  const accepted = { code: 'emv.crc', title: 'bad CRC', requirements: [], expected: 'CRC ok', actual: 'CRC wrong', curl: [], entry: 1, severity: 'failure' as const, reason: 'vendor library' };
  const checks = [{ check: 'partner.qr', requirements: ['PT-CHARGE-QR-EMV'], accepted: [accepted] }];
  const entries = acceptedEntries({ checks } as never);

  test('accepted findings are listed with their reason in conformance.md and the console', () => {
    expect(entries).toEqual([expect.objectContaining({ check: 'partner.qr', requirements: ['PT-CHARGE-QR-EMV'], reason: 'vendor library' })]);
    const status = baselineStatus(baseline, entries, new Date('2026-01-01T00:00:00Z'));
    const md = adoptionMarkdown({ strict: true, accepted: entries, baseline: status }).join('\n');
    expect(md).toContain('## Accepted deviations (1)');
    expect(md).toMatch(/\| partner\.qr \| `emv\.crc` \| failure \| PT-CHARGE-QR-EMV \| bad CRC: expected CRC ok; received CRC wrong \| vendor library \|/);
    expect(md).toMatch(/Baseline entries to review \(1\) — --strict: they fail the run/);
    const lines = adoptionSummaryLines({ strict: false, accepted: entries, baseline: status }).join('\n');
    expect(lines).toContain('accepted deviations (1)');
    expect(lines).toContain('~ partner.qr [emv.crc]: bad CRC — vendor library');
    expect(lines).toMatch(/stale baseline entry #1/);
  });

  test('--write-baseline output parses back and accepts the same findings, keeping known reasons', () => {
    const text = baselineYaml(
      [
        { check: 'a.check', findings: [finding('status.unexpected', []), finding('status.unexpected', []), { ...finding('emv.crc', []), reason: 'known', expires: '2030-01-01' }] },
        { check: 'b.check', findings: [] },
      ],
      'test',
    );
    const parsed = parseBaseline(text, 'w.yaml');
    expect(parsed.entries).toEqual([
      { check: 'a.check', code: 'status.unexpected', reason: 'TODO: why this deviation is accepted' },
      { check: 'a.check', code: 'emv.crc', reason: 'known', expires: '2030-01-01' },
    ]);
    expect(matchEntry(parsed.entries, 'a.check', [], finding('emv.crc', []))).toBe(1);
  });
});

test("--write-baseline narrows an entry by the finding's requirements (all of them)", () => {
  const text = baselineYaml([{ check: 'c', findings: [finding('status.unexpected', ['PT-ERR', 'PT-CHARGE-DESC-MAX']), finding('emv.crc', ['PT-QR'])] }], 'test');
  const { entries } = parseBaseline(text, 'w.yaml');
  expect(entries).toEqual([
    { check: 'c', requirements: ['PT-ERR', 'PT-CHARGE-DESC-MAX'], code: 'status.unexpected', reason: 'TODO: why this deviation is accepted' },
    { check: 'c', requirement: 'PT-QR', code: 'emv.crc', reason: 'TODO: why this deviation is accepted' },
  ]);
  expect(matchEntry(entries, 'c', [], finding('status.unexpected', ['PT-CHARGE-DESC-MAX', 'PT-ERR', 'PT-X']))).toBe(0);
  // the same code in the same check about another requirement is a new deviation
  expect(matchEntry(entries, 'c', [], finding('status.unexpected', ['PT-ERR', 'PT-CHARGE-AMOUNT-POSITIVE']))).toBeUndefined();
  expect(() => parseBaseline('- {check: c, code: x, reason: r, requirements: []}', 'b.yaml')).toThrow(/requirements: must not be empty/);
});

test('withoutAccepted: a property iteration failing only in accepted ways passes; accepted failures are kept for the report', async () => {
  const { withoutAccepted } = await import('../harness/run/accepted.js');
  const baseline = parseBaseline(YAML, 'b.yaml');
  const seen: Finding[] = [];
  const known = finding('emv.crc', ['PT-CHARGE-QR-EMV']);
  expect(withoutAccepted('c', [], [known, finding('emv.crc', ['PT-CHARGE-QR-EMV'], 'warning')], seen, baseline)).toEqual([]);
  expect(seen).toEqual([known]);
  const other = finding('contract.schema', ['PT-X']);
  expect(withoutAccepted('c', [], [known, other], seen, baseline)).toEqual([other]);
  expect(withoutAccepted('c', [], [other], [], undefined)).toEqual([other]);
});
