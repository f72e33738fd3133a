/**
 * Live progress for the CLI (a vitest reporter, used instead of vitest's default one when
 * PAYGATE_CLI=1): one short line, rewritten in place on a terminal; plain lines every few seconds
 * when output is not a terminal or CI is set. Also prints what vitest would otherwise hide: files
 * that failed to load and unhandled errors.
 */
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { checkRecordFrom } from '../report/verdict.js';
import { outcomeOf } from '../report/verdict-reporter.js';

export interface ProgressState {
  collected: number;
  done: number;
  failed: number;
  warned: number;
  notRun: number;
  errors: number;
  requests: number;
  elapsedMs: number;
}

export function emptyProgress(): ProgressState {
  return { collected: 0, done: 0, failed: 0, warned: 0, notRun: 0, errors: 0, requests: 0, elapsedMs: 0 };
}

/** `checks 12/40 · failed 1 · warnings 2 · not run 3 · requests 145 · 12s` */
export function formatProgress(state: ProgressState): string {
  const parts = [`checks ${state.done}${state.collected > 0 ? `/${state.collected}` : ''}`, `failed ${state.failed}`];
  if (state.warned > 0) parts.push(`warnings ${state.warned}`);
  if (state.notRun > 0) parts.push(`not run ${state.notRun}`);
  if (state.errors > 0) parts.push(`harness errors ${state.errors}`);
  parts.push(`requests ${state.requests}`, `${Math.round(state.elapsedMs / 1000)}s`);
  return `[paygate] ${parts.join(' · ')}`;
}

export interface ProgressOptions {
  /** rewrite one line in place (default: stdout is a TTY and CI is unset) */
  interactive?: boolean;
  /** plain-line period when not interactive (ms, default 10000) */
  intervalMs?: number;
  write?: (text: string) => void;
}

export default class ProgressReporter implements Reporter {
  private state = emptyProgress();
  private started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private readonly interactive: boolean;
  private readonly intervalMs: number;
  private readonly write: (text: string) => void;
  private lastLine = '';

  constructor(options: ProgressOptions = {}) {
    this.interactive = options.interactive ?? (process.stdout.isTTY === true && (process.env['CI'] ?? '') === '');
    this.intervalMs = options.intervalMs ?? 10_000;
    this.write = options.write ?? ((text) => process.stdout.write(text));
  }

  get current(): ProgressState {
    return { ...this.state, elapsedMs: Date.now() - this.started };
  }

  onTestRunStart(): void {
    this.state = emptyProgress();
    this.started = Date.now();
    const period = this.interactive ? 250 : this.intervalMs;
    this.timer = setInterval(() => this.render(), period);
    this.timer.unref();
  }

  onTestModuleCollected(module: TestModule): void {
    for (const _ of module.children.allTests()) this.state.collected += 1;
  }

  onTestCaseResult(testCase: TestCase): void {
    const record = checkRecordFrom(outcomeOf(testCase));
    this.state.done += 1;
    this.state.requests += record.requests;
    if (record.state === 'failed') this.state.failed += 1;
    else if (record.state === 'warned') this.state.warned += 1;
    else if (record.state === 'not-run') this.state.notRun += 1;
    else if (record.state === 'error') this.state.errors += 1;
    if (this.interactive) this.render();
  }

  private render(final = false): void {
    const line = formatProgress(this.current);
    if (this.interactive) {
      this.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
    } else if (final || line !== this.lastLine) {
      this.write(`${line}\n`);
    }
    this.lastLine = line;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.render(true);
    for (const module of testModules) {
      for (const error of module.errors()) {
        this.write(`[paygate] ${module.relativeModuleId}: ${error.name ?? 'Error'}: ${error.message}\n`);
      }
    }
    for (const error of unhandledErrors) {
      this.write(`[paygate] unhandled error: ${error.name ?? 'Error'}: ${error.message}\n${error.stack ?? ''}\n`);
    }
  }
}
