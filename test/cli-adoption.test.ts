// The adoption flags (--reports-dir, --baseline, --history, --write-baseline: paths resolved
// against the working directory, handed to the workers) and the commands printed for where the
// user is (harness/cli/invocation.ts).
import { describe, expect, test } from 'vitest';
import { UsageError, parseArgs, workerEnv } from '../harness/cli/args.js';
import { commandFor } from '../harness/cli/invocation.js';
import { replayCommand } from '../harness/report/format.js';

describe('adoption flags', () => {
  test('are run flags like the others, paths resolved against the working directory', () => {
    const options = parseArgs(['--api', 'partner', '--reports-dir', 'out', '--baseline=b.yaml', '--history', '/h.jsonl', '--seed', '3'], '/proj');
    expect(options).toMatchObject({ api: 'partner', seed: 3, reportsDir: '/proj/out', baseline: '/proj/b.yaml', history: '/h.jsonl' });
    // the workers learn the baseline from harness/cli/main.ts, not from workerEnv: nothing else leaks
    expect(workerEnv(options, 3)['PAYGATE_BASELINE']).toBeUndefined();
  });

  test.each([
    [['--baseline'], /--baseline needs a value/],
    [['--baseline', '--strict'], /--baseline needs a value/],
    [['--history='], /--history needs a non-empty value/],
    [['--write-baseline', 'a', '--write-baseline', 'b'], /given twice/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv, '/proj')).toThrow(UsageError);
    expect(() => parseArgs(argv, '/proj')).toThrow(message);
  });
});

describe('printed commands', () => {
  const bin = { PAYGATE_INVOCATION: 'bin' };
  test('from a clone: the npm scripts; from the installed bin: its subcommands', () => {
    expect(commandFor('report', { env: {} })).toBe('npm run report --');
    expect(commandFor('report', { env: {}, bare: true })).toBe('npm run report');
    expect(commandFor('merge', { env: {} })).toBe('npm run report:merge --');
    expect(commandFor('run', { env: bin })).toBe('npx paygate-conformance');
    expect(commandFor('report', { env: bin, bare: true })).toBe('npx paygate-conformance report');
    expect(commandFor('reference', { env: bin })).toBe('npx paygate-conformance reference');
  });

  test('replay lines follow the invocation', () => {
    const saved = process.env['PAYGATE_INVOCATION'];
    try {
      process.env['PAYGATE_INVOCATION'] = 'bin';
      expect(replayCommand({ profile: 'quick', seed: 4, title: 'a check' })).toBe("npx paygate-conformance --profile quick --seed 4 --grep 'a check'");
      delete process.env['PAYGATE_INVOCATION'];
      expect(replayCommand({ profile: 'quick', seed: 4 })).toBe('npm run conformance -- --profile quick --seed 4');
    } finally {
      if (saved === undefined) delete process.env['PAYGATE_INVOCATION'];
      else process.env['PAYGATE_INVOCATION'] = saved;
    }
  });
});
