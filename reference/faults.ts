/**
 * The fault catalogue: every switchable deviation of the reference from the contract.
 * `REFERENCE_FAULTS=name[,name]` switches faults on. Each fault must be observable through
 * documented behaviour only, names the requirement IDs it violates, and is proven detected by
 * the fault matrix (test/fault-matrix.test.ts).
 */
import { GATEWAY_FAULTS } from './gateway/faults.js';
import { PARTNER_FAULTS } from './partner/faults.js';

export type { FaultSpec } from './fault-spec.js';
import type { FaultSpec } from './fault-spec.js';
import { gatewayFault } from './fault-spec.js';

export const FAULTS: readonly FaultSpec[] = [
  ...GATEWAY_FAULTS,
  ...PARTNER_FAULTS,
  // rel-e (statuses and enums): a documented request value refused; the partner one sits in
  // reference/partner/faults.ts, whose names are literal types
  gatewayFault('gw-webhook-infraction-event-refused', ['GW-WH-CREATE-200'], 'the registration validator takes its event names from the charge and transfer emitters: infraction (published by the MED module) is refused as an unknown event (400)'),
];

/** Parses `REFERENCE_FAULTS`; unknown names are an error so a typo never runs a "faulty" reference that is correct. */
export function parseFaults(value: string | undefined): Set<string> {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set(FAULTS.map((f) => f.name));
  for (const name of names) {
    if (!known.has(name)) throw new Error(`reference: unknown fault "${name}" in REFERENCE_FAULTS`);
  }
  return new Set(names);
}
