/**
 * Accepted deviations (`--baseline FILE`): a team whose implementation has known deviations adopts
 * the gate and fails only on new ones. Pure: parsing, matching, the run-wide status of the entries,
 * the markdown section, and writing a baseline from a run's findings.
 *
 *   # paygate-conformance baseline
 *   accepted:
 *     - check: partner.charges.create-amount-limits   # a check id, and/or
 *       requirement: PT-CHARGE-AMOUNT-MAX             # a requirement id (or `requirements: [A, B]`: all of them)
 *       code: status.unexpected                      # the finding code
 *       reason: "limit raised for account X, ticket PAY-123"
 *       expires: 2027-03-01                          # optional: from this date the entry is expired
 *
 * An entry matches a finding when the codes are equal and every id it names matches: `check` the
 * check id, `requirement` (each of `requirements`) one of the finding's requirements (the check's
 * when the finding names none). A matched finding no longer fails the check (nor warns, under --strict); it is reported
 * as accepted, with the reason. Entries that match nothing in the run (stale: the deviation is
 * fixed, or the id changed) and expired entries are reported and fail the run under --strict only,
 * so a team notices them without the gate breaking on the day a date passes.
 */
import { readFileSync } from 'node:fs';
import { schemaProblems } from '../config/schemas.js';
import { nearest } from '../cli/parse.js';
import { yaml } from '../core/yaml.js';

export interface BaselineEntry {
  check?: string;
  requirement?: string;
  /** all of them must be named by the finding (narrower than one `requirement`) */
  requirements?: string[];
  code: string;
  reason: string;
  /** YYYY-MM-DD */
  expires?: string;
}

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

/** The parts of a finding matching looks at. */
export interface MatchableFinding {
  code: string;
  requirements: readonly string[];
}

/** A finding the baseline accepted, as reports carry it. */
export interface AcceptedRef {
  /** index of the entry in the baseline file (0-based) */
  entry: number;
  severity: 'failure' | 'warning';
  reason: string;
  expires?: string;
}

export interface BaselineEntryStatus extends BaselineEntry {
  entry: number;
  /** how many findings it accepted in this run */
  matched: number;
  expired: boolean;
}

export interface BaselineStatus {
  file: string;
  entries: BaselineEntryStatus[];
  /** findings accepted in the run */
  accepted: number;
  /** entries that matched nothing */
  stale: BaselineEntryStatus[];
  expired: BaselineEntryStatus[];
  /** stale or expired entries exist: the run fails under --strict */
  problems: number;
}

export class BaselineError extends Error {
  override name = 'BaselineError';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const KEYS = new Set(['check', 'requirement', 'requirements', 'code', 'reason', 'expires']);

function dateText(value: unknown): string | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return value;
  return undefined;
}

