// The statuses and enums relations (harness/rules/statuses.ts): cells derived from the specs (pinned
// here, so a spec change shows up), the cells judgeStatus and the contract rules try, and the rules
// that try the cells no other check reaches.
import { describe, expect, it } from 'vitest';
import { specDocument } from '../harness/rules/spec-document.js';
import {
  contractRelations,
  enumSites,
  GATEWAY_REQUEST_ENUMS,
  GATEWAY_RESPONSE_ENUMS,
  GATEWAY_STATUSES,
  PARTNER_REQUEST_ENUMS,
  PARTNER_RESPONSE_ENUMS,
  PARTNER_STATUSES,
  requestEnumCells,
  responseEnumCellsCarried,
  statusCells,
  statusCellsTried,
} from '../harness/rules/statuses.js';
import { judgeStatus } from '../harness/rules/status.js';
import { defineRule } from '../harness/rules/rule.js';
import { matchResponseSchemas } from '../harness/rules/contract.js';
import { filterByStatus } from '../harness/rules/partner/list.js';
import { acceptDocumentedRequestEdges, provokePayConflict } from '../harness/rules/partner/statuses.js';
import { acceptDocumentedRequestEnums } from '../harness/rules/gateway/statuses.js';
import type { ResponseFacts } from '../harness/contract/validator.js';
import { exchange } from './rules-gateway-fixtures.js';
import { answer as ptAnswer, codes } from './rules-partner-fixtures.js';

const GATEWAY_ROUTES = [
  'POST /api/auth',
  'POST /api/v1/pix/in/qrcode',
  'GET /api/v1/pix/in/qrcode/{transactionId}',
  'POST /api/v1/pix/in/qrcode/{transactionId}/pay',
  'POST /api/v1/pix/out/pixkey',
  'GET /api/v1/pix/out/pixkey/{transferId}',
  'POST /api/v1/pix/out/pixkey/{transferId}/complete',
  'POST /api/v1/card',
  'GET /api/v1/transactions/{transactionId}',
  'GET /api/v1/balance',
  'GET /api/v1/webhook',
  'POST /api/v1/webhook',
  'DELETE /api/v1/webhook/{id}',
];

const GATEWAY_STATUS_TABLE: Record<string, string[]> = {
  'POST /api/auth': ['200', '400', '401', '429'],
  'POST /api/v1/pix/in/qrcode': ['200', '400', '401', '422', '429'],
  'GET /api/v1/pix/in/qrcode/{transactionId}': ['200', '401', '403', '404', '429'],
  'POST /api/v1/pix/in/qrcode/{transactionId}/pay': ['200', '400', '401', '403', '404', '429'],
  'POST /api/v1/pix/out/pixkey': ['200', '400', '401', '409', '422', '429'],
  'GET /api/v1/pix/out/pixkey/{transferId}': ['200', '401', '403', '404', '429'],
  'POST /api/v1/pix/out/pixkey/{transferId}/complete': ['200', '400', '401', '403', '404', '429'],
  'POST /api/v1/card': ['200|201', '400', '401', '422', '429'],
  'GET /api/v1/transactions/{transactionId}': ['204|2XX', '401', '403', '404', '429'],
  'GET /api/v1/balance': ['200', '401', '429'],
  'GET /api/v1/webhook': ['2XX', '401', '429'],
  'POST /api/v1/webhook': ['200', '400', '401', '422', '429'],
  'DELETE /api/v1/webhook/{id}': ['2XX', '401', '404', '429'],
};

const PARTNER_STATUS_TABLE: Record<string, string[]> = {
  'GET /business/pix-charges': ['2XX', '401', '422'],
  'POST /business/pix-charges': ['200', '401', '409', '422'],
  'GET /business/pix-charges/{id}': ['2XX', '401', '404'],
  'POST /business/pix-charges/{id}/cancel': ['2XX', '401', '404', '409'],
  'POST /business/pix-charges/{id}/pay': ['2XX', '401', '403', '404', '409'],
  'GET /business/finance': ['2XX', '401'],
};

