/**
 * Allure annotations for one check, through allure-js-commons (a no-op outside allure-vitest).
 *
 * Layout in the report: epic = API, feature = functional area, story = each requirement ID,
 * severity, a description quoting the contract's words for each requirement, a `requirement` link
 * per ID to the requirements catalogue inside the report (harness/report/requirements-page.ts),
 * parameters (seed, sizes…), and one step per HTTP exchange with the request, the response and a
 * curl line as attachments. Exchanges are already redacted by harness/http/client.ts.
 */
import * as allure from 'allure-js-commons';
import type { Exchange } from '../core/exchange.js';
import type { CheckApi, CheckOutcome, CheckSeverity, TaskHolder } from './outcome.js';
import { writeOutcome } from './outcome.js';
import { acceptedLine, renderFinding, renderSequence } from './format.js';
import { checkDescription, requirementLink } from './requirements-page.js';


export interface AnnotateOptions {
  /** extra parameters shown on the test (seed, sizes, generator settings) */
  parameters?: Record<string, string | number | boolean | undefined>;
  /** markdown description */
  description?: string;
}

/** Labels, links and parameters of a check. Call it at the start of the check (labels do not depend on findings). */
export async function annotateCheck(
  meta: { checkId: string; api: CheckApi; area: string; requirements: readonly string[]; severity: CheckSeverity },
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

/** How many exchanges a check attaches at most (a property can make hundreds). */
const MAX_ATTACHED_EXCHANGES = 40;

/** `confirmed 3/3`, `flaky 1/3`: how often a failing case failed again (`--confirm-failures`). */
export function confirmationText(c: NonNullable<CheckOutcome['confirmation']>): string {
  return `${c.label} ${c.failed}/${c.runs}`;
}

/** The check's findings (failures, then warnings) and its failing sequence, as text. */
export function outcomeFindingsText(outcome: Pick<CheckOutcome, 'failures' | 'warnings' | 'sequence' | 'replay'>): string {
  const parts = [...outcome.failures, ...outcome.warnings].map((f) => renderFinding(f));
  if (outcome.sequence !== undefined) parts.push(renderSequence(outcome.sequence));
  if (parts.length > 0 && outcome.replay !== undefined) parts.push(`Replay with: ${outcome.replay}`);
  return parts.join('\n\n');
}

/**
 * Ends a check's reporting, from its outcome as it is: stores it for the verdict reporter (which
 * writes conformance.json/md and junit.xml from it), and makes it visible in Allure. Warnings show
 * wherever failures do: a `warning` tag, one broken step per warning and the `findings`
 * attachment. A failing sequence is an attachment of its own; accepted findings are a tag and a
 * skipped step each. Failures need nothing more: the failing test's error carries them.
 */
export async function reportOutcome(outcome: CheckOutcome, holder?: TaskHolder, exchanges: readonly Exchange[] = []): Promise<void> {
  writeOutcome(outcome, holder);
  await allure.description(checkDescription(outcome.requirements, { ...(outcome.notRun !== undefined && { notRun: outcome.notRun }), ...(outcome.inconclusive !== undefined && { inconclusive: outcome.inconclusive }) }));
  if (outcome.warnings.length > 0) {
    await allure.tag('warning');
    for (const warning of outcome.warnings) await allure.logStep(`warning ${warning.code}: ${warning.title}`, allure.Status.BROKEN);
  }
  const findings = outcomeFindingsText({ failures: outcome.failures, warnings: outcome.warnings });
  if (findings !== '') await allure.attachment('findings', findings, 'text/plain');
  if (outcome.sequence !== undefined) await allure.attachment('failing sequence', renderSequence(outcome.sequence), 'text/plain');
  if (outcome.replay !== undefined) await allure.parameter('replay', outcome.replay);
  if (outcome.confirmation !== undefined) {
    await allure.tag(outcome.confirmation.label);
    await allure.parameter('confirmation', confirmationText(outcome.confirmation));
  }
  if (outcome.accepted !== undefined && outcome.accepted.length > 0) {
    await allure.tag('accepted-deviation');
    for (const a of outcome.accepted) await allure.logStep(acceptedLine(a), allure.Status.SKIPPED);
  }
  await attachExchanges(exchanges.slice(0, MAX_ATTACHED_EXCHANGES));
  if (outcome.notes !== undefined && outcome.notes.length > 0) await attachText('observations', outcome.notes.join('\n'));
}
