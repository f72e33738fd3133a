#!/usr/bin/env node
// The `paygate-conformance` bin: the compiled CLI (dist/, built by `npm run build`, which `npm pack`
// runs at prepack). Plain Node: no TypeScript at run time, one process. The user's working
// directory stays theirs (reports go to ./reports there).
//
//   paygate-conformance [run] [flags]   the conformance suite       paygate-conformance list [--json]
//   paygate-conformance replay FILE     a failing check again       paygate-conformance report | merge
//   paygate-conformance init            a config file (and CI)      paygate-conformance reference
//   paygate-conformance --help          every subcommand and flag
import { existsSync } from 'node:fs';

const entry = new URL('../dist/harness/cli/program.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('paygate-conformance: the compiled CLI is missing (dist/). In a clone: `npm run build` (or use `npm run conformance -- …`).');
  process.exit(3);
}
// printed commands (closing lines, replay lines) then name this bin, not the npm scripts
process.env.PAYGATE_INVOCATION ??= 'bin';
const { exitWhenFlushed, runProgram } = await import(entry.href);
const code = await runProgram(process.argv.slice(2));
// undefined: a command that runs until a signal (`reference`)
if (code !== undefined) await exitWhenFlushed(code);
