/**
 * A finding as reports carry it: the rule's {@link Finding} made JSON (its exchanges become curl
 * lines) with a stable key. The key names the deviation, not the sighting: the same code, the same
 * requirements, the same operation, the same place in the body and the same rule give the same key
 * in whichever check (and run) it is seen, so one deviation that many checks meet is listed once
 * (Schemathesis groups its failures the same way). What the target answered (`actual`) is not part
 * of it: two sightings of one deviation differ in ids and generated values.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from '../core/exchange.js';
import type { Finding, Severity } from '../rules/finding.js';

export interface ReportedFinding {
  /** the deviation's stable identity ({@link findingKey}) */
  key: string;
  code: string;
  /** the rule that made it (harness/rules/rule.ts), when it declared itself */
  rule?: string;
  severity: Severity;
  title: string;
  requirements: string[];
  expected: string;
  actual: string;
  /** the spec operation(s) of the exchanges that show it, e.g. `POST /api/auth` */
  operation?: string;
  /** JSON pointer into the response body, when the finding is located */
  pointer?: string;
  /** one curl per related exchange, secrets already redacted upstream */
  curl: string[];
  /** the run-unique sequence numbers of those exchanges (evidence references) */
  exchanges?: number[];
}

/** What the key is made of. */
export type KeyParts = Pick<ReportedFinding, 'code' | 'requirements' | 'operation' | 'pointer' | 'rule'>;

/** The stable key of a deviation: code, requirements (as a set), operation, location and rule. */
export function findingKey(parts: KeyParts): string {
  const identity = [parts.code, [...new Set(parts.requirements)].sort().join(','), parts.operation ?? '', parts.pointer ?? '', parts.rule ?? ''];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12);
}

/** The distinct operations of a finding's exchanges, in order. */
export function operationOf(exchanges: readonly Exchange[]): string | undefined {
  const ops = [...new Set(exchanges.map((e) => e.operation).filter((op): op is string => op !== undefined))];
  return ops.length > 0 ? ops.join(' + ') : undefined;
}

/** A rule's finding as reports carry it. */
export function reportFinding(finding: Finding): ReportedFinding {
  const operation = operationOf(finding.exchanges);
  const parts: KeyParts = {
    code: finding.code,
    requirements: [...finding.requirements],
    ...(operation !== undefined && { operation }),
    ...(finding.pointer !== undefined && finding.pointer !== '' && { pointer: finding.pointer }),
    ...(finding.rule !== undefined && { rule: finding.rule }),
  };
  return {
    key: findingKey(parts),
    ...parts,
    requirements: [...finding.requirements],
    severity: finding.severity,
    title: finding.title,
    expected: finding.expected,
    actual: finding.actual,
    curl: finding.exchanges.map((e) => e.curl),
    ...(finding.exchanges.length > 0 && { exchanges: finding.exchanges.map((e) => e.seq) }),
  };
}
