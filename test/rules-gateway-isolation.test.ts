import { describe, expect, it } from 'vitest';
import {
  findListedById,
  hideOtherAccountsResources,
  isolateSandboxData,
  refuseForeignSimulation,
  refuseSimulationWithProductionCredentials,
  selectEnvironmentByCredentials,
  SIMULATION_ISOLATION,
  simulationRoutes,
} from '../harness/rules/gateway/isolation.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

const NOTHING = { rule: expect.any(String) as unknown, requirements: [], findings: [] };
const transfer = (id: string) => ({ success: true, data: { id, status: 'banking_processing' } });
const notFound = { error: 'NOT_FOUND', message: 'x' };

describe('isolateSandboxData ("Sandbox data is isolated, the sandbox balance … separate, webhooks … registered separately")', () => {
  it('a read: 404 with the pinned code and 403 pass; a 2xx fails; a 404 without the pinned code fails', () => {
    expect(found(isolateSandboxData.judge({ kind: 'read', answer: answer(404, notFound), pin: 'charge-lookup' }))).toEqual([]);
    expect(found(isolateSandboxData.judge({ kind: 'read', answer: answer(403, { success: false, message: 'x' }) }))).toEqual([]);
    expect(found(isolateSandboxData.judge({ kind: 'read', answer: answer(200, { data: {} }) }))).toEqual(['failure:isolation.sandbox-visible']);
    expect(found(isolateSandboxData.judge({ kind: 'read', answer: answer(404, { success: false, message: 'x' }), pin: 'transfer-lookup' }))).toEqual(['failure:error.code-missing']);
  });

  const w = (sb: number, sa: number, pb: number, pa: number) => ({ kind: 'balance' as const, window: { sandboxBefore: sb, sandboxAfter: sa, productionBefore: pb, productionAfter: pa, exchanges: [exchange(200, {})] } });
  it('the balance: an unmoved production balance and real traffic of another amount pass', () => {
    expect(found(isolateSandboxData.judge(w(0, 990, 5_000, 5_000)))).toEqual([]);
    expect(found(isolateSandboxData.judge(w(0, 990, 5_000, 7_500)))).toEqual([]);
    expect(isolateSandboxData.judge(w(0, 990, 0, 0)).requirements).toEqual(['GW-ENV-BALANCE-SEPARATE', 'GW-ENV-ISOLATION']);
  });
  it('the balance: a production balance moved by the sandbox amount fails; a sandbox that did not move decides nothing', () => {
    expect(found(isolateSandboxData.judge(w(100, 1_090, 5_000, 5_990)))).toEqual(['failure:env.balance-shared']);
    expect(isolateSandboxData.judge(w(100, 100, 5_000, 5_000))).toEqual(NOTHING);
  });

  const hook = { id: 7, url: 'http://127.0.0.1:1/gw/abc', exchange: exchange(200, {}) };
  it('the production webhook list: passes without our webhook (any shape), fails one that shows it', () => {
    expect(found(isolateSandboxData.judge({ kind: 'webhook-list', list: answer(200, { data: [{ id: 7, url: 'http://elsewhere' }] }), hook }))).toEqual([]);
    expect(found(isolateSandboxData.judge({ kind: 'webhook-list', list: answer(200, { data: { items: [{ id: 7, url: hook.url }] } }), hook }))).toEqual(['failure:isolation.webhook-visible']);
  });
  it('a webhook registered with the production token: deliveries about other resources pass, one naming ours fails', () => {
    expect(found(isolateSandboxData.judge({ kind: 'webhook-delivery', deliveries: [], resourceIds: ['c1'] }))).toEqual([]);
    expect(found(isolateSandboxData.judge({ kind: 'webhook-delivery', deliveries: [{ bodyText: '{"transaction":{"id":"other"}}', hook: 'prod' }], resourceIds: ['c1'] }))).toEqual([]);
    const j = isolateSandboxData.judge({ kind: 'webhook-delivery', deliveries: [{ bodyText: '{"transaction":{"id":"c1"}}', hook: 'prod' }], resourceIds: ['c1'] });
    expect(found(j)).toEqual(['failure:isolation.webhook-delivered-across']);
    expect(j.requirements).toEqual(['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION']);
  });
  it('findListedById finds nested entries', () => {
    expect(findListedById({ a: { b: [{ id: '7' }] } }, 7)).toEqual({ id: '7' });
    expect(findListedById([], 7)).toBeUndefined();
  });
});

