/**
 * Keys, environments and accounts (partner-cashin-api.md, "Authentication": "Every request carries
 * `Authorization: Bearer <API_KEY>`"; "Key prefix `ak_test_` selects sandbox; `ak_live_` selects
 * production."; "What the service does": "Sandbox and production share the same address; the key
 * prefix decides the environment. Their data is independent."; "Versioning": "The version is the
 * `/v1` segment at the end of the base address. Sandbox and production use the same address and
 * version."; "POST …/pay (sandbox only) … Production answers 403.").
 */
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { expectPartnerError } from './errors.js';
import type { Answer } from './errors.js';

/**
 * A charge of one environment (or account) looked up with the other's key: "Their data is
 * independent" / "404 | … belongs to another account". A 2xx that shows it fails; 404 with {detail}
 * passes; another 4xx only warns (the status of a cross-environment lookup is not stated beyond 404).
 */
export function ensureNotVisibleAcross(answer: Pick<Answer, 'status' | 'json' | 'exchange'>, ctx: RuleContext & { what: string }): Judgement {
  const { what, ...rest } = ctx;
  if (answer.status >= 200 && answer.status <= 299) {
    const c = { ...rest, exchanges: [...(rest.exchanges ?? []), answer.exchange] };
    return judge(c, makeFinding(c, { code: 'env.shared-data', title: `${what} is visible`, severity: 'failure', expected: 'not found (404): "Their data is independent"', actual: `HTTP ${answer.status} ${show(answer.json, 200)}` }));
  }
  return expectPartnerError(answer, 404, { ...rest, otherClientError: 'warning' });
}

/** "Production answers 403": after a production pay attempt, the charge is not paid. */
export function ensureLiveChargeUnpaid(state: unknown, ctx: RuleContext): Judgement {
  if (state !== 'paid') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'env.live-paid', title: 'the simulation paid a production charge', severity: 'failure', expected: 'the charge stays pending ("Production answers 403")', actual: 'status "paid"' }));
}

/**
 * "The version is the `/v1` segment at the end of the base address": the configured partner base
 * address ends in /v1 (a configuration the operator copied from the integration team).
 */
export function verifyBaseAddressVersion(baseUrl: string, ctx: RuleContext): Judgement {
  if (/\/v1\/?$/.test(baseUrl)) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'config.version', title: 'the configured partner base address does not end in /v1', severity: 'warning', expected: '{partner_base_url} ending in /v1', actual: baseUrl }));
}

/** The base address a request went to: the URL before the documented `/business/…` path. */
function baseOf(url: string): string | undefined {
  const m = /^(https?:\/\/[^/?#]+(?:\/[^?#]*?)?)\/business\//i.exec(url);
  return m?.[1]?.toLowerCase();
}

/**
 * "Sandbox and production share the same address; the key prefix decides the environment" and
 * "Sandbox and production use the same address and version": the same request made with each key at
 * one base address (version segment included) is served (2xx) for both. A refusal (4xx) of either
 * key there, or different base addresses, fails. Whether that base ends in /v1 is
 * verifyBaseAddressVersion's.
 */
export function verifySameAddress(sandbox: Pick<Answer, 'status' | 'exchange'>, production: Pick<Answer, 'status' | 'exchange'>, ctx: RuleContext): Judgement {
  const parts = [expectStatus(sandbox.exchange, '2xx', ctx), expectStatus(production.exchange, '2xx', ctx)];
  const a = baseOf(sandbox.exchange.request.url);
  const b = baseOf(production.exchange.request.url);
  const c = { ...ctx, exchanges: [sandbox.exchange, production.exchange] };
  parts.push(judge(c, a !== undefined && a === b ? undefined : makeFinding(c, { code: 'env.address-differs', title: 'sandbox and production were not reached at one address and version', severity: 'failure', expected: 'one base address ending in /v1 for both keys', actual: `sandbox ${show(a)}, production ${show(b)}` })));
  return combine(...parts);
}
