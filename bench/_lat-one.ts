import { runAtLatency } from './latency.js';
const ms = Number(process.argv[2] ?? 100);
const dir = process.argv[3] ?? '/tmp/lat-rep';
const flags = process.argv.slice(4);
const t0 = Date.now();
const { report, ...row } = await runAtLatency(ms, { seed: 1, flags, timeoutMs: 300_000, reportsDir: dir });
console.log(JSON.stringify({ t0, wall: row.wallMs, inflight: row.meanInFlight, crit: row.criticalPathMs, checkTime: row.checkTimeMs, failing: row.failing, warned: row.warned, summary: [row.checks, row.passed, row.failed, row.warnings, row.notRun] }));
