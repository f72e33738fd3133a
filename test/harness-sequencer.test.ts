// The conformance run's file order (harness/run/sequencer.ts): heaviest files first, timer files
// first in full/certify, unlisted files after the listed ones in the order vitest gave; the lists
// name files that exist, and the timer list is exactly the files holding timer checks.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_WEIGHTS, TIMER_FILES, orderFiles } from '../harness/run/sequencer.js';

const root = join(import.meta.dirname, '..');
const same = (f: string): string => f;

function suiteFiles(): string[] {
  return readdirSync(join(root, 'suites'), { recursive: true, encoding: 'utf8' })
    .map((f) => `suites/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

describe('orderFiles', () => {
  it('starts the heaviest files first and keeps the given order of unlisted ones', () => {
    const files = ['fixtures/b.test.ts', 'suites/gateway/general.test.ts', 'fixtures/a.test.ts', 'suites/partner/fuzz-model.test.ts', 'suites/gateway/atomicity.test.ts'];
    expect(orderFiles(files, same, false)).toEqual(['suites/partner/fuzz-model.test.ts', 'suites/gateway/atomicity.test.ts', 'suites/gateway/general.test.ts', 'fixtures/b.test.ts', 'fixtures/a.test.ts']);
  });

  it('puts the timer files first in full and certify only', () => {
    const files = ['suites/gateway/general.test.ts', 'suites/partner/webhooks-redelivery.test.ts', 'suites/partner/fuzz-model.test.ts', 'suites/gateway/auth.test.ts'];
    expect(orderFiles(files, same, true).slice(0, 2).sort()).toEqual(['suites/gateway/auth.test.ts', 'suites/partner/webhooks-redelivery.test.ts']);
    expect(orderFiles(files, same, false)[0]).toBe('suites/partner/fuzz-model.test.ts');
  });

  it('does not change the list it is given', () => {
    const files = ['suites/gateway/general.test.ts', 'suites/partner/fuzz-model.test.ts'];
    orderFiles(files, same, false);
    expect(files).toEqual(['suites/gateway/general.test.ts', 'suites/partner/fuzz-model.test.ts']);
  });
});

describe('the file lists', () => {
  it('name suite files that exist', () => {
    for (const f of [...Object.keys(FILE_WEIGHTS), ...TIMER_FILES]) expect(existsSync(join(root, f)), f).toBe(true);
  });

  it('list exactly the files holding timer checks', () => {
    const timer = suiteFiles().filter((f) => readFileSync(join(root, f), 'utf8').includes("tier: 'timer'"));
    expect([...TIMER_FILES].sort()).toEqual(timer);
  });

  it('weigh every suite file that sends requests in the quick profile (receiver files send to the receiver under test only)', () => {
    const unweighted = suiteFiles().filter((f) => FILE_WEIGHTS[f] === undefined && !f.startsWith('suites/receiver/') && f !== 'suites/partner/webhooks-redelivery.test.ts');
    expect(unweighted).toEqual([]);
  });
});
