import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { answerErrorsWithDetail, answerUnknownIdNotFound, ensurePayoutUnavailable, isDotSegment, refuseInvalidBody, refuseMalformedJson, refuseWithoutValidKey, surviveOddBodies } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('answerErrorsWithDetail ("Body: {detail: <readable message>}")', () => {
  it('accepts {detail} on a documented error status; any body of another status decides nothing', () => {
    expect(conforms(answerErrorsWithDetail.judge(answer(401, { detail: 'missing key' })))).toBe(true);
    expect(answerErrorsWithDetail.judge(answer(429, 'slow down')).requirements).toEqual([]);
    expect(answerErrorsWithDetail.judge(answer(400, 'bad')).requirements).toEqual([]);
  });
  it('fails another shape (a FastAPI list too), warns on an empty detail', () => {
    expect(codes(answerErrorsWithDetail.judge(answer(404, { error: 'NOT_FOUND' })))).toEqual(['error.partner-shape']);
    expect(codes(answerErrorsWithDetail.judge(answer(422, { detail: [{ loc: ['body'], msg: 'x' }] })))).toEqual(['error.partner-shape']);
    expect(severities(answerErrorsWithDetail.judge(answer(409, { detail: ' ' })))).toEqual(['error.partner-detail-empty:warning']);
  });
});

describe('refuseWithoutValidKey ("401 | API key missing, invalid or revoked")', () => {
  it('accepts 401 {detail}; fails another status; the body is judged too', () => {
    expect(conforms(refuseWithoutValidKey.judge({ answer: answer(401, { detail: 'no key' }), key: 'no key' }))).toBe(true);
    expect(codes(refuseWithoutValidKey.judge({ answer: answer(200, {}), key: 'no key' }))).toEqual(['auth.partner-not-401']);
    expect(codes(refuseWithoutValidKey.judge({ answer: answer(401, {}), key: 'no key' }))).toEqual(['error.partner-shape']);
  });
});

describe('refuseInvalidBody', () => {
  it('accepts 422 {detail} naming the field', () => {
    expect(conforms(refuseInvalidBody.judge({ answer: answer(422, { detail: 'amount_cents must be > 0' }), what: 'amount 0', kind: 'field', field: 'amount_cents' }))).toBe(true);
  });
  it('fails an accepted body and a 400; warns when the detail does not name the field', () => {
    expect(codes(refuseInvalidBody.judge({ answer: answer(200, { id: 'x' }), what: 'amount 0', kind: 'field', field: 'amount_cents' }))).toEqual(['invalid-body.accepted']);
    expect(severities(refuseInvalidBody.judge({ answer: answer(400, { detail: 'bad' }), what: 'amount 0', kind: 'field', field: 'amount_cents' }))).toEqual(['invalid-body.status:failure']);
    expect(severities(refuseInvalidBody.judge({ answer: answer(422, { detail: 'bad input' }), what: 'amount 0', kind: 'field', field: 'amount_cents' }))).toEqual(['invalid-body.field-not-named:warning']);
  });
  it('an oversized body: another 4xx (413) only warns', () => {
    expect(severities(refuseInvalidBody.judge({ answer: answer(413, { detail: 'too large' }), what: '256 KiB', kind: 'oversized' }))).toEqual(['invalid-body.other-4xx:warning']);
  });
});

describe('refuseMalformedJson (whether a non-JSON body is "an invalid request body" is not stated)', () => {
  it('422 passes, another 4xx only warns, a 5xx and a 2xx fail', () => {
    expect(conforms(refuseMalformedJson.judge({ answer: answer(422, { detail: 'bad json' }), raw: '{' }))).toBe(true);
    expect(severities(refuseMalformedJson.judge({ answer: answer(400, { detail: 'bad json' }), raw: '{' }))).toEqual(['malformed-json.other-4xx:warning']);
    expect(codes(refuseMalformedJson.judge({ answer: answer(500), raw: '{' }))).toEqual(['malformed-json.status']);
    expect(codes(refuseMalformedJson.judge({ answer: answer(201, {}), raw: '{' }))).toEqual(['malformed-json.accepted']);
  });
});

describe('surviveOddBodies ("Bodies are JSON.")', () => {
  it('any 2xx or 4xx, never a 5xx', () => {
    expect(conforms(surviveOddBodies.judge(answer(415)))).toBe(true);
    expect(codes(surviveOddBodies.judge(answer(500)))).toEqual(['odd-body.status']);
  });
});

describe('answerUnknownIdNotFound (one rule for lookups and the negative fuzzer)', () => {
  it('accepts 404 {detail}; warns on a status the Errors table does not list (400, 414)', () => {
    expect(conforms(answerUnknownIdNotFound.judge(answer(404, { detail: 'not found' })))).toBe(true);
    expect(severities(answerUnknownIdNotFound.judge(answer(414)))).toEqual(['unknown-id.undocumented-4xx:warning']);
    expect(severities(answerUnknownIdNotFound.judge(answer(400, { detail: 'bad id' })))).toEqual(['unknown-id.undocumented-4xx:warning']);
  });
  it('fails a table status with another meaning (422 is "invalid request body"), a 2xx and a 5xx', () => {
    expect(severities(answerUnknownIdNotFound.judge(answer(422, { detail: 'malformed id' })))).toEqual(['unknown-id.status:failure']);
    expect(severities(answerUnknownIdNotFound.judge(answer(409, { detail: 'x' })))).toEqual(['unknown-id.status:failure']);
    expect(severities(answerUnknownIdNotFound.judge(answer(200, {})))).toEqual(['unknown-id.status:failure']);
    expect(severities(answerUnknownIdNotFound.judge(answer(502)))).toEqual(['unknown-id.status:failure']);
  });
  it('isDotSegment names the ids that are another route after normalisation', () => {
    expect(['.', '..', '%2e', '%2E%2e'].every(isDotSegment)).toBe(true);
    expect(['...', 'a.', '.a'].some(isDotSegment)).toBe(false);
  });
});

describe('ensurePayoutUnavailable', () => {
  it('accepts 404 or 403', () => {
    expect(conforms(ensurePayoutUnavailable(answer(404), { requirements: ['PT-PAYOUT-UNAVAILABLE'] }))).toBe(true);
    expect(conforms(ensurePayoutUnavailable(answer(403), { requirements: ['PT-PAYOUT-UNAVAILABLE'] }))).toBe(true);
  });
  it('warns on a 2xx and even a 5xx: every finding of this ambiguous requirement is a warning', () => {
    expect(severities(ensurePayoutUnavailable(answer(201), { requirements: ['PT-PAYOUT-UNAVAILABLE'] }))).toEqual(['payout.available:warning']);
    expect(severities(ensurePayoutUnavailable(answer(500), { requirements: ['PT-PAYOUT-UNAVAILABLE'] }))).toEqual(['target.5xx:warning']);
  });
});
