import { describe, expect, it } from 'vitest';
import {
  answerTransferLookup,
  answerUnknownTransfer,
  createdTransferState,
  ensureCreatedTransferProcessing,
  ensureTransferCompleted,
  honourIdempotencyKey,
  honourTransferRequest,
  refuseCompletionOfCompleted,
  refuseKeyReuseWithOtherBody,
  refuseUncoveredCompletion,
  verifyTransferLookupFields,
} from '../harness/rules/gateway/pix-transfers.js';
import { instantOf } from '../harness/rules/time.js';
import { answer, found } from './rules-gateway-fixtures.js';

const data = (d: Record<string, unknown>) => ({ success: true, message: 'ok', data: d });
const transfer = (d: Record<string, unknown> = {}) => data({ id: 't1', status: 'banking_processing', amount: 150, netAmount: 149, fees: 1, pixKey: 'k', ...d });
const body = { pixKey: 'payee@example.com', amount: 150 };
const ERR = { success: false, message: 'invalid body' };
const own = (j: { requirements: readonly string[] }) => j.requirements.filter((id) => !id.startsWith('GW-ERR-'));

describe('honourTransferRequest: a valid body ("200: success, message, data (PIX transfer …)")', () => {
  it('passes a 200 carrying the transfer with the amount sent, in integer cents', () => {
    const j = honourTransferRequest.judge({ case: 'valid', body, answer: answer(200, transfer()), exercises: ['pixKey'] });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-PIXOUT-CREATE-200', 'GW-PIXOUT-KEY-FORMATS', 'GW-MONEY-CENTS', 'GW-PIXOUT-RESP-FIELDS']));
  });
  it('fails a refusal, another 2xx, a missing id, another amount and money as strings', () => {
    expect(found(honourTransferRequest.judge({ case: 'valid', body, answer: answer(400, { success: false, message: 'no' }) }))).toEqual(['failure:pixout.create-status']);
    expect(found(honourTransferRequest.judge({ case: 'valid', body, answer: answer(201, transfer()) }))).toEqual(['failure:pixout.create-status']);
    expect(found(honourTransferRequest.judge({ case: 'valid', body, answer: answer(200, transfer({ id: '' })) }))).toEqual(['failure:pixout.create-id']);
    expect(found(honourTransferRequest.judge({ case: 'valid', body, answer: answer(200, transfer({ amount: 151 })) }))).toEqual(['failure:pixout.create-amount']);
    const strings = honourTransferRequest.judge({ case: 'valid', body, answer: answer(200, transfer({ netAmount: '149', fees: '1' })) });
    expect(found(strings)).toEqual(['failure:money.not-cents', 'failure:money.not-cents']);
    expect(strings.findings[0]?.requirements).toEqual(['GW-MONEY-CENTS', 'GW-PIXOUT-RESP-FIELDS']);
  });
  it('decides the default currency when the body leaves it out, and BRL when it sends it', () => {
    expect(honourTransferRequest.judge({ case: 'valid', body, answer: answer(200, transfer()), exercises: ['currency'] }).requirements).toContain('GW-PIXOUT-CURRENCY-DEFAULT');
    expect(honourTransferRequest.judge({ case: 'valid', body: { ...body, currency: 'BRL' }, answer: answer(200, transfer()), exercises: ['currency'] }).requirements).toContain('GW-PIXOUT-CURRENCY-BRL');
  });
  it('decides nothing on a 429', () => {
    expect(honourTransferRequest.judge({ case: 'valid', body, answer: answer(429, {}) }).requirements).toEqual([]);
  });
});

