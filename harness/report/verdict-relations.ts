/**
 * Relation coverage (conformance.json `relations`, conformance.md "Relations"): for each relation of
 * the contract judged cell by cell (harness/rules/rule.ts `Relation`), the cells the run's checks
 * tried out of its cells, and every untried cell with the reason it was not tried: no run can try it
 * (the relation says why), it needs a contract timer (quick profile), a check that ran could not try
 * it (an optional credential is not configured: the reason names its variable), the checks judging it
 * did not run (their not-run reason, which names a missing credential's variable) or could not be
 * judged, or the run simply did not reach it.
 */
import type { Profile } from '../cli/args.js';
import type { CheckOutcome } from './outcome.js';

export interface RelationCoverage {
  id: string;
  title: string;
  /** the checks whose rules judge it */
  checks: string[];
  /** cells in the relation */
  cells: number;
  /** cells this run could try (its cells less the untryable ones, and the timer ones in quick) */
  tryable: number;
  /** cells tried */
  tried: number;
  /** every untried cell, with why */
  untried: { cell: string; reason: string }[];
}

const TIMER_REASON = 'needs a contract timer: tried by the full and certify profiles';

/** Coverage of every relation the run's checks declare (in the order they first appear). */
export function relationCoverage(checks: readonly CheckOutcome[], profile: Profile): RelationCoverage[] {
  const byId = new Map<string, { record: NonNullable<CheckOutcome['relations']>[number]; checks: CheckOutcome[]; tried: Set<string>; cannotTry: Map<string, string> }>();
  for (const check of checks) {
    for (const record of check.relations ?? []) {
      const entry = byId.get(record.id) ?? { record, checks: [], tried: new Set<string>(), cannotTry: new Map<string, string>() };
      if (!entry.checks.includes(check)) entry.checks.push(check);
      for (const cell of record.tried) entry.tried.add(cell);
      for (const [cell, reason] of Object.entries(record.cannotTry ?? {})) if (!entry.cannotTry.has(cell)) entry.cannotTry.set(cell, reason);
      byId.set(record.id, entry);
    }
  }
  return [...byId.values()].map(({ record, checks: judging, tried, cannotTry }) => {
    const timed = profile === 'quick' ? new Set(record.timerCells ?? []) : new Set<string>();
    const untryable = record.untryable ?? {};
    const ran = judging.filter((c) => c.state !== 'not-run');
    const why = (): string => {
      if (ran.length === 0) return `not run: ${[...new Set(judging.map((c) => c.notRun ?? 'not run'))].join('; ')}`;
      const judged = ran.filter((c) => c.state !== 'inconclusive' && c.state !== 'error');
      if (judged.length === 0) return `its checks could not be judged (${[...new Set(ran.map((c) => c.inconclusive ?? c.error ?? c.state))].join('; ')})`;
      return 'not reached by this run';
    };
    const untried = record.cells
      .filter((cell) => !tried.has(cell))
      .map((cell) => ({ cell, reason: untryable[cell] ?? (timed.has(cell) ? TIMER_REASON : (cannotTry.get(cell) ?? why())) }));
    return {
      id: record.id,
      title: record.title,
      checks: judging.map((c) => c.check),
      cells: record.cells.length,
      tryable: record.cells.filter((cell) => untryable[cell] === undefined && !timed.has(cell)).length,
      tried: record.cells.filter((cell) => tried.has(cell)).length,
      untried,
    };
  });
}

/** The "Relations" section of conformance.md (nothing when the run judged no relation). */
export function relationsMarkdown(relations: readonly RelationCoverage[], cell: (text: string) => string): string[] {
  if (relations.length === 0) return [];
  const out = ['## Relations', '', 'Each relation of the contract judged cell by cell: cells tried / cells (of which this run could try).', ''];
  out.push('| relation | tried / cells | tryable | untried |', '|---|---:|---:|---|');
  for (const r of relations) {
    const untried = r.untried.map((u) => `${u.cell} (${u.reason})`).join('; ');
    out.push(`| ${cell(r.title)} \`${cell(r.id)}\` | ${r.tried} / ${r.cells} | ${r.tryable} | ${cell(untried)} |`);
  }
  out.push('');
  return out;
}
