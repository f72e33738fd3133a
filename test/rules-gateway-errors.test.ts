import { describe, expect, it } from 'vitest';
import {
  answerErrorsInDocumentedShape,
  carryPinnedErrorCode,
  idShape,
  isFirmBodyRule,
  pointToTheField,
  refuseInvalidRequestBody,
} from '../harness/rules/gateway/errors.js';
import { answer, codes, severities, unanswered } from './rules-gateway-fixtures.js';

const ok = { success: false, message: 'amountInCents must be at least 100' };

describe('refuseInvalidRequestBody ("400 | invalid body"; "422 | validation failure")', () => {
  const what = 'amount 99';
  it('accepts 400 and 422 in a documented shape; decides the 400 row, the shape and the field', () => {
    expect(refuseInvalidRequestBody.judge({ answer: answer(400, ok), what }).findings).toEqual([]);
    const j = refuseInvalidRequestBody.judge({ answer: answer(422, ok), what, field: 'amountInCents' });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-ERR-400-MEANING', 'GW-ERR-SHAPES', 'GW-ERR-422-FIELD']));
  });
  it('warns on another 4xx; fails a 2xx and a 5xx; a 429 decides nothing; no answer is unanswered', () => {
    expect(severities(refuseInvalidRequestBody.judge({ answer: answer(409, ok), what }))).toEqual(['warning']);
    expect(codes(refuseInvalidRequestBody.judge({ answer: answer(201, { success: true }), what }))).toEqual(['validation.accepted']);
    expect(codes(refuseInvalidRequestBody.judge({ answer: answer(500), what }))).toEqual(['validation.status']);
    expect(refuseInvalidRequestBody.judge({ answer: answer(429, 'slow down'), what })).toMatchObject({ requirements: [], findings: [] });
    const silent = { status: 0, json: undefined, exchange: unanswered() };
    expect(refuseInvalidRequestBody.judge({ answer: silent, what }).unanswered).toEqual([silent.exchange]);
  });
  it('with exactly400 only 400 passes ("also card request with BRL or without currency")', () => {
    expect(refuseInvalidRequestBody.judge({ answer: answer(400, ok), what, exactly400: true }).findings).toEqual([]);
    expect(severities(refuseInvalidRequestBody.judge({ answer: answer(422, ok), what, exactly400: true }))).toEqual(['failure']);
    expect(severities(refuseInvalidRequestBody.judge({ answer: answer(403, ok), what, exactly400: true }))).toEqual(['failure']);
  });
  it('a card request answered with a refused charge warns; with a paid one it was accepted', () => {
    const charge = (status: string) => answer(201, { success: true, data: { id: 'c1', status } });
    expect(severities(refuseInvalidRequestBody.judge({ answer: charge('refused'), what, card: true }))).toEqual(['warning']);
    expect(codes(refuseInvalidRequestBody.judge({ answer: charge('paid'), what, card: true }))).toEqual(['validation.accepted']);
    expect(codes(refuseInvalidRequestBody.judge({ answer: charge('refused'), what }))).toEqual(['validation.accepted']);
  });
  it('judges the body shape and the 422 message with the rules it uses', () => {
    expect(codes(refuseInvalidRequestBody.judge({ answer: answer(400, { detail: 'x' }), what }))).toEqual(['error.shape']);
    expect(codes(refuseInvalidRequestBody.judge({ answer: answer(422, { success: false, message: 'invalid' }), what, field: 'amountInCents' }))).toEqual(['validation.field-not-named']);
  });
});

describe('answerErrorsInDocumentedShape ("Two body shapes occur")', () => {
  it('accepts both shapes, and a message list or field map', () => {
    expect(answerErrorsInDocumentedShape.judge(answer(400, { success: false, message: 'bad' })).findings).toEqual([]);
    expect(answerErrorsInDocumentedShape.judge(answer(404, { error: 'NOT_FOUND', message: 'no' })).findings).toEqual([]);
    expect(answerErrorsInDocumentedShape.judge(answer(422, { success: false, message: ['a', 'b'] })).findings).toEqual([]);
    expect(answerErrorsInDocumentedShape.judge(answer(422, { error: 'VALIDATION_ERROR', message: { amountInCents: 'must be an integer' } })).findings).toEqual([]);
  });
  it('fails a shape without a message or with a null one, another shape, a body that is not JSON', () => {
    expect(codes(answerErrorsInDocumentedShape.judge(answer(400, { success: false })))).toEqual(['error.shape']);
    expect(codes(answerErrorsInDocumentedShape.judge(answer(404, { error: 'NOT_FOUND', message: null })))).toEqual(['error.shape']);
    expect(codes(answerErrorsInDocumentedShape.judge(answer(400, { detail: 'x' })))).toEqual(['error.shape']);
    expect(answerErrorsInDocumentedShape.judge(answer(404, undefined, { body: 'Not Found' })).findings[0]?.actual).toMatch(/not JSON/);
  });
  it('decides nothing for 401, 429 (body shape not shown) and non-4xx answers', () => {
    for (const status of [401, 429, 200, 500]) expect(answerErrorsInDocumentedShape.judge(answer(status, undefined, { body: 'plain text' })).requirements).toEqual([]);
  });
});

