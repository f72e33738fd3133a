/**
 * Environments and accounts (gateway-api.md "What the service does": "Two environments share the
 * same host. The environment is chosen by the credential pair used at `POST /api/auth`. Sandbox data
 * is isolated, … webhooks are registered separately using the sandbox token"; "Authentication" 4:
 * "Simulation routes (`/pay`, `/complete`) work only with sandbox credentials; with production
 * credentials they answer 403."; "Errors": "403 | route unavailable in this environment (simulation
 * with production credentials; resource not owned by a sandbox key)", "404 | resource not found or
 * belongs to another account").
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { ensureErrorShapeNotFound } from '../errors.js';
import { isRecord } from '../../core/json.js';

export type Observed = Omit<RuleContext, 'requirements'>;

export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

/**
 * A request for a resource of another environment or account.
 * - `by: 'production'` (GW-ENV-ISOLATION, "Sandbox data is isolated"): 404 or 403 conform (403 is
 *   the Errors table's "resource not owned by a sandbox key"); the caller notes which.
 * - `by: 'other-account'` (GW-ERR-404-OTHER-ACCOUNT, "404 | resource not found or belongs to another
 *   account"): 404 conforms; 403 is a WARNING `isolation.403-for-other-account` (the 403 row reads
 *   about sandbox keys, not accounts, but refuses all the same).
 * - a 2xx (the resource was visible or acted on) or another status: failure (status rule).
 * A 404 also gets the `{error: NOT_FOUND, message}` shape where the route pins it (`notFoundShape`).
 */
export function judgeForeignAccess(answer: Answer, by: 'production' | 'other-account', requirements: readonly RequirementId[], at: Observed = {}, notFoundShape?: readonly RequirementId[]): Judgement {
  const ctx: RuleContext = { ...at, requirements, exchanges: [...(at.exchanges ?? []), answer.exchange] };
  if (answer.status === 403) {
    if (by === 'production') return judge(ctx);
    return judge(
      ctx,
      makeFinding(ctx, {
        code: 'isolation.403-for-other-account',
        title: `${answer.exchange.operation ?? 'request'} answered 403 for another account's resource`,
        severity: 'warning',
        expected: 'HTTP 404 ("resource not found or belongs to another account")',
        actual: 'HTTP 403 (the "resource not owned by a sandbox key" reading)',
      }),
    );
  }
  const status = expectStatus(answer.exchange, [404, 403], ctx);
  if (answer.status !== 404 || !notFoundShape) return status;
  return combine(status, ensureErrorShapeNotFound(answer.json, { ...at, requirements: notFoundShape, exchanges: [answer.exchange] }));
}

/**
 * After calls with other credentials, the sandbox owner re-reads its resources: the pending charge
 * is still `pending` and the transfer is not `completed` (nothing done with the other credentials
 * took effect). A changed state: FAILURE `isolation.state-changed`. Unreadable answers are not judged
 * here (the status rule judges them).
 */
export function ensureSandboxStateUnchanged(observed: { charge?: Answer; chargeStatus?: unknown; transfer?: Answer; transferStatus?: unknown }, requirements: readonly RequirementId[], by: string, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements };
  const findings: Finding[] = [];
  if (observed.charge && observed.chargeStatus !== undefined && observed.chargeStatus !== 'pending') {
    findings.push(makeFinding(ctx, { code: 'isolation.state-changed', exchanges: [observed.charge.exchange], title: `the sandbox charge changed state after calls ${by}`, severity: 'failure', expected: 'status "pending"', actual: `status ${show(observed.chargeStatus)}` }));
  }
  if (observed.transfer && observed.transferStatus === 'completed') {
    findings.push(makeFinding(ctx, { code: 'isolation.state-changed', exchanges: [observed.transfer.exchange], title: `the sandbox transfer was completed by calls ${by}`, severity: 'failure', expected: 'not completed', actual: `status ${show(observed.transferStatus)}` }));
  }
  return judge(ctx, findings);
}

/** A listed object whose id equals `id`, anywhere in a body whose shape is not shown. */
export function findListedById(json: unknown, id: number | string, depth = 0): Record<string, unknown> | undefined {
  if (depth > 4) return undefined;
  if (Array.isArray(json)) {
    for (const item of json) {
      const found = findListedById(item, id, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  if ('id' in json && String(json.id) === String(id)) return json;
  for (const value of Object.values(json)) {
    const found = findListedById(value, id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * "webhooks are registered separately using the sandbox token": the production list (shape not
 * shown) must not show a webhook registered with the sandbox token (its url, or its id with that
 * url). Shown: FAILURE `isolation.webhook-visible`.
 */
export function ensureSandboxWebhookHidden(list: Answer, hook: { id: number | string; url: string }, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION'], exchanges: [...(at.exchanges ?? []), list.exchange] };
  const text = JSON.stringify(list.json ?? null);
  const sameId = findListedById(list.json, hook.id);
  const leaked = text.includes(hook.url) || (sameId !== undefined && sameId.url === hook.url);
  if (!leaked) return judge(ctx);
  return judge(
    ctx,
    makeFinding(ctx, {
      code: 'isolation.webhook-visible',
      title: 'the production webhook list shows a webhook registered with the sandbox token',
      severity: 'failure',
      expected: `no webhook with url ${hook.url}`,
      actual: show(sameId ?? hook.url),
    }),
  );
}

/**
 * "Two environments share the same host. The environment is chosen by the credential pair used at
 * `POST /api/auth`." Both pairs exchanged at the SAME origin must each get a token (200): a pair
 * refused at that host, or exchanges made at different origins, fail (`env.different-host`).
 */
export function ensureEnvironmentsShareHost(sandboxAuth: Exchange, liveAuth: Exchange, at: Observed = {}): Judgement {
  const ctx: RuleContext = { ...at, requirements: ['GW-ENV-SAME-HOST', 'GW-ENV-BY-CREDENTIALS'], exchanges: [...(at.exchanges ?? []), sandboxAuth, liveAuth] };
  const origin = (e: Exchange): string => {
    try {
      return new URL(e.request.url).origin;
    } catch {
      return e.request.url;
    }
  };
  const findings: Finding[] = [];
  if (origin(sandboxAuth) !== origin(liveAuth)) {
    findings.push(makeFinding(ctx, { code: 'env.different-host', title: 'the two credential pairs were exchanged at different hosts', severity: 'failure', expected: 'one host for both environments', actual: `${origin(sandboxAuth)} and ${origin(liveAuth)}` }));
  }
  return combine(judge(ctx, findings), expectStatus(sandboxAuth, 200, ctx), expectStatus(liveAuth, 200, ctx));
}
