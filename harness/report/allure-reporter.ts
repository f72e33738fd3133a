/**
 * allure-vitest's reporter, writing its results as the run goes instead of all at its end.
 *
 * allure-vitest writes every test result and attachment when the run ends, each file through a
 * temporary file, an fsync and a rename. A quick run has ~1 800 of them (12 MB: each HTTP exchange
 * is a request, a response and a curl line), which took ~2 s after the last check, with the
 * checks done and the cores idle. Here:
 *
 * - a test file's results are written when that file ends (its tests' results and meta are final),
 *   while the other files still run; the run's end writes only what is left (a file that never
 *   ended);
 * - the files are written asynchronously and without fsync: nothing reads them before the run ends
 *   (`npm run report` does, afterwards) and the run awaits every write before it reports its end.
 *   A crash of the machine mid-run loses the Allure results of that run, which a rerun rewrites.
 *
 * What is written is allure-vitest's own, unchanged.
 */
import { mkdirSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { AllureVitestReporterConfig } from 'allure-vitest/reporter';
import type { Writer } from 'allure-js-commons/sdk/reporter';
import { stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import type { RunnerTask } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';

type WriterArgs<K extends keyof Writer> = Parameters<Writer[K]>;

/** allure's result files, written asynchronously, without fsync; {@link settled} awaits them all. */
export class AsyncResultsWriter implements Writer {
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  private made = false;

  constructor(private readonly resultsDir: string) {}

  writeResult(...[result]: WriterArgs<'writeResult'>): void {
    this.write(`${result.uuid}-result.json`, JSON.stringify(result));
  }

  writeGroup(...[group]: WriterArgs<'writeGroup'>): void {
    this.write(`${group.uuid}-container.json`, JSON.stringify(group));
  }

  writeAttachment(...[name, content]: WriterArgs<'writeAttachment'>): void {
    this.write(name, content);
  }

  writeAttachmentFromPath(...[name, from]: WriterArgs<'writeAttachmentFromPath'>): void {
    // a file the test named (allure.attachmentPath): copied as it is now
    this.track(copyFile(from, this.path(name)));
  }

  writeEnvironmentInfo(...[info]: WriterArgs<'writeEnvironmentInfo'>): void {
    this.write('environment.properties', stringifyEnvInfo(info));
  }

  writeCategoriesDefinitions(...[categories]: WriterArgs<'writeCategoriesDefinitions'>): void {
    this.write('categories.json', JSON.stringify(categories));
  }

  writeGlobals(...[name, globals]: WriterArgs<'writeGlobals'>): void {
    this.write(name, JSON.stringify(globals));
  }

  /** Resolves once every write so far is on disk; rejects with the first write that failed. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failure !== undefined) throw this.failure;
  }

  private write(name: string, content: string | Buffer): void {
    this.track(writeFile(this.path(name), content));
  }

  private track(write: Promise<void>): void {
    const tracked: Promise<void> = write.catch((err: unknown) => {
      this.failure ??= err;
    }).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private path(name: string): string {
    if (!this.made) {
      mkdirSync(this.resultsDir, { recursive: true });
      this.made = true;
    }
    return join(this.resultsDir, name);
  }
}

/** The fields of allure-vitest's reporter this one reaches (not in its types: they are private). */
interface ReporterInternals {
  allureReporterRuntime?: { writer?: Writer };
}

export default class IncrementalAllureReporter extends AllureVitestReporter {
  private readonly writer: AsyncResultsWriter;
  /** test files whose results are written */
  private readonly written = new Set<string>();
  private incremental = false;

  constructor(config: AllureVitestReporterConfig) {
    super(config);
    this.writer = new AsyncResultsWriter(config.resultsDir ?? './allure-results');
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    const runtime = (this as unknown as ReporterInternals).allureReporterRuntime;
    // an allure-vitest whose runtime has moved keeps its own writer, and writes at the run's end
    if (runtime?.writer === undefined) return;
    runtime.writer = this.writer;
    this.incremental = true;
  }

  onTestModuleEnd(module: TestModule): void {
    const task = taskOf(module);
    if (!this.incremental || task === undefined) return;
    this.written.add(module.moduleId);
    this.handleTask(task);
  }

  override async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    super.onTestRunEnd(modules.filter((m) => !this.written.has(m.moduleId)));
    if (this.incremental) await this.writer.settled();
  }
}

/** The runner task behind a reported module (allure-vitest reads it the same way). */
function taskOf(module: TestModule): RunnerTask | undefined {
  return (module as unknown as { task?: RunnerTask }).task;
}
