/**
 * reports/mutation.json and reports/mutation.md: the score on the sample and every survivor with
 * file, line, diff and its triage (./triage.ts).
 *
 * Score = detected / (run − equivalent): detected = killed + timed out (Stryker's reading: a mutant
 * that hangs the reference is caught); run = the sampled mutants Stryker ran to a verdict (a mutant
 * Stryker could not run, `error`, is listed and left out); equivalent = survivors triaged so.
 */
import type { SampledMutant } from './mutants.js';
import { keyString } from './mutants.js';
import type { TriageEntry, TriageStatus } from './triage.js';

export type Outcome = 'killed' | 'timeout' | 'survived' | 'error';

export interface MutantOutcome extends SampledMutant {
  outcome: Outcome;
  /** killed: the command's summary (failing checks); error: Stryker's reason */
  detail?: string;
}

export interface SurvivorEntry {
  file: string;
  line: number;
  api: SampledMutant['api'];
  mutator: string;
  original: string;
  replacement: string;
  context: string;
  diff: string;
  /** the triage, or `untriaged` */
  triage: TriageStatus | 'untriaged';
  reason?: string;
  relation?: string;
}

/** What the run was: its command, sample and timings. */
export interface RunFacts {
  stryker: string;
  command: string;
  seed: number;
  /** mutants asked for */
  sampleSize: number;
  /** mutants of the scope Stryker would run (fault code left out) */
  population: number;
  /** mutants of fault switches and fault-only branches, left out */
  faultCode: number;
  files: number;
  startedAt: string;
  durationMs: number;
  concurrency: number;
  groups: { api: SampledMutant['api']; mutants: number; durationMs: number }[];
}

export interface MutationReport extends RunFacts {
  tool: 'paygate-conformance mutation';
  counts: Record<Outcome, number> & { equivalent: number; unobservable: number; open: number; closed: number; untriaged: number };
  /** killed mutants by the CLI's exit code: `1` a failing check, `3` harness error, `4` inconclusive, `?` unknown */
  killedByExit: Record<string, number>;
  /** detected / (run − equivalent), 0..1; null when nothing ran */
  score: number | null;
  survivors: SurvivorEntry[];
  /** closed in the triage, yet survived this run */
  regressions: SurvivorEntry[];
  errors: { file: string; line: number; mutator: string; detail: string }[];
  mutants: ReportedMutant[];
}

/** A mutant as mutation.json lists it: enough to score it again under a newer triage (--retriage). */
export type ReportedMutant = Omit<MutantOutcome, 'identity'>;

export interface ReportInput extends RunFacts {
  outcomes: readonly ReportedMutant[];
  triage: ReadonlyMap<string, TriageEntry>;
}

export function buildReport({ outcomes, triage, ...facts }: ReportInput): MutationReport {
  const input = { outcomes, triage };
  const count = (o: Outcome): number => input.outcomes.filter((m) => m.outcome === o).length;
  const survivors: SurvivorEntry[] = input.outcomes
    .filter((m) => m.outcome === 'survived')
    .map((m): SurvivorEntry => {
      const t = input.triage.get(keyString(m));
      return {
        file: m.file,
        line: m.line,
        api: m.api,
        mutator: m.mutator,
        original: m.original,
        replacement: m.replacement,
        context: m.context,
        diff: m.diff,
        triage: t?.status ?? 'untriaged',
        ...(t !== undefined && { reason: t.reason }),
        ...(t?.relation !== undefined && { relation: t.relation }),
      };
    })
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const by = (s: SurvivorEntry['triage']): number => survivors.filter((x) => x.triage === s).length;
  const counts = {
    killed: count('killed'),
    timeout: count('timeout'),
    survived: count('survived'),
    error: count('error'),
    equivalent: by('equivalent'),
    unobservable: by('unobservable'),
    open: by('open'),
    closed: by('closed'),
    untriaged: by('untriaged'),
  };
  const killedByExit: Record<string, number> = {};
  for (const m of input.outcomes) {
    if (m.outcome !== 'killed') continue;
    const code = /exit (\d+)/.exec(m.detail ?? '')?.[1] ?? '?';
    killedByExit[code] = (killedByExit[code] ?? 0) + 1;
  }
  const run = counts.killed + counts.timeout + counts.survived;
  const denominator = run - counts.equivalent;
  return {
    tool: 'paygate-conformance mutation',
    ...facts,
    counts,
    killedByExit,
    score: denominator > 0 ? (counts.killed + counts.timeout) / denominator : null,
    survivors,
    regressions: survivors.filter((s) => s.triage === 'closed'),
    errors: input.outcomes.filter((m) => m.outcome === 'error').map((m) => ({ file: m.file, line: m.line, mutator: m.mutator, detail: m.detail ?? '' })),
    mutants: input.outcomes.map((m) => {
      const { identity: _identity, ...rest } = m as MutantOutcome;
      return rest;
    }),
  };
}

function pct(x: number | null): string {
  return x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`;
}

function minutes(ms: number): string {
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function renderMarkdown(r: MutationReport): string {
  const c = r.counts;
  const out = [
    '# Mutation testing of the reference',
    '',
    `\`${r.command}\` · Stryker ${r.stryker} · seed ${r.seed} · ${r.mutants.length} of ${r.population} mutants in ${r.files} files (${r.faultCode} in fault code left out) · concurrency ${r.concurrency} · ${minutes(r.durationMs)}`,
    '',
    `**Score: ${pct(r.score)}** = detected ${c.killed + c.timeout} (killed ${c.killed}, timed out ${c.timeout}) / (run ${c.killed + c.timeout + c.survived} − equivalent ${c.equivalent})`,
    '',
    `Killed by the CLI's exit code: ${Object.entries(r.killedByExit).sort().map(([k, n]) => `${k === '1' ? 'a failing check' : k === '3' ? 'harness error' : k === '4' ? 'inconclusive' : `exit ${k}`} ${n}`).join(', ') || 'none'}.`,
    '',
    `Survivors: ${c.survived} — equivalent ${c.equivalent}, unobservable ${c.unobservable}, open ${c.open}, closed ${c.closed}, untriaged ${c.untriaged}.${c.error > 0 ? ` Not run (Stryker error): ${c.error}.` : ''}`,
    '',
    '| API run | mutants | time |',
    '|---|---|---|',
    ...r.groups.map((g) => `| ${g.api} | ${g.mutants} | ${minutes(g.durationMs)} |`),
  ];
  if (r.regressions.length > 0) out.push('', `## Closed in the triage, yet surviving (${r.regressions.length})`, '', ...r.regressions.map((s) => `- ${s.file}:${s.line} ${s.mutator} (${s.relation ?? ''})`));
  out.push('', `## Survivors (${r.survivors.length})`);
  for (const s of r.survivors) {
    out.push('', `### ${s.file}:${s.line} · ${s.mutator} · ${s.triage}${s.relation !== undefined ? ` · ${s.relation}` : ''}`, '');
    if (s.reason !== undefined) out.push(s.reason, '');
    out.push('```diff', s.diff, '```', '', `key: \`${s.context}\` · \`${s.original}\` → \`${s.replacement}\``);
  }
  if (r.errors.length > 0) out.push('', `## Not run (${r.errors.length})`, '', ...r.errors.map((e) => `- ${e.file}:${e.line} ${e.mutator}: ${e.detail}`));
  return `${out.join('\n')}\n`;
}
