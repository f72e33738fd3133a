// Check outcomes and reported findings for the report tests (what workers write at the end of a check).
import { findingKey } from '../harness/report/finding.js';
import type { ReportedFinding } from '../harness/report/finding.js';
import type { CheckOutcome } from '../harness/report/outcome.js';

/** A reported finding; the key is computed from the parts as the worker computes it. */
export function reported(code: string, requirements: string[], over: Partial<ReportedFinding> = {}): ReportedFinding {
  const parts = { code, requirements, ...over };
  return {
    severity: 'failure',
    title: `${code} title`,
    expected: 'status 400',
    actual: 'status 201',
    curl: ["curl -X POST 'http://127.0.0.1:1/api/v1/pix/in/qrcode' -H \"Authorization: Bearer $GATEWAY_TOKEN\""],
    ...parts,
    key: over.key ?? findingKey(parts),
  };
}

/**
 * A check's outcome. By default the check passed and every listed requirement was evaluated once
 * (a rule decided it); the state follows the findings unless given.
 */
export function outcome(over: Partial<CheckOutcome> & Pick<CheckOutcome, 'check' | 'requirements'>): CheckOutcome {
  const failures = over.failures ?? [];
  const warnings = over.warnings ?? [];
  const title = over.title ?? over.check;
  return {
    name: `suite > ${title}`,
    title,
    file: 'suites/gateway/pix-in.test.ts',
    api: over.check.startsWith('partner') ? 'partner' : 'gateway',
    area: 'PIX cash-in',
    severity: 'critical',
    state: failures.length > 0 ? 'failed' : warnings.length > 0 ? 'warned' : 'passed',
    requests: 3,
    durationMs: 12,
    evaluations: Object.fromEntries(over.requirements.map((id) => [id, { evaluations: 1, failed: 0, warned: 0 }])),
    ...over,
    failures,
    warnings,
  };
}
