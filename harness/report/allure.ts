/**
 * Allure annotations for one check, through allure-js-commons (a no-op outside allure-vitest).
 *
 * Layout in the report: epic = API, feature = functional area, story = each requirement ID,
 * severity, a `requirement` link per ID to its anchor in reports/conformance.md, parameters (seed,
 * sizes…), and one step per HTTP exchange with the request, the response and a curl line as
 * attachments. Exchanges are already redacted by harness/http/client.ts.
 */
import * as allure from 'allure-js-commons';
import type { Exchange } from '../core/exchange.js';
import type { CheckMeta, FindingSummary, TaskHolder } from './meta.js';
import { setCheckMeta } from './meta.js';

/** Where the report links a requirement: its anchor in conformance.md, from the Allure report dir. */
export function requirementLink(id: string): string {
  return `../conformance.md#${id}`;
}

export interface AnnotateOptions {
  /** extra parameters shown on the test (seed, sizes, generator settings) */
  parameters?: Record<string, string | number | boolean | undefined>;
  /** markdown description */
  description?: string;
}

/** Labels, links and parameters of a check. Call it at the start of the check (labels do not depend on findings). */
export async function annotateCheck(
  meta: Pick<CheckMeta, 'checkId' | 'api' | 'area' | 'requirements' | 'severity'>,
  options: AnnotateOptions = {},
): Promise<void> {
  await allure.epic(meta.api);
  await allure.feature(meta.area);
  for (const id of meta.requirements) {
    await allure.story(id);
    await allure.link(requirementLink(id), id, 'requirement');
  }
  await allure.severity(meta.severity);
  await allure.label('checkId', meta.checkId);
  // a stable identity across runs, whatever the test name (fast-check names change with the seed)
  await allure.testCaseId(meta.checkId);
  await allure.historyId(meta.checkId);
  const seed = process.env['PAYGATE_SEED'];
  if (seed !== undefined && options.parameters?.['seed'] === undefined) await allure.parameter('seed', seed);
  for (const [name, value] of Object.entries(options.parameters ?? {})) {
    if (value !== undefined) await allure.parameter(name, String(value));
  }
  if (options.description !== undefined) await allure.description(options.description);
}

/** The text of a recorded request, as a person would read it. */
export function formatRequest(exchange: Exchange): string {
  const lines = [`${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) lines.push(`${name}: ${value}`);
  if (exchange.request.body !== undefined) lines.push('', exchange.request.body);
  return lines.join('\n');
}

/** The text of a recorded response (or the network error). */
export function formatResponse(exchange: Exchange): string {
  if (exchange.response === undefined) return `(no response) ${exchange.error ?? ''}`.trim();
  const lines = [`HTTP ${exchange.response.status}`];
  for (const [name, value] of Object.entries(exchange.response.headers)) lines.push(`${name}: ${value}`);
  lines.push('', exchange.response.body);
  return lines.join('\n');
}

/** The step title of an exchange: `#3 POST /api/v1/pix/in/qrcode → 201 (42 ms)`. */
export function exchangeTitle(exchange: Exchange): string {
  const outcome = exchange.response !== undefined ? String(exchange.response.status) : `error: ${exchange.error ?? 'no response'}`;
  let path = exchange.request.url;
  try {
    const url = new URL(exchange.request.url);
    path = `${url.pathname}${url.search}`;
  } catch {
    // keep the raw text
  }
  return `#${exchange.seq} ${exchange.request.method} ${path} → ${outcome} (${Math.round(exchange.durationMs)} ms)`;
}

/**
 * An exchange as one text: the curl line that replays it, the request, and the response with a JSON
 * body pretty-printed.
 */
export function formatExchange(exchange: Exchange): string {
  const response =
    exchange.response?.json !== undefined
      ? formatResponse({ ...exchange, response: { ...exchange.response, body: JSON.stringify(exchange.response.json, null, 2) } })
      : formatResponse(exchange);
  return [`$ ${exchange.curl}`, '', formatRequest(exchange), '', response].join('\n');
}

/**
 * One Allure step per exchange with ONE attachment (curl, request, response): a quick run attaches
 * about 1 500 exchanges, and the reporter writes each attachment as a file in the process that also
 * serves the lanes and the webhook receiver (four files per exchange cost seconds at 100 ms).
 */
export async function attachExchange(exchange: Exchange): Promise<void> {
  await allure.step(exchangeTitle(exchange), async () => {
    await allure.attachment('exchange', formatExchange(exchange), 'text/plain');
  });
}

/** Attaches every exchange, in sequence order. */
export async function attachExchanges(exchanges: readonly Exchange[]): Promise<void> {
  for (const exchange of [...exchanges].sort((a, b) => a.seq - b.seq)) await attachExchange(exchange);
}

/** A plain-text attachment (webhook deliveries, model traces, formatted findings). */
export async function attachText(name: string, text: string): Promise<void> {
  await allure.attachment(name, text, 'text/plain');
}

/** A finding as plain text (title, expected/received, requirements, curl). */
export function formatFindingSummary(finding: FindingSummary, kind: 'failure' | 'warning'): string {
  const lines = [
    `${kind === 'warning' ? 'WARNING' : 'FAILURE'} ${finding.code}: ${finding.title}`,
    `  requirements: ${finding.requirements.join(', ')}`,
    `  expected: ${finding.expected}`,
    `  received: ${finding.actual}`,
  ];
  if (finding.pointer !== undefined) lines.push(`  at: ${finding.pointer}`);
  if (finding.curl.length > 0) lines.push('  reproduce with:', ...finding.curl.map((c) => `    ${c}`));
  return lines.join('\n');
}

/**
 * Ends a check's reporting: stores the meta for the verdict reporter and makes warnings visible
 * wherever failures are. A passing test with warnings gets, in Allure, a `warning` tag, one broken
 * step per warning and a `findings` attachment; in JUnit, the warnings on stderr (system-err).
 * Failures need nothing more: the failing test's error already carries them.
 */
export async function finishCheckReport(meta: CheckMeta, holder?: TaskHolder): Promise<void> {
  setCheckMeta(meta, holder);
  if (meta.notRun !== undefined) await allure.description(`Not run: ${meta.notRun}`);
  if (meta.warnings.length > 0) {
    await allure.tag('warning');
    for (const warning of meta.warnings) await allure.logStep(`warning ${warning.code}: ${warning.title}`, allure.Status.BROKEN);
    console.warn(meta.warnings.map((w) => formatFindingSummary(w, 'warning')).join('\n\n'));
  }
  const findings = [
    ...meta.failures.map((f) => formatFindingSummary(f, 'failure')),
    ...meta.warnings.map((w) => formatFindingSummary(w, 'warning')),
  ];
  if (findings.length > 0) await allure.attachment('findings', findings.join('\n\n'), 'text/plain');
  if (meta.replay !== undefined) await allure.parameter('replay', meta.replay);
}
