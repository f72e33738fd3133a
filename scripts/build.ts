/**
 * `npm run build` (run by `npm pack` at prepack): the package's JavaScript in dist/.
 *
 * 1. tsc -p tsconfig.build.json: harness, suites, generators, reference and the conformance vitest
 *    config, compiled (imports already end in .js);
 * 2. the files they read at run time beside them: specs/, the plan's request estimates;
 * 3. dist/package.json: ESM, and the version the reports name;
 * 4. the checks' manifest (harness/cli/collect.ts over the compiled suites): `list` and selection
 *    read it instead of importing every suite;
 * 5. dist/contract-cache/: the bundled and the parsed specs and the compiled response validators (ajv standalone
 *    code), derived once here so the installed tool's workers only read them
 *    (harness/contract/cache.ts).
 *
 * PAYGATE_BUILD_IF_CHANGED=1 keeps a dist/ built from the same sources (scripts/sources-key.ts,
 * written to dist/.sources-key): the system tests pack this checkout once (test/packed-setup.ts)
 * and the GitHub Action's install step, run by test/action.test.ts, packs it again.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesKey } from './sources-key.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const started = Date.now();
const keyFile = join(dist, '.sources-key');
const key = sourcesKey(root);

if (process.env['PAYGATE_BUILD_IF_CHANGED'] === '1' && existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) {
  console.log(`build: dist/ already built from these sources (${key}), kept`);
  process.exit(0);
}
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

cpSync(join(root, 'specs'), join(dist, 'specs'), { recursive: true });
cpSync(join(root, 'harness', 'cli', 'plan-baseline.json'), join(dist, 'harness', 'cli', 'plan-baseline.json'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
// not named paygate-conformance: the package root (harness/version.ts) is the directory above
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ name: 'paygate-conformance-dist', version: pkg.version, private: true, type: 'module' }, null, 2)}\n`);

const manifest = join(dist, 'harness', 'cli', 'checks-manifest.json');
mkdirSync(join(dist, 'harness', 'cli'), { recursive: true });
execFileSync(process.execPath, [join(dist, 'harness', 'cli', 'collect.js'), manifest], { cwd: root, stdio: 'inherit' });
const checks = (JSON.parse(readFileSync(manifest, 'utf8')) as { checks: unknown[] }).checks.length;

// the compiled contract module fills its own shipped cache (dist/contract-cache/)
const contractCache = join(dist, 'contract-cache');
const fillCache = [
  `const { loadContract } = await import(${JSON.stringify(pathToFileURL(join(dist, 'harness', 'contract', 'validator.js')).href)});`,
  'const contract = await loadContract();',
  'console.log(`build: ${contract.compileAll().length} response validators precompiled`);',
  `const { loadRequirements } = await import(${JSON.stringify(pathToFileURL(join(dist, 'harness', 'contract', 'requirements.js')).href)});`,
  'console.log(`build: ${loadRequirements().length} requirements cached`);',
  `const { specDocument } = await import(${JSON.stringify(pathToFileURL(join(dist, 'harness', 'rules', 'spec-document.js')).href)});`,
  "specDocument('gateway'); specDocument('partner');",
  "console.log('build: parsed spec documents cached');",
].join('\n');
execFileSync(process.execPath, ['--input-type=module', '-e', fillCache], { cwd: root, stdio: 'inherit', env: { ...process.env, PAYGATE_CACHE_DIR: contractCache } });
// last: a build that stopped half-way leaves no key behind
writeFileSync(keyFile, key);
console.log(`build: dist/ (${checks} checks in the manifest) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
