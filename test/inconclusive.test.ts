// The "inconclusive" verdict and the network plumbing behind it (issue 19): transport error
// classification, proxy selection, which failures stand when a check is cut off, how the reports
// and the exit code show it, the preflight's report, and the run plan.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../harness/core/exchange.js';
import type { Finding } from '../harness/rules/finding.js';
import { fixtureIds } from './harness-fixtures.js';
import { bypassesProxy, describeTransportError, isInconclusiveError, proxyFor, proxySettings, redactProxyUrl, TargetUnreachableError } from '../harness/http/transport.js';
import { inconclusiveCause, settleInconclusive, standingFailures } from '../harness/run/inconclusive.js';
import { AuthFailedError } from '../harness/http/auth.js';
import { buildConformance, exitCodeFor, renderMarkdown } from '../harness/report/verdict.js';
import type { RunInfo } from '../harness/report/verdict.js';
import type { CheckOutcome } from '../harness/report/outcome.js';
import { outcome as checkOutcome, reported } from './report-fixtures.js';
import type { Requirement } from '../harness/contract/requirements.js';
import { preflightConformance } from '../harness/report/preflight-report.js';
import { preflight } from '../harness/run/preflight.js';
import { describePlan, planRun } from '../harness/cli/plan.js';
import type { PlanBaseline } from '../harness/cli/plan.js';

function exchange(seq: number, status: number | undefined, error?: string): Exchange {
  return {
    seq,
    api: 'gateway',
    operation: 'GET /api/v1/balance',
    request: { method: 'GET', url: 'https://sandbox.example:8443/api/v1/balance', headers: {} },
    ...(status !== undefined && { response: { status, headers: {}, body: '{}' } }),
    ...(error !== undefined && { error }),
    startedAt: '2026-11-24T10:00:00.000Z',
    durationMs: 1,
    curl: 'curl …',
  };
}

function finding(code: string, exchanges: Exchange[]): Finding {
  return { code, title: code, severity: 'failure', requirements: fixtureIds('GW-X'), expected: 'x', actual: 'y', exchanges };
}

describe('transport errors', () => {
  test('each kind gets an actionable hint naming the host', () => {
    expect(describeTransportError('UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate', 'h:443')).toMatchObject({ kind: 'tls', hint: expect.stringMatching(/h:443 not trusted.*NODE_EXTRA_CA_CERTS=/) });
    expect(describeTransportError('SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain', 'h').hint).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(describeTransportError('ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match', 'h').hint).toMatch(/does not name that host/);
    expect(describeTransportError('ENOTFOUND: getaddrinfo ENOTFOUND h', 'h').hint).toMatch(/DNS failed for host h.*HTTPS_PROXY/);
    expect(describeTransportError('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1', '127.0.0.1:1').kind).toBe('refused');
    expect(describeTransportError('timeout after 15000 ms', 'h').kind).toBe('timeout');
    expect(describeTransportError('UND_ERR_SOCKET: other side closed', 'h').kind).toBe('reset');
    expect(describeTransportError('something odd', 'h').kind).toBe('other');
  });

  test('errors that mean "could not be judged", also once serialized', () => {
    expect(isInconclusiveError(new TargetUnreachableError(exchange(1, undefined, 'ECONNRESET: x')))).toBe(true);
    expect(isInconclusiveError({ code: 'auth.failed' })).toBe(true);
    expect(isInconclusiveError({ code: 'not-run' })).toBe(false);
    expect(isInconclusiveError(undefined)).toBe(false);
  });
});

