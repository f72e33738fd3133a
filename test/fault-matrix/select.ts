/**
 * Which suite files a fault needs, and how faults are packed into runs.
 *
 * The check → file → requirement map comes from one baseline run against the correct reference
 * (conformance.json `checks[]`: each check's file and the requirement IDs it names). A fault's
 * files are the files of every check naming one of its requirement IDs, plus the stateful fuzzer
 * files (`suites/<api>/fuzz-*.test.ts`) when the fault is about races, arithmetic or idempotency.
 *
 * Packing. The two APIs are independent applications with disjoint requirement IDs (GW-/PT-) and
 * disjoint files, so a run always carries faults of both APIs side by side; a detection is only
 * credited to a fault of the check's own API. Quick faults run in the quick profile, timer faults
 * in the full profile with shortened reference timers; the two never share a run (nor do --strict
 * faults and the others).
 *
 * Batches (several faults of ONE API switched on together in one reference) are what keeps the
 * matrix fast as the catalogue grows: every run pays a vitest start, a global setup and a
 * reference start, which cost more than most faults' own checks. The risk of a batch is that one
 * fault's deviation makes another fault's check fail (a leak) and that failure is credited to the
 * wrong fault. The safety argument, which report.ts (`judgeBatched`) and matrix.ts enforce:
 *
 * 1. Members of a batch have pairwise disjoint requirement IDs, and no member runs a (non-fuzz)
 *    check mapped to another: every check naming a requirement of fault A at check level is in
 *    A's mapped checks, so no check B runs names A's requirements, and each check that runs
 *    belongs to exactly one member: its failure can only be credited to that member. A member
 *    narrowed to its hint (narrowSelection) runs a subset of its mapped checks, so only that
 *    subset must stay clear of the others' mapped checks (`runningChecks`): the checks it
 *    does not run can credit nothing. A check two members select (the fuzz checks stateful faults
 *    share) could be credited to neither, so a batch does not run it (`runnableChecks`); a member
 *    that needed it runs alone (rule 4).
 * 2. "Wide" faults run alone: a fault changing a response that almost every check reads (the
 *    balance shape, timestamps, the error body, money formats) would make other members' checks
 *    fail. They are declared below (WIDE_FAULTS, from the matrix report's "by checks" column: faults
 *    detected by checks in four or more areas) or recognised by the requirement they break
 *    (WIDE_REQUIREMENT).
 * 3. In a batch, a check is credited to its member only when it failed with a FINDING naming one of
 *    the member's requirement IDs and no failing finding of it names a requirement of another
 *    member (a finding about another member's requirement is the sign of a leak). The
 *    requirements credited are then those the solo judgement gives (report.ts `namedIds`).
 * 4. Anything short of a complete result sends the fault to a solo re-run (one fault per API:
 *    exactly the judgement of a run without batching): not detected; not every requirement the
 *    fault breaks credited (a solo run might credit more, or another member hid the fault from a
 *    check: the proof must not depend on the packing); a check of its selection that errored, or was not run
 *    although it ran in the baseline, or failed without a finding naming the fault (a possible
 *    leak). So a fault accepted from a batch is detected, and credited with every requirement a
 *    solo run could credit; what remains is a leak producing a finding on exactly this member's
 *    own requirement in its own check, which rules 1-2 are there to prevent.
 */
import type { FaultSpec } from '../../reference/faults.js';
import type { ReportedCheck } from '../../harness/report/verdict.js';
import type { DetectionHint } from './hints.js';

export type Api = 'gateway' | 'partner';

