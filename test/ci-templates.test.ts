// The CI templates users copy (docs/ci/gitlab-ci.yml, docs/ci/Jenkinsfile) run here as scripts, the
// way test/action.test.ts runs action.yml: each job's or stage's shell steps in order, with bash,
// the variables and environment the CI system would give them, separate workspaces where the CI
// system would use separate machines, and the files their artifact / junit / stash / publishHTML
// steps name checked to exist. Against the embedded reference with one fault: two shards of a
// partner run (a few areas, to stay short), then the merge job or stage over both shards' files.
//
// The package is installed from the packed tarball (test/packed.ts), as the templates' variable
// PAYGATE_CONFORMANCE_PACKAGE lets a user pin a version or a tarball.
//
// Bounded: ~2 min on an idle machine, ~4 min under load (install 20–40 s once: the templates' tool
// directory is cached as GitLab's `cache:` would; each shard 15–30 s; merge + report ~10 s, twice).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, bash, cleanEnv, installedTool } from './packed.js';

const FAULT = 'pt-description-301-accepted';
// a partner run short enough for a test: two files' checks, one per shard (split on spaces by the templates)
const ARGS = '--api partner --check partner.charges.*,partner.errors.*';

const work = mkdtempSync(join(tmpdir(), 'paygate-ci-'));
// the installed tool (~200 MB) takes a while to delete on a loaded machine
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000);
let tarball = '';
/** the tool directory both templates install into, shared as a CI cache would */
const toolCache = join(work, 'tool-cache');

beforeAll(async () => {
  // packed once for every test of the installed tool (test/packed-setup.ts); the templates install it themselves
  tarball = (await installedTool()).tarball;
  mkdirSync(toolCache);
}, 300_000);

/** A workspace whose tool directory is the shared cache (GitLab `cache:`, a Jenkins agent's reuse). */
function workspace(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(toolCache, join(dir, '.paygate-tool'));
  return dir;
}

interface Verdict {
  outcome: string;
  summary: { passed: number; failed: number };
  failures: { check: string }[];
}

// ------------------------------------------------------------------------------------ GitLab CI

interface GitlabJob {
  stage?: string;
  extends?: string;
  parallel?: number;
  needs?: { job: string; artifacts: boolean }[];
  when?: string;
  before_script?: string[];
  script?: string[];
  image?: string;
  artifacts?: { when?: string; paths?: string[]; reports?: { junit?: string } };
}

const gitlab = parse(readFileSync(join(ROOT, 'docs/ci/gitlab-ci.yml'), 'utf8')) as Record<string, GitlabJob> & { variables: Record<string, string>; stages: string[] };

/** A job with what it extends, as GitLab merges it. */
function resolved(name: string): GitlabJob {
  const job = gitlab[name] as GitlabJob;
  return job.extends !== undefined ? { ...resolved(job.extends), ...job } : job;
}

/** `$NAME` in a `variables:` value, from GitLab's predefined variables. */
function expand(value: string, predefined: Record<string, string>): string {
  return value.replace(/\$(\w+)/g, (whole, name: string) => predefined[name] ?? whole);
}

async function runGitlabJob(name: string, dir: string, predefined: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const job = resolved(name);
  const variables = Object.fromEntries(Object.entries(gitlab.variables).map(([k, v]) => [k, expand(String(v), predefined)]));
  const env = cleanEnv({ ...variables, ...predefined, CI_PROJECT_DIR: dir, REFERENCE_FAULTS: FAULT, PAYGATE_CONFORMANCE_PACKAGE: tarball, PAYGATE_CONFORMANCE_ARGS: ARGS });
  // GitLab runs before_script and script in one shell, stopping at the first failing command
  return bash([...(job.before_script ?? []), ...(job.script ?? [])].join('\n'), env, dir);
}

