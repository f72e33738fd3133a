// The adoption flags (harness/cli/adoption-args.ts) and the commands printed for where the user is
// (harness/cli/invocation.ts).
import { describe, expect, test } from 'vitest';
import { UsageError, parseArgs } from '../harness/cli/args.js';
import { extractAdoptionArgs } from '../harness/cli/adoption-args.js';
import { adoptionEnv } from '../harness/cli/adoption-run.js';
import { commandFor } from '../harness/cli/invocation.js';
import { replayCommand } from '../harness/report/format.js';

describe('adoption flags', () => {
  test('are taken out of argv, paths resolved against the working directory; the rest goes to parseArgs', () => {
    const { rest, options } = extractAdoptionArgs(['--api', 'partner', '--reports-dir', 'out', '--baseline=b.yaml', '--history', '/h.jsonl', '--seed', '3'], '/proj');
    expect(rest).toEqual(['--api', 'partner', '--seed', '3']);
    expect(options).toEqual({ reportsDir: '/proj/out', baseline: '/proj/b.yaml', history: '/h.jsonl' });
    expect(parseArgs(rest).api).toBe('partner');
    expect(adoptionEnv(options)).toEqual({ PAYGATE_BASELINE: '/proj/b.yaml', PAYGATE_HISTORY: '/h.jsonl' });
  });

  test.each([
    [['--baseline'], /--baseline needs a value/],
    [['--baseline', '--strict'], /--baseline needs a value/],
    [['--history='], /non-empty path/],
    [['--write-baseline', 'a', '--write-baseline', 'b'], /given twice/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => extractAdoptionArgs(argv, '/proj')).toThrow(UsageError);
    expect(() => extractAdoptionArgs(argv, '/proj')).toThrow(message);
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
