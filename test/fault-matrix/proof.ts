/**
 * Requirement-level proof (issue 15): a checkable or timer requirement is PROVEN when a reference
 * fault that breaks it is detected by a failing check naming it (the fault's failing requirements
 * include it). The matrix report lists proven and unproven requirements; `proof-baseline.json`
 * records the requirements proven when it was last written, and the fault-matrix test fails when
 * one of them loses its proof (a check that no longer fails on its fault, or a fault removed).
 *
 * Receiver requirements (`target: receiver`) are proven by test/receiver-conformance.test.ts, not
 * by this matrix (the same function, `target` 'receiver', over its fault runs); unobservable ones
 * need no proof.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Requirement } from '../../harness/contract/requirements.js';
import type { FaultOutcome } from './report.js';

export const PROOF_BASELINE_FILE = fileURLToPath(new URL('./proof-baseline.json', import.meta.url));

export interface RequirementProof {
  /** checkable and timer requirements of the two APIs (or of the receiver target) */
  provable: number;
  /** requirement → the detected faults that prove it */
  proven: Record<string, string[]>;
  /** provable requirements no detected fault proves (yet), and that the catalogue does not exempt */
  unproven: string[];
  /** requirement → the catalogue's reason why no fault can prove it (`exempt:`), for those no fault proves */
  exempt: Record<string, string>;
}

/** What a fault run proves: whether it was detected, and the requirements its failures name. */
export type ProvingOutcome = Pick<FaultOutcome, 'fault' | 'detected' | 'failingRequirements'>;

/**
 * Which requirements the detected faults prove: the two APIs' (`api`, the fault matrix) or the
 * receiver target's (`receiver`, test/receiver-conformance.test.ts).
 */
export function requirementProof(outcomes: readonly ProvingOutcome[], catalogue: readonly Requirement[], target: 'api' | 'receiver' = 'api'): RequirementProof {
  const provable = catalogue.filter((r) => r.kind !== 'unobservable' && (target === 'receiver' ? r.target === 'receiver' : r.target === undefined));
  const proven: Record<string, string[]> = {};
  for (const o of outcomes) {
    if (!o.detected) continue;
    for (const id of o.failingRequirements) (proven[id] ??= []).push(o.fault);
  }
  const ids = new Set(provable.map((r) => r.id));
  for (const id of Object.keys(proven)) if (!ids.has(id)) delete proven[id];
  const exempt: Record<string, string> = {};
  for (const r of provable) if (proven[r.id] === undefined && r.exempt !== undefined) exempt[r.id] = r.exempt;
  return {
    provable: provable.length,
    proven,
    unproven: provable.filter((r) => proven[r.id] === undefined && r.exempt === undefined).map((r) => r.id),
    exempt,
  };
}

/** Requirements of the baseline that the matrix no longer proves. */
export function lostProofs(proof: RequirementProof, baseline: readonly string[]): string[] {
  return baseline.filter((id) => proof.proven[id] === undefined);
}

export function readProofBaseline(file = PROOF_BASELINE_FILE): string[] {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { proven?: unknown };
    return Array.isArray(json.proven) ? json.proven.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** `tsx test/fault-matrix/proof.ts reports/fault-matrix.json`: records the proven set as the new baseline. */
export function writeProofBaseline(proof: RequirementProof, file = PROOF_BASELINE_FILE): void {
  writeFileSync(file, `${JSON.stringify({ note: 'requirements proven by the fault matrix (test/fault-matrix/proof.ts); regenerate after adding faults', proven: Object.keys(proof.proven).sort() }, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const matrixFile = process.argv[2] ?? 'reports/fault-matrix.json';
  const matrix = JSON.parse(readFileSync(matrixFile, 'utf8')) as { proof?: RequirementProof };
  if (!matrix.proof) throw new Error(`${matrixFile} has no proof section`);
  writeProofBaseline(matrix.proof);
  console.log(`proof baseline: ${Object.keys(matrix.proof.proven).length} requirements proven`);
}
