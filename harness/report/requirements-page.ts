/**
 * The requirements inside the single-file Allure report (which opens from file://, offline, so it
 * cannot link out to conformance.md): every check's description quotes the contract's words for
 * the requirements it decides, and one page, "Requirements catalogue", lists every requirement
 * (ID, section, kind, quote, ambiguity, and this run's verdict and evaluation count when
 * conformance.json is there). The page is an Allure result of status `unknown` under the epic
 * `requirements` (not a check: the quality gate and the check counts leave it out); each
 * requirement link of a check points at it (`#<result id>`, Allure's route to a result).
 */
import { createHash } from 'node:crypto';
import { findRequirement } from '../contract/requirements.js';
import type { Requirement } from '../contract/requirements.js';

/** The page's Allure result uuid; Allure names a result by the MD5 of its uuid. */
export const REQUIREMENTS_PAGE_UUID = 'paygate-requirements-catalogue';
export const REQUIREMENTS_EPIC = 'requirements';

/** The page's route inside the single-file report. */
export function requirementsPageHref(): string {
  return `#${createHash('md5').update(REQUIREMENTS_PAGE_UUID).digest('hex')}`;
}

/** Where a check's requirement link points: the catalogue page inside the report. */
export function requirementLink(_id: string): string {
  return requirementsPageHref();
}

function md(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function lookup(id: string): Requirement | undefined {
  try {
    return findRequirement(id);
  } catch {
    return undefined; // a broken catalogue must not break a report
  }
}

/** A check's description: why it did not run or could not be judged, then the contract's words it decides. */
export function checkDescription(requirements: readonly string[], status: { notRun?: string; inconclusive?: string } = {}): string {
  const out: string[] = [];
  if (status.notRun !== undefined) out.push(`**Not run:** ${md(status.notRun)}`, '');
  if (status.inconclusive !== undefined) out.push(`**Inconclusive:** ${md(status.inconclusive)}`, '');
  if (requirements.length > 0) {
    out.push('**Requirements** (the contract\'s words):', '');
    for (const id of requirements) {
      const r = lookup(id);
      out.push(r === undefined ? `- **${id}** (not in the requirement catalogue)` : `- **${r.id}** — ${md(r.section)}: “${md(r.quote)}”${r.ambiguity !== undefined ? ` _(ambiguous: ${md(r.ambiguity)})_` : ''}`);
    }
    out.push('', `[All requirements](${requirementsPageHref()})`);
  }
  return out.join('\n');
}

/** This run's verdict of a requirement, from conformance.json. */
export interface PageVerdict {
  id: string;
  verdict: string;
  evaluations: number;
}

/** The catalogue page as an Allure result (JSON for allure-results). */
export function requirementsPageResult(catalogue: readonly Requirement[], verdicts: readonly PageVerdict[] = [], at = Date.now()): Record<string, unknown> {
  const byId = new Map(verdicts.map((v) => [v.id, v]));
  const lines = [
    'Every normative statement of the two contract documents, with its ID (specs/requirements.yaml). A check\'s requirement links open this page.',
    '',
    '| requirement | API | section | kind | the contract\'s words | verdict (evaluations) |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of catalogue) {
    const v = byId.get(r.id);
    const words = `“${md(r.quote)}”${r.ambiguity !== undefined ? ` _(ambiguous: ${md(r.ambiguity)})_` : ''}`;
    lines.push(`| **${r.id}** | ${r.api} | ${md(r.section)} | ${r.kind} | ${words} | ${v !== undefined ? `${v.verdict} (${v.evaluations})` : ''} |`);
  }
  return {
    uuid: REQUIREMENTS_PAGE_UUID,
    historyId: REQUIREMENTS_PAGE_UUID,
    testCaseId: REQUIREMENTS_PAGE_UUID,
    name: 'Requirements catalogue',
    fullName: 'specs/requirements.yaml#catalogue',
    status: 'unknown',
    stage: 'finished',
    start: at,
    stop: at,
    description: lines.join('\n'),
    labels: [
      { name: 'epic', value: REQUIREMENTS_EPIC },
      { name: 'feature', value: 'catalogue' },
      { name: 'tag', value: 'not-a-check' },
    ],
    links: [],
    parameters: [],
    steps: [],
    attachments: [],
  };
}