describe('honourTransferRequest: a body breaking one row', () => {
  const breaks = (row: string, value: unknown, status: number, json: unknown = ERR, kind?: string) => honourTransferRequest.judge({ case: 'breaks', row, value, ...(kind ? { kind } : {}), what: `${row} ${String(value)}`, answer: answer(status, json) });
  it('passes 400 and 422, warns on another 4xx, fails a 2xx or a 5xx', () => {
    expect(found(breaks('amount', 0, 400, { success: false, message: 'amount' }, 'zero'))).toEqual([]);
    expect(found(breaks('amount', 0, 422, { success: false, message: 'amount' }, 'zero'))).toEqual([]);
    expect(found(breaks('amount', 0, 403, ERR, 'zero'))).toEqual(['warning:validation.other-4xx']);
    expect(found(breaks('amount', 0, 200, transfer(), 'zero'))).toEqual(['failure:pixout.invalid-accepted']);
    expect(found(breaks('amount', 0, 500, ERR, 'zero'))).toEqual(['failure:validation.status']);
  });
  it('decides the clause the value breaks, with 400 invalid body', () => {
    expect(own(breaks('amount', 0, 400, ERR, 'zero'))).toEqual(['GW-PIXOUT-AMOUNT-MIN', 'GW-PIXOUT-CREATE-400']);
    expect(own(breaks('amount', '150', 400, ERR, 'string'))).toEqual(['GW-PIXOUT-AMOUNT-INT', 'GW-PIXOUT-CREATE-400']);
    expect(own(breaks('x-idempotency-key', undefined, 400))).toEqual(['GW-PIXOUT-IDEM-REQUIRED', 'GW-PIXOUT-CREATE-400']);
    expect(own(breaks('unexpectedProperty', 'x', 400))).toEqual(['GW-PIXOUT-CREATE-400']);
  });
  it('narrows to the x-requirement of the node at fault', () => {
    const j = honourTransferRequest.judge({ case: 'breaks', row: 'currency', kind: 'bad-enum', requirements: ['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CURRENCY-DEFAULT'], what: 'currency', answer: answer(400, ERR) });
    expect(own(j)).toEqual(['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CREATE-400']);
  });
  it('fails a key of no format or a CPF with wrong check digits accepted; warns on a borderline key', () => {
    expect(found(breaks('pixKey', 'not a key', 200, transfer()))).toEqual(['failure:pixout.invalid-accepted']);
    expect(found(breaks('pixKey', '52998224724', 200, transfer()))).toEqual(['failure:pixout.invalid-accepted']);
    expect(found(breaks('pixKey', '11987654321', 200, transfer()))).toEqual(['failure:pixout.invalid-accepted']);
    expect(found(breaks('pixKey', '12ABC34501DE35', 200, transfer()))).toEqual(['warning:pixout.borderline-accepted']);
    expect(found(breaks('pixKey', '+55 11 98765-4321', 200, transfer()))).toEqual(['warning:pixout.borderline-accepted']);
  });
  it('fails USD accepted; warns on "brl" or "" accepted', () => {
    expect(found(breaks('currency', 'USD', 200, transfer()))).toEqual(['failure:pixout.invalid-accepted']);
    expect(found(breaks('currency', 'brl', 200, transfer()))).toEqual(['warning:pixout.borderline-accepted']);
    expect(found(breaks('currency', '', 200, transfer()))).toEqual(['warning:pixout.borderline-accepted']);
  });
});

describe('honourTransferRequest: open values and the default currency', () => {
  it('an open value passes any 2xx or 4xx, fails a 5xx', () => {
    expect(found(honourTransferRequest.judge({ case: 'open', row: 'postbackUrl', what: 'no URI', answer: answer(200, transfer()) }))).toEqual([]);
    expect(found(honourTransferRequest.judge({ case: 'open', row: 'postbackUrl', what: 'no URI', answer: answer(422, {}) }))).toEqual([]);
    expect(found(honourTransferRequest.judge({ case: 'open', row: 'postbackUrl', what: 'no URI', answer: answer(500, {}) }))).toEqual(['failure:pixout.open-status']);
  });
  it('a lookup without currency decides nothing; BRL passes; another currency fails', () => {
    expect(honourTransferRequest.judge({ case: 'default-currency', lookup: answer(200, transfer()) }).requirements).toEqual([]);
    expect(found(honourTransferRequest.judge({ case: 'default-currency', lookup: answer(200, transfer({ currency: 'BRL' })) }))).toEqual([]);
    expect(found(honourTransferRequest.judge({ case: 'default-currency', lookup: answer(200, transfer({ currency: 'USD' })) }))).toEqual(['failure:pixout.currency-default']);
  });
});

describe('ensureCreatedTransferProcessing ("(creation, sandbox) … no manual review | banking_processing")', () => {
  it('passes banking_processing and pending (manual review)', () => {
    for (const status of ['banking_processing', 'pending']) expect(found(ensureCreatedTransferProcessing.judge(answer(200, transfer({ status }))))).toEqual([]);
    expect(createdTransferState(answer(200, transfer({ status: 'pending' })))).toEqual({ id: 't1', status: 'pending' });
  });
  it('warns on completed or refused at creation; fails an undocumented status', () => {
    expect(found(ensureCreatedTransferProcessing.judge(answer(200, transfer({ status: 'completed' }))))).toEqual(['warning:pixout.created-not-processing']);
    expect(found(ensureCreatedTransferProcessing.judge(answer(200, transfer({ status: 'refused' }))))).toEqual(['warning:pixout.created-not-processing']);
    const upper = ensureCreatedTransferProcessing.judge(answer(200, transfer({ status: 'BANKING_PROCESSING' })));
    expect(found(upper)).toEqual(['failure:pixout.created-status']);
    expect(upper.findings[0]?.requirements).toEqual(['GW-PIXOUT-CREATE-BANKING-PROCESSING', 'GW-PIXOUT-STATUS-ENUM']);
  });
});

