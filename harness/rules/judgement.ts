/**
 * What every rule receives from its caller, and the helpers that turn an observation into a
 * {@link Judgement}. The caller names the requirement IDs the rule decides at this call and the
 * exchanges that show the observation; the rule alone decides whether the observation breaks the
 * contract, and how badly. A caller never builds a finding or changes a severity (eslint forbids it
 * outside harness/rules/).
 *
 * Severity is the rule's: a failure where the contract is firm, a warning where it is only advisory
 * or ambiguous. A requirement the catalogue marks `latitude: warning` (its whole sentence is
 * ambiguous, not just one reading of it) caps every finding naming only such requirements at a
 * warning, wherever it is made: that ambiguity is encoded once, in specs/requirements.yaml.
 */
import type { Exchange } from '../core/exchange.js';
import type { Finding, FindingCode, Judgement, RequirementId, Severity } from './finding.js';
import { findRequirement } from '../contract/requirements.js';

export interface RuleContext {
  /** requirement IDs (specs/requirements.yaml) the rule decides at this call */
  requirements: readonly RequirementId[];
  /** the exchanges that show the observation (rendered as curl in reports) */
  exchanges?: readonly Exchange[];
  /** JSON pointer of the observed value in the response body, when the caller knows it */
  pointer?: string;
  /** human name of the observed value, e.g. `data.pix.emv`; used in the finding texts */
  subject?: string;
}

export interface FindingParts {
  code: FindingCode;
  title: string;
  severity: Severity;
  expected: string;
  actual: string;
  pointer?: string;
  /** the finding's requirements when they differ from the context's (a subset, or a neighbour) */
  requirements?: readonly RequirementId[];
  /** exchanges besides the context's */
  exchanges?: readonly Exchange[];
}

function isWarnOnly(id: RequirementId): boolean {
  try {
    return findRequirement(id)?.latitude === 'warning';
  } catch {
    return false; // a broken catalogue must not change a verdict
  }
}

/** Builds a finding; a finding naming only `latitude: warning` requirements is a warning. */
export function makeFinding(ctx: RuleContext, parts: FindingParts): Finding {
  const requirements = [...(parts.requirements ?? ctx.requirements)];
  const ambiguous = requirements.length > 0 && requirements.every(isWarnOnly);
  const exchanges = [...(ctx.exchanges ?? [])];
  for (const e of parts.exchanges ?? []) if (!exchanges.includes(e)) exchanges.push(e);
  const finding: Finding = {
    code: parts.code,
    title: parts.title,
    severity: ambiguous ? 'warning' : parts.severity,
    requirements,
    expected: parts.expected,
    actual: parts.actual,
    exchanges,
  };
  const pointer = parts.pointer ?? ctx.pointer;
  if (pointer !== undefined) finding.pointer = pointer;
  return finding;
}

/** One evaluation of the context's requirements with what it found (`undefined` entries: nothing). */
export function judge(ctx: Pick<RuleContext, 'requirements'>, ...findings: (Finding | undefined | readonly (Finding | undefined)[])[]): Judgement {
  const found = findings.flat().filter((f): f is Finding => f !== undefined);
  const requirements = [...ctx.requirements];
  for (const f of found) for (const id of f.requirements) if (!requirements.includes(id)) requirements.push(id);
  return { requirements, findings: found };
}

/** Several judgements as one (the requirements of all, the findings of all). */
export function combine(...judgements: readonly Judgement[]): Judgement {
  const requirements: RequirementId[] = [];
  const findings: Finding[] = [];
  for (const j of judgements) {
    for (const id of j.requirements) if (!requirements.includes(id)) requirements.push(id);
    findings.push(...j.findings);
  }
  return { requirements, findings };
}

/** The name a finding uses for the observed value. */
export function subjectOf(ctx: RuleContext, fallback: string): string {
  return ctx.subject ?? fallback;
}

/** A short, single-line rendering of any observed value for `actual` texts (bounded length). */
export function show(value: unknown, max = 200): string {
  let text: string;
  if (value === undefined) text = 'undefined (absent)';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = `${value.toString()}n`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** `typeof`, with `null` and arrays told apart. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
