/**
 * The replay line printed for a failure carries the run's flags that change what a check does, so
 * copying it reproduces the failure: the CLI hands them to the workers (PAYGATE_REPLAY_FLAGS) and
 * harness/report/format.ts words them, with the seed, the fast-check path and the check alone.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs, replayFlags, workerEnv } from '../harness/cli/args.js';
import { replayCommand } from '../harness/report/format.js';

describe('the replay line', () => {
  const options = parseArgs(['--api', 'partner', '--personality', 'alt', '--strict', '--profile', 'full', '--seed', '3', '--grep', 'charges']);

  it('the workers get the flags that change what a check does', () => {
    const env = workerEnv(options, 3);
    expect(JSON.parse(env['PAYGATE_REPLAY_FLAGS'] ?? '[]')).toEqual(replayFlags(options));
    expect(replayFlags(options)).toEqual(expect.arrayContaining(['--api', 'partner', '--personality', 'alt', '--strict', '--profile', 'full']));
  });

  it('carries them, the seed, the fast-check path and the failing check alone', () => {
    const env = { PAYGATE_REPLAY_FLAGS: JSON.stringify(replayFlags(options)), PAYGATE_SEED: '3' };
    const line = replayCommand({ profile: 'full', path: '4:1:0', check: 'partner.charges.create', title: 'creates a charge' }, env);
    expect(line).toMatch(/ --profile full --api partner --strict --personality alt --seed 3 --replay 4:1:0 --check partner\.charges\.create$/);
    // the run's own selection (--grep charges) is not repeated: the check alone reproduces it
    expect(line).not.toContain('--grep');
  });

  it('without the CLI (a bare vitest run, a merged report) it falls back to profile, seed and the test name', () => {
    expect(replayCommand({ profile: 'quick', seed: 4, title: 'a check' }, {})).toMatch(/ --profile quick --seed 4 --grep 'a check'$/);
    expect(replayCommand({ seed: 4, check: 'suites/x.test.ts > a test', title: 'a test' }, {})).toMatch(/ --profile quick --seed 4 --grep 'a test'$/);
  });

  it('quotes a flag value for the shell', () => {
    const line = replayCommand({ seed: 1, check: 'c', flags: ['--profile', 'quick', '--client-cert', '/tmp/my cert.pem'] }, {});
    expect(line).toContain("--client-cert '/tmp/my cert.pem'");
  });
});
