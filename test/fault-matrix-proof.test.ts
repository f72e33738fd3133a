// Requirement-level proof (test/fault-matrix/proof.ts): which requirements a detected fault proves,
// and which lost their proof since the baseline.
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import { lostProofs, requirementProof } from './fault-matrix/proof.js';
import type { FaultOutcome } from './fault-matrix/report.js';

const catalogue = [
  { id: 'GW-A', api: 'gateway', section: 's', quote: 'q', kind: 'checkable' },
  { id: 'GW-B', api: 'gateway', section: 's', quote: 'q', kind: 'timer' },
  { id: 'GW-C', api: 'gateway', section: 's', quote: 'q', kind: 'unobservable', reason: 'r' },
  { id: 'GW-RCV-D', api: 'gateway', section: 's', quote: 'q', kind: 'checkable', target: 'receiver' },
] as Requirement[];

const outcome = (fault: string, detected: boolean, failingRequirements: string[]): FaultOutcome => ({ fault, detected, failingRequirements } as unknown as FaultOutcome);

describe('requirementProof', () => {
  it('counts a requirement proven only through a detected fault whose failing check names it', () => {
    const proof = requirementProof([outcome('f1', true, ['GW-A']), outcome('f2', false, ['GW-B']), outcome('f3', true, ['GW-C'])], catalogue);
    expect(proof.provable).toBe(2);
    expect(proof.proven).toEqual({ 'GW-A': ['f1'] });
    expect(proof.unproven).toEqual(['GW-B']);
  });
  it('proves the receiver target\'s requirements apart from the APIs\'', () => {
    const proof = requirementProof([outcome('r1', true, ['GW-RCV-D', 'GW-A'])], catalogue, 'receiver');
    expect(proof.provable).toBe(1);
    expect(proof.proven).toEqual({ 'GW-RCV-D': ['r1'] });
    expect(proof.unproven).toEqual([]);
    expect(requirementProof([outcome('r1', true, ['GW-RCV-D'])], catalogue).proven).toEqual({});
  });
  it('names the requirements of the baseline that lost their proof', () => {
    const proof = requirementProof([outcome('f1', true, ['GW-A'])], catalogue);
    expect(lostProofs(proof, ['GW-A', 'GW-B'])).toEqual(['GW-B']);
    expect(lostProofs(proof, ['GW-A'])).toEqual([]);
  });
});