export interface FaultSelection {
  fault: FaultSpec;
  /** baseline checks naming one of the fault's requirement IDs */
  mappedChecks: string[];
  /** files of the mapped checks */
  mappedFiles: string[];
  /** stateful fuzzer files added for race / arithmetic / idempotency faults */
  fuzzFiles: string[];
  /** every file the fault's run includes for it */
  files: string[];
  /** the test names to run in those files: the mapped checks and every check of the fuzz files */
  titles: string[];
  /** check IDs of those tests (mapped checks and the checks of the fuzz files) */
  checks: string[];
  /** those of them in fuzz files (`suites/<api>/fuzz-*`): many faults select them, a batch shares them */
  fuzzChecks: string[];
  /** each of those checks: its file and test name */
  where: Record<string, { file: string; title: string }>;
  /** estimated cost of its files (sum of the baseline durations of their checks) */
  estimateMs: number;
  /**
   * Narrowed to the checks that detected it last time (hints.ts): the whole selection, run alone
   * when the narrowed result falls short of `expect`.
   */
  full?: FaultSelection;
  /** the requirements a narrowed run must credit (those recorded with the hint) */
  expect?: string[];
}

export interface FaultRun {
  id: string;
  tier: 'quick' | 'timer';
  /** the faults switched on; several of one API form a batch (see the safety argument above) */
  faults: FaultSelection[];
  /** warnings fail (`--strict`): the run of a fault whose requirements the contract states ambiguously */
  strict: boolean;
  files: string[];
  /** vitest -t pattern: only the selected checks of those files run */
  testNamePattern: string;
  estimateMs: number;
}

/** Faults about races, balance/ledger arithmetic or idempotency: the model-based fuzzers also hunt them. */
const STATEFUL_NAME = /race|atomic|idempoten|dedupe|double|balance|ledger|capture|available|fees|finance/i;
const STATEFUL_REQUIREMENT = /ATOMIC|IDEM|-BAL-|BALANCE|-FIN-|CAPTURE/;

export function isStatefulFault(fault: FaultSpec): boolean {
  return STATEFUL_NAME.test(fault.name) || fault.requirements.some((id) => STATEFUL_REQUIREMENT.test(id));
}

/** `suites/<api>/…` → api (undefined for anything else). */
export function apiOfFile(file: string): Api | undefined {
  const m = /^suites\/(gateway|partner)\//.exec(file);
  return m ? (m[1] as Api) : undefined;
}

export function isFuzzFile(file: string): boolean {
  return /^suites\/(gateway|partner)\/fuzz-[^/]*\.test\.ts$/.test(file);
}

