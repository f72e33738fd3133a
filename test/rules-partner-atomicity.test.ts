import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { judgeConcurrentPays, judgePayCancelRace } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('judgeConcurrentPays', () => {
  it('accepts one or several 2xx among 4xx (pay of a paid charge: not shown)', () => {
    expect(conforms(judgeConcurrentPays([answer(200), answer(409), answer(200)], { requirements: ['PT-ATOMIC-CAPTURE'] }))).toBe(true);
  });
  it('fails when none succeeded, and a 5xx', () => {
    expect(codes(judgeConcurrentPays([answer(409), answer(409)], { requirements: ['PT-ATOMIC-CAPTURE'] }))).toEqual(['atomic.no-winner']);
    expect(codes(judgeConcurrentPays([answer(200), answer(500)], { requirements: ['PT-ATOMIC-CAPTURE'] }))).toEqual(['target.5xx']);
  });
});

describe('judgePayCancelRace', () => {
  const ctx = { requirements: ['PT-STATE-ONE-TRANSITION'] as const };
  it('accepts pay won (cancel 409) and cancel won (pay 4xx)', () => {
    expect(conforms(judgePayCancelRace({ pay: answer(200), cancel: answer(409), finalState: 'paid' }, ctx))).toBe(true);
    expect(conforms(judgePayCancelRace({ pay: answer(409), cancel: answer(204), finalState: 'canceled' }, ctx))).toBe(true);
  });
  it('fails both winning into paid, another final state, no winner', () => {
    expect(codes(judgePayCancelRace({ pay: answer(200), cancel: answer(200), finalState: 'paid' }, ctx))).toEqual(['atomic.both-won']);
    expect(codes(judgePayCancelRace({ pay: answer(200), cancel: answer(409), finalState: 'pending' }, ctx))).toEqual(['atomic.state']);
    expect(codes(judgePayCancelRace({ pay: answer(409), cancel: answer(409), finalState: 'canceled' }, ctx))).toEqual(['atomic.no-winner']);
  });
  it('warns when the pay answered 2xx but the cancel won (a no-op pay answer is possible)', () => {
    expect(severities(judgePayCancelRace({ pay: answer(200), cancel: answer(200), finalState: 'canceled' }, ctx))).toEqual(['atomic.pay-ignored:warning']);
  });
});
