// Sharded runs: each shard's fragment merges into one conformance report.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import type { Requirement } from '../harness/contract/requirements.js';
import { fragmentFiles, mergeFragments, mergeProblems, readFragments } from '../harness/report/merge.js';
import { exitCodeFor } from '../harness/report/verdict.js';
import type { VerdictFragment } from '../harness/report/verdict-reporter.js';
import type { CheckRecord, RunInfo } from '../harness/report/verdict.js';
import { reported } from './report-fixtures.js';
import { conformanceCli } from './fault-matrix/runner.js';

const catalogue: Requirement[] = [
  { id: 'GW-A', api: 'gateway', section: 's', quote: 'q', kind: 'checkable' },
  { id: 'PT-B', api: 'partner', section: 's', quote: 'q', kind: 'checkable' },
];

const runInfo = (startedAt: string, durationMs: number): RunInfo => ({
  version: '0.1.0',
  profile: 'quick',
  seed: 9,
  startedAt,
  durationMs,
  targets: { gateway: 'http://127.0.0.1:1', partner: 'http://127.0.0.1:2/v1' },
  strict: false,
  embedded: true,
  notTested: {},
});

const check = (id: string, requirement: string, state: CheckRecord['state'], requests: number): CheckRecord => ({
  check: id,
  name: id,
  file: 'suites/x.test.ts',
  api: requirement.startsWith('PT') ? 'partner' : 'gateway',
  requirements: [requirement],
  state,
  failures: state === 'failed' ? [reported('c', [requirement], { title: 't', expected: 'e', actual: 'a', curl: [] })] : [],
  warnings: [],
  requests,
  durationMs: 1,
  evaluations: { [requirement]: { evaluations: 1, failed: state === 'failed' ? 1 : 0, warned: 0 } },
});

const fragments: VerdictFragment[] = [
  { kind: 'paygate-verdict-fragment', shard: { index: 1, count: 2 }, run: runInfo('2026-11-23T10:00:00.000Z', 1000), checks: [check('g1', 'GW-A', 'passed', 2)] },
  { kind: 'paygate-verdict-fragment', shard: { index: 2, count: 2 }, run: runInfo('2026-11-23T10:00:00.500Z', 2000), checks: [check('p1', 'PT-B', 'failed', 3), check('g2', 'GW-A', 'passed', 1)] },
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('mergeFragments', () => {
  test('unions checks and spans the run', () => {
    const { report, problems } = mergeFragments(fragments, catalogue);
    expect(problems).toEqual([]);
    expect(report.summary).toMatchObject({ passed: 2, failed: 1, requests: 6, checks: 3 });
    expect(report.startedAt).toBe('2026-11-23T10:00:00.000Z');
    expect(report.durationMs).toBe(2500);
    expect(report.shard).toBeUndefined();
    expect(report.requirements).toEqual([
      expect.objectContaining({ id: 'GW-A', verdict: 'pass', checks: ['g1', 'g2'], evaluations: 2 }),
      expect.objectContaining({ id: 'PT-B', verdict: 'fail', checks: ['p1'] }),
    ]);
  });

  test('names missing, duplicated and mismatched shards; a merge with any of them is PARTIAL', () => {
    const [first, second] = fragments;
    if (first === undefined || second === undefined) throw new Error('fixture');
    expect(mergeProblems([second])).toEqual({ incomplete: ['shard 1/2 is missing'], mismatched: [] });
    expect(mergeProblems([first, first, second]).incomplete).toEqual(['shard 1/2 appears more than once']);
    const other = (over: Partial<RunInfo>) => ({ ...second, run: { ...second.run, ...over } });
    expect(mergeProblems([first, other({ seed: 10 })]).mismatched).toEqual(['fragments disagree on the seed: 9 vs 10']);
    expect(mergeProblems([first, other({ version: '0.2.0' })]).mismatched).toEqual(['fragments disagree on the tool version: "0.1.0" vs "0.2.0"']);
    expect(mergeProblems([first, other({ profile: 'full' })]).mismatched).toEqual(['fragments disagree on the profile: "quick" vs "full"']);
    expect(mergeProblems([first, other({ embedded: false })]).mismatched[0]).toMatch(/^fragments disagree on the target/);
    const passing = { ...second, checks: [check('g2', 'GW-A', 'passed', 1)] };
    const { report } = mergeFragments([passing], catalogue);
    expect(report.verdict).toBe('partial');
    expect(report.merge).toEqual({ shards: [2], count: 2, problems: ['shard 1/2 is missing'] });
    expect(exitCodeFor(report)).toBe(5);
    // a shard given twice counts once
    expect(mergeFragments([first, first, second], catalogue).report.summary.checks).toBe(3);
  });

  test('the merge command writes conformance.json/md from reports/verdict-fragments and exits 1 on a failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-merge-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'verdict-fragments'));
    fragments.forEach((f) => writeFileSync(join(dir, 'verdict-fragments', `shard-${f.shard.index}.json`), JSON.stringify(f)));
    expect(fragmentFiles(dir)).toHaveLength(2);
    expect(readFragments(fragmentFiles(dir))).toHaveLength(2);
    const result = spawnSync(process.execPath, conformanceCli(['merge', '--reports-dir', dir]), { encoding: 'utf8' });
    expect(result.stdout).toContain('merged 2 fragment(s)');
    expect(result.status).toBe(1);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { summary: { checks: number }; tool: string };
    expect(json.tool).toBe('paygate-conformance');
    expect(json.summary.checks).toBe(3);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('Conformance report');
  });

  test('a merge of 2 of 3 shards is refused (exit 5, nothing written) unless --allow-partial, which makes it PARTIAL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-merge-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'verdict-fragments'));
    const three = [1, 2].map((index) => ({ ...fragments[0]!, shard: { index, count: 3 }, checks: [check(`g${index}`, 'GW-A', 'passed', 1)] }));
    three.forEach((f) => writeFileSync(join(dir, 'verdict-fragments', `shard-${f.shard.index}.json`), JSON.stringify(f)));
    const refused = spawnSync(process.execPath, conformanceCli(['merge', '--reports-dir', dir]), { encoding: 'utf8' });
    expect(refused.status).toBe(5);
    expect(refused.stderr).toContain('shard 3/3 is missing');
    expect(existsSync(join(dir, 'conformance.json'))).toBe(false);
    const allowed = spawnSync(process.execPath, conformanceCli(['merge', '--reports-dir', dir, '--allow-partial']), { encoding: 'utf8' });
    expect(allowed.status, allowed.stderr).toBe(5);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { verdict: string; merge: { problems: string[] } };
    expect(json.verdict).toBe('partial');
    expect(json.merge.problems).toEqual(['shard 3/3 is missing']);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('Merged from shard(s) 1, 2 of 3 (--allow-partial: shard 3/3 is missing)');
  });
});
