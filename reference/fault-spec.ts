/**
 * The shape of a reference fault and the constructors every fault list uses (reference/faults.ts
 * gathers the lists; a module of its own so the per-area lists need not import the catalogue that
 * imports them).
 */
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

/** A gateway fault: quick unless a contract timer is needed to see it. */
export function gatewayFault(name: string, requirements: string[], intent: string, tier: FaultSpec['tier'] = 'quick'): FaultSpec {
  return { name, api: 'gateway', requirements, tier, intent };
}

/** A partner fault; the name keeps its literal type (PartnerFaultSwitch is derived from it). */
export function partnerFault<N extends `pt-${string}`>(spec: Omit<FaultSpec, 'api'> & { name: N }): FaultSpec & { name: N } {
  return { ...spec, api: 'partner' };
}
