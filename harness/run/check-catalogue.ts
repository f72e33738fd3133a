/**
 * What `list` and selection know of a check without running it (its static spec), and which
 * checks a run registers.
 *
 * - Collection: with PAYGATE_COLLECT=1, `check()` records its spec here instead of registering a
 *   test; harness/cli/collect.ts imports every suite file that way and writes the manifest.
 * - Selection: PAYGATE_SELECT (a JSON array of check ids, set by the CLI from --check,
 *   --requirement, --area, …) registers only those checks; unset, every check is registered.
 */

/** A check's static description (harness/cli/manifest.ts writes a list of these). */
export interface CheckEntry {
  id: string;
  title: string;
  api: 'gateway' | 'partner';
  area: string;
  requirements: string[];
  severity: 'blocker' | 'critical' | 'normal' | 'minor';
  /** quick: every profile; timer: full and certify; certify: certify only */
  tier: 'quick' | 'timer' | 'certify';
  /** optional capabilities it needs (a missing one makes it "not run") */
  needs: string[];
  /** `receiver`: it tests the integrator's webhook endpoint (a receiver run) */
  target?: 'receiver';
  /** the suite file, relative to the package root (set by the collector) */
  file?: string;
}

const collected: CheckEntry[] = [];

export function collecting(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['PAYGATE_COLLECT'] === '1';
}

export function collectCheck(entry: CheckEntry): void {
  collected.push(entry);
}

/** The entries recorded since the last call (the collector takes them file by file). */
export function takeCollected(): CheckEntry[] {
  return collected.splice(0, collected.length);
}

let selection: { text: string | undefined; ids: ReadonlySet<string> | undefined } | undefined;

/** Whether this run registers the check (PAYGATE_SELECT unset: every check). */
export function isSelected(id: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const text = env['PAYGATE_SELECT'];
  if (selection === undefined || selection.text !== text) {
    selection = { text, ids: text === undefined || text === '' ? undefined : new Set(JSON.parse(text) as string[]) };
  }
  return selection.ids === undefined || selection.ids.has(id);
}
