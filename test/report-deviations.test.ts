// One deviation reads as one: a reference fault in the token exchange's answer (expiresIn as a
// string), which every check that fetches a token sees, shows once in the console summary and once
// in conformance.md, with the checks that saw it; the checks' own verdicts are unchanged (each
// failed). Through the real CLI against the embedded reference, the checks whose name says token
// (about 15 s).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runConformance } from './fault-matrix/runner.js';
import type { ConformanceRunResult } from './fault-matrix/runner.js';

const DIR = join(ROOT, 'reports', 'self-test', `deviations-${process.pid}`);
const TITLE = '/expiresIn must be integer';

describe('a fault in an answer every check sees', () => {
  let run: ConformanceRunResult;
  let stdout: string;
  let md: string;

  beforeAll(async () => {
    mkdirSync(DIR, { recursive: true });
    run = await runConformance({
      label: 'deviations',
      files: [],
      via: 'cli',
      cliArgs: ['--api', 'gateway', '--grep', 'token', '--seed', '3', '--no-allure'],
      reportsDir: join(DIR, 'out'),
      env: { REFERENCE_FAULTS: 'gw-auth-expires-in-string' },
      timeoutMs: 120_000,
      logFile: join(DIR, 'output.log'),
    });
    stdout = readFileSync(join(DIR, 'output.log'), 'utf8');
    md = readFileSync(join(DIR, 'out', 'conformance.md'), 'utf8');
  }, 130_000);
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  test('every check that fetched a token failed on it, as before', () => {
    expect(run.exitCode, run.outputTail).toBe(1);
    const saw = run.report?.checks.filter((c) => c.failures.some((f) => f.pointer === '/expiresIn')) ?? [];
    // the exchange and the Bearer checks fetch their own tokens; the first check to use the harness's fetches one too
    expect(saw.length).toBeGreaterThanOrEqual(3);
    expect(saw.every((c) => c.state === 'failed')).toBe(true);
    expect(run.report?.requirements.find((r) => r.id === 'GW-AUTH-EXPIRES-IN-MS')?.verdict).toBe('fail');
  });

  test('conformance.json lists it once among the distinct deviations, with the checks that saw it', () => {
    const deviations = run.report?.deviations.filter((d) => d.pointer === '/expiresIn') ?? [];
    expect(deviations).toHaveLength(1);
    const seenBy = run.report?.checks.filter((c) => c.failures.some((f) => f.key === deviations[0]?.key)).map((c) => c.check);
    expect(deviations[0]?.checks).toEqual(seenBy);
    expect(deviations[0]?.operation).toBe('POST /api/auth');
  });

  test('the console summary and conformance.md show it once, with the checks that saw it and a curl', () => {
    const checks = run.report?.deviations.find((d) => d.pointer === '/expiresIn')?.checks ?? [];
    for (const text of [stdout, md]) {
      expect(text.split(TITLE).length - 1, text).toBe(1);
      expect(text).toContain(`Seen by ${checks.length} checks`);
      for (const check of checks) expect(text).toContain(check);
      expect(text).toMatch(/curl [^\n]*\/api\/auth/);
    }
  });
});
