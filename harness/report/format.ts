/**
 * The one place findings are worded (Schemathesis/zod style: a finding is data, this renders it),
 * as text (test output, Allure, the console) and as markdown (conformance.md), with the same facts
 * in the same order:
 *
 *   ✗ <title> [code]
 *     operation: POST /api/auth
 *     at <pointer>
 *     Expected: …
 *     Received: …
 *     GW-… (section): "the contract's words"
 *     Seen by 3 checks: …
 *   Reproduce with:
 *     curl …
 *   Replay with: npm run conformance -- --profile P --seed N --replay '<fast-check path>' --grep '<check>'
 *
 * Everything printed goes through the redactor once more (defence in depth).
 */
import { shellQuote } from '../http/curl.js';
import type { Finding } from '../rules/finding.js';
import { findRequirement } from '../contract/requirements.js';
import { defaultRedactor } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import { commandFor } from '../cli/invocation.js';
import { reportFinding } from './finding.js';
import type { ReportedFinding } from './finding.js';

export interface RenderOptions {
  /** `text` (default) or `markdown` */
  format?: 'text' | 'markdown';
  /** the replay command printed last */
  replay?: string;
  /** the checks that saw it (a deviation seen by several checks) */
  checks?: readonly string[];
  /** how often it was seen, when more than once */
  sightings?: number;
  /** markdown: what precedes the title on its heading line, e.g. `### 3.` */
  heading?: string;
  redactor?: Redactor;
}

function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? prefix + l : l))
    .join('\n');
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** One line of markdown table or list text. */
export function mdCell(text: string | number | undefined): string {
  return String(text ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function requirementText(id: string): { id: string; rest: string } {
  let req: ReturnType<typeof findRequirement>;
  try {
    req = findRequirement(id);
  } catch {
    req = undefined; // a broken catalogue must not hide the finding
  }
  if (!req) return { id, rest: '(not in the requirement catalogue)' };
  const ambiguity = req.ambiguity ? ` [ambiguous: ${req.ambiguity}]` : '';
  return { id: req.id, rest: `(${req.section}): "${req.quote}"${ambiguity}` };
}

/** The replay command for a check: same profile and seed, its test name, and the fast-check path if any. */
export function replayCommand(options: { profile?: string; seed?: number; path?: string; title?: string }): string {
  const parts = [commandFor('run')];
  parts.push(`--profile ${options.profile ?? process.env['PAYGATE_PROFILE'] ?? 'quick'}`);
  const seed = options.seed ?? (process.env['PAYGATE_SEED'] !== undefined ? Number(process.env['PAYGATE_SEED']) : undefined);
  if (seed !== undefined && Number.isFinite(seed)) parts.push(`--seed ${seed}`);
  if (options.path !== undefined) parts.push(`--replay ${shellQuote(options.path)}`);
  if (options.title !== undefined) parts.push(`--grep ${shellQuote(options.title)}`);
  return parts.join(' ');
}

/** A finding in one line: `title: expected …; received …` (conformance.json `message`, table cells). */
export function findingHeadline(finding: Pick<ReportedFinding, 'title' | 'expected' | 'actual'>): string {
  return defaultRedactor.redactText(`${finding.title}: expected ${finding.expected}; received ${finding.actual}`);
}

function seenBy(options: RenderOptions): string | undefined {
  const checks = options.checks ?? [];
  if (checks.length === 0) return undefined;
  const times = options.sightings !== undefined && options.sightings > checks.length ? ` (${options.sightings} times)` : '';
  return `Seen by ${checks.length} check${checks.length === 1 ? '' : 's'}${times}: ${checks.join(', ')}`;
}

/** Renders one finding for people (see the module comment). */
export function renderFinding(input: Finding | ReportedFinding, options: RenderOptions = {}): string {
  const finding = 'curl' in input ? input : reportFinding(input);
  const mark = finding.severity === 'failure' ? '✗' : '⚠';
  const warning = finding.severity === 'warning' ? '(warning: the contract is ambiguous or only advisory here)' : undefined;
  const at = finding.pointer !== undefined && finding.pointer !== '' ? finding.pointer : undefined;
  const requirements = finding.requirements.map(requirementText);
  const seen = seenBy(options);
  const curls = finding.curl.filter((c) => c);
  const lines: string[] = [];
  if (options.format === 'markdown') {
    lines.push(`${options.heading !== undefined ? `${options.heading} ` : ''}${mark} ${mdCell(finding.title)} — \`${finding.code}\``, '');
    if (warning !== undefined) lines.push(`_${warning}_`, '');
    if (finding.operation !== undefined) lines.push(`- **Operation:** \`${mdCell(finding.operation)}\``);
    if (at !== undefined) lines.push(`- **At:** \`${mdCell(at)}\``);
    lines.push(`- **Expected:** ${mdCell(finding.expected)}`, `- **Received:** ${mdCell(finding.actual)}`);
    for (const r of requirements) lines.push(`- [${r.id}](#${r.id}) ${mdCell(r.rest)}`);
    if (seen !== undefined) lines.push(`- ${mdCell(seen)}`);
    lines.push('');
    if (curls.length > 0) lines.push('Reproduce with:', '', fence(curls.join('\n\n'), 'sh'), '');
    if (options.replay !== undefined) lines.push('Replay with:', '', fence(options.replay, 'sh'), '');
  } else {
    lines.push(`${mark} ${finding.title} [${finding.code}]`);
    if (warning !== undefined) lines.push(`  ${warning}`);
    if (finding.operation !== undefined) lines.push(`  operation: ${finding.operation}`);
    if (at !== undefined) lines.push(`  at ${at}`);
    lines.push(`  Expected: ${finding.expected}`, `  Received: ${finding.actual}`);
    for (const r of requirements) lines.push(indent(`${r.id} ${r.rest}`));
    if (seen !== undefined) lines.push(`  ${seen}`);
    if (curls.length > 0) lines.push('Reproduce with:', ...curls.map((c) => indent(c)));
    if (options.replay !== undefined) lines.push(`Replay with: ${options.replay}`);
  }
  return (options.redactor ?? defaultRedactor).redactText(lines.join('\n'));
}

/** An accepted finding in one line (an Allure step, a JUnit property). */
export function acceptedLine(a: Pick<ReportedFinding, 'code' | 'severity' | 'title'> & { entry: number; reason: string; expires?: string }): string {
  return defaultRedactor.redactText(`accepted deviation ${a.code} (${a.severity}; baseline entry #${a.entry + 1}${a.expires !== undefined ? `, expires ${a.expires}` : ''}): ${a.title} — ${a.reason}`);
}

/** A failing fuzz sequence (harness/run/model.ts): its numbered steps, then every request as curl. */
export function renderSequence(sequence: { steps: string; curl: readonly string[] }, format: 'text' | 'markdown' = 'text'): string {
  const text =
    format === 'markdown'
      ? ['Failing sequence:', '', fence(sequence.steps), '', 'Every request of the sequence, in order:', '', fence(sequence.curl.join('\n\n'), 'sh'), ''].join('\n')
      : [`Failing sequence:\n${indent(sequence.steps)}`, 'Every request of the sequence, in order:', ...sequence.curl.map((c) => indent(c))].join('\n');
  return defaultRedactor.redactText(text);
}
