#!/usr/bin/env node
// The `paygate-conformance` bin: runs the TypeScript entry points through tsx, from wherever the
// package is installed; the user's working directory stays theirs (reports go to ./reports there).
//
//   paygate-conformance [run] [flags]   the conformance suite (same flags as `npm run conformance`)
//   paygate-conformance report [...]    the single-file HTML report from ./reports/allure-results
//   paygate-conformance merge [...]     merge sharded verdicts into one conformance.{json,md}
//   paygate-conformance certify [...]   a certify run and its bundle (reports/certificate/)
//   paygate-conformance verify [DIR]    check a certification bundle
//   paygate-conformance reference       start the embedded reference sandbox alone
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsxCli = require.resolve('tsx/cli');

const ENTRIES = {
  run: 'harness/cli/main.ts',
  report: 'harness/report/build-html.ts',
  merge: 'harness/report/merge.ts',
  certify: 'harness/cli/certify.ts',
  verify: 'harness/report/verify.ts',
  reference: 'reference/main.ts',
};

const args = process.argv.slice(2);
const sub = Object.hasOwn(ENTRIES, args[0] ?? '') ? args.shift() : 'run';
const result = spawnSync(process.execPath, [tsxCli, join(root, ENTRIES[sub]), ...args], {
  stdio: 'inherit',
  // printed commands (closing lines, replay lines) then name this bin, not the npm scripts
  // TSX_TSCONFIG_PATH: our compiler settings, not those of the project the package is installed in
  env: { ...process.env, PAYGATE_INVOCATION: 'bin', TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
});
if (result.error) {
  console.error(`paygate-conformance: cannot start ${ENTRIES[sub]}: ${result.error.message}`);
  process.exit(3);
}
// a signal (Ctrl-C on `reference`) is a normal end for the sandbox
process.exit(result.status ?? (result.signal === 'SIGINT' || result.signal === 'SIGTERM' ? 0 : 1));
