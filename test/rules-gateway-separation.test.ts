// Separation of accounts and environments, money leaving the balance and the sandbox's "never
// confirm by themselves" (harness/rules/gateway/{separation,ledger,sandbox}.ts): each rule accepts
// and rejects, at the edges of its latitude.
import { describe, expect, it } from 'vitest';
import { ensureBalancesSeparate, ensureIdempotencyKeyScopedToAccount, ensureNoForeignDelivery } from '../harness/rules/gateway/separation.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

const NOTHING = { requirements: [], findings: [] };
const transfer = (id: string) => ({ success: true, data: { id, status: 'banking_processing' } });

describe('ensureIdempotencyKeyScopedToAccount', () => {
  it("passes when the other account gets a transfer of its own", () => {
    const j = ensureIdempotencyKeyScopedToAccount(answer(200, transfer('a1')), answer(200, transfer('b1')));
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-ERR-404-OTHER-ACCOUNT']);
  });

  it("fails when the other account gets this account's transfer, warns on 409", () => {
    expect(found(ensureIdempotencyKeyScopedToAccount(answer(200, transfer('a1')), answer(200, transfer('a1'))))).toEqual(['failure:idempotency.cross-account']);
    expect(found(ensureIdempotencyKeyScopedToAccount(answer(200, transfer('a1')), answer(409, { error: 'IDEMPOTENCY_CONFLICT' })))).toEqual(['warning:idempotency.cross-account']);
  });

  it('decides nothing when either creation failed for its own reasons', () => {
    expect(ensureIdempotencyKeyScopedToAccount(answer(400, {}), answer(200, transfer('b1')))).toEqual(NOTHING);
    expect(ensureIdempotencyKeyScopedToAccount(answer(200, transfer('a1')), answer(403, {}))).toEqual(NOTHING);
  });
});

describe('ensureBalancesSeparate', () => {
  const w = (sb: number, sa: number, pb: number, pa: number) => ({ sandboxBefore: sb, sandboxAfter: sa, productionBefore: pb, productionAfter: pa, exchanges: [exchange(200, {})] });
  it('passes an unmoved production balance and real traffic of another amount', () => {
    expect(found(ensureBalancesSeparate(w(0, 990, 5_000, 5_000)))).toEqual([]);
    expect(found(ensureBalancesSeparate(w(0, 990, 5_000, 7_500)))).toEqual([]);
    expect(ensureBalancesSeparate(w(0, 990, 0, 0)).requirements).toEqual(['GW-ENV-BALANCE-SEPARATE', 'GW-ENV-ISOLATION']);
  });

  it('fails a production balance that moved by the sandbox amount', () => {
    expect(found(ensureBalancesSeparate(w(100, 1_090, 5_000, 5_990)))).toEqual(['failure:env.balance-shared']);
  });

  it('decides nothing when the sandbox did not move', () => {
    expect(ensureBalancesSeparate(w(100, 100, 5_000, 5_000))).toEqual(NOTHING);
  });
});

describe('ensureNoForeignDelivery', () => {
  it('passes no delivery and deliveries about other resources', () => {
    expect(found(ensureNoForeignDelivery([], ['c1'], 'production'))).toEqual([]);
    expect(found(ensureNoForeignDelivery([{ bodyText: '{"transaction":{"id":"other"}}', hook: 'prod' }], ['c1'], 'production'))).toEqual([]);
  });

  it('fails a delivery naming a sandbox resource, with the requirements of who received it', () => {
    const prod = ensureNoForeignDelivery([{ bodyText: '{"transaction":{"id":"c1"}}', hook: 'prod' }], ['c1'], 'production');
    expect(found(prod)).toEqual(['failure:webhook.foreign-delivery']);
    expect(prod.requirements).toEqual(['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION']);
    const other = ensureNoForeignDelivery([{ bodyText: '{"transaction":{"id":"c1"}}', hook: 'other' }], ['c1'], 'other-account');
    expect(other.requirements).toEqual(['GW-EVT-ONLY-SUBSCRIBED', 'GW-ERR-404-OTHER-ACCOUNT']);
  });
});
