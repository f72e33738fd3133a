/**
 * Which suite files a fault needs, and how faults are packed into runs.
 *
 * The check → file → requirement map comes from one baseline run against the correct reference
 * (conformance.json `checks[]`: each check's file and the requirement IDs it names). A fault's
 * files are the files of every check naming one of its requirement IDs, plus the stateful fuzzer
 * files (`suites/<api>/fuzz-*.test.ts`) when the fault is about races, arithmetic or idempotency.
 *
 * Packing: the two APIs are independent applications with disjoint requirement IDs (GW-/PT-) and
 * disjoint files, so one run carries one gateway fault and one partner fault; a detection is only
 * credited to the fault of the check's own API. Quick faults run in the quick profile, timer
 * faults in the full profile with shortened reference timers; the two never share a run.
 */
import type { FaultSpec } from '../../reference/faults.js';
import type { CheckRecord } from '../../harness/report/verdict.js';

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
  /** estimated cost of its files (sum of the baseline durations of their checks) */
  estimateMs: number;
}

export interface FaultRun {
  id: string;
  tier: 'quick' | 'timer';
  /** one per API at most */
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

export function selectFiles(fault: FaultSpec, checks: readonly CheckRecord[], allFiles: readonly string[]): FaultSelection {
  const wanted = new Set(fault.requirements);
  const mapped = checks.filter((c) => apiOfFile(c.file) === fault.api && c.requirements.some((id) => wanted.has(id)));
  const mappedFiles = [...new Set(mapped.map((c) => c.file))].sort();
  const fuzzFiles = isStatefulFault(fault) ? allFiles.filter((f) => isFuzzFile(f) && apiOfFile(f) === fault.api) : [];
  const files = [...new Set([...mappedFiles, ...fuzzFiles])].sort();
  const chosen = checks.filter((c) => mapped.includes(c) || fuzzFiles.includes(c.file));
  const titles = [...new Set(chosen.map((c) => c.title ?? c.name))].sort();
  const estimateMs = chosen.reduce((sum, c) => sum + c.durationMs, 0) + (fault.tier === 'timer' ? TIMER_FILE_COST_MS * mappedFiles.length : 0);
  return { fault, mappedChecks: mapped.map((c) => c.check), mappedFiles, fuzzFiles, files, titles, estimateMs };
}

function byCostDesc(a: FaultSelection, b: FaultSelection): number {
  return b.estimateMs - a.estimateMs || a.fault.name.localeCompare(b.fault.name);
}

/**
 * Packs the selections into runs: within a tier, the costliest gateway fault with the costliest
 * partner fault, and so on (a run lasts about as long as its slower half). Selections without
 * files are left out (reported as undetected: no check names their requirements). Runs come back
 * costliest first, the order a pool of parallel slots should start them in.
 */
export function packRuns(selections: readonly FaultSelection[]): FaultRun[] {
  const runs: FaultRun[] = [];
  for (const [tier, strict] of [['quick', false], ['timer', false], ['quick', true], ['timer', true]] as const) {
    const of = (api: Api): FaultSelection[] =>
      selections.filter((s) => s.fault.tier === tier && (s.fault.strict !== undefined) === strict && s.fault.api === api && s.files.length > 0).sort(byCostDesc);
    const gateway = of('gateway');
    const partner = of('partner');
    for (let i = 0; i < Math.max(gateway.length, partner.length); i++) {
      const faults = [gateway[i], partner[i]].filter((s): s is FaultSelection => s !== undefined);
      runs.push({
        id: '',
        tier,
        strict,
        faults,
        files: [...new Set(faults.flatMap((s) => s.files))].sort(),
        testNamePattern: titlePattern(faults.flatMap((s) => s.titles)),
        estimateMs: faults.reduce((sum, s) => sum + s.estimateMs, 0),
      });
    }
  }
  runs.sort((a, b) => b.estimateMs - a.estimateMs);
  runs.forEach((run, index) => {
    run.id = `run-${String(index + 1).padStart(2, '0')}`;
  });
  return runs;
}
