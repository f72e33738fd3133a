// The isolation relation of both APIs (harness/rules/isolation-cells.ts, gateway/isolation.ts,
// partner/isolation-matrix.ts): the cell lists pinned against the specs, the derivation on a small
// spec, the rules judging one cell, and the untried reason that names a missing credential.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FOREIGN_PAIRS, specOperations, type IsolationCell } from '../harness/rules/isolation-cells.js';
import { GATEWAY_ISOLATION, GATEWAY_ISOLATION_CELLS, GATEWAY_MONEY_MOVING, gatewayIsolationCell, gatewayIsolationCells, isolateAccountsAndEnvironments } from '../harness/rules/gateway/isolation.js';
import { isolatePartnerData, PARTNER_ISOLATION, PARTNER_ISOLATION_CELLS, partnerIsolationCell, partnerIsolationCells } from '../harness/rules/partner/index.js';
import type { LocatedList } from '../harness/rules/partner/index.js';
import { CheckRun } from '../harness/run/check-run.js';
import { endCheck } from '../harness/run/outcome.js';
import { relationCoverage } from '../harness/report/verdict-relations.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';
import { answer as partnerAnswer, codes } from './rules-partner-fixtures.js';
import { outcome } from './report-fixtures.js';

const A = { sandbox: 'S', production: 'P', 'other-account': 'O' } as const;
const H = { 'own-sandbox': 'own-sb', 'own-production': 'own-prod', 'other-sandbox': 'other-sb' } as const;

/** `operation | kind` → `actor>home` per cell (`!` untryable, `~` timer), in derivation order. */
function table(cells: readonly IsolationCell[]): [string, string][] {
  const by = new Map<string, string[]>();
  for (const c of cells) by.set(`${c.operation} | ${c.kind}`, [...(by.get(`${c.operation} | ${c.kind}`) ?? []), `${A[c.actor]}>${H[c.home]}${c.untryable ? '!' : c.timer ? '~' : ''}`]);
  return [...by].map(([k, v]) => [k, v.join(' ')]);
}

