import { describe, expect, it } from 'vitest';
import { behaveAlikeInBothEnvironments, serveOverHttps, serveUnderVersionPrefix, surviveBodyOnTokenExchange } from '../harness/rules/gateway/general.js';
import { verifyTransactionLookup } from '../harness/rules/gateway/transactions.js';
import { answer, answered, codes, severities } from './rules-gateway-fixtures.js';

describe('serveOverHttps ("JSON over HTTPS at {base_url}")', () => {
  it('accepts https, and plain HTTP on loopback (a local setup)', () => {
    expect(serveOverHttps.judge('https://api.example.com')).toMatchObject({ requirements: ['GW-SVC-JSON-HTTPS'], findings: [] });
    expect(serveOverHttps.judge('http://127.0.0.1:8080').findings).toEqual([]);
  });
  it('warns on plain HTTP elsewhere, and on a base URL that is no URL', () => {
    expect(severities(serveOverHttps.judge('http://api.example.com'))).toEqual(['warning']);
    expect(severities(serveOverHttps.judge('api'))).toEqual(['warning']);
  });
});

describe('serveUnderVersionPrefix ("Routes other than authentication carry the prefix /api/v1")', () => {
  it('accepts a documented route answering under /api/v1 (any status but 404/405)', () => {
    expect(serveUnderVersionPrefix.judge(answered(200, {}, { method: 'GET', path: '/api/v1/balance' })).findings).toEqual([]);
    expect(serveUnderVersionPrefix.judge(answered(401, {}, { method: 'GET', path: '/api/v1/balance' })).findings).toEqual([]);
  });
  it('fails 404/405 on a documented route; decides nothing off the prefix', () => {
    expect(codes(serveUnderVersionPrefix.judge(answered(404, '', { method: 'GET', path: '/api/v1/balance' })))).toEqual(['config.version']);
    expect(serveUnderVersionPrefix.judge(answered(404, '', { path: '/api/auth' })).requirements).toEqual([]);
  });
});

describe('surviveBodyOnTokenExchange ("No body is accepted": ignored or refused)', () => {
  it('any 2xx or 4xx passes, a 5xx fails', () => {
    expect(surviveBodyOnTokenExchange.judge(answer(200, {})).findings).toEqual([]);
    expect(surviveBodyOnTokenExchange.judge(answer(400, {})).findings).toEqual([]);
    expect(codes(surviveBodyOnTokenExchange.judge(answer(500)))).toEqual(['auth.body-crashes']);
  });
});

describe('behaveAlikeInBothEnvironments ("everything else behaves identically in both")', () => {
  it('accepts the same status; decides nothing on a 429', () => {
    expect(behaveAlikeInBothEnvironments.judge({ sandbox: answer(400), live: answer(400), what: 'x' }).findings).toEqual([]);
    expect(behaveAlikeInBothEnvironments.judge({ sandbox: answer(400), live: answer(429), what: 'x' }).requirements).toEqual([]);
  });
  it('fails different statuses', () => {
    expect(codes(behaveAlikeInBothEnvironments.judge({ sandbox: answer(400), live: answer(422), what: 'x' }))).toEqual(['environment.behaviour-differs']);
  });
});

describe('verifyTransactionLookup ("Response body: not shown"; "All bodies are JSON")', () => {
  const c = { requirements: ['GW-TXN-LOOKUP-PIX'] as const };
  it('accepts any 2xx with JSON or with no body', () => {
    expect(verifyTransactionLookup(answered(200, { success: true, data: {} }), c).findings).toEqual([]);
    expect(verifyTransactionLookup(answered(204, ''), c).findings).toEqual([]);
    expect(verifyTransactionLookup(answered(200, ''), c).findings).toEqual([]);
  });
  it('fails a non-JSON body and a 404 for a known id', () => {
    expect(codes(verifyTransactionLookup(answered(200, '<html>'), c))).toEqual(['txn.not-json']);
    expect(severities(verifyTransactionLookup(answered(404), c))).toEqual(['failure']);
  });
});
