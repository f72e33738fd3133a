/**
 * Plumbing shared by the model-based fuzzers (suites/<api>/fuzz-model.test.ts): a sequence of
 * commands (fc.commands) runs against the real API inside `t.property`, each command checking its
 * postcondition against the model (DESIGN.md "Model-based suites": `check()` only reads the model;
 * `run()` calls the API, checks, then updates the model; `toString()` prints the call).
 *
 * - A command records findings in the iteration's CheckRun; as soon as a step adds a failure the
 *   sequence stops ({@link StopSequence}, later steps would be meaningless) and the property sees a
 *   failing iteration, so fast-check shrinks the sequence to the shortest one that still fails.
 * - {@link SequenceLog} keeps, per executed step, what was called and which exchanges it made; a
 *   failing sequence is kept beside the findings (the check outcome's `sequence`: the numbered
 *   steps and every request as curl), so the report prints the whole reproduction as a curl script.
 * - Replay: `fc.commands` needs its own `replayPath` besides the property's seed/path (STACK.md). The
 *   harness prints both as one `--replay "<path>~<commandsReplayPath>"` value; {@link runModel} passes
 *   the part after `~` to `fc.commands`.
 * - Concurrency (`--concurrency`, issue 16): a model whose sequences share nothing but the account
 *   (`concurrent: true`: each sequence creates and judges its own resources) has up to N sequences
 *   in flight at once, drawn exactly as `fc.check` draws them; only a pass is decided there, and
 *   anything found sends the property back to the one-at-a-time run, which is the verdict (shrinking
 *   and replay unchanged; harness/run/concurrent-runs.ts). A step whose judgement reads an
 *   account-wide value before and after its own operation (a ledger or balance window) holds the
 *   {@link SiblingLane} alone, so no sibling sequence moves that value meanwhile: the judgement is as
 *   decisive as in a sequential run.
 */
import fc from 'fast-check';
import type { CheckTools, RunTools } from './check.js';
import type { CheckRun } from './check-run.js';
import type { Exchange } from '../core/exchange.js';
import type { Judgement } from '../rules/finding.js';
import type { Rule } from '../rules/rule.js';
import { fails } from '../rules/finding.js';
import type { BurstResult } from '../http/burst.js';
import type { ApiResponse } from '../http/gateway-client.js';
import { currentCheck } from '../http/check-context.js';
import { LaneLock, traceLane } from './lane.js';
import type { LaneMode } from './lane.js';
import type { QuietKind } from '../http/quiet-lane.js';

/** Ends a sequence early (after a failure, or when the target answered something that makes the model unknown). */
export class StopSequence extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StopSequence';
  }
}

export interface SequenceStep {
  index: number;
  label: string;
  outcome: string;
  exchanges: Exchange[];
}

/** What each executed step of one sequence did. */
export class SequenceLog {
  readonly steps: SequenceStep[] = [];
  private mark = 0;

  constructor(private readonly run: CheckRun) {}

  begin(label: string): void {
    this.mark = this.run.exchanges.length;
    this.steps.push({ index: this.steps.length + 1, label, outcome: '', exchanges: [] });
  }

  /** Replaces the current step's label (e.g. with the resolved resource id). */
  describe(label: string): void {
    const step = this.steps[this.steps.length - 1];
    if (step) step.label = label;
  }

  /** Sets the current step's outcome text (what the target answered). */
  outcome(text: string): void {
    const step = this.steps[this.steps.length - 1];
    if (step) step.outcome = text;
  }

  end(): void {
    const step = this.steps[this.steps.length - 1];
    if (step) step.exchanges = this.run.exchanges.slice(this.mark);
  }

  /** Numbered steps, one line each, then the requests each made. */
  render(): string {
    return this.steps
      .map((s) => {
        const calls = s.exchanges.map((e) => `${e.request.method} ${e.request.path ?? e.request.url} → ${e.response ? e.response.status : 'no response'}`);
        return `${s.index}. ${s.label}${s.outcome ? ` ⇒ ${s.outcome}` : ''}${calls.length ? `\n     ${calls.join('\n     ')}` : ''}`;
      })
      .join('\n');
  }