/** A vitest -t pattern matching exactly these test names (vitest matches it against the full name). */
export function titlePattern(titles: readonly string[]): string {
  return [...new Set(titles)].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** Assumed cost of the timer checks of a file (they did not run in the quick baseline). */
export const TIMER_FILE_COST_MS = 20_000;

export function selectFiles(fault: FaultSpec, checks: readonly ReportedCheck[], allFiles: readonly string[]): FaultSelection {
  const wanted = new Set(fault.requirements);
  const mapped = checks.filter((c) => apiOfFile(c.file) === fault.api && c.requirements.some((id) => wanted.has(id)));
  const mappedFiles = [...new Set(mapped.map((c) => c.file))].sort();
  const fuzzFiles = isStatefulFault(fault) ? allFiles.filter((f) => isFuzzFile(f) && apiOfFile(f) === fault.api) : [];
  const files = [...new Set([...mappedFiles, ...fuzzFiles])].sort();
  const chosen = checks.filter((c) => mapped.includes(c) || fuzzFiles.includes(c.file));
  const titles = [...new Set(chosen.map((c) => c.title ?? c.name))].sort();
  const estimateMs = chosen.reduce((sum, c) => sum + c.durationMs, 0) + (fault.tier === 'timer' ? TIMER_FILE_COST_MS * mappedFiles.length : 0);
  return { fault, mappedChecks: mapped.map((c) => c.check), mappedFiles, fuzzFiles, files, titles, checks: chosen.map((c) => c.check), fuzzChecks: chosen.filter((c) => isFuzzFile(c.file)).map((c) => c.check), where: Object.fromEntries(chosen.map((c) => [c.check, { file: c.file, title: c.title ?? c.name }])), estimateMs };
}

/**
 * The selection narrowed to the checks that detected the fault when the hint was recorded, plus the
 * checks mapped to it now that were not then (hints.ts explains why no proof depends on the hint).
 * Unchanged when there is no hint, for timer faults (their checks did not run in the quick
 * baseline), or when a recorded check is no longer in the selection.
 */
export function narrowSelection(full: FaultSelection, hint: DetectionHint | undefined, checks: readonly ReportedCheck[]): FaultSelection {
  if (hint === undefined || full.fault.tier === 'timer' || hint.detectedBy.length === 0) return full;
  if (hint.detectedBy.some((c) => !full.checks.includes(c))) return full;
  const known = new Set(hint.mappedChecks);
  const keep = new Set([...coverOf(hint, checks), ...full.mappedChecks.filter((c) => !known.has(c))]);
  const chosen = full.checks.filter((c) => keep.has(c));
  if (chosen.length >= full.checks.length) return full;
  const ms = new Map(checks.map((c) => [c.check, c.durationMs]));
  const where = Object.fromEntries(chosen.map((c) => [c, full.where[c] as { file: string; title: string }]));
  const files = [...new Set(chosen.map((c) => where[c]?.file ?? ''))].filter(Boolean).sort();
  return {
    ...full,
    files,
    mappedFiles: full.mappedFiles.filter((f) => files.includes(f)),
    fuzzFiles: full.fuzzFiles.filter((f) => files.includes(f)),
    titles: [...new Set(chosen.map((c) => where[c]?.title ?? ''))].filter(Boolean).sort(),
    checks: chosen,
    fuzzChecks: full.fuzzChecks.filter((c) => keep.has(c)),
    where,
    estimateMs: chosen.reduce((sum, c) => sum + (ms.get(c) ?? 0), 0),
    full,
    expect: hint.failingRequirements,
  };
}

/**
 * Of the recorded detecting checks, a few that together name every recorded requirement (by the
 * requirements each check declares; greedy, the most requirements first, then the quickest): a
 * wide fault was detected by dozens of checks, one or two suffice. A guess the run does not bear
 * out (a check that declares a requirement but did not credit it) fails meetsHint, and the fault
 * runs its whole selection. All of them when the declarations cannot cover the requirements.
 */
function coverOf(hint: DetectionHint, checks: readonly ReportedCheck[]): string[] {
  const byId = new Map(checks.map((c) => [c.check, c]));
  const open = new Set(hint.failingRequirements);
  const candidates = hint.detectedBy.filter((c) => byId.has(c));
  const chosen: string[] = [];
  while (open.size > 0) {
    let best: string | undefined;
    let bestGain = 0;
    for (const c of candidates) {
      const record = byId.get(c) as ReportedCheck;
      const gain = record.requirements.filter((id) => open.has(id)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best !== undefined && record.durationMs < (byId.get(best) as ReportedCheck).durationMs)) {
        best = c;
        bestGain = gain;
      }
    }
    if (best === undefined) return hint.detectedBy;
    chosen.push(best);
    for (const id of (byId.get(best) as ReportedCheck).requirements) open.delete(id);
  }
  return chosen;
}

/** Whether a narrowed fault's outcome is as good as its hint's (detected, every recorded requirement credited). */
export function meetsHint(selection: FaultSelection, outcome: { detected: boolean; failingRequirements: readonly string[] }): boolean {
  return outcome.detected && (selection.expect ?? []).every((id) => outcome.failingRequirements.includes(id));
}

/**
 * Faults that change a response (nearly) every check reads: they run alone, never in a batch.
 * From the fault matrix report: the faults detected by checks in four or more areas, and the
 * error-body faults every negative check sees.
 */
