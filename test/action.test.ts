// The composite GitHub Action (action.yml) run here as a script: its `run:` steps in order, with
// bash, the inputs substituted as GitHub would, GITHUB_ENV / GITHUB_OUTPUT / GITHUB_STEP_SUMMARY
// files carried between steps, `if:` conditions evaluated, and the `uses:` steps stood in for
// (setup-node: the Node running this test; upload-artifact: the path must exist and hold the
// reports). Against the embedded reference with one fault, the docs' workflow shape: two shards of
// a partner run (the first installs the package from this checkout, packed), then the merge job's
// invocation (merge: 'true') over both shards' reports, as download-artifact with merge-multiple
// lays them out. Failing shards and the merge fail their step with exit 1 and still upload.
//
// Bounded: ~80 s on an idle machine, ~3 min under load (npm pack + install from the npm cache
// 20–30 s, the pack without its build when test/packed-setup.ts built dist/ from the same sources;
// each shard 20–40 s, merge + report ~10 s); limit 5 min.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { bash, withPackLockAsync } from './packed.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

interface ActionFile {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;

interface Context {
  inputs: Record<string, string>;
  outputs: Record<string, Record<string, string>>;
  env: Record<string, string>;
  failed: boolean;
}

/** `${{ … }}` as GitHub substitutes it, for the expressions action.yml uses. */
function expression(text: string, ctx: Context): string {
  const value = text.trim();
  let m = /^inputs\.([\w-]+)$/.exec(value);
  if (m) {
    const name = m[1] ?? '';
    if (!(name in action.inputs)) throw new Error(`action.yml refers to an undeclared input ${name}`);
    return ctx.inputs[name] ?? action.inputs[name]?.default ?? '';
  }
  m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(value);
  if (m) return ctx.outputs[m[1] ?? '']?.[m[2] ?? ''] ?? '';
  if (value === 'github.action_path') return ROOT;
  throw new Error(`test/action.test.ts: unsupported expression \${{ ${value} }}`);
}

function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{([^}]*)\}\}/g, (_, inner: string) => expression(inner, ctx));
}

/** The `if:` forms action.yml uses: always(), success(), inputs.x == 'v' / != 'v', joined by &&. */
function condition(text: string | undefined, ctx: Context): boolean {
  if (text === undefined) return !ctx.failed;
  const parts = text.replace(/^\$\{\{|\}\}$/g, '').split('&&').map((p) => p.trim());
  let always = false;
  for (const part of parts) {
    if (part === 'always()') {
      always = true;
      continue;
    }
    const m = /^(inputs\.[\w-]+)\s*(==|!=)\s*'([^']*)'$/.exec(part);
    if (!m) throw new Error(`test/action.test.ts: unsupported condition ${part}`);
    const equal = expression(m[1] ?? '', ctx) === m[3];
    if ((m[2] === '==') !== equal) return false;
  }
  return always || !ctx.failed;
}

function keyValues(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** The runner's environment: no target of this process, nothing of this test run's harness. */
function baseEnv(runnerTemp: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(GATEWAY_|PARTNER_|CALLBACK_|PAYGATE_|REFERENCE_|VITEST|npm_)/.test(k) || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return { ...env, RUNNER_TEMP: runnerTemp, ...extra };
}

interface ActionRun {
  failed: boolean;
  log: string;
  outputs: Record<string, string>;
  uploaded?: { name: string; path: string };
  summary: string;
}

/** Runs action.yml's steps in `workspace` with these inputs and this step `env:` (the target). */
async function runAction(workspace: string, runnerTemp: string, inputs: Record<string, string>, stepEnv: Record<string, string>): Promise<ActionRun> {
  const ctx: Context = { inputs, outputs: {}, env: {}, failed: false };
  const files = mkdtempSync(join(runnerTemp, 'gh-'));
  const githubEnv = join(files, 'env');
  const summary = join(files, 'summary');
  writeFileSync(githubEnv, '');
  let log = '';
  let uploaded: ActionRun['uploaded'];
  for (const [index, step] of action.runs.steps.entries()) {
    if (!condition(step.if, ctx)) continue;
    if (step.uses !== undefined) {
      if (step.uses.startsWith('actions/setup-node@')) continue; // the Node running this test
      if (step.uses.startsWith('actions/upload-artifact@')) {
        const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
        uploaded = { name: w['name'] ?? '', path: w['path'] ?? '' };
        continue;
      }
      throw new Error(`action.yml uses ${step.uses}: the test does not know how to stand in for it`);
    }
    expect(step.shell, `step ${step.name ?? index} needs shell: bash (composite actions require a shell)`).toBe('bash');
    const output = join(files, `output-${index}`);
    const env = {
      ...baseEnv(runnerTemp, stepEnv),
      ...ctx.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])),
      GITHUB_ENV: githubEnv,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: workspace,
    };
    const script = substitute(step.run ?? '', ctx);
    // the install step packs this checkout (a build into dist/): never beside another test's packing,
    // and keeping the dist/ the system tests' packing built from the same sources (scripts/build.ts)
    const result = script.includes('npm pack') ? await withPackLockAsync(() => bash(script, { ...env, PAYGATE_BUILD_IF_CHANGED: '1' }, workspace, 240_000)) : await bash(script, env, workspace, 240_000);
    log += `\n--- ${step.name ?? index} (exit ${String(result.code)})\n${result.out}`;
    if (step.id !== undefined) ctx.outputs[step.id] = keyValues(output);
    ctx.env = { ...ctx.env, ...keyValues(githubEnv) };
    if (result.code !== 0) ctx.failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, ctx)]));
  return { failed: ctx.failed, log, outputs, ...(uploaded !== undefined && { uploaded }), summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
}