describe('honourIdempotencyKey ("returns the original response and never duplicates the transfer")', () => {
  const original = answer(200, transfer());
  it('a replay with the original status and transfer passes; another id fails; another field warns', () => {
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original, replay: answer(200, transfer()) }))).toEqual([]);
    const twice = honourIdempotencyKey.judge({ case: 'replay', original, replay: answer(200, transfer({ id: 't2' })) });
    expect(found(twice)).toEqual(['failure:pixout.idem-new-transfer']);
    expect(twice.findings[0]?.requirements).toEqual(['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE']);
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original, replay: answer(200, transfer({ fees: 2 })) }))).toEqual(['warning:pixout.idem-replay-fields']);
  });
  it('another 2xx only warns; an error fails; with the original id only, any 2xx with that id passes', () => {
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original, replay: answer(201, transfer()) }))).toEqual(['warning:pixout.idem-replay-other-2xx']);
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original, replay: answer(409, {}) }))).toEqual(['failure:pixout.idem-replay-status']);
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original: { id: 't1' }, replay: answer(201, transfer()) }))).toEqual([]);
    expect(found(honourIdempotencyKey.judge({ case: 'replay', original: { id: 't1' }, replay: answer(200, transfer({ id: 't9' })) }))).toEqual(['failure:pixout.idem-new-transfer']);
  });
  it('a burst: one id passes; two ids fail; an in-flight 409 warns; 422 is a valid body refused', () => {
    expect(found(honourIdempotencyKey.judge({ case: 'burst', body, answers: [answer(200, transfer()), answer(200, transfer()), answer(425, {})] }))).toEqual([]);
    expect(found(honourIdempotencyKey.judge({ case: 'burst', body, answers: [answer(200, transfer()), answer(200, transfer({ id: 't2' }))] }))).toEqual(['failure:pixout.idem-duplicated']);
    expect(found(honourIdempotencyKey.judge({ case: 'burst', body, answers: [answer(200, transfer()), answer(409, {})] }))).toEqual(['warning:pixout.idem-in-flight-409']);
    expect(found(honourIdempotencyKey.judge({ case: 'burst', body, answers: [answer(200, transfer()), answer(422, {})] }))).toEqual(['failure:pixout.create-status']);
    expect(found(honourIdempotencyKey.judge({ case: 'burst', body, answers: [answer(425, {}), answer(425, {})] }))).toEqual(['failure:pixout.idem-none-created']);
  });
  it('another transfer at the postbackUrl of the key fails', () => {
    expect(found(honourIdempotencyKey.judge({ case: 'postback', transferId: 't1', other: undefined }))).toEqual([]);
    expect(found(honourIdempotencyKey.judge({ case: 'postback', transferId: 't1', other: { seq: 3, bodyText: '{"transfer":{"id":"t2"}}' } }))).toEqual(['failure:pixout.idem-duplicated']);
  });
});

describe('refuseKeyReuseWithOtherBody ("The same key with a different body gives 409 (IDEMPOTENCY_CONFLICT)")', () => {
  const reuse = (status: number, json: unknown) => refuseKeyReuseWithOtherBody.judge({ answer: answer(status, json), originalId: 't1', what: 'another amount' });
  it('passes 409 {error: IDEMPOTENCY_CONFLICT, message}', () => {
    expect(found(reuse(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'x' }))).toEqual([]);
    expect(reuse(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'x' }).requirements).toEqual(['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-409-MEANING']);
  });
  it('fails a 2xx, a 400, and a 409 without the code', () => {
    expect(found(reuse(200, transfer()))).toEqual(['failure:pixout.idem-conflict-accepted']);
    expect(found(reuse(400, { success: false, message: 'x' }))).toEqual(['failure:pixout.idem-conflict-status']);
    const plain = reuse(409, { success: false, message: 'x' });
    expect(found(plain)).toEqual(['failure:pixout.idem-conflict-body']);
    expect(plain.findings[0]?.requirements).toEqual(['GW-PIXOUT-IDEM-CONFLICT-409']);
  });
});

