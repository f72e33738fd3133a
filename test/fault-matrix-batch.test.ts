// Batches of the fault matrix (test/fault-matrix/select.ts, "Batches"): which faults may share a
// reference, and when a batch's result stands for a fault (report.ts judgeBatched) or sends it to a
// solo run.
import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../reference/faults.js';
import type { ReportedCheck, CheckState } from '../harness/report/verdict.js';
import { judgeBatched, judgeFault } from './fault-matrix/report.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';
import { MAX_BATCH, compatible, isWideFault, meetsHint, narrowSelection, packRuns, selectFiles } from './fault-matrix/select.js';
import type { FaultRun, FaultSelection } from './fault-matrix/select.js';

const FILES = ['suites/gateway/a.test.ts', 'suites/gateway/b.test.ts', 'suites/gateway/fuzz-model.test.ts', 'suites/partner/p.test.ts'];

function check(id: string, file: string, requirements: string[], extra: Partial<ReportedCheck> = {}): ReportedCheck {
  return { check: id, name: id, title: id, file, requirements, state: 'passed', failures: [], warnings: [], requests: 1, durationMs: 100, ...extra };
}

// the baseline: two plain files, a fuzz file every stateful gateway fault selects, a partner file
const BASELINE: ReportedCheck[] = [
  check('gw.a1', FILES[0] as string, ['GW-A1']),
  check('gw.a2', FILES[0] as string, ['GW-A2', 'GW-SHARED']),
  check('gw.b1', FILES[1] as string, ['GW-B1']),
  check('gw.b2', FILES[1] as string, ['GW-B2', 'GW-SHARED']),
  check('gw.fuzz', FILES[2] as string, ['GW-FUZZ']),
  check('pt.p1', FILES[3] as string, ['PT-P1']),
];

function fault(name: string, requirements: string[], extra: Partial<FaultSpec> = {}): FaultSpec {
  return { name, api: name.startsWith('pt-') ? 'partner' : 'gateway', requirements, tier: 'quick', intent: name, ...extra };
}

const select = (f: FaultSpec): FaultSelection => selectFiles(f, BASELINE, FILES);

// stateful (balance) faults: they also select the fuzz file
const A = select(fault('gw-a-balance', ['GW-A1']));
const B = select(fault('gw-b-balance', ['GW-B1']));
const P = select(fault('pt-p', ['PT-P1']));

function runOf(...faults: FaultSelection[]): FaultRun {
  return { id: 'run-01', tier: 'quick', strict: false, faults, files: [...new Set(faults.flatMap((s) => s.files))], testNamePattern: '', estimateMs: 0 };
}

function result(checks: ReportedCheck[], extra: Partial<ConformanceRunResult> = {}): ConformanceRunResult {
  return {
    label: 'run-01',
    files: [],
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 1000,
    outputTail: '',
    report: { checks, errors: [] } as unknown as ConformanceRunResult['report'],
    ...extra,
  };
}

const failing = (id: string, file: string, requirements: string[], findingIds: string[][]): ReportedCheck =>
  check(id, file, requirements, { state: 'failed', failures: findingIds.map((ids) => ({ code: 'x', requirements: ids, title: 't' }) as ReportedCheck['failures'][number]) });

const STATES = new Map<string, CheckState>(BASELINE.map((c) => [c.check, c.state]));
const NONE = new Set<string>();

