/**
 * Account and environment boundaries beyond lookups (partner-cashin-api.md): "Sandbox and
 * production share the same address; the key prefix decides the environment. Their data is
 * independent."; "404 | resource not found or belongs to another account"; "During the pilot the
 * webhook URL is registered with the integration team"; idempotency: "same key and same body
 * returns the original response".
 *
 * An implementation can keep lookups apart and still share what sits behind them: an idempotency
 * cache keyed by the key alone, a ledger keyed by account or by environment only, a dispatcher that
 * sends every event to the registered URL (issue 15). The caller names the boundary by the
 * requirement it puts in the context: PT-ENV-ISOLATION (sandbox/production) or
 * PT-ERR-404-OTHER-ACCOUNT (another account).
 */
import type { Judgement } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { isRecord } from '../../core/json.js';
import { PARTNER_SIGNATURE_HEADER, verifyPartnerSignature } from '../../webhooks/signatures.js';
import type { Delivery } from '../../webhooks/types.js';

/** Whose data crossed the boundary, for the texts: e.g. "another account", "production". */
export interface Boundary extends RuleContext {
  whose: string;
}

/** The charge a creation answer carries: the body, or its `data` (the lookup shape is not shown). */
function chargeIdOf(json: unknown): unknown {
  if (!isRecord(json)) return undefined;
  if (typeof json.id === 'string') return json.id;
  return isRecord(json.data) ? json.data.id : undefined;
}

/**
 * The same `Idempotency-Key` and body sent by another account or environment after ours. The
 * other caller's first use of the key must not return our charge ("belongs to another account" /
 * "Their data is independent"): a 2xx with our charge's id fails. A new charge passes. The scope of
 * a key is not stated: a 409 (the key counted as used) reveals only that the key exists elsewhere,
 * a warning. Other answers are not this rule's (the status rules judge them).
 */
export function ensureIdempotencyKeyScoped(ourChargeId: string, answer: { status: number; json: unknown }, ctx: Boundary): Judgement {
  const { whose, ...rest } = ctx;
  if (answer.status === 409) {
    return judge(rest, makeFinding(rest, { code: 'idempotency.cross-scope', title: `an Idempotency-Key first used by ${whose} answered 409`, severity: 'warning', expected: `a new charge: a key is ${whose === 'production' ? 'an environment\'s' : 'an account\'s'} own (the key scope is not stated)`, actual: 'HTTP 409' }));
  }
  if (answer.status < 200 || answer.status > 299) return { requirements: [], findings: [] };
  const id = chargeIdOf(answer.json);
  if (id !== ourChargeId) return judge(rest);
  return judge(rest, makeFinding(rest, {
    code: 'idempotency.cross-scope',
    title: `reusing an Idempotency-Key as ${whose} returned our charge`,
    severity: 'failure',
    expected: `a charge of ${whose}'s own ("Their data is independent" / "404 | … belongs to another account")`,
    actual: `HTTP ${answer.status} with our charge ${show(ourChargeId)}`,
  }));
}

/** True when a posting mentions `needle` in any field (id, description, entries). */
function mentions(posting: unknown, needle: unknown): boolean {
  return typeof needle === 'string' && needle !== '' && JSON.stringify(posting).includes(needle);
}

/**
 * Another account's or environment's finance statement, read after our capture: none of its
 * postings names our charge (id or e2e_id). A posting naming it is our money in their ledger.
 */
export function ensureNoForeignPosting(statement: unknown, ours: { id: string; e2eId?: unknown }, ctx: Boundary): Judgement {
  const { whose, ...rest } = ctx;
  const postings = isRecord(statement) && Array.isArray(statement.transactions) ? statement.transactions : undefined;
  if (!postings) return { requirements: [], findings: [] };
  const foreign = postings.filter((p) => mentions(p, ours.id) || mentions(p, ours.e2eId));
  if (foreign.length === 0) return judge(rest);
  return judge(rest, makeFinding(rest, {
    code: 'finance.foreign-posting',
    title: `the finance statement of ${whose} shows our capture`,
    severity: 'failure',
    expected: `no posting of our charge ${ours.id} in ${whose}'s statement ("Their data is independent")`,
    actual: show(foreign[0], 400),
  }));
}

/** A charge made by another account or environment, and how its events are recognised. */
export interface ForeignCharge {
  /** a unique token of its external_ref (what our matcher looks for in a body) */
  token: string;
}

/** The parts of a delivery this rule reads. */
export type SeenDelivery = Pick<Delivery, 'seq' | 'headers' | 'rawBody' | 'bodyText' | 'receivedAt'>;

/**
 * Our endpoint (registered for our account's sandbox) receives no event of a charge made by
 * `whose`. "Every state change sends a signed POST to that URL" — the URL the account registered.
 * - an event about their charge, signed with OUR endpoint secret: it was sent as a delivery to our
 *   endpoint: failure;
 * - one that does not verify with our secret may come from a registration of theirs that happens
 *   to use the same URL (the operator's choice, which the suite cannot see): a warning.
 * Across environments (`crossing: 'environment'`) the first case is only a warning too: the
 * registration is "the webhook URL", and whether one URL (and secret) was registered for sandbox
 * and production alike is not stated. Across accounts (`crossing: 'account'`) it fails: each
 * account registers its own URL.
 */
export function ensureNoForeignDelivery(deliveries: readonly SeenDelivery[], foreign: ForeignCharge, ctx: Boundary & { secret: string; crossing: 'account' | 'environment' }): Judgement {
  const { whose, secret, crossing, ...rest } = ctx;
  const severity = crossing === 'account' ? 'failure' : 'warning';
  const theirs = deliveries.filter((d) => d.bodyText.includes(foreign.token));
  if (theirs.length === 0) return judge(rest);
  const signedForUs = theirs.filter((d) => verifyPartnerSignature({ header: d.headers[PARTNER_SIGNATURE_HEADER], rawBody: d.rawBody, secret, receivedAt: d.receivedAt, toleranceSeconds: Number.MAX_SAFE_INTEGER }).matchedOver === 'raw-body');
  const shown = signedForUs[0] ?? theirs[0];
  return judge(rest, makeFinding(rest, {
    code: 'webhook.foreign-event',
    title: `our webhook endpoint received an event of a charge made by ${whose}`,
    severity: signedForUs.length > 0 ? severity : 'warning',
    expected: `only our account's sandbox events at the registered URL (${whose}'s data is its own)`,
    actual: `delivery #${shown?.seq ?? '?'}${signedForUs.length > 0 ? ', signed with our endpoint secret' : ' (not signed with our secret)'}: ${show(shown?.bodyText, 300)}`,
  }));
}