describe('carryPinnedErrorCode ("404 body {error: NOT_FOUND, message}"; "409 (IDEMPOTENCY_CONFLICT)")', () => {
  it('accepts the pinned code and decides the route and GW-ERR-CODES', () => {
    const j = carryPinnedErrorCode.judge({ answer: answer(404, { error: 'NOT_FOUND', message: 'no such charge' }), pin: 'charge-lookup' });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(['GW-ERR-CODES']);
    expect(carryPinnedErrorCode.judge({ answer: answer(409, { error: 'IDEMPOTENCY_CONFLICT', message: 'x' }), pin: 'idempotency-conflict' }).requirements).toEqual(['GW-ERR-CODES']);
  });
  it('fails {success:false} where the code is pinned, and another code', () => {
    expect(codes(carryPinnedErrorCode.judge({ answer: answer(404, { success: false, message: 'not found' }), pin: 'transfer-lookup' }))).toEqual(['error.code-missing']);
    expect(codes(carryPinnedErrorCode.judge({ answer: answer(404, { error: 'not_found', message: 'x' }), pin: 'charge-lookup' }))).toEqual(['error.code']);
    expect(codes(carryPinnedErrorCode.judge({ answer: answer(409, { error: 'CONFLICT', message: 'x' }), pin: 'idempotency-conflict' }))).toEqual(['error.code']);
  });
  it('another status decides nothing', () => {
    expect(carryPinnedErrorCode.judge({ answer: answer(400, { success: false, message: 'x' }), pin: 'charge-lookup' }).requirements).toEqual([]);
  });
});

describe('pointToTheField ("422 … message points to the field")', () => {
  it('accepts a 422 naming the field in any spelling, in a list or a field map', () => {
    expect(pointToTheField.judge({ answer: answer(422, { success: false, message: 'amountInCents must be ≥ 100' }), field: 'amountInCents' }).findings).toEqual([]);
    expect(pointToTheField.judge({ answer: answer(422, { success: false, message: 'customer.document invalid' }), field: 'customer.document' }).findings).toEqual([]);
    expect(pointToTheField.judge({ answer: answer(422, { error: 'VALIDATION', message: ['amountInCents must be an integer'] }), field: 'amountInCents' }).findings).toEqual([]);
    expect(pointToTheField.judge({ answer: answer(422, { success: false, message: { amountInCents: 'must be at least 100' } }), field: 'amountInCents' }).findings).toEqual([]);
  });
  it('warns on a 422 not naming it; fails a 422 with no message at all; decides nothing on a 400', () => {
    expect(severities(pointToTheField.judge({ answer: answer(422, { success: false, message: 'invalid' }), field: 'amountInCents' }))).toEqual(['warning']);
    expect(codes(pointToTheField.judge({ answer: answer(422, { success: false, message: { reason: 'invalid' } }), field: 'amountInCents' }))).toEqual(['validation.field-not-named']);
    const none = pointToTheField.judge({ answer: answer(422, { errors: [{ msg: 'Invalid value', path: 'amountInCents' }] }), field: 'amountInCents' });
    expect(codes(none)).toEqual(['validation.no-message']);
    expect(none.findings[0]?.requirements).toEqual(['GW-ERR-422-FIELD']);
    expect(pointToTheField.judge({ answer: answer(400, { success: false, message: 'invalid' }), field: 'amountInCents' }).requirements).toEqual([]);
  });
});

describe('idShape (which ids a by-id route may refuse as malformed)', () => {
  it('classifies ids', () => {
    expect(idShape('3f1c0f1e-8f2a-4a43-9d8e-000000000000')).toBe('plausible');
    expect(idShape('a'.repeat(2048))).toBe('malformed');
    expect(idShape("' OR '1'='1")).toBe('malformed');
    expect(idShape('.')).toBe('dot-segment');
    expect(idShape('..')).toBe('dot-segment');
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
