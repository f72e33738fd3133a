import { describe, expect, it } from 'vitest';
import {
  TOKEN_EXPIRY_LEEWAY_MS,
  answerTokenExchange,
  readCredentialsFromBasicHeader,
  refuseExpiredToken,
  refuseInvalidCredentials,
  reissueTokenAfterExpiry,
  requireBearerOnEveryRoute,
} from '../harness/rules/gateway/auth.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
const good = { success: true, token: JWT, tokenType: 'Bearer', expiresIn: 60000 };

describe('answerTokenExchange ("200: success, token (JWT), tokenType (Bearer), expiresIn in milliseconds")', () => {
  it('accepts the documented body, and tokenType in any letter case', () => {
    expect(found(answerTokenExchange.judge(answer(200, good)))).toEqual([]);
    expect(found(answerTokenExchange.judge(answer(200, { ...good, tokenType: 'bearer' })))).toEqual([]);
    expect(answerTokenExchange.judge(answer(200, good)).requirements).toEqual(expect.arrayContaining(['GW-AUTH-200-SHAPE', 'GW-AUTH-TOKEN-TYPE-BEARER', 'GW-AUTH-TOKEN-JWT', 'GW-AUTH-EXPIRES-IN-MS']));
  });
  it('fails another token type, a token that is not a JWT, a body that is not an object', () => {
    expect(found(answerTokenExchange.judge(answer(200, { ...good, tokenType: 'Basic' })))).toEqual(['failure:auth.token-type']);
    expect(found(answerTokenExchange.judge(answer(200, { ...good, token: 'opaque-token' })))).toEqual(['failure:auth.token-not-jwt']);
    expect(found(answerTokenExchange.judge(answer(200, ['x'])))).toEqual(['failure:auth.exchange-not-object']);
  });
  it('warns for success other than true and an expiresIn that reads as seconds', () => {
    expect(found(answerTokenExchange.judge(answer(200, { ...good, success: 'yes' })))).toEqual(['warning:auth.success-false']);
    expect(found(answerTokenExchange.judge(answer(200, { ...good, expiresIn: 60 })))).toEqual(['warning:auth.expires-in-unit']);
    expect(found(answerTokenExchange.judge(answer(200, { ...good, expiresIn: 1000 })))).toEqual([]);
  });
  it('another status decides nothing (readCredentialsFromBasicHeader judges it)', () => {
    expect(answerTokenExchange.judge(answer(401, { success: false, message: 'no' })).requirements).toEqual([]);
  });
});

describe('readCredentialsFromBasicHeader ("Header Authorization: Basic <base64(client_id:client_secret)>")', () => {
  it('the pair in Basic form gets 200; anything else fails', () => {
    expect(found(readCredentialsFromBasicHeader.judge({ answer: answer(200, good), form: 'basic', label: 'the pair' }))).toEqual([]);
    expect(found(readCredentialsFromBasicHeader.judge({ answer: answer(401), form: 'basic', label: 'the pair' }))).toEqual(['failure:auth.basic-not-exchanged']);
  });
  it('an unreadable header: 401 passes, 400 warns, a token fails', () => {
    expect(found(readCredentialsFromBasicHeader.judge({ answer: answer(401), form: 'unreadable', label: 'Bearer scheme' }))).toEqual([]);
    expect(found(readCredentialsFromBasicHeader.judge({ answer: answer(400), form: 'unreadable', label: 'no colon' }))).toEqual(['warning:auth.unreadable-header-other-4xx']);
    expect(found(readCredentialsFromBasicHeader.judge({ answer: answer(200, good), form: 'unreadable', label: 'Bearer scheme' }))).toEqual(['failure:auth.unreadable-header-status']);
  });
});

describe('refuseInvalidCredentials ("401 invalid credentials")', () => {
  it('401 without a token passes; a 403 fails; a token fails whatever the status', () => {
    expect(found(refuseInvalidCredentials.judge({ answer: answer(401, { success: false }), label: 'wrong secret' }))).toEqual([]);
    expect(found(refuseInvalidCredentials.judge({ answer: answer(403, { success: false }), label: 'wrong secret' }))).toEqual(['failure:auth.invalid-credentials-status']);
    expect(found(refuseInvalidCredentials.judge({ answer: answer(200, good), label: 'wrong secret' }))).toEqual(['failure:auth.invalid-credentials-status', 'failure:auth.token-for-invalid-credentials']);
  });
});

describe('requireBearerOnEveryRoute ("401 | token missing, invalid or expired")', () => {
  it('401 passes whatever the body, and decides the row of the token sent', () => {
    const j = requireBearerOnEveryRoute.judge({ answer: answer(401, undefined, { body: 'Unauthorized' }), token: 'missing', label: 'balance' });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-AUTH-401-MISSING', 'GW-AUTH-BEARER-EVERY-ROUTE', 'GW-ANY-401-429']);
  });
  it('a refused request answered 200 or 403 fails', () => {
    const j = requireBearerOnEveryRoute.judge({ answer: answer(200, {}), token: 'invalid', label: 'balance' });
    expect(found(j)).toEqual(['failure:auth.token-not-refused']);
    expect(j.requirements).toContain('GW-AUTH-401-INVALID-TOKEN');
    expect(found(requireBearerOnEveryRoute.judge({ answer: answer(403, {}), token: 'missing', label: 'balance' }))).toEqual(['failure:auth.token-not-refused']);
  });
  it('a token just issued opens the route', () => {
    expect(found(requireBearerOnEveryRoute.judge({ answer: answer(200, {}), token: 'issued', label: 'balance' }))).toEqual([]);
    expect(found(requireBearerOnEveryRoute.judge({ answer: answer(401, {}), token: 'issued', label: 'balance' }))).toEqual(['failure:auth.issued-token-refused']);
  });
});

describe('refuseExpiredToken ("after expiry a route answers 401")', () => {
  it('passes a token refused just after expiresIn', () => {
    expect(found(refuseExpiredToken.judge([{ afterExpiryMs: 1000, exchange: exchange(401) }]))).toEqual([]);
  });
  it('accepts a token still valid inside the clock leeway and refused beyond it', () => {
    const j = refuseExpiredToken.judge([
      { afterExpiryMs: 1000, exchange: exchange(200) },
      { afterExpiryMs: TOKEN_EXPIRY_LEEWAY_MS + 1000, exchange: exchange(401) },
    ]);
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-AUTH-EXPIRY']);
  });
  it('fails a token still accepted beyond the leeway', () => {
    expect(found(refuseExpiredToken.judge([
      { afterExpiryMs: 1000, exchange: exchange(200) },
      { afterExpiryMs: TOKEN_EXPIRY_LEEWAY_MS + 1000, exchange: exchange(200) },
    ]))).toEqual(['failure:auth.expired-token-accepted']);
  });
  it('decides nothing from a probe inside the leeway alone', () => {
    expect(refuseExpiredToken.judge([{ afterExpiryMs: 1000, exchange: exchange(200) }]).requirements).toEqual([]);
  });
});

describe('reissueTokenAfterExpiry ("the client calls POST /api/auth again")', () => {
  it('a new token that opens a route passes; a refused exchange or token fails', () => {
    expect(found(reissueTokenAfterExpiry.judge({ again: answer(200, good), use: answer(200, {}) }))).toEqual([]);
    expect(found(reissueTokenAfterExpiry.judge({ again: answer(401) }))).toEqual(['failure:auth.reauth-refused']);
    expect(found(reissueTokenAfterExpiry.judge({ again: answer(200, good), use: answer(401) }))).toEqual(['failure:auth.reissued-token-refused']);
  });
});
