import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import {
  chargeOf,
  ensureCreatedPending,
  ensureNoQrImage,
  ensureOptionalFieldsOmittable,
  ensureShortMultibyteAccepted,
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

describe('verifyCreatedCharge', () => {
  it('accepts a conforming charge and decides every creation requirement', () => {
    const j = verifyCreatedCharge({ charge: charge(), sent, exchange: answer(200, charge()).exchange });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['PT-CHARGE-CREATE-PENDING', 'PT-CHARGE-FIELD-AMOUNT', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-CHARGE-QR-EMV', 'PT-CHARGE-QR-DYNAMIC', 'PT-CHARGE-TIMESTAMPS-UTC', 'PT-CHARGE-NO-IMAGE']));
  });
  it('fails a paid new charge, another amount, a trimmed external_ref', () => {
    const bad = charge(1050, { status: 'paid', amount_cents: 105, external_ref: 'ref-1 '.trim() + 'x' });
    expect(codes(verifyCreatedCharge({ charge: bad, sent, exchange: answer(200, bad).exchange }))).toEqual(expect.arrayContaining(['charge.not-pending', 'charge.amount', 'charge.external-ref-changed']));
  });
});

describe('verifyChargeBrCode', () => {
  it('accepts a dynamic code with the amount', () => {
    expect(conforms(verifyChargeBrCode(brCode(1050), 1050, {}))).toBe(true);
  });
  it('fails a static code ("dynamic PIX charges"), a wrong CRC and another amount', () => {
    expect(severities(verifyChargeBrCode(brCode(1050, { dynamic: false }), 1050, {}))).toContain('emv.not-dynamic:failure');
    expect(codes(verifyChargeBrCode(brCode(1050, { crc: '0000' }), 1050, {}))).toContain('emv.crc');
    expect(codes(verifyChargeBrCode(brCode(105000), 1050, {}))).toContain('emv.amount-mismatch');
  });
});

describe('verifyChargeTimestamps', () => {
  it('accepts ISO 8601 UTC in other forms than RFC 3339 (basic format, +00:00, fraction)', () => {
    expect(conforms(verifyChargeTimestamps({ created_at: '20261122T100000Z', expires_at: '2026-11-22T11:00:00.123+00:00' }, {}))).toBe(true);
  });
  it('fails a local offset and a non-date', () => {
    expect(codes(verifyChargeTimestamps({ created_at: '2026-11-22T07:00:00-03:00', expires_at: 'tomorrow' }, {}))).toEqual(['time.not-utc', 'time.iso8601']);
  });
});

describe('small charge rules', () => {
  it('verifyChargeId: a non-empty string id', () => {
    expect(conforms(verifyChargeId({ id: 'x' }, { requirements: ['PT-CHARGE-FIELD-ID'] }))).toBe(true);
    expect(codes(verifyChargeId({ id: '' }, { requirements: ['PT-CHARGE-FIELD-ID'] }))).toEqual(['charge.id']);
  });
  it('ensureCreatedPending', () => {
    expect(conforms(ensureCreatedPending({ status: 'pending' }, { requirements: ['PT-CHARGE-CREATE-PENDING'] }))).toBe(true);
    expect(codes(ensureCreatedPending({ status: 'expired' }, { requirements: ['PT-CHARGE-CREATE-PENDING'] }))).toEqual(['charge.not-pending']);
  });
  it('verifyExternalRefUnchanged: byte for byte; nothing decided when none was sent', () => {
    const ctx = { requirements: ['PT-CHARGE-EXTREF-UNCHANGED'] as const };
    expect(conforms(verifyExternalRefUnchanged(' a ', ' a ', ctx))).toBe(true);
    expect(codes(verifyExternalRefUnchanged('a', ' a ', ctx))).toEqual(['charge.external-ref-changed']);
    expect(verifyExternalRefUnchanged(undefined, undefined, ctx).requirements).toEqual([]);
  });
  it('ensureNoQrImage warns on an image-like value (ambiguous requirement)', () => {
    expect(conforms(ensureNoQrImage(charge(), { requirements: ['PT-CHARGE-NO-IMAGE'] }))).toBe(true);
    expect(severities(ensureNoQrImage({ qr_image: 'data:image/png;base64,AAAA' }, { requirements: ['PT-CHARGE-NO-IMAGE'] }))).toEqual(['charge.image:warning']);
  });
  it('chargeOf accepts a bare charge or a data envelope', () => {
    expect(chargeOf({ data: { id: 'a' } })).toEqual({ id: 'a' });
    expect(chargeOf({ id: 'b', data: {} })).toEqual({ id: 'b', data: {} });
  });
});

describe('verifyLookedUpCharge', () => {
  it('accepts a lookup that omits the amount (fields not shown) and shows the external_ref', () => {
    expect(conforms(verifyLookedUpCharge({ charge: { id: 'chg_1', status: 'pending', external_ref: 'ref-1' }, sent, exchange: answer(200).exchange }))).toBe(true);
  });
  it('warns when external_ref is omitted, fails another amount', () => {
    expect(severities(verifyLookedUpCharge({ charge: { status: 'pending', amount_cents: 1 }, sent, exchange: answer(200).exchange }))).toEqual(['charge.amount:failure', 'charge.lookup-fields:warning']);
  });
});

describe('verifyChargeLifetime', () => {
  it('accepts the lifetime within 5 s of skew', () => {
    expect(conforms(verifyChargeLifetime(charge(), 3600, { requirements: ['PT-CHARGE-EXPIRES-DEFAULT'] }))).toBe(true);
    expect(conforms(verifyChargeLifetime({ created_at: '2026-11-22T10:00:00Z', expires_at: '2026-11-22T10:01:04Z' }, 60, { requirements: ['PT-CHARGE-EXPIRES-APPLIED'] }))).toBe(true);
  });
  it('fails a wrong default; a wrong applied lifetime only warns (ambiguous requirement)', () => {
    expect(severities(verifyChargeLifetime({ created_at: '2026-11-22T10:00:00Z', expires_at: '2026-11-22T10:30:00Z' }, 3600, { requirements: ['PT-CHARGE-EXPIRES-DEFAULT'] }))).toEqual(['charge.expiry-default:failure']);
    expect(severities(verifyChargeLifetime({ created_at: '2026-11-22T10:00:00Z', expires_at: '2026-11-22T10:30:00Z' }, 60, { requirements: ['PT-CHARGE-EXPIRES-APPLIED'] }))).toEqual(['charge.expiry-applied:warning']);
  });
});

describe('ensureOptionalFieldsOmittable ("amount_cents | yes", every other field "no")', () => {
  const minimal = { amount_cents: 1500, external_ref: 'ref-min' };
  it('accepts a minimal body answered 200 and decides the omitted fields\' rows', () => {
    const j = ensureOptionalFieldsOmittable({ answer: answer(200, charge()), sent: minimal }, {});
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['PT-CHARGE-EMAIL-OPTIONAL', 'PT-CHARGE-DESC-MAX', 'PT-CHARGE-EXPIRES-DEFAULT']));
    expect(j.requirements).not.toContain('PT-CHARGE-EXTREF-MAX');
  });
  it('fails a refusal, filed under the field the detail names', () => {
    const j = ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'customer_email: is required' }), sent: minimal }, {});
    expect(severities(j)).toEqual(['charge.optional-field-required:failure']);
    expect(j.findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
  });
  it('files a refusal naming no field under every omitted one; a 429 or a full body decides nothing', () => {
    const j = ensureOptionalFieldsOmittable({ answer: answer(500, { detail: 'internal error' }), sent: minimal }, {});
    expect(j.findings[0]?.requirements).toEqual(['PT-CHARGE-DESC-MAX', 'PT-CHARGE-EMAIL-OPTIONAL', 'PT-CHARGE-EXPIRES-DEFAULT']);
    expect(ensureOptionalFieldsOmittable({ answer: answer(429, {}), sent: minimal }, {}).requirements).toEqual([]);
    const full = { ...minimal, description: 'd', customer_email: 'a@example.com', expires_in_seconds: 600 };
    expect(ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'x' }), sent: full }, {}).requirements).toEqual([]);
  });
  it('leaves a refusal whose detail names only a sent field to the creation status rule (not the omissions)', () => {
    const padded = { amount_cents: 1500, external_ref: '\tref-min #\t' };
    expect(ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'external_ref: invalid characters' }), sent: padded }, {}).findings).toEqual([]);
    expect(ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'amount_cents: too large' }), sent: padded }, {}).findings).toEqual([]);
    expect(ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'Amount exceeds the per-charge limit' }), sent: padded }, {}).findings).toEqual([]);
    expect(ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'E-mail is required' }), sent: padded }, {}).findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
    // naming an omitted field as well still blames it
    const both = ensureOptionalFieldsOmittable({ answer: answer(422, { detail: 'external_ref ok but customer_email is required' }), sent: padded }, {});
    expect(both.findings[0]?.requirements).toEqual(['PT-CHARGE-EMAIL-OPTIONAL']);
  });
});

describe('ensureShortMultibyteAccepted (short multi-byte text is within every count of the limit)', () => {
  const ctx = { requirements: ['PT-CHARGE-DESC-MULTIBYTE', 'PT-CHARGE-DESC-MAX'] as const };
  it('accepts 200, fails a 5xx, only warns on a 4xx', () => {
    expect(conforms(ensureShortMultibyteAccepted(answer(200, charge()), ctx))).toBe(true);
    expect(severities(ensureShortMultibyteAccepted(answer(500, { detail: 'Incorrect string value' }), ctx))).toEqual(['target.5xx:failure']);
    expect(severities(ensureShortMultibyteAccepted(answer(422, { detail: 'description: invalid characters' }), ctx))).toEqual(['status.unexpected:warning']);
  });
});
