// Selection (harness/cli/selection.ts): ids and globs, titles, requirements, areas, severities,
// text, exclusions; a value that matches nothing is refused with the nearest id. Then a CLI run of
// fixture checks (check() of harness/run/check.ts, PAYGATE_INCLUDE) with --check: exactly that
// check runs, and every report says the run was partial.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT, runFixtureCli } from './cli-fixtures.js';
import { selectChecks } from '../harness/cli/selection.js';
import type { CheckEntry } from '../harness/cli/manifest.js';
import { loadManifest } from '../harness/cli/manifest.js';
import { UsageError } from '../harness/cli/parse.js';
import type { ConformanceReport } from '../harness/report/verdict.js';

const entry = (id: string, more: Partial<CheckEntry> = {}): CheckEntry => ({
  id,
  title: `${id} title`,
  api: id.startsWith('gateway') ? 'gateway' : 'partner',
  area: 'PIX charges',
  requirements: [],
  severity: 'normal',
  tier: 'quick',
  needs: [],
  file: `suites/${id.split('.')[0] ?? ''}/${id.split('.')[1] ?? ''}.test.ts`,
  ...more,
});

const CHECKS: CheckEntry[] = [
  entry('partner.charges.description-max', { requirements: ['PT-CHARGE-DESC-MAX', 'PT-ERR-422-FIELD'], title: 'description: 300 characters accepted' }),
  entry('partner.charges.create-valid', { requirements: ['PT-CHARGE-CREATE-200'], severity: 'critical' }),
  entry('partner.errors.malformed-json', { requirements: ['PT-ERR-422-FIELD'], area: 'Errors' }),
  entry('gateway.auth.token', { requirements: ['GW-AUTH-TOKEN'], area: 'Authentication', severity: 'blocker' }),
  entry('receiver.partner.forged', { api: 'partner', target: 'receiver', area: 'Receiver (partner)', file: 'suites/receiver/signatures.test.ts' }),
];

const ids = (options: Parameters<typeof selectChecks>[1]): string[] | undefined => selectChecks(CHECKS, options)?.ids;

describe('selectChecks', () => {
  test('nothing to select: every check runs (no selection)', () => {
    expect(selectChecks(CHECKS, { api: 'both' })).toBeUndefined();
  });

  test('ids, globs and exact titles; kinds combine with AND, values with OR', () => {
    expect(ids({ api: 'both', check: ['partner.charges.*'] })).toEqual(['partner.charges.description-max', 'partner.charges.create-valid']);
    expect(ids({ api: 'both', check: ['description: 300 characters accepted', 'gateway.auth.token'] })).toEqual(['partner.charges.description-max', 'gateway.auth.token']);
    expect(ids({ api: 'both', requirement: ['pt-err-*'] })).toEqual(['partner.charges.description-max', 'partner.errors.malformed-json']);
    expect(ids({ api: 'both', check: ['partner.*'], requirement: ['PT-ERR-422-FIELD'], excludeCheck: ['partner.errors.*'] })).toEqual(['partner.charges.description-max']);
    expect(ids({ api: 'both', area: ['pix CHARGES'], severity: ['critical'] })).toEqual(['partner.charges.create-valid']);
    expect(ids({ api: 'both', grep: 'auth' })).toEqual(['gateway.auth.token']);
    expect(ids({ api: 'gateway', severity: ['blocker', 'critical'] })).toEqual(['gateway.auth.token']);
    // a receiver run selects among the receiver's checks only
    expect(ids({ api: 'both', receiver: {}, check: ['receiver.*'] })).toEqual(['receiver.partner.forged']);
  });

  test('records what was given, the ids, and the scope they were chosen from; files of the ids only', () => {
    const selection = selectChecks(CHECKS, { api: 'partner', check: ['partner.charges.*'] });
    expect(selection?.record).toEqual({ partial: true, given: { check: ['partner.charges.*'] }, checks: ['partner.charges.create-valid', 'partner.charges.description-max'], of: 3 });
    expect(selection?.files).toEqual(['suites/partner/charges.test.ts']);
  });

  test.each([
    [{ check: ['partner.charges.description-mx'] }, /--check partner\.charges\.description-mx matches no check \(did you mean partner\.charges\.description-max\?\)/],
    [{ check: ['gateway.*'], api: 'partner' as const }, /--check gateway\.\* matches no check of the partner API/],
    [{ requirement: ['PT-CHARGE-DESC-MAXX'] }, /--requirement PT-CHARGE-DESC-MAXX matches no requirement a check decides \(did you mean PT-CHARGE-DESC-MAX\?\)/],
    [{ area: ['Charges'] }, /--area Charges matches no area/],
    [{ excludeCheck: ['nope'] }, /--exclude-check nope matches no check/],
    [{ check: ['partner.errors.*'], severity: ['critical' as const] }, /the selection matches no check/],
  ])('%j is refused (exit 2), naming the value', (options, message) => {
    expect(() => selectChecks(CHECKS, { api: 'both', ...options })).toThrow(UsageError);
    expect(() => selectChecks(CHECKS, { api: 'both', ...options })).toThrow(message);
  });
});

