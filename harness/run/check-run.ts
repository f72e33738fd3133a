/**
 * {@link CheckRun}: one per check (and one per property iteration). It observes every exchange made
 * through clients created for it, judges each response against the contract automatically, and
 * records the judgements the check hands it: every rule evaluation per requirement (how many, with
 * what outcome) and the findings (failures and warnings kept apart). `finish()` throws an
 * AssertionError-named error listing the failures. Verdicts come from these evaluations: a
 * requirement a check only lists, and no rule evaluated, is never reported as passed.
 */
import type { Exchange } from '../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../rules/finding.js';
import { HarnessError } from '../core/errors.js';
import type { ExchangeObserver, HttpResult } from '../http/client.js';
import type { Contract } from '../contract/validator.js';
import { renderFinding, replayCommand } from '../report/format.js';
import type { EvaluationCount } from '../report/outcome.js';
import { defaultRedactor } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import type { Rule } from '../rules/rule.js';
import { conformToContract } from '../rules/contract.js';
import { TargetUnreachableError } from '../http/transport.js';

/** Thrown by `CheckRun.finish()`; named AssertionError so reporters mark the test failed, not broken. */
export class ConformanceFailure extends Error {
  constructor(
    message: string,
    readonly findings: readonly Finding[],
  ) {
    super(message);
    this.name = 'AssertionError';
  }
}

/** A check that cannot run (missing optional credential, API not configured): never a failure. */
export class NotRunError extends HarnessError {
  constructor(
    readonly capability: string,
    reason: string,
  ) {
    super('not-run', reason);
  }
}

export interface CheckRunOptions {
  /** validates every observed exchange; omit to record without validation */
  contract?: Contract;
  /** the run's seed, for the replay line */
  seed?: number;
  /** fast-check counterexample path */
  replay?: string;
  /** warnings fail the check too (`--strict`) */
  strict?: boolean;
  redactor?: Redactor;
}

export type { EvaluationCount };

export type Evaluations = Partial<Record<RequirementId, EvaluationCount>>;

/** JSON-serialisable record of a check for reporters. */
export interface CheckRunSummary {
  name: string;
  requirements: RequirementId[];
  verdict: 'pass' | 'fail' | 'warn';
  failures: Finding[];
  warnings: Finding[];
  notes: string[];
  exchanges: Exchange[];
  evaluations: Evaluations;
  seed?: number;
  replay?: string;
}

export class CheckRun implements ExchangeObserver {
  /** the requirements the check lists, then every requirement a rule evaluated in it */
  readonly requirements: RequirementId[];
  readonly exchanges: Exchange[] = [];
  readonly failures: Finding[] = [];
  readonly warnings: Finding[] = [];
  readonly evaluations: Evaluations = {};
  /** observations worth reporting that are not findings (e.g. "multi-byte counted as UTF-16 units") */
  readonly notes: string[] = [];
  seed: number | undefined;
  replay: string | undefined;
  /** the failing sequence of a model-based fuzzer (harness/run/model.ts): its steps and every exchange */
  failingSequence: { steps: string; exchanges: Exchange[] } | undefined;
  private readonly deadlineHooks = new Set<() => void>();
  /** the check reached its time limit (its body may still be running) */
  deadlineReached = false;

  constructor(
    readonly name: string,
    requirements: readonly RequirementId[] = [],
    private readonly options: CheckRunOptions = {},
  ) {
    this.requirements = [...requirements];
    this.seed = options.seed;
    this.replay = options.replay;
  }

  /** Failures then warnings. */
  get findings(): Finding[] {
    return [...this.failures, ...this.warnings];
  }

  /**
   * ExchangeObserver: records the exchange and judges its response against the contract (every
   * response the check sees, each 429 attempt included: harness/rules/contract.ts).
   */
  observe(exchange: Exchange, result?: HttpResult): void {
    this.exchanges.push(exchange);
    if (!this.options.contract) return;
    const raw = result && result.status !== 0 ? { json: result.json, text: result.text, headers: result.headers, retried: result.retried === true } : undefined;
    const facts = this.options.contract.responseFacts(exchange, raw);
    if (facts) this.judge(conformToContract, facts);
  }

  /** the names of the rules judged in this run */
  readonly rulesJudged = new Set<string>();
  /** relation id → the cells of it this run's judgements tried */
  readonly covered: Record<string, string[]> = {};

  /**
   * Judges `observation` with `rule` and records the judgement (see {@link record}). A request of the
   * observation that got no HTTP answer makes the check inconclusive ({@link TargetUnreachableError}):
   * the findings recorded before it stand. Returns true when the rule found nothing.
   */
  judge<O>(rule: Rule<O>, observation: O): boolean {
    const judgement = rule.judge(observation);
    this.rulesJudged.add(rule.name);
    const silent = judgement.unanswered?.[0];
    if (!silent) return this.record(judgement);
    // what was found about the requests that were answered stands; nothing was decided
    this.record({ requirements: [], findings: judgement.findings });
    throw new TargetUnreachableError(silent);
  }