  exchanges(): Exchange[] {
    return this.steps.flatMap((s) => s.exchanges);
  }
}

/**
 * The sequences of one property that are in flight together share the account: a step that measures
 * an account-wide value around its own operation (statement, pay, statement) runs in
 * {@link SiblingLane.measure}, alone; a step that moves such a value outside a measurement (a plain
 * pay) runs in {@link SiblingLane.move}, beside other moving steps but never inside a sibling's
 * measurement. Steps that move nothing account-wide take no lane. Sequential runs never wait.
 *
 * The lock is the run lane's reader-writer lock (harness/run/lane.ts: writer preference, so a
 * stream of moving steps cannot starve a measurement). A measurement waits for moving steps in
 * flight at most {@link SIBLING_DRAIN_MS} (one stuck request must not stall the property); past that
 * it runs beside them, and the rules stay sound, only less decisive (they bound foreign postings).
 * Measurements never nest and never call {@link SiblingLane.move} (a nested hold would wait on itself).
 *
 * Closing reads overlap the next opening read: a measurement whose moves have all been answered
 * calls {@link MeasureWindow.settle} before its closing read. From then on the next measurement may
 * take its opening read (both reads see the account after the first one's moves and before the
 * second one's), but its own moves wait in {@link MeasureWindow.beforeMove} until every settled
 * measurement's closing read is answered, and no moving step starts until then either. So each
 * window still contains no sibling's move, as when the measurements ran one after the other, and a
 * chain of measurements costs one round trip less each (issue 16).
 */
export class SiblingLane {
  private readonly lock = new LaneLock(SIBLING_DRAIN_MS);
  /** measurements past {@link MeasureWindow.settle} whose closing reads are not answered yet */
  private closing = 0;
  private readonly closed: (() => void)[] = [];

  /** runs `step` with no sibling's moving step or open measurement in flight (see {@link MeasureWindow}) */
  async measure<T>(step: (window: MeasureWindow) => Promise<T>): Promise<T> {
    const askedMs = Date.now();
    const release = await this.hold('exclusive');
    const grantedMs = Date.now();
    let settled = false;
    let settledMs: number | undefined;
    const window: MeasureWindow = {
      beforeMove: () => this.noneClosing(),
      settle: () => {
        if (settled) return;
        settled = true;
        settledMs = Date.now();
        this.closing++;
        release();
      },
    };
    try {
      return await step(window);
    } finally {
      if (settled) {
        this.closing--;
        if (this.closing === 0) for (const wake of this.closed.splice(0)) wake();
      } else release();
      this.trace('exclusive', askedMs, grantedMs, settledMs);
    }
  }

  /** runs `step` (it moves an account-wide value) outside any sibling's measurement */
  async move<T>(step: () => Promise<T>): Promise<T> {
    const askedMs = Date.now();
    const release = await this.hold('shared');
    const grantedMs = Date.now();
    try {
      // a settled measurement's closing read may still be in flight (no new one can settle while we hold)
      await this.noneClosing();
      return await step();
    } finally {
      release();
      this.trace('shared', askedMs, grantedMs, undefined);
    }
  }

  /** one entry of the run's lane trace (PAYGATE_LANE_TRACE, bench/lane-trace.ts) */
  private trace(mode: LaneMode, askedMs: number, grantedMs: number, settledMs: number | undefined): void {
    const who = currentCheck();
    traceLane(process.env['PAYGATE_LANE_TRACE'], { lane: 'siblings', mode, ...(who !== undefined && { who }), askedMs, grantedMs, ...(settledMs !== undefined && { settledMs }), endedMs: Date.now() });
  }

  private noneClosing(): Promise<void> {
    return this.closing === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.closed.push(resolve));
  }

  private async hold(mode: LaneMode): Promise<() => void> {
    let granted = false;
    let wake: (() => void) | undefined;
    const release = this.lock.acquire(mode, () => {
      granted = true;
      wake?.();
    });
    if (!granted) await new Promise<void>((resolve) => (wake = resolve));
    return release;
  }
}

