/** Small readers of JSON bodies and statuses, shared by rules, suites and fuzzer commands. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `json.data` when it is an object (the gateway's response envelope). */
export function dataOf(json: unknown): Record<string, unknown> | undefined {
  return isRecord(json) && isRecord(json.data) ? json.data : undefined;
}

export function is2xx(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** A JSON body's parse; undefined when empty or not JSON. */
export function parseJsonText(text: string): unknown {
  // empty or blank: JSON.parse throws too (no copy of the body to trim it)
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
