/**
 * Quick results with and without `--concurrency` agree (issue 16): for each seed and each reference
 * fault (and the correct reference), the quick profile runs twice against the same kind of target —
 * the reference behind the 0 ms proxy of bench/latency.ts, so it is a configured target — once with
 * `--concurrency 1` (one worker, one property run at a time) and once with the default for a
 * configured target (8 workers, 8 property runs and fuzz sequences in flight). The two runs must make
 * the same findings: the same set of (check, requirement, finding code, severity).
 *
 * A fault's runs test only its API (`--api gateway|partner`, from the `gw-`/`pt-` prefix): the other
 * API cannot show it, and the runs take half the time. The correct reference runs both.
 *
 * `npm run bench -- --only agreement [--seeds 1,2] [--faults a,b]` (opt-in: not part of the default
 * sections; each case is two quick-profile runs).
 */
import { runAtLatency } from './latency.js';

/** Faults whose findings depend on concurrency if anything does: races, idempotency, ledger windows. */
export const AGREEMENT_FAULTS = [
  'pt-pay-race-double-effects',
  'pt-pay-not-atomic',
  'pt-available-balance-doubled',
  'pt-idempotency-ignored',
  'gw-pixin-pay-race-double-credit',
  'gw-idempotency-race-creates-two',
  'gw-pixout-complete-race-double-debit',
] as const;

export interface AgreementCase {
  seed: number;
  /** '' for the correct reference */
  fault: string;
  /** `--api` of both runs ('both' for the correct reference) */
  api: 'gateway' | 'partner' | 'both';
  sequentialMs: number;
  concurrentMs: number;
  /** distinct findings of each run */
  sequentialFindings: number;
  concurrentFindings: number;
  /** both runs wrote a report and made the same findings */
  agree: boolean;
  /** `check | requirement | code | severity` found only with --concurrency 1 */
  onlySequential: string[];
  /** … found only with the default concurrency */
  onlyConcurrent: string[];
  note?: string;
}

export interface AgreementResult {
  seeds: number[];
  faults: string[];
  cases: AgreementCase[];
  /** every case agrees */
  allAgree: boolean;
}

/** The distinct findings of one conformance.json: `check | requirement | code | severity`, plus harness errors. */
export function findingKeys(report: unknown): Set<string> {
  const keys = new Set<string>();
  const checks = typeof report === 'object' && report !== null && 'checks' in report && Array.isArray(report.checks) ? (report.checks as unknown[]) : [];
  for (const c of checks) {
    if (typeof c !== 'object' || c === null) continue;
    const check = c as Record<string, unknown>;
    const id = String(check.check);
    for (const [list, severity] of [[check.failures, 'failure'], [check.warnings, 'warning']] as const) {
      if (!Array.isArray(list)) continue;
      for (const f of list as unknown[]) {
        if (typeof f !== 'object' || f === null) continue;
        const finding = f as Record<string, unknown>;
        const requirements = Array.isArray(finding.requirements) && finding.requirements.length > 0 ? (finding.requirements as unknown[]).map(String) : ['-'];
        for (const r of requirements) keys.add(`${id} | ${r} | ${String(finding.code)} | ${severity}`);
      }
    }
    if (check.state === 'error' || check.state === 'inconclusive') keys.add(`${id} | - | ${String(check.state)} | -`);
  }
  return keys;
}

function apiOf(fault: string): AgreementCase['api'] {
  return fault.startsWith('gw-') ? 'gateway' : fault.startsWith('pt-') ? 'partner' : 'both';
}

export async function measureAgreement(options: { seeds: number[]; faults: readonly string[]; timeoutMs: number; log?: (text: string) => void }): Promise<AgreementResult> {
  const cases: AgreementCase[] = [];
  for (const seed of options.seeds) {
    for (const fault of ['', ...options.faults]) {
      const api = apiOf(fault);
      const apiFlags = api === 'both' ? [] : ['--api', api];
      options.log?.(`agreement: seed ${seed}, ${fault || 'correct reference'}: --concurrency 1…`);
      const sequential = await runAtLatency(0, { seed, flags: ['--concurrency', '1', ...apiFlags], timeoutMs: options.timeoutMs, faults: fault });
      options.log?.(`agreement: seed ${seed}, ${fault || 'correct reference'}: default concurrency…`);
      const concurrent = await runAtLatency(0, { seed, flags: apiFlags, timeoutMs: options.timeoutMs, faults: fault });
      const a = findingKeys(sequential.report);
      const b = findingKeys(concurrent.report);
      const onlySequential = [...a].filter((k) => !b.has(k)).sort();
      const onlyConcurrent = [...b].filter((k) => !a.has(k)).sort();
      const missing = [sequential, concurrent].filter((r) => !r.report).map((r) => r.note ?? 'no report');
      cases.push({
        seed,
        fault,
        api,
        sequentialMs: sequential.wallMs,
        concurrentMs: concurrent.wallMs,
        sequentialFindings: a.size,
        concurrentFindings: b.size,
        agree: missing.length === 0 && onlySequential.length === 0 && onlyConcurrent.length === 0,
        onlySequential,
        onlyConcurrent,
        ...(missing.length > 0 && { note: missing.join('; ').slice(0, 400) }),
      });
      const last = cases[cases.length - 1];
      options.log?.(`agreement: seed ${seed}, ${fault || 'correct reference'}: ${last?.agree ? 'agree' : 'DIFFER'} (${a.size} / ${b.size} findings)`);
    }
  }
  return { seeds: options.seeds, faults: [...options.faults], cases, allAgree: cases.every((c) => c.agree) };
}