export const WIDE_FAULTS: ReadonlySet<string> = new Set([
  'gw-balance-as-number',
  'gw-balance-one-decimal',
  'gw-description-141-accepted',
  'gw-error-not-found-without-code',
  'gw-error-conflict-without-code',
  'gw-error-malformed-json-500',
  'pt-timestamps-local-offset',
  'pt-finance-amounts-as-strings',
  'pt-finance-currency-missing',
  'pt-error-detail-missing',
  'pt-validation-status-400',
  'pt-malformed-json-500',
  // the token exchange's answer: every check that fetches a token sees it
  'gw-auth-expires-in-string',
  // Re-run alone after their batch in two full matrices out of two (reports/fault-matrix.md, "Re-run
  // alone after a batch"): a batch slot they always leave is time lost, so they start alone. Most
  // change an answer many flows read (a status, a route, a shape), the rest are races whose
  // requirement a batch member's checks also see.
  'gw-balance-route-unversioned',
  'gw-card-domestic-validator',
  'gw-card-pending-at-creation',
  'gw-card-validates-money-only',
  'gw-idempotency-race-creates-two',
  'gw-pixin-amount-100-rejected',
  'gw-pixin-pay-race-double-credit',
  'gw-pixout-fees-numeric-strings',
  'gw-pixout-status-enum-name',
  'gw-production-pair-refused',
  'pt-available-balance-doubled',
  'pt-external-ref-trimmed',
  'pt-finance-enveloped',
  'pt-lookup-stale-cache',
  'pt-simulation-route-unmounted',
  'pt-webhook-dispatch-all-accounts',
  // A charge creation without customer_email refused: most partner checks create such charges, so
  // in a batch the other members' checks fail or stop before their own deviation (six of the seven
  // partner members of its batch re-ran alone, 2026-11-28). The UTF-8 columns fault re-ran alone
  // after its batch in both matrices that batched it.
  'pt-customer-email-required',
  'pt-text-columns-utf8mb3',
]);

/** Requirements about a shape or format every response of a kind has (new faults breaking them are wide too). */
export const WIDE_REQUIREMENT = /-SHAPE$|-SHAPE-|STRINGS|TIMESTAMP|ERR-CODES|ERR-DETAIL|MONEY-|-CURRENCY/;

export function isWideFault(fault: FaultSpec): boolean {
  return WIDE_FAULTS.has(fault.name) || fault.requirements.some((id) => WIDE_REQUIREMENT.test(id));
}

/** Most faults of one API in one batch (a bigger batch lasts longer and a leak sends more faults to a re-run). */
export const MAX_BATCH = 8;

export interface PackOptions {
  /** several faults of one API per run (default true); false: one fault per API per run */
  batch?: boolean;
  /** baseline duration of each check (the estimate of a run is the sum over the union of its checks) */
  checkMs?: ReadonlyMap<string, number>;
  maxBatch?: number;
}

/** Whether `candidate` may join `members` in one batch (rules 1 and 2 of the safety argument). */
export function compatible(candidate: FaultSelection, members: readonly FaultSelection[]): boolean {
  if (members.length === 0) return true;
  if (isWideFault(candidate.fault) || members.some((m) => isWideFault(m.fault))) return false;
  const ids = new Set(candidate.fault.requirements);
  const owned = new Set(ownedChecks(candidate));
  const running = new Set(runningChecks(candidate));
  return members.every(
    (m) =>
      m.fault.api === candidate.fault.api &&
      m.fault.tier === candidate.fault.tier &&
      (m.fault.strict !== undefined) === (candidate.fault.strict !== undefined) &&
      !m.fault.requirements.some((id) => ids.has(id)) &&
      !ownedChecks(m).some((c) => running.has(c)) &&
      !runningChecks(m).some((c) => owned.has(c)),
  );
}

/** The mapped checks outside the fuzz files: those no other member of a batch may run. */
export function ownedChecks(selection: FaultSelection): string[] {
  const fuzz = new Set(selection.fuzzChecks);
  return selection.mappedChecks.filter((c) => !fuzz.has(c));
}

/**
 * The checks outside the fuzz files a member runs: its owned checks, or, narrowed to its hint
 * (narrowSelection), those of them it kept. Always a subset of {@link ownedChecks}.
 */
export function runningChecks(selection: FaultSelection): string[] {
  if (selection.full === undefined) return ownedChecks(selection);
  const owned = new Set(ownedChecks(selection));
  return selection.checks.filter((c) => owned.has(c));
}

function estimate(members: readonly FaultSelection[], checkMs: ReadonlyMap<string, number> | undefined): number {
  if (checkMs === undefined || members.length <= 1) return members.reduce((sum, s) => sum + s.estimateMs, 0);
  const all = members.flatMap((s) => s.checks);
  const checks = new Set(all.filter((c) => all.indexOf(c) === all.lastIndexOf(c)));
  const timerFiles = new Set(members.filter((s) => s.fault.tier === 'timer').flatMap((s) => s.mappedFiles));
  let sum = TIMER_FILE_COST_MS * timerFiles.size;
  for (const c of checks) sum += checkMs.get(c) ?? 0;
  return sum;
}

