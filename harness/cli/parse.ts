/**
 * Every subcommand's flags go through `node:util` `parseArgs` (strict): `--flag value` and
 * `--flag=value`, repeatable flags collected in order. What this adds is the wording users see:
 * an unknown flag is named with the nearest known one, a flag given twice is refused, a missing
 * value says which flag wanted it. Loads nothing but node:util (every `--help` stays instant).
 */
import { parseArgs } from 'node:util';

/** A bad command line or configuration: the CLI prints the message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OptionSpec {
  /** the long name, without `--` */
  name: string;
  short?: string;
  /** the value's placeholder in --help (`N`, `FILE`); absent: a boolean flag */
  value?: string;
  /** may be given more than once (values in order; comma-separated lists are the caller's to split) */
  multiple?: boolean;
  help: string;
  /** the --help section */
  group?: string;
}

export type RawValues = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: RawValues;
  positionals: string[];
  /** the flags given on the command line (names without --), in order */
  given: string[];
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The candidate closest to `word` when it is close enough to be a likely typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    // a prefix or a contained word counts as close (`--request` → `--requirement`, `--time` → `--request-timeout`)
    const distance = candidate.startsWith(word) || word.startsWith(candidate) ? Math.min(2, editDistance(word, candidate)) : editDistance(word, candidate);
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(2, Math.floor(word.length / 3)) ? best.candidate : undefined;
}

function didYouMean(flag: string, specs: readonly OptionSpec[]): string {
  const suggestion = nearest(flag.replace(/^-+/, ''), specs.map((s) => s.name));
  return suggestion !== undefined ? ` (did you mean --${suggestion}?)` : '';
}

/**
 * Parses `argv` against `specs`. Throws UsageError naming the flag at fault. A lone `--` (npm
 * passes one through `npm run x -- …` sometimes) is ignored.
 */
export function parseFlags(argv: readonly string[], specs: readonly OptionSpec[], options: { positionals?: boolean } = {}): Parsed {
  const args = argv.filter((a) => a !== '--');
  const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const s of specs) config[s.name] = { type: s.value === undefined ? 'boolean' : 'string', ...(s.short !== undefined && { short: s.short }), ...(s.multiple === true && { multiple: true }) };
  let result: ReturnType<typeof parseArgs>;
  try {
    result = parseArgs({ args, options: config, strict: true, allowPositionals: options.positionals === true, tokens: true });
  } catch (error) {
    throw new UsageError(`${usageMessage(error, args, specs)}`);
  }
  const given: string[] = [];
  for (const token of result.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const spec = specs.find((s) => s.name === token.name);
    if (given.includes(token.name) && spec?.multiple !== true) throw new UsageError(`--${token.name} given twice`);
    given.push(token.name);
    if (spec?.value !== undefined && typeof token.value === 'string' && token.value.trim() === '') throw new UsageError(`--${token.name} needs a non-empty value`);
  }
  return { values: result.values as RawValues, positionals: result.positionals, given };
}

function usageMessage(error: unknown, args: readonly string[], specs: readonly OptionSpec[]): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    // parseArgs reports `--name` without its `=value`
    return `unknown flag ${flag}${didYouMean(flag, specs)}; see --help`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
    if (/does not take an argument/.test(message)) return `${flag} takes no value`;
    const index = args.findIndex((a) => a === flag || a === `-${flag.replace(/^-+/, '')}`);
    const next = index >= 0 ? args[index + 1] : undefined;
    if (next !== undefined && next.startsWith('-') && !/^-\d/.test(next)) return `${flag} needs a value`;
    if (next !== undefined) return `${flag} needs a value (a value starting with "-" goes as ${flag}=${next})`;
    return `${flag} needs a value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(message)?.[1] ?? '';
    return `unexpected argument "${word}" (flags start with --; see --help)`;
  }
  return message;
}

/** Values of a repeatable list flag: `--check a --check b,c` → [a, b, c]. */
export function listValue(raw: string | boolean | string[] | undefined): string[] | undefined {
  if (raw === undefined || typeof raw === 'boolean') return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return items;
}

/**
 * The help of a list of flags: flag column as wide as the longest flag (at most `max`), the
 * text wrapped to the terminal; a flag wider than the column puts its text on the next line.
 */
export function renderOptions(specs: readonly OptionSpec[], width = terminalWidth(), max = 34, label: (s: OptionSpec) => string = flagLabel): string[] {
  const column = Math.min(max, Math.max(...specs.map((s) => label(s).length)) + 2);
  const lines: string[] = [];
  let group: string | undefined;
  for (const s of specs) {
    if (s.group !== undefined && s.group !== group) {
      group = s.group;
      lines.push('', `${group}:`);
    }
    const text = wrap(s.help, Math.max(30, width - column - 4));
    const name = label(s);
    if (name.length + 2 > column) {
      lines.push(`  ${name}`);
      for (const t of text) lines.push(`  ${' '.repeat(column)}${t}`);
    } else {
      lines.push(`  ${name.padEnd(column)}${text[0] ?? ''}`);
      for (const t of text.slice(1)) lines.push(`  ${' '.repeat(column)}${t}`);
    }
  }
  return lines;
}

function flagLabel(s: OptionSpec): string {
  return `${s.short !== undefined ? `-${s.short}, ` : ''}--${s.name}${s.value !== undefined ? ` ${s.value}` : ''}`;
}

export function terminalWidth(): number {
  const columns = process.stdout.columns;
  return typeof columns === 'number' && columns >= 60 ? Math.min(columns, 120) : 100;
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
