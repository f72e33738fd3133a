/**
 * The one place findings are worded (Schemathesis/zod style: a finding is data, this renders it):
 *
 *   ✗ <title> [code]
 *     at <pointer>
 *     Expected: …
 *     Received: …
 *     GW-… (section): "the contract's words"
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

export interface FormatOptions {
  /** the run's seed (replay) */
  seed?: number;
  /** fast-check counterexample path */
  replay?: string;
  /** the check (test) name, used in the replay command's --grep */
  check?: string;
  redactor?: Redactor;
}

function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? prefix + l : l))
    .join('\n');
}

function requirementLine(id: string): string {
  let req: ReturnType<typeof findRequirement>;
  try {
    req = findRequirement(id);
  } catch {
    req = undefined; // a broken catalogue must not hide the finding
  }
  if (!req) return `${id} (not in the requirement catalogue)`;
  const ambiguity = req.ambiguity ? ` [ambiguous: ${req.ambiguity}]` : '';
  return `${req.id} (${req.section}): "${req.quote}"${ambiguity}`;
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

/** The replay line printed with a failure (the same command as the reports'), or undefined when there is nothing to replay with. */
export function formatReplay(options: Pick<FormatOptions, 'seed' | 'replay' | 'check'>): string | undefined {
  if (options.seed === undefined && options.replay === undefined) return undefined;
  return `Replay with: ${replayCommand({
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.replay !== undefined && { path: options.replay }),
    ...(options.check && { title: options.check }),
  })}`;
}

/** Renders one finding for people (test output, Allure, conformance.md). */
export function formatFinding(finding: Finding, options: FormatOptions = {}): string {
  const mark = finding.severity === 'failure' ? '✗' : '⚠';
  const lines: string[] = [`${mark} ${finding.title} [${finding.code}]`];
  if (finding.severity === 'warning') lines.push('  (warning: the contract is ambiguous or only advisory here)');
  if (finding.pointer !== undefined && finding.pointer !== '') lines.push(`  at ${finding.pointer}`);
  lines.push(`  Expected: ${finding.expected}`);
  lines.push(`  Received: ${finding.actual}`);
  for (const id of finding.requirements) lines.push(indent(requirementLine(id)));
  const curls = finding.exchanges.map((e) => e.curl).filter((c) => c);
  if (curls.length) {
    lines.push('Reproduce with:');
    for (const c of curls) lines.push(indent(c));
  }
  const replay = formatReplay(options);
  if (replay) lines.push(replay);
  return (options.redactor ?? defaultRedactor).redactText(lines.join('\n'));
}
