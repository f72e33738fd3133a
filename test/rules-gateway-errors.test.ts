import { describe, expect, it } from 'vitest';
import {
  expectCardRequestNotCharged,
  expectInvalidBodyRejected,
  expectUnknownIdRefused,
  idShape,
  isFirmBodyRule,
  verifyErrorBody,
  verifyMessageNamesField,
} from '../harness/rules/gateway/errors.js';
import { answered, codes, severities, unanswered } from './rules-gateway-fixtures.js';
import { TargetUnreachableError } from '../harness/http/transport.js';

const ctx = { requirements: ['GW-PIXIN-CREATE-400'] as const };

describe('expectInvalidBodyRejected ("400 | invalid body"; "422 | validation failure")', () => {
  it('accepts 400 and 422', () => {
    expect(expectInvalidBodyRejected(answered(400, { success: false, message: 'x' }), ctx).findings).toEqual([]);
    expect(expectInvalidBodyRejected(answered(422, { success: false, message: 'x' }), ctx).findings).toEqual([]);
    expect(expectInvalidBodyRejected(answered(422), ctx).requirements).toEqual(['GW-PIXIN-CREATE-400']);
  });
  it('warns on another 4xx and on 429, fails on 2xx and 5xx; no answer is inconclusive', () => {
    expect(severities(expectInvalidBodyRejected(answered(409), ctx))).toEqual(['warning']);
    expect(severities(expectInvalidBodyRejected(answered(429), ctx))).toEqual(['warning']);
    expect(severities(expectInvalidBodyRejected(answered(200, { success: true }), ctx))).toEqual(['failure']);
    expect(codes(expectInvalidBodyRejected(answered(500), ctx))).toEqual(['target.5xx']);
    // no answer at all decides nothing: the check is inconclusive (harness/http/transport.ts)
    expect(() => expectInvalidBodyRejected(unanswered(), ctx)).toThrow(TargetUnreachableError);
  });
  it('with exactly400 only 400 passes ("missing or BRL gives 400")', () => {
    expect(expectInvalidBodyRejected(answered(400), ctx, { exactly400: true }).findings).toEqual([]);
    expect(severities(expectInvalidBodyRejected(answered(422), ctx, { exactly400: true }))).toEqual(['failure']);
  });
  it('prefixes the titles with what was sent', () => {
    const j = expectInvalidBodyRejected(answered(201), { ...ctx, subject: 'amount 99' });
    expect(j.findings[0]?.title.startsWith('amount 99: ')).toBe(true);
  });
});

describe('verifyErrorBody ("Two body shapes occur")', () => {
  const shapes = { requirements: ['GW-ERR-SHAPES'] as const };
  it('accepts both shapes, and a message list', () => {
    expect(verifyErrorBody(answered(400, { success: false, message: 'bad' }), shapes).findings).toEqual([]);
    expect(verifyErrorBody(answered(404, { error: 'NOT_FOUND', message: 'no' }), shapes).findings).toEqual([]);
    expect(verifyErrorBody(answered(422, { success: false, message: ['a', 'b'] }), shapes).findings).toEqual([]);
    // the type of message is not stated: a field map is a message too
    expect(verifyErrorBody(answered(422, { error: 'VALIDATION_ERROR', message: { amountInCents: 'must be an integer' } }), shapes).findings).toEqual([]);
  });
  it('fails a shape without a message, or with a null one', () => {
    expect(codes(verifyErrorBody(answered(400, { success: false }), shapes))).toEqual(['error.shape']);
    expect(codes(verifyErrorBody(answered(404, { error: 'NOT_FOUND', message: null }), shapes))).toEqual(['error.shape']);
  });
  it('fails another shape or a body that is not JSON', () => {
    expect(codes(verifyErrorBody(answered(400, { detail: 'x' }), shapes))).toEqual(['error.shape']);
    expect(codes(verifyErrorBody(answered(404, 'Not Found'), shapes))).toEqual(['error.shape']);
  });
  it('decides nothing for 401, 429 (body shape not shown) and non-4xx answers', () => {
    for (const status of [401, 429, 200, 500]) expect(verifyErrorBody(answered(status, 'plain text'), shapes)).toEqual({ requirements: [], findings: [] });
  });
});

describe('verifyMessageNamesField ("422 … message points to the field")', () => {
  const c = { requirements: ['GW-ERR-422-FIELD'] as const };
  it('accepts a 422 naming the field in any spelling', () => {
    expect(verifyMessageNamesField(answered(422, { success: false, message: 'amountInCents must be ≥ 100' }), 'amountInCents', c).findings).toEqual([]);
    expect(verifyMessageNamesField(answered(422, { success: false, message: 'customer.document invalid' }), 'customer.document', c).findings).toEqual([]);
  });
  it('warns on a 422 not naming it; decides nothing on a 400', () => {
    expect(severities(verifyMessageNamesField(answered(422, { success: false, message: 'invalid' }), 'amountInCents', c))).toEqual(['warning']);
    expect(verifyMessageNamesField(answered(400, { success: false, message: 'invalid' }), 'amountInCents', c).requirements).toEqual([]);
  });
  it('accepts a list of messages naming it; fails a 422 with no message at all', () => {
    expect(verifyMessageNamesField(answered(422, { error: 'VALIDATION', message: ['amountInCents must be an integer'] }), 'amountInCents', c).findings).toEqual([]);
    const none = verifyMessageNamesField(answered(422, { errors: [{ msg: 'Invalid value', path: 'amountInCents' }] }), 'amountInCents', c);
    expect(severities(none)).toEqual(['failure']);
    expect(codes(none)).toEqual(['error.no-message']);
    expect(none.findings[0]?.requirements).toEqual(['GW-ERR-422-FIELD']);
  });
  it('a structured message object is a message: judged by whether it names the field, never error.no-message', () => {
    expect(verifyMessageNamesField(answered(422, { success: false, message: { amountInCents: 'must be at least 100' } }), 'amountInCents', c).findings).toEqual([]);
    expect(codes(verifyMessageNamesField(answered(422, { success: false, message: { reason: 'invalid' } }), 'amountInCents', c))).toEqual(['error.field-not-named']);
  });
});

