/**
 * "GET /api/v1/transactions/{transactionId}": "Generic status lookup for card transactions and PIX
 * charges, using the id returned at creation. Response body: not shown." With "All bodies are JSON"
 * (Endpoints).
 */
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { judgeUnknownId, type Answer } from './fields.js';

/**
 * - the lookup of an id a creation returned (`kind`: a PIX charge or a card charge) answers a 2xx
 *   (the success status is not stated); its body is not shown, so an EMPTY body passes, and a
 *   non-empty body must be JSON ("All bodies are JSON");
 * - an id no transaction has (`unknownId`): "404 | resource not found" (see `judgeUnknownId`).
 */
export const answerTransactionLookup = defineRule({
  name: 'answerTransactionLookup',
  requirements: ['GW-TXN-LOOKUP-PIX', 'GW-TXN-LOOKUP-CARD'],
  codes: { 'txn.status': 'failure', 'txn.not-json': 'failure', 'txn.unknown-status': 'failure', 'txn.unknown-other-4xx': 'warning' },
  judge(observation: { kind: 'pix' | 'card'; answer: Answer; unknownId?: string }, v) {
    const { answer, kind } = observation;
    v.decides(kind === 'pix' ? 'GW-TXN-LOOKUP-PIX' : 'GW-TXN-LOOKUP-CARD');
    v.shows(answer.exchange);
    if (observation.unknownId !== undefined) {
      judgeUnknownId(v, answer, observation.unknownId, { unexpected: 'txn.unknown-status', otherClientError: 'txn.unknown-other-4xx' }, `GET /api/v1/transactions of an unknown id ${show(observation.unknownId, 40)}`);
      return;
    }
    if (!judgeStatus(v, answer.exchange, '2xx', { unexpected: 'txn.status' }, `the transaction lookup of a ${kind === 'pix' ? 'PIX charge' : 'card charge'}`)) return;
    const response = answer.exchange.response;
    if (!response || response.json !== undefined || response.body.trim() === '') return;
    v.find('txn.not-json', { title: 'the transaction lookup body is not JSON', expected: 'a JSON body ("All bodies are JSON") or no body', actual: show(response.body) });
  },
});