/** What a measurement step of {@link SiblingLane.measure} tells the lane. */
export interface MeasureWindow {
  /** await before the first move of the measurement (after its opening read) */
  beforeMove(): Promise<void>;
  /** call once every move of the measurement has been answered, before its closing read */
  settle(): void;
}

/** How long a measurement waits for sibling moving steps in flight (each is one request or burst). */
export const SIBLING_DRAIN_MS = 30_000;

/** What every command's `run()` receives besides its API-specific client state. */
export interface ModelContext {
  it: RunTools;
  log: SequenceLog;
  /** simultaneous requests over separate connections (harness/http/burst.ts) */
  burst: CheckTools['burst'];
  /** the lane the sequences in flight together share (measurements alone); see {@link SiblingLane} */
  siblings: SiblingLane;
}

/**
 * Base of every command: wraps `act()` with the step log and stops the sequence once a failure was
 * recorded. Subclasses implement `check()` (reads the model only), `act()` and `toString()`.
 */
export abstract class ModelCommand<M extends object, R extends ModelContext> implements fc.AsyncCommand<M, R> {
  abstract check(m: Readonly<M>): boolean;
  protected abstract act(m: M, r: R): Promise<void>;
  abstract toString(): string;

  async run(m: M, r: R): Promise<void> {
    r.log.begin(this.toString());
    const before = r.it.run.failures.length;
    try {
      await this.act(m, r);
    } finally {
      r.log.end();
    }
    if (r.it.run.failures.length > before) throw new StopSequence(`step ${r.log.steps.length} failed`);
  }
}

/**
 * A command that acts on one existing model entity: runs when {@link candidates} is not empty and
 * acts on the `index`-th of them (modulo, see {@link pick}).
 */
export abstract class PickingCommand<M extends object, R extends ModelContext, E> extends ModelCommand<M, R> {
  constructor(readonly index: number) {
    super();
  }

  /** the entities this command may act on */
  protected abstract candidates(m: Readonly<M>): readonly E[];

  check(m: Readonly<M>): boolean {
    return this.candidates(m).length > 0;
  }

  /** the entity to act on (only called when {@link check} passed) */
  protected target(m: Readonly<M>): E {
    return pick(this.candidates(m), this.index) as E;
  }
}

/** Records rule judgements; returns true when any of them found a failure (the step then stops the sequence). */
export function recordAll(run: CheckRun, ...judgements: Judgement[]): boolean {
  run.record(judgements);
  return fails(judgements);
}

/** Judges `observation` with `rule` in `run`; true when it found a failure (the step should stop). */
export function judgeFails<O>(run: CheckRun, rule: Rule<O>, observation: O): boolean {
  const before = run.failures.length;
  run.judge(rule, observation);
  return run.failures.length > before;
}

/**
 * Independent reads of one step (or of the audit), judged in item order: `judge` gets each answer
 * and returns `false` to stop (a failure after which the rest would be meaningless).
 *
 * In a run judged one sequence at a time (`it.parallel` 1: `--concurrency 1`, and the verdict run
 * after a concurrent phase) it is the plain loop, send then judge, item by item, so nothing after a
 * stop is sent. In the concurrent phase (which only decides a pass, harness/run/concurrent-runs.ts)
 * every request is sent at once (`it.all`) and the answers are judged in the same order with the
 * same stop: the same judgements; what is sent differs only after a stop, i.e. in a run that found
 * something and is judged again one at a time anyway. Only for requests that neither move nor read
 * what another one of them changes (lookups of distinct resources, a statement beside a lookup).
 */
export async function sendThenJudge<T, A>(it: RunTools, items: readonly T[], send: (item: T) => Promise<A>, judge: (item: T, answer: A) => boolean | void): Promise<void> {
  if (it.parallel <= 1 || items.length <= 1) {
    for (const item of items) if (judge(item, await send(item)) === false) return;
    return;
  }
  const answers = await it.all(items, (item) => send(item));
  for (const [k, item] of items.entries()) if (judge(item, answers[k] as A) === false) return;
}

