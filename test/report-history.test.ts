// Run history (harness/report/history.ts, --history): target identity, verdict changes since the
// last run on the same target and profile, flaky checks on the same seed, a tolerant reader.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { appendHistory, compareWithHistory, historyRecord, parseHistory, readHistory, targetKey } from '../harness/report/history.js';
import type { CheckStateText, HistorySource, RequirementVerdictText } from '../harness/report/history.js';
import { adoptionMarkdown, adoptionSummaryLines } from '../harness/report/adoption-markdown.js';

const dir = mkdtempSync(join(tmpdir(), 'paygate-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function source(over: Partial<HistorySource> & { req?: Record<string, RequirementVerdictText>; chk?: Record<string, CheckStateText> } = {}): HistorySource {
  const { req = { 'PT-A': 'pass', 'PT-B': 'pass' }, chk = { 'partner.a': 'passed' }, ...rest } = over;
  return {
    version: '0.1.0',
    startedAt: '2026-11-24T10:00:00.000Z',
    profile: 'quick',
    seed: 7,
    strict: false,
    outcome: 'pass',
    embedded: false,
    targets: { partner: 'https://p.example/v1' },
    notTested: { gateway: 'GATEWAY_BASE_URL not set' },
    requirements: Object.entries(req).map(([id, verdict]) => ({ id, verdict })),
    checks: Object.entries(chk).map(([check, state]) => ({ check, state })),
    ...rest,
  };
}

describe('target identity', () => {
  test('base URLs of the tested APIs; the embedded reference by its APIs and faults, not its ports', () => {
    expect(targetKey(source())).toBe('partner=https://p.example/v1');
    expect(targetKey({ embedded: true, targets: { partner: 'http://127.0.0.1:40123/v1' }, notTested: { gateway: '--api partner' } })).toBe('embedded reference (partner)');
    expect(targetKey({ embedded: true, targets: {}, notTested: {} }, 'pt-a,pt-b')).toBe('embedded reference (gateway+partner; faults pt-a,pt-b)');
  });
});

describe('comparison', () => {
  test('the first run on a target says so', () => {
    const c = compareWithHistory([], historyRecord(source()), 'h.jsonl');
    expect(c.previous).toBeUndefined();
    expect(c.changed).toEqual([]);
    expect(adoptionMarkdown({ strict: false, history: c }).join('\n')).toContain('First run on this target and profile');
  });

  test('requirements that changed verdict since the last run on the same target and profile', () => {
    const earlier = [
      historyRecord(source({ startedAt: '2026-11-20T00:00:00Z', req: { 'PT-A': 'fail', 'PT-B': 'fail' } })),
      historyRecord(source({ startedAt: '2026-11-21T00:00:00Z', req: { 'PT-A': 'pass', 'PT-B': 'fail' } })),
      historyRecord(source({ startedAt: '2026-11-22T00:00:00Z', profile: 'full', req: { 'PT-A': 'fail', 'PT-B': 'pass' } })),
      historyRecord(source({ startedAt: '2026-11-23T00:00:00Z', targets: { partner: 'https://other.example/v1' }, req: { 'PT-A': 'fail', 'PT-B': 'pass' } })),
    ];
    const c = compareWithHistory(earlier, historyRecord(source({ seed: 8, req: { 'PT-A': 'pass', 'PT-B': 'pass', 'PT-NEW': 'pass' } })), 'h.jsonl');
    expect(c.previous?.startedAt).toBe('2026-11-21T00:00:00Z');
    expect(c.runs).toBe(2);
    expect(c.changed).toEqual([{ id: 'PT-B', from: 'fail', to: 'pass' }]);
    const md = adoptionMarkdown({ strict: false, history: c }).join('\n');
    expect(md).toContain('| [PT-B](#PT-B) | fail | pass |');
    expect(adoptionSummaryLines({ strict: false, history: c }).join('\n')).toContain('PT-B: fail → pass');
  });

  test('a check whose outcome goes back and forth on the same seed is flaky; one change is not; not-run is ignored', () => {
    const run = (seed: number, state: CheckStateText, other: CheckStateText = 'passed'): ReturnType<typeof historyRecord> =>
      historyRecord(source({ seed, chk: { 'partner.a': state, 'partner.b': other } }));
    const earlier = [run(7, 'passed', 'passed'), run(7, 'failed', 'not-run'), run(9, 'passed', 'passed')];
    const c = compareWithHistory(earlier, run(7, 'passed', 'failed'), 'h.jsonl');
    expect(c.flaky).toEqual([{ check: 'partner.a', seed: 7, states: ['passed', 'failed', 'passed'] }]);
    expect(adoptionMarkdown({ strict: false, history: c }).join('\n')).toMatch(/Flaky checks \(1\).*\n\n- partner\.a \(seed 7\): passed → failed → passed/);
    expect(compareWithHistory(earlier.slice(0, 1), run(7, 'failed'), 'h.jsonl').flaky).toEqual([]);
  });
});

describe('a partial run (a selection)', () => {
  const selection = { checks: ['partner.a'], of: 40 };
  test('is recorded marked partial, compared on what it decided only, and never the run a later run compares with', () => {
    const whole = historyRecord(source({ startedAt: '2026-11-20T00:00:00Z', req: { 'PT-A': 'fail', 'PT-B': 'pass' } }));
    const partial = historyRecord(source({ startedAt: '2026-11-21T00:00:00Z', selection, req: { 'PT-A': 'pass', 'PT-B': 'not-run' } }));
    expect(partial.partial).toEqual({ checks: 1, of: 40 });
    expect(whole.partial).toBeUndefined();
    const now = compareWithHistory([whole], partial, 'h.jsonl');
    // PT-B was left out of the selection: not a change from pass to not-run
    expect(now).toMatchObject({ partial: true, runs: 1, changed: [{ id: 'PT-A', from: 'fail', to: 'pass' }] });
    expect(adoptionMarkdown({ strict: false, history: now }).join('\n')).toContain('A partial run: recorded in `h.jsonl` marked partial');
    expect(adoptionSummaryLines({ strict: false, history: now }).join('\n')).toContain('history: a partial run, recorded marked partial');
    const later = compareWithHistory([whole, partial], historyRecord(source({ startedAt: '2026-11-22T00:00:00Z', req: { 'PT-A': 'fail', 'PT-B': 'pass' } })), 'h.jsonl');
    expect(later.previous?.startedAt).toBe('2026-11-20T00:00:00Z');
    expect(later.runs).toBe(1);
    expect(later.changed).toEqual([]);
    expect(later.partial).toBeUndefined();
  });
});

describe('file', () => {
  test('appends one JSON line per run and skips torn lines', () => {
    const file = join(dir, 'sub', 'history.jsonl');
    appendHistory(file, historyRecord(source()));
    appendHistory(file, historyRecord(source({ seed: 8 })));
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"kind":"paygate-hist`);
    expect(readHistory(file).map((r) => r.seed)).toEqual([7, 8]);
    expect(readHistory(join(dir, 'absent.jsonl'))).toEqual([]);
    expect(parseHistory('not json\n{"kind":"other"}\n')).toEqual([]);
  });
});
