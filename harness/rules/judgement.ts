/**
 * How a judge words what it saw: `show` (a bounded one-line rendering of an observed value) and
 * `kindOf` (its JSON kind), for the `actual` texts of findings. Findings themselves are made only by
 * declared rules (harness/rules/rule.ts), with the code and severity the rule declares.
 */

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
