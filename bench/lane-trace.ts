/**
 * Where a latency run's time went on the quiet-account lanes: reads a run's lane trace
 * (lane-trace.jsonl, written when PAYGATE_LANE_TRACE is set: bench/latency-one.ts sets it) and its
 * allure results (each check's start and stop), and prints load-independent figures:
 *
 * - per lane, the exclusive holds: their sum, and per check how many, how long (in round trips of
 *   the added delay) and how long each waited for its grant;
 * - the model fuzzers' sibling lanes: measurements (hold until settled, and whole), moves, waits;
 * - per check of the longest files, its span and what other checks held exclusively meanwhile.
 *
 *   npx tsx bench/lane-trace.ts <reports dir> [added ms]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaneTraceEntry } from '../harness/run/lane.js';

const dir = process.argv[2] ?? 'reports/latency-one';
const addedMs = Number(process.argv[3] ?? 200);
const entries = readFileSync(join(dir, 'lane-trace.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as LaneTraceEntry);

interface CheckSpan {
  id: string;
  thread: string;
  start: number;
  stop: number;
}
const spans: CheckSpan[] = [];
const results = join(dir, 'allure-results');
for (const f of readdirSync(results)) {
  if (!f.endsWith('-result.json')) continue;
  const j = JSON.parse(readFileSync(join(results, f), 'utf8')) as { start: number; stop: number; labels: { name: string; value: string }[] };
  const label = (n: string): string => j.labels.find((l) => l.name === n)?.value ?? '?';
  spans.push({ id: label('checkId'), thread: label('thread'), start: j.start, stop: j.stop });
}
const t0 = Math.min(...spans.map((s) => s.start));
const t1 = Math.max(...spans.map((s) => s.stop));
const sec = (ms: number): string => (ms / 1000).toFixed(1);
const rt = (ms: number): string => (addedMs > 0 ? (ms / addedMs).toFixed(1) : '-');
console.log(`checks ${spans.length}, first start → last stop ${sec(t1 - t0)} s (added ${addedMs} ms per request)`);

// exclusive holds per lane
const lanes = new Map<string, LaneTraceEntry[]>();
for (const e of entries) if (e.mode === 'exclusive' && e.grantedMs !== undefined) lanes.set(e.lane, [...(lanes.get(e.lane) ?? []), e]);
for (const [lane, list] of [...lanes].sort()) {
  const held = (e: LaneTraceEntry): number => (e.settledMs ?? e.endedMs) - (e.grantedMs ?? e.endedMs);
  const total = list.reduce((n, e) => n + held(e), 0);
  console.log(`\nlane ${lane}: ${list.length} exclusive hold(s), ${sec(total)} s held (${rt(total)} RT)${lane === 'siblings' ? ' until settled' : ''}`);
  const byWho = new Map<string, { n: number; held: number; waited: number; whole: number; max: number }>();
  for (const e of list) {
    const w = byWho.get(e.who ?? '?') ?? { n: 0, held: 0, waited: 0, whole: 0, max: 0 };
    w.n++;
    w.held += held(e);
    w.max = Math.max(w.max, held(e));
    w.whole += e.endedMs - (e.grantedMs ?? e.endedMs);
    w.waited += (e.grantedMs ?? e.endedMs) - e.askedMs;
    byWho.set(e.who ?? '?', w);
  }
  for (const [who, w] of [...byWho].sort((a, b) => b[1].held - a[1].held)) {
    console.log(`  ${who.padEnd(44)} ${String(w.n).padStart(3)}× held ${sec(w.held).padStart(5)} s (${rt(w.held / w.n)} RT each, max ${rt(w.max)})${lane === 'siblings' ? `, whole ${sec(w.whole)} s` : ''}, waited ${sec(w.waited)} s`);
  }
}
const moves = entries.filter((e) => e.lane === 'siblings' && e.mode === 'shared');
for (const who of new Set(moves.map((e) => e.who))) {
  const mine = moves.filter((e) => e.who === who);
  console.log(`siblings moves ${who}: ${mine.length}, waited ${sec(mine.reduce((n, e) => n + (e.grantedMs ?? 0) - e.askedMs, 0))} s`);
}

// the longest checks: what other checks held exclusively on the run lanes while they ran
const run = [...lanes].filter(([l]) => l !== 'siblings').flatMap(([, l]) => l);
console.log('\nlongest checks (start, stop s from the first start; others\' exclusive time overlapping, per lane)');
for (const s of [...spans].sort((a, b) => b.stop - b.start - (a.stop - a.start)).slice(0, 12)) {
  const over = new Map<string, number>();
  for (const e of run) {
    if (e.who === s.id) continue;
    const ms = Math.min(e.endedMs, s.stop) - Math.max(e.grantedMs ?? e.endedMs, s.start);
    if (ms > 0) over.set(e.lane, (over.get(e.lane) ?? 0) + ms);
  }
  const text = [...over].map(([l, ms]) => `${l} ${sec(ms)}`).join(', ');
  console.log(`  ${s.id.padEnd(44)} ${sec(s.start - t0).padStart(5)} → ${sec(s.stop - t0).padStart(5)} (${sec(s.stop - s.start)} s, ${s.thread})  ${text}`);
}