describe('docs/ci/gitlab-ci.yml', () => {
  test('declares sharded conformance jobs with JUnit artifacts kept whatever the outcome, and a merge job after them', () => {
    const shards = resolved('conformance');
    expect(shards.parallel).toBeGreaterThanOrEqual(2);
    expect(shards.image).toBe('node:24');
    expect(shards.artifacts?.when).toBe('always');
    expect(shards.artifacts?.reports?.junit).toBe('reports/junit.xml');
    const merge = resolved('conformance-report');
    expect(merge.needs).toEqual([{ job: 'conformance', artifacts: true }]);
    expect(merge.when).toBe('always');
    expect(gitlab.stages.indexOf(merge.stage ?? '')).toBeGreaterThan(gitlab.stages.indexOf(shards.stage ?? ''));
  });

  test('the shards, then the merge job over their artifacts: one verdict, failing jobs, reports kept', async () => {
    const shards = resolved('conformance');
    const total = shards.parallel ?? 1;
    const dirs: string[] = [];
    let failed = 0;
    for (let index = 1; index <= total; index += 1) {
      const dir = workspace(`gitlab-shard-${index}`);
      dirs.push(dir);
      const run = await runGitlabJob('conformance', dir, { CI_PIPELINE_IID: '5', CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) });
      expect([0, 1], run.out).toContain(run.code);
      if (run.code !== 0) failed += 1;
      for (const path of shards.artifacts?.paths ?? []) expect(existsSync(join(dir, path)), `${path}\n${run.out}`).toBe(true);
      expect(existsSync(join(dir, shards.artifacts?.reports?.junit ?? '')), run.out).toBe(true);
      expect(existsSync(join(dir, 'reports', 'verdict-fragments', `shard-${index}.json`)), run.out).toBe(true);
    }
    expect(failed, 'the fault breaks checks of the partner charges').toBeGreaterThanOrEqual(1);

    // needs: artifacts of every shard, extracted into one working directory
    const dir = workspace('gitlab-merge');
    for (const shard of dirs) cpSync(join(shard, 'reports'), join(dir, 'reports'), { recursive: true });
    const merge = await runGitlabJob('conformance-report', dir, { CI_PIPELINE_IID: '5' });
    expect(merge.out).toMatch(/merged 2 fragment\(s\)/);
    expect(merge.code, merge.out).toBe(1);
    const verdict = JSON.parse(readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8')) as Verdict;
    expect(verdict.outcome).toBe('fail');
    expect(verdict.failures.map((f) => f.check)).toContain('partner.charges.description-max');
    for (const path of resolved('conformance-report').artifacts?.paths ?? []) expect(existsSync(join(dir, path)), path).toBe(true);
    expect(readdirSync(join(dir, 'reports', 'allure-report'))).toContain('index.html');
  }, 420_000);
});

// ------------------------------------------------------------------------------------ Jenkins

const jenkinsfile = readFileSync(join(ROOT, 'docs/ci/Jenkinsfile'), 'utf8');

/** The `sh '''…'''` blocks of a piece of the Jenkinsfile, `installTool()` calls replaced by its block. */
function shellSteps(text: string): string[] {
  const install = /def installTool\(\) \{\s*sh '''([\s\S]*?)'''/.exec(jenkinsfile)?.[1] ?? '';
  const steps: string[] = [];
  for (const m of text.matchAll(/installTool\(\)|sh '''([\s\S]*?)'''/g)) steps.push(m[0] === 'installTool()' ? install : (m[1] ?? ''));
  return steps;
}

/** The text of `stage('name') { … }` (balanced braces). */
function stage(name: string): string {
  const start = jenkinsfile.indexOf(`stage('${name}')`);
  expect(start, `stage ${name}`).toBeGreaterThan(-1);
  let depth = 0;
  for (let i = jenkinsfile.indexOf('{', start); i < jenkinsfile.length; i += 1) {
    if (jenkinsfile[i] === '{') depth += 1;
    else if (jenkinsfile[i] === '}' && --depth === 0) return jenkinsfile.slice(start, i + 1);
  }
  throw new Error(`stage ${name} is not closed`);
}

/** `environment { NAME = 'value' }`, with `${env.X}` from the build's variables. */
function environment(build: Record<string, string>): Record<string, string> {
  const block = /environment \{([\s\S]*?)\n {2}\}/.exec(jenkinsfile)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/^\s*([A-Z_]+) = (?:'([^']*)'|"([^"]*)")/gm)) out[m[1] ?? ''] = (m[2] ?? m[3] ?? '').replace(/\$\{env\.(\w+)\}/g, (_, name: string) => build[name] ?? '');
  return out;
}

