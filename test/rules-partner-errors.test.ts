import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { answerErrorsWithDetail, answerUnknownIdNotFound, isDotSegment, keepAccountsApart, refuseInvalidBody, refuseMalformedJson, refuseWithoutValidKey, surviveOddBodies } from '../harness/rules/partner/index.js';
import { signPartner } from '../harness/webhooks/signatures.js';
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
  it('decides "All routes need" on every route, and "No OAuth, session" for a session cookie', () => {
    expect(refuseWithoutValidKey.judge({ answer: answer(401, { detail: 'x' }), key: 'none', everyRoute: true }).requirements).toEqual(['PT-AUTH-401', 'PT-AUTH-ROUTES', 'PT-ERR-DETAIL-SHAPE']);
    const cookie = refuseWithoutValidKey.judge({ answer: answer(200, {}), key: 'cookie', sessionCookie: true });
    expect(cookie.findings[0]?.requirements).toEqual(['PT-AUTH-401', 'PT-AUTH-BEARER']);
  });
  it('a lenient spelling of the key (RFC 7235) may be served or refused with 401; a charge they tried to change stays pending', () => {
    expect(conforms(refuseWithoutValidKey.judge({ lenient: answer(200, {}), key: 'bearer' }))).toBe(true);
    expect(conforms(refuseWithoutValidKey.judge({ lenient: answer(401, { detail: 'x' }), key: 'bearer' }))).toBe(true);
    expect(codes(refuseWithoutValidKey.judge({ lenient: answer(403, { detail: 'x' }), key: 'bearer' }))).toEqual(['auth.lenient-status']);
    expect(conforms(refuseWithoutValidKey.judge({ untouched: { ...answer(200), state: 'pending' }, why: 'x' }))).toBe(true);
    expect(codes(refuseWithoutValidKey.judge({ untouched: { ...answer(200), state: 'canceled' }, why: 'x' }))).toEqual(['auth.acted-without-key']);
  });
});

describe('keepAccountsApart ("404 | … belongs to another account")', () => {
  it('accepts 404 {detail} on their by-id requests and our charge untouched', () => {
    expect(conforms(keepAccountsApart.judge({ kind: 'by-id', answer: answer(404, { detail: 'not found' }) }))).toBe(true);
    expect(conforms(keepAccountsApart.judge({ kind: 'state', answer: answer(200), state: 'pending', why: 'x' }))).toBe(true);
  });
  it('fails our charge reached (2xx), another status, our charge changed', () => {
    expect(codes(keepAccountsApart.judge({ kind: 'by-id', answer: answer(200, { id: 'c' }) }))).toEqual(['account.visible']);
    expect(codes(keepAccountsApart.judge({ kind: 'by-id', answer: answer(403, { detail: 'x' }) }))).toEqual(['account.status']);
    expect(codes(keepAccountsApart.judge({ kind: 'state', answer: answer(200), state: 'paid', why: 'x' }))).toEqual(['account.changed']);
  });
  it('judges what sits behind the lookups: an Idempotency-Key, the ledger, the webhook endpoint', () => {
    const reuse = (status: number, json: unknown) => keepAccountsApart.judge({ kind: 'key-reuse', ourChargeId: 'pix_a', answer: answer(status, json) });
    expect(conforms(reuse(200, { id: 'pix_b' }))).toBe(true);
    expect(severities(reuse(200, { data: { id: 'pix_a' } }))).toEqual(['account.idempotency-shared:failure']);
    expect(severities(reuse(409, { detail: 'x' }))).toEqual(['account.idempotency-key-taken:warning']);
    expect(reuse(500, {}).requirements).toEqual([]);
    const postings = (description: string) => keepAccountsApart.judge({ kind: 'postings', statement: { transactions: [{ id: 't', description }] }, ours: { id: 'pix_a', e2eId: 'E9999' }, exchanges: [] });
    expect(conforms(postings('PIX charge pix_b captured'))).toBe(true);
    expect(codes(postings('E9999'))).toEqual(['account.foreign-posting']);
    expect(keepAccountsApart.judge({ kind: 'postings', statement: {}, ours: { id: 'pix_a' }, exchanges: [] }).requirements).toEqual([]);
    const body = '{"type":"business.pix.created","data":{"external_ref":"ptc-theirs-2"}}';
    const delivery = (secret: string) => ({ seq: 2, headers: { 'x-service-signature': signPartner({ secret, body }) }, rawBody: Buffer.from(body), bodyText: body, receivedAt: Date.now() });
    const deliveries = (secret: string) => keepAccountsApart.judge({ kind: 'deliveries', deliveries: [delivery(secret)], token: 'ptc-theirs-2', secret: 'whsec_ours', exchanges: [] });
    expect(severities(deliveries('whsec_ours'))).toEqual(['account.foreign-event:failure']);
    expect(severities(deliveries('whsec_theirs'))).toEqual(['account.foreign-event-unsigned:warning']);
    expect(conforms(keepAccountsApart.judge({ kind: 'deliveries', deliveries: [], token: 'ptc-theirs-2', secret: 'whsec_ours', exchanges: [] }))).toBe(true);
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
