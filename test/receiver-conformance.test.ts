/**
 * System test of the receiver target (issue 18): the CLI in receiver mode
 * (`--receiver-url … --receiver-scheme …`) against the reference receiver (reference/receiver/),
 * started in-process here, one instance per run.
 *
 * - the correct receiver passes for both schemes, with --strict (no warning either), exit 0;
 * - each receiver fault fails the run (exit 1) with a finding naming the fault's requirement. Faults
 *   whose rule is a warning by the contract's words (answer-slowly: "quickly" is not a number;
 *   ignore-timestamp-tolerance: 300 s is "the default") fail under --strict, as the CLI documents.
 *   Fault runs select the check that sees the fault with --grep, to keep the test bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';
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
}

/** The check that sees each fault, and the scheme it is run with. */
const FAULT_RUNS: Record<ReceiverFault, { scheme: Scheme; grep: string }> = {
  'accept-bad-signature': { scheme: 'partner', grep: 'signature does not verify' },
  'verify-reserialized': { scheme: 'partner', grep: 'raw body' },
  'process-duplicates': { scheme: 'gateway', grep: 'are processed once' },
  'answer-slowly': { scheme: 'partner', grep: 'every documented event type' },
  'reject-unknown-fields': { scheme: 'gateway', grep: 'unknown extra fields' },
  'uppercase-only-digest': { scheme: 'gateway', grep: 'digest encoding' },
  'ignore-timestamp-tolerance': { scheme: 'partner', grep: 'past the 300 s tolerance' },
};

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
  ...(Object.keys(FAULT_RUNS) as ReceiverFault[]).map((fault) => ({ label: fault, faults: [fault], strict: RECEIVER_FAULTS[fault].strict, ...FAULT_RUNS[fault] })),
];

describe('receiver conformance (CLI in receiver mode against the reference receiver)', () => {
  let results: Map<string, ConformanceRunResult>;

  it('runs the correct receiver and every fault', { timeout: 240_000 }, async () => {
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

  for (const fault of Object.keys(FAULT_RUNS) as ReceiverFault[]) {
    const { scheme } = FAULT_RUNS[fault];
    const requirement = RECEIVER_FAULTS[fault].requirement[scheme];
    it(`detects ${fault} (${scheme}): exit 1, naming ${requirement}`, () => {
      const r = results.get(fault);
      expect(r?.exitCode, r?.outputTail).toBe(1);
      const named = r?.report?.failures.some((f) => f.requirements.includes(requirement ?? '')) ?? false;
      expect(named, JSON.stringify(r?.report?.failures.map((f) => f.requirements))).toBe(true);
    });
  }
});
