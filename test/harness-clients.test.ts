import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../harness/http/client.js';
import { Redactor } from '../harness/http/redact.js';
import { AuthFailedError, GatewayTokenManager, basicAuthorization, partnerApiKey, partnerKeyEnvironment, cookieHeaderFrom } from '../harness/http/auth.js';
import { GatewayClient } from '../harness/http/gateway-client.js';
import { PartnerClient } from '../harness/http/partner-client.js';
import { Session } from '../harness/run/session.js';
import { CheckRun, NotRunError } from '../harness/run/check-run.js';
import { renderFinding, replayCommand } from '../harness/report/format.js';
import type { Exchange } from '../harness/core/exchange.js';
import type { Finding, RequirementId } from '../harness/rules/finding.js';
import { loadTargetConfig, startEmbeddedReference, targetFromReference } from '../harness/config/target.js';
import type { EmbeddedReference } from '../harness/config/target.js';
import { fixtureIds, sendJson, startServer } from './harness-fixtures.js';
import type { TestServer } from './harness-fixtures.js';

const pair = { clientId: 'client-1', clientSecret: 'secret-123456' };
const state = { authCalls: 0, valid: new Set<string>(), seen: [] as { url: string; headers: Record<string, unknown>; body: string }[] };
let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, body, res) => {
    state.seen.push({ url: req.url ?? '', headers: req.headers, body });
    if (req.url === '/api/auth') {
      state.authCalls += 1;
      if (req.headers.authorization !== basicAuthorization(pair.clientId, pair.clientSecret)) return sendJson(res, 401, { success: false, message: 'bad' });
      const token = `token-${state.authCalls}-abcdef`;
      state.valid.add(token);
      return sendJson(res, 200, { success: true, token, tokenType: 'Bearer', expiresIn: 60000 });
    }
    const auth = String(req.headers.authorization ?? '');
    if (req.url?.startsWith('/v1/')) return sendJson(res, 200, { ok: true });
    if (!state.valid.has(auth.replace(/^Bearer /, ''))) return sendJson(res, 401, { success: false, message: 'expired' });
    return sendJson(res, 200, { success: true, data: {} });
  });
});
afterAll(async () => {
  await server.close();
});

function gateway(which: 'sandbox' | 'live' = 'sandbox', now?: () => number): { gw: GatewayClient; tokens: GatewayTokenManager; http: HttpClient } {
  const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor: new Redactor() });
  const tokens = new GatewayTokenManager(http, pair, which, now ? { now } : {});
  return { gw: new GatewayClient({ http, tokens }), tokens, http };
}

describe('GatewayTokenManager', () => {
  it('caches the token until shortly before expiresIn and shares one in-flight auth', async () => {
    let t = 0;
    const { tokens, http } = gateway('sandbox', () => t);
    const before = state.authCalls;
    const [a, b] = await Promise.all([tokens.getToken(), tokens.getToken()]);
    expect(a).toBe(b);
    expect(await tokens.getToken()).toBe(a);
    expect(state.authCalls - before).toBe(1);
    t = 60000 - 5000 - 1;
    expect(await tokens.getToken()).toBe(a);
    t = 60000 - 5000;
    expect(await tokens.getToken()).not.toBe(a);
    expect(state.authCalls - before).toBe(2);
    await http.destroy();
  });

  it('withToken renews once after a 401', async () => {
    const { gw, tokens, http } = gateway();
    const first = await tokens.getToken();
    state.valid.delete(first); // the target expired it
    const r = await gw.getBalance();
    expect(r.status).toBe(200);
    expect(await tokens.getToken()).not.toBe(first);
    await http.destroy();
  });

  it('a failed authentication throws AuthFailedError carrying the exchange', async () => {
    const http = new HttpClient({ baseUrl: server.url, api: 'gateway', redactor: new Redactor() });
    const tokens = new GatewayTokenManager(http, { clientId: 'x', clientSecret: 'wrong-secret' });
    const err = await tokens.getToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthFailedError);
    expect((err as AuthFailedError).exchange.response?.status).toBe(401);
    const raw = await tokens.authenticate();
    expect(raw.token).toBeUndefined();
    await http.destroy();
  });
});