  /**
   * Records rule evaluations: each judgement counts one evaluation of every requirement it decided,
   * and its findings, as they are. Returns true when the judgements found nothing.
   */
  record(...judgements: (Judgement | readonly Judgement[])[]): boolean {
    let clean = true;
    for (const judgement of judgements.flat()) {
      for (const { relation, cells } of judgement.covered ?? []) this.cover(relation, cells);
      const found = judgement.findings.length > 0;
      for (const id of judgement.requirements) {
        const count = (this.evaluations[id] ??= { evaluations: 0, failed: 0, warned: 0 });
        count.evaluations += 1;
        if (found) {
          const named = judgement.findings.filter((f) => f.requirements.includes(id));
          if (named.some((f) => f.severity === 'failure')) count.failed += 1;
          else if (named.length > 0) count.warned += 1;
        }
        if (!this.requirements.includes(id)) this.requirements.push(id);
      }
      for (const finding of judgement.findings) {
        clean = false;
        this.addFinding(finding);
      }
    }
    return clean;
  }

  /** relation id → cell → why this run could not try it (an optional credential is not configured) */
  readonly untried: Record<string, Record<string, string>> = {};

  /** These cells of `relation` cannot be tried in this run: `reason` names what is missing (e.g. the credential's variable). */
  cannotTry(relation: { id: string }, cells: readonly string[], reason: string): void {
    const map = (this.untried[relation.id] ??= {});
    for (const cell of cells) map[cell] ??= reason;
  }

  private cover(relation: string, cells: readonly string[]): void {
    const list = (this.covered[relation] ??= []);
    for (const cell of cells) if (!list.includes(cell)) list.push(cell);
  }

  /** Merges the evaluations and findings of another run (a property iteration) into this one. */
  absorb(other: CheckRun, options: { findings: 'all' | 'warnings' | 'none' }): void {
    for (const [relation, cells] of Object.entries(other.covered)) this.cover(relation, cells);
    for (const [relation, reasons] of Object.entries(other.untried)) for (const [cell, reason] of Object.entries(reasons)) this.cannotTry({ id: relation }, [cell], reason);
    for (const [id, count] of Object.entries(other.evaluations) as [RequirementId, EvaluationCount][]) {
      const mine = (this.evaluations[id] ??= { evaluations: 0, failed: 0, warned: 0 });
      mine.evaluations += count.evaluations;
      if (options.findings === 'all') mine.failed += count.failed;
      if (options.findings !== 'none') mine.warned += count.warned;
      if (!this.requirements.includes(id)) this.requirements.push(id);
    }
    const findings = options.findings === 'all' ? other.findings : options.findings === 'warnings' ? other.warnings : [];
    for (const f of findings) this.addFinding(f);
    if (options.findings === 'all' && other.failingSequence !== undefined) this.failingSequence = other.failingSequence;
  }

  private addFinding(item: Finding): void {
    for (const id of item.requirements) if (!this.requirements.includes(id)) this.requirements.push(id);
    (item.severity === 'failure' ? this.failures : this.warnings).push(item);
  }

  /**
   * Runs `fn` if the check reaches its time limit while `fn` is registered (a property that found a
   * failure and is still shrinking it hands over what it has); at once if the limit has passed.
   * Returns the function that unregisters it.
   */
  onDeadline(fn: () => void): () => void {
    if (this.deadlineReached) {
      fn();
      return () => undefined;
    }
    this.deadlineHooks.add(fn);
    return () => this.deadlineHooks.delete(fn);
  }

  /** The check reached its time limit: every registered hook runs, once. */
  reachedDeadline(): void {
    this.deadlineReached = true;
    const hooks = [...this.deadlineHooks];
    this.deadlineHooks.clear();
    for (const fn of hooks) fn();
  }

  /** Adds an observation (reported, never a failure). */
  note(text: string): void {
    this.notes.push(this.redactText(text));
  }

  /** Text with this run's known secrets replaced. */
  redactText(text: string): string {
    return (this.options.redactor ?? defaultRedactor).redactText(text);
  }

  /** Sets the replay data printed with failures. */
  setReplay(replay: { seed?: number; path?: string }): void {
    if (replay.seed !== undefined) this.seed = replay.seed;
    if (replay.path !== undefined) this.replay = replay.path;
  }

  private failing(): Finding[] {
    return this.options.strict ? this.findings : this.failures;
  }

  summary(): CheckRunSummary {
    const failing = this.failing();
    const s: CheckRunSummary = {
      name: this.name,
      requirements: [...this.requirements],
      verdict: failing.length ? 'fail' : this.warnings.length ? 'warn' : 'pass',
      failures: [...this.failures],
      warnings: [...this.warnings],
      notes: [...this.notes],
      exchanges: [...this.exchanges],
      evaluations: structuredClone(this.evaluations),
    };
    if (this.seed !== undefined) s.seed = this.seed;
    if (this.replay !== undefined) s.replay = this.replay;
    return s;
  }

  /**
   * Ends the check: throws {@link ConformanceFailure} when a finding has severity failure (or any
   * finding under `strict`). Returns the summary otherwise.
   */
  finish(): CheckRunSummary {
    const failing = this.failing();
    if (failing.length) {
      const replay = this.seed !== undefined || this.replay !== undefined ? replayCommand({ ...(this.seed !== undefined && { seed: this.seed }), ...(this.replay !== undefined && { path: this.replay }), title: this.name }) : undefined;
      const body = failing.map((f) => renderFinding(f, { ...(replay !== undefined && { replay }) })).join('\n\n');
      throw new ConformanceFailure(`${this.name}: ${failing.length} finding(s) break the contract\n\n${body}`, failing);
    }
    return this.summary();
  }
}