describe('lookups', () => {
  it('answerTransferLookup: 200 in the modelled state passes; another state or amount fails', () => {
    expect(found(answerTransferLookup.judge({ answer: answer(200, transfer()), expected: { status: 'banking_processing', amount: 150, why: 'x' } }))).toEqual([]);
    expect(found(answerTransferLookup.judge({ answer: answer(200, transfer({ status: 'completed', amount: 151 })), expected: { status: 'banking_processing', amount: 150, why: 'x' } }))).toEqual(['failure:pixout.lookup-state', 'failure:pixout.lookup-amount']);
    expect(found(answerTransferLookup.judge({ answer: answer(404, {}) }))).toEqual(['failure:pixout.lookup-status']);
  });
  it('verifyTransferLookupFields: processedAt may be absent before completion; epoch millis fail; a completed one needs endToEndId', () => {
    const at = '2026-11-22T10:15:30Z';
    expect(found(verifyTransferLookupFields.judge(answer(200, transfer({ createdAt: at, updatedAt: at }))))).toEqual([]);
    expect(found(verifyTransferLookupFields.judge(answer(200, transfer({ createdAt: 1_700_000_000_000, updatedAt: at }))))).toEqual(['failure:pixout.timestamp']);
    const done = verifyTransferLookupFields.judge(answer(200, transfer({ status: 'completed', createdAt: at, updatedAt: at, processedAt: at })));
    expect(found(done)).toEqual(['failure:pixout.lookup-e2e']);
    expect(done.findings[0]?.requirements).toEqual(['GW-PIXOUT-ENDTOEND-COMPLETED']);
    expect(found(verifyTransferLookupFields.judge(answer(200, transfer({ status: 'completed', createdAt: at, updatedAt: at, processedAt: at, endToEndId: 'e2e-1' }))))).toEqual(['warning:pixout.lookup-e2e-layout']);
  });
  it('verifyTransferLookupFields: a timestamp hours after the answer showing it fails, in any zone; drift and zone-less values pass', () => {
    const dated = (d: Record<string, unknown>, date = 'Sun, 22 Nov 2026 12:00:00 GMT') => {
      const a = answer(200, transfer(d));
      if (a.exchange.response) a.exchange.response.headers['date'] = date;
      return a;
    };
    // 12:00 UTC written with the -03:00 offset applied the wrong way: 15:00-03:00 is 18:00 UTC
    expect(found(verifyTransferLookupFields.judge(dated({ createdAt: '2026-11-22T15:00:00-03:00', updatedAt: '2026-11-22T09:00:00-03:00' })))).toEqual(['failure:pixout.timestamp-future']);
    // the same instant in any zone, a created time long ago, and clock drift within 15 minutes pass
    expect(found(verifyTransferLookupFields.judge(dated({ createdAt: '2026-11-22T09:00:00-03:00', updatedAt: '2026-11-22T12:14:00Z' })))).toEqual([]);
    expect(found(verifyTransferLookupFields.judge(dated({ createdAt: '2025-01-01T00:00:00+09:00', updatedAt: '2026-11-22T12:00:00.999+00:00' })))).toEqual([]);
    // no zone (local time) or "-00:00" name no instant; no Date header: nothing to compare
    expect(found(verifyTransferLookupFields.judge(dated({ createdAt: '2026-11-22T18:00:00', updatedAt: '2026-11-22T18:00:00-00:00' })))).toEqual([]);
    expect(found(verifyTransferLookupFields.judge(answer(200, transfer({ createdAt: '2099-01-01T00:00:00Z', updatedAt: '2099-01-01T00:00:00Z' }))))).toEqual([]);
    expect(instantOf('2026-11-22T09:00:00-03:00')).toBe(Date.UTC(2026, 10, 22, 12));
    expect(instantOf('20261122T1200+0130')).toBe(Date.UTC(2026, 10, 22, 10, 30));
  });
  it('answerUnknownTransfer: 404 {error: NOT_FOUND} passes the lookup; another body fails it; /complete any 404', () => {
    expect(found(answerUnknownTransfer.judge({ route: 'lookup', id: 'x1', answer: answer(404, { error: 'NOT_FOUND', message: 'no' }) }))).toEqual([]);
    expect(found(answerUnknownTransfer.judge({ route: 'lookup', id: 'x1', answer: answer(404, { success: false, message: 'no' }) }))).toEqual(['failure:pixout.unknown-body']);
    expect(found(answerUnknownTransfer.judge({ route: 'complete', id: 'x1', answer: answer(404, { success: false, message: 'no' }) }))).toEqual([]);
    expect(found(answerUnknownTransfer.judge({ route: 'complete', id: 'x1', answer: answer(500, {}) }))).toEqual(['failure:pixout.unknown-status']);
    expect(found(answerUnknownTransfer.judge({ route: 'lookup', id: 'x1', answer: answer(400, {}) }))).toEqual(['warning:pixout.unknown-other-4xx']);
    expect(found(answerUnknownTransfer.judge({ route: 'lookup', id: 'a b', answer: answer(400, {}) }))).toEqual([]);
    expect(answerUnknownTransfer.judge({ route: 'lookup', id: '..', answer: answer(200, {}) }).requirements).toEqual([]);
  });
});

