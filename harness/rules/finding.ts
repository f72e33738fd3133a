/**
 * A finding is data: what a rule saw that the contract does not allow (severity `failure`) or where
 * the contract is ambiguous or only advisory (severity `warning`). A {@link Judgement} is one
 * evaluation of a rule: the requirements it decided and what it found (nothing, when the
 * observation conforms). Verdicts come from judgements: a requirement passes only when a rule
 * deciding it was evaluated and found nothing. One formatter renders findings
 * (harness/report/format.ts).
 */
import type { Exchange } from '../core/exchange.js';
import type { RequirementId } from '../core/requirement-ids.js';
import type { FindingCode } from './codes.js';

export type { RequirementId, FindingCode };

export type Severity = 'failure' | 'warning';

export interface Finding {
  /** stable code naming the rule broken, e.g. `status.unexpected`, `contract.schema`, `emv.crc` */
  code: string;
  /** the rule that made it (harness/rules/rule.ts) */
  rule?: string;
  title: string;
  severity: Severity;
  /** requirement IDs from specs/requirements.yaml */
  requirements: RequirementId[];
  expected: string;
  actual: string;
  /** the exchanges that show it; rendered as curl under "Reproduce with:" */
  exchanges: Exchange[];
  /** JSON pointer into the response body, when the finding is located */
  pointer?: string;
}

/** One evaluation of a rule on an observation: what it decided, and what it found. */
export interface Judgement {
  /** the rule evaluated (absent for judgements made before rules declared themselves) */
  readonly rule?: string;
  /** the requirements this evaluation decided (each counts one evaluation) */
  readonly requirements: readonly RequirementId[];
  /** empty when the observation conforms */
  readonly findings: readonly Finding[];
  /** requests of the observation that got no HTTP answer: nothing could be judged about them */
  readonly unanswered?: readonly Exchange[];
  /** cells of relations this evaluation tried (harness/rules/rule.ts `Relation`) */
  readonly covered?: readonly CoveredCells[];
}

/** The cells of one relation an evaluation tried. */
export interface CoveredCells {
  readonly relation: string;
  readonly cells: readonly string[];
}

/** True when the judgement found nothing (no failure, no warning). */
export function conforms(judgement: Judgement | readonly Judgement[]): boolean {
  const list: readonly Judgement[] = 'findings' in judgement ? [judgement as Judgement] : (judgement as readonly Judgement[]);
  return list.every((j) => j.findings.length === 0);
}

/** True when the judgement found a failure. */
export function fails(judgement: Judgement | readonly Judgement[]): boolean {
  const list: readonly Judgement[] = 'findings' in judgement ? [judgement as Judgement] : (judgement as readonly Judgement[]);
  return list.some((j) => j.findings.some((f) => f.severity === 'failure'));
}
