import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HttpClient } from '../harness/http/client.js';
import type { Exchange } from '../harness/core/exchange.js';
import { Redactor } from '../harness/http/redact.js';
import { shellQuote, shellWord, toCurl } from '../harness/http/curl.js';
import { GatewayTokenManager } from '../harness/http/auth.js';
import { GatewayClient } from '../harness/http/gateway-client.js';
import { PartnerClient } from '../harness/http/partner-client.js';
import { sendJson, startServer } from './harness-fixtures.js';
import type { TestServer } from './harness-fixtures.js';

/** What the echo server hands out in the current property run. */
const issued = { token: '', signatureSecret: '' };
let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, body, res) => {
    const echo = { method: req.method, url: req.url, headers: req.headers, body };
    const headers = { 'x-echo-auth': String(req.headers.authorization ?? '') };
    if (req.url === '/api/auth') {
      sendJson(res, 200, { success: true, token: issued.token, tokenType: 'Bearer', expiresIn: 60000, echo }, headers);
    } else if (req.url === '/api/v1/webhook' && req.method === 'POST') {
      sendJson(res, 200, { success: true, data: { id: 1, url: 'http://x', events: [], isActive: true, signatureSecret: issued.signatureSecret }, echo }, headers);
    } else {
      sendJson(res, 200, { echo }, headers);
    }
  });
});
afterAll(async () => {
  await server.close();
});