describe('hideOtherAccountsResources ("404 | resource not found or belongs to another account")', () => {
  it('a request: 404 passes (with the pinned code); 403 warns; a 2xx fails', () => {
    expect(found(hideOtherAccountsResources.judge({ kind: 'request', answer: answer(404, notFound), pin: 'charge-lookup' }))).toEqual([]);
    expect(found(hideOtherAccountsResources.judge({ kind: 'request', answer: answer(403, {}) }))).toEqual(['warning:isolation.403-for-other-account']);
    expect(found(hideOtherAccountsResources.judge({ kind: 'request', answer: answer(200, { data: {} }) }))).toEqual(['failure:isolation.other-account-visible']);
    expect(found(hideOtherAccountsResources.judge({ kind: 'request', answer: answer(404, { success: false, message: 'x' }), pin: 'charge-lookup' }))).toEqual(['failure:error.code-missing']);
  });
  it('after the requests: a pending charge and a processing transfer pass; a paid charge or a completed transfer fail', () => {
    const c = answer(200, {});
    expect(found(hideOtherAccountsResources.judge({ kind: 'after', state: { by: 'x', charge: { answer: c, status: 'pending' }, transfer: { answer: c, status: 'banking_processing' } } }))).toEqual([]);
    expect(found(hideOtherAccountsResources.judge({ kind: 'after', state: { by: 'x', charge: { answer: c, status: 'paid' }, transfer: { answer: c, status: 'completed' } } }))).toEqual(['failure:isolation.changed-by-other-account', 'failure:isolation.changed-by-other-account']);
  });
  it('an idempotency key: a transfer of its own passes; this account\'s transfer fails; a 409 warns', () => {
    const j = hideOtherAccountsResources.judge({ kind: 'idempotency-key', mine: answer(200, transfer('a1')), theirs: answer(200, transfer('b1')) });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-ERR-404-OTHER-ACCOUNT']);
    expect(found(hideOtherAccountsResources.judge({ kind: 'idempotency-key', mine: answer(200, transfer('a1')), theirs: answer(200, transfer('a1')) }))).toEqual(['failure:idempotency.cross-account']);
    expect(found(hideOtherAccountsResources.judge({ kind: 'idempotency-key', mine: answer(200, transfer('a1')), theirs: answer(409, { error: 'IDEMPOTENCY_CONFLICT' }) }))).toEqual(['warning:idempotency.cross-account-409']);
  });
  it('an idempotency key: either creation failing for its own reasons decides nothing', () => {
    expect(hideOtherAccountsResources.judge({ kind: 'idempotency-key', mine: answer(400, {}), theirs: answer(200, transfer('b1')) })).toEqual(NOTHING);
    expect(hideOtherAccountsResources.judge({ kind: 'idempotency-key', mine: answer(200, transfer('a1')), theirs: answer(403, {}) })).toEqual(NOTHING);
  });
  it("another account's webhook: a delivery naming our resource fails", () => {
    expect(found(hideOtherAccountsResources.judge({ kind: 'webhook-delivery', deliveries: [], resourceIds: ['c1'] }))).toEqual([]);
    expect(found(hideOtherAccountsResources.judge({ kind: 'webhook-delivery', deliveries: [{ bodyText: '{"transaction":{"id":"c1"}}', hook: 'other' }], resourceIds: ['c1'] }))).toEqual(['failure:isolation.delivered-to-other-account']);
  });
});

describe('refuseSimulationWithProductionCredentials ("with production credentials they answer 403")', () => {
  it('403 passes and decides the route, the sentence and the 403 row; any other status fails', () => {
    const j = refuseSimulationWithProductionCredentials.judge({ kind: 'call', route: 'pay', answer: answer(403, { success: false, message: 'sandbox only' }) });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-PIXIN-PAY-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING']);
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'call', route: 'complete', answer: answer(404, notFound) }))).toEqual(['failure:isolation.simulation-not-403']);
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'call', route: 'pay', answer: answer(200, {}) }))).toEqual(['failure:isolation.simulation-not-403']);
  });
  it('after the calls: a changed resource fails', () => {
    const c = answer(200, {});
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'after', state: { by: 'x', charge: { answer: c, status: 'pending' } } }))).toEqual([]);
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'after', state: { by: 'x', charge: { answer: c, status: 'paid' } } }))).toEqual(['failure:isolation.simulated-in-production']);
  });
});