const table = (t: Record<string, string[]>): string[] => Object.entries(t).flatMap(([op, statuses]) => statuses.map((s) => `${op} → ${s}`));

describe('statuses: (operation × documented status), from the specs', () => {
  it('gateway: every route and the statuses its responses document (success statuses as one cell)', () => {
    expect(statusCells(specDocument('gateway')).map((c) => c.operation).filter((op, i, all) => all.indexOf(op) === i)).toEqual(GATEWAY_ROUTES);
    expect(GATEWAY_STATUSES.cells).toEqual(table(GATEWAY_STATUS_TABLE));
  });
  it('partner', () => {
    expect(PARTNER_STATUSES.cells).toEqual(table(PARTNER_STATUS_TABLE));
  });
  it('429 cannot be provoked by a documented request: untryable with the reason; nothing else is', () => {
    const untryable = Object.keys(GATEWAY_STATUSES.untryable ?? {});
    expect(untryable).toEqual(GATEWAY_ROUTES.map((op) => `${op} → 429`));
    expect(Object.keys(PARTNER_STATUSES.untryable ?? {})).toEqual([]);
  });
  it('an expectation tries the cells of the statuses it names on the exchange route', () => {
    expect(statusCellsTried('GET /api/v1/pix/in/qrcode/{transactionId}', [404, 403])?.cells).toEqual(['GET /api/v1/pix/in/qrcode/{transactionId} → 404', 'GET /api/v1/pix/in/qrcode/{transactionId} → 403']);
    expect(statusCellsTried('POST /api/v1/card', ['2xx'])?.cells).toEqual(['POST /api/v1/card → 200|201']);
    expect(statusCellsTried('POST /api/v1/card', [201])?.cells).toEqual(['POST /api/v1/card → 200|201']);
    expect(statusCellsTried('POST /api/v1/card', ['4xx'])).toBeUndefined(); // a class names no one status
    expect(statusCellsTried('POST /api/v1/card', [404])).toBeUndefined(); // not documented for the route
    expect(statusCellsTried(undefined, [404])).toBeUndefined();
    expect(statusCellsTried('POST /business/pix-charges/{id}/pay', [409])?.relation).toBe(PARTNER_STATUSES);
  });
  it('judgeStatus inside any rule covers the tried cells, whatever the answer', () => {
    const rule = defineRule({
      name: 'probeStatus',
      requirements: [],
      codes: { 'probe.status': 'failure' },
      judge(o: { status: number }, v) {
        judgeStatus(v, exchange(o.status, { error: 'NOT_FOUND', message: 'x' }, { operation: 'GET /api/v1/pix/out/pixkey/{transferId}' }), 404, { unexpected: 'probe.status' });
      },
    });
    for (const status of [404, 422]) {
      const j = rule.judge({ status });
      expect(j.covered).toEqual([{ relation: 'gateway.statuses', cells: ['GET /api/v1/pix/out/pixkey/{transferId} → 404'] }]);
    }
    expect(rule.judge({ status: 422 }).findings.map((f) => f.code)).toEqual(['probe.status']);
  });
  it('coversIn: a cell of another relation than the rule\'s own, checked against that relation', () => {
    const rule = defineRule({
      name: 'probeCoversIn',
      requirements: [],
      codes: {},
      judge(cell: string, v) {
        v.coversIn(PARTNER_STATUSES, cell);
      },
    });
    expect(rule.judge('GET /business/finance → 401').covered).toEqual([{ relation: 'partner.statuses', cells: ['GET /business/finance → 401'] }]);
    expect(() => rule.judge('GET /business/finance → 404')).toThrow(/not a cell of partner.statuses/);
  });
  it('every check of an API declares its contract relations', () => {
    expect(contractRelations('gateway').map((r) => r.id)).toEqual(['gateway.statuses', 'gateway.response-enums']);
    expect(contractRelations('both').map((r) => r.id)).toEqual(['gateway.statuses', 'gateway.response-enums', 'partner.statuses', 'partner.response-enums']);
  });
});

