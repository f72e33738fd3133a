// harness/rules/partner/environments.ts: keys, environments, the service's address, payouts.
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { endBaseAddressInV1, keepEnvironmentsApart, keepPayoutsUnavailable, PAY_SIMULATION_ISOLATION, paySimulationOperations, refuseForeignPaySimulation, refuseSimulationInProduction, serveBothEnvironmentsAtOneAddress } from '../harness/rules/partner/index.js';
import type { LocatedList } from '../harness/rules/partner/index.js';
import { signPartner } from '../harness/webhooks/signatures.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('keepEnvironmentsApart ("Their data is independent")', () => {
  it('accepts 404 {detail} on a cross-environment lookup; another 4xx only warns', () => {
    expect(conforms(keepEnvironmentsApart.judge({ kind: 'lookup', answer: answer(404, { detail: 'not found' }), what: 'x' }))).toBe(true);
    expect(severities(keepEnvironmentsApart.judge({ kind: 'lookup', answer: answer(403, { detail: 'other env' }), what: 'x' }))).toEqual(['env.lookup-other-4xx:warning']);
  });
  it('fails a visible charge, and one listed by the other environment', () => {
    expect(codes(keepEnvironmentsApart.judge({ kind: 'lookup', answer: answer(200, { id: 'c' }), what: 'x' }))).toEqual(['env.visible']);
    const list: LocatedList = { items: [{ id: 'b', status: 'pending' }], shape: 'top-level array', paged: false };
    expect(conforms(keepEnvironmentsApart.judge({ kind: 'listed', list, foreignId: 'a', exchange: answer(200).exchange, whose: 'x' }))).toBe(true);
    expect(codes(keepEnvironmentsApart.judge({ kind: 'listed', list, foreignId: 'b', exchange: answer(200).exchange, whose: 'x' }))).toEqual(['env.shared-list']);
  });
  it('fails our charge returned for production\'s use of our key, and our capture in production\'s ledger', () => {
    expect(severities(keepEnvironmentsApart.judge({ kind: 'key-reuse', ourChargeId: 'pix_a', answer: answer(200, { id: 'pix_a' }) }))).toEqual(['env.idempotency-shared:failure']);
    expect(severities(keepEnvironmentsApart.judge({ kind: 'key-reuse', ourChargeId: 'pix_a', answer: answer(409, { detail: 'x' }) }))).toEqual(['env.idempotency-key-taken:warning']);
    expect(codes(keepEnvironmentsApart.judge({ kind: 'postings', statement: { transactions: [{ id: 't', description: 'PIX charge pix_a captured' }] }, ours: { id: 'pix_a' }, exchanges: [] }))).toEqual(['env.foreign-posting']);
  });
  it('only warns a production event at our sandbox endpoint, signed with our secret or not (one URL for both is not ruled out)', () => {
    const body = '{"data":{"external_ref":"ptc-theirs-2"}}';
    const d = { seq: 1, headers: { 'x-service-signature': signPartner({ secret: 'whsec', body }) }, rawBody: Buffer.from(body), bodyText: body, receivedAt: Date.now() };
    expect(severities(keepEnvironmentsApart.judge({ kind: 'deliveries', deliveries: [d], token: 'ptc-theirs-2', secret: 'whsec', exchanges: [] }))).toEqual(['env.foreign-event:warning']);
  });
});

describe('refuseSimulationInProduction ("Production answers 403.")', () => {
  it('accepts 403 {detail} and a charge left pending', () => {
    expect(conforms(refuseSimulationInProduction.judge({ kind: 'pay', answer: answer(403, { detail: 'sandbox only' }) }))).toBe(true);
    expect(conforms(refuseSimulationInProduction.judge({ kind: 'state', answer: answer(200), state: 'pending' }))).toBe(true);
  });
  it('fails a production charge paid, another status, a 403 without {detail}', () => {
    expect(codes(refuseSimulationInProduction.judge({ kind: 'pay', answer: answer(200, {}) }))).toEqual(['env.live-pay-status']);
    expect(codes(refuseSimulationInProduction.judge({ kind: 'pay', answer: answer(403, 'Forbidden') }))).toEqual(['error.partner-shape']);
    const paid = refuseSimulationInProduction.judge({ kind: 'state', answer: answer(200), state: 'paid' });
    expect(codes(paid)).toEqual(['env.live-paid']);
    expect(paid.requirements).toEqual(['PT-CHARGE-PAY-PROD-403']);
  });
});

describe('endBaseAddressInV1', () => {
  it('accepts /v1, warns otherwise', () => {
    expect(conforms(endBaseAddressInV1.judge('https://psp.example/v1'))).toBe(true);
    expect(severities(endBaseAddressInV1.judge('https://psp.example/v2'))).toEqual(['config.base-version:warning']);
  });
});