function byCostDesc(a: FaultSelection, b: FaultSelection): number {
  return b.estimateMs - a.estimateMs || a.fault.name.localeCompare(b.fault.name);
}

/** First-fit decreasing: each fault into the first batch it is compatible with and that has room. */
export function batchFaults(selections: readonly FaultSelection[], maxBatch: number): FaultSelection[][] {
  const batches: FaultSelection[][] = [];
  for (const s of [...selections].sort((a, b) => b.mappedChecks.length - a.mappedChecks.length || byCostDesc(a, b))) {
    const home = batches.find((b) => b.length < maxBatch && compatible(s, b));
    if (home !== undefined) home.push(s);
    else batches.push([s]);
  }
  return batches;
}

/**
 * Packs the selections into runs. Within a tier (and --strict class), each API's faults go into
 * batches (`batch`, default) or one per run; the costliest gateway batch shares a run with the
 * costliest partner batch, and so on (a run lasts about as long as its slower half). Selections
 * without files are left out (reported as undetected: no check names their requirements). Runs
 * come back costliest first, the order a pool of parallel slots should start them in.
 */
export function packRuns(selections: readonly FaultSelection[], options: PackOptions = {}): FaultRun[] {
  const batch = options.batch ?? true;
  const maxBatch = batch ? (options.maxBatch ?? MAX_BATCH) : 1;
  const runs: FaultRun[] = [];
  for (const [tier, strict] of [['quick', false], ['timer', false], ['quick', true], ['timer', true]] as const) {
    const of = (api: Api): FaultSelection[][] => {
      const mine = selections.filter((s) => s.fault.tier === tier && (s.fault.strict !== undefined) === strict && s.fault.api === api && s.files.length > 0);
      return batchFaults(mine, maxBatch)
        .map((members) => ({ members, cost: estimate(members, options.checkMs) }))
        .sort((a, b) => b.cost - a.cost)
        .map((b) => b.members);
    };
    const gateway = of('gateway');
    const partner = of('partner');
    for (let i = 0; i < Math.max(gateway.length, partner.length); i++) {
      const faults = [...(gateway[i] ?? []), ...(partner[i] ?? [])];
      const running = [...runnableChecks(gateway[i] ?? []), ...runnableChecks(partner[i] ?? [])];
      runs.push({
        id: '',
        tier,
        strict,
        faults,
        files: [...new Set(running.map((w) => w.file))].sort(),
        testNamePattern: titlePattern(running.map((w) => w.title)),
        estimateMs: Math.max(estimate(gateway[i] ?? [], options.checkMs), estimate(partner[i] ?? [], options.checkMs)),
      });
    }
  }
  runs.sort((a, b) => b.estimateMs - a.estimateMs);
  runs.forEach((run, index) => {
    run.id = `run-${String(index + 1).padStart(2, '0')}`;
  });
  return runs;
}

/**
 * The checks a batch runs: those selected by exactly one member. A check two members select (the
 * shared fuzz checks) could credit neither (report.ts judgeBatched), so it does not run; a member
 * that needed it is not detected in the batch and runs alone, fuzzers included. A single fault
 * runs every check it selected.
 */
export function runnableChecks(members: readonly FaultSelection[]): { file: string; title: string }[] {
  const count = new Map<string, number>();
  for (const m of members) for (const c of m.checks) count.set(c, (count.get(c) ?? 0) + 1);
  const out = new Map<string, { file: string; title: string }>();
  for (const m of members) for (const c of m.checks) if (count.get(c) === 1 && m.where[c] !== undefined) out.set(c, m.where[c]);
  return [...out.values()];
}

/** The faults of `run` with the same API as `selection`, itself included. */
export function batchOf(selection: FaultSelection, run: FaultRun): FaultSelection[] {
  return run.faults.filter((s) => s.fault.api === selection.fault.api);
}