describe('the gateway isolation relation (specs/gateway.openapi.yaml)', () => {
  it('pins the cell list: every route naming or listing a resource and every event, by crossing', () => {
    expect(table(GATEWAY_ISOLATION_CELLS)).toEqual([
      ['GET /api/v1/pix/in/qrcode/{transactionId} | PIX charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['POST /api/v1/pix/in/qrcode/{transactionId}/pay | PIX charge', 'P>own-sb P>other-sb P>own-prod S>own-prod O>own-sb O>own-prod'],
      ['GET /api/v1/pix/out/pixkey/{transferId} | PIX transfer', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['POST /api/v1/pix/out/pixkey/{transferId}/complete | PIX transfer', 'P>own-sb P>other-sb P>own-prod! S>own-prod! O>own-sb O>own-prod!'],
      ['GET /api/v1/transactions/{transactionId} | PIX charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['GET /api/v1/transactions/{transactionId} | card charge', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['GET /api/v1/webhook | webhook registration', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['DELETE /api/v1/webhook/{id} | webhook registration', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['event transaction_created | PIX charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['event transaction_paid | PIX charge', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['event transaction_refunded | PIX charge', 'P>own-sb! P>other-sb! S>own-prod! O>own-sb! O>own-prod!'],
      ['event transaction_updated | PIX charge', 'P>own-sb! P>other-sb! S>own-prod! O>own-sb! O>own-prod!'],
      ['event infraction | PIX charge', 'P>own-sb! P>other-sb! S>own-prod! O>own-sb! O>own-prod!'],
      ['event transfer_created | PIX transfer', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['event transfer_updated | PIX transfer', 'P>own-sb! P>other-sb! S>own-prod! O>own-sb! O>own-prod!'],
      ['event transfer_completed | PIX transfer', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['event transfer_canceled | PIX transfer', 'P>own-sb! P>other-sb! S>own-prod! O>own-sb! O>own-prod!'],
    ]);
    expect(GATEWAY_ISOLATION.cells).toHaveLength(87);
    expect(GATEWAY_ISOLATION.cells.length - Object.keys(GATEWAY_ISOLATION.untryable ?? {}).length).toBe(49);
    expect(GATEWAY_ISOLATION.cells).toContain("GET /api/v1/pix/in/qrcode/{transactionId} · sandbox credentials · the account's production PIX charge");
    expect(GATEWAY_ISOLATION.untryable?.["GET /api/v1/transactions/{transactionId} · sandbox credentials · the account's production card charge"]).toMatch(/POST \/api\/v1\/card\) is a money-moving request with production credentials/);
    expect(GATEWAY_ISOLATION.untryable?.["event infraction · a webhook registered with production credentials · the account's sandbox PIX charge"]).toBe('no documented route provokes infraction');
  });

  it('production credentials never make a resource whose creation test/safety.test.ts counts as money-moving', () => {
    const safety = readFileSync(new URL('./safety.test.ts', import.meta.url), 'utf8');
    const listed = /const MONEY_MOVING = new Set\(\[([^\]]*)\]\)/.exec(safety)?.[1] ?? '';
    expect([...listed.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort()).toEqual([...GATEWAY_MONEY_MOVING].sort());
    const production = GATEWAY_ISOLATION_CELLS.filter((c) => c.home === 'own-production' && c.untryable === undefined);
    expect(new Set(production.map((c) => c.kind))).toEqual(new Set(['PIX charge', 'webhook registration']));
  });

  it('derives from the spec: a new route naming a resource adds its cells; a spec without events has no delivery cells', () => {
    const spec = {
      paths: {
        '/api/v1/webhook/{id}': { get: { tags: ['webhooks'] }, delete: { tags: ['webhooks'] } },
        '/api/v1/balance': { get: { tags: ['balance'] } },
        '/api/v1/card': { post: { tags: ['card'] } },
      },
    };
    const cells = gatewayIsolationCells(spec);
    expect(cells.map((c) => c.operation)).toEqual([...Array(5).fill('GET /api/v1/webhook/{id}'), ...Array(5).fill('DELETE /api/v1/webhook/{id}')]);
    expect(cells.every((c) => c.form === 'by-id' && c.untryable === undefined)).toBe(true);
    expect(specOperations(spec).map((o) => o.byId)).toEqual([true, true, false, false]);
    expect(FOREIGN_PAIRS).toHaveLength(5);
  });
});

describe('the partner isolation relation (specs/partner.openapi.yaml)', () => {
  it('pins the cell list: by-id routes, the list by each status filter, the statement, the events at our endpoint', () => {
    expect(table(PARTNER_ISOLATION_CELLS)).toEqual([
      ['GET /business/pix-charges | pending charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['GET /business/pix-charges?status=pending | pending charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['GET /business/pix-charges?status=paid | paid charge', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['GET /business/pix-charges?status=expired | expired charge', 'P>own-sb~ P>other-sb~ S>own-prod~ O>own-sb~ O>own-prod~'],
      ['GET /business/pix-charges?status=canceled | canceled charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['GET /business/pix-charges/{id} | pending charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['POST /business/pix-charges/{id}/cancel | pending charge', 'P>own-sb P>other-sb S>own-prod O>own-sb O>own-prod'],
      ['POST /business/pix-charges/{id}/pay | pending charge', 'P>own-sb P>other-sb P>own-prod S>own-prod O>own-sb O>own-prod'],
      ['GET /business/finance | ledger posting', 'P>own-sb P>other-sb S>own-prod! O>own-sb O>own-prod!'],
      ['event business.pix.created | pending charge', 'S>own-prod S>other-sb'],
      ['event business.pix.paid | paid charge', 'S>own-prod! S>other-sb'],
      ['event business.pix.canceled | canceled charge', 'S>own-prod S>other-sb'],
    ]);
    expect(PARTNER_ISOLATION.cells).toHaveLength(52);
    expect(PARTNER_ISOLATION.timerCells).toHaveLength(5);
    expect(Object.keys(PARTNER_ISOLATION.untryable ?? {})).toHaveLength(5);
  });

  it('a list filter value the spec gains adds a list cell per crossing', () => {
    const spec = { paths: { '/business/pix-charges': { get: { tags: ['charges'], parameters: [{ name: 'status', in: 'query', schema: { $ref: '#/components/schemas/S' } }] } } }, components: { schemas: { S: { enum: ['pending', 'refunded'] } } } };
    expect(partnerIsolationCells(spec).map((c) => c.operation)).toEqual([...Array(5).fill('GET /business/pix-charges'), ...Array(5).fill('GET /business/pix-charges?status=pending'), ...Array(5).fill('GET /business/pix-charges?status=refunded')]);
  });
});

const notFound = { error: 'NOT_FOUND', message: 'x' };
const lookup = 'GET /api/v1/pix/in/qrcode/{transactionId}';

describe('isolateAccountsAndEnvironments (one gateway cell)', () => {
  it('across environments: 404 and 403 pass, a 2xx fails; the cell is covered', () => {
    const place = { form: 'by-id' as const, operation: lookup, actor: 'sandbox' as const, home: 'own-production' as const, kind: 'PIX charge' };
    const judged = isolateAccountsAndEnvironments.judge({ ...place, answer: answer(403, { success: false, message: 'resource not owned by a sandbox key' }) });
    expect(found(judged)).toEqual([]);
    expect(judged.covered).toEqual([{ relation: 'gateway.isolation', cells: [gatewayIsolationCell(lookup, 'sandbox', 'own-production', 'PIX charge')] }]);
    expect(found(isolateAccountsAndEnvironments.judge({ ...place, answer: answer(404, notFound), pin: 'charge-lookup' }))).toEqual([]);
    expect(found(isolateAccountsAndEnvironments.judge({ ...place, answer: answer(200, { data: { id: 'x' } }) }))).toEqual(['failure:isolation.sandbox-visible']);
  });

  it('another account in its own environment: 404 passes, 403 warns, a 2xx fails', () => {
    const place = { form: 'by-id' as const, operation: 'DELETE /api/v1/webhook/{id}', actor: 'other-account' as const, home: 'own-sandbox' as const, kind: 'webhook registration' };
    expect(found(isolateAccountsAndEnvironments.judge({ ...place, answer: answer(404, notFound) }))).toEqual([]);
    expect(found(isolateAccountsAndEnvironments.judge({ ...place, answer: answer(403, { success: false, message: 'x' }) }))).toEqual(['warning:isolation.403-for-other-account']);
    expect(found(isolateAccountsAndEnvironments.judge({ ...place, answer: answer(200, { success: true }) }))).toEqual(['failure:isolation.other-account-visible']);
  });

  it('simulation routes: the simulation relation is covered too; production credentials on another account accept 403 or 404', () => {
    const pay = 'POST /api/v1/pix/in/qrcode/{transactionId}/pay';
    const judged = isolateAccountsAndEnvironments.judge({ form: 'by-id', operation: pay, actor: 'sandbox', home: 'own-production', kind: 'PIX charge', answer: answer(403, { success: false, message: 'x' }) });
    expect(judged.covered?.map((c) => c.relation).sort()).toEqual(['gateway.isolation', 'gateway.simulation-isolation']);
    const across = { form: 'by-id' as const, operation: pay, actor: 'production' as const, home: 'other-sandbox' as const, kind: 'PIX charge' };
    expect(found(isolateAccountsAndEnvironments.judge({ ...across, answer: answer(404, notFound) }))).toEqual([]);
    expect(found(isolateAccountsAndEnvironments.judge({ ...across, answer: answer(403, { success: false, message: 'x' }) }))).toEqual([]);
    expect(found(isolateAccountsAndEnvironments.judge({ ...across, answer: answer(200, { data: { status: 'paid' } }) }))).toEqual(['failure:isolation.sandbox-visible']);
  });

  it('lists and deliveries: another home\'s webhook listed or delivered to fails, by the boundary crossed', () => {
    const hook = { id: 9, url: 'http://127.0.0.1:1/gw/x', exchange: exchange(200, {}) };
    const list = { form: 'list' as const, operation: 'GET /api/v1/webhook', kind: 'webhook registration', hook };
    expect(found(isolateAccountsAndEnvironments.judge({ ...list, actor: 'other-account', home: 'own-sandbox', list: answer(200, [{ id: 9, url: hook.url }]) }))).toEqual(['failure:isolation.other-account-listed']);
    expect(found(isolateAccountsAndEnvironments.judge({ ...list, actor: 'sandbox', home: 'own-production', list: answer(200, { data: [{ id: 9, url: hook.url }] }) }))).toEqual(['failure:isolation.webhook-visible']);
    expect(found(isolateAccountsAndEnvironments.judge({ ...list, actor: 'production', home: 'own-sandbox', list: answer(200, { data: [] }) }))).toEqual([]);
    const delivery = { form: 'delivery' as const, event: 'transaction_created', kind: 'PIX charge', resourceIds: ['c1'] };
    const leaked = [{ bodyText: '{"transaction":{"id":"c1"}}', hook: 'h' }];
    expect(found(isolateAccountsAndEnvironments.judge({ ...delivery, actor: 'sandbox', home: 'own-production', deliveries: leaked }))).toEqual(['failure:isolation.webhook-delivered-across']);
    expect(found(isolateAccountsAndEnvironments.judge({ ...delivery, actor: 'other-account', home: 'own-production', deliveries: leaked }))).toEqual(['failure:isolation.delivered-to-other-account']);
    expect(found(isolateAccountsAndEnvironments.judge({ ...delivery, actor: 'production', home: 'own-sandbox', deliveries: [] }))).toEqual([]);
  });
});

describe('isolatePartnerData (one partner cell)', () => {
  const byId = (operation: string, actor: 'sandbox' | 'production' | 'other-account', home: 'own-sandbox' | 'own-production' | 'other-sandbox') => ({ form: 'by-id' as const, operation, actor, home, kind: 'pending charge' });
  it('another account: 404 {detail} passes, anything else fails; across environments (and both) another 4xx only warns', () => {
    expect(codes(isolatePartnerData.judge({ ...byId('POST /business/pix-charges/{id}/cancel', 'other-account', 'own-production'), answer: partnerAnswer(404, { detail: 'x' }) }))).toEqual([]);
    expect(codes(isolatePartnerData.judge({ ...byId('GET /business/pix-charges/{id}', 'other-account', 'own-sandbox'), answer: partnerAnswer(403, { detail: 'x' }) }))).toEqual(['account.status']);
    expect(codes(isolatePartnerData.judge({ ...byId('GET /business/pix-charges/{id}', 'production', 'other-sandbox'), answer: partnerAnswer(403, { detail: 'x' }) }))).toEqual(['env.lookup-other-4xx']);
    expect(codes(isolatePartnerData.judge({ ...byId('GET /business/pix-charges/{id}', 'production', 'other-sandbox'), answer: partnerAnswer(200, { id: 'c' }) }))).toEqual(['env.visible']);
    expect(codes(isolatePartnerData.judge({ ...byId('POST /business/pix-charges/{id}/cancel', 'sandbox', 'own-production'), answer: partnerAnswer(200, { id: 'c', status: 'canceled' }) }))).toEqual(['env.visible']);
    expect(codes(isolatePartnerData.judge({ ...byId('GET /business/pix-charges/{id}', 'production', 'own-sandbox'), answer: partnerAnswer(403, { detail: 'x' }) }))).toEqual(['env.lookup-other-4xx']);
  });

  it('the pay simulation: the production key on another account\'s charge may answer 403 or 404', () => {
    const cell = byId('POST /business/pix-charges/{id}/pay', 'production', 'other-sandbox');
    expect(codes(isolatePartnerData.judge({ ...cell, answer: partnerAnswer(403, { detail: 'production' }) }))).toEqual([]);
    expect(codes(isolatePartnerData.judge({ ...cell, answer: partnerAnswer(404, { detail: 'x' }) }))).toEqual([]);
    const judged = isolatePartnerData.judge({ ...cell, answer: partnerAnswer(200, { status: 'paid' }) });
    expect(codes(judged)).toEqual(['env.simulated-across']);
    expect(judged.covered).toEqual([{ relation: 'partner.isolation', cells: [partnerIsolationCell('POST /business/pix-charges/{id}/pay', 'production', 'other-sandbox', 'pending charge')] }]);
  });

  it('a list filtered by status shows no charge of another account, nor of the other environment', () => {
    const list: LocatedList = { items: [{ id: 'theirs', status: 'paid' }], shape: 'top-level array', paged: false };
    const seen = { form: 'list' as const, operation: 'GET /business/pix-charges?status=paid', kind: 'paid charge', list, exchange: exchange(200, []) };
    expect(codes(isolatePartnerData.judge({ ...seen, actor: 'other-account', home: 'own-sandbox', foreignId: 'theirs' }))).toEqual(['list.other-account']);
    expect(codes(isolatePartnerData.judge({ ...seen, actor: 'production', home: 'own-sandbox', foreignId: 'theirs' }))).toEqual(['env.shared-list']);
    expect(codes(isolatePartnerData.judge({ ...seen, actor: 'other-account', home: 'own-sandbox', foreignId: 'ours' }))).toEqual([]);
  });
});

describe('an untried cell names the credential it needs', () => {
  it('CheckRun.cannotTry reaches the outcome and the report; a cell tried elsewhere is tried', () => {
    const run = new CheckRun('gateway.isolation.matrix', []);
    const [first, second] = GATEWAY_ISOLATION.cells.filter((c) => GATEWAY_ISOLATION.untryable?.[c] === undefined);
    run.cannotTry(GATEWAY_ISOLATION, [first!, second!], 'needs GATEWAY_OTHER_CLIENT_ID/GATEWAY_OTHER_CLIENT_SECRET (another account): not configured');
    const identity = { check: 'gateway.isolation.matrix', name: 'm', title: 'm', file: 'f', api: 'gateway' as const, area: 'Isolation', severity: 'critical' as const, requirements: [], relations: [GATEWAY_ISOLATION] };
    const ended = endCheck(identity, run, {}, { profile: 'quick', seed: 1, strict: false, durationMs: 1 });
    expect(ended.relations?.[0]?.cannotTry).toEqual({ [first!]: expect.stringMatching(/^needs GATEWAY_OTHER_CLIENT_ID/) as unknown, [second!]: expect.any(String) as unknown });
    const other = { ...ended.relations![0]!, cannotTry: undefined, tried: [second!] };
    const [coverage] = relationCoverage([outcome({ check: 'a', requirements: [], relations: ended.relations! }), outcome({ check: 'b', requirements: [], relations: [other] })], 'quick');
    expect(coverage?.untried.find((u) => u.cell === first)?.reason).toBe('needs GATEWAY_OTHER_CLIENT_ID/GATEWAY_OTHER_CLIENT_SECRET (another account): not configured');
    expect(coverage?.untried.some((u) => u.cell === second)).toBe(false);
  });
});
