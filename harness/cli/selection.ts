/**
 * Which checks a run registers: `--check` / `--exclude-check` (ids or globs; a check's exact
 * title also selects it), `--requirement` (IDs or globs), `--area`, `--severity`, `--grep` (text in
 * a title or id), within the APIs the run tests. Kinds combine with AND, values of one kind with
 * OR. A value that matches nothing is a usage error naming the nearest id, so a typo never turns
 * into a run of nothing (or of everything).
 *
 * The run hands the ids to the workers (PAYGATE_SELECT; harness/run/check-catalogue.ts) and only
 * the files that hold them to vitest, and records the selection in conformance.json.
 */
import type { ApiSelection, SelectionOptions } from './args.js';
import { hasSelection } from './args.js';
import type { CheckEntry } from './manifest.js';
import { UsageError, nearest } from './parse.js';

/** What a partial run records (conformance.json `selection`). */
export interface SelectionRecord {
  partial: true;
  /** the selection as given (flags or configuration) */
  given: SelectionOptions;
  /** the ids selected */
  checks: string[];
  /** how many checks the run's scope (its APIs) holds */
  of: number;
}

export interface Selection {
  ids: string[];
  /** the suite files (manifest names) holding them */
  files: string[];
  record: SelectionRecord;
}

/** `partner.charges.*` → a regex; `*` any run of characters, `?` one. */
export function globRegExp(glob: string, flags = ''): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, flags);
}

const isGlob = (text: string): boolean => /[*?]/.test(text);

/** The checks in the run's scope: the receiver's in a receiver run, else the tested APIs'. */
export function inScope(checks: readonly CheckEntry[], api: ApiSelection, receiver: boolean): CheckEntry[] {
  return checks.filter((c) => (receiver ? c.target === 'receiver' : c.target !== 'receiver' && (api === 'both' || c.api === api)));
}

function matchingChecks(pattern: string, checks: readonly CheckEntry[]): CheckEntry[] {
  const regex = globRegExp(pattern);
  return checks.filter((c) => regex.test(c.id) || c.title === pattern);
}

function noMatch(flag: string, value: string, candidates: readonly string[], scopeNote: string): UsageError {
  const suggestion = isGlob(value) ? undefined : nearest(value, candidates);
  return new UsageError(`${flag} ${value} matches no ${flag === '--requirement' ? 'requirement a check decides' : flag === '--area' ? 'area' : 'check'}${scopeNote}${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ''}; \`list\` shows them`);
}

/**
 * The selected checks, or undefined when nothing selects (every check runs). Throws UsageError for
 * a value that matches nothing, and when the selection as a whole is empty.
 */
export function selectChecks(all: readonly CheckEntry[], options: SelectionOptions & { api: ApiSelection; receiver?: unknown }): Selection | undefined {
  if (!hasSelection(options)) return undefined;
  const scope = inScope(all, options.api, options.receiver !== undefined);
  const scopeNote = options.receiver !== undefined ? ' of the receiver run' : options.api !== 'both' ? ` of the ${options.api} API` : '';
  const ids = all.map((c) => c.id);
  let selected = [...scope];
  /** the ids matched by a flag's ids/globs/titles; each value must match something */
  const matched = (flag: string, patterns: readonly string[]): Set<string> => {
    const chosen = new Set<string>();
    for (const pattern of patterns) {
      const found = matchingChecks(pattern, scope);
      if (found.length === 0) throw noMatch(flag, pattern, ids, scopeNote);
      for (const c of found) chosen.add(c.id);
    }
    return chosen;
  };
  if (options.check !== undefined) {
    const chosen = matched('--check', options.check);
    selected = selected.filter((c) => chosen.has(c.id));
  }
  if (options.requirement !== undefined) {
    const chosen = new Set<string>();
    const known = [...new Set(scope.flatMap((c) => c.requirements))];
    for (const pattern of options.requirement) {
      const regex = globRegExp(pattern, 'i');
      const found = scope.filter((c) => c.requirements.some((id) => regex.test(id)));
      if (found.length === 0) throw noMatch('--requirement', pattern, known, scopeNote);
      for (const c of found) chosen.add(c.id);
    }
    selected = selected.filter((c) => chosen.has(c.id));
  }
  if (options.area !== undefined) {
    const areas = [...new Set(scope.map((c) => c.area))];
    const wanted = options.area.map((a) => {
      const area = areas.find((x) => x.toLowerCase() === a.toLowerCase());
      if (area === undefined) throw noMatch('--area', a, areas, scopeNote);
      return area;
    });
    selected = selected.filter((c) => wanted.includes(c.area));
  }
  if (options.severity !== undefined) {
    const wanted = options.severity;
    selected = selected.filter((c) => (wanted as readonly string[]).includes(c.severity));
  }
  if (options.grep !== undefined) {
    const text = options.grep;
    selected = selected.filter((c) => c.title.includes(text) || c.id.includes(text));
  }
  if (options.excludeCheck !== undefined) {
    const excluded = matched('--exclude-check', options.excludeCheck);
    selected = selected.filter((c) => !excluded.has(c.id));
  }
  if (selected.length === 0) throw new UsageError(`the selection matches no check${scopeNote} (each value matches some, but not together); \`list\` with the same flags shows what it selects`);
  const given: SelectionOptions = {};
  for (const key of ['check', 'excludeCheck', 'requirement', 'area', 'severity', 'grep'] as const) {
    if (options[key] !== undefined) Object.assign(given, { [key]: options[key] });
  }
  return {
    ids: selected.map((c) => c.id),
    files: [...new Set(selected.map((c) => c.file ?? ''))].filter((f) => f !== '').sort(),
    record: { partial: true, given, checks: selected.map((c) => c.id).sort(), of: scope.length },
  };
}
