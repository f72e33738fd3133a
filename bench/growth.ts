/**
 * Cost growth: wall time of one property-based suite file (a direct vitest run, the embedded
 * reference included) at PAYGATE_RUNS = 10, 100, 1000 runs per property. It should be linear with
 * a small constant: the least-squares slope is the cost of one run of every property in the file,
 * the intercept the fixed cost (process, vitest, reference start-up). Bounded: a run that outlives
 * its time limit ends the series (larger counts are not attempted).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linearFit, round } from './load.js';
import { ROOT, timedRun, vitestArgs } from './process.js';

export interface GrowthPoint {
  runs: number;
  wallMs: number;
  requests: number;
  checks: number;
  exitCode: number | null;
  timedOut: boolean;
}

export interface GrowthResult {
  file?: string;
  available: boolean;
  points: GrowthPoint[];
  /** ms per run (per property × properties in the file) */
  slopeMsPerRun?: number;
  interceptMs?: number;
  r2?: number;
  /** requests per run, from conformance.json */
  requestsPerRun?: number;
  note?: string;
}

/** Default representative file: suites/gateway/pix-charges.test.ts when present, else the first property-based suite file. */
export function pickGrowthFile(): string | undefined {
  const preferred = join('suites', 'gateway', 'pix-charges.test.ts');
  if (existsSync(join(ROOT, preferred))) return preferred;
  for (const api of ['gateway', 'partner']) {
    const dir = join(ROOT, 'suites', api);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.test.ts') || name.startsWith('fuzz-model')) continue;
      const text = readFileSync(join(dir, name), 'utf8');
      if (/\.property\(|fc\.assert|test\.prop/.test(text)) return join('suites', api, name);
    }
  }
  return undefined;
}

export async function measureGrowth(options: { file?: string; runs: number[]; timeoutMsPerRun: number }): Promise<GrowthResult> {
  const file = options.file ?? pickGrowthFile();
  if (!file || !existsSync(join(ROOT, file))) return { available: false, points: [], note: 'not available (no property-based suite file)' };
  const api = file.includes(`${join('suites', 'partner')}`) ? 'partner' : 'gateway';
  const points: GrowthPoint[] = [];
  let note: string | undefined;
  for (const runs of options.runs) {
    const sofar = points.filter((p) => !p.timedOut);
    if (sofar.length >= 2) {
      // bounded: do not start a run the points so far predict to outlive its limit
      const f = linearFit(sofar.map((p) => ({ x: p.runs, y: p.wallMs })));
      const predicted = f.intercept + f.slope * runs;
      if (predicted > options.timeoutMsPerRun) {
        note = `PAYGATE_RUNS=${runs} not run: predicted ${Math.round(predicted / 1000)} s > the ${Math.round(options.timeoutMsPerRun / 1000)} s limit`;
        break;
      }
    }
    const r = await timedRun({
      args: vitestArgs([file]),
      env: { PAYGATE_PROFILE: 'quick', PAYGATE_RUNS: String(runs), PAYGATE_SEED: '7', PAYGATE_API: api },
      timeoutMs: options.timeoutMsPerRun,
    });
    points.push({ runs, wallMs: r.wallMs, requests: r.report?.summary?.requests ?? 0, checks: r.report?.summary?.checks ?? 0, exitCode: r.exitCode, timedOut: r.timedOut });
    if (r.timedOut) {
      note = `PAYGATE_RUNS=${runs} outlived ${options.timeoutMsPerRun} ms: larger counts not run`;
      break;
    }
  }
  const done = points.filter((p) => !p.timedOut);
  const fit = linearFit(done.map((p) => ({ x: p.runs, y: p.wallMs })));
  const req = linearFit(done.map((p) => ({ x: p.runs, y: p.requests })));
  const out: GrowthResult = {
    file,
    available: true,
    points,
    slopeMsPerRun: round(fit.slope, 2),
    interceptMs: round(fit.intercept, 0),
    r2: round(fit.r2, 4),
    requestsPerRun: round(req.slope, 1),
  };
  const failing = points.filter((p) => p.exitCode !== 0 && !p.timedOut);
  if (failing.length) note = [note, `exit ${failing.map((p) => p.exitCode).join('/')} at runs ${failing.map((p) => p.runs).join('/')} (findings or harness errors)`].filter(Boolean).join('; ');
  if (note) out.note = note;
  return out;
}
