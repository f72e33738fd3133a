/**
 * Reproductions are runnable as printed (conformance.md, the console, Allure): a gateway request
 * carrying a bearer token comes after the token request that gives it, and every secret is a
 * `$VARIABLE` reference, never a value.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import type { Finding } from '../harness/rules/finding.js';
import { renderFinding, renderSequence } from '../harness/report/format.js';
import { formatExchange } from '../harness/report/allure.js';
import { toCurl } from '../harness/http/curl.js';

function exchange(headers: Record<string, string>, url = 'http://127.0.0.1:4010/api/v1/balance'): Exchange {
  const request = { method: 'GET', url, headers };
  return { seq: 1, api: 'gateway', operation: 'GET /api/v1/balance', request, startedAt: '2026-11-22T10:00:00.000Z', durationMs: 2, curl: toCurl({ request }), response: { status: 500, headers: {}, body: '' } };
}

const bearer = exchange({ authorization: 'Bearer <redacted:GATEWAY_TOKEN>' });
const finding = (e: Exchange): Finding => ({ code: 'balance.status', rule: 'answerBalance', title: 't', severity: 'failure', requirements: [], expected: 'HTTP 200', actual: 'HTTP 500', exchanges: [e] });
const TOKEN = /export GATEWAY_TOKEN="\$\(curl -sS -X POST -u "\$GATEWAY_CLIENT_ID:\$GATEWAY_CLIENT_SECRET" http:\/\/127\.0\.0\.1:4010\/api\/auth/;

describe('curl reproductions', () => {
  it('a finding (text and markdown) requests the gateway token before the line that uses it', () => {
    for (const format of ['text', 'markdown'] as const) {
      const text = renderFinding(finding(bearer), { format });
      expect(text, format).toMatch(TOKEN);
      expect(text.indexOf('export GATEWAY_TOKEN'), format).toBeLessThan(text.indexOf('authorization: Bearer $GATEWAY_TOKEN'));
    }
  });
  it('a line without a token is left alone', () => {
    const partner = exchange({ 'x-api-key': '<redacted:PARTNER_API_KEY>' }, 'http://127.0.0.1:4011/v1/business/pix-charges');
    const text = renderFinding(finding(partner));
    expect(text).not.toContain('export ');
    expect(text).toContain('"x-api-key: $PARTNER_API_KEY"');
  });
  it('a failing sequence and an Allure exchange attachment too', () => {
    expect(renderSequence({ steps: '1. balance', curl: [bearer.curl] })).toMatch(TOKEN);
    const attached = formatExchange(bearer);
    expect(attached).toMatch(new RegExp(`^\\$ ${TOKEN.source}`));
    expect(attached).toContain('$ curl -sS -i -X GET -H "authorization: Bearer $GATEWAY_TOKEN"');
  });
});