describe('GatewayClient', () => {
  it('sends a fresh x-idempotency-key by default, the given one, or none', async () => {
    const { gw, http } = gateway();
    state.seen.length = 0;
    await gw.createTransfer({ pixKey: 'a@b.c', amount: 1 });
    await gw.createTransfer({ pixKey: 'a@b.c', amount: 1 }, { idempotencyKey: 'k-1' });
    await gw.createTransfer({ pixKey: 'a@b.c', amount: 1 }, { idempotencyKey: null });
    const keys = state.seen.filter((s) => s.url === '/api/v1/pix/out/pixkey').map((s) => s.headers['x-idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(1)).toEqual(['k-1', undefined]);
    await http.destroy();
  });

  it('refuses money-moving calls with the live pair, allows the others', async () => {
    const { gw, http } = gateway('live');
    await expect(gw.createTransfer({ pixKey: 'a@b.c', amount: 1 })).rejects.toMatchObject({ code: 'safety.money-moving-production' });
    await expect(gw.createCardCharge({})).rejects.toMatchObject({ code: 'safety.money-moving-production' });
    expect((await gw.getBalance()).status).toBe(200);
    await http.destroy();
  });

  it('auth(): raw exchange, with another pair, or without a header', async () => {
    const { gw, http } = gateway();
    expect((await gw.auth()).status).toBe(200);
    expect((await gw.auth({ clientId: 'x', clientSecret: 'nope-nope' })).status).toBe(401);
    const none = await gw.auth(null);
    expect(none.status).toBe(401);
    expect(none.exchange.request.headers.authorization).toBeUndefined();
    const ok = await gw.auth();
    expect(ok.exchange.response?.body).not.toContain((ok.json as { token: string }).token);
    await http.destroy();
  });

  it('send(): explicit Authorization and no auth for negative tests', async () => {
    const { gw, http } = gateway();
    expect((await gw.send({ method: 'GET', path: '/api/v1/balance', auth: 'none' })).status).toBe(401);
    expect((await gw.send({ method: 'GET', path: '/api/v1/balance', auth: { authorization: 'Bearer nonsense' } })).status).toBe(401);
    await http.destroy();
  });
});

describe('PartnerClient', () => {
  it('sends the key, the optional Idempotency-Key and the status filter', async () => {
    const http = new HttpClient({ baseUrl: `${server.url}/v1`, api: 'partner', redactor: new Redactor() });
    const pt = new PartnerClient({ http, apiKey: 'ak_test_0123456789' });
    expect(pt.environment).toBe('sandbox');
    state.seen.length = 0;
    await pt.createCharge({ amount_cents: 100 }, { idempotencyKey: 'idem-1' });
    await pt.createCharge({ amount_cents: 100 });
    await pt.listCharges({ status: 'paid' });
    await pt.cancelCharge('a/b');
    expect(state.seen.map((s) => s.url)).toEqual(['/v1/business/pix-charges', '/v1/business/pix-charges', '/v1/business/pix-charges?status=paid', '/v1/business/pix-charges/a%2Fb/cancel']);
    expect(state.seen.map((s) => s.headers['idempotency-key'])).toEqual(['idem-1', undefined, undefined, undefined]);
    expect(state.seen[0]?.headers.authorization).toBe('Bearer ak_test_0123456789');
    expect(partnerKeyEnvironment('ak_live_x')).toBe('production');
    expect(partnerApiKey({ baseUrl: 'x', apiKey: 'a', liveApiKey: 'b' }, 'live')).toBe('b');
    await http.destroy();
  });
});

describe('renderFinding', () => {
  const finding: Finding = {
    code: 'contract.schema',
    title: 'GET /x → 200: response body /data/status must be equal to one of the allowed values',
    severity: 'failure',
    requirements: fixtureIds('GW-JSON-BODIES', 'GW-NOT-IN-CATALOGUE'),
    expected: 'enum {"allowedValues":["pending"]}',
    actual: '"weird"',
    pointer: '/data/status',
    exchanges: [{ seq: 1, api: 'gateway', request: { method: 'GET', url: 'http://h/x', headers: {} }, startedAt: '', durationMs: 1, curl: "curl -sS -i -X GET 'http://h/x'" }],
  };
  it('renders title, Expected/Received, requirement quotes, curl and replay', () => {
    const text = renderFinding(finding, { replay: replayCommand({ seed: 7, path: '1:2', title: 'a check' }) });
    expect(text).toContain('✗ GET /x → 200');
    expect(text).toContain('  at /data/status');
    expect(text).toContain('Expected: enum');
    expect(text).toContain('Received: "weird"');
    expect(text).toMatch(/GW-JSON-BODIES \(.+\): "All bodies are JSON\."/);
    expect(text).toContain('GW-NOT-IN-CATALOGUE (not in the requirement catalogue)');
    expect(text).toContain("Reproduce with:\n  curl -sS -i -X GET 'http://h/x'");
    expect(text).toContain("Replay with: npm run conformance -- --profile quick --seed 7 --replay 1:2 --grep 'a check'");
  });
  it('marks warnings and redacts known secrets', () => {
    const r = new Redactor();
    r.register('supersecretvalue', 'PARTNER_API_KEY');
    const text = renderFinding({ ...finding, severity: 'warning', actual: 'supersecretvalue' }, { redactor: r });
    expect(text).toContain('⚠');
    expect(text).not.toContain('supersecretvalue');
  });
});

describe('CheckRun', () => {
  const warning: Finding = { code: 'status.rate-limited', title: 't', severity: 'warning', requirements: fixtureIds('GW-B'), expected: '', actual: '', exchanges: [] };
  const failure: Finding = { code: 'status.unexpected', title: 'broken', severity: 'failure', requirements: fixtureIds('GW-A'), expected: 'x', actual: 'y', exchanges: [] };

  it('keeps warnings apart; finish() passes with warnings only and throws AssertionError on failures', () => {
    const run = new CheckRun('c', fixtureIds('GW-A'));
    expect(run.record({ requirements: fixtureIds('GW-B'), findings: [warning] })).toBe(false);
    expect(run.warnings).toHaveLength(1);
    expect(run.finish().verdict).toBe('warn');
    run.record({ requirements: fixtureIds('GW-A'), findings: [failure] });
    expect(() => run.finish()).toThrow(expect.objectContaining({ name: 'AssertionError' }) as unknown as Error);
    expect(run.summary().requirements).toEqual(['GW-A', 'GW-B']);
    const strict = new CheckRun('s', [], { strict: true });
    strict.record({ requirements: [], findings: [{ ...warning, requirements: [] }] });
    expect(() => strict.finish()).toThrow();
  });

  it('counts every evaluation per requirement with its outcome; record() says whether nothing was found', () => {
    const run = new CheckRun('c', fixtureIds('GW-LISTED'));
    expect(run.record({ requirements: fixtureIds('GW-A'), findings: [] })).toBe(true);
    expect(run.record({ requirements: fixtureIds('GW-A', 'GW-B'), findings: [failure] }, { requirements: fixtureIds('GW-B'), findings: [warning] })).toBe(false);
    expect(run.evaluations).toEqual({
      'GW-A': { evaluations: 2, failed: 1, warned: 0 },
      'GW-B': { evaluations: 2, failed: 0, warned: 1 },
    });
    // listing a requirement is not evaluating it
    expect(run.evaluations['GW-LISTED' as RequirementId]).toBeUndefined();
    expect(run.summary().evaluations).toEqual(run.evaluations);
  });

  it('absorbs an iteration: its evaluations always, its findings as asked', () => {
    const run = new CheckRun('c');
    const iteration = new CheckRun('c › i');
    iteration.record({ requirements: fixtureIds('GW-A'), findings: [failure] }, { requirements: fixtureIds('GW-B'), findings: [warning] });
    run.absorb(iteration, { findings: 'warnings' });
    expect(run.failures).toHaveLength(0);
    expect(run.warnings).toHaveLength(1);
    expect(run.evaluations['GW-A' as RequirementId]).toEqual({ evaluations: 1, failed: 0, warned: 0 });
    run.absorb(iteration, { findings: 'all' });
    expect(run.failures).toHaveLength(1);
    expect(run.evaluations['GW-A' as RequirementId]).toEqual({ evaluations: 2, failed: 1, warned: 0 });
  });

  it('keeps every finding as it was recorded (two rules seeing one 5xx are two findings)', () => {
    const exchange = { seq: 7, api: 'gateway', request: { method: 'GET', url: 'http://t/x', headers: {} }, response: { status: 503, headers: {}, body: '' }, startedAt: 'now', durationMs: 1, curl: '' } as unknown as Exchange;
    const run = new CheckRun('c', []);
    const finding: Omit<Finding, 'requirements'> = { code: 'target.5xx', title: 't', severity: 'failure', expected: '', actual: '', exchanges: [exchange] };
    const first = { ...finding, requirements: fixtureIds('GW-OP') };
    run.record({ requirements: [], findings: [first, { ...finding, requirements: fixtureIds('GW-OP', 'GW-SPECIFIC') }] });
    expect(run.failures.map((f) => f.requirements)).toEqual([['GW-OP'], ['GW-OP', 'GW-SPECIFIC']]);
    expect(run.failures[0]).toBe(first);
    expect(first.requirements).toEqual(['GW-OP']);
  });
});

const main = fileURLToPath(new URL('../reference/main.ts', import.meta.url));
describe.runIf(existsSync(main))('Session against the embedded reference', () => {
  let ref: EmbeddedReference;
  let session: Session;
  beforeAll(async () => {
    ref = await startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9' });
    session = await Session.create(targetFromReference(ref.info, loadTargetConfig({}).callback));
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    await ref?.stop();
  });

  it('a gateway happy path validates against the spec without failures', async () => {
    const run = session.check('gateway happy path');
    const gw = session.gateway(run);
    const charge = await gw.createPixCharge({ amountInCents: 1000, customer: { documentType: 'cpf', document: '52998224725', name: 'Ana' } });
    expect(charge.status).toBe(200);
    const id = (charge.json as { data: { id: string } }).data.id;
    expect((await gw.getPixCharge(id)).status).toBe(200);
    expect((await gw.payPixCharge(id)).status).toBe(200);
    expect((await gw.getBalance()).status).toBe(200);
    expect((await gw.getPixCharge('does-not-exist')).status).toBe(404);
    expect(run.exchanges.length).toBeGreaterThanOrEqual(6);
    expect(run.failures.map((f) => renderFinding(f))).toEqual([]);
    await expect(session.gateway(run, 'live').createTransfer({ pixKey: 'a@b.c', amount: 1 })).rejects.toMatchObject({ code: 'safety.money-moving-production' });
  });

  it('a partner happy path validates against the spec without failures', async () => {
    const run = session.check('partner happy path');
    const pt = session.partner(run);
    const charge = await pt.createCharge({ amount_cents: 1500, external_ref: 'order-1' });
    expect(charge.status).toBe(200);
    const id = (charge.json as { id: string }).id;
    expect((await pt.getCharge(id)).status).toBe(200);
    expect((await pt.payCharge(id)).status).toBeLessThan(300);
    expect((await pt.listCharges({ status: 'paid' })).status).toBe(200);
    expect((await pt.getFinance()).status).toBe(200);
    expect(run.failures.map((f) => renderFinding(f))).toEqual([]);
  });

  it('unconfigured capabilities throw NotRunError', async () => {
    const s = await Session.create(loadTargetConfig({ GATEWAY_BASE_URL: ref.info.gateway.baseUrl, GATEWAY_CLIENT_ID: 'a', GATEWAY_CLIENT_SECRET: 'b' }), { contract: false });
    expect(() => s.gateway(undefined, 'live')).toThrow(NotRunError);
    expect(() => s.partner()).toThrow(NotRunError);
    await s.close();
  });
});

describe('cookieHeaderFrom (a session cookie replayed without a key)', () => {
  it('keeps the name=value pairs of joined Set-Cookie headers, an Expires comma included', () => {
    expect(cookieHeaderFrom('sid=abc; Path=/; HttpOnly, AWSALB=x1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/')).toBe('sid=abc; AWSALB=x1');
    expect(cookieHeaderFrom(undefined)).toBeUndefined();
    expect(cookieHeaderFrom('')).toBeUndefined();
  });
});

describe('CheckRun deadline hooks', () => {
  it('run once when the time limit comes, not after being unregistered, and at once when registered late', () => {
    const run = new CheckRun('deadline');
    const calls: string[] = [];
    run.onDeadline(() => calls.push('a'));
    const unregister = run.onDeadline(() => calls.push('b'));
    unregister();
    run.reachedDeadline();
    run.reachedDeadline();
    expect(calls).toEqual(['a']);
    expect(run.deadlineReached).toBe(true);
    run.onDeadline(() => calls.push('late'));
    expect(calls).toEqual(['a', 'late']);
  });
});
