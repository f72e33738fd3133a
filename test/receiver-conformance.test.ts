/**
 * System test of the receiver target (issue 18): the CLI in receiver mode
 * (`--receiver-url … --receiver-scheme …`) against the reference receiver (reference/receiver/),
 * started in-process here, one instance per run.
 *
 * - the correct receiver passes for both schemes, with --strict (no warning either), exit 0;
 * - each receiver fault, under each scheme it shows in, fails the run (exit 1) with a finding naming
 *   the fault's requirement for that scheme. Where the rule is a warning by the contract's words
 *   (answer-slowly: "quickly" is not a number; ignore-timestamp-tolerance: 300 s is "the default";
 *   the fault's `strict` schemes) the run is --strict, as the CLI documents. Fault runs select the
 *   check that sees the fault with --grep, to keep the test bounded;
 * - together the fault runs prove every checkable receiver requirement of the catalogue (22/22),
 *   or the catalogue exempts it with its reason (`exempt:`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';
import { loadRequirements } from '../harness/contract/requirements.js';
import { requirementProof } from './fault-matrix/proof.js';
import type { ProvingOutcome } from './fault-matrix/proof.js';
import { startReferenceReceiver } from '../reference/receiver/server.js';
import type { Scheme } from '../reference/receiver/server.js';
import { RECEIVER_FAULTS } from '../reference/receiver/faults.js';
import type { ReceiverFault } from '../reference/receiver/faults.js';

const SECRET = 'whsec_receiver_system_test';
const work = mkdtempSync(join(tmpdir(), 'paygate-receiver-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Case {
  label: string;
  scheme: Scheme;
  faults: ReceiverFault[];
  grep?: string;
  strict: boolean;
  /** the requirement the fault run must name */
  requirement?: string;
}

/** The check that sees each fault (its title, the same under both schemes). */
const FAULT_CHECKS: Record<ReceiverFault, string> = {
  'accept-bad-signature': 'signature does not verify',
  'verify-reserialized': 'raw body',
  'process-duplicates': 'are processed once',
  'answer-slowly': 'every documented event type',
  'reject-unknown-fields': 'unknown extra fields',
  'uppercase-only-digest': 'digest encoding',
  'ignore-timestamp-tolerance': 'past the 300 s tolerance',
  'conflict-on-duplicate': 'are acknowledged 2xx',
  'accept-unsigned': 'without the signature header',
  'dedupe-event-id-only': 'are processed once',
  'drop-paid-before-created': 'paid events are processed',
  'body-limit-100kb': 'event is accepted',
};

/**
 * Faults the suite does not detect yet because a rule or check is missing (the rules' owners empty
 * this list): `fault@scheme` → what is missing. Their runs must still NOT be detected, so that a rule
 * that starts catching one is noticed and the entry moved out.
 */
const PENDING_RULE: Readonly<Record<string, string>> = {};

/** One run per fault and scheme the fault names a requirement for. */
const FAULT_CASES: Case[] = (Object.keys(FAULT_CHECKS) as ReceiverFault[]).flatMap((fault) =>
  (['gateway', 'partner'] as const).flatMap((scheme): Case[] => {
    const requirement: string | undefined = RECEIVER_FAULTS[fault].requirement[scheme];
    if (requirement === undefined) return [];
    const strict = (RECEIVER_FAULTS[fault].strict as readonly Scheme[]).includes(scheme);
    return [{ label: `${fault}@${scheme}`, scheme, faults: [fault], grep: FAULT_CHECKS[fault], strict, requirement }];
  }),
);

async function runCase(c: Case): Promise<ConformanceRunResult> {
  const receiver = await startReferenceReceiver({ secret: SECRET, faults: c.faults, slowMs: 2_100 });
  try {
    return await runConformance({
      label: c.label,
      files: [],
      via: 'cli',
      cliArgs: [
        '--receiver-url',
        receiver.endpoint(c.scheme),
        '--receiver-scheme',
        c.scheme,
        '--seed',
        '7',
        ...(c.strict ? ['--strict'] : []),
        ...(c.grep !== undefined ? ['--grep', c.grep] : []),
      ],
      env: { RECEIVER_SIGNATURE_SECRET: SECRET, RECEIVER_STATE_URL: receiver.stateUrl(c.scheme) },
      reportsDir: join(work, c.label),
      timeoutMs: 120_000,
    });
  } finally {
    await receiver.close();
  }
}

