/**
 * The cells of the gateway's echo and events-against-resources relations, derived from
 * specs/gateway.openapi.yaml (harness/rules/echo.ts); the rules judging them are in ./echo.ts. A module
 * of its own so that the rules of other sections (the balance) can cover their cells without an
 * import cycle.
 */
import type { Relation } from '../rule.js';
import { specDocument } from '../spec-document.js';
import { attributeFields, below, echoCell, echoedFields, eventCell, requestLeaves, responseLeaves, webhookLeaves } from '../echo.js';
import type { ResourceKind } from './webhooks.js';

type Doc = Record<string, unknown>;

const TRANSFERS = '/api/v1/pix/out/pixkey';
const CHARGES = '/api/v1/pix/in/qrcode';
export const BR_CODE_PATHS = { creation: 'creation answer (BR Code)', lookup: 'lookup (BR Code)' } as const;

/** Why a documented event cannot be made to happen in a run (every route that could send it). */
export const UNPROVOKABLE_EVENTS: Readonly<Record<string, string>> = {
  transaction_refunded: 'no documented route refunds a PIX charge',
  transaction_updated: 'no documented route is said to send it (/pay fires transaction_paid; the PIX charge transitions are not shown)',
  infraction: 'no documented route opens an infraction/MED case',
  transfer_updated: 'no documented route is said to send it (/complete fires transfer_completed; the transfer transitions are not shown)',
  transfer_canceled: 'no documented route cancels or refuses a transfer (the transitions leading to refused are not shown)',
};

/** The balance as a path of a paid charge's amount (a credit in reais, gross or net of fees). */
export const BALANCE_PATH = 'balance (pix.balance, in reais)';

function union(...lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())];
}

/** The echo cells of the gateway spec, with the untryable ones (pure; pinned by a unit test). */
export function gatewayEchoCells(document: Doc): { cells: string[]; untryable: Record<string, string> } {
  const cells: string[] = [];
  const untryable: Record<string, string> = {};
  const hooks = webhookLeaves(document);
  const add = (resource: string, fields: readonly string[], path: string, event?: string): void => {
    for (const field of fields) {
      const cell = echoCell(resource, field, path);
      cells.push(cell);
      const reason = event === undefined ? undefined : UNPROVOKABLE_EVENTS[event];
      if (reason !== undefined) untryable[cell] = reason;
    }
  };
  const transfer = requestLeaves(document, 'POST', TRANSFERS);
  add('PIX transfer', echoedFields(transfer, responseLeaves(document, 'POST', TRANSFERS, '200', 'data')), 'creation answer');
  add('PIX transfer', echoedFields(transfer, responseLeaves(document, 'GET', `${TRANSFERS}/{transferId}`, '200', 'data')), 'lookup');
  for (const { event, leaves } of hooks) add('PIX transfer', echoedFields(transfer, below(leaves, 'transfer')), `event ${event}`, event);
  // "PIX charge (response data)" repeats none of the request's fields by name: the amount comes back
  // in the BR Code (field 54, when the code carries it) and as the events' transaction.amount
  add('PIX charge', ['amountInCents'], BR_CODE_PATHS.creation);
  add('PIX charge', ['amountInCents'], BR_CODE_PATHS.lookup);
  // "Paid PIX credit goes into the balance", which "returns strings in reais with 2 decimals"
  add('PIX charge', ['amountInCents'], BALANCE_PATH);
  for (const { event, leaves } of hooks) if (leaves.includes('transaction.amount')) add('PIX charge', ['amountInCents'], `event ${event}`, event);
  const card = requestLeaves(document, 'POST', '/api/v1/card');
  add('card charge', echoedFields(card, union(responseLeaves(document, 'POST', '/api/v1/card', '200', 'data'), responseLeaves(document, 'POST', '/api/v1/card', '201', 'data'))), 'creation answer');
  add('webhook', echoedFields(requestLeaves(document, 'POST', '/api/v1/webhook'), responseLeaves(document, 'POST', '/api/v1/webhook', '200', 'data')), 'creation answer');
  return { cells, untryable };
}

export const GATEWAY_ECHO: Relation = { id: 'gateway.echo', title: 'Values sent, on every path they come back by', ...gatewayEchoCells(specDocument('gateway')) };

/** The events-against-resources cells of the gateway spec, with the untryable ones (pure; pinned by a unit test). */
export function gatewayEventCells(document: Doc): { cells: string[]; untryable: Record<string, string> } {
  const lookups: Record<ResourceKind, string[]> = {
    transaction: responseLeaves(document, 'GET', `${CHARGES}/{transactionId}`, '200', 'data'),
    transfer: responseLeaves(document, 'GET', `${TRANSFERS}/{transferId}`, '200', 'data'),
  };
  const cells: string[] = [];
  const untryable: Record<string, string> = {};
  for (const { event, leaves } of webhookLeaves(document)) {
    for (const kind of ['transaction', 'transfer'] as const) {
      const inner = below(leaves, kind);
      const fields = attributeFields(inner, lookups[kind]).map(({ field }) => field);
      // the charge's lookup shows its amount in the BR Code it carries; its endToEndId only the /pay
      // answer shows ("data{id, status, endToEndId}")
      if (kind === 'transaction' && inner.includes('amount') && !fields.includes('amount')) fields.push('amount');
      if (kind === 'transaction' && inner.includes('pix.endToEndId') && !fields.includes('pix.endToEndId')) fields.push('pix.endToEndId');
      for (const field of fields) {
        const cell = eventCell(event, `${kind}.${field}`);
        cells.push(cell);
        const reason = UNPROVOKABLE_EVENTS[event];
        if (reason !== undefined) untryable[cell] = reason;
      }
    }
  }
  return { cells, untryable };
}

export const GATEWAY_EVENT_RESOURCE: Relation = { id: 'gateway.events-vs-resources', title: 'Events against a lookup of their resource made after them', ...gatewayEventCells(specDocument('gateway')) };