describe('which faults may share a batch', () => {
  it('selects the fuzz file for stateful faults, whose checks many faults share', () => {
    expect(A.files).toEqual([FILES[0], FILES[2]]);
    expect(A.fuzzChecks).toEqual(['gw.fuzz']);
    expect(A.checks.sort()).toEqual(['gw.a1', 'gw.fuzz']);
  });
  it('accepts faults of one API with disjoint requirements and disjoint checks outside the fuzz files', () => {
    expect(compatible(B, [A])).toBe(true);
  });
  it('refuses a fault of the other API, another tier or the --strict class', () => {
    expect(compatible(P, [A])).toBe(false);
    expect(compatible(select(fault('gw-b-timer', ['GW-B1'], { tier: 'timer' })), [A])).toBe(false);
    expect(compatible(select(fault('gw-b-strict', ['GW-B1'], { strict: 'ambiguous' })), [A])).toBe(false);
  });
  it('refuses faults sharing a requirement or a mapped check', () => {
    expect(compatible(select(fault('gw-a-again', ['GW-A1'])), [A])).toBe(false);
    // GW-SHARED is named by gw.a2 and gw.b2: both faults would select both checks
    const s1 = select(fault('gw-s1', ['GW-SHARED']));
    const s2 = select(fault('gw-a2', ['GW-A2']));
    expect(compatible(s2, [s1])).toBe(false);
  });
  it('lets faults narrowed to their hints share a batch when neither runs a check mapped to the other', () => {
    // gw.a2 names GW-A2 and GW-SHARED: mapped to both faults, so their whole selections conflict
    const x = select(fault('gw-x', ['GW-A1', 'GW-A2']));
    const y = select(fault('gw-y', ['GW-SHARED']));
    expect(compatible(y, [x])).toBe(false);
    // narrowed, x runs gw.a1 and y runs gw.b2: no check either runs names the other's requirements
    const xn = narrowSelection(x, { detectedBy: ['gw.a1'], failingRequirements: ['GW-A1'], mappedChecks: x.mappedChecks }, BASELINE);
    const yn = narrowSelection(y, { detectedBy: ['gw.b2'], failingRequirements: ['GW-SHARED'], mappedChecks: y.mappedChecks }, BASELINE);
    expect([xn.checks, yn.checks]).toEqual([['gw.a1'], ['gw.b2']]);
    expect(compatible(yn, [xn])).toBe(true);
    expect(compatible(xn, [yn])).toBe(true);
    // one of them running the shared check is refused, narrowed or not
    const yOnShared = narrowSelection(y, { detectedBy: ['gw.a2'], failingRequirements: ['GW-SHARED'], mappedChecks: y.mappedChecks }, BASELINE);
    expect(compatible(yOnShared, [xn])).toBe(false);
    expect(compatible(yn, [x])).toBe(false);
  });
  it('runs wide faults alone (declared, or by the shape requirement they break)', () => {
    const wide = select(fault('gw-balance-as-number', ['GW-B2']));
    expect(isWideFault(wide.fault)).toBe(true);
    expect(isWideFault(fault('gw-new', ['GW-BAL-STRINGS-2DP']))).toBe(true);
    expect(isWideFault(fault('gw-new', ['GW-ERR-CODES']))).toBe(true);
    expect(compatible(wide, [A])).toBe(false);
    expect(compatible(A, [wide])).toBe(false);
  });
  it('packs every fault exactly once, a gateway batch beside a partner batch', () => {
    const runs = packRuns([A, B, P]);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.faults.map((s) => s.fault.name).sort()).toEqual(['gw-a-balance', 'gw-b-balance', 'pt-p']);
  });
  it('runs in a batch only the checks one member selected (a shared check could credit neither)', () => {
    const [run] = packRuns([A, B, P]);
    // gw.fuzz is selected by both stateful faults: its file is not run
    expect(run?.files).toEqual([FILES[0], FILES[1], FILES[3]]);
    expect(run?.testNamePattern.split('|').sort()).toEqual(['gw\\.a1', 'gw\\.b1', 'pt\\.p1']);
    // alone, a fault runs every check it selected, fuzzers included
    const [solo] = packRuns([A, P], { batch: false });
    expect(solo?.files).toEqual([FILES[0], FILES[2], FILES[3]]);
  });
  it('without batches, one fault per API per run', () => {
    const runs = packRuns([A, B, P], { batch: false });
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run.faults.filter((s) => s.fault.api === 'gateway').length).toBeLessThanOrEqual(1);
  });
  it('keeps batches within MAX_BATCH faults of an API', () => {
    const many: ReportedCheck[] = Array.from({ length: 20 }, (_, i) => check(`gw.c${i}`, FILES[0] as string, [`GW-C${i}`]));
    const sels = many.map((_, i) => selectFiles(fault(`gw-c${i}`, [`GW-C${i}`]), many, FILES));
    const runs = packRuns(sels);
    expect(runs.flatMap((r) => r.faults).length).toBe(20);
    expect(Math.max(...runs.map((r) => r.faults.length))).toBe(MAX_BATCH);
  });
});

