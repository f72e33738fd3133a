/**
 * What the mutation test mutates (reference/ of the two APIs and their shared code) and which API
 * run can see each file's mutants. Left out, with the reason:
 * - the fault catalogue and its definitions (a fault is a deliberate deviation, switched off in the
 *   correct reference; the fault matrix measures each one);
 * - decisions-table.ts (rewrites DECISIONS.md; no part of the running reference);
 * - shared/chaos.ts (transport noise, off unless REFERENCE_CHAOS; test/chaos.test.ts runs it);
 * - the reference receiver (its own suite, suites/receiver/, and faults of its own).
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The API run whose quick profile can kill a mutant of the file: its own, or both for shared code. */
export type MutationApi = 'gateway' | 'partner' | 'both';

const EXCLUDED: readonly RegExp[] = [
  /^reference\/(faults|fault-spec|decisions-table)\.ts$/,
  /^reference\/(gateway|partner)\/faults[^/]*\.ts$/,
  /^reference\/partner\/brcode-faults\.ts$/,
  /^reference\/shared\/chaos\.ts$/,
  /^reference\/receiver\//,
];

/** True when the repo-relative path is mutated. */
export function inScope(file: string): boolean {
  return /^reference\/.*\.ts$/.test(file) && !file.endsWith('.d.ts') && !EXCLUDED.some((re) => re.test(file));
}

/** gateway/ → gateway, partner/ → partner, anything else (server, personality, shared) → both. */
export function apiOf(file: string): MutationApi {
  if (file.startsWith('reference/gateway/')) return 'gateway';
  if (file.startsWith('reference/partner/')) return 'partner';
  return 'both';
}

/** The repo-relative paths in scope, sorted. */
export function scopeFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(join(root, 'reference'));
  return out.filter(inScope).sort();
}
