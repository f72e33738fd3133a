import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  acceptMultibyteTexts,
  answerChargeLookup,
  chargeOf,
  ensureCreatedPending,
  ensureNoQrImage,
  expectChargeCreated,
  honourChargeRequestTable,
  verifyChargeBrCode,
  verifyChargeId,
  verifyChargeLifetime,
  verifyChargeTimestamps,
  verifyCreatedCharge,
  verifyExternalRefUnchanged,
  verifyLookedUpCharge,
} from '../harness/rules/partner/index.js';
import { answer, brCode, charge, codes, severities } from './rules-partner-fixtures.js';

const sent = { amount_cents: 1050, external_ref: 'ref-1' };
const exchange = answer(200).exchange;

describe('expectChargeCreated ("200: PIX charge.")', () => {
  it('accepts 200, fails another status; a 429 decides nothing; no answer is unanswered', () => {
    expect(conforms(expectChargeCreated.judge(answer(200, charge())))).toBe(true);
    expect(severities(expectChargeCreated.judge(answer(201, charge())))).toEqual(['charge.create-status:failure']);
    expect(severities(expectChargeCreated.judge(answer(503)))).toEqual(['charge.create-status:failure']);
    expect(expectChargeCreated.judge(answer(429)).requirements).toEqual([]);
    const silent = { ...answer(0), exchange: { ...exchange, response: undefined } };
    expect(expectChargeCreated.judge(silent).unanswered).toHaveLength(1);
  });
});