/** Sh round trip: what the shell makes of a word. */
function shellEval(word: string, env: Record<string, string> = {}): string {
  return execFileSync('sh', ['-c', `printf '%s' ${word}`], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' });
}

const headerSafe = fc.string({
  minLength: 16,
  maxLength: 40,
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const anyText = fc.string({ minLength: 16, maxLength: 40, unit: fc.oneof(fc.constantFrom('"', '\\', "'", '$', ' ', 'é', '😀', '\n', '/'), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' })) });

function allText(exchanges: Exchange[]): string[] {
  return [JSON.stringify(exchanges), ...exchanges.flatMap((e) => [e.curl, e.request.url, e.request.body ?? '', e.response?.body ?? '', ...Object.values(e.request.headers), ...Object.values(e.response?.headers ?? {})])];
}

describe('redaction', () => {
  it('no secret reaches a recorded exchange or curl line (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ clientSecret: anyText, token: headerSafe, apiKey: headerSafe, cardToken: anyText, signatureSecret: anyText }),
        async (s) => {
          issued.token = s.token;
          issued.signatureSecret = s.signatureSecret;
          const redactor = new Redactor();
          const gwHttp = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor });
          const ptHttp = new HttpClient({ baseUrl: `${server.url}/v1`, api: 'partner', redactor });
          const exchanges: Exchange[] = [];
          const observer = { observe: (e: Exchange) => exchanges.push(e) };
          try {
            const tokens = new GatewayTokenManager(gwHttp, { clientId: 'client-id', clientSecret: s.clientSecret }, 'sandbox');
            const gw = new GatewayClient({ http: gwHttp, tokens, observer });
            await gw.auth();
            await gw.getBalance();
            await gw.createCardCharge({ amountInCents: 100, currency: 'USD', card: { token: s.cardToken, last4: '4242', brand: 'visa', holderName: 'X' } });
            await gw.createWebhook({ url: 'http://127.0.0.1/hook', events: ['transaction_paid'] });
            // the webhook secret, learnt from the creation response, is redacted when echoed later
            await gw.send({ method: 'POST', path: '/api/v1/echo', json: { echoed: s.signatureSecret, nested: JSON.stringify({ t: s.token }) } });
            const pt = new PartnerClient({ http: ptHttp, apiKey: s.apiKey, observer });
            await pt.getFinance();
            await pt.send({ method: 'GET', path: '/business/pix-charges', query: { q: s.apiKey } });
          } finally {
            await Promise.all([gwHttp.destroy(), ptHttp.destroy()]);
          }
          expect(exchanges.length).toBeGreaterThanOrEqual(7);
          const texts = allText(exchanges);
          for (const secret of Object.values(s)) {
            const variants = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];
            for (const text of texts) for (const v of variants) expect(text.includes(v), `secret ${JSON.stringify(secret)} leaked in ${text.slice(0, 200)}`).toBe(false);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('marks Authorization values with their kind and learns secret JSON fields', () => {
    const r = new Redactor();
    r.register('tok_0123456789', 'GATEWAY_TOKEN');
    expect(r.redactHeaders({ Authorization: 'Bearer tok_0123456789' })).toEqual({ authorization: 'Bearer <redacted:GATEWAY_TOKEN>' });
    expect(r.redactHeaders({ authorization: 'Basic abc' })).toEqual({ authorization: 'Basic <redacted>' });
    expect(r.redactHeaders({ cookie: 'a=b' })).toEqual({ cookie: '<redacted>' });
    // an unknown credential (negative test) is hidden in the header but not learnt as a secret
    expect(r.redactHeaders({ authorization: 'Bearer invalid-token' })).toEqual({ authorization: 'Bearer <redacted>' });
    expect(r.redactText('message: invalid-token')).toBe('message: invalid-token');
    const body = r.redactBody('{"data":{"signatureSecret":"whsec_abcdefgh","id":1}}');
    expect(body).toBe('{"data":{"signatureSecret":"<redacted:GATEWAY_WEBHOOK_SECRET>","id":1}}');
    expect(r.redactText('later: whsec_abcdefgh')).toBe('later: <redacted:GATEWAY_WEBHOOK_SECRET>');
    // too short to learn globally: the document is re-serialised without it
    expect(r.redactBody('{ "token": "abc" }')).toBe('{"token":"<redacted>"}');
    expect(r.redactBody('not json tok_0123456789')).toBe('not json <redacted:GATEWAY_TOKEN>');
  });
});

describe('redaction with many secrets', () => {
  it('hides every secret and its variants, learnt early or late (past the alternation rebuilds)', () => {
    const r = new Redactor();
    const values = Array.from({ length: 150 }, (_, i) => `tok-${i}-${'x'.repeat(i % 7)}/+"${i}`);
    const check = (upTo: number): void => {
      for (const v of values.slice(0, upTo)) {
        for (const text of [v, JSON.stringify({ v }), encodeURIComponent(v), Buffer.from(v).toString('base64'), JSON.stringify(JSON.stringify({ v }))]) {
          const out = r.redactText(`a ${text} b`);
          expect(out).not.toContain(v);
          expect(out).toContain('<redacted:K');
        }
      }
      expect(r.redactText('nothing secret here')).toBe('nothing secret here');
    };
    values.forEach((v, i) => {
      r.register(v, `K${i}`);
      if (i % 37 === 0) check(i + 1);
    });
    check(values.length);
    // a new kind for a known value names it from then on
    r.register(values[0] ?? '', 'GATEWAY_TOKEN');
    expect(r.redactText(values[0] ?? '')).toBe('<redacted:GATEWAY_TOKEN>');
  });
});

describe('records redacted when read (harness/http/exchange.ts)', () => {
  it('learns a body\'s secret fields at once and hides a secret learnt later in a record made earlier', async () => {
    const redactor = new Redactor();
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor });
    const later = 'sk_live_learnt_afterwards_123';
    try {
      // the echo response carries the value before anything says it is a secret
      const early = await http.request({ api: 'gateway', method: 'POST', path: '/api/v1/echo', json: { note: later } });
      // a response field named like a secret teaches it at once, before its record is read
      issued.signatureSecret = 'whsec_learnt_at_once_456';
      await http.request({ api: 'gateway', method: 'POST', path: '/api/v1/webhook', json: { url: 'http://x', events: [] } });
      expect(redactor.isSecret('whsec_learnt_at_once_456')).toBe(true);
      redactor.register(later, 'PARTNER_API_KEY');
      const e = early.exchange;
      const rendered = [JSON.stringify(e), JSON.stringify({ ...e, response: { ...e.response } }), JSON.stringify(structuredClone(e)), e.curl, e.request.body ?? '', e.response?.body ?? '', JSON.stringify(e.response?.json)];
      for (const text of rendered) expect(text).not.toContain(later);
      expect(e.response?.body).toContain('<redacted:PARTNER_API_KEY>');
      // the caller's raw view is unchanged
      expect(early.text).toContain(later);
    } finally {
      await http.destroy();
    }
  });
});

describe('curl', () => {
  it('single-quotes any text so the shell gives it back unchanged (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom("'", '"', '\\', '$', '`', '!', ' ', '\n', '*', ';', '&'), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' })) }).filter((t) => !t.includes('\0')), (text) => {
        expect(shellEval(shellQuote(text))).toBe(text);
        expect(shellEval(shellWord(text))).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it('turns redaction markers into environment variable references', () => {
    expect(shellEval(shellWord(`{"t":"<redacted:CARD_TOKEN>","q":"it's $HOME"}`), { CARD_TOKEN: 'ctoken_1' })).toBe(`{"t":"ctoken_1","q":"it's $HOME"}`);
    const curl = toCurl({
      request: {
        method: 'post',
        url: 'http://127.0.0.1:1/api/v1/balance?x=1&y=2',
        headers: { authorization: 'Bearer <redacted:GATEWAY_TOKEN>', 'content-type': 'application/json', 'content-length': '2' },
        body: '{}',
      },
    });
    expect(curl).toBe(`curl -sS -i -X POST -H "authorization: Bearer $GATEWAY_TOKEN" -H 'content-type: application/json' --data-binary '{}' 'http://127.0.0.1:1/api/v1/balance?x=1&y=2'`);
    const auth = toCurl({ request: { method: 'POST', url: 'http://h/api/auth', headers: { authorization: 'Basic <redacted:GATEWAY_LIVE_BASIC>' } } });
    expect(auth).toBe(`curl -sS -i -X POST -u "$GATEWAY_LIVE_CLIENT_ID:$GATEWAY_LIVE_CLIENT_SECRET" http://h/api/auth`);
    const partner = toCurl({ request: { method: 'GET', url: 'http://h/v1/business/finance', headers: { authorization: 'Bearer <redacted:PARTNER_API_KEY>' } } });
    expect(partner).toContain('-H "authorization: Bearer $PARTNER_API_KEY"');
  });
});
