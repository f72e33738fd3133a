/**
 * One quick-profile run behind the delaying proxies (bench/latency.ts), keeping its reports: for
 * looking at where a latency run spends its time (conformance.json `checks[]`: durationMs,
 * requests, laneWaitMs; allure-results: each check's start and stop per worker; lane-trace.jsonl:
 * every lane hold, read by `npx tsx bench/lane-trace.ts <reports dir> <added ms>`).
 *
 *   npx tsx bench/latency-one.ts <added ms> <reports dir> [CLI flags…]
 *   e.g. npx tsx bench/latency-one.ts 100 /tmp/lat100 --api partner
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runAtLatency } from './latency.js';

const addedMs = Number(process.argv[2] ?? 100);
const reportsDir = process.argv[3] ?? 'reports/latency-one';
const flags = process.argv.slice(4);
const laneTrace = join(reportsDir, 'lane-trace.jsonl');
mkdirSync(reportsDir, { recursive: true });
rmSync(laneTrace, { force: true });
const { report, ...row } = await runAtLatency(addedMs, { seed: 1, flags, timeoutMs: 300_000, reportsDir, laneTrace });
// the run wrote its reports to reportsDir, not to the temporary directory the bench reads
const file = join(reportsDir, 'conformance.json');
const s: unknown = report?.summary ?? (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { summary?: unknown }).summary : undefined);
console.log(JSON.stringify({ addedMs, wallMs: row.wallMs, meanInFlight: row.meanInFlight, reportsDir, summary: s, failing: row.failing, warned: row.warned, note: row.note }));