describe('response enums: (schema pointer × value), from the specs', () => {
  it('gateway', () => {
    expect(GATEWAY_RESPONSE_ENUMS.cells).toEqual([
      ...['pending', 'paid', 'refused', 'refunded'].map((v) => `#/components/schemas/PixChargeStatus = "${v}"`),
      '#/components/schemas/NotFoundError/properties/error = "NOT_FOUND"',
      '#/components/schemas/PixPaySimulation/properties/status = "paid"',
      ...['pending', 'banking_processing', 'completed', 'refused'].map((v) => `#/components/schemas/PixTransferStatus = "${v}"`),
      '#/components/schemas/IdempotencyConflictError/properties/error = "IDEMPOTENCY_CONFLICT"',
      '#/components/schemas/PixCompleteSimulation/properties/status = "completed"',
      ...['paid', 'pending', 'refused'].map((v) => `#/components/schemas/CardChargeStatus = "${v}"`),
    ]);
    expect(Object.keys(GATEWAY_RESPONSE_ENUMS.untryable ?? {})).toHaveLength(5);
  });
  it('partner: expired needs the expiry timer', () => {
    expect(PARTNER_RESPONSE_ENUMS.cells).toEqual([
      ...['pending', 'paid', 'expired', 'canceled'].map((v) => `#/components/schemas/ChargeStatus = "${v}"`),
      '#/components/schemas/FinanceStatement/properties/currency = "BRL"',
      '#/components/schemas/LedgerEntry/properties/direction = "debit"',
      '#/components/schemas/LedgerEntry/properties/direction = "credit"',
    ]);
    expect(PARTNER_RESPONSE_ENUMS.timerCells).toEqual(['#/components/schemas/ChargeStatus = "expired"']);
  });
  it('sites walk $ref, allOf/anyOf, properties and array items', () => {
    const doc = { components: { schemas: { S: { enum: ['a', 'b'] } } } };
    const schema = { allOf: [{ properties: { list: { items: { properties: { s: { $ref: '#/components/schemas/S' } } } } } }], properties: { c: { const: 'K' }, n: { const: 1 } } };
    expect(enumSites(doc, schema, '#/x')).toEqual([
      { path: ['list', '*', 's'], pointer: '#/components/schemas/S', values: ['a', 'b'] },
      { path: ['c'], pointer: '#/x/properties/c', values: ['K'] },
    ]);
  });
  it('a body carrying a value tries its cell, in any letter case (the schema rule judges the case)', () => {
    expect(responseEnumCellsCarried('gateway', 'GET /api/v1/pix/in/qrcode/{transactionId}', '200', { success: true, data: { status: 'paid' } })).toEqual(['#/components/schemas/PixChargeStatus = "paid"']);
    expect(responseEnumCellsCarried('gateway', 'GET /api/v1/pix/in/qrcode/{transactionId}', '200', { success: true, data: { status: 'PAID' } })).toEqual(['#/components/schemas/PixChargeStatus = "paid"']);
    expect(responseEnumCellsCarried('gateway', 'GET /api/v1/pix/in/qrcode/{transactionId}', '200', { data: { status: 'unknown' } })).toEqual([]);
  });
  it('the schema rule covers what a validated body carries', () => {
    const json = { success: true, data: { status: 'banking_processing' } };
    const ex = exchange(200, json, { operation: 'GET /api/v1/pix/out/pixkey/{transferId}' });
    const facts = {
      exchange: ex,
      api: 'gateway',
      operation: 'GET /api/v1/pix/out/pixkey/{transferId}',
      status: 200,
      retried: false,
      operationRequirements: [],
      documentRequirement: 'GW-BODY-JSON',
      documentedStatuses: ['200'],
      response: { key: '200', requirements: [], body: { mediaType: 'application/json', receivedMediaType: 'application/json', contentType: 'application/json', open: undefined, empty: false, parsed: true, shown: '', json, validated: true, schemaRequirements: [], schemaErrors: [] } },
    } as unknown as ResponseFacts;
    expect(matchResponseSchemas.judge(facts).covered).toEqual([{ relation: 'gateway.response-enums', cells: ['#/components/schemas/PixTransferStatus = "banking_processing"'] }]);
  });
});

