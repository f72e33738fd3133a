/**
 * The mutants of the scope (./scope.ts), their stable keys, and the seeded sample.
 *
 * Stryker numbers mutants in instrumentation order, so its ids change whenever code is added. The
 * key of a mutant here is what it IS: file, mutator, the original text, the replacement, and a
 * context hash (the text of the lines it spans), with an occurrence index when a file holds the
 * same mutant twice. Line numbers are reported, never keyed. The sample orders the mutants by a
 * hash of (seed, key) and takes the first N: the same seed picks the same mutants, and a change
 * elsewhere in the code does not reshuffle the rest of the sample.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from '@stryker-mutator/api/core';
import type { Ignorer } from '@stryker-mutator/api/ignore';
import type { Logger } from '@stryker-mutator/api/logging';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import type { MutationApi } from './scope.js';
import { apiOf } from './scope.js';

/** Stryker's internal position: 0-based line, 0-based column. */
export interface Position {
  line: number;
  column: number;
}

/** What a mutant is, independent of Stryker's run-specific id. */
export interface MutantKey {
  /** repo-relative, forward slashes */
  file: string;
  mutator: string;
  /** the mutated source text, whitespace collapsed, cut at {@link TEXT_MAX} characters */
  original: string;
  /** the replacement code, likewise */
  replacement: string;
  /** 12 hex characters: the lines the mutant spans and its full original text (+ `#n` for the n-th twin in the file) */
  context: string;
}

export interface SampledMutant extends MutantKey {
  api: MutationApi;
  /** 1-based, for the report only */
  line: number;
  /** Stryker's identity of the mutant in this code (file, mutator, replacement, location) */
  identity: string;
  /** a unified-style diff of the lines it changes */
  diff: string;
}

export const TEXT_MAX = 120;
/** Mutator options of both the enumeration and the Stryker run: they must be equal, or the identities differ. */
export const MUTATOR_OPTIONS = { plugins: null, excludedMutations: [] as string[] };

export function collapse(text: string, max = TEXT_MAX): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** How Stryker's mutant (in the enumeration, the checker and the results) is matched: no id. */
export function mutantIdentity(file: string, mutator: string, replacement: string, start: Position, end: Position): string {
  return `${file}|${mutator}|${replacement}|${start.line}:${start.column}-${end.line}:${end.column}`;
}

/** The source text between two internal positions. */
export function sliceSource(lines: readonly string[], start: Position, end: Position): string {
  if (start.line === end.line) return (lines[start.line] ?? '').slice(start.column, end.column);
  const middle = lines.slice(start.line + 1, end.line);
  return [(lines[start.line] ?? '').slice(start.column), ...middle, (lines[end.line] ?? '').slice(0, end.column)].join('\n');
}

/** `- old line(s)` / `+ new line(s)`, at most `maxLines` of each (long blocks are cut with `…`). */
export function mutantDiff(lines: readonly string[], start: Position, end: Position, replacement: string, maxLines = 6): string {
  const first = lines[start.line] ?? '';
  const last = lines[end.line] ?? '';
  const before = lines.slice(start.line, end.line + 1);
  const after = `${first.slice(0, start.column)}${replacement}${last.slice(end.column)}`.split('\n');
  const cut = (xs: readonly string[], sign: string): string[] => {
    const shown = xs.length > maxLines ? [...xs.slice(0, maxLines - 1), `${' '.repeat(Math.max(0, (xs[0] ?? '').search(/\S/)))}…`] : xs;
    return shown.map((l) => `${sign} ${l}`);
  };
  return [...cut(before, '-'), ...cut(after, '+')].join('\n');
}

/**
 * Keys of a file's mutants, in order. The context covers the lines the mutant spans (trimmed) and its
 * whole original text, so it survives code moving up or down and tells apart the same change made
 * on different lines; twins (same key) get `#2`, `#3`… in file order.
 */
export function keysOf(file: string, source: string, mutants: readonly Pick<Mutant, 'mutatorName' | 'replacement' | 'location'>[]): MutantKey[] {
  const lines = source.split('\n');
  const seen = new Map<string, number>();
  return mutants.map((m) => {
    const { start, end } = m.location;
    const original = sliceSource(lines, start, end);
    const spanned = lines.slice(start.line, end.line + 1).map((l) => l.trim()).join('\n');
    const base = sha(`${spanned}\n\u0000${original}`).slice(0, 12);
    const partial = `${file}|${m.mutatorName}|${original}|${m.replacement}|${base}`;
    const n = (seen.get(partial) ?? 0) + 1;
    seen.set(partial, n);
    return { file, mutator: m.mutatorName, original: collapse(original), replacement: collapse(m.replacement), context: n === 1 ? base : `${base}#${n}` };
  });
}

/** The string a key is known by (triage matching, sample order). */
export function keyString(k: MutantKey): string {
  return `${k.file}|${k.mutator}|${k.original}|${k.replacement}|${k.context}`;
}

/** The first `n` mutants in the order of sha256(seed, key): deterministic, and stable under edits elsewhere. */
export function sampleMutants<T extends MutantKey>(all: readonly T[], n: number, seed: number): T[] {
  const ranked = all.map((m) => ({ m, rank: sha(`${seed}\u0000${keyString(m)}`) }));
  ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  return ranked.slice(0, Math.max(0, n)).map((r) => r.m);
}

const quiet: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (...args: unknown[]) => console.error(...args),
  fatal: (...args: unknown[]) => console.error(...args),
};

/**
 * Every mutant Stryker would make of the files (same instrumenter, same options, same ignorer),
 * keyed, minus the ignored ones (fault code). `ignored` counts those.
 */
export async function enumerateMutants(root: string, files: readonly string[], ignorer: Ignorer): Promise<{ mutants: SampledMutant[]; ignored: number }> {
  const sources = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')] as const));
  const result = await new Instrumenter(quiet).instrument(
    files.map((f) => ({ name: join(root, f), content: sources.get(f) ?? '', mutate: true })),
    { ...MUTATOR_OPTIONS, ignorers: [ignorer] },
  );
  const byFile = new Map<string, Mutant[]>();
  for (const m of result.mutants) {
    const file = files.find((f) => join(root, f) === m.fileName);
    if (file === undefined) throw new Error(`mutant of an unknown file ${m.fileName}`);
    byFile.set(file, [...(byFile.get(file) ?? []), m]);
  }
  const mutants: SampledMutant[] = [];
  let ignored = 0;
  for (const [file, list] of byFile) {
    const source = sources.get(file) ?? '';
    const lines = source.split('\n');
    const keys = keysOf(file, source, list);
    list.forEach((m, i) => {
      if (m.status === 'Ignored') {
        ignored += 1;
        return;
      }
      const { start, end } = m.location;
      mutants.push({
        ...keys[i]!,
        api: apiOf(file),
        line: start.line + 1,
        identity: mutantIdentity(file, m.mutatorName, m.replacement, start, end),
        diff: mutantDiff(lines, start, end, m.replacement),
      });
    });
  }
  return { mutants, ignored };
}