/**
 * A 429 (never a failure by itself) leaves the effect unknown: the sequence is abandoned without a
 * failure (the status check already recorded the warning).
 */
export function abandonOn429(r: ModelContext, ...responses: ApiResponse[]): void {
  if (responses.some((x) => x.status === 429)) {
    r.log.outcome('rate limited (429): effect unknown, sequence abandoned');
    throw new StopSequence('rate limited');
  }
}

/**
 * The lanes a model's race burst of money moves holds (`burst(api, n, send, MONEY_ONLY)`): pays,
 * cancels, completions and transfers are all `money` requests (quiet-lane.ts `requestKinds`). The
 * burst then never waits for another check's records or reads window (a list-order window, a race
 * burst's drain); it still waits for any money window, and no money window starts inside it. Its
 * race is judged as before: other checks' reads and creations were never stopped for it.
 */
export const MONEY_ONLY: readonly QuietKind[] = ['money'];

/** Statuses of a burst's responses (0 for a request that threw). */
export function burstStatuses(result: BurstResult<ApiResponse>): number[] {
  return result.outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : 0));
}

/** Picks the `index`-th element (modulo), so a command generated before its resources exist still resolves. */
export function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length === 0 ? undefined : list[index % list.length];
}

/** Short form of an id for step labels. */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

/** The commands' own replay path, carried after `~` in `--replay` (see the module comment). */
export function commandsReplayPath(replay: string | undefined): string | undefined {
  if (replay === undefined) return undefined;
  const at = replay.indexOf('~');
  return at < 0 ? undefined : replay.slice(at + 1) || undefined;
}

export interface ModelRunOptions<M extends object, R extends ModelContext> {
  /** property name (printed with the shrunk counterexample) */
  name: string;
  commands: fc.Arbitrary<fc.AsyncCommand<M, R>>[];
  /** a fresh model per sequence */
  model: () => M;
  /** the real side of one sequence */
  real: (ctx: ModelContext) => R;
  /** runs after the last command: re-reads every resource of the model (end-of-sequence invariants) */
  audit?: (m: M, r: R) => Promise<void>;
  /** sequences in the quick profile (full/certify: 4×; --runs overrides) */
  numRuns: number;
  maxCommands: number;
  /**
   * true: sequences are independent (each creates and judges its own resources; account-wide
   * measurements go through {@link SiblingLane.measure}) and may run at once under `--concurrency`.
   * Default false: one at a time, whatever `--concurrency` says.
   */
  concurrent?: boolean;
}

/** Runs sequences of commands against the target; failing sequences shrink to the shortest. */
export async function runModel<M extends object, R extends ModelContext>(t: CheckTools, options: ModelRunOptions<M, R>): Promise<void> {
  const replayPath = commandsReplayPath(t.settings.replay);
  const sequences = fc.commands(options.commands, { maxCommands: options.maxCommands, size: 'max', ...(replayPath !== undefined ? { replayPath } : {}) });
  // one lane per property: the sequences in flight together are this property's
  const siblings = new SiblingLane();
  await t.property(
    options.name,
    sequences,
    async (cmds, it) => {
      const log = new SequenceLog(it.run);
      const real = options.real({ it, log, burst: t.burst, siblings });
      const model = options.model();
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        if (options.audit && it.run.failures.length === 0) {
          log.begin('audit: re-read every resource of the sequence and compare with the model');
          try {
            await options.audit(model, real);
          } finally {
            log.end();
          }
        }
      } catch (error) {
        if (!(error instanceof StopSequence)) throw error;
      }
      attachSequence(it.run, log);
    },
    { numRuns: options.numRuns, concurrent: options.concurrent ?? false },
  );
}

/**
 * Keeps the failing sequence beside the iteration's findings (its own part of the check's outcome,
 * an attachment in Allure): the numbered steps and every exchange of the sequence, in order.
 */
function attachSequence(run: CheckRun, log: SequenceLog): void {
  if (run.failures.length === 0) return;
  run.failingSequence = {
    steps: `${log.steps.length} step(s); the one reported is fast-check's shrunk, shortest sequence:\n${log.render()}`,
    exchanges: log.exchanges(),
  };
}
