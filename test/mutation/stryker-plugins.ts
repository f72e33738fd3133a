/**
 * The Stryker plugins of `npm run mutation` (loaded by Stryker's processes with `--import tsx`):
 *
 * - ignorer `paygate-fault-code`: leaves out fault switches and the branches only a fault takes
 *   (./fault-code.ts);
 * - checker `paygate-sample`: lets through only the mutants of the seeded sample, read from the
 *   file named by PAYGATE_MUTATION_SAMPLE (a JSON array of identities, ./mutants.ts). Stryker has
 *   no option to run chosen mutants; a checker is its documented way to stop a mutant before it
 *   runs. The others end as "CompileError" with the reason below, and the report leaves them out;
 * - reporter `paygate-progress`: appends each verdict to the file named by PAYGATE_MUTATION_PROGRESS
 *   as it comes (one JSON line), so that a run cut short can go on with `--resume`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckStatus } from '@stryker-mutator/api/check';
import type { CheckResult, Checker } from '@stryker-mutator/api/check';
import type { Mutant, MutantResult } from '@stryker-mutator/api/core';
import type { Reporter } from '@stryker-mutator/api/report';
import type { Ignorer } from '@stryker-mutator/api/ignore';
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';
import type { AstPath } from './fault-code.js';
import { FaultCode } from './fault-code.js';
import { mutantIdentity } from './mutants.js';
import type { Outcome } from './report.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SAMPLE_ENV = 'PAYGATE_MUTATION_SAMPLE';
export const PROGRESS_ENV = 'PAYGATE_MUTATION_PROGRESS';
export const OUTSIDE_SAMPLE = 'outside the sample (paygate-sample checker)';
export const IGNORER_NAME = 'paygate-fault-code';
export const CHECKER_NAME = 'paygate-sample';
export const REPORTER_NAME = 'paygate-progress';


/** Stryker's result status → ours; a mutant the sample checker stopped is not ours (undefined). */
export function outcomeOf(r: Pick<MutantResult, 'status' | 'statusReason'>): Outcome | undefined {
  switch (r.status) {
    case 'Killed':
      return 'killed';
    case 'Timeout':
      return 'timeout';
    case 'Survived':
    case 'NoCoverage':
      return 'survived';
    case 'CompileError':
      return r.statusReason === OUTSIDE_SAMPLE ? undefined : 'error';
    default:
      return 'error';
  }
}

/** What the report keeps of a verdict's reason: the command's `killed …` line, or Stryker's error. */
export function detailOf(outcome: Outcome, statusReason: string | undefined): string | undefined {
  if (outcome === 'killed') return (statusReason ?? '').split('\n').find((l) => l.startsWith('killed'));
  return outcome === 'error' ? statusReason : undefined;
}

/** The identity of a result (its location is the report schema's, 1-based). */
export function resultIdentity(r: Pick<MutantResult, 'fileName' | 'mutatorName' | 'replacement' | 'location'>, root = ROOT): string {
  const file = relative(root, r.fileName).split(sep).join('/');
  const { start, end } = r.location;
  return mutantIdentity(file, r.mutatorName, r.replacement, { line: start.line - 1, column: start.column - 1 }, { line: end.line - 1, column: end.column - 1 });
}

/** One line of the progress file. */
export interface ProgressLine {
  identity: string;
  outcome: Outcome;
  detail?: string;
}

export const progressReporter: Reporter = {
  onMutantTested: (r) => {
    const file = process.env[PROGRESS_ENV];
    const outcome = outcomeOf(r);
    if (file === undefined || file === '' || outcome === undefined) return;
    const detail = detailOf(outcome, r.statusReason);
    const line: ProgressLine = { identity: resultIdentity(r), outcome, ...(detail !== undefined && { detail }) };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  },
};

const faultCode = new FaultCode();
export const faultCodeIgnorer: Ignorer = {
  shouldIgnore: (path) => faultCode.reason(path as unknown as AstPath),
};

export function identityOf(m: Pick<Mutant, 'fileName' | 'mutatorName' | 'replacement' | 'location'>, root = ROOT): string {
  const file = relative(root, m.fileName).split(sep).join('/');
  return mutantIdentity(file, m.mutatorName, m.replacement, m.location.start, m.location.end);
}

function loadSample(): Set<string> {
  const file = process.env[SAMPLE_ENV];
  if (file === undefined || file === '') throw new Error(`${SAMPLE_ENV} is not set: the paygate-sample checker needs the sample file`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw new Error(`${file}: expected a JSON array of mutant identities`);
  return new Set(parsed);
}

let sample: Set<string> | undefined;

export const sampleChecker: Checker = {
  init: async () => {
    sample = loadSample();
  },
  // one group: the whole plan is checked in one call
  group: async (mutants) => [mutants.map((m) => m.id)],
  check: async (mutants) => {
    const keep = sample ?? loadSample();
    const out: Record<string, CheckResult> = {};
    for (const m of mutants) out[m.id] = keep.has(identityOf(m)) ? { status: CheckStatus.Passed } : { status: CheckStatus.CompileError, reason: OUTSIDE_SAMPLE };
    return out;
  },
};

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, IGNORER_NAME, faultCodeIgnorer),
  declareValuePlugin(PluginKind.Checker, CHECKER_NAME, sampleChecker),
  declareValuePlugin(PluginKind.Reporter, REPORTER_NAME, progressReporter),
];
