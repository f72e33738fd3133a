/**
 * A quality gate on a run's verdict (`report --quality-gate RULES`): thresholds a team sets on top
 * of the pass/fail verdict, e.g. while it works its way to full conformance. Rules are
 * `name=value` pairs, comma-separated, named as Allure 3 names its own where they mean the same:
 *
 *   maxFailures=N             failed checks (and harness errors) at most N
 *   maxWarnings=N             checks that warned at most N
 *   minTestsCount=N           checks that ran (passed, warned or failed) at least N
 *   successRate=R             (passed + warned) / ran at least R (0..1)
 *   minRequirementsDecided=R  in-scope requirements decided (pass, warn or fail) / in scope at least R (0..1)
 *
 * Evaluated on conformance.json (the checks' outcomes), not on Allure's results: Allure's own
 * `quality-gate` command needs Node 22, and it would count the requirements catalogue page.
 */
import type { ConformanceReport } from './verdict.js';

export type QualityGateRule = 'maxFailures' | 'maxWarnings' | 'minTestsCount' | 'successRate' | 'minRequirementsDecided';
export type QualityGateRules = Partial<Record<QualityGateRule, number>>;

const RULES: Record<QualityGateRule, { kind: 'max' | 'min'; ratio: boolean; what: string }> = {
  maxFailures: { kind: 'max', ratio: false, what: 'failed checks (and harness errors)' },
  maxWarnings: { kind: 'max', ratio: false, what: 'checks that warned' },
  minTestsCount: { kind: 'min', ratio: false, what: 'checks that ran' },
  successRate: { kind: 'min', ratio: true, what: 'success rate of the checks that ran' },
  minRequirementsDecided: { kind: 'min', ratio: true, what: 'share of in-scope requirements decided' },
};

export class QualityGateError extends Error {
  override name = 'QualityGateError';
}

/** Parses `maxFailures=0,successRate=0.95`; throws QualityGateError with what is wrong. */
export function parseQualityGate(text: string): QualityGateRules {
  const rules: QualityGateRules = {};
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const m = /^([A-Za-z]+)=(\d+(?:\.\d+)?)$/.exec(part);
    const name = m?.[1] as QualityGateRule | undefined;
    if (m === null || name === undefined || !(name in RULES)) throw new QualityGateError(`quality gate: "${part}" is not a rule (name=value; rules: ${Object.keys(RULES).join(', ')})`);
    const value = Number(m[2]);
    if (RULES[name].ratio && value > 1) throw new QualityGateError(`quality gate: ${name} is a ratio between 0 and 1, got ${value}`);
    if (!RULES[name].ratio && !Number.isInteger(value)) throw new QualityGateError(`quality gate: ${name} is a count, got ${value}`);
    rules[name] = value;
  }
  if (Object.keys(rules).length === 0) throw new QualityGateError('quality gate: no rule given (e.g. maxFailures=0,successRate=0.95)');
  return rules;
}

export interface QualityGateResult {
  rule: QualityGateRule;
  expected: number;
  actual: number;
  success: boolean;
  message: string;
}

function actualOf(rule: QualityGateRule, report: Pick<ConformanceReport, 'summary' | 'scope'>): number {
  const s = report.summary;
  const ran = s.passed + s.warnings + s.failed;
  switch (rule) {
    case 'maxFailures':
      return s.failed + s.errors;
    case 'maxWarnings':
      return s.warnings;
    case 'minTestsCount':
      return ran;
    case 'successRate':
      return ran === 0 ? 0 : Math.round(((s.passed + s.warnings) / ran) * 1000) / 1000;
    case 'minRequirementsDecided': {
      const scope = report.scope;
      if (scope === undefined || scope.requirements === 0) return 0;
      return Math.round(((scope.requirements - scope.missingRequirements.length) / scope.requirements) * 1000) / 1000;
    }
  }
}

/** Each rule against the report; the gate passes when every rule does. */
export function evaluateQualityGate(rules: QualityGateRules, report: Pick<ConformanceReport, 'summary' | 'scope'>): { passed: boolean; results: QualityGateResult[] } {
  const results = (Object.entries(rules) as [QualityGateRule, number][]).map(([rule, expected]): QualityGateResult => {
    const actual = actualOf(rule, report);
    const spec = RULES[rule];
    const success = spec.kind === 'max' ? actual <= expected : actual >= expected;
    return { rule, expected, actual, success, message: `${spec.what}: ${actual} (${spec.kind === 'max' ? 'at most' : 'at least'} ${expected})` };
  });
  return { passed: results.every((r) => r.success), results };
}

/** One line: `PASSED: …; …` or `FAILED: …`. */
export function qualityGateLine(gate: { passed: boolean; results: readonly QualityGateResult[] }): string {
  return `${gate.passed ? 'PASSED' : 'FAILED'}: ${gate.results.map((r) => `${r.success ? '✓' : '✗'} ${r.message}`).join('; ')}`;
}
