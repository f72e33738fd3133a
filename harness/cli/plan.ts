/**
 * What a run will cost, announced before it starts: checks, requests, the rate cap and an
 * estimated duration (certify at 5 req/s takes a while; a certifier must know before starting).
 *
 * The figures come from harness/cli/plan-baseline.json: every check of the suites with the requests
 * it made against the embedded reference in the quick profile and with `--runs 32` (the full and
 * certify property runs), regenerated from two runs' conformance.json by
 * `tsx harness/cli/plan.ts <quick conformance.json> <runs-32 conformance.json>`. They are estimates:
 * a real target takes other branches (retries after 429, fewer charges to list…).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { CliOptions } from './args.js';
import { effectiveMaxRps } from './args.js';

export interface PlannedCheck {
  id: string;
  api: 'gateway' | 'partner';
  title: string;
  /** quick: runs in every profile; timer: full and certify; certify: certify only */
  tier: 'quick' | 'timer' | 'certify';
  /** requests in the quick profile (0 for timer/certify checks: not measured) */
  quick: number;
  /** requests with the full/certify property runs */
  full: number;
}

export interface PlanBaseline {
  note: string;
  checks: PlannedCheck[];
}

export interface RunPlan {
  checks: number;
  requests: number;
  /** checks that wait for contract timers (full, certify) */
  timerChecks: number;
  /** total rate cap, if any */
  maxRps?: number;
  /** requests / cap, when capped */
  seconds?: number;
}

/** Requests assumed for a check the baseline could not measure (timer and certify-only checks). */
const UNMEASURED_REQUESTS = 10;

const BASELINE_URL = new URL('./plan-baseline.json', import.meta.url);

export function loadBaseline(): PlanBaseline | undefined {
  try {
    return JSON.parse(readFileSync(BASELINE_URL, 'utf8')) as PlanBaseline;
  } catch {
    return undefined;
  }
}

/** The plan of a run with these options (undefined without a baseline); `ids`: a selection's checks. */
export function planRun(options: Pick<CliOptions, 'profile' | 'api' | 'grep' | 'maxRps' | 'shard' | 'runs'> & { ids?: ReadonlySet<string> }, baseline: PlanBaseline | undefined = loadBaseline()): RunPlan | undefined {
  if (baseline === undefined) return undefined;
  const ids = options.ids;
  const selected = baseline.checks.filter(
    (c) =>
      (options.api === 'both' || options.api === c.api) &&
      (ids !== undefined ? ids.has(c.id) : options.grep === undefined || c.title.includes(options.grep) || c.id.includes(options.grep)) &&
      (c.tier === 'quick' || (c.tier === 'timer' && options.profile !== 'quick') || (c.tier === 'certify' && options.profile === 'certify')),
  );
  const share = options.shard !== undefined ? 1 / options.shard.count : 1;
  let requests = 0;
  for (const c of selected) {
    if (c.tier !== 'quick') requests += UNMEASURED_REQUESTS;
    else if (options.runs !== undefined) requests += c.quick + ((c.full - c.quick) * (options.runs - 8)) / 24; // quick ≈ 8 runs, full ≈ 32
    else requests += options.profile === 'quick' ? c.quick : c.full;
  }
  const plan: RunPlan = {
    checks: Math.round(selected.length * share),
    requests: Math.round(Math.max(0, requests) * share),
    timerChecks: Math.round(selected.filter((c) => c.tier === 'timer').length * share),
  };
  const rps = effectiveMaxRps(options);
  if (rps !== undefined) {
    plan.maxRps = rps;
    plan.seconds = plan.requests / rps;
  }
  return plan;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** `plan: ~140 checks, ~5200 requests at most 5 req/s → about 17 min (+ timer waits …)` */
export function describePlan(plan: RunPlan): string {
  const parts = [`plan: ~${plan.checks} checks, ~${plan.requests} requests`];
  if (plan.maxRps !== undefined && plan.seconds !== undefined) parts.push(` at most ${plan.maxRps} req/s → about ${duration(plan.seconds)}`);
  if (plan.timerChecks > 0) parts.push(`; ${plan.timerChecks} check${plan.timerChecks === 1 ? '' : 's'} also wait${plan.timerChecks === 1 ? 's' : ''} for contract timers (token/charge expiry, webhook redelivery backoff: minutes, side by side)`);
  return `${parts.join('')} (estimated from the embedded reference)`;
}

/** Builds the baseline from two conformance.json files (quick, and `--runs 32`). */
function buildBaseline(quickPath: string, fullPath: string): PlanBaseline {
  interface Row {
    check: string;
    api?: 'gateway' | 'partner';
    title?: string;
    name: string;
    state: string;
    notRun?: string;
    requests: number;
  }
  const read = (path: string): Row[] => (JSON.parse(readFileSync(path, 'utf8')) as { checks: Row[] }).checks;
  const full = new Map(read(fullPath).map((c) => [c.check, c]));
  const checks: PlannedCheck[] = [];
  for (const c of read(quickPath)) {
    if (c.api === undefined) continue;
    const tier: PlannedCheck['tier'] = c.state !== 'not-run' ? 'quick' : /timer/.test(c.notRun ?? '') ? 'timer' : /certify/.test(c.notRun ?? '') ? 'certify' : 'quick';
    checks.push({ id: c.check, api: c.api, title: c.title ?? c.name, tier, quick: c.requests, full: Math.max(c.requests, full.get(c.check)?.requests ?? c.requests) });
  }
  return { note: 'requests per check against the embedded reference (quick profile; full = --runs 32); regenerate with `tsx harness/cli/plan.ts <quick conformance.json> <runs-32 conformance.json>`', checks };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [quick, full] = process.argv.slice(2);
  if (quick === undefined || full === undefined) {
    console.error('usage: tsx harness/cli/plan.ts <quick conformance.json> <runs-32 conformance.json>');
    process.exit(2);
  }
  writeFileSync(BASELINE_URL, `${JSON.stringify(buildBaseline(quick, full), null, 1)}\n`);
  console.log(`wrote ${BASELINE_URL.pathname}`);
}
