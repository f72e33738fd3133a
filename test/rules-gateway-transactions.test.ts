import { describe, expect, it } from 'vitest';
import { answerTransactionLookup } from '../harness/rules/gateway/transactions.js';
import { answer, answered, found } from './rules-gateway-fixtures.js';

const of = (exchange: ReturnType<typeof answered>) => ({ status: exchange.response?.status ?? 0, json: exchange.response?.json, exchange });

describe('answerTransactionLookup ("Response body: not shown"; "All bodies are JSON")', () => {
  it('accepts any 2xx with JSON or with no body', () => {
    expect(found(answerTransactionLookup.judge({ kind: 'pix', answer: of(answered(200, { success: true, data: {} })) }))).toEqual([]);
    expect(found(answerTransactionLookup.judge({ kind: 'card', answer: of(answered(204, '')) }))).toEqual([]);
    expect(answerTransactionLookup.judge({ kind: 'card', answer: of(answered(200, '')) }).requirements).toEqual(['GW-TXN-LOOKUP-CARD']);
  });
  it('fails a non-JSON body and a 404 for a known id', () => {
    expect(found(answerTransactionLookup.judge({ kind: 'pix', answer: of(answered(200, '<html>')) }))).toEqual(['failure:txn.not-json']);
    expect(found(answerTransactionLookup.judge({ kind: 'pix', answer: of(answered(404)) }))).toEqual(['failure:txn.status']);
  });
  it('an unknown id answers 404; another 4xx warns', () => {
    expect(found(answerTransactionLookup.judge({ kind: 'pix', unknownId: 'nope', answer: answer(404, {}) }))).toEqual([]);
    expect(found(answerTransactionLookup.judge({ kind: 'pix', unknownId: 'nope', answer: answer(403, {}) }))).toEqual(['warning:txn.unknown-other-4xx']);
  });
});
