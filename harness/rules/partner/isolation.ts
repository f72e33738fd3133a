/**
 * What sits behind the lookups stays within its account and environment (partner-cashin-api.md):
 * "Sandbox and production share the same address; the key prefix decides the environment. Their data
 * is independent." (keepEnvironmentsApart, environments.ts) and "404 | resource not found or belongs
 * to another account" (keepAccountsApart, errors.ts); "During the pilot the webhook URL is
 * registered with the integration team"; idempotency: "same key and same body returns the original
 * response".
 *
 * An implementation can keep lookups apart and still share what sits behind them: an idempotency
 * cache keyed by the key alone, a ledger keyed by account or by environment only, a dispatcher that
 * sends every event to the registered URL. These are the judgements both boundary rules make, each
 * with its own codes (pure functions over a rule's Verdict; no rule of their own).
 */
import { show } from '../judgement.js';
import type { Verdict } from '../rule.js';
import { isRecord } from '../../core/json.js';
import { PARTNER_SIGNATURE_HEADER, readSignature } from '../../webhooks/signatures.js';
import type { Delivery } from '../../webhooks/types.js';
import type { Exchange } from '../../core/exchange.js';

/** The charge a creation answer carries: the body, or its `data` (the lookup shape is not shown). */
function chargeIdOf(json: unknown): unknown {
  if (!isRecord(json)) return undefined;
  if (typeof json.id === 'string') return json.id;
  return isRecord(json.data) ? json.data.id : undefined;
}

/**
 * The same `Idempotency-Key` and body sent by the other side after ours: its first use of the key
 * must not return our charge (their data is their own): a 2xx with our charge's id is `shared`. A new
 * charge passes. The scope of a key is not stated: a 409 (the key counted as used) reveals only that
 * the key exists elsewhere, `taken` (a warning). Other answers are the status rules'.
 */
export function judgeKeyReuse<C extends string>(v: Verdict<C>, o: { ourChargeId: string; answer: { status: number; json: unknown; exchange: Exchange }; first?: Exchange }, whose: string, codes: { shared: C; taken: C }): void {
  const { answer } = o;
  v.shows(o.first, answer.exchange);
  if (answer.status === 409) {
    return v.find(codes.taken, { title: `an Idempotency-Key first used by ${whose} answered 409`, expected: `a new charge: a key is ${whose === 'production' ? 'an environment\'s' : 'an account\'s'} own (the key scope is not stated)`, actual: 'HTTP 409' });
  }
  if (answer.status < 200 || answer.status > 299) return v.nothingToJudge();
  if (chargeIdOf(answer.json) !== o.ourChargeId) return;
  v.find(codes.shared, {
    title: `reusing an Idempotency-Key as ${whose} returned our charge`,
    expected: `a charge of ${whose}'s own ("Their data is independent" / "404 | … belongs to another account")`,
    actual: `HTTP ${answer.status} with our charge ${show(o.ourChargeId)}`,
  });
}

/**
 * The other side's finance statement, read after our capture: none of its postings names our charge
 * (id or e2e_id). A posting naming it is our money in their ledger (`code`).
 */
export function judgeForeignPostings<C extends string>(v: Verdict<C>, o: { statement: unknown; ours: { id: string; e2eId?: unknown }; exchanges: readonly Exchange[] }, whose: string, code: C): void {
  const postings = isRecord(o.statement) && Array.isArray(o.statement.transactions) ? o.statement.transactions : undefined;
  if (!postings) return v.nothingToJudge();
  const mentions = (posting: unknown, needle: unknown): boolean => typeof needle === 'string' && needle !== '' && JSON.stringify(posting).includes(needle);
  const foreign = postings.filter((p) => mentions(p, o.ours.id) || mentions(p, o.ours.e2eId));
  if (foreign.length === 0) return;
  v.find(code, {
    title: `the finance statement of ${whose} shows our capture`,
    expected: `no posting of our charge ${o.ours.id} in ${whose}'s statement ("Their data is independent")`,
    actual: show(foreign[0], 400),
    exchanges: o.exchanges,
  });
}

/** The parts of a delivery the foreign-event judgement reads. */
export type SeenDelivery = Pick<Delivery, 'seq' | 'headers' | 'rawBody' | 'bodyText' | 'receivedAt'>;

/**
 * Our endpoint (registered for our account's sandbox) receives no event of a charge the other side
 * made (`token`: a unique token of its external_ref). "Every state change sends a signed POST to that
 * URL" — the URL the account registered. An event about their charge signed with OUR endpoint secret
 * was sent as a delivery to our endpoint (`signed`); one that does not verify with our secret may
 * come from a registration of theirs that happens to use the same URL (the operator's choice, which
 * the suite cannot see: `unsigned`).
 */
export function judgeForeignDeliveries<C extends string>(v: Verdict<C>, o: { deliveries: readonly SeenDelivery[]; token: string; secret: string; exchanges: readonly Exchange[] }, whose: string, codes: { signed: C; unsigned: C }): void {
  const theirs = o.deliveries.filter((d) => d.bodyText.includes(o.token));
  if (theirs.length === 0) return;
  const signedForUs = theirs.filter((d) => readSignature({ header: d.headers[PARTNER_SIGNATURE_HEADER], rawBody: d.rawBody, secret: o.secret }).match?.over === 'raw-body');
  const shown = signedForUs[0] ?? theirs[0];
  v.find(signedForUs.length > 0 ? codes.signed : codes.unsigned, {
    title: `our webhook endpoint received an event of a charge made by ${whose}`,
    expected: `only our account's sandbox events at the registered URL (${whose}'s data is its own)`,
    actual: `delivery #${shown?.seq ?? '?'}${signedForUs.length > 0 ? ', signed with our endpoint secret' : ' (not signed with our secret)'}: ${show(shown?.bodyText, 300)}`,
    exchanges: o.exchanges,
  });
}

/** What both boundary rules are shown, besides a lookup: the shared flows of suites/partner/isolation.test.ts. */
export type BeyondLookups =
  | { kind: 'key-reuse'; ourChargeId: string; answer: { status: number; json: unknown; exchange: Exchange }; first?: Exchange }
  | { kind: 'postings'; statement: unknown; ours: { id: string; e2eId?: unknown }; exchanges: readonly Exchange[] }
  | { kind: 'deliveries'; deliveries: readonly SeenDelivery[]; token: string; secret: string; exchanges: readonly Exchange[] };

/** The codes a boundary rule files {@link BeyondLookups} under. */
export interface BoundaryCodes<C extends string> {
  shared: C;
  taken: C;
  posting: C;
  signed: C;
  unsigned: C;
}

/** Inside a boundary rule's judge: what sits behind the lookups, judged for `whose` data. */
export function judgeBeyondLookups<C extends string>(v: Verdict<C>, o: BeyondLookups, whose: string, codes: BoundaryCodes<C>): void {
  if (o.kind === 'key-reuse') return judgeKeyReuse(v, o, whose, { shared: codes.shared, taken: codes.taken });
  if (o.kind === 'postings') return judgeForeignPostings(v, o, whose, codes.posting);
  judgeForeignDeliveries(v, o, whose, { signed: codes.signed, unsigned: codes.unsigned });
}