describe('selectEnvironmentByCredentials ("Two environments share the same host. The environment is chosen by the credential pair")', () => {
  const auth = (status: number, url = 'http://127.0.0.1:9/api/auth') => ({ status, json: {}, exchange: exchange(status, {}, { url }) });
  it('passes two 200 exchanges at one origin', () => {
    const j = selectEnvironmentByCredentials.judge({ sandbox: auth(200), live: auth(200) });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-ENV-SAME-HOST', 'GW-ENV-BY-CREDENTIALS']);
  });
  it('fails a production pair refused at that host, or two hosts', () => {
    expect(found(selectEnvironmentByCredentials.judge({ sandbox: auth(200), live: auth(401) }))).toEqual(['failure:env.pair-refused']);
    expect(found(selectEnvironmentByCredentials.judge({ sandbox: auth(200, 'http://a:1/api/auth'), live: auth(200, 'http://b:1/api/auth') }))).toEqual(['failure:env.different-host']);
  });
});

describe('the simulation isolation relation (callers × resource environments of /pay and /complete)', () => {
  it('derives the routes from the spec and lists production transfers as untryable', () => {
    expect(SIMULATION_ISOLATION.cells).toHaveLength(10);
    expect(SIMULATION_ISOLATION.cells).toContain('POST /api/v1/pix/in/qrcode/{transactionId}/pay · sandbox credentials · a production resource');
    expect(Object.keys(SIMULATION_ISOLATION.untryable ?? {})).toEqual([
      'POST /api/v1/pix/out/pixkey/{transferId}/complete · production credentials · a production resource',
      'POST /api/v1/pix/out/pixkey/{transferId}/complete · sandbox credentials · a production resource',
      "POST /api/v1/pix/out/pixkey/{transferId}/complete · another account's sandbox credentials · a production resource",
    ]);
    expect(simulationRoutes({ paths: { '/a/{id}/pay': { post: {} }, '/a/{id}': { get: {} }, '/b/{id}/complete': { post: {} } } })).toEqual([{ route: 'pay', operation: 'POST /a/{id}/pay' }, { route: 'complete', operation: 'POST /b/{id}/complete' }]);
  });
  it('sandbox credentials on a production resource: 403 passes, 404 warns, a 2xx fails; the cell is covered', () => {
    const forbidden = refuseForeignSimulation.judge({ route: 'pay', actor: 'sandbox', resource: 'production', answer: answer(403, { success: false, message: 'resource not owned by a sandbox key' }) });
    expect(found(forbidden)).toEqual([]);
    expect(forbidden.covered).toEqual([{ relation: 'gateway.simulation-isolation', cells: ['POST /api/v1/pix/in/qrcode/{transactionId}/pay · sandbox credentials · a production resource'] }]);
    expect(found(refuseForeignSimulation.judge({ route: 'pay', actor: 'sandbox', resource: 'production', answer: answer(404, notFound) }))).toEqual(['warning:isolation.404-not-owned']);
    expect(found(refuseForeignSimulation.judge({ route: 'pay', actor: 'sandbox', resource: 'production', answer: answer(200, { data: { status: 'paid' } }) }))).toEqual(['failure:isolation.simulated-not-owned']);
    expect(found(refuseForeignSimulation.judge({ route: 'pay', actor: 'sandbox', resource: 'production', answer: answer(400, { success: false, message: 'x' }) }))).toEqual(['failure:isolation.simulation-not-403']);
  });
  it('production credentials get 403 and another account 404, on either resource', () => {
    expect(found(refuseForeignSimulation.judge({ route: 'complete', actor: 'production', resource: 'sandbox', answer: answer(403, { success: false, message: 'x' }) }))).toEqual([]);
    expect(found(refuseForeignSimulation.judge({ route: 'pay', actor: 'production', resource: 'production', answer: answer(200, { data: {} }) }))).toEqual(['failure:isolation.simulation-not-403']);
    expect(found(refuseForeignSimulation.judge({ route: 'pay', actor: 'other-account', resource: 'production', answer: answer(404, notFound) }))).toEqual([]);
  });
  it('the production charge read afterwards is still pending', () => {
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'not-owned-after', lookup: answer(200, { data: { status: 'pending' } }) }))).toEqual([]);
    expect(found(refuseSimulationWithProductionCredentials.judge({ kind: 'not-owned-after', lookup: answer(200, { data: { status: 'paid' } }) }))).toEqual(['failure:isolation.simulated-not-owned']);
  });
});