describe("the suites' manifest", () => {
  test('collects every check once, with its file, requirements and tier, without running anything', async () => {
    const { checks } = await loadManifest({});
    expect(checks.length).toBeGreaterThan(100);
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    for (const c of checks) {
      expect(c.file, c.id).toMatch(/^suites\/(gateway|partner|receiver)\/[\w-]+\.test\.ts$/);
      expect(c.requirements.length, c.id).toBeGreaterThan(0);
    }
    expect(checks.find((c) => c.id === 'partner.charges.description-max')).toMatchObject({ api: 'partner', area: 'PIX charges', tier: 'quick', file: 'suites/partner/charges.test.ts' });
    expect(checks.some((c) => c.tier === 'timer')).toBe(true);
    expect(checks.some((c) => c.target === 'receiver')).toBe(true);
  }, 60_000);
});

const WORK = join(ROOT, 'reports', `selftest-select-${process.pid}`);
const OUT = join(WORK, 'out');
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

// three checks through the real check(), no request: a pass, another pass, a third one in another file
const FIXTURE = (ids: string[]): string => `
import { check } from '../../harness/run/check.js';
${ids.map((id) => `check('fixture ${id}', { id: '${id}', api: 'gateway', area: 'Fixtures', requirements: ['GW-PIXIN-CREATE-200'] }, async (t) => { t.run.note('ran ${id}'); });`).join('\n')}
`;

function runCli(args: string[]): ReturnType<typeof runFixtureCli> {
  return runFixtureCli(args, WORK, OUT);
}

describe('a run with --check', () => {
  test('runs exactly that check; conformance.json, conformance.md and the summary say the run was partial', () => {
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'first.test.ts'), FIXTURE(['fixture.one', 'fixture.two']));
    writeFileSync(join(WORK, 'second.test.ts'), FIXTURE(['fixture.three']));
    const dry = runCli(['--check', 'fixture.t*', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('checks (2 of 3, partial run):\n  fixture.two\n  fixture.three');

    const r = runCli(['--check', 'fixture.two', '--seed', '4', '--no-allure']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(OUT, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.checks.map((c) => c.check)).toEqual(['fixture.two']);
    expect(report.checks[0]?.notes).toEqual(['ran fixture.two']);
    expect(report.selection).toEqual({ partial: true, given: { check: ['fixture.two'] }, checks: ['fixture.two'], of: 3 });
    expect(report.coverage.notCovered).toEqual([]);
    expect(readFileSync(join(OUT, 'conformance.md'), 'utf8')).toContain('> **Partial run**: 1 of 3 checks selected (`--check fixture.two`)');
    expect(r.stderr).toContain('partial run: 1 of 3 checks selected (fixture.two)');
    expect(r.stdout).toContain('result: PASS (partial run)');
    expect(r.stdout).toMatch(/requirements decided: \d+ by the checks selected/);

    const typo = runCli(['--check', 'fixture.tow']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('--check fixture.tow matches no check (did you mean fixture.two?)');
  }, 120_000);
});