/** Parses and validates a baseline; every problem names the file and the entry. */
export function parseBaseline(text: string, file: string): Baseline {
  let doc: unknown;
  try {
    doc = yaml().parse(text);
  } catch (error) {
    throw new BaselineError(`baseline ${file}: not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (doc === null || doc === undefined) return { file, entries: [] };
  // schemas/baseline.schema.json: every problem names its key (accepted[2].expires)
  const problems = schemaProblems('baseline', doc, { nearest });
  if (problems.length > 0) throw new BaselineError(`baseline ${file}: ${problems.join('; ')}`);
  const list: unknown = Array.isArray(doc) ? doc : typeof doc === 'object' ? (doc as { accepted?: unknown }).accepted ?? [] : undefined;
  if (!Array.isArray(list)) throw new BaselineError(`baseline ${file}: expected a list under "accepted:"`);
  const entries = list.map((raw: unknown, index): BaselineEntry => {
    const where = `baseline ${file}, entry ${index + 1}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new BaselineError(`${where}: expected a mapping`);
    const item = raw as Record<string, unknown>;
    const unknownKeys = Object.keys(item).filter((k) => !KEYS.has(k));
    if (unknownKeys.length > 0) throw new BaselineError(`${where}: unknown key(s) ${unknownKeys.join(', ')} (allowed: ${[...KEYS].join(', ')})`);
    const text = (key: string): string | undefined => {
      const value = item[key];
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'string' || value.trim() === '') throw new BaselineError(`${where}: ${key} must be a non-empty text`);
      return value.trim();
    };
    const check = text('check');
    const requirement = text('requirement');
    const code = text('code');
    const reason = text('reason');
    const list = item['requirements'];
    if (list !== undefined && list !== null && (!Array.isArray(list) || list.length === 0 || list.some((id) => typeof id !== 'string' || id.trim() === ''))) {
      throw new BaselineError(`${where}: requirements must be a non-empty list of requirement ids`);
    }
    const requirements = Array.isArray(list) ? (list as string[]).map((id) => id.trim()) : undefined;
    if (check === undefined && requirement === undefined && requirements === undefined) throw new BaselineError(`${where}: name a check or a requirement`);
    if (code === undefined) throw new BaselineError(`${where}: code (the finding code, e.g. status.unexpected) is required`);
    if (reason === undefined) throw new BaselineError(`${where}: reason is required (why this deviation is accepted)`);
    let expires: string | undefined;
    if (item['expires'] !== undefined && item['expires'] !== null) {
      expires = dateText(item['expires']);
      if (expires === undefined) throw new BaselineError(`${where}: expires must be a date YYYY-MM-DD, got ${JSON.stringify(item['expires'])}`);
    }
    return {
      ...(check !== undefined && { check }),
      ...(requirement !== undefined && { requirement }),
      ...(requirements !== undefined && { requirements }),
      code,
      reason,
      ...(expires !== undefined && { expires }),
    };
  });
  return { file, entries };
}

