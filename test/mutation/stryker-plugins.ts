/**
 * The Stryker plugins of `npm run mutation` (loaded by Stryker's processes with `--import tsx`):
 *
 * - ignorer `paygate-fault-code`: leaves out fault switches and the branches only a fault takes
 *   (./fault-code.ts);
 * - checker `paygate-sample`: lets through only the mutants of the seeded sample, read from the
 *   file named by PAYGATE_MUTATION_SAMPLE (a JSON array of identities, ./mutants.ts). Stryker has
 *   no option to run chosen mutants; a checker is its documented way to stop a mutant before it
 *   runs. The others end as "CompileError" with the reason below, and the report leaves them out.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckStatus } from '@stryker-mutator/api/check';
import type { CheckResult, Checker } from '@stryker-mutator/api/check';
import type { Mutant } from '@stryker-mutator/api/core';
import type { Ignorer } from '@stryker-mutator/api/ignore';
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';
import type { AstPath } from './fault-code.js';
import { FaultCode } from './fault-code.js';
import { mutantIdentity } from './mutants.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SAMPLE_ENV = 'PAYGATE_MUTATION_SAMPLE';
export const OUTSIDE_SAMPLE = 'outside the sample (paygate-sample checker)';
export const IGNORER_NAME = 'paygate-fault-code';
export const CHECKER_NAME = 'paygate-sample';

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

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, IGNORER_NAME, faultCodeIgnorer), declareValuePlugin(PluginKind.Checker, CHECKER_NAME, sampleChecker)];
