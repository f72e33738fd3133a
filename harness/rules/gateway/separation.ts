/**
 * What one account in one environment must never see of another (gateway-api.md): "Sandbox data is
 * isolated, the sandbox balance starts at zero and is separate from the real balance, webhooks are
 * registered separately using the sandbox token"; "404 | resource not found or belongs to another
 * account"; "x-idempotency-key: a unique value (UUID) per operation. Resending with the same key and
 * body returns the original response"; "sent to every active webhook subscribed to the event".
 *
 * These rules judge the places where real implementations share state by accident: an idempotency
 * cache keyed without the account or the environment, a balance query without the environment,
 * webhooks selected by event name only.
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { dataOf } from '../../core/json.js';

const NOTHING_DECIDED: Judgement = { requirements: [], findings: [] };

export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

function is2xx(status: number): boolean {
  return status >= 200 && status <= 299;
}

function withRequirements(ctx: Partial<RuleContext>, fallback: readonly RequirementId[], exchanges: readonly Exchange[]): RuleContext {
  return { ...ctx, requirements: ctx.requirements ?? fallback, exchanges: [...(ctx.exchanges ?? []), ...exchanges] };
}

/**
 * Account B sends its first transfer with a key account A used, and the same body. B's key is its
 * own operation: B gets a transfer of its own (another id). B answered A's transfer (same `data.id`):
 * FAILURE `idempotency.cross-account` (A's resource shown to another account, "404 … belongs to
 * another account"). B answered 409: WARNING (no data leaks, but B's own first use was refused: the
 * 409 of the text is for a key "reused with a different body" and the body is the same). Anything
 * else is not decided here (B's creation failing for its own reasons: the caller notes it).
 */
export function ensureIdempotencyKeyScopedToAccount(mine: Answer, theirs: Answer, ctx: Partial<RuleContext> = {}): Judgement {
  const c = withRequirements(ctx, ['GW-ERR-404-OTHER-ACCOUNT'], [mine.exchange, theirs.exchange]);
  const mineId = dataOf(mine.json)?.id;
  if (!is2xx(mine.status) || mineId === undefined) return NOTHING_DECIDED;
  if (theirs.status === 409) {
    return judge(c, makeFinding(c, {
      code: 'idempotency.cross-account',
      title: "another account's first use of a key, with the same body, answered 409",
      severity: 'warning',
      expected: 'a transfer of its own: the key is an operation of this account only',
      actual: 'HTTP 409 (the key space looks shared between accounts)',
    }));
  }
  if (!is2xx(theirs.status)) return NOTHING_DECIDED;
  const theirsId = dataOf(theirs.json)?.id;
  if (theirsId === undefined || String(theirsId) !== String(mineId)) return judge(c);
  return judge(c, makeFinding(c, {
    code: 'idempotency.cross-account',
    title: "another account reusing a key got this account's transfer",
    severity: 'failure',
    expected: "a transfer of the other account's own (another id): a resource of another account is not found",
    actual: `HTTP ${theirs.status} with data.id ${show(theirsId)}, the id of this account's transfer`,
  }));
}

/** Balances around one sandbox credit, in cents: both environments read before and after. */
export interface BalanceSeparationWindow {
  sandboxBefore: number;
  sandboxAfter: number;
  productionBefore: number;
  productionAfter: number;
  exchanges: readonly Exchange[];
}

/**
 * "the sandbox balance … is separate from the real balance". The production balance is only READ
 * (real traffic moves it at any time), around a sandbox movement. When the sandbox moved and the
 * production balance moved by exactly the same amount: FAILURE `env.balance-shared` (the two are
 * one ledger). A sandbox that did not move decides nothing; a production movement of another amount
 * is real traffic (the caller notes it) and conforms.
 */
export function ensureBalancesSeparate(w: BalanceSeparationWindow, ctx: Partial<RuleContext> = {}): Judgement {
  const c = withRequirements(ctx, ['GW-ENV-BALANCE-SEPARATE', 'GW-ENV-ISOLATION'], w.exchanges);
  const sandboxDelta = w.sandboxAfter - w.sandboxBefore;
  const productionDelta = w.productionAfter - w.productionBefore;
  if (sandboxDelta === 0) return NOTHING_DECIDED;
  if (productionDelta !== sandboxDelta) return judge(c);
  return judge(c, makeFinding(c, {
    code: 'env.balance-shared',
    title: 'the production balance moved with the sandbox balance',
    severity: 'failure',
    expected: 'the production pix.balance unmoved by sandbox activity ("separate from the real balance")',
    actual: `sandbox ${w.sandboxBefore} → ${w.sandboxAfter} cents; production ${w.productionBefore} → ${w.productionAfter} cents (the same ${sandboxDelta} cents)`,
  }));
}

/** A callback received at a webhook registered by someone else than the sandbox account. */
export interface ForeignDelivery {
  bodyText: string;
  /** where the webhook was registered, for the finding */
  hook: string;
}

/**
 * Sandbox events reach only the sandbox account's own webhooks: "webhooks are registered separately
 * using the sandbox token" (a webhook registered with the production token: `by: 'production'`) and
 * "sent to every active webhook subscribed to the event" of the account ("404 … belongs to another
 * account": `by: 'other-account'`). A callback at such a webhook whose body names one of the
 * sandbox resources: FAILURE `webhook.foreign-delivery`. Callbacks about other resources (the
 * foreign webhook's own traffic) are ignored.
 */
export function ensureNoForeignDelivery(deliveries: readonly ForeignDelivery[], resourceIds: readonly string[], by: 'production' | 'other-account', ctx: Partial<RuleContext> = {}): Judgement {
  const fallback: readonly RequirementId[] = by === 'production' ? ['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION'] : ['GW-EVT-ONLY-SUBSCRIBED', 'GW-ERR-404-OTHER-ACCOUNT'];
  const c = withRequirements(ctx, fallback, []);
  const leaked = deliveries.filter((d) => resourceIds.some((id) => id !== '' && d.bodyText.includes(id)));
  if (leaked.length === 0) return judge(c);
  const who = by === 'production' ? 'a webhook registered with the production token' : "another account's webhook";
  return judge(c, makeFinding(c, {
    code: 'webhook.foreign-delivery',
    title: `${who} received an event of the sandbox account`,
    severity: 'failure',
    expected: `no callback about ${resourceIds.join(', ')} at ${who}`,
    actual: `${leaked.length} callback(s) at ${leaked.map((d) => d.hook).join(', ')}: ${show(leaked[0]?.bodyText, 160)}`,
  }));
}
