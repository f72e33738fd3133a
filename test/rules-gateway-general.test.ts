import { describe, expect, it } from 'vitest';
import { verifyEnvironmentsAlike, verifyHttpsBaseUrl, verifyServedUnderVersionPrefix } from '../harness/rules/gateway/general.js';
import { answered, codes, severities } from './rules-gateway-fixtures.js';

describe('verifyHttpsBaseUrl ("JSON over HTTPS at {base_url}")', () => {
  const c = { requirements: ['GW-SVC-JSON-HTTPS'] as const };
  it('accepts https, and plain HTTP on loopback (a local setup)', () => {
    expect(verifyHttpsBaseUrl('https://api.example.com', c)).toEqual({ requirements: ['GW-SVC-JSON-HTTPS'], findings: [] });
    expect(verifyHttpsBaseUrl('http://127.0.0.1:8080', c).findings).toEqual([]);
  });
  it('warns on plain HTTP elsewhere', () => {
    expect(severities(verifyHttpsBaseUrl('http://api.example.com', c))).toEqual(['warning']);
  });
});

describe('verifyServedUnderVersionPrefix ("Routes other than authentication carry the prefix /api/v1")', () => {
  const c = { requirements: ['GW-VER-PREFIX'] as const };
  it('accepts a documented route answering under /api/v1 (any status but 404/405)', () => {
    expect(verifyServedUnderVersionPrefix(answered(200, {}, { method: 'GET', path: '/api/v1/balance' }), c).findings).toEqual([]);
    expect(verifyServedUnderVersionPrefix(answered(401, {}, { method: 'GET', path: '/api/v1/balance' }), c).findings).toEqual([]);
  });
  it('fails 404/405 on a documented route; decides nothing off the prefix', () => {
    expect(codes(verifyServedUnderVersionPrefix(answered(404, '', { method: 'GET', path: '/api/v1/balance' }), c))).toEqual(['config.version']);
    expect(verifyServedUnderVersionPrefix(answered(404, '', { path: '/api/auth' }), c).requirements).toEqual([]);
  });
});

describe('verifyEnvironmentsAlike ("everything else behaves identically in both")', () => {
  const c = { requirements: ['GW-ENV-IDENTICAL-BEHAVIOUR'] as const };
  it('accepts the same status; decides nothing on a 429', () => {
    expect(verifyEnvironmentsAlike(answered(400), answered(400), 'x', c).findings).toEqual([]);
    expect(verifyEnvironmentsAlike(answered(400), answered(429), 'x', c).requirements).toEqual([]);
  });
  it('fails different statuses', () => {
    expect(codes(verifyEnvironmentsAlike(answered(400), answered(422), 'x', c))).toEqual(['environment.behaviour-differs']);
  });
});