export function loadBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BaselineError(`baseline ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseBaseline(text, file);
}

/** Expired from its `expires` date on (UTC dates). */
export function isExpired(entry: Pick<BaselineEntry, 'expires'>, today: Date): boolean {
  return entry.expires !== undefined && today.toISOString().slice(0, 10) >= entry.expires;
}

/** The index of the first entry accepting `finding` of check `checkId`, or undefined. */
export function matchEntry(
  entries: readonly BaselineEntry[],
  checkId: string,
  checkRequirements: readonly string[],
  finding: MatchableFinding,
): number | undefined {
  const requirements = finding.requirements.length > 0 ? finding.requirements : checkRequirements;
  const index = entries.findIndex(
    (e) =>
      e.code === finding.code &&
      (e.check === undefined || e.check === checkId) &&
      (e.requirement === undefined || requirements.includes(e.requirement)) &&
      (e.requirements === undefined || e.requirements.every((id) => requirements.includes(id))),
  );
  return index === -1 ? undefined : index;
}

/** Splits a check's findings into those the baseline accepts and the rest. */
export function partitionFindings<F extends MatchableFinding>(
  entries: readonly BaselineEntry[],
  checkId: string,
  checkRequirements: readonly string[],
  findings: readonly F[],
): { accepted: { finding: F; entry: number }[]; kept: F[] } {
  const accepted: { finding: F; entry: number }[] = [];
  const kept: F[] = [];
  for (const finding of findings) {
    const entry = matchEntry(entries, checkId, checkRequirements, finding);
    if (entry === undefined) kept.push(finding);
    else accepted.push({ finding, entry });
  }
  return { accepted, kept };
}

/** The reference a report keeps for an accepted finding. */
export function acceptedRef(baseline: Baseline, entry: number, severity: AcceptedRef['severity']): AcceptedRef {
  const e = baseline.entries[entry];
  return { entry, severity, reason: e?.reason ?? '', ...(e?.expires !== undefined && { expires: e.expires }) };
}

/**
 * What the run exercised to the end: an entry about a check that did not run (e.g. `--api
 * partner`), or that failed on something else first, is not stale.
 */
export interface RunCoverage {
  /** ids of the checks that ran to the end (passed or warned) */
  checks: ReadonlySet<string>;
  /** requirements that got a pass or warn verdict */
  requirements: ReadonlySet<string>;
}

function exercised(e: BaselineEntry, ran: RunCoverage | undefined): boolean {
  if (ran === undefined) return true;
  const ids = [...(e.requirement !== undefined ? [e.requirement] : []), ...(e.requirements ?? [])];
  return (e.check === undefined || ran.checks.has(e.check)) && ids.every((id) => ran.requirements.has(id));
}

/**
 * The run-wide status of every entry, from the accepted references of every check. Stale: matched
 * nothing although what it names ran (given `ran`; without it, every unmatched entry is stale).
 */
export function baselineStatus(baseline: Baseline, accepted: readonly { entry: number }[], today: Date, ran?: RunCoverage): BaselineStatus {
  const counts = new Map<number, number>();
  for (const a of accepted) counts.set(a.entry, (counts.get(a.entry) ?? 0) + 1);
  const entries = baseline.entries.map((e, entry): BaselineEntryStatus => ({ ...e, entry, matched: counts.get(entry) ?? 0, expired: isExpired(e, today) }));
  const stale = entries.filter((e) => e.matched === 0 && exercised(e, ran));
  const expired = entries.filter((e) => e.expired);
  return { file: baseline.file, entries, accepted: accepted.length, stale, expired, problems: new Set([...stale, ...expired].map((e) => e.entry)).size };
}

export function describeEntry(e: BaselineEntry & { entry?: number }): string {
  const ids = [...(e.requirement !== undefined ? [e.requirement] : []), ...(e.requirements ?? [])];
  const who = [e.check !== undefined ? `check ${e.check}` : undefined, ids.length > 0 ? `requirement ${ids.join('+')}` : undefined].filter((x) => x !== undefined).join(', ');
  return `${e.entry !== undefined ? `#${e.entry + 1} ` : ''}${who} · ${e.code}`;
}

/** Lines for the console and conformance.md about stale and expired entries. */
export function baselineProblemLines(status: BaselineStatus): string[] {
  return [
    ...status.stale.map((e) => `stale baseline entry ${describeEntry(e)}: matched nothing in this run (fixed? remove it)`),
    ...status.expired.map((e) => `expired baseline entry ${describeEntry(e)}: expired on ${e.expires ?? '?'} (fix the deviation or renew the entry)`),
  ];
}

/** A finding of a check, as `--write-baseline` sees it. */
export interface BaselineSource {
  check: string;
  /** an already accepted finding keeps its entry's reason and expiry */
  findings: readonly (MatchableFinding & { reason?: string; expires?: string })[];
}

/** A baseline accepting every finding given (one entry per check and code), as YAML text. */
export function baselineYaml(sources: readonly BaselineSource[], note: string): string {
  const seen = new Set<string>();
  const accepted: BaselineEntry[] = [];
  for (const source of sources) {
    for (const finding of source.findings) {
      // the finding's requirements narrow the entry: another deviation with the same code in the
      // same check (e.g. a 200 for a zero amount where a 200 for a long description was accepted) stays new
      const ids = [...new Set(finding.requirements)];
      const key = `${source.check}\u0000${ids.join(',')}\u0000${finding.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      accepted.push({
        check: source.check,
        ...(ids.length === 1 && { requirement: ids[0] }),
        ...(ids.length > 1 && { requirements: ids }),
        code: finding.code,
        reason: finding.reason ?? 'TODO: why this deviation is accepted',
        ...(finding.expires !== undefined && { expires: finding.expires }),
      });
    }
  }
  const header = [
    '# paygate-conformance baseline: accepted deviations (see --baseline in --help).',
    `# ${note}`,
    '# Each entry: check and/or requirement, the finding code, a reason, optionally `expires: YYYY-MM-DD`.',
  ].join('\n');
  return `${header}\n${yaml().stringify({ accepted }, { lineWidth: 0 })}`;
}
