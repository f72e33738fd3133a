// `npm run conformance` in a clone: `node --import ./scripts/conformance-loader.mjs harness/cli/main.ts`.
// It registers tsx (the CLI is TypeScript) as `--import tsx` did, but a run first loads vitest/node
// with Node's own loader: under tsx's hooks every module vitest and vite import makes a round trip
// to tsx's loader thread (~1 s of CPU on the way to the first check, against ~0.25 s without).
// The run's later `import('vitest/node')` finds the module loaded. Every other subcommand (list,
// replay, report, --help, …) loads as before. Plain JavaScript: it runs before the TypeScript loader.
const args = process.argv.slice(2);
const rest = args[0] === '--' ? args.slice(1) : args;
const first = rest[0];
const runs = (first === undefined || first === 'run' || first.startsWith('-')) && !rest.some((a) => a === '--help' || a === '-h' || a === '--version');
if (runs) await import('vitest/node');
await import('tsx');
