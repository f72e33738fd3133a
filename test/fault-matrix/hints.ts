/**
 * The checks that detected each fault in the last complete matrix (`detections.json` beside this
 * file): a fault's run starts with those checks only, not every check naming its requirements.
 *
 * Most of a fault's selection (select.ts) is checks that read the requirement but pass with the
 * fault on: a wide fault selects most of the suite, and the matrix ran the suite about thirty times
 * over. Narrowing keeps every proof, because a narrowed result is accepted only when it is as good
 * as the recorded one: the fault detected AND credited with every requirement it was credited with
 * when recorded. Anything less (a check changed, a requirement moved, the fault changed) sends the
 * fault to a run of its own with its whole selection, exactly the judgement without hints. Checks
 * that name one of its requirements but were not mapped to it when the hints were recorded (new or
 * changed checks) run beside the recorded ones, so a new check proving a requirement is credited.
 * Faults without a hint (new ones), timer faults and faults whose recorded checks are no longer
 * selected run their whole selection.
 *
 * Refresh after changing faults or checks (a stale hint costs a re-run, never a proof):
 * `npx tsx test/fault-matrix/hints.ts [reports/fault-matrix.json]` after a matrix run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const HINTS_FILE = fileURLToPath(new URL('./detections.json', import.meta.url));

export interface DetectionHint {
  /** the checks that credited the fault */
  detectedBy: string[];
  /** the requirements they credited: a narrowed run must credit all of them again */
  failingRequirements: string[];
  /** the checks mapped to the fault then (a check mapped now but not then runs too) */
  mappedChecks: string[];
}

export type DetectionHints = ReadonlyMap<string, DetectionHint>;

export function readHints(file = HINTS_FILE): DetectionHints {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { faults?: Record<string, DetectionHint> };
    return new Map(Object.entries(json.faults ?? {}));
  } catch {
    return new Map();
  }
}

interface RecordedOutcome {
  fault: string;
  detected: boolean;
  detectedBy: string[];
  failingRequirements: string[];
  mappedChecks: string[];
}

export function writeHints(outcomes: readonly RecordedOutcome[], file = HINTS_FILE): number {
  const faults: Record<string, DetectionHint> = {};
  for (const o of [...outcomes].sort((a, b) => a.fault.localeCompare(b.fault))) {
    if (!o.detected || o.detectedBy.length === 0) continue;
    faults[o.fault] = { detectedBy: [...o.detectedBy].sort(), failingRequirements: [...o.failingRequirements].sort(), mappedChecks: [...o.mappedChecks].sort() };
  }
  writeFileSync(file, `${JSON.stringify({ note: 'checks that detected each fault in the last complete fault matrix (test/fault-matrix/hints.ts); regenerate after adding faults or checks', faults }, null, 1)}\n`);
  return Object.keys(faults).length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const matrixFile = process.argv[2] ?? 'reports/fault-matrix.json';
  const matrix = JSON.parse(readFileSync(matrixFile, 'utf8')) as { faults?: RecordedOutcome[] };
  if (!matrix.faults) throw new Error(`${matrixFile} has no faults section`);
  console.log(`detection hints: ${writeHints(matrix.faults)} faults`);
}