/** Runs the cases `width` at a time (2 cores shared: never all at once). */
async function runAll(cases: readonly Case[], width: number): Promise<Map<string, ConformanceRunResult>> {
  const results = new Map<string, ConformanceRunResult>();
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < cases.length; i = next++) {
      const c = cases[i]!;
      results.set(c.label, await runCase(c));
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

const cases: Case[] = [
  { label: 'correct-gateway', scheme: 'gateway', faults: [], strict: true },
  { label: 'correct-partner', scheme: 'partner', faults: [], strict: true },
  ...FAULT_CASES,
];

/** A fault run as the proof reads it: detected (exit 1), and the requirements its failures name. */
function proving(c: Case, r: ConformanceRunResult | undefined): ProvingOutcome {
  return { fault: c.label, detected: r?.exitCode === 1, failingRequirements: [...new Set(r?.report?.failures.flatMap((f) => f.requirements) ?? [])] };
}

describe('receiver conformance (CLI in receiver mode against the reference receiver)', () => {
  let results: Map<string, ConformanceRunResult>;

  it('runs the correct receiver and every fault', { timeout: 420_000 }, async () => {
    results = await runAll(cases, 3);
    expect(results.size).toBe(cases.length);
  });

  for (const scheme of ['gateway', 'partner'] as const) {
    it(`passes the correct receiver (${scheme}), with no warning, exit 0`, () => {
      const r = results.get(`correct-${scheme}`);
      expect(r?.exitCode, r?.outputTail).toBe(0);
      const report = r?.report;
      expect(report?.summary.failed).toBe(0);
      expect(report?.summary.warnings).toBe(0);
      expect(report?.summary.passed).toBeGreaterThanOrEqual(10);
      // receiver duties of the scheme decided; API requirements not run in a receiver run
      const prefix = scheme === 'gateway' ? 'GW-RCV-' : 'PT-RCV-';
      const own = report?.requirements.filter((q) => q.id.startsWith(prefix) && q.verdict !== 'unobservable') ?? [];
      expect(own.length).toBeGreaterThanOrEqual(10);
      for (const q of own) expect(q.verdict, q.id).toBe('pass');
      const api = report?.requirements.find((q) => q.id === (scheme === 'gateway' ? 'GW-EVT-TRANSACTION-PAID' : 'PT-EVT-PAID'));
      expect(api?.verdict).toBe('not-run');
    });
  }

  it('never writes the endpoint secret into a report or the output (failures carry curl commands)', () => {
    for (const [label, r] of results) {
      expect(JSON.stringify(r.report ?? {}).includes(SECRET), label).toBe(false);
      expect(r.outputTail.includes(SECRET), label).toBe(false);
    }
  });

  for (const c of FAULT_CASES) {
    const pending = PENDING_RULE[c.label];
    it(`${pending === undefined ? 'detects' : 'does not detect yet (pending rule)'} ${c.label}${c.strict ? ' (--strict)' : ''}: ${pending === undefined ? 'exit 1, ' : ''}naming ${c.requirement}`, () => {
      const r = results.get(c.label);
      const named = r?.report?.failures.some((f) => f.requirements.includes(c.requirement ?? '')) ?? false;
      if (pending !== undefined) {
        expect(named, `${c.label} is now detected: remove it from PENDING_RULE (${pending})`).toBe(false);
        return;
      }
      expect(r?.exitCode, r?.outputTail).toBe(1);
      expect(named, JSON.stringify(r?.report?.failures.map((f) => f.requirements))).toBe(true);
    });
  }

  it('proves every checkable receiver requirement, or the catalogue exempts it with its reason', () => {
    const outcomes = FAULT_CASES.filter((c) => PENDING_RULE[c.label] === undefined).map((c) => proving(c, results.get(c.label)));
    const proof = requirementProof(outcomes, loadRequirements(), 'receiver');
    const covered = Object.keys(proof.proven).length + Object.keys(proof.exempt).length;
    console.log(`receiver proof: ${covered}/${proof.provable} (${Object.keys(proof.proven).length} proven by a fault, ${Object.keys(proof.exempt).length} exempt)`);
    expect(proof.unproven, 'receiver requirements with neither a detected fault nor an `exempt:` reason').toEqual([]);
    expect(covered).toBe(proof.provable);
    expect(proof.provable).toBe(22);
  });
});
