/**
 * `npm run conformance -- [subcommand] [flags]` (`tsx harness/cli/main.ts`): the whole CLI from the
 * sources, as the bin runs it compiled (harness/cli/program.ts): `npm run conformance -- list`
 * works as `npx paygate-conformance list`.
 */
import { exitWhenFlushed, runProgram } from './program.js';

const code = await runProgram(process.argv.slice(2));
// undefined: a command that runs until a signal (`reference`)
if (code !== undefined) await exitWhenFlushed(code);
