/**
 * `paygate-conformance <subcommand> [flags]`: one CLI, one parser (node:util parseArgs through
 * harness/cli/parse.ts), one table of subcommands and flags (harness/cli/commands.ts).
 *
 * `--help` of every subcommand is answered from the table before anything else loads: it starts
 * nothing (no vitest, no reference, no HTTP) and answers in a few milliseconds past Node's own
 * start. Each subcommand's code is imported only when it runs.
 */
import { pathToFileURL } from 'node:url';
import { COMMANDS, commandSpec } from './commands.js';
import type { CommandSpec } from './commands.js';
import { UsageError, nearest, parseFlags, renderOptions } from './parse.js';
import { EXIT, exitCodeLines } from './exit-codes.js';
import { commandFor } from './invocation.js';

/** The text of `--help` for a subcommand (run's is harness/cli/args.ts helpText, with the command list). */
export async function commandHelp(spec: CommandSpec): Promise<string> {
  const bin = commandFor('run');
  if (spec.name === 'run') {
    const { helpText } = await import('./args.js');
    return [helpText(), '', ...overviewLines(bin)].join('\n');
  }
  return [
    `Usage: ${bin} ${spec.usage}`,
    '',
    spec.summary,
    '',
    'Flags:',
    ...renderOptions(spec.options),
    ...(spec.notes !== undefined ? ['', ...spec.notes] : []),
    '',
    'Exit codes (README.md "Exit codes"):',
    ...exitCodeLines(),
  ].join('\n');
}

function overviewLines(bin: string): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `Subcommands (${bin} <subcommand> --help for each):`,
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
  ];
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/**
 * Runs the CLI; resolves with the exit code, or with undefined for a command that keeps running
 * until a signal (`reference`).
 */
export async function runProgram(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const first = args[0];
  let spec = commandSpec('run');
  let rest = args;
  if (first !== undefined && !first.startsWith('-')) {
    const named = commandSpec(first);
    if (named === undefined) {
      const suggestion = nearest(first, COMMANDS.map((c) => c.name));
      console.error(`paygate-conformance: unknown subcommand "${first}"${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ''}; the subcommands: ${COMMANDS.map((c) => c.name).join(', ')}`);
      return EXIT.usage;
    }
    spec = named;
    rest = args.slice(1);
  }
  if (spec === undefined) return EXIT.harness;
  try {
    // --help anywhere: the text, nothing else (not even a check of the other flags)
    if (rest.includes('--help') || rest.includes('-h')) {
      print(await commandHelp(spec));
      return EXIT.pass;
    }
    if (spec.name === 'run' && rest.includes('--version')) {
      const { packageVersion } = await import('../version.js');
      print(packageVersion());
      return EXIT.pass;
    }
    return await dispatch(spec, rest, env);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`paygate-conformance${spec.name === 'run' ? '' : ` ${spec.name}`}: ${error.message}`);
      return EXIT.usage;
    }
    console.error('paygate-conformance: harness error:', error instanceof Error ? (error.stack ?? error.message) : error);
    return EXIT.harness;
  }
}

async function dispatch(spec: CommandSpec, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  switch (spec.name) {
    case 'run': {
      const { runCommand } = await import('./run.js');
      return (await runCommand(args, env)).code;
    }
    case 'list': {
      const parsed = parseFlags(args, spec.options);
      const { listCommand } = await import('./list.js');
      return listCommand(parsed.values, parsed.given, env);
    }
    case 'replay': {
      const parsed = parseFlags(args, spec.options, { positionals: true });
      const { replayCommand } = await import('./replay.js');
      return replayCommand(parsed.positionals, parsed.values, env);
    }
    case 'report': {
      const parsed = parseFlags(args, spec.options);
      const { reportCommand } = await import('../report/build-html.js');
      return reportCommand(parsed.values);
    }
    case 'merge': {
      const parsed = parseFlags(args, spec.options, { positionals: true });
      const { mergeCommand } = await import('../report/merge.js');
      return mergeCommand(parsed.values, parsed.positionals);
    }
    case 'reference': {
      const { values } = parseFlags(args, spec.options);
      const chosen = values['personality'];
      if (typeof chosen === 'string' && !/^(default|alt|mix:\d{1,15})$/.test(chosen)) throw new UsageError(`--personality must be one of default, alt, mix:SEED, got "${chosen}"`);
      // the reference is the other side of the project (it never imports the suite, nor the suite
      // it): the CLI only starts its entry point, the source in a clone, the compiled one installed
      const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
      const { referenceMain } = (await import(new URL(`../../reference/main.${ext}`, import.meta.url).href)) as { referenceMain: (argv: readonly string[]) => Promise<void> };
      await referenceMain(args);
      return undefined;
    }
    case 'init': {
      const { initCommand } = await import('./init.js');
      return initCommand(parseFlags(args, spec.options).values);
    }
    case 'config': {
      const parsed = parseFlags(args, spec.options, { positionals: true });
      if (parsed.positionals[0] !== 'print' || parsed.positionals.length > 1) throw new UsageError('the config subcommand is `config print [flags]`');
      const { configPrintCommand } = await import('./config-print.js');
      return configPrintCommand(parsed.values, parsed.given, env);
    }
    case 'certify': {
      const { certify } = await import('./certify.js');
      return certify(args, env);
    }
    case 'verify': {
      const parsed = parseFlags(args, spec.options, { positionals: true });
      const { verifyCommand } = await import('../report/verify.js');
      return verifyCommand(parsed.positionals);
    }
    default:
      return EXIT.harness;
  }
}

/**
 * Exits once stdout and stderr have been handed everything written to them: a pipe (`list --json |
 * jq`) is written asynchronously, and process.exit would cut it short.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await runProgram(process.argv.slice(2));
  if (code !== undefined) await exitWhenFlushed(code);
}
