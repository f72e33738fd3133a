/**
 * The fault catalogue: every switchable deviation of the reference from the contract.
 * `REFERENCE_FAULTS=name[,name]` switches faults on. Each fault must be observable through
 * documented behaviour only, names the requirement IDs it violates, and is proven detected by
 * the fault matrix (test/fault-matrix.test.ts).
 */
import { GATEWAY_FAULTS } from './gateway/faults.js';
import { PARTNER_FAULTS } from './partner/faults.js';

export interface FaultSpec {
  /** kebab-case, prefixed `gw-` or `pt-` */
  name: string;
  api: 'gateway' | 'partner';
  /** requirement IDs (specs/requirements.yaml) the fault violates */
  requirements: string[];
  /** `timer`: only observable after a contract timer (token expiry, charge expiry, redelivery) */
  tier: 'quick' | 'timer';
  /** one line: what a broken implementation does */
  intent: string;
  /**
   * Set when every requirement the fault breaks is one the contract states ambiguously: the suite
   * reports it as a warning (never a failure, by the fairness rule), so it is detected under
   * `--strict`. The text says why the reading is ambiguous.
   */
  strict?: string;
}

export const FAULTS: readonly FaultSpec[] = [...GATEWAY_FAULTS, ...PARTNER_FAULTS];

/** Parses `REFERENCE_FAULTS`; unknown names are an error so a typo never runs a "faulty" reference that is correct. */
export function parseFaults(value: string | undefined): Set<string> {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set(FAULTS.map((f) => f.name));
  for (const name of names) {
    if (!known.has(name)) throw new Error(`reference: unknown fault "${name}" in REFERENCE_FAULTS`);
  }
  return new Set(names);
}
