/** defineRule: declarations are enforced, evaluations decide what the rule declares, composition keeps ownership. */
import { describe, expect, it } from 'vitest';
import { defineRule, requirementsOf } from '../harness/rules/rule.js';
import { HarnessError } from '../harness/core/errors.js';
import type { Exchange } from '../harness/core/exchange.js';

const exchange = (status?: number): Exchange => ({
  seq: 1,
  api: 'partner',
  request: { method: 'GET', url: 'http://x/v1/business/finance', headers: {} },
  ...(status !== undefined ? { response: { status, headers: {}, body: '' } } : {}),
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  curl: 'curl http://x',
});

const positive = defineRule({
  name: 'ensurePositive',
  requirements: ['PT-CHARGE-AMOUNT-POSITIVE'],
  codes: { 'test.not-positive': 'failure' },
  judge(n: number, v) {
    if (Number.isNaN(n)) return v.nothingToJudge();
    if (n <= 0) v.find('test.not-positive', { title: 'not positive', expected: '> 0', actual: String(n) });
  },
});

describe('defineRule', () => {
  it('an evaluation that finds nothing decides every declared requirement', () => {
    expect(positive.judge(1)).toEqual({ rule: 'ensurePositive', requirements: ['PT-CHARGE-AMOUNT-POSITIVE'], findings: [] });
  });

  it('a finding carries the rule, its code, the declared severity and the requirements', () => {
    const j = positive.judge(0);
    expect(j.findings).toHaveLength(1);
    expect(j.findings[0]).toMatchObject({ code: 'test.not-positive', rule: 'ensurePositive', severity: 'failure', requirements: ['PT-CHARGE-AMOUNT-POSITIVE'] });
  });

  it('nothing to judge decides nothing', () => {
    expect(positive.judge(Number.NaN)).toEqual({ rule: 'ensurePositive', requirements: [], findings: [] });
  });

  it('caps a finding naming only latitude:warning requirements at a warning', () => {
    const ambiguous = defineRule({
      name: 'ensureNoImageTest',
      requirements: ['PT-CHARGE-NO-IMAGE'],
      codes: { 'test.image': 'failure' },
      judge(_: null, v) {
        v.find('test.image', { title: 'image', expected: 'none', actual: 'one' });
      },
    });
    // specs/requirements.yaml marks PT-CHARGE-NO-IMAGE `latitude: warning`
    expect(ambiguous.judge(null).findings[0]?.severity).toBe('warning');
    expect(positive.judge(-1).findings[0]?.severity).toBe('failure');
  });

  it('refuses an undeclared code, requirement or used rule (a bug of the suite, not a finding)', () => {
    const bad = defineRule({
      name: 'badRule',
      requirements: ['PT-CHARGE-AMOUNT-POSITIVE'],
      codes: { 'test.bad': 'failure' },
      judge(kind: string, v) {
        if (kind === 'code') v.find('test.other' as 'test.bad', { title: '', expected: '', actual: '' });
        if (kind === 'requirement') v.decides('PT-CHARGE-DESC-MAX');
        if (kind === 'finding') v.find('test.bad', { title: '', expected: '', actual: '', requirements: ['PT-CHARGE-DESC-MAX'] });
        if (kind === 'uses') v.apply(positive, 1);
      },
    });
    for (const kind of ['code', 'requirement', 'finding', 'uses']) expect(() => bad.judge(kind)).toThrow(HarnessError);
  });

  it('applies used rules: their findings stay theirs, their requirements are decided too', () => {
    const composite = defineRule({
      name: 'verifyPair',
      requirements: ['PT-CHARGE-DESC-MAX'],
      codes: { 'test.pair': 'failure' },
      uses: [positive],
      judge(pair: [number, number], v) {
        v.apply(positive, pair[0]);
        if (pair[1] > 300) v.find('test.pair', { title: 'too long', expected: '≤ 300', actual: String(pair[1]) });
      },
    });
    const j = composite.judge([0, 301]);
    expect(j.requirements).toEqual(['PT-CHARGE-DESC-MAX', 'PT-CHARGE-AMOUNT-POSITIVE']);
    expect(j.findings.map((f) => [f.rule, f.code])).toEqual([['verifyPair', 'test.pair'], ['ensurePositive', 'test.not-positive']]);
    expect(requirementsOf([composite])).toEqual(['PT-CHARGE-DESC-MAX', 'PT-CHARGE-AMOUNT-POSITIVE']);
  });

  it('reports requests without an answer instead of judging them', () => {
    const status = defineRule({
      name: 'expectOk',
      requirements: ['PT-FIN-GET'],
      codes: { 'test.status': 'failure' },
      judge(e: Exchange, v) {
        if (!e.response) return v.unanswered(e);
        if (e.response.status !== 200) v.find('test.status', { title: 'status', expected: '200', actual: String(e.response.status), exchanges: [e] });
      },
    });
    const silent = exchange();
    expect(status.judge(silent).unanswered).toEqual([silent]);
    expect(status.judge(exchange(500)).findings[0]?.exchanges).toHaveLength(1);
  });
});

describe('relations', () => {
  const relation = { id: 'test.fingerprint', title: 'every field changed alone conflicts', cells: ['amount', 'description'] };
  const fingerprint = defineRule({
    name: 'ensureFieldConflicts',
    requirements: ['PT-IDEM-CONFLICT-409'],
    codes: { 'test.no-conflict': 'failure' },
    relation,
    judge(observation: { field: string; status: number }, v) {
      v.covers(observation.field);
      if (observation.status !== 409) v.find('test.no-conflict', { title: 'no conflict', expected: '409', actual: String(observation.status) });
    },
  });
  it('an evaluation says which cell it tried, found or not', () => {
    expect(fingerprint.judge({ field: 'amount', status: 409 }).covered).toEqual([{ relation: 'test.fingerprint', cells: ['amount'] }]);
    expect(fingerprint.judge({ field: 'description', status: 200 }).covered).toEqual([{ relation: 'test.fingerprint', cells: ['description'] }]);
  });
  it('a cell outside the relation is a bug of the suite', () => {
    expect(() => fingerprint.judge({ field: 'nope', status: 409 })).toThrow(HarnessError);
  });
  it('cells tried through a used rule are reported by the composite', () => {
    const group = defineRule({ name: 'groupFingerprint', requirements: [], codes: {}, uses: [fingerprint], judge(fields: string[], v) { for (const field of fields) v.apply(fingerprint, { field, status: 409 }); } });
    expect(group.judge(['amount', 'description']).covered).toEqual([{ relation: 'test.fingerprint', cells: ['amount'] }, { relation: 'test.fingerprint', cells: ['description'] }]);
  });
});
