// harness/rules/partner/isolation.ts: idempotency keys, ledgers and deliveries stay within their
// account and environment (issue 15).
import { describe, expect, it } from 'vitest';
import { ensureIdempotencyKeyScoped, ensureNoForeignDelivery, ensureNoForeignPosting } from '../harness/rules/partner/isolation.js';
import type { SeenDelivery } from '../harness/rules/partner/isolation.js';
import { signPartner } from '../harness/webhooks/signatures.js';
import type { Judgement } from '../harness/rules/finding.js';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const decided = (j: Judgement): boolean => j.requirements.length > 0;
const other = { requirements: ['PT-ERR-404-OTHER-ACCOUNT'] as const, whose: 'another account' };
const live = { requirements: ['PT-ENV-ISOLATION'] as const, whose: 'production' };

describe('ensureIdempotencyKeyScoped', () => {
  it('accepts a new charge for the other caller', () => {
    expect(codes(ensureIdempotencyKeyScoped('pix_a', { status: 200, json: { id: 'pix_b' } }, other))).toEqual([]);
  });
  it('fails our charge returned to another account or environment', () => {
    expect(codes(ensureIdempotencyKeyScoped('pix_a', { status: 200, json: { id: 'pix_a' } }, other))).toEqual(['failure:idempotency.cross-scope']);
    expect(codes(ensureIdempotencyKeyScoped('pix_a', { status: 200, json: { data: { id: 'pix_a' } } }, live))).toEqual(['failure:idempotency.cross-scope']);
  });
  it('warns a 409 (the key scope is not stated) and leaves other refusals to the status rules', () => {
    expect(codes(ensureIdempotencyKeyScoped('pix_a', { status: 409, json: { detail: 'x' } }, other))).toEqual(['warning:idempotency.cross-scope']);
    expect(decided(ensureIdempotencyKeyScoped('pix_a', { status: 500, json: {} }, other))).toBe(false);
  });
});

describe('ensureNoForeignPosting', () => {
  it('accepts a statement that does not name our charge', () => {
    expect(codes(ensureNoForeignPosting({ transactions: [{ id: 't', description: 'PIX charge pix_b captured' }] }, { id: 'pix_a' }, live))).toEqual([]);
  });
  it('fails a posting naming our charge id or e2e_id', () => {
    expect(codes(ensureNoForeignPosting({ transactions: [{ id: 't', description: 'PIX charge pix_a captured' }] }, { id: 'pix_a' }, live))).toEqual(['failure:finance.foreign-posting']);
    expect(codes(ensureNoForeignPosting({ transactions: [{ id: 't', description: 'E9999' }] }, { id: 'pix_a', e2eId: 'E9999' }, other))).toEqual(['failure:finance.foreign-posting']);
  });
  it('decides nothing without a transactions array', () => {
    expect(decided(ensureNoForeignPosting({}, { id: 'pix_a' }, live))).toBe(false);
  });
});

describe('ensureNoForeignDelivery', () => {
  const secret = 'whsec_test';
  const delivery = (body: string, signedWith: string, seq = 1): SeenDelivery => ({
    seq,
    headers: { 'x-service-signature': signPartner({ secret: signedWith, body }) },
    rawBody: Buffer.from(body),
    bodyText: body,
    receivedAt: Date.now(),
  });
  const ours = delivery('{"type":"business.pix.created","data":{"external_ref":"ptc-ours-1"}}', secret);
  const theirs = delivery('{"type":"business.pix.created","data":{"external_ref":"ptc-theirs-2"}}', secret, 2);
  it('accepts deliveries of our own charges only', () => {
    expect(codes(ensureNoForeignDelivery([ours], { token: 'ptc-theirs-2' }, { ...other, secret, crossing: 'account' }))).toEqual([]);
  });
  it('fails another account\'s event signed with our endpoint secret; a production one only warns', () => {
    expect(codes(ensureNoForeignDelivery([ours, theirs], { token: 'ptc-theirs-2' }, { ...other, secret, crossing: 'account' }))).toEqual(['failure:webhook.foreign-event']);
    expect(codes(ensureNoForeignDelivery([theirs], { token: 'ptc-theirs-2' }, { ...live, secret, crossing: 'environment' }))).toEqual(['warning:webhook.foreign-event']);
  });
  it('only warns their event signed with another secret (a registration of theirs at the same URL)', () => {
    const elsewhere = delivery('{"data":{"external_ref":"ptc-theirs-2"}}', 'whsec_theirs');
    expect(codes(ensureNoForeignDelivery([elsewhere], { token: 'ptc-theirs-2' }, { ...other, secret, crossing: 'account' }))).toEqual(['warning:webhook.foreign-event']);
  });
});
