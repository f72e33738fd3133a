import { describe, expect, it } from 'vitest';
import {
  TOKEN_EXPIRY_LEEWAY_MS,
  ensureNoTokenForInvalidCredentials,
  expectCredentialsRefused,
  expectTokenRefused,
  judgeTokenExpiry,
  verifyTokenResponse,
} from '../harness/rules/gateway/auth.js';
import { exchange, found } from './rules-gateway-fixtures.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
const good = { success: true, token: JWT, tokenType: 'Bearer', expiresIn: 60000 };

describe('verifyTokenResponse', () => {
  it('accepts the documented body, and tokenType in any letter case', () => {
    expect(found(verifyTokenResponse(good))).toEqual([]);
    expect(found(verifyTokenResponse({ ...good, tokenType: 'bearer' }))).toEqual([]);
    expect(verifyTokenResponse(good).requirements).toEqual(expect.arrayContaining(['GW-AUTH-TOKEN-TYPE-BEARER', 'GW-AUTH-TOKEN-JWT', 'GW-AUTH-EXPIRES-IN-MS']));
  });
  it('fails another token type and a token that is not a JWT', () => {
    expect(found(verifyTokenResponse({ ...good, tokenType: 'Basic' }))).toEqual(['failure:auth.token-type']);
    expect(found(verifyTokenResponse({ ...good, token: 'opaque-token' }))).toEqual(['failure:auth.token-not-jwt']);
  });
  it('warns for success other than true and an expiresIn that reads as seconds', () => {
    expect(found(verifyTokenResponse({ ...good, success: 'yes' }))).toEqual(['warning:auth.success-false']);
    expect(found(verifyTokenResponse({ ...good, expiresIn: 60 }))).toEqual(['warning:auth.expires-in-unit']);
    expect(found(verifyTokenResponse({ ...good, expiresIn: 1000 }))).toEqual([]);
  });
});

describe('credential refusals', () => {
  it('ensureNoTokenForInvalidCredentials: 401 without token passes; a token or a 200 fails', () => {
    expect(found(ensureNoTokenForInvalidCredentials(exchange(401, { success: false }), { success: false }))).toEqual([]);
    expect(found(ensureNoTokenForInvalidCredentials(exchange(200, good), good))).toEqual(['failure:status.unexpected', 'failure:auth.token-for-invalid-credentials']);
  });
  it('expectCredentialsRefused: 401 passes, 400 warns, 200 fails', () => {
    expect(found(expectCredentialsRefused(exchange(401)))).toEqual([]);
    expect(found(expectCredentialsRefused(exchange(400)))).toEqual(['warning:status.unexpected']);
    expect(found(expectCredentialsRefused(exchange(200, good)))).toEqual(['failure:status.unexpected']);
  });
  it('expectTokenRefused: 401 passes whatever the body; 200 fails', () => {
    expect(found(expectTokenRefused(exchange(401, undefined, { body: 'Unauthorized' }), 'missing'))).toEqual([]);
    const j = expectTokenRefused(exchange(200, {}), 'invalid');
    expect(found(j)).toEqual(['failure:status.unexpected']);
    expect(j.requirements).toContain('GW-AUTH-401-INVALID-TOKEN');
  });
});

describe('judgeTokenExpiry', () => {
  it('passes a token refused just after expiresIn', () => {
    expect(found(judgeTokenExpiry([{ afterExpiryMs: 1000, exchange: exchange(401) }]))).toEqual([]);
  });
  it('accepts a token still valid inside the clock leeway and refused beyond it', () => {
    const j = judgeTokenExpiry([
      { afterExpiryMs: 1000, exchange: exchange(200) },
      { afterExpiryMs: TOKEN_EXPIRY_LEEWAY_MS + 1000, exchange: exchange(401) },
    ]);
    expect(found(j)).toEqual([]);
    expect(j.requirements).toContain('GW-AUTH-EXPIRY');
  });
  it('fails a token still accepted beyond the leeway', () => {
    expect(found(judgeTokenExpiry([
      { afterExpiryMs: 1000, exchange: exchange(200) },
      { afterExpiryMs: TOKEN_EXPIRY_LEEWAY_MS + 1000, exchange: exchange(200) },
    ]))).toEqual(['failure:status.unexpected']);
  });
  it('decides nothing from a probe inside the leeway alone', () => {
    expect(judgeTokenExpiry([{ afterExpiryMs: 1000, exchange: exchange(200) }]).requirements).toEqual([]);
  });
});
