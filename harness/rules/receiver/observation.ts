/**
 * What the receiver rules judge: the answers of the integrator's webhook endpoint to deliveries the
 * suite made as the platform, and (optionally) what its read-back hook says it processed. Plain
 * data: no HTTP here.
 */
import type { Exchange } from '../../core/exchange.js';
import type { RequirementId } from '../finding.js';

/** Which contract's webhooks the endpoint receives. */
export type ReceiverScheme = 'gateway' | 'partner';

/** One delivery the suite made and how the endpoint answered. */
export interface DeliveryObservation {
  /** what was delivered, for the finding texts (e.g. `transaction_paid signed over the raw body`) */
  label: string;
  /** HTTP status; 0 when no answer came (see `error`) */
  status: number;
  /** from sending the request to the end of the answer */
  durationMs: number;
  /** network failure or our timeout, as text */
  error?: string;
  exchange?: Exchange;
}

/** The requirement a receiver duty has under each scheme. */
export type SchemeIds = Record<ReceiverScheme, RequirementId>;

export function is2xxStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** `answered 401 in 12 ms` / `no answer: timeout after 10000 ms`. */
export function describeAnswer(o: DeliveryObservation): string {
  if (o.status === 0) return `no answer (${o.error ?? 'no response'}) after ${Math.round(o.durationMs)} ms`;
  return `answered ${o.status} in ${Math.round(o.durationMs)} ms`;
}

export function exchangesOf(...observations: readonly DeliveryObservation[]): Exchange[] {
  return observations.flatMap((o) => (o.exchange ? [o.exchange] : []));
}

/** True when the observation was cut off by our own timeout (not refused). */
export function timedOut(o: DeliveryObservation): boolean {
  return o.status === 0 && /timeout/i.test(o.error ?? '');
}
