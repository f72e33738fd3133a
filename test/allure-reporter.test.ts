// The Allure reporter that writes each test file's results when the file ends (harness/report/allure-reporter.ts).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import IncrementalAllureReporter, { AsyncResultsWriter } from '../harness/report/allure-reporter.js';

const dirs: string[] = [];
function resultsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-allure-'));
  dirs.push(dir);
  return join(dir, 'allure-results');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** What allure-vitest's onInit reads of vitest: one node project. */
function fakeVitest(): Vitest {
  const project = { config: { browser: { enabled: false }, setupFiles: [] as string[], runner: undefined }, provide: () => undefined };
  return { projects: [project] } as unknown as Vitest;
}

/** A test file that ended with one passing test carrying an attachment (allure-vitest's runtime messages). */
function fakeModule(moduleId: string, name: string): TestModule {
  const file = { type: 'suite', name: 'a.test.ts', filepath: moduleId, tasks: [] as unknown[], meta: {}, mode: 'run' };
  const attachment = { type: 'attachment_content', data: { name: 'request', content: Buffer.from('GET /x').toString('base64'), encoding: 'base64', contentType: 'text/plain' } };
  const testTask = { type: 'test', name, mode: 'run', file, suite: file, meta: { allureRuntimeMessages: [attachment] }, result: { state: 'pass', startTime: Date.now(), duration: 3 } };
  file.tasks.push(testTask);
  return { moduleId, task: file } as unknown as TestModule;
}

const results = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('-result.json')) : []);

describe('AsyncResultsWriter', () => {
  test('writes results and attachments; settled() waits for every write', async () => {
    const dir = resultsDir();
    const writer = new AsyncResultsWriter(dir);
    writer.writeResult({ uuid: 'u1', name: 'n' } as Parameters<AsyncResultsWriter['writeResult']>[0]);
    writer.writeAttachment('a-attachment.txt', Buffer.from('body'));
    await writer.settled();
    expect(JSON.parse(readFileSync(join(dir, 'u1-result.json'), 'utf8'))).toMatchObject({ uuid: 'u1', name: 'n' });
    expect(readFileSync(join(dir, 'a-attachment.txt'), 'utf8')).toBe('body');
  });

  test('settled() rejects when a write failed', async () => {
    const dir = resultsDir();
    mkdirSync(join(dir, 'taken-attachment.txt'), { recursive: true });
    const writer = new AsyncResultsWriter(dir);
    writer.writeAttachment('taken-attachment.txt', Buffer.from('body'));
    await expect(writer.settled()).rejects.toThrow(/EISDIR/);
  });
});

describe('IncrementalAllureReporter', () => {
  test('writes a test file\'s results when the file ends, and not again at the run\'s end', async () => {
    const dir = resultsDir();
    const reporter = new IncrementalAllureReporter({ resultsDir: dir });
    reporter.onInit(fakeVitest());
    const module = fakeModule('/project/suites/a.test.ts', 'first test');
    reporter.onTestModuleEnd(module);
    // on disk before the run ends
    await vi.waitFor(() => expect(results(dir)).toHaveLength(1), { timeout: 5_000 });
    await reporter.onTestRunEnd([module, fakeModule('/project/suites/b.test.ts', 'second test')]);
    const written = results(dir).map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { name: string; status: string; attachments: { source: string }[] });
    expect(written.map((r) => r.name).sort()).toEqual(['first test', 'second test']);
    const first = written.find((r) => r.name === 'first test');
    expect(first?.status).toBe('passed');
    const source = first?.attachments[0]?.source ?? '';
    expect(readFileSync(join(dir, source), 'utf8')).toBe('GET /x');
  });
});
