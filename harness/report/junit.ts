/**
 * junit.xml, written from the checks' outcomes as they are (not from vitest's view of the tests):
 * one `<testsuite>` per suite file, one `<testcase>` per check (classname = the file, name = the
 * check's title, as CI systems have always keyed them), with
 *
 * - `<properties>`: the check id, its requirements, severity and state, every finding code and
 *   deviation key, accepted deviations, the failure's confirmation (`--confirm-failures`);
 * - `<failure>` (the findings, worded by the one renderer), `<error>` (a harness error), or
 *   `<skipped message="…">` with the reason on every skip (not run, inconclusive);
 * - `<system-out>` the check's observations, `<system-err>` its warnings (a passing check's
 *   warnings show wherever failures do).
 */
import type { CheckOutcome } from './outcome.js';
import { acceptedLine, renderFinding, renderSequence } from './format.js';

/** XML 1.0 text: markup escaped, characters XML cannot carry dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** The `<property>` pairs of a check. */
export function junitProperties(check: CheckOutcome): [string, string][] {
  const out: [string, string][] = [['check', check.check]];
  if (check.api !== undefined) out.push(['api', check.api]);
  if (check.severity !== undefined) out.push(['severity', check.severity]);
  out.push(['state', check.state]);
  out.push(['requirements', check.requirements.join(',')]);
  for (const id of check.requirements) out.push(['requirement', id]);
  const findings = [...check.failures, ...check.warnings];
  for (const code of [...new Set(findings.map((f) => f.code))]) out.push(['finding', code]);
  for (const key of [...new Set(findings.map((f) => f.key))]) out.push(['deviation', key]);
  for (const a of check.accepted ?? []) out.push(['accepted-deviation', acceptedLine(a)]);
  if (check.confirmation !== undefined) out.push(['confirmation', `${check.confirmation.label} ${check.confirmation.failed}/${check.confirmation.runs}`]);
  if (check.replay !== undefined) out.push(['replay', check.replay]);
  return out;
}

function testcase(check: CheckOutcome): string {
  const lines = [`    <testcase${attrs({ classname: check.file, name: check.title ?? check.name, time: seconds(check.durationMs), file: check.file })}>`];
  lines.push('      <properties>');
  for (const [name, value] of junitProperties(check)) lines.push(`        <property${attrs({ name, value })}/>`);
  lines.push('      </properties>');
  if (check.state === 'failed') {
    const failing = check.failures.length > 0 ? check.failures : check.warnings;
    const body = [...failing.map((f) => renderFinding(f)), ...(check.sequence !== undefined ? [renderSequence(check.sequence)] : []), ...(check.replay !== undefined ? [`Replay with: ${check.replay}`] : [])].join('\n\n');
    const message = failing.length > 0 ? `${failing.length} finding(s) break the contract: ${[...new Set(failing.map((f) => f.code))].join(', ')}` : (check.error ?? 'the test failed');
    lines.push(`      <failure${attrs({ message, type: failing.length > 0 ? 'AssertionError' : 'Error' })}>${xmlText(body || message)}</failure>`);
  } else if (check.state === 'error') {
    lines.push(`      <error${attrs({ message: check.error ?? 'harness error', type: 'HarnessError' })}>${xmlText(check.error ?? '')}</error>`);
  } else if (check.state === 'not-run') {
    lines.push(`      <skipped${attrs({ message: `not run: ${check.notRun ?? 'not run'}` })}/>`);
  } else if (check.state === 'inconclusive') {
    lines.push(`      <skipped${attrs({ message: `inconclusive: ${check.inconclusive ?? 'could not be judged'}` })}/>`);
  }
  if (check.notes !== undefined && check.notes.length > 0) lines.push(`      <system-out>${xmlText(check.notes.join('\n'))}</system-out>`);
  const warnings = check.state === 'failed' && check.failures.length === 0 ? [] : check.warnings;
  if (warnings.length > 0) lines.push(`      <system-err>${xmlText(warnings.map((w) => renderFinding(w)).join('\n\n'))}</system-err>`);
  lines.push('    </testcase>');
  return lines.join('\n');
}

export interface JUnitRun {
  /** ISO start of the run */
  startedAt: string;
  /** run-level properties of every suite (tool version, profile, seed, verdict…) */
  properties: Record<string, string>;
}

/** junit.xml for the checks, grouped by suite file in run order. */
export function renderJUnit(checks: readonly CheckOutcome[], run: JUnitRun): string {
  const files = new Map<string, CheckOutcome[]>();
  for (const c of checks) {
    const list = files.get(c.file) ?? [];
    list.push(c);
    files.set(c.file, list);
  }
  const count = (list: readonly CheckOutcome[]) => ({
    tests: list.length,
    failures: list.filter((c) => c.state === 'failed').length,
    errors: list.filter((c) => c.state === 'error').length,
    skipped: list.filter((c) => c.state === 'not-run' || c.state === 'inconclusive').length,
    time: seconds(list.reduce((ms, c) => ms + c.durationMs, 0)),
  });
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${attrs({ name: 'paygate-conformance', ...count(checks) })}>`];
  for (const [file, list] of files) {
    out.push(`  <testsuite${attrs({ name: file, timestamp: run.startedAt, ...count(list) })}>`);
    out.push('    <properties>');
    for (const [name, value] of Object.entries(run.properties)) out.push(`      <property${attrs({ name, value })}/>`);
    out.push('    </properties>');
    for (const c of list) out.push(testcase(c));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
