/**
 * Statements of gateway-api.md about the service as a whole: "JSON over HTTPS at {base_url}", "POST
 * /api/auth … No body is accepted", the environments ("The pair used at POST /api/auth selects the
 * environment; everything else behaves identically in both") and "Versioning" ("Routes other than
 * authentication carry the prefix `/api/v1`").
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import type { Answer } from './errors.js';

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127\./.test(hostname);
}

/**
 * "JSON over HTTPS at {base_url}." An https base URL passes; plain HTTP on a loopback address is a
 * local test setup and passes too (the suite notes it); plain HTTP elsewhere is a WARNING: the
 * catalogue makes the transport an observation, never a failure.
 */
export const serveOverHttps = defineRule({
  name: 'serveOverHttps',
  requirements: ['GW-SVC-JSON-HTTPS'],
  codes: { 'transport.not-https': 'warning' },
  judge(baseUrl: string, v) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return v.find('transport.not-https', { title: 'the gateway base URL is not a URL', expected: 'an https:// base URL', actual: JSON.stringify(baseUrl) });
    }
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return;
    v.find('transport.not-https', { title: 'the gateway is served over plain HTTP', expected: 'an https:// base URL ("JSON over HTTPS")', actual: url.origin });
  },
});

/**
 * "Routes other than authentication carry the prefix `/api/v1`": a documented route asked for under
 * `/api/v1/` is served there; its answer is neither 404 nor 405 (either would say no such route; the
 * callers use routes and ids that exist). A request not made under the prefix decides nothing.
 */
export const serveUnderVersionPrefix = defineRule({
  name: 'serveUnderVersionPrefix',
  requirements: ['GW-VER-PREFIX'],
  codes: { 'config.version': 'failure' },
  judge(exchange: Exchange, v) {
    const path = exchange.request.path ?? new URL(exchange.request.url).pathname;
    if (!path.startsWith('/api/v1/')) return v.nothingToJudge();
    const status = exchange.response?.status;
    if (status !== 404 && status !== 405) return;
    v.find('config.version', { title: `${exchange.request.method} ${path} is not served under the /api/v1 prefix`, expected: 'the documented route answering under /api/v1', actual: `HTTP ${status}`, exchanges: [exchange] });
  },
});

/** Old-style {@link serveUnderVersionPrefix} for the suites that still name their requirements. */
export function verifyServedUnderVersionPrefix(exchange: Exchange, _ctx?: unknown): Judgement {
  return serveUnderVersionPrefix.judge(exchange);
}

/**
 * "POST /api/auth … No body is accepted." Whether a body sent anyway is ignored or refused is not
 * stated: any 2xx or 4xx conforms (the suite notes which); a 5xx does not.
 */
export const surviveBodyOnTokenExchange = defineRule({
  name: 'surviveBodyOnTokenExchange',
  requirements: ['GW-AUTH-NO-BODY'],
  codes: { 'auth.body-crashes': 'failure' },
  judge(answer: Answer, v) {
    // 400 named: the route lists it for this cause ("a refusal as an invalid body is allowed")
    judgeStatus(v, answer.exchange, ['2xx', 400, '4xx'], { unexpected: 'auth.body-crashes' }, 'POST /api/auth with a JSON body');
  },
});

/** The same request that moves no money, sent with the sandbox and with the production pair. */
export interface SameRequestInBoth {
  sandbox: Answer;
  live: Answer;
  /** the request, for the titles */
  what: string;
}

/**
 * "everything else behaves identically in both": the same request that moves no money gets the same
 * status with the sandbox and the production pair. A 429 on either side decides nothing (rate limits
 * are not behaviour); a different status fails.
 */
export const behaveAlikeInBothEnvironments = defineRule({
  name: 'behaveAlikeInBothEnvironments',
  requirements: ['GW-ENV-IDENTICAL-BEHAVIOUR'],
  codes: { 'environment.behaviour-differs': 'failure' },
  judge(o: SameRequestInBoth, v) {
    const a = o.sandbox.exchange.response?.status;
    const b = o.live.exchange.response?.status;
    if (a === undefined) return v.unanswered(o.sandbox.exchange);
    if (b === undefined) return v.unanswered(o.live.exchange);
    if (a === 429 || b === 429) return v.nothingToJudge();
    if (a === b) return;
    v.find('environment.behaviour-differs', { title: `the environments answer ${o.what} differently`, expected: 'the same status with the sandbox and the production pair', actual: `sandbox ${a}, production ${b}`, exchanges: [o.sandbox.exchange, o.live.exchange] });
  },
});
