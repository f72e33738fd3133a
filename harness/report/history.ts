/**
 * Run history (`--history FILE`): one JSON line per run, keyed by target, profile and seed, so a
 * report can say which requirements changed verdict since the last run on the same target and
 * profile, and which checks are flaky: with the same seed (the suite's inputs are the same) their
 * outcome changed and changed back (A → B → A). A single change is reported as a verdict change,
 * not a flake: it may be the target's new release.
 *
 * Pure functions plus a tolerant reader (a torn last line, from a run killed while appending, is
 * skipped rather than breaking the next run).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type RequirementVerdictText = 'pass' | 'fail' | 'warn' | 'unevaluated' | 'not-run' | 'unobservable' | 'inconclusive';
export type CheckStateText = 'passed' | 'failed' | 'warned' | 'not-run' | 'error' | 'inconclusive';

export interface HistoryRecord {
  kind: 'paygate-history';
  startedAt: string;
  version: string;
  /** what was tested: `embedded reference` or the base URLs, with the APIs tested */
  target: string;
  profile: string;
  seed: number | null;
  strict: boolean;
  outcome: 'pass' | 'fail' | 'inconclusive' | 'partial';
  requirements: Record<string, RequirementVerdictText>;
  checks: Record<string, CheckStateText>;
}

export interface VerdictChange {
  id: string;
  from: RequirementVerdictText;
  to: RequirementVerdictText;
}

export interface FlakyCheck {
  check: string;
  seed: number | null;
  /** outcomes seen with this seed, oldest first, this run last */
  states: CheckStateText[];
}

export interface HistoryComparison {
  file: string;
  target: string;
  /** the last earlier run on the same target and profile, if any */
  previous?: { startedAt: string; seed: number | null; outcome: 'pass' | 'fail' | 'inconclusive' | 'partial' };
  changed: VerdictChange[];
  flaky: FlakyCheck[];
  /** earlier runs on the same target and profile */
  runs: number;
}

/** What a report provides to history (a subset of ConformanceReport). */
export interface HistorySource {
  version: string;
  startedAt: string;
  profile: string;
  seed: number | null;
  strict: boolean;
  outcome: 'pass' | 'fail' | 'inconclusive' | 'partial';
  embedded: boolean;
  targets: { gateway?: string; partner?: string };
  notTested: { gateway?: string; partner?: string };
  requirements: readonly { id: string; verdict: RequirementVerdictText }[];
  checks: readonly { check: string; state: CheckStateText }[];
}

/**
 * The target identity. The embedded reference listens on new ports each run, so its URLs are not
 * part of it; its switched-on faults are (`variant`: REFERENCE_FAULTS), as they make another target.
 */
export function targetKey(source: Pick<HistorySource, 'embedded' | 'targets' | 'notTested'>, variant?: string): string {
  const apis = (['gateway', 'partner'] as const).filter((api) => source.notTested[api] === undefined);
  if (source.embedded) return `embedded reference (${apis.join('+') || 'nothing'}${variant !== undefined && variant !== '' ? `; faults ${variant}` : ''})`;
  return apis.map((api) => `${api}=${source.targets[api] ?? '?'}`).join(' ') || 'nothing tested';
}

export function historyRecord(source: HistorySource, variant?: string): HistoryRecord {
  return {
    kind: 'paygate-history',
    startedAt: source.startedAt,
    version: source.version,
    target: targetKey(source, variant),
    profile: source.profile,
    seed: source.seed,
    strict: source.strict,
    outcome: source.outcome,
    requirements: Object.fromEntries(source.requirements.map((r) => [r.id, r.verdict])),
    checks: Object.fromEntries(source.checks.map((c) => [c.check, c.state])),
  };
}

export function parseHistory(text: string): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Partial<HistoryRecord>;
      if (value.kind === 'paygate-history' && typeof value.target === 'string' && typeof value.requirements === 'object' && typeof value.checks === 'object') {
        out.push(value as HistoryRecord);
      }
    } catch {
      // a torn line (a run killed while appending): skipped
    }
  }
  return out;
}

export function readHistory(file: string): HistoryRecord[] {
  return existsSync(file) ? parseHistory(readFileSync(file, 'utf8')) : [];
}

export function appendHistory(file: string, record: HistoryRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** Outcomes that say something about the target (not-run and harness errors do not). */
const DECIDED: ReadonlySet<CheckStateText> = new Set(['passed', 'failed', 'warned']);

/** Compares this run with the earlier runs on the same target and profile. */
export function compareWithHistory(earlier: readonly HistoryRecord[], current: HistoryRecord, file: string): HistoryComparison {
  const same = earlier.filter((r) => r.target === current.target && r.profile === current.profile);
  const previous = same[same.length - 1];
  const changed: VerdictChange[] = [];
  if (previous !== undefined) {
    for (const [id, to] of Object.entries(current.requirements)) {
      const from = previous.requirements[id];
      if (from !== undefined && from !== to) changed.push({ id, from, to });
    }
  }
  const flaky: FlakyCheck[] = [];
  const sameSeed = same.filter((r) => r.seed !== null && r.seed === current.seed);
  for (const [check, state] of Object.entries(current.checks)) {
    const states = [...sameSeed.map((r) => r.checks[check]).filter((s): s is CheckStateText => s !== undefined), state];
    const decided = states.filter((s) => DECIDED.has(s));
    const changes = decided.filter((s, i) => i > 0 && s !== decided[i - 1]).length;
    if (changes >= 2) flaky.push({ check, seed: current.seed, states });
  }
  return {
    file,
    target: current.target,
    ...(previous !== undefined && { previous: { startedAt: previous.startedAt, seed: previous.seed, outcome: previous.outcome } }),
    changed: changed.sort((a, b) => a.id.localeCompare(b.id)),
    flaky: flaky.sort((a, b) => a.check.localeCompare(b.check)),
    runs: same.length,
  };
}