describe('proxies', () => {
  const settings = { httpsProxy: 'http://proxy:3128', httpProxy: 'http://proxy:3128', noProxy: 'internal.example, .corp.example,api.example:8443' };
  test('loopback and NO_PROXY hosts go direct; the rest through the proxy of their scheme', () => {
    expect(proxyFor(new URL('https://sandbox.example/v1'), settings)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('http://127.0.0.1:4799/x'), settings)).toBeUndefined();
    expect(proxyFor(new URL('http://localhost:1'), settings)).toBeUndefined();
    expect(proxyFor(new URL('http://[::1]:1'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://internal.example'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://a.corp.example'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://api.example:8443'), settings)).toBeUndefined();
    expect(proxyFor(new URL('https://api.example'), settings)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('http://plain.example'), { httpsProxy: 'http://p:1' })).toBeUndefined();
    expect(bypassesProxy(new URL('https://any.example'), '*')).toBe(true);
  });
  test('PAYGATE_PROXY (--proxy) wins; lower-case variables count; passwords never shown', () => {
    expect(proxySettings({ PAYGATE_PROXY: 'http://flag:1', HTTPS_PROXY: 'http://env:2' })).toEqual({ httpsProxy: 'http://flag:1', httpProxy: 'http://flag:1' });
    expect(proxySettings({ https_proxy: 'http://lower:3', no_proxy: 'x' })).toEqual({ httpsProxy: 'http://lower:3', noProxy: 'x' });
    expect(redactProxyUrl('http://user:s3cret@proxy:3128')).toBe('http://user:***@proxy:3128');
  });
});

describe('when a check is inconclusive', () => {
  test('a request without an answer, a failed token, or a thrown TargetUnreachableError name the cause', () => {
    expect(inconclusiveCause([exchange(1, 200)])).toBeUndefined();
    expect(inconclusiveCause([exchange(1, 200), exchange(2, undefined, 'ENOTFOUND: getaddrinfo ENOTFOUND sandbox.example')])).toMatch(/GET \/api\/v1\/balance got no response .*DNS failed for host sandbox\.example:8443/);
    const auth = new AuthFailedError('POST /api/auth with the sandbox pair did not return a token (status 401)', exchange(3, 401));
    expect(inconclusiveCause([], auth)).toMatch(/token could not be had.*GATEWAY_CLIENT_ID/);
    expect(inconclusiveCause([], new TargetUnreachableError(exchange(4, undefined, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE: x')))).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(inconclusiveCause([], new Error('a bug'))).toBeUndefined();
  });

  test('failures about answers before the first silent request, and any 5xx, stand; the rest are consequences', () => {
    const before = exchange(1, 400);
    const silent = exchange(2, undefined, 'ECONNRESET: socket hang up');
    const after = exchange(3, 404);
    const fiveHundred = exchange(4, 503);
    const kept = standingFailures([finding('status.unexpected', [before]), finding('status.unexpected', [after]), finding('target.5xx', [fiveHundred]), finding('webhook.missing', [])], [before, silent, after, fiveHundred]);
    expect(kept.map((f) => f.exchanges[0]?.seq)).toEqual([1, 4]);
  });
});

describe('settling a check', () => {
  const runOf = (exchanges: Exchange[], failures: Finding[]) => ({ exchanges, failures });
  test('consequences of a missing answer are not judged (notes); the check is inconclusive', () => {
    const silent = exchange(1, undefined, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
    const after = exchange(2, 404);
    const run = runOf([silent, after], [finding('status.unexpected', [after])]);
    const settled = settleInconclusive(run, undefined);
    expect(settled.inconclusive).toMatch(/refused/);
    expect(settled.failures).toEqual([]);
    expect(settled.notes[0]).toMatch(/^not judged \(status\.unexpected/);
    // the run itself is read, never changed
    expect(run.failures).toHaveLength(1);
  });
  test('a 5xx found before stands: the check fails on it, the cause is a note', () => {
    const bad = exchange(1, 503);
    const settled = settleInconclusive(runOf([bad, exchange(2, undefined, 'UND_ERR_SOCKET: other side closed')], [finding('target.5xx', [bad])]), undefined);
    expect(settled.inconclusive).toBeUndefined();
    expect(settled.failures.map((f) => f.code)).toEqual(['target.5xx']);
    expect(settled.notes.join(' ')).toMatch(/inconclusive beyond the findings above/);
  });
  test('nothing unanswered: conclusive; out of time with no finding: inconclusive', () => {
    expect(settleInconclusive(runOf([exchange(1, 200)], []), undefined).inconclusive).toBeUndefined();
    expect(settleInconclusive(runOf([exchange(1, 200)], []), undefined, 60_000).inconclusive).toMatch(/did not finish within 60 s/);
  });
});

describe('the reports', () => {
  const run: RunInfo = { version: '0.1.0', profile: 'certify', seed: 1, startedAt: '2026-11-24T10:00:00.000Z', durationMs: 1000, targets: { gateway: 'https://sandbox.example' }, strict: false, embedded: false, notTested: { partner: 'PARTNER_BASE_URL not set' } };
  const outcome = (over: Partial<CheckOutcome> & Pick<CheckOutcome, 'check'>): CheckOutcome => checkOutcome({ requirements: ['GW-A'], evaluations: {}, requests: 1, ...over });
  const catalogue = [
    { id: 'GW-A', api: 'gateway', section: 'S', kind: 'checkable', text: 'a' },
    { id: 'GW-B', api: 'gateway', section: 'S', kind: 'checkable', text: 'b' },
  ] as unknown as Requirement[];

  test('an inconclusive check is neither failed nor passed; its requirements are inconclusive; exit 4', () => {
    const checks = [
      outcome({ check: 'gw.a', state: 'inconclusive', inconclusive: 'GET /x got no response (ENOTFOUND): DNS failed' }),
      outcome({ check: 'gw.b', requirements: ['GW-A', 'GW-B'], evaluations: { 'GW-A': { evaluations: 1, failed: 0, warned: 0 }, 'GW-B': { evaluations: 1, failed: 0, warned: 0 } } }),
    ];
    expect(checks[0]).toMatchObject({ state: 'inconclusive', inconclusive: 'GET /x got no response (ENOTFOUND): DNS failed' });
    const report = buildConformance(run, checks, catalogue);
    expect(report.verdict).toBe('inconclusive');
    expect(report.summary).toMatchObject({ passed: 1, failed: 0, inconclusive: 1, errors: 0 });
    expect(report.requirements.find((r) => r.id === 'GW-A')).toMatchObject({ verdict: 'inconclusive', reason: expect.stringContaining('DNS failed') });
    expect(report.requirements.find((r) => r.id === 'GW-B')?.verdict).toBe('pass');
    expect(report.inconclusive).toEqual([{ check: 'gw.a', api: 'gateway', reason: 'GET /x got no response (ENOTFOUND): DNS failed' }]);
    expect(exitCodeFor(report)).toBe(4);
    const md = renderMarkdown(report);
    expect(md).toContain('## Result: **INCONCLUSIVE**');
    expect(md).toContain('## Inconclusive checks (1)');
  });

  test('a failure still wins over inconclusive checks (exit 1)', () => {
    const checks = [
      outcome({ check: 'gw.a', state: 'inconclusive', inconclusive: 'no answer' }),
      outcome({ check: 'gw.b', failures: [reported('target.5xx', ['GW-A'], { expected: '200', actual: '503', curl: [] })] }),
    ];
    const report = buildConformance(run, checks, catalogue);
    expect(report.verdict).toBe('fail');
    expect(exitCodeFor(report)).toBe(1);
  });

  test('a run the preflight stopped: verdict inconclusive, requirements inconclusive with the reason, none "not covered"', () => {
    const report = preflightConformance(buildConformance(run, [], catalogue), ['every gateway route answers 503 (text/html): the target is unavailable']);
    expect(report.verdict).toBe('inconclusive');
    expect(report.preflight?.problems).toHaveLength(1);
    expect(report.requirements.every((r) => r.verdict === 'inconclusive' && /preflight.*503/.test(r.reason ?? ''))).toBe(true);
    expect(report.coverage.notCovered).toEqual([]);
    expect(exitCodeFor(report)).toBe(4);
    expect(renderMarkdown(report)).toContain('## Preflight: the run stopped before any check');
  });
});

describe('the preflight', () => {
  test('a target answering 401 to the sandbox pair: "credentials refused", in well under a second', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"UNAUTHORIZED"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await preflight(
        { embedded: false, notRun: [], callback: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1:0' }, gateway: { baseUrl: url, sandbox: { clientId: 'id', clientSecret: 'not-this-secret' } }, partner: { baseUrl: `${url}/v1`, apiKey: 'ak_test_nope' } },
        { timeoutMs: 2_000 },
      );
      expect(result.problems).toEqual([
        expect.stringMatching(/^gateway credentials refused: .*answered 401: check GATEWAY_CLIENT_ID\/GATEWAY_CLIENT_SECRET/),
        expect.stringMatching(/^partner key refused: .*check PARTNER_API_KEY/),
      ]);
      expect(result.problems.join(' ')).not.toContain('not-this-secret');
      expect(result.durationMs).toBeLessThan(2_000);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the run plan', () => {
  const baseline: PlanBaseline = {
    note: '',
    checks: [
      { id: 'g1', api: 'gateway', title: 'balance answers', tier: 'quick', quick: 10, full: 10 },
      { id: 'g2', api: 'gateway', title: 'fuzz', tier: 'quick', quick: 100, full: 400 },
      { id: 'p1', api: 'partner', title: 'charges', tier: 'quick', quick: 20, full: 50 },
      { id: 'g3', api: 'gateway', title: 'token expires', tier: 'timer', quick: 0, full: 0 },
    ],
  };
  test('certify: every check, full property runs, at the 5 req/s cap', () => {
    const plan = planRun({ profile: 'certify', api: 'both' }, baseline);
    expect(plan).toEqual({ checks: 4, requests: 470, timerChecks: 1, maxRps: 5, seconds: 94 });
    expect(describePlan(plan!)).toMatch(/^plan: ~4 checks, ~470 requests at most 5 req\/s → about 2 min; 1 check also waits for contract timers/);
  });
  test('quick, one API, --grep, --max-rps', () => {
    expect(planRun({ profile: 'quick', api: 'gateway' }, baseline)).toEqual({ checks: 2, requests: 110, timerChecks: 0 });
    expect(planRun({ profile: 'quick', api: 'both', grep: 'fuzz', maxRps: 10 }, baseline)).toMatchObject({ checks: 1, requests: 100, seconds: 10 });
  });
});
