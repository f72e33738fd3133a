/**
 * Statements of gateway-api.md about the service as a whole: "JSON over HTTPS at {base_url}", the
 * environments ("The pair used at POST /api/auth selects the environment; everything else behaves
 * identically in both") and "Versioning" ("Routes other than authentication carry the prefix
 * `/api/v1`").
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement } from '../finding.js';
import { judge, makeFinding, type RuleContext } from '../judgement.js';

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127\./.test(hostname);
}

/**
 * "JSON over HTTPS at {base_url}." An https base URL passes; plain HTTP on a loopback address is a
 * local test setup and passes too (the caller notes it); plain HTTP elsewhere is a WARNING
 * (`transport.not-https`): the catalogue makes the transport an observation, never a failure.
 */
export function verifyHttpsBaseUrl(baseUrl: string, ctx: RuleContext): Judgement {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return judge(ctx, makeFinding(ctx, { code: 'transport.not-https', severity: 'warning', title: 'the gateway base URL is not a URL', expected: 'an https:// base URL', actual: JSON.stringify(baseUrl) }));
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'transport.not-https', severity: 'warning', title: 'the gateway is served over plain HTTP',
    expected: 'an https:// base URL ("JSON over HTTPS")', actual: url.origin,
  }));
}

/**
 * "Routes other than authentication carry the prefix `/api/v1`": a documented route asked for under
 * `/api/v1/` is served there — its answer is neither 404 nor 405 (either would say no such route;
 * the callers use routes and ids that exist). Failure `config.version` otherwise. A request not made
 * under the prefix decides nothing.
 */
export function verifyServedUnderVersionPrefix(exchange: Exchange, ctx: RuleContext): Judgement {
  const path = exchange.request.path ?? new URL(exchange.request.url).pathname;
  if (!path.startsWith('/api/v1/')) return { requirements: [], findings: [] };
  const status = exchange.response?.status;
  if (status !== 404 && status !== 405) return judge(ctx);
  return judge(ctx, makeFinding({ ...ctx, exchanges: ctx.exchanges ?? [exchange] }, {
    code: 'config.version', severity: 'failure', title: `${exchange.request.method} ${path} is not served under the /api/v1 prefix`,
    expected: 'the documented route answering under /api/v1', actual: `HTTP ${status}`,
  }));
}

/**
 * "everything else behaves identically in both": the same request that moves no money gets the same
 * status with the sandbox and the production pair. A 429 on either side decides nothing (rate
 * limits are not behaviour); a different status fails (`environment.behaviour-differs`).
 */
export function verifyEnvironmentsAlike(sandbox: Exchange, live: Exchange, what: string, ctx: RuleContext): Judgement {
  const a = sandbox.response?.status;
  const b = live.response?.status;
  if (a === 429 || b === 429) return { requirements: [], findings: [] };
  if (a === b) return judge(ctx);
  return judge(ctx, makeFinding({ ...ctx, exchanges: [sandbox, live] }, {
    code: 'environment.behaviour-differs', severity: 'failure', title: `the environments answer ${what} differently`,
    expected: 'the same status with the sandbox and the production pair', actual: `sandbox ${String(a)}, production ${String(b)}`,
  }));
}