describe('serveBothEnvironmentsAtOneAddress', () => {
  it('accepts both keys served at one /v1 address', () => {
    expect(conforms(serveBothEnvironmentsAtOneAddress.judge({ sandbox: answer(200, {}), production: answer(200, {}) }))).toBe(true);
  });
  it('fails a key refused there, and two addresses', () => {
    expect(codes(serveBothEnvironmentsAtOneAddress.judge({ sandbox: answer(200, {}), production: answer(401, { detail: 'x' }) }))).toEqual(['env.key-refused']);
    expect(codes(serveBothEnvironmentsAtOneAddress.judge({ sandbox: answer(200, {}), production: answer(200, {}, 'https://live.example/v1/business/pix-charges') }))).toEqual(['env.address-differs']);
  });
});

describe('keepPayoutsUnavailable', () => {
  it('accepts any 4xx (404 or 403: not shown)', () => {
    expect(conforms(keepPayoutsUnavailable.judge(answer(404)))).toBe(true);
    expect(conforms(keepPayoutsUnavailable.judge(answer(403)))).toBe(true);
  });
  it('reports a 2xx and a 5xx, as warnings (PT-PAYOUT-UNAVAILABLE is ambiguous)', () => {
    expect(severities(keepPayoutsUnavailable.judge(answer(201)))).toEqual(['payout.available:warning']);
    expect(severities(keepPayoutsUnavailable.judge(answer(500)))).toEqual(['payout.status:warning']);
  });
});

describe('the pay simulation isolation relation (callers × charge environments)', () => {
  it('derives the route from the spec: five callers-on-charges cells', () => {
    expect(paySimulationOperations({ paths: { '/business/pix-charges/{id}/pay': { post: {} }, '/business/pix-charges/{id}': { get: {} } } })).toEqual(['POST /business/pix-charges/{id}/pay']);
    expect(PAY_SIMULATION_ISOLATION.cells).toEqual([
      'POST /business/pix-charges/{id}/pay · the production key · a sandbox charge',
      'POST /business/pix-charges/{id}/pay · the production key · a production charge',
      'POST /business/pix-charges/{id}/pay · the sandbox key · a production charge',
      "POST /business/pix-charges/{id}/pay · another account's sandbox key · a sandbox charge",
      "POST /business/pix-charges/{id}/pay · another account's sandbox key · a production charge",
    ]);
  });
  it('a key of the other environment: 403 or 404 {detail} pass (which one is not stated), paying fails', () => {
    const judged = refuseForeignPaySimulation.judge({ caller: 'sandbox', resource: 'production', answer: answer(404, { detail: 'not found' }) });
    expect(conforms(judged)).toBe(true);
    expect(judged.covered?.[0]?.cells).toEqual(['POST /business/pix-charges/{id}/pay · the sandbox key · a production charge']);
    expect(conforms(refuseForeignPaySimulation.judge({ caller: 'production', resource: 'sandbox', answer: answer(403, { detail: 'production' }) }))).toBe(true);
    expect(codes(refuseForeignPaySimulation.judge({ caller: 'sandbox', resource: 'production', answer: answer(200, { id: 'c1', status: 'paid' }) }))).toEqual(['env.simulated-across']);
    expect(codes(refuseForeignPaySimulation.judge({ caller: 'sandbox', resource: 'production', answer: answer(409, { detail: 'x' }) }))).toEqual(['env.lookup-status']);
  });
  it('the production key on its own charge: 403; another account: 404 on a sandbox charge, 403 or 404 on a production one', () => {
    expect(conforms(refuseForeignPaySimulation.judge({ caller: 'production', resource: 'production', answer: answer(403, { detail: 'production' }) }))).toBe(true);
    expect(codes(refuseForeignPaySimulation.judge({ caller: 'production', resource: 'production', answer: answer(404, { detail: 'x' }) }))).toEqual(['env.live-pay-status']);
    expect(codes(refuseForeignPaySimulation.judge({ caller: 'other-account', resource: 'sandbox', answer: answer(403, { detail: 'x' }) }))).toEqual(['account.status']);
    // both boundaries crossed: which one the target checks first is open
    expect(conforms(refuseForeignPaySimulation.judge({ caller: 'other-account', resource: 'production', answer: answer(403, { detail: 'x' }) }))).toBe(true);
    expect(conforms(refuseForeignPaySimulation.judge({ caller: 'other-account', resource: 'production', answer: answer(404, { detail: 'x' }) }))).toBe(true);
    expect(codes(refuseForeignPaySimulation.judge({ caller: 'other-account', resource: 'production', answer: answer(200, { id: 'c1', status: 'paid' }) }))).toEqual(['env.simulated-across']);
  });
});
