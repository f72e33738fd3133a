/**
 * "GET /api/v1/transactions/{transactionId}": "Generic status lookup for card transactions and PIX
 * charges, using the id returned at creation. Response body: not shown." With "All bodies are JSON"
 * (Endpoints).
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';

/**
 * The lookup of a known id answers a 2xx (the success status is not stated); its body is not shown,
 * so an EMPTY body passes (issue 14: "Response body: not shown"), and a non-empty body must be JSON
 * ("All bodies are JSON"; failure `txn.not-json`).
 */
export function verifyTransactionLookup(exchange: Exchange, ctx: RuleContext): Judgement {
  const status = expectStatus(exchange, '2xx', ctx);
  const response = exchange.response;
  if (!response || response.status < 200 || response.status > 299) return status;
  if (response.json !== undefined || response.body.trim() === '') return status;
  return combine(status, judge(ctx, makeFinding({ ...ctx, exchanges: ctx.exchanges ?? [exchange] }, {
    code: 'txn.not-json', severity: 'failure', title: 'the transaction lookup body is not JSON', expected: 'a JSON body ("All bodies are JSON") or no body', actual: show(response.body),
  })));
}
