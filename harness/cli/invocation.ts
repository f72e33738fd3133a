/**
 * How the user invoked the tool, so every command we print (closing lines, replay lines, hints)
 * works where they are: from a clone of this repository the npm scripts (`npm run conformance --`),
 * from an installed package the bin (`npx paygate-conformance`), which has no npm scripts.
 *
 * The bin (bin/paygate-conformance.js) sets PAYGATE_INVOCATION=bin; the test workers inherit it.
 */
export type Subcommand = 'run' | 'report' | 'merge' | 'reference' | 'certify' | 'verify';

export function invokedThroughBin(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['PAYGATE_INVOCATION'] === 'bin';
}

const BIN = 'npx paygate-conformance';
const SCRIPTS: Record<Subcommand, string> = {
  run: 'npm run conformance --',
  report: 'npm run report --',
  merge: 'npm run report:merge --',
  reference: 'npm run reference',
  certify: 'npm run certify --',
  verify: 'npm run verify --',
};

/**
 * The command prefix for a subcommand, ready to take flags: `npx paygate-conformance report` or
 * `npm run report --`. `bare` drops npm's trailing `--` (a command shown without flags).
 */
export function commandFor(sub: Subcommand, options: { bare?: boolean; env?: NodeJS.ProcessEnv } = {}): string {
  if (invokedThroughBin(options.env)) return sub === 'run' ? BIN : `${BIN} ${sub}`;
  const script = SCRIPTS[sub];
  return options.bare === true ? script.replace(/ --$/, '') : script;
}
