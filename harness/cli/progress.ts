/**
 * Live progress for the CLI (a vitest reporter, used instead of vitest's default one when
 * PAYGATE_CLI=1): one short line, rewritten in place on a terminal; plain lines every few seconds
 * when output is not a terminal or CI is set. Also prints what vitest would otherwise hide: files
 * that failed to load and unhandled errors.
 */
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { outcomeOf } from '../report/verdict-reporter.js';
import { isInconclusiveError } from '../http/network.js';

export interface ProgressState {
  collected: number;
  done: number;
  failed: number;
  warned: number;
  notRun: number;
  errors: number;
  /** checks that could not be judged (network, credentials, time limit) */
  inconclusive?: number;
  requests: number;
  elapsedMs: number;
  /** checks expected before files load (the CLI's plan; harness/cli/cost.ts) */
  planned?: number;
  /** requests expected in the whole run and the rate cap, for the ETA */
  plannedRequests?: number;
  maxRps?: number;
}

export function emptyProgress(): ProgressState {
  return { collected: 0, done: 0, failed: 0, warned: 0, notRun: 0, errors: 0, inconclusive: 0, requests: 0, elapsedMs: 0 };
}

/** `checks 12/40 · failed 1 · warnings 2 · not run 3 · requests 145 · 12s` */
export function formatProgress(state: ProgressState): string {
  const total = Math.max(state.collected, state.planned ?? 0);
  const parts = [`checks ${state.done}${total > 0 ? `/${total}` : ''}`, `failed ${state.failed}`];
  if (state.warned > 0) parts.push(`warnings ${state.warned}`);
  if (state.notRun > 0) parts.push(`not run ${state.notRun}`);
  if ((state.inconclusive ?? 0) > 0) parts.push(`inconclusive ${state.inconclusive}`);
  if (state.errors > 0) parts.push(`harness errors ${state.errors}`);
  parts.push(`requests ${state.requests}${state.plannedRequests !== undefined ? `/~${state.plannedRequests}` : ''}`, `${Math.round(state.elapsedMs / 1000)}s`);
  const eta = etaSeconds(state);
  if (eta !== undefined && eta >= 1) parts.push(`eta ~${formatDuration(eta)}`);
  return `[paygate] ${parts.join(' · ')}`;
}

/** `45s`, `3m05s`, `1h02m` */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Seconds left: under a rate cap, the planned requests not yet made at the cap; otherwise the
 * checks left at the pace so far. Undefined until there is something to go on.
 */
export function etaSeconds(state: ProgressState): number | undefined {
  const total = Math.max(state.collected, state.planned ?? 0);
  const byChecks = state.done > 0 && total > state.done ? (state.elapsedMs / 1000) * ((total - state.done) / state.done) : state.done >= total && total > 0 ? 0 : undefined;
  if (state.maxRps !== undefined && state.plannedRequests !== undefined) {
    const byRate = Math.max(0, state.plannedRequests - state.requests) / state.maxRps;
    // the cap sets the pace; once past the plan (an estimate), the checks left tell
    return byRate > 0 || byChecks === undefined ? byRate : byChecks;
  }
  return byChecks;
}

function envNumber(name: string): number | undefined {
  const text = process.env[name];
  const n = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
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
  private files = 0;
  private loaded = 0;

  constructor(options: ProgressOptions = {}) {
    this.interactive = options.interactive ?? (process.stdout.isTTY === true && (process.env['CI'] ?? '') === '');
    this.intervalMs = options.intervalMs ?? 10_000;
    this.write = options.write ?? ((text) => process.stdout.write(text));
  }

  get current(): ProgressState {
    return { ...this.state, elapsedMs: Date.now() - this.started };
  }

  onTestRunStart(specifications: ReadonlyArray<unknown> = []): void {
    this.files = specifications.length;
    this.loaded = 0;
    this.state = emptyProgress();
    // the CLI's plan (PAYGATE_PLANNED_*): a total from the start instead of one that grows as files load
    const planned = envNumber('PAYGATE_PLANNED_CHECKS');
    const plannedRequests = envNumber('PAYGATE_PLANNED_REQUESTS');
    const maxRps = envNumber('PAYGATE_MAX_RPS_TOTAL');
    if (planned !== undefined) this.state.planned = planned;
    if (plannedRequests !== undefined) this.state.plannedRequests = plannedRequests;
    if (maxRps !== undefined) this.state.maxRps = maxRps;
    this.started = Date.now();
    const period = this.interactive ? 250 : this.intervalMs;
    this.timer = setInterval(() => this.render(), period);
    this.timer.unref();
  }

  onTestModuleCollected(module: TestModule): void {
    for (const _ of module.children.allTests()) this.state.collected += 1;
    this.loaded += 1;
    // every file loaded: the count is exact, the plan no longer matters
    if (this.files > 0 && this.loaded >= this.files) delete this.state.planned;
  }

  onTestCaseResult(testCase: TestCase): void {
    const record = outcomeOf(testCase);
    this.state.done += 1;
    this.state.requests += record.requests;
    if (record.state === 'failed') this.state.failed += 1;
    else if (record.state === 'warned') this.state.warned += 1;
    else if (record.state === 'not-run') this.state.notRun += 1;
    else if (record.state === 'error') this.state.errors += 1;
    else if (record.state === 'inconclusive') this.state.inconclusive = (this.state.inconclusive ?? 0) + 1;
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
    for (const error of unhandledErrors.filter((e) => !isInconclusiveError(e as { code?: unknown }))) {
      this.write(`[paygate] unhandled error: ${error.name ?? 'Error'}: ${error.message}\n${error.stack ?? ''}\n`);
    }
  }
}
