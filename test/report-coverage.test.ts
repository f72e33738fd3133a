/**
 * Coverage in conformance.json counts what the run tested: an `--api partner` run does not list the
 * gateway's requirements as uncovered, nor count them as checkable.
 */
import { describe, expect, test } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import { buildConformance } from '../harness/report/verdict.js';
import type { RunInfo } from '../harness/report/verdict.js';
import { outcome } from './report-fixtures.js';

const catalogue: Requirement[] = [
  { id: 'GW-PIXIN-AMOUNT-MIN', api: 'gateway', section: 'POST /api/v1/pix/in/qrcode', quote: 'minimum 100', kind: 'checkable' },
  { id: 'GW-UNCOVERED', api: 'gateway', section: 'Webhooks', quote: 'x', kind: 'checkable' },
  { id: 'PT-CHARGE-CREATE', api: 'partner', section: 'POST /charges', quote: 'y', kind: 'checkable' },
  { id: 'PT-UNCOVERED', api: 'partner', section: 'Webhooks', quote: 'z', kind: 'checkable' },
];

const run = (over: Partial<RunInfo> = {}): RunInfo => ({
  version: '0.1.0', profile: 'quick', seed: 1, startedAt: '2026-11-23T10:00:00.000Z', durationMs: 1,
  targets: { gateway: 'http://127.0.0.1:1', partner: 'http://127.0.0.1:2/v1' }, strict: false, embedded: true, notTested: {}, ...over,
});

describe('coverage of the tested APIs', () => {
  const checks = [outcome({ check: 'partner.charge.create', requirements: ['PT-CHARGE-CREATE'] })];

  test('an --api partner run counts and lists only the partner requirements', () => {
    const report = buildConformance(run({ targets: { partner: 'http://127.0.0.1:2/v1' }, notTested: { gateway: '--api partner' } }), checks, catalogue);
    expect(report.coverage).toMatchObject({ checkable: 2, checked: 1, notCovered: ['PT-UNCOVERED'] });
    // the gateway's requirements keep their verdict and reason
    expect(report.requirements.find((r) => r.id === 'GW-UNCOVERED')).toMatchObject({ verdict: 'not-run', reason: 'API not tested (--api partner)' });
  });

  test('a run of both APIs counts both', () => {
    const report = buildConformance(run(), checks, catalogue);
    expect(report.coverage).toMatchObject({ checkable: 4, checked: 1, notCovered: ['GW-PIXIN-AMOUNT-MIN', 'GW-UNCOVERED', 'PT-UNCOVERED'] });
  });
});
