import { describe, expect, it } from 'vitest';
import { applyTransitionsOnce } from '../harness/rules/gateway/atomicity.js';
import { answer, found } from './rules-gateway-fixtures.js';

const ok = () => answer(200, { success: true, data: { id: 'c1', status: 'paid' } });
const late = () => answer(400, { success: false, message: 'charge no longer pending' });

describe('applyTransitionsOnce ("concurrent confirmations of the same resource never apply the effect twice")', () => {
  it('passes one 2xx and 400 or 429 for the others', () => {
    const j = applyTransitionsOnce.judge({ case: 'burst', confirmation: 'pay', answers: [ok(), late(), answer(429, {})] });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-ATOMIC-TRANSITIONS']);
  });
  it('fails two 2xx, and no 2xx unless the precondition may fail', () => {
    expect(found(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'complete', answers: [ok(), ok(), late()] }))).toEqual(['failure:transitions.confirmed-twice']);
    expect(found(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'pay', answers: [late(), late()] }))).toEqual(['failure:transitions.none-confirmed']);
    expect(found(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'complete', answers: [late(), late()], mayAllFail: true }))).toEqual([]);
  });
  it('warns on a loser answering another 4xx; fails a 5xx; decides nothing when every answer is a 429', () => {
    expect(found(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'pay', answers: [ok(), answer(409, {})] }))).toEqual(['warning:transitions.loser-status']);
    expect(found(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'pay', answers: [ok(), answer(503, {})] }))).toEqual(['failure:transitions.loser-error']);
    expect(applyTransitionsOnce.judge({ case: 'burst', confirmation: 'pay', answers: [answer(429, {}), answer(429, {})] }).requirements).toEqual([]);
  });
  it('events: one occurrence passes, two distinct occurrences fail', () => {
    const what = { event: 'transaction_paid', kind: 'transaction', label: 'postbackUrl' };
    expect(found(applyTransitionsOnce.judge({ case: 'events', ...what, occurrences: ['e2e:E1'] }))).toEqual([]);
    expect(found(applyTransitionsOnce.judge({ case: 'events', ...what, occurrences: ['e2e:E1', 'e2e:E2'] }))).toEqual(['failure:transitions.event-twice']);
  });
});
