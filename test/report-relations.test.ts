// Relation coverage: the cells a rule's evaluations tried travel from the judgement through the
// CheckRun and the check's outcome to conformance.json `relations` and the markdown "Relations" table.
import { describe, expect, test } from 'vitest';
import { defineRule } from '../harness/rules/rule.js';
import type { Relation } from '../harness/rules/rule.js';
import { CheckRun } from '../harness/run/check-run.js';
import { endCheck } from '../harness/run/outcome.js';
import type { CheckIdentity } from '../harness/run/outcome.js';
import { buildConformance, renderMarkdown } from '../harness/report/verdict.js';
import type { RunInfo } from '../harness/report/verdict.js';
import { relationCoverage } from '../harness/report/verdict-relations.js';
import { outcome } from './report-fixtures.js';

const relation: Relation = {
  id: 'test.fingerprint',
  title: 'Fingerprint',
  cells: ['amount', 'description', 'payer.name', 'expiry', 'live'],
  timerCells: ['expiry'],
  untryable: { live: 'a money-moving request with production credentials' },
};

const judgeCell = defineRule({
  name: 'judgeCellForTest',
  requirements: [],
  codes: { 'test.conflict': 'failure' },
  relation,
  judge(o: { cell: string; conflicted: boolean }, v) {
    v.covers(o.cell);
    if (!o.conflicted) v.find('test.conflict', { title: 'no conflict', expected: '409', actual: '201' });
  },
});

const run = (profile: RunInfo['profile'] = 'quick'): RunInfo => ({ version: '0.1.0', profile, seed: 1, startedAt: '2026-11-27T00:00:00.000Z', durationMs: 1, targets: {}, strict: false, embedded: true, notTested: {} });
const identity: CheckIdentity = { check: 'partner.idem.fp', name: 'idem > fp', title: 'fp', file: 'suites/partner/idempotency.test.ts', api: 'partner', area: 'Idempotency', severity: 'critical', requirements: [], relations: [relation] };
const settings = { profile: 'quick', seed: 1, strict: false, durationMs: 1 };

describe('relation coverage', () => {
  test('cells covered by judgements (found or not) reach the outcome', () => {
    const checkRun = new CheckRun('partner.idem.fp', []);
    checkRun.judge(judgeCell, { cell: 'amount', conflicted: true });
    checkRun.judge(judgeCell, { cell: 'description', conflicted: false });
    const ended = endCheck(identity, checkRun, {}, settings);
    expect(ended.state).toBe('failed');
    expect(ended.relations).toEqual([{ id: 'test.fingerprint', title: 'Fingerprint', cells: relation.cells, timerCells: ['expiry'], untryable: relation.untryable, tried: ['amount', 'description'] }]);
  });

  test('a check without relations carries none; a skipped one carries its relations untried', () => {
    expect(endCheck({ ...identity, relations: [] }, new CheckRun('c', []), {}, settings).relations).toBeUndefined();
    expect(endCheck(identity, undefined, { skipped: 'PARTNER_LIVE_API_KEY not set' }, settings).relations?.[0]?.tried).toEqual([]);
  });

  test('the report unions the cells tried by every check and gives each untried cell its reason', () => {
    const record = (tried: string[]) => [{ id: relation.id, title: relation.title, cells: [...relation.cells], timerCells: ['expiry'], untryable: { ...relation.untryable }, tried }];
    const checks = [outcome({ check: 'a', requirements: [], relations: record(['amount']) }), outcome({ check: 'b', requirements: [], relations: record(['amount']) })];
    const [quick] = relationCoverage(checks, 'quick');
    expect(quick).toEqual({
      id: 'test.fingerprint',
      title: 'Fingerprint',
      checks: ['a', 'b'],
      cells: 5,
      tryable: 3,
      tried: 1,
      untried: [
        { cell: 'description', reason: 'not reached by this run' },
        { cell: 'payer.name', reason: 'not reached by this run' },
        { cell: 'expiry', reason: 'needs a contract timer: tried by the full and certify profiles' },
        { cell: 'live', reason: 'a money-moving request with production credentials' },
      ],
    });
    expect(relationCoverage(checks, 'full')[0]?.tryable).toBe(4);
    const notRun = relationCoverage([outcome({ check: 'a', requirements: [], state: 'not-run', notRun: 'PARTNER_BASE_URL not set', relations: record([]) })], 'quick')[0];
    expect(notRun?.untried[0]).toEqual({ cell: 'amount', reason: 'not run: PARTNER_BASE_URL not set' });
  });

  test('conformance.json has a relations array and conformance.md a Relations table', () => {
    const checks = [outcome({ check: 'a', requirements: [], relations: [{ id: relation.id, title: relation.title, cells: [...relation.cells], tried: ['amount', 'description', 'payer.name', 'expiry', 'live'] }] })];
    const report = buildConformance(run('full'), checks, []);
    expect(report.relations).toEqual([{ id: 'test.fingerprint', title: 'Fingerprint', checks: ['a'], cells: 5, tryable: 5, tried: 5, untried: [] }]);
    expect(renderMarkdown(report)).toContain('| Fingerprint `test.fingerprint` | 5 / 5 | 5 |  |');
    expect(buildConformance(run(), [outcome({ check: 'x', requirements: [] })], []).relations).toEqual([]);
    expect(renderMarkdown(buildConformance(run(), [outcome({ check: 'x', requirements: [] })], []))).not.toContain('## Relations');
  });
});
