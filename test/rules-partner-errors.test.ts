import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { ensurePayoutUnavailable, expectPartnerError, isDotSegment, judgeInvalidBody, judgeUnknownIdAnswer, verifyErrorBody } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('verifyErrorBody / expectPartnerError', () => {
  it('accepts {detail} on a documented error status; a 429 body of any shape decides nothing', () => {
    expect(conforms(expectPartnerError(answer(401, { detail: 'missing key' }), 401, { requirements: ['PT-AUTH-401'] }))).toBe(true);
    expect(verifyErrorBody(answer(429, 'slow down')).requirements).toEqual([]);
  });
  it('fails another body on 404 and another status; a 429 only warns', () => {
    expect(codes(expectPartnerError(answer(404, { error: 'NOT_FOUND' }), 404, { requirements: ['PT-ERR-404-UNKNOWN'] }))).toEqual(['error.partner-shape']);
    expect(codes(expectPartnerError(answer(400, { detail: 'x' }), 409, { requirements: ['PT-CHARGE-CANCEL-409'] }))).toEqual(['status.unexpected']);
    expect(severities(expectPartnerError(answer(429, 'x'), 409, { requirements: ['PT-CHARGE-CANCEL-409'] }))).toEqual(['status.rate-limited:warning']);
  });
});

describe('judgeInvalidBody', () => {
  it('accepts 422 {detail} naming the field', () => {
    expect(conforms(judgeInvalidBody(answer(422, { detail: 'amount_cents must be > 0' }), { requirements: ['PT-CHARGE-AMOUNT-POSITIVE'], what: 'amount 0', field: 'amount_cents' }))).toBe(true);
  });
  it('fails an accepted body and a 400; warns when the detail does not name the field', () => {
    expect(codes(judgeInvalidBody(answer(200, { id: 'x' }), { requirements: ['PT-CHARGE-AMOUNT-POSITIVE'], what: 'amount 0' }))).toEqual(['negative.accepted']);
    expect(severities(judgeInvalidBody(answer(400, { detail: 'bad' }), { requirements: ['PT-CHARGE-AMOUNT-POSITIVE'], what: 'amount 0' }))).toEqual(['status.unexpected:failure']);
    expect(severities(judgeInvalidBody(answer(422, { detail: 'bad input' }), { requirements: ['PT-CHARGE-AMOUNT-POSITIVE'], what: 'amount 0', field: 'amount_cents' }))).toEqual(['error.field-not-named:warning']);
  });
  it('a body that is not JSON at all: another 4xx only warns, a 5xx fails', () => {
    expect(severities(judgeInvalidBody(answer(400, { detail: 'bad json' }), { requirements: ['PT-ERR-422-MALFORMED-JSON'], what: '{', malformed: true }))).toEqual(['status.unexpected:warning']);
    expect(severities(judgeInvalidBody(answer(500), { requirements: ['PT-ERR-422-MALFORMED-JSON'], what: '{', malformed: true }))).toEqual(['target.5xx:failure']);
  });
});

describe('judgeUnknownIdAnswer (one rule for lookups and the negative fuzzer)', () => {
  it('accepts 404 {detail}; warns on 400/414', () => {
    expect(conforms(judgeUnknownIdAnswer(answer(404, { detail: 'not found' }), { requirements: ['PT-ERR-404-UNKNOWN'] }))).toBe(true);
    expect(severities(judgeUnknownIdAnswer(answer(414), { requirements: ['PT-ERR-404-UNKNOWN'] }))).toEqual(['status.unexpected:warning']);
  });
  it('fails a 2xx and a 5xx', () => {
    expect(severities(judgeUnknownIdAnswer(answer(200, {}), { requirements: ['PT-ERR-404-UNKNOWN'] }))).toEqual(['status.unexpected:failure']);
    expect(severities(judgeUnknownIdAnswer(answer(502), { requirements: ['PT-ERR-404-UNKNOWN'] }))).toEqual(['target.5xx:failure']);
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
