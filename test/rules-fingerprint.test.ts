// The idempotency fingerprint relation (harness/rules/fingerprint.ts): cells derived from the request
// schemas (pinned here, so a spec change shows up), the bodies each cell sends, and the two rules
// judging a cell (gateway honourTransferFingerprint, partner honourChargeFingerprint).
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { fingerprintCells, fingerprintProbe, reserialise } from '../harness/rules/fingerprint.js';
import { honourTransferFingerprint, TRANSFER_FINGERPRINT } from '../harness/rules/gateway/idempotency.js';
import { CHARGE_FINGERPRINT, honourChargeFingerprint } from '../harness/rules/partner/idempotency.js';
import { answer as gwAnswer, codes as gwCodes } from './rules-gateway-fixtures.js';
import { answer as ptAnswer, codes as ptCodes } from './rules-partner-fixtures.js';

describe('fingerprint cells, from the specs', () => {
  it('gateway POST /api/v1/pix/out/pixkey: every field, optional ones added, currency absent vs its default', () => {
    expect(TRANSFER_FINGERPRINT.relation.cells).toEqual([
      'pixKey changed',
      'amount changed',
      'currency absent vs "BRL" (its default)',
      'description changed',
      'description added',
      'postbackUrl changed',
      'postbackUrl added',
      'the same body re-serialised (key order, whitespace)',
    ]);
  });
  it('partner POST /business/pix-charges', () => {
    expect(CHARGE_FINGERPRINT.relation.cells).toEqual([
      'amount_cents changed',
      'description changed',
      'description added',
      'external_ref changed',
      'external_ref added',
      'customer_email changed',
      'customer_email added',
      'expires_in_seconds changed',
      'expires_in_seconds added',
      'expires_in_seconds absent vs 3600 (its default)',
      'the same body re-serialised (key order, whitespace)',
    ]);
  });
  it('nested fields, $ref and allOf are walked', () => {
    const doc = {
      paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } },
      components: { schemas: { X: { allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }], properties: { payer: { $ref: '#/components/schemas/P' } } }, P: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, doc: { type: 'string' } } } } },
    };
    expect(fingerprintCells(doc, 'POST', '/x').map((c) => c.cell)).toEqual(['a changed', 'payer.name changed', 'payer.doc changed', 'payer.doc added', 'the same body re-serialised (key order, whitespace)']);
  });
  it('probes: one field changed on the full body, added to the minimal one, the default, the same JSON in other bytes', () => {
    const [changed, , , , added] = CHARGE_FINGERPRINT.cells;
    const bodies = { full: { amount_cents: 5, description: 'a' }, other: { amount_cents: 6, description: 'b' }, minimal: { amount_cents: 5 } };
    expect(fingerprintProbe(changed!, bodies)).toEqual({ on: 'full', body: { amount_cents: 6, description: 'a' } });
    expect(() => fingerprintProbe(added!, bodies)).toThrow(/external_ref/);
    const byDefault = CHARGE_FINGERPRINT.cells.find((c) => c.kind === 'default')!;
    expect(fingerprintProbe(byDefault, bodies)).toEqual({ on: 'minimal', body: { amount_cents: 5, expires_in_seconds: 3600 } });
    const raw = reserialise({ a: 1, b: { c: 2, d: 3 } });
    expect(JSON.parse(raw)).toEqual({ a: 1, b: { c: 2, d: 3 } });
    expect(raw).not.toBe(JSON.stringify({ a: 1, b: { c: 2, d: 3 } }));
    expect(raw.indexOf('"b"')).toBeLessThan(raw.indexOf('"a"'));
  });
});

describe('honourChargeFingerprint', () => {
  const conflict = { cell: 'customer_email changed', expect: 'conflict' as const, originalId: 'c1' };
  const equivalent = { cell: 'the same body re-serialised (key order, whitespace)', expect: 'equivalent' as const, originalId: 'c1' };
  it('a field changed alone: 409 {detail} passes, the original replayed fails; the cell is covered either way', () => {
    const ok = honourChargeFingerprint.judge({ ...conflict, answer: ptAnswer(409, { detail: 'used' }) });
    expect(conforms(ok)).toBe(true);
    expect(ok.covered).toEqual([{ relation: 'partner.idempotency-fingerprint', cells: ['customer_email changed'] }]);
    const replayed = honourChargeFingerprint.judge({ ...conflict, answer: ptAnswer(200, { id: 'c1' }) });
    expect(ptCodes(replayed)).toEqual(['idempotency.conflict-accepted']);
    expect(replayed.covered?.[0]?.cells).toEqual(['customer_email changed']);
  });
  it('where "the same body" is open: a replay or 409 pass, a second charge fails', () => {
    expect(conforms(honourChargeFingerprint.judge({ ...equivalent, answer: ptAnswer(200, { id: 'c1' }) }))).toBe(true);
    expect(conforms(honourChargeFingerprint.judge({ ...equivalent, answer: ptAnswer(409, { detail: 'other body' }) }))).toBe(true);
    expect(ptCodes(honourChargeFingerprint.judge({ ...equivalent, answer: ptAnswer(200, { id: 'c2' }) }))).toEqual(['idempotency.new-record']);
  });
});

describe('honourTransferFingerprint', () => {
  const original = gwAnswer(200, { success: true, data: { id: 't1', status: 'banking_processing', amount: 300, netAmount: 300, fees: 0, pixKey: 'k' } });
  const base = { body: { pixKey: 'k', amount: 300 }, original, originalId: 't1' };
  it('a field changed alone: 409 IDEMPOTENCY_CONFLICT passes; the original replayed fails', () => {
    expect(conforms(honourTransferFingerprint.judge({ ...base, cell: 'description changed', expect: 'conflict', answer: gwAnswer(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'used' }) }))).toBe(true);
    expect(gwCodes(honourTransferFingerprint.judge({ ...base, cell: 'description changed', expect: 'conflict', answer: original }))).toEqual(['pixout.idem-conflict-accepted']);
  });
  it('currency absent vs BRL: the original response or 409 pass; another transfer fails', () => {
    const cell = 'currency absent vs "BRL" (its default)';
    expect(conforms(honourTransferFingerprint.judge({ ...base, cell, expect: 'equivalent', answer: original }))).toBe(true);
    expect(conforms(honourTransferFingerprint.judge({ ...base, cell, expect: 'equivalent', answer: gwAnswer(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'used' }) }))).toBe(true);
    const other = gwAnswer(200, { success: true, data: { id: 't2', status: 'banking_processing', amount: 300, netAmount: 300, fees: 0, pixKey: 'k' } });
    expect(gwCodes(honourTransferFingerprint.judge({ ...base, cell, expect: 'equivalent', answer: other }))).toEqual(['pixout.idem-new-transfer']);
  });
});