describe('expectUnknownIdRefused ("404 | resource not found")', () => {
  const c = { requirements: ['GW-PIXIN-GET-404-SHAPE'] as const };
  const notFound = { error: 'NOT_FOUND', message: 'Transaction not found' };
  it('classifies ids', () => {
    expect(idShape('3f1c0f1e-8f2a-4a43-9d8e-000000000000')).toBe('plausible');
    expect(idShape('a'.repeat(2048))).toBe('malformed');
    expect(idShape("' OR '1'='1")).toBe('malformed');
    expect(idShape('.')).toBe('dot-segment');
    expect(idShape('..')).toBe('dot-segment');
  });
  it('accepts 404 with the NOT_FOUND body, fails another body where it is documented', () => {
    expect(expectUnknownIdRefused(answered(404, notFound), 'abc', c, { body: 'not-found' }).findings).toEqual([]);
    expect(codes(expectUnknownIdRefused(answered(404, { success: false, message: 'no' }), 'abc', c, { body: 'not-found' }))).toEqual(['error.shape']);
    expect(expectUnknownIdRefused(answered(404, ''), 'abc', c, { body: 'any' }).findings).toEqual([]);
  });
  it('accepts 400/414 for a malformed id only; warns for a plausible one; fails 2xx and 5xx', () => {
    expect(expectUnknownIdRefused(answered(414), 'a'.repeat(2048), c, { body: 'not-found' }).findings).toEqual([]);
    expect(expectUnknownIdRefused(answered(400), '%00', c, { body: 'not-found' }).findings).toEqual([]);
    expect(severities(expectUnknownIdRefused(answered(400), 'abc', c, { body: 'not-found' }))).toEqual(['warning']);
    expect(severities(expectUnknownIdRefused(answered(200, { success: true }), 'abc', c, { body: 'not-found' }))).toEqual(['failure']);
    expect(codes(expectUnknownIdRefused(answered(502), '%00', c, { body: 'any' }))).toEqual(['target.5xx']);
  });
  it('decides nothing for a URL dot segment (another route after normalisation)', () => {
    expect(expectUnknownIdRefused(answered(200, { success: true }), '..', c, { body: 'not-found' })).toEqual({ requirements: [], findings: [] });
  });
});

describe('expectCardRequestNotCharged (never charged; "Usually synchronous (approved or refused)")', () => {
  const c = { requirements: ['GW-CARD-BILLING-REQUIRED'] as const };
  const charge = (status: string) => answered(201, { success: true, data: { id: 'c1', status } }, { path: '/api/v1/card' });
  it('accepts a refused charge for a missing billing address and for raw card data', () => {
    expect(expectCardRequestNotCharged(charge('refused'), c, 'billing-address').findings).toEqual([]);
    expect(expectCardRequestNotCharged(charge('refused'), c, 'raw-card-data').findings).toEqual([]);
  });
  it('warns on a refused charge for another invalid field (the same everywhere)', () => {
    expect(severities(expectCardRequestNotCharged(charge('refused'), c, 'invalid-field'))).toEqual(['warning']);
  });
  it('fails a paid or pending charge whatever the violation', () => {
    for (const v of ['billing-address', 'raw-card-data', 'invalid-field'] as const) {
      expect(codes(expectCardRequestNotCharged(charge('paid'), c, v))).toEqual(['negative.accepted']);
      expect(severities(expectCardRequestNotCharged(charge('pending'), c, v))).toEqual(['failure']);
    }
  });
  it('accepts any 4xx for billing and raw data, 400/422 for another field', () => {
    expect(expectCardRequestNotCharged(answered(403), c, 'raw-card-data').findings).toEqual([]);
    expect(severities(expectCardRequestNotCharged(answered(403), c, 'invalid-field'))).toEqual(['warning']);
    expect(severities(expectCardRequestNotCharged(answered(422), c, 'invalid-field', { exactly400: true }))).toEqual(['failure']);
  });
});

describe('isFirmBodyRule (which single-rule mutants the contract calls invalid)', () => {
  it('keeps firm rules', () => {
    expect(isFirmBodyRule('pix', 'below-minimum:amountInCents')).toBe(true);
    expect(isFirmBodyRule('card', 'wrong-type:customer.billingAddress.zipCode')).toBe(true);
    expect(isFirmBodyRule('pix', 'wrong-type:trackingParameters')).toBe(true);
  });
  it('leaves out what the text leaves open, including wrongly typed optional metadata', () => {
    expect(isFirmBodyRule('pix', 'wrong-type:trackingParameters.utm_source')).toBe(false);
    expect(isFirmBodyRule('card', 'wrong-type:trackingParameters.utm_term')).toBe(false);
    expect(isFirmBodyRule('pix', 'wrong-type:customer.billingAddress.zipCode')).toBe(false);
    expect(isFirmBodyRule('pix', 'bad-format:postbackUrl')).toBe(false);
    expect(isFirmBodyRule('card', 'bad-pattern:card.token')).toBe(false);
    expect(isFirmBodyRule('webhook', 'bad-enum:events[0]')).toBe(false);
    expect(isFirmBodyRule('pix', 'unexpected-property:foo')).toBe(false);
  });
});
