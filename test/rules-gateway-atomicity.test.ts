import { describe, expect, it } from 'vitest';
import {
  ensureEventOccursOnce,
  ensureNoOtherTransferAtPostback,
  ensureReplayReturnsOriginal,
  judgeConcurrentConfirmations,
  judgeSameKeyBurst,
} from '../harness/rules/gateway/atomicity.js';
import { answer, found } from './rules-gateway-fixtures.js';

const ok = (id = 'tr_1') => answer(200, { success: true, data: { id, status: 'completed' } });

describe('judgeConcurrentConfirmations', () => {
  it('accepts one 2xx and 400/429 for the others', () => {
    const j = judgeConcurrentConfirmations('pay', [ok(), answer(400), answer(429), answer(400)]);
    expect(j.findings.filter((f) => f.severity === 'failure')).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAY-NOT-PENDING-400']));
  });
  it('fails two winners', () => {
    expect(found(judgeConcurrentConfirmations('complete', [ok(), ok(), answer(400)]))).toEqual(['failure:atomicity.confirmed-twice']);
  });
  it('fails no winner, unless all were 429 or the caller could not guarantee the precondition', () => {
    expect(found(judgeConcurrentConfirmations('pay', [answer(400), answer(400)]))).toEqual(['failure:atomicity.none-confirmed']);
    expect(found(judgeConcurrentConfirmations('pay', [answer(429), answer(429)]))).toEqual([]);
    expect(found(judgeConcurrentConfirmations('complete', [answer(400), answer(400)], {}, { mayAllFail: true }))).toEqual([]);
  });
  it('warns for a loser answering another 4xx; fails a 5xx loser', () => {
    expect(found(judgeConcurrentConfirmations('pay', [ok(), answer(409)]))).toEqual(['warning:atomicity.loser-status']);
    expect(found(judgeConcurrentConfirmations('pay', [ok(), answer(500)]))).toEqual(['failure:target.5xx']);
  });
});

describe('judgeSameKeyBurst', () => {
  it('accepts one transfer id among the 2xx, and an "in progress" 4xx', () => {
    expect(found(judgeSameKeyBurst([ok(), ok(), answer(425), answer(429)]))).toEqual([]);
  });
  it('fails two transfer ids', () => {
    expect(found(judgeSameKeyBurst([ok('a'), ok('b')]))).toEqual(['failure:idempotency.duplicated']);
  });
  it('warns for an in-flight 409; fails 400 (a valid body called invalid) and no creation at all', () => {
    expect(found(judgeSameKeyBurst([ok(), answer(409)]))).toEqual(['warning:idempotency.in-flight-409']);
    expect(found(judgeSameKeyBurst([ok(), answer(400)]))).toEqual(['failure:status.unexpected']);
    expect(found(judgeSameKeyBurst([answer(425), answer(425)]))).toEqual(['failure:idempotency.none-created']);
  });
});

describe('replay and duplicate rules', () => {
  it('ensureReplayReturnsOriginal: the same id passes; another fails; a non-2xx is the status rule\'s', () => {
    expect(found(ensureReplayReturnsOriginal(ok('a'), 'a'))).toEqual([]);
    expect(found(ensureReplayReturnsOriginal(ok('b'), 'a'))).toEqual(['failure:idempotency.new-transfer']);
    expect(found(ensureReplayReturnsOriginal(answer(409), 'a'))).toEqual([]);
  });
  it('ensureNoOtherTransferAtPostback and ensureEventOccursOnce', () => {
    expect(found(ensureNoOtherTransferAtPostback(undefined, 'a'))).toEqual([]);
    expect(found(ensureNoOtherTransferAtPostback({ seq: 3, bodyText: '{}' }, 'a'))).toEqual(['failure:idempotency.duplicated']);
    const what = { event: 'transaction_paid', kind: 'transaction', label: 'postbackUrl', eventRequirement: 'GW-EVT-TRANSACTION-PAID' as const };
    expect(found(ensureEventOccursOnce(['e2e:1'], what))).toEqual([]);
    expect(found(ensureEventOccursOnce(['e2e:1', 'e2e:2'], what))).toEqual(['failure:atomicity.event-twice']);
  });
});