describe('completion', () => {
  const done = (d: Record<string, unknown> = {}) => data({ id: 't1', status: 'completed', endToEndId: 'E12345678202611221015abcdefghijk', ...d });
  it('ensureTransferCompleted: 200 completed with an endToEndId passes; another status, no endToEndId or 201 fail', () => {
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(200, done()) }))).toEqual([]);
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(200, done({ status: 'banking_processing' })) }))).toEqual(['failure:pixout.complete-state']);
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(200, done({ endToEndId: undefined })) }))).toEqual(['failure:pixout.complete-e2e']);
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(201, done()) }))).toEqual(['failure:pixout.complete-status']);
  });
  it('ensureTransferCompleted: with a shared balance a 400 decides nothing; a pending transfer may get any 4xx', () => {
    expect(ensureTransferCompleted.judge({ case: 'answer', answer: answer(400, {}), funding: 'shared' }).requirements).toEqual([]);
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(409, {}), funding: 'shared' }))).toEqual(['failure:pixout.complete-status']);
    expect(found(ensureTransferCompleted.judge({ case: 'answer', answer: answer(409, {}), funding: 'pending' }))).toEqual([]);
  });
  it('ensureTransferCompleted: the lookup after /complete shows it completed', () => {
    const completion = answer(200, done()).exchange;
    expect(found(ensureTransferCompleted.judge({ case: 'lookup', lookup: answer(200, transfer({ status: 'completed' })), completion }))).toEqual([]);
    expect(found(ensureTransferCompleted.judge({ case: 'lookup', lookup: answer(200, transfer()), completion }))).toEqual(['failure:pixout.completed-not-kept']);
  });
  it('refuseCompletionOfCompleted: 400 passes; a 2xx or a 404 fails', () => {
    expect(found(refuseCompletionOfCompleted.judge(answer(400, { success: false, message: 'x' })))).toEqual([]);
    expect(found(refuseCompletionOfCompleted.judge(answer(200, done())))).toEqual(['failure:pixout.completed-again']);
    expect(found(refuseCompletionOfCompleted.judge(answer(404, {})))).toEqual(['failure:pixout.complete-again-status']);
  });
  it('refuseUncoveredCompletion: any 4xx passes; a 2xx, a completed lookup or a negative balance after fails', () => {
    const completion = answer(200, done()).exchange;
    expect(found(refuseUncoveredCompletion.judge({ case: 'answer', answer: answer(422, {}), amount: 10, balance: 0 }))).toEqual([]);
    expect(found(refuseUncoveredCompletion.judge({ case: 'answer', answer: answer(200, done()), amount: 10, balance: 0 }))).toEqual(['failure:pixout.completed-without-balance']);
    expect(found(refuseUncoveredCompletion.judge({ case: 'lookup', lookup: answer(200, transfer()), amount: 10, completion }))).toEqual([]);
    expect(found(refuseUncoveredCompletion.judge({ case: 'lookup', lookup: answer(200, transfer({ status: 'completed' })), amount: 10, completion }))).toEqual(['failure:pixout.completed-without-balance']);
    expect(refuseUncoveredCompletion.judge({ case: 'balance-after', answer: answer(200, done()), amount: 500, before: 100, after: 0 }).requirements).toEqual([]);
    expect(refuseUncoveredCompletion.judge({ case: 'balance-after', answer: answer(400, {}), amount: 500, before: 100, after: 100 }).requirements).toEqual(['GW-PIXOUT-COMPLETE-BALANCE']);
    expect(found(refuseUncoveredCompletion.judge({ case: 'balance-after', answer: answer(500, {}), amount: 500, before: 100, after: 100 }))).toEqual(['failure:pixout.uncovered-status']);
    expect(found(refuseUncoveredCompletion.judge({ case: 'balance-after', answer: answer(200, done()), amount: 500, before: 100, after: -400 }))).toEqual(['failure:pixout.completed-without-balance']);
  });
});
