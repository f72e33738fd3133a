/**
 * How the Allure report groups failed and broken checks. One definition, two formats:
 * allure2-style `categories.json` (written into allure-results by allure-vitest and by
 * build-html.ts) and Allure 3's config `categories.rules` (build-html.ts writes it as JavaScript so
 * the regexes keep their flags). First match wins.
 */

export interface CategoryDefinition {
  id: string;
  name: string;
  statuses: ('failed' | 'broken')[];
  /** matched against the error message */
  message?: RegExp;
  /** matched against the stack trace */
  trace?: RegExp;
}

export const CATEGORIES: readonly CategoryDefinition[] = [
  // a broken harness never reads as non-conformance: HarnessError is checked first
  { id: 'harness-error', name: 'Harness error (the suite broke, not the target)', statuses: ['failed', 'broken'], trace: /(^|\n)\s*HarnessError\b/ },
  { id: 'timeout', name: 'Timeout', statuses: ['failed', 'broken'], message: /timed? ?out|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/i },
  { id: 'target-5xx', name: 'Target error (HTTP 5xx)', statuses: ['failed', 'broken'], message: /\b(HTTP|status)\b[^\n]{0,40}\b5\d\d\b/i },
  { id: 'contract-violation', name: 'Contract violation', statuses: ['failed'] },
  { id: 'test-defect', name: 'Broken check (unexpected error)', statuses: ['broken'] },
];

/** allure2 `categories.json` entries (Java regex: flags inline, whole-string match). */
export function allure2Categories(): { name: string; matchedStatuses: string[]; messageRegex?: string; traceRegex?: string }[] {
  const java = (re: RegExp): string => `(?s${re.flags.includes('i') ? 'i' : ''}).*(${re.source}).*`;
  return CATEGORIES.map((c) => ({
    name: c.name,
    matchedStatuses: c.statuses,
    ...(c.message !== undefined && { messageRegex: java(c.message) }),
    ...(c.trace !== undefined && { traceRegex: java(c.trace) }),
  }));
}

/** Allure 3 `categories.rules` as JavaScript source (RegExp literals keep their flags). */
export function allure3CategoryRulesSource(): string {
  const rules = CATEGORIES.map((c) => {
    const parts = [`statuses: ${JSON.stringify(c.statuses)}`];
    if (c.message !== undefined) parts.push(`message: ${String(c.message)}`);
    if (c.trace !== undefined) parts.push(`trace: ${String(c.trace)}`);
    return `{ id: ${JSON.stringify(c.id)}, name: ${JSON.stringify(c.name)}, matchers: { ${parts.join(', ')} } }`;
  });
  return `[\n    ${rules.join(',\n    ')}\n  ]`;
}

/** The category a failed/broken result falls in (used by tests, mirrors Allure's first-match rule). */
export function categorize(status: 'failed' | 'broken', message: string, trace = ''): CategoryDefinition | undefined {
  return CATEGORIES.find(
    (c) =>
      c.statuses.includes(status) &&
      (c.message === undefined || c.message.test(message)) &&
      (c.trace === undefined || c.trace.test(trace)),
  );
}