/** A Groovy string of a step (`"reports/shard-${SHARD}/junit.xml"`) with the matrix axis value. */
function groovy(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}/g, (_, name: string) => vars[name] ?? '');
}

describe('docs/ci/Jenkinsfile', () => {
  test('two shards (a matrix) publish JUnit and stash their reports; the Report stage merges them and publishes the HTML report', async () => {
    const values = [...(/values ([^\n]+)/.exec(jenkinsfile)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
    expect(values).toEqual(['1', '2']);
    const shard = stage('Shard');
    expect(shard).toContain("catchError(buildResult: 'FAILURE', stageResult: 'FAILURE')");
    const junit = /junit testResults: "([^"]+)"/.exec(shard)?.[1] ?? '';
    const stashed = /stash name: "([^"]+)", includes: "([^"]+)"/.exec(shard);
    const build = { BUILD_NUMBER: '5' };
    const stashes = new Map<string, string>();
    let failed = 0;
    for (const SHARD of values) {
      // each matrix cell on its own agent: its own workspace
      const dir = workspace(`jenkins-shard-${SHARD}`);
      const env = cleanEnv({ ...environment(build), ...build, WORKSPACE: dir, SHARD, REFERENCE_FAULTS: FAULT, PAYGATE_CONFORMANCE_PACKAGE: tarball, PAYGATE_CONFORMANCE_ARGS: ARGS });
      let out = '';
      for (const [index, step] of shellSteps(shard).entries()) {
        const r = await bash(step, env, dir);
        out += r.out;
        // installTool must succeed; the run's step is inside catchError (the stage fails, the build goes on)
        if (index === 0) expect(r.code, out).toBe(0);
        else if (r.code !== 0) failed += 1;
      }
      expect(existsSync(join(dir, groovy(junit, { SHARD }))), `${groovy(junit, { SHARD })}\n${out}`).toBe(true);
      stashes.set(groovy(stashed?.[1] ?? '', { SHARD }), dir);
      expect(groovy(stashed?.[2] ?? '', { SHARD })).toBe(`reports/shard-${SHARD}/**`);
    }
    expect(failed).toBeGreaterThanOrEqual(1);

    const report = stage('Report');
    const dir = workspace('jenkins-report');
    for (const name of [...report.matchAll(/unstash '([^']+)'/g)].map((m) => m[1] ?? '')) {
      const from = stashes.get(name);
      expect(from, `stash ${name}`).toBeDefined();
      const shardReports = join('reports', name);
      mkdirSync(dirname(join(dir, shardReports)), { recursive: true });
      cpSync(join(from ?? '', shardReports), join(dir, shardReports), { recursive: true });
    }
    const env = cleanEnv({ ...environment(build), ...build, WORKSPACE: dir, PAYGATE_CONFORMANCE_PACKAGE: tarball });
    const results: { code: number | null; out: string }[] = [];
    for (const step of shellSteps(report)) results.push(await bash(step, env, dir));
    const out = results.map((r) => r.out).join('\n');
    expect(out).toMatch(/merged 2 fragment\(s\)/);
    expect(results.at(-1)?.code, out).toBe(1);
    const verdict = JSON.parse(readFileSync(join(dir, 'reports', 'merged', 'conformance.json'), 'utf8')) as Verdict;
    expect(verdict.failures.map((f) => f.check)).toContain('partner.charges.description-max');
    const html = /publishHTML\(target: \[reportName: '[^']+', reportDir: '([^']+)', reportFiles: '([^']+)'/.exec(report);
    expect(existsSync(join(dir, html?.[1] ?? '', html?.[2] ?? '')), out).toBe(true);
  }, 420_000);
});