const work = mkdtempSync(join(tmpdir(), 'paygate-action-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000);

describe('action.yml', () => {
  test('declares the inputs a workflow sets and runs composite', () => {
    expect(action.runs.using).toBe('composite');
    for (const name of ['profile', 'api', 'seed', 'strict', 'baseline', 'shard', 'reports-dir', 'merge', 'history']) expect(Object.keys(action.inputs)).toContain(name);
    expect(action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.if).toMatch(/always\(\)/);
  });

  test('two shards against the embedded reference with a fault, then the merge job: one verdict, failing steps, reports uploaded', async () => {
    const runnerTemp = join(work, 'runner');
    mkdirSync(runnerTemp);
    const target = { REFERENCE_FAULTS: 'pt-description-301-accepted' };
    const shards: ActionRun[] = [];
    for (const shard of ['1/2', '2/2']) {
      const workspace = join(work, `shard-${shard[0] ?? ''}`);
      mkdirSync(workspace);
      const run = await runAction(workspace, runnerTemp, { api: 'partner', seed: '5', shard, 'reports-dir': 'out' }, target);
      shards.push(run);
      expect(['0', '1'], run.log).toContain(run.outputs['exit-code']);
      expect(run.failed, run.log).toBe(run.outputs['exit-code'] === '1');
      expect(run.uploaded, run.log).toEqual({ name: `conformance-reports-shard-${shard[0] ?? ''}`, path: join(workspace, 'out') });
      expect(existsSync(join(workspace, 'out', 'verdict-fragments', `shard-${shard[0] ?? ''}.json`)), run.log).toBe(true);
    }
    expect(shards[0]?.log).toMatch(/Install paygate-conformance \(exit 0\)\n[\s\S]*?^0\.\d+\.\d+$/m);
    // the fault breaks checks in more than one file: at least one shard fails, each on its own exit code
    expect(shards.filter((s) => s.failed).length).toBeGreaterThanOrEqual(1);

    // the merge job: download-artifact (merge-multiple) puts every shard's files into one directory
    const workspace = join(work, 'merge');
    const merged = join(workspace, 'out');
    mkdirSync(merged, { recursive: true });
    for (const shard of ['1', '2']) cpSync(join(work, `shard-${shard}`, 'out'), merged, { recursive: true });
    const run = await runAction(workspace, runnerTemp, { merge: 'true', 'reports-dir': 'out' }, {});
    expect(run.log).toMatch(/merged 2 fragment\(s\)/);
    expect(run.failed, run.log).toBe(true);
    expect(run.outputs['exit-code']).toBe('1');
    const verdict = JSON.parse(readFileSync(join(merged, 'conformance.json'), 'utf8')) as { outcome: string; summary: { passed: number; failed: number }; failures: { check: string }[] };
    expect(verdict.outcome).toBe('fail');
    expect(verdict.summary.passed).toBeGreaterThan(20);
    expect(verdict.failures.map((f) => f.check)).toContain('partner.charges.description-max');
    // the steps after the failing one ran: one-file report, job summary, upload
    expect(readdirSync(join(merged, 'allure-report'))).toContain('index.html');
    expect(run.summary).toContain('partner.charges.description-max');
    expect(run.uploaded).toEqual({ name: 'conformance-reports', path: merged });
    expect(dirname(run.outputs['reports-dir'] ?? '')).toBe(workspace);
  }, 300_000);
});