describe('verifyCreatedCharge', () => {
  it('accepts a conforming charge and decides every creation requirement', () => {
    const j = verifyCreatedCharge.judge({ charge: charge(), sent, exchange: answer(200, charge()).exchange });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['PT-CHARGE-FIELD-ID', 'PT-CHARGE-CREATE-PENDING', 'PT-CHARGE-FIELD-AMOUNT', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-CHARGE-QR-EMV', 'PT-CHARGE-QR-DYNAMIC', 'PT-CHARGE-TIMESTAMPS-UTC', 'PT-CHARGE-NO-IMAGE']));
  });
  it('fails a paid new charge, another amount, a trimmed external_ref', () => {
    const bad = charge(1050, { status: 'paid', amount_cents: 105, external_ref: 'ref-1 '.trim() + 'x' });
    expect(codes(verifyCreatedCharge.judge({ charge: bad, sent, exchange: answer(200, bad).exchange }))).toEqual(expect.arrayContaining(['charge.not-pending', 'charge.amount', 'charge.external-ref-changed']));
  });
});

describe('verifyChargeBrCode', () => {
  it('accepts a dynamic code with the amount', () => {
    expect(conforms(verifyChargeBrCode.judge({ charge: { qr_code: brCode(1050) }, exchange, amountCents: 1050 }))).toBe(true);
  });
  it('fails a static code ("dynamic PIX charges"), a wrong CRC and another amount', () => {
    expect(severities(verifyChargeBrCode.judge({ charge: { qr_code: brCode(1050, { dynamic: false }) }, exchange, amountCents: 1050 }))).toContain('emv.not-dynamic:failure');
    expect(codes(verifyChargeBrCode.judge({ charge: { qr_code: brCode(1050, { crc: '0000' }) }, exchange, amountCents: 1050 }))).toContain('emv.crc');
    expect(codes(verifyChargeBrCode.judge({ charge: { qr_code: brCode(105000) }, exchange, amountCents: 1050 }))).toContain('emv.amount-mismatch');
  });
});

describe('verifyChargeTimestamps', () => {
  it('accepts ISO 8601 UTC in other forms than RFC 3339 (basic format, +00:00, fraction)', () => {
    expect(conforms(verifyChargeTimestamps.judge({ charge: { created_at: '20261122T100000Z', expires_at: '2026-11-22T11:00:00.123+00:00' }, exchange }))).toBe(true);
  });
  it('fails a local offset and a non-date', () => {
    expect(codes(verifyChargeTimestamps.judge({ charge: { created_at: '2026-11-22T07:00:00-03:00', expires_at: 'tomorrow' }, exchange }))).toEqual(['time.not-utc', 'time.iso8601']);
  });
});

describe('small charge rules', () => {
  it('verifyChargeId: a non-empty string id', () => {
    expect(conforms(verifyChargeId.judge({ charge: { id: 'x' }, exchange }))).toBe(true);
    expect(codes(verifyChargeId.judge({ charge: { id: '' }, exchange }))).toEqual(['charge.id']);
    expect(codes(verifyChargeId.judge({ charge: undefined, exchange }))).toEqual(['charge.id']);
  });
  it('ensureCreatedPending', () => {
    expect(conforms(ensureCreatedPending.judge({ charge: { status: 'pending' }, exchange }))).toBe(true);
    expect(codes(ensureCreatedPending.judge({ charge: { status: 'expired' }, exchange }))).toEqual(['charge.not-pending']);
  });
  it('verifyExternalRefUnchanged: byte for byte; nothing decided when none was sent', () => {
    const exchanges = [exchange];
    expect(conforms(verifyExternalRefUnchanged.judge({ seen: ' a ', sent: ' a ', where: 'on lookup', exchanges }))).toBe(true);
    expect(codes(verifyExternalRefUnchanged.judge({ seen: 'a', sent: ' a ', where: 'on lookup', exchanges }))).toEqual(['charge.external-ref-changed']);
    expect(verifyExternalRefUnchanged.judge({ seen: undefined, sent: undefined, where: 'on lookup', exchanges }).requirements).toEqual([]);
  });
  it('ensureNoQrImage warns on an image-like value (ambiguous requirement)', () => {
    expect(conforms(ensureNoQrImage.judge({ charge: charge(), exchange }))).toBe(true);
    expect(severities(ensureNoQrImage.judge({ charge: { qr_image: 'data:image/png;base64,AAAA' }, exchange }))).toEqual(['charge.image:warning']);
  });
  it('chargeOf accepts a bare charge or a data envelope', () => {
    expect(chargeOf({ data: { id: 'a' } })).toEqual({ id: 'a' });
    expect(chargeOf({ id: 'b', data: {} })).toEqual({ id: 'b', data: {} });
  });
});

describe('answerChargeLookup ("Returns the current state of the charge")', () => {
  it('accepts a 2xx showing the expected state; fails another status or another state', () => {
    const pending = answer(200, { id: 'c', status: 'pending' });
    expect(conforms(answerChargeLookup.judge(pending))).toBe(true);
    expect(conforms(answerChargeLookup.judge({ answer: pending, expected: 'pending', why: 'after creation' }))).toBe(true);
    expect(codes(answerChargeLookup.judge({ answer: pending, expected: 'paid', why: 'after pay' }))).toEqual(['charge.lookup-state']);
    expect(codes(answerChargeLookup.judge(answer(404, { detail: 'x' })))).toEqual(['charge.lookup-status']);
  });
});

describe('verifyLookedUpCharge', () => {
  it('accepts a lookup that omits the amount (fields not shown) and shows the external_ref', () => {
    expect(conforms(verifyLookedUpCharge.judge({ charge: { id: 'chg_1', status: 'pending', external_ref: 'ref-1' }, sent, exchange }))).toBe(true);
  });
  it('warns when external_ref is omitted, fails another amount', () => {
    expect(severities(verifyLookedUpCharge.judge({ charge: { status: 'pending', amount_cents: 1 }, sent, exchange }))).toEqual(['charge.lookup-fields:warning', 'charge.amount:failure']);
  });
});

describe('verifyChargeLifetime', () => {
  it('accepts the lifetime within 5 s of skew', () => {
    expect(conforms(verifyChargeLifetime.judge({ charge: charge(), exchange, requestedSeconds: undefined }))).toBe(true);
    expect(conforms(verifyChargeLifetime.judge({ charge: { created_at: '2026-11-22T10:00:00Z', expires_at: '2026-11-22T10:01:04Z' }, exchange, requestedSeconds: 60 }))).toBe(true);
  });
  it('fails a wrong default; a wrong applied lifetime only warns (ambiguous requirement)', () => {
    const half = { created_at: '2026-11-22T10:00:00Z', expires_at: '2026-11-22T10:30:00Z' };
    expect(severities(verifyChargeLifetime.judge({ charge: half, exchange, requestedSeconds: undefined }))).toEqual(['charge.expiry-default:failure']);
    expect(severities(verifyChargeLifetime.judge({ charge: half, exchange, requestedSeconds: 60 }))).toEqual(['charge.expiry-applied:warning']);
  });
});

describe('honourChargeRequestTable (the request table of POST /v1/business/pix-charges)', () => {
  const minimal = { amount_cents: 1500, external_ref: 'ref-min' };
  it('a minimal body answered 200 decides the omitted optional fields\' rows', () => {
    const j = honourChargeRequestTable.judge({ case: 'valid', body: minimal, answer: answer(200, charge()) });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(['PT-CHARGE-DESC-MAX', 'PT-CHARGE-EMAIL-OPTIONAL', 'PT-CHARGE-EXPIRES-RANGE']);
  });
  it('fails a refusal of the minimal body, filed under the field the detail names', () => {
    const j = honourChargeRequestTable.judge({ case: 'valid', body: minimal, answer: answer(422, { detail: 'customer_email: is required' }) });
    expect(severities(j)).toEqual(['charge-request.valid-body-refused:failure']);
    expect(j.findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
  });
  it('files a refusal naming no field under every omitted one; a 429 or a full body without edges decides nothing', () => {
    const j = honourChargeRequestTable.judge({ case: 'valid', body: minimal, answer: answer(500, { detail: 'internal error' }) });
    expect(j.findings[0]?.requirements).toEqual(['PT-CHARGE-DESC-MAX', 'PT-CHARGE-EMAIL-OPTIONAL', 'PT-CHARGE-EXPIRES-RANGE']);
    expect(honourChargeRequestTable.judge({ case: 'valid', body: minimal, answer: answer(429, {}) }).requirements).toEqual([]);
    const full = { ...minimal, description: 'd', customer_email: 'a@example.com', expires_in_seconds: 600 };
    expect(honourChargeRequestTable.judge({ case: 'valid', body: full, answer: answer(422, { detail: 'x' }) }).requirements).toEqual([]);
  });
  it('leaves a refusal whose detail names only another sent value to the creation status rule', () => {
    const padded = { amount_cents: 1500, external_ref: '\tref-min #\t' };
    const refused = (detail: string) => honourChargeRequestTable.judge({ case: 'valid', body: padded, answer: answer(422, { detail }) });
    expect(refused('external_ref: invalid characters').findings).toEqual([]);
    expect(refused('amount_cents: too large').findings).toEqual([]);
    expect(refused('Amount exceeds the per-charge limit').findings).toEqual([]);
    expect(refused('E-mail is required').findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
    expect(refused('external_ref ok but customer_email is required').findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
  });
  it('a value at the edge of its rule (300 characters of description) must be accepted: its row is decided', () => {
    const at = { amount_cents: 100, description: 'x'.repeat(300) };
    expect(honourChargeRequestTable.judge({ case: 'valid', body: at, answer: answer(200, charge()), edges: ['description'] }).requirements).toEqual(expect.arrayContaining(['PT-CHARGE-DESC-MAX']));
    const refused = honourChargeRequestTable.judge({ case: 'valid', body: at, answer: answer(422, { detail: 'description too long' }), edges: ['description'] });
    expect(refused.findings[0]?.requirements).toEqual(['PT-CHARGE-DESC-MAX']);
  });
  it('a body breaking one row must be refused with 422: accepted fails the row, the refusal is judged as an invalid body', () => {
    const over = { case: 'breaks' as const, field: 'description', kind: 'too-long', requirements: ['PT-CHARGE-DESC-MAX'], what: 'description of 301 characters' };
    expect(conforms(honourChargeRequestTable.judge({ ...over, answer: answer(422, { detail: 'description: at most 300' }) }))).toBe(true);
    const accepted = honourChargeRequestTable.judge({ ...over, answer: answer(200, charge()) });
    expect(severities(accepted)).toEqual(['charge-request.invalid-body-accepted:failure']);
    expect(accepted.findings[0]?.requirements).toEqual(['PT-CHARGE-DESC-MAX']);
    expect(severities(honourChargeRequestTable.judge({ ...over, answer: answer(400, { detail: 'bad' }) }))).toEqual(['invalid-body.status:failure']);
  });
  it('narrows amount_cents to the clause the mutation breaks', () => {
    const row = ['PT-CHARGE-AMOUNT-REQUIRED', 'PT-CHARGE-AMOUNT-INTEGER', 'PT-CHARGE-AMOUNT-POSITIVE'];
    const decided = (kind: string) => honourChargeRequestTable.judge({ case: 'breaks', field: 'amount_cents', kind, requirements: row, what: kind, answer: answer(200, charge()) }).findings[0]?.requirements;
    expect(decided('missing-required')).toEqual(['PT-CHARGE-AMOUNT-REQUIRED']);
    expect(decided('below-minimum')).toEqual(['PT-CHARGE-AMOUNT-POSITIVE']);
    expect(decided('not-integer')).toEqual(['PT-CHARGE-AMOUNT-INTEGER']);
  });
});

describe('acceptMultibyteTexts (short multi-byte text is within every count of the limit)', () => {
  it('accepts 200, only warns on a 4xx or a 5xx (the catalogue caps the counting at a warning; the contract rule fails every 5xx); near the limit any 2xx or 4xx is fair', () => {
    const short = (status: number, json?: unknown) => acceptMultibyteTexts.judge({ field: 'description', near: 'short', answer: answer(status, json) });
    expect(conforms(short(200, charge()))).toBe(true);
    expect(severities(short(500, { detail: 'Incorrect string value' }))).toEqual(['multibyte.status:warning']);
    expect(severities(short(422, { detail: 'description: invalid characters' }))).toEqual(['multibyte.short-refused:warning']);
    expect(conforms(acceptMultibyteTexts.judge({ field: 'external_ref', near: 'at-limit', answer: answer(422, { detail: 'too long' }) }))).toBe(true);
  });
});