describe('request enums: (field × value), from the specs', () => {
  it('gateway: document types, currencies, PIX key kinds, event names (hidden names untryable)', () => {
    const cells = requestEnumCells(specDocument('gateway'));
    expect(cells.map((c) => c.cell)).toEqual(GATEWAY_REQUEST_ENUMS.cells);
    expect(GATEWAY_REQUEST_ENUMS.cells).toEqual([
      'POST /api/v1/pix/in/qrcode · amountInCents = 100 (minimum)',
      'POST /api/v1/pix/in/qrcode · customer.documentType = cpf',
      'POST /api/v1/pix/in/qrcode · customer.documentType = cnpj',
      ...['CPF', 'CNPJ (numeric or alphanumeric)', 'CPF with punctuation (ambiguous)', 'CNPJ with punctuation (ambiguous)', 'e-mail', 'phone with +55 prefix', 'random key (UUID)'].map((k) => `POST /api/v1/pix/out/pixkey · pixKey = ${k}`),
      'POST /api/v1/pix/out/pixkey · amount = 1 (minimum)',
      'POST /api/v1/pix/out/pixkey · currency = BRL',
      'POST /api/v1/card · amountInCents = 100 (minimum)',
      'POST /api/v1/card · currency = USD',
      'POST /api/v1/card · currency = EUR',
      'POST /api/v1/card · card.installments = 1 (minimum)',
      'POST /api/v1/card · customer.documentType = cpf',
      'POST /api/v1/card · customer.documentType = cnpj',
      ...['transaction_created', 'transaction_paid', 'transaction_refunded', 'transaction_updated', 'infraction', 'transfer_created', 'transfer_updated', 'transfer_completed', 'transfer_canceled', 'subscription_created', 'subscription_charged', 'subscription_payment_failed', 'subscription_canceled'].map((e) => `POST /api/v1/webhook · events[] = ${e}`),
    ]);
    expect(cells.filter((c) => c.ambiguous).map((c) => c.value)).toEqual(['CPF with punctuation (ambiguous)', 'CNPJ with punctuation (ambiguous)', 'subscription_created', 'subscription_charged', 'subscription_payment_failed', 'subscription_canceled']);
    expect(Object.keys(GATEWAY_REQUEST_ENUMS.untryable ?? {})).toEqual(GATEWAY_REQUEST_ENUMS.cells.filter((c) => c.includes('subscription_')));
  });
  it('partner: the status filter, the edges of the creation ranges (the least integer above an exclusive minimum)', () => {
    expect(PARTNER_REQUEST_ENUMS.cells).toEqual([
      ...['pending', 'paid', 'expired', 'canceled'].map((s) => `GET /business/pix-charges · ?status = ${s}`),
      'POST /business/pix-charges · amount_cents = 1 (minimum)',
      'POST /business/pix-charges · expires_in_seconds = 60 (minimum)',
      'POST /business/pix-charges · expires_in_seconds = 86400 (maximum)',
    ]);
  });
  it('range edges: integer bounds, exclusive ones moved inside; a number with an exclusive bound has no edge', () => {
    const doc = { paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { properties: {
      a: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
      b: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
      c: { type: 'integer' },
    } } } } } } } } };
    expect(requestEnumCells(doc).map((c) => [c.cell, c.edge?.number])).toEqual([
      ['POST /x · a = 1 (minimum)', 1],
      ['POST /x · a = 9 (maximum)', 9],
      ['POST /x · b = 100 (maximum)', 100],
    ]);
  });
});

