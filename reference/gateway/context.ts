/**
 * What every gateway route handler receives: shared state (`GatewayDeps`) and the call
 * (`GatewayCall`). Handlers return the answer; app.ts writes it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyedMutex } from '../shared/mutex.js';
import type { Personality } from '../personality.js';
import type { GatewayStore, Owned, Principal } from './store.js';
import type { WebhookDispatcher } from './webhook-delivery.js';

export interface GatewayDeps {
  store: GatewayStore;
  faults: ReadonlySet<string>;
  /** one lock per resource id / idempotency key: "Transitions are atomic" */
  locks: KeyedMutex;
  webhooks: WebhookDispatcher;
  /** lower-case e-mail → account id of every company on the platform (split recipients) */
  companies: ReadonlyMap<string, string>;
  /** the free choices taken (reference/personality.ts) */
  personality: Personality;
  /** a stored ISO 8601 instant as this personality writes timestamps */
  time(iso: string): string;
}

export interface GatewayCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  principal: Principal;
  params: Record<string, string>;
}

export interface Answer {
  status: number;
  /** undefined: no body (204) */
  body: unknown;
  headers?: Record<string, string>;
  /** a body that is not JSON (faults only), written as is */
  rawText?: { contentType: string; text: string };
}

/** A route of the gateway; its shape fits `matchRoute` from reference/shared/http.ts. */
export interface GatewayRoute {
  method: string;
  /** pattern like `/api/v1/pix/in/qrcode/:transactionId/pay` */
  pattern: string;
  handle: (call: GatewayCall) => Promise<Answer>;
}

/**
 * A resource the caller may see: same account and same environment ("Sandbox data is isolated";
 * "404 … belongs to another account"). Two isolation faults loosen exactly this test.
 */
export function isVisibleTo(resource: Owned, principal: Principal, faults: ReadonlySet<string>): boolean {
  const sameAccount = resource.accountId === principal.accountId || faults.has('gw-isolation-other-account-sees-resource');
  const sameEnvironment = resource.environment === principal.environment || faults.has('gw-isolation-production-sees-sandbox');
  return sameAccount && sameEnvironment;
}

export function findVisible<K, T extends Owned>(map: ReadonlyMap<K, T>, id: K, principal: Principal, faults: ReadonlySet<string>): T | undefined {
  const resource = map.get(id);
  return resource && isVisibleTo(resource, principal, faults) ? resource : undefined;
}

/**
 * An await point inside critical sections, standing for the ledger write of a real service (a
 * database round trip and commit: milliseconds, not microseconds). With the mutex it changes
 * nothing; the race faults skip the mutex, and then requests really interleave. At 1 ms a burst
 * spread by a loaded machine or a proxy often missed the window; 10 ms matches the partner side's
 * processor round trip.
 */
export const LEDGER_LATENCY_MS = 10;
export function ledgerLatency(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, LEDGER_LATENCY_MS));
}
