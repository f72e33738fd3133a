/** Renders reports/bench.json as plain-text tables for the terminal. */
import type { BenchReport } from './report.js';

function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const s = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
const opt = (v: number | string | undefined): string => (v === undefined ? '-' : String(v));

export function renderReport(report: BenchReport): string {
  const out: string[] = [];
  out.push(
    `paygate-conformance bench · ${report.startedAt} · ${report.machine.cpus} CPU(s) · node ${report.machine.node} · load ${report.machine.loadBefore.join('/')} → ${report.machine.loadAfter.join('/')}`,
    `reference: ${report.reference}. ${report.caveat}`,
    '',
  );
  const f = report.figures;
  if (f) {
    const ms = (x: number | undefined): string => (x === undefined ? '?' : `${(x / 1000).toFixed(2)} s`);
    out.push(
      `Figures: first request ${ms(f.startToFirstRequestMs)} (goal ≤ 2 s) · quick median of ${f.quickRuns ?? 0} ${ms(f.quickMedianMs)} (goal ≤ 10 s) · 200 ms/0 ms ${f.latency200Ratio ?? '?'}× (goal ≤ 1.5) · overhead ${(f.overhead ?? []).map((x) => `${Math.round(x.ratio * 100)} %`).join('/') || '?'} (goal ≥ 80 %) · npm test ${ms(f.npmTestMs)}${f.npmTestSource === 'given' ? ' (given)' : ''} (goal ≤ 8 min) · load ${f.load.before.join('/')} → ${f.load.after.join('/')}`,
      '',
    );
  }
  const nt = report.npmTest;
  if (nt) {
    out.push(`npm test: ${s(nt.wallMs)} (${nt.source}${nt.exitCode !== undefined ? `, exit ${String(nt.exitCode)}` : ''}; goal ≤ ${s(nt.goalMs)})${nt.load ? ` · load ${nt.load.before.join('/')} → ${nt.load.after.join('/')}` : ''}${nt.note !== undefined ? ` · ${nt.note}` : ''}`);
    if (nt.steps) out.push(table(['step', 'wall', 'exit'], nt.steps.map((x) => [x.name, s(x.ms), x.exitCode ?? '?'])));
    if (nt.slowestFiles && nt.slowestFiles.length > 0) out.push(table(['slowest test files', 'duration'], nt.slowestFiles.map((x) => [x.file, s(x.ms)])));
    out.push('');
  }
  const su = report.startup;
  if (su) {
    out.push(`Start-up and quick profile (${su.flags.join(' ')}; as npm run conformance)`);
    out.push(table(['run', 'first request ms', 'wall ms', 'exit', 'checks', 'failed', 'requests', 'load'], su.runs.map((r, i) => [i + 1, r.firstRequestMs ?? '?', r.wallMs, r.exitCode ?? '?', r.checks ?? '?', r.failed ?? '?', r.requests ?? '?', r.load])), '');
  }
  const o = report.overhead;
  if (o) {
    out.push(`Harness overhead (goal: harness ≥ ${Math.round(o.goal * 100)} % of raw undici) — ${o.meetsGoal ? 'MET' : `NOT MET (worst ${Math.round(o.worstRatio * 100)} %)`}`);
    out.push(
      table(
        ['endpoint', 'conc', 'raw req/s', 'harness req/s', 'ratio', 'raw CPU µs/req', 'harness CPU µs/req', 'errors'],
        o.rows.map((r) => [`GET ${r.path}`, r.concurrency, r.rawRps, r.harnessRps, `${Math.round(r.ratio * 100)} %`, r.rawCpuUsPerRequest, r.harnessCpuUsPerRequest, r.errors]),
      ),
      '',
    );
  }
  for (const st of report.stages ?? []) {
    out.push(`Per-request stages, ${st.operation} (${st.responseBytes} B body): ~${st.perRequestUs} µs/request`);
    out.push(table(['stage', 'µs/call'], st.stages.map((x) => [x.stage, x.usPerCall])), '');
  }
  if (report.throughput) {
    out.push('Reference throughput (raw undici client)');
    out.push(table(['case', 'conc', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors'], report.throughput.map((r) => [r.case, r.concurrency, r.rps, r.latencyP50Ms, r.latencyP99Ms, r.requests, r.errors])), '');
  }
  if (report.suite) {
    out.push('Suite wall time (CLI, process start to exit; quick goal < 60 s)');
    out.push(
      table(
        ['profile', 'wall', 'exit', 'checks', 'passed', 'failed', 'warn', 'not run', 'errors', 'requests', 'note'],
        report.suite.map((r) =>
          r.measured
            ? [r.profile, s(r.wallMs), opt(r.exitCode ?? undefined), opt(r.checks), opt(r.passed), opt(r.failed), opt(r.warnings), opt(r.notRun), opt(r.harnessErrors), opt(r.requests), r.note ?? (r.meetsGoal === undefined ? '' : r.meetsGoal ? 'goal met' : 'GOAL NOT MET')]
            : [r.profile, 'not measured', '', '', '', '', '', '', '', '', r.note ?? ''],
        ),
      ),
    );
    for (const r of report.suite) {
      if (r.slowestFiles?.length) out.push(`slowest ${r.profile} files: ${r.slowestFiles.map((f) => `${f.file} ${f.seconds.toFixed(1)} s`).join(', ')}`);
    }
    out.push('');
  }
  const l = report.latency;
  if (l) {
    const at = l.rows.find((r) => r.addedMs === l.goal.atMs);
    const verdict = l.meetsGoal === undefined ? 'goal not judged (needs the 0 and 100 ms rows)' : l.meetsGoal ? 'goal MET' : 'GOAL NOT MET';
    out.push(
      `Quick profile with added latency (delaying proxy; seed ${l.seed}${l.flags.length ? `; ${l.flags.join(' ')}` : ''}; goal: at +${l.goal.atMs} ms ≤ ${l.goal.ratio}× the 0 ms wall and < ${l.goal.maxMs / 1000} s) — ${verdict}${at?.ratio !== undefined ? ` (${at.ratio}×)` : ''}${l.sameVerdicts === false ? ' — FAILING CHECKS DIFFER BETWEEN ROWS' : ''}`,
    );
    out.push(
      table(
        ['added', 'wall', 'ratio', 'exit', 'checks', 'passed', 'failed', 'not run', 'requests', 'in flight max', 'in flight mean', 'note'],
        l.rows.map((r) => [`${r.addedMs} ms`, s(r.wallMs), opt(r.ratio), opt(r.exitCode ?? undefined), opt(r.checks), opt(r.passed), opt(r.failed), opt(r.notRun), opt(r.requests), r.maxInFlight, r.meanInFlight, r.note ?? '']),
      ),
    );
    for (const r of l.rows) {
      if (r.criticalPathMs === undefined) continue;
      const items = (xs: { name: string; ms: number; requests: number }[] = []): string => xs.map((x) => `${x.name} ${s(x.ms)} (${x.requests} req)`).join(', ');
      out.push(`+${r.addedMs} ms: critical path ${s(r.criticalPathMs)}, check time ${s(r.checkTimeMs)}; slowest files: ${items(r.slowestFiles?.slice(0, 4))}`);
      out.push(`+${r.addedMs} ms: slowest checks: ${items(r.slowestChecks?.slice(0, 5))}`);
    }
    out.push('');
  }
  if (report.mutation) {
    const m = report.mutation;
    out.push(`Mutation testing (npm run mutation, ${m.sample} mutants, seed ${m.seed}): score ${m.score === null ? 'n/a' : `${(m.score * 100).toFixed(1)} %`} in ${s(m.wallMs)}${m.counts ? ` (${Object.entries(m.counts).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}${m.note ? `; ${m.note}` : ''} · ${m.report}`, '');
  }
  const agreement = report.agreement;
  if (agreement) {
    const g = agreement;
    out.push(`Quick profile with --concurrency 1 and with the default (8): same findings — ${g.allAgree ? 'ALL AGREE' : 'DIFFERENCES'} (seeds ${g.seeds.join(', ')})`);
    out.push(
      table(
        ['seed', 'fault', 'api', 'wall (1)', 'wall (8)', 'findings (1)', 'findings (8)', 'agree', 'difference'],
        g.cases.map((c) => [c.seed, c.fault || '(correct)', c.api, s(c.sequentialMs), s(c.concurrentMs), c.sequentialFindings, c.concurrentFindings, c.agree ? 'yes' : 'NO', [...c.onlySequential.map((k) => `only 1: ${k}`), ...c.onlyConcurrent.map((k) => `only 8: ${k}`), c.note ?? ''].filter(Boolean).join('; ').slice(0, 300)]),
      ),
      '',
    );
  }
  if (report.fuzz) {
    out.push('Fuzzer (suites/<api>/fuzz-model.test.ts, direct vitest runs)');
    out.push(
      table(
        ['api', 'sequences/s', 'requests/seq', 'start-up', 'note'],
        report.fuzz.rates.map((r) => [r.api, r.available ? opt(r.sequencesPerSecond) : 'not available', opt(r.requestsPerSequence), s(r.startupMs), r.note ?? '']),
      ),
      '',
    );
    if (report.fuzz.faults.length) {
      out.push(
        table(
          ['fault', 'detected', 'median wall', 'median requests', 'seq to 1st failure', 'est. time to 1st', 'est. requests to 1st', 'note'],
          report.fuzz.faults.map((f) => [
            f.fault,
            f.available ? `${f.detected}/${f.attempts.length}` : 'n/a',
            s(f.medianWallMs),
            opt(f.medianRequests),
            opt(f.medianSequencesToFailure),
            s(f.estimatedMsToFirstFailure),
            opt(f.estimatedRequestsToFirstFailure),
            f.note ?? '',
          ]),
        ),
      );
    }
    if (report.fuzz.skipped.length) out.push(`not run (time budget spent): ${report.fuzz.skipped.join(', ')}`);
    out.push('');
  }
  const g = report.growth;
  if (g) {
    out.push(`Cost growth: ${g.available ? g.file : 'not available'}${g.available ? ` — slope ${g.slopeMsPerRun} ms/run, intercept ${s(g.interceptMs)}, r² ${g.r2}, ${g.requestsPerRun} requests/run` : ''}`);
    if (g.points.length) out.push(table(['PAYGATE_RUNS', 'wall', 'requests', 'checks', 'exit'], g.points.map((p) => [p.runs, p.timedOut ? 'timed out' : s(p.wallMs), p.requests, p.checks, opt(p.exitCode ?? undefined)])));
    if (g.note) out.push(g.note);
    out.push('');
  }
  out.push(`total bench time ${s(report.totalMs)} · written to ${report.outputPath}`);
  return out.join('\n');
}