describe('the rules trying the cells', () => {
  const listUrl = 'https://psp.example/v1/business/pix-charges?status=x';
  it('filterByStatus: a documented state tries its cell; an undocumented value may be served or refused, never a 5xx', () => {
    const served = filterByStatus.judge({ kind: 'answer', answer: ptAnswer(200, []), state: 'expired' });
    expect(served.covered).toEqual([{ relation: 'partner.request-enums', cells: ['GET /business/pix-charges · ?status = expired'] }]);
    const refusedState = filterByStatus.judge({ kind: 'answer', answer: ptAnswer(422, { detail: 'status' }), state: 'expired' });
    expect(codes(refusedState)).toEqual(['list.filter-status']);
    for (const status of [200, 400, 422]) expect(codes(filterByStatus.judge({ kind: 'undocumented', answer: ptAnswer(status, status === 200 ? [] : { detail: 'status' }, listUrl), value: 'x' }))).toEqual([]);
    expect(codes(filterByStatus.judge({ kind: 'undocumented', answer: ptAnswer(500, { detail: 'boom' }, listUrl), value: 'x' }))).toEqual(['list.filter-undocumented-status']);
  });
  it('acceptDocumentedRequestEdges: a valid creation at an edge tries its cells; refused, the request table fails it', () => {
    const cells = ['POST /business/pix-charges · expires_in_seconds = 86400 (maximum)'];
    const judged = (status: number) => acceptDocumentedRequestEdges.judge({ cells, judged: { case: 'valid', body: { amount_cents: 100, expires_in_seconds: 86400 }, answer: ptAnswer(status, status === 200 ? { id: 'c1', status: 'pending' } : { detail: 'expires_in_seconds too large' }), edges: ['expires_in_seconds'] } });
    expect(judged(200).covered).toEqual([{ relation: 'partner.request-enums', cells }]);
    expect(codes(judged(200))).toEqual([]);
    expect(codes(judged(422))).toEqual(['charge-request.valid-body-refused']);
  });
  it('provokePayConflict: a pay of a paid charge tries the 409 cell; accepting it is the states rule finding', () => {
    const first = ptAnswer(200, {});
    const ok = provokePayConflict.judge({ first, again: ptAnswer(409, { detail: 'not pending' }) });
    expect(ok.covered?.filter((c) => c.relation === 'partner.statuses')).toEqual([{ relation: 'partner.statuses', cells: ['POST /business/pix-charges/{id}/pay → 409'] }]);
    expect(codes(ok)).toEqual([]);
    expect(codes(provokePayConflict.judge({ first, again: ptAnswer(200, {}) }))).toEqual(['paid-terminal.pay-accepted']);
    // the first pay failed: the charge is not paid, the second request tried nothing
    expect((provokePayConflict.judge({ first: ptAnswer(404, { detail: 'x' }), again: ptAnswer(404, { detail: 'x' }) }).covered ?? []).filter((c) => c.relation === 'partner.statuses')).toEqual([]);
  });
  it('acceptDocumentedRequestEnums: a documented value refused fails in its route table; an ambiguous key may be refused', () => {
    const cells = ['POST /api/v1/webhook · events[] = infraction'];
    const url = 'https://hooks.example/x';
    const refused = acceptDocumentedRequestEnums.judge({ cells, route: 'webhook', judged: { answer: { status: 400, json: { success: false, message: 'unknown event' }, exchange: exchange(400, {}) }, sent: { url, events: ['infraction'] } } });
    expect(refused.covered).toEqual([{ relation: 'gateway.request-enums', cells }]);
    expect(refused.findings.map((f) => [f.code, f.severity])).toEqual([['webhook.create-status', 'failure']]);
    const key = ['POST /api/v1/pix/out/pixkey · pixKey = CPF with punctuation (ambiguous)'];
    const open = acceptDocumentedRequestEnums.judge({ cells: key, route: 'transfer', judged: { case: 'open', row: 'pixKey', what: 'the key 529.982.247-25', answer: { status: 400, json: { success: false, message: 'pixKey' }, exchange: exchange(400, {}) } } });
    expect(open.findings).toEqual([]);
  });
});
