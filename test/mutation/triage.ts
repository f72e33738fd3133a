/**
 * The triage of surviving mutants (test/mutation/survivors.yaml), keyed like ./mutants.ts (file,
 * mutator, original, replacement, context), never by Stryker's ids or line numbers:
 *
 * - `equivalent`: a fair suite must not kill it: it behaves as the original everywhere, or changes
 *   only what the contract leaves open (`reason` says which);
 * - `unobservable`: it changes behaviour the contract does not show (`reason`: through what);
 * - `open`: observable through the contract, and no check catches it yet (`relation`: the relation
 *   that would: idempotency fingerprint, echo, events vs resources, isolation, statuses/enums,
 *   states, domain oracles);
 * - `closed`: a check now catches it (`relation`: which). A closed entry whose mutant survives
 *   again is reported as a regression.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { MutantKey } from './mutants.js';
import { keyString } from './mutants.js';

export const TRIAGE_FILE = fileURLToPath(new URL('./survivors.yaml', import.meta.url));
export const TRIAGE_STATUSES = ['equivalent', 'unobservable', 'open', 'closed'] as const;
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];
export const RELATIONS = ['idempotency fingerprint', 'echo', 'events vs resources', 'isolation', 'statuses/enums', 'states', 'domain oracles'] as const;

export interface TriageEntry extends MutantKey {
  status: TriageStatus;
  /** why equivalent / unobservable; what it changes for open / closed */
  reason: string;
  /** open / closed: the relation (or check) that would catch / catches it */
  relation?: string;
}

function text(raw: Record<string, unknown>, field: string, at: string): string {
  const v = raw[field];
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${at}: "${field}" must be a non-empty string`);
  return v;
}

/** Validates the parsed YAML (a list of entries); throws naming the entry. */
export function parseTriage(doc: unknown, source = 'survivors.yaml'): TriageEntry[] {
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new Error(`${source}: expected a list of entries`);
  const seen = new Set<string>();
  return doc.map((raw: unknown, i) => {
    const at = `${source} entry ${i + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${at}: expected a mapping`);
    const r = raw as Record<string, unknown>;
    const status = text(r, 'status', at);
    if (!(TRIAGE_STATUSES as readonly string[]).includes(status)) throw new Error(`${at}: status "${status}" is not one of ${TRIAGE_STATUSES.join(', ')}`);
    const entry: TriageEntry = {
      file: text(r, 'file', at),
      mutator: text(r, 'mutator', at),
      original: text(r, 'original', at),
      replacement: typeof r['replacement'] === 'string' ? r['replacement'] : text(r, 'replacement', at),
      context: text(r, 'context', at),
      status: status as TriageStatus,
      reason: text(r, 'reason', at),
    };
    if (status === 'open' || status === 'closed') entry.relation = text(r, 'relation', at);
    else if (typeof r['relation'] === 'string') entry.relation = r['relation'];
    const key = keyString(entry);
    if (seen.has(key)) throw new Error(`${at}: the same mutant is triaged twice (${entry.file} ${entry.mutator} ${entry.context})`);
    seen.add(key);
    return entry;
  });
}

export function readTriage(file = TRIAGE_FILE): TriageEntry[] {
  let textContent: string;
  try {
    textContent = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseTriage(parse(textContent) as unknown, file);
}

/** key → entry. */
export function triageIndex(entries: readonly TriageEntry[]): Map<string, TriageEntry> {
  return new Map(entries.map((e) => [keyString(e), e]));
}

const HEADER = `# Triage of the mutants that survived \`npm run mutation\` (README.md, "Mutation testing").
# Keyed by file, mutator, original and replacement text and a context hash (never Stryker's ids
# or line numbers), so an entry holds across runs and samples. status: equivalent | unobservable
# (reason: through what the contract cannot see it) | open (observable; relation: what would catch
# it) | closed (relation: the check that now catches it).
`;

/**
 * Adds `open` placeholders for survivors not triaged yet (reason "not triaged yet") and writes the
 * file sorted by file and context; existing entries are kept as they are.
 */
export function writeTriage(entries: readonly TriageEntry[], file = TRIAGE_FILE): void {
  const sorted = [...entries].sort((a, b) => a.file.localeCompare(b.file) || a.mutator.localeCompare(b.mutator) || a.context.localeCompare(b.context));
  const plain = sorted.map((e) => ({ file: e.file, mutator: e.mutator, original: e.original, replacement: e.replacement, context: e.context, status: e.status, ...(e.relation !== undefined && { relation: e.relation }), reason: e.reason }));
  writeFileSync(file, `${HEADER}\n${stringify(plain, { lineWidth: 0 })}`);
}