describe('judging a batch member', () => {
  const run = runOf(A, B, P);
  it('credits a fault with its own failing check whose finding names its requirement', () => {
    const r = result([failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-A1']]), check('gw.b1', FILES[1] as string, ['GW-B1'])]);
    const { outcome, rerun } = judgeBatched(A, run, r, NONE, STATES);
    expect(rerun).toBeUndefined();
    expect(outcome.detected).toBe(true);
    expect(outcome.failingRequirements).toEqual(['GW-A1']);
    expect(outcome.pairedWith).toBe('gw-b-balance, pt-p');
    // B's check passed: B is sent to a solo run, not judged undetected
    expect(judgeBatched(B, run, r, NONE, STATES).rerun).toBe('not detected in the batch');
  });
  it('never credits a shared (fuzz) check: that fault runs alone', () => {
    const r = result([failing('gw.fuzz', FILES[2] as string, ['GW-FUZZ', 'GW-A1'], [['GW-A1']])]);
    const { outcome, rerun } = judgeBatched(A, run, r, NONE, STATES);
    expect(outcome.detected).toBe(false);
    expect(rerun).toBe('not detected in the batch');
  });
  it('does not credit a check whose finding names another member\'s requirement (a leak), and re-runs the fault alone', () => {
    const r = result([failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-A1'], ['GW-B1']])]);
    const { outcome, rerun } = judgeBatched(A, run, r, NONE, STATES);
    expect(outcome.detected).toBe(false);
    expect(rerun).toBeDefined();
  });
  it('does not credit a check-level naming alone in a batch (a solo run decides)', () => {
    const r = result([failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-OTHER']])]);
    expect(judgeBatched(A, run, r, NONE, STATES).outcome.detected).toBe(false);
    // the same report, judged as a solo run, credits it
    expect(judgeFault(A, runOf(A, P), r, NONE).detected).toBe(true);
  });
  it('re-runs a fault alone when not every requirement it breaks is credited', () => {
    const two = select(fault('gw-two', ['GW-A1', 'GW-B2']));
    const r = result([failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-A1']])]);
    const { outcome, rerun } = judgeBatched(two, runOf(two, select(fault('gw-other', ['GW-FUZZ']))), r, NONE, STATES);
    expect(outcome.detected).toBe(true);
    expect(rerun).toBe('not credited in the batch: GW-B2');
  });
  it('re-runs a fault alone when another of its own checks errored, failed without naming it, or did not run', () => {
    const wide = select(fault('gw-wide', ['GW-A1', 'GW-A2']));
    const mates = runOf(wide, B);
    const credited = failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-A1', 'GW-A2']]);
    expect(judgeBatched(wide, mates, result([credited, check('gw.a2', FILES[0] as string, ['GW-A2'], { state: 'error', error: 'boom' })]), NONE, STATES).rerun).toMatch(/gw\.a2 error/);
    expect(judgeBatched(wide, mates, result([credited, failing('gw.a2', FILES[0] as string, ['GW-A2'], [['GW-OTHER']])]), NONE, STATES).rerun).toMatch(/gw\.a2 failed/);
    expect(judgeBatched(wide, mates, result([credited, check('gw.a2', FILES[0] as string, ['GW-A2'], { state: 'not-run' })]), NONE, STATES).rerun).toMatch(/gw\.a2 not run/);
    expect(judgeBatched(wide, mates, result([credited, check('gw.a2', FILES[0] as string, ['GW-A2'])]), NONE, STATES).rerun).toBeUndefined();
  });
  it('re-runs every member of a batch run that timed out', () => {
    const r = result([failing('gw.a1', FILES[0] as string, ['GW-A1'], [['GW-A1']])], { timedOut: true });
    expect(judgeBatched(A, run, r, NONE, STATES).rerun).toMatch(/not decided/);
  });
  it('judges the only fault of its API in a run exactly as a solo run', () => {
    const r = result([failing('pt.p1', FILES[3] as string, ['PT-P1'], [['PT-OTHER']])]);
    const batched = judgeBatched(P, run, r, NONE, STATES);
    expect(batched.rerun).toBeUndefined();
    expect(batched.outcome).toEqual(judgeFault(P, run, r, NONE));
    expect(batched.outcome.detected).toBe(true);
  });
});

describe('detection hints (test/fault-matrix/hints.ts)', () => {
  const wide = select(fault('gw-shared', ['GW-SHARED', 'GW-A1']));

  it('narrows a fault to its recorded detecting checks, keeping its whole selection for a re-run', () => {
    const narrowed = narrowSelection(wide, { detectedBy: ['gw.a2'], failingRequirements: ['GW-SHARED'], mappedChecks: wide.mappedChecks }, BASELINE);
    expect(narrowed.checks).toEqual(['gw.a2']);
    expect(narrowed.files).toEqual([FILES[0]]);
    expect(narrowed.mappedChecks).toEqual(wide.mappedChecks);
    expect(narrowed.full).toBe(wide);
    expect(narrowed.expect).toEqual(['GW-SHARED']);
  });

  it('of many recorded detecting checks, runs a few that name every recorded requirement', () => {
    const narrowed = narrowSelection(wide, { detectedBy: ['gw.a2', 'gw.b2'], failingRequirements: ['GW-SHARED'], mappedChecks: wide.mappedChecks }, BASELINE);
    expect(narrowed.checks).toHaveLength(1);
  });

  it('also runs checks mapped to the fault since the hint was recorded (a new check may prove more)', () => {
    const narrowed = narrowSelection(wide, { detectedBy: ['gw.a2'], failingRequirements: ['GW-SHARED'], mappedChecks: ['gw.a1', 'gw.a2'] }, BASELINE);
    expect(narrowed.checks.sort()).toEqual(['gw.a2', 'gw.b2']);
  });

  it('keeps the whole selection with no hint, for a timer fault, or when a recorded check is no longer selected', () => {
    expect(narrowSelection(wide, undefined, BASELINE)).toBe(wide);
    const timer = select(fault('gw-shared-timer', ['GW-SHARED'], { tier: 'timer' }));
    expect(narrowSelection(timer, { detectedBy: ['gw.a2'], failingRequirements: ['GW-SHARED'], mappedChecks: [] }, BASELINE)).toBe(timer);
    expect(narrowSelection(wide, { detectedBy: ['gw.gone'], failingRequirements: ['GW-SHARED'], mappedChecks: [] }, BASELINE)).toBe(wide);
  });

  it('accepts a narrowed result only when it credits every recorded requirement', () => {
    const narrowed = narrowSelection(wide, { detectedBy: ['gw.a1', 'gw.a2'], failingRequirements: ['GW-A1', 'GW-SHARED'], mappedChecks: wide.mappedChecks }, BASELINE);
    expect(meetsHint(narrowed, { detected: true, failingRequirements: ['GW-A1', 'GW-SHARED'] })).toBe(true);
    expect(meetsHint(narrowed, { detected: true, failingRequirements: ['GW-SHARED'] })).toBe(false);
    expect(meetsHint(narrowed, { detected: false, failingRequirements: [] })).toBe(false);
  });
});
