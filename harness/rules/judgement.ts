/**
 * What every check receives from its caller, and the one helper that turns an observation into a
 * {@link Finding}. The caller names the requirement IDs and the exchanges that show the
 * observation; a check only decides whether the observation breaks its rule, and how badly.
 */
import type { Exchange } from '../http/exchange.js';
import type { Finding, Severity } from './finding.js';

export interface CheckContext {
  /** requirement IDs (specs/requirements.yaml) the caller is checking with this call */
  requirements: string[];
  /** the exchanges that show the observation (rendered as curl in reports) */
  exchanges?: Exchange[];
  /**
   * Overrides the severity the check would choose. Checks default to the fairest reading of the
   * contract; a caller checking a clause the contract states more (or less) firmly may override it.
   */
  severity?: Severity;
  /** JSON pointer of the observed value in the response body, when the caller knows it */
  pointer?: string;
  /** human name of the observed value, e.g. `data.pix.emv`; used in the finding texts */
  subject?: string;
}

export interface FindingParts {
  code: string;
  title: string;
  severity: Severity;
  expected: string;
  actual: string;
  pointer?: string;
}

/** Builds a finding; `ctx.severity` wins over the check's default severity. */
export function makeFinding(ctx: CheckContext, parts: FindingParts): Finding {
  const finding: Finding = {
    code: parts.code,
    title: parts.title,
    severity: ctx.severity ?? parts.severity,
    requirements: [...ctx.requirements],
    expected: parts.expected,
    actual: parts.actual,
    exchanges: ctx.exchanges ? [...ctx.exchanges] : [],
  };
  const pointer = parts.pointer ?? ctx.pointer;
  if (pointer !== undefined) finding.pointer = pointer;
  return finding;
}

/** The name a finding uses for the observed value. */
export function subjectOf(ctx: CheckContext, fallback: string): string {
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
