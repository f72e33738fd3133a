/**
 * The suites' one entry point: `check(title, spec, body)` registers a vitest test that
 *
 * - runs only when its API (and optional capability) is configured and its tier fits the profile,
 *   otherwise it is reported "not run" with the reason (never a failure);
 * - gets a {@link CheckRun} that records every exchange, validates every response against the
 *   contract, and collects findings;
 * - ends in one outcome (harness/run/outcome.ts `endCheck`, a pure function of what the run
 *   recorded and how the body ended), written once on the vitest task and read as it is by the
 *   verdict reporter, Allure and JUnit (harness/report/outcome.ts);
 * - fails (AssertionError) only when that outcome is `failed`: findings of severity `failure` (or
 *   warnings under --strict).
 *
 *   check('amount below the minimum is rejected', {
 *     id: 'gateway.pixin.amount-min', api: 'gateway', area: 'PIX charges',
 *     rules: [honourPixChargeRequest],          // the requirements come from the rules
 *   }, async (t) => {
 *     const r = await t.gateway().createPixCharge(body);
 *     t.judge(honourPixChargeRequest, { case: 'breaks', path: 'amountInCents', kind: 'below-minimum', what: 'amount 99', answer: r });
 *   });
 *
 * Properties: `t.property(name, arbitrary, async (value, it) => { … it.judge(rule, …) })` runs a
 * seeded fast-check property where every iteration has its own CheckRun (and clients bound to it);
 * the shrunk counterexample's findings, seed and path land in the check's run.
 */
import fc from 'fast-check';
import { test } from 'vitest';
import type { TestContext } from 'vitest';
import { Session } from './session.js';
import { ConformanceFailure, NotRunError } from './check-run.js';
import type { CheckRun } from './check-run.js';
import type { GatewayClient } from '../http/gateway-client.js';
import type { PartnerClient } from '../http/partner-client.js';
import type { GatewayPairName, PartnerKeyName } from '../http/auth.js';
import { burst } from '../http/burst.js';
import type { BurstResult } from '../http/burst.js';
import { loadTargetConfig, notRunReason } from '../config/target.js';
import type { Capability, TargetConfig } from '../config/target.js';
import { ReceiverClient } from '../webhooks/receiver-client.js';
import { receiverNotRunReason } from '../config/receiver-target.js';
import { annotateCheck, outcomeFindingsText, reportOutcome } from '../report/allure.js';
import { spoolExchanges } from '../report/har.js';
import type { CheckSeverity } from '../report/outcome.js';
import type { Finding, RequirementId } from '../rules/finding.js';
import type { Rule } from '../rules/rule.js';
import { closureOf, requirementsOf } from '../rules/rule.js';
import { contractRelations } from '../rules/statuses.js';
import { HarnessError } from '../core/errors.js';
import type { Profile } from '../cli/args.js';
import { runBaseline, withoutAccepted } from './accepted.js';
import { endCheck } from './outcome.js';
import type { CheckEnd, CheckIdentity, EndSettings } from './outcome.js';
import { runConcurrently } from './concurrent-runs.js';
import { mapLimited } from './parallel.js';
import { LANE_MAX_WAIT_MS, enterExclusiveLane, enterExclusiveLaneAfter } from './check-lane.js';
import type { ExclusiveLane } from './check-lane.js';
import { QUIET_KINDS, enterRequest, requestsBlockedMs } from '../http/quiet-lane.js';
import type { QuietKind } from '../http/quiet-lane.js';
import { collectCheck, collecting, isSelected } from './check-catalogue.js';
import type { CheckEntry } from './check-catalogue.js';
import { inCheck } from '../http/check-context.js';

export type { Profile };

/** The run's settings, from the PAYGATE_* variables the CLI sets (defaults for a bare `vitest`). */
export interface RunSettings {
  profile: Profile;
  seed: number;
  /** fast-check numRuns override (`--runs`); undefined: the property's profile default */
  runs: number | undefined;
  strict: boolean;
  api: 'gateway' | 'partner' | 'both';
  maxRps: number | undefined;
  replay: string | undefined;
  /** PAYGATE_TEST_TIMEOUT_MS: one time limit for every check, replacing the computed ones */
  timeoutMs: number | undefined;
  /** PAYGATE_CONCURRENCY (`--concurrency`): property runs in flight at once; undefined: one at a time */
  concurrency: number | undefined;
}

function positiveNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

let cachedSettings: RunSettings | undefined;
export function runSettings(env: NodeJS.ProcessEnv = process.env): RunSettings {
  if (cachedSettings && env === process.env) return cachedSettings;
  const profile = env['PAYGATE_PROFILE'];
  const api = env['PAYGATE_API'];
  const settings: RunSettings = {
    profile: profile === 'full' || profile === 'certify' ? profile : 'quick',
    seed: Number.isSafeInteger(Number(env['PAYGATE_SEED'])) && env['PAYGATE_SEED'] ? Number(env['PAYGATE_SEED']) : 42,
    runs: positiveNumber(env['PAYGATE_RUNS']),
    strict: env['PAYGATE_STRICT'] === '1',
    api: api === 'gateway' || api === 'partner' ? api : 'both',
    maxRps: positiveNumber(env['PAYGATE_MAX_RPS']),
    replay: env['PAYGATE_REPLAY'] || undefined,
    timeoutMs: positiveNumber(env['PAYGATE_TEST_TIMEOUT_MS']),
    concurrency: positiveNumber(env['PAYGATE_CONCURRENCY']),
  };
  if (env === process.env) cachedSettings = settings;
  return settings;
}

let cachedTarget: TargetConfig | undefined;
/** The worker's target, read once from the environment global-setup exported. */
function workerTarget(): TargetConfig {
  cachedTarget ??= loadTargetConfig();
  return cachedTarget;
}

let sessionPromise: Promise<Session> | undefined;
/** The worker's session (HTTP pools, tokens, contract), built once from the environment. */
export function sharedSession(): Promise<Session> {
  if (!sessionPromise) {
    const settings = runSettings();
    sessionPromise = Session.create(workerTarget(), {
      seed: settings.seed,
      strict: settings.strict,
      ...(settings.maxRps !== undefined ? { maxRps: settings.maxRps } : {}),
      // concurrent property runs must not queue behind the pool's default 8 connections
      ...(settings.concurrency !== undefined ? { connections: Math.max(8, 2 * settings.concurrency) } : {}),
    });
  }
  return sessionPromise;
}

export interface CheckSpec {
  /** stable check identity, e.g. `gateway.pixin.amount-min` */
  id: string;
  api: 'gateway' | 'partner';
  /** functional area (Allure feature), e.g. `PIX charges` */
  area: string;
  /**
   * the rules this check hands observations to (harness/rules/): its requirement list is what they
   * decide, with the rules they use ({@link checkRequirements}); listing a rule proves nothing: a
   * requirement is decided when a rule deciding it is evaluated on what the check observed
   */
  rules?: readonly Rule<never>[];
  /** requirement IDs of a check whose rules do not declare them yet (being replaced by `rules`) */
  requirements?: RequirementId[];
  severity?: CheckSeverity;
  /** `timer`: waits for a contract timer; runs only in the full and certify profiles */
  tier?: 'quick' | 'timer';
  /**
   * `receiver`: the check tests the integrator's webhook endpoint of scheme `api` (suites/receiver/;
   * runs only in a receiver run); absent: it tests the API
   */
  target?: 'receiver';
  /** optional capabilities the check needs (missing → not run, with the reason) */
  needs?: Capability[];
  /** `certify` only (production-credential checks) */
  certifyOnly?: boolean;
  /** time limit in the quick profile with no rate cap (default 60 s; timer checks 15 min); see {@link checkBudgetMs} */
  timeoutMs?: number;
  /**
   * needs a quiet account for the whole check: no other check's request of that kind (`money`,
   * `records`; `true`: every request) reaches its API meanwhile; see harness/http/quiet-lane.ts. A
   * check that needs it only for a window (a balance window, a race burst) uses
   * {@link CheckTools.alone} instead, so the account is held for that window only, not while the
   * check waits for webhooks.
   */
  exclusive?: boolean | QuietKind;
  /**
   * the check spends most of its time in a wait of ours with nothing in flight (the grace for a
   * duplicate delivery after the first one arrived): the waiting checks of one file run side by
   * side, as the timer checks do (vitest `test.concurrent`: consecutive ones form a group), so their
   * waits overlap instead of adding up on one worker. Such checks need nothing of each other: checks
   * of other workers already run beside them, and their quiet windows are held apart the same way
   * in one worker (the lanes are async-local, harness/http/quiet-lane.ts).
   */
  waits?: true;
}

/**
 * How long a check may run. Each request has its own timeout, so this only bounds a check against a
 * target that keeps it waiting; it is scaled so that a slow but conforming target is never cut off:
 * by the property runs (full and certify run 4× the quick runs, `--runs` sets them) and by the rate
 * cap (a worker held under 20 requests/s gets proportionally longer). Timer checks keep their own
 * limit (their waits are the contract's). PAYGATE_TEST_TIMEOUT_MS replaces it outright.
 */
export function checkBudgetMs(spec: Pick<CheckSpec, 'tier' | 'timeoutMs'>, settings: Pick<RunSettings, 'profile' | 'runs' | 'maxRps' | 'timeoutMs'>): number {
  if (settings.timeoutMs !== undefined) return settings.timeoutMs;
  if (spec.tier === 'timer') return spec.timeoutMs ?? 15 * 60_000;
  const base = spec.timeoutMs ?? 60_000;
  const runs = settings.runs !== undefined ? Math.max(1, settings.runs / 8) : settings.profile === 'quick' ? 1 : 4;
  const rate = settings.maxRps !== undefined ? Math.max(1, 20 / settings.maxRps) : 1;
  return Math.round(base * runs * rate);
}

/**
 * Raced against a check's body: resolves `'deadline'` after `ms`, plus `extra()` ms (time the check
 * waited for the quiet-account lanes, behind another check's window, is not its own).
 */
function deadline(ms: number, extra: () => number = () => 0): { promise: Promise<'deadline'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let credited = 0;
  const promise = new Promise<'deadline'>((resolve) => {
    const fire = (): void => {
      const owed = extra() - credited;
      if (owed <= 0) return resolve('deadline');
      credited += owed;
      timer = setTimeout(fire, owed);
    };
    timer = setTimeout(fire, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** The requirements a check sets out to decide: those of its rules (and the rules they use). */
export function checkRequirements(spec: Pick<CheckSpec, 'rules' | 'requirements'>): RequirementId[] {
  const ids = requirementsOf(spec.rules ?? []);
  for (const id of spec.requirements ?? []) if (!ids.includes(id)) ids.push(id);
  return ids;
}

/** Clients and helpers bound to one CheckRun. */
export interface RunTools {
  run: CheckRun;
  /** judges `observation` with `rule` and records the judgement in this run; true when nothing was found */
  judge<O>(rule: Rule<O>, observation: O): boolean;
  /** a gateway client (default: the sandbox pair) whose exchanges this run records and validates */
  gateway(which?: GatewayPairName): GatewayClient;
  /** a partner client (default: the `ak_test_` key) whose exchanges this run records and validates */
  partner(which?: PartnerKeyName): PartnerClient;
  /**
   * independent requests this run may have in flight at once: `--concurrency` in a check's body and
   * in the concurrent phase of a property (which only decides a pass), 1 in a property run judged one
   * at a time (the verdict, shrinking, replay)
   */
  parallel: number;
  /**
   * Runs `send` over independent items (requests that neither read nor change what another one
   * does) with up to {@link parallel} in flight, and returns the results in item order
   * (harness/run/parallel.ts). Judge the results after the call, in order, so what is sent and
   * judged never depends on the concurrency.
   */
  all<T, R>(items: readonly T[], send: (item: T, index: number) => Promise<R>): Promise<R[]>;
}

export interface CheckTools extends RunTools {
  session: Session;
  target: TargetConfig;
  settings: RunSettings;
  /** the run's webhook receiver (control API); throws NotRunError when none is configured */
  receiver(): ReceiverClient;
  /** the URL at which the target reaches the receiver for `path` (e.g. `/gw/<uuid>`) */
  callbackUrl(path: string): string;
  /**
   * fires `n` requests at the same instant over separate connections (see harness/http/burst.ts),
   * holding the API's quiet-account lanes of `kinds` shared for the whole burst (default: all three).
   * `kinds` must cover every request of the burst (quiet-lane.ts `requestKinds`: a pay, cancel,
   * completion or transfer is `money`): its requests pass the lanes the burst holds. A burst of money
   * moves that names only `money` does not wait for other checks' records or reads windows.
   */
  burst<T>(api: 'gateway' | 'partner', n: number, makeRequest: (index: number) => Promise<T>, kinds?: readonly QuietKind[]): Promise<BurstResult<T>>;
  /** a seeded fast-check property; each iteration gets its own run; see the module comment */
  property<T>(name: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T, it: RunTools) => Promise<void>, options?: PropertyOptions): Promise<void>;
  /** skips the rest of the check as "not run" with the reason (e.g. a precondition the target did not provide) */
  notRun(capability: string, reason: string): never;
  /**
   * Runs `fn` with the check's API account to itself (harness/http/quiet-lane.ts). For a window
   * whose judgement needs nothing else to happen on the account; keep it short: every other check's
   * requests of that kind wait for it. Not for property runs (they may be in flight together).
   * `kind`: only the requests that can disturb this kind wait (`money`: a balance or ledger window;
   * `records`: a list's contents or order); default: every request to the API (a race burst, whose
   * window of a few milliseconds a busy target misses).
   */
  alone<R>(fn: () => Promise<R>, kind?: QuietKind): Promise<R>;
  /**
   * {@link alone} whose lanes are taken while `opening` (the window's own first reads, e.g. the
   * statement before a race burst; reads only) runs, inside a window that already holds the API's money lane:
   * the opening's round trip and the wait for other checks' requests in flight overlap
   * (harness/run/check-lane.ts `enterExclusiveLaneAfter`). `fn` gets what `opening` returned.
   */
  aloneAfter<O, R>(opening: () => Promise<O>, fn: (opened: O) => Promise<R>, kind?: QuietKind): Promise<R>;
}

export interface PropertyOptions {
  /** runs in the quick profile (default 8); full/certify use 4× this; `--runs` overrides both */
  numRuns?: number;
  /**
   * false: the runs share state that one run's judgement reads (e.g. an account balance every
   * sequence moves), so they never run at once, whatever `--concurrency` says. Default true.
   */
  concurrent?: boolean;
}

function boundTools(session: Session, run: CheckRun, parallel = 1): RunTools {
  return {
    run,
    judge: (rule, observation) => run.judge(rule, observation),
    parallel,
    all: (items, send) => mapLimited(items, parallel, send),
    gateway: (which = 'sandbox') => session.gateway(run, which),
    partner: (which = 'test') => session.partner(run, which),
  };
}

/**
 * Why a check does not start, if it does not: out of the run's scope (a receiver run or not, the API
 * not tested, the profile's tier), which never makes a run partial; or a missing optional
 * capability (a credential), which leaves the run's scope incomplete.
 */
/** `--confirm-failures N` (PAYGATE_CONFIRM_FAILURES): how many times a failing check runs again. */
function confirmFailures(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env['PAYGATE_CONFIRM_FAILURES']);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 20) : 0;
}

function notRunFor(spec: CheckSpec, target: TargetConfig, settings: RunSettings): { reason: string; outOfScope: boolean } | undefined {
  const receiverReason = receiverNotRunReason(spec);
  if (receiverReason !== undefined) return { reason: receiverReason, outOfScope: true };
  if (spec.target === 'receiver') return undefined;
  if (settings.api !== 'both' && settings.api !== spec.api) return { reason: `--api ${settings.api}: the ${spec.api} API is not tested in this run`, outOfScope: true };
  const apiReason = notRunReason(target, spec.api);
  if (apiReason) return { reason: apiReason, outOfScope: true };
  for (const capability of spec.needs ?? []) {
    const reason = notRunReason(target, capability);
    if (reason) return { reason, outOfScope: false };
  }
  if (spec.tier === 'timer' && settings.profile === 'quick') return { reason: 'waits for a contract timer: runs in the full and certify profiles', outOfScope: true };
  if (spec.certifyOnly && settings.profile !== 'certify') return { reason: 'runs in the certify profile only', outOfScope: true };
  return undefined;
}

/** One finding per code, place, requirements and expectation (accepted failures seen in many iterations). */
function distinctFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.pointer ?? ''}|${f.requirements.join(',')}|${f.expected}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What `list` and selection know of a check without running it (harness/run/check-catalogue.ts). */
export function catalogueEntry(title: string, spec: CheckSpec): CheckEntry {
  return {
    id: spec.id,
    title,
    api: spec.api,
    area: spec.area,
    requirements: checkRequirements(spec),
    severity: spec.severity ?? 'normal',
    tier: spec.certifyOnly ? 'certify' : (spec.tier ?? 'quick'),
    needs: [...(spec.needs ?? [])],
    ...(spec.target !== undefined && { target: spec.target }),
  };
}

/** Registers one conformance check as a vitest test. */
export function check(title: string, spec: CheckSpec, body: (t: CheckTools) => Promise<void>): void {
  // a collection pass records the spec; a selection (--check, --requirement…) registers only its checks
  if (collecting()) return collectCheck(catalogueEntry(title, spec));
  if (!isSelected(spec.id)) return;
  const settings = runSettings();
  const requirements = checkRequirements(spec);
  const budget = checkBudgetMs(spec, settings);
  // timer checks mostly sleep, waiting checks mostly wait: those of one file wait side by side
  const register = spec.tier === 'timer' || spec.waits === true ? test.concurrent : test;
  // --confirm-failures: a failing case runs this many times more, each within the check's limit
  const confirmations = confirmFailures();
  // vitest's own limit only backs up ours, which keeps the findings made so far (plus the lane wait)
  register(title, { timeout: budget * (1 + confirmations) + LANE_MAX_WAIT_MS + 10_000 }, async (ctx: TestContext) => {
    const started = Date.now();
    const severity = spec.severity ?? 'normal';
    const identity: CheckIdentity = {
      check: spec.id,
      name: ctx.task.fullTestName ?? title,
      title,
      file: ctx.task.file.name,
      api: spec.api,
      area: spec.area,
      severity,
      requirements,
      // with the relations every check of its API judges through the contract rules and judgeStatus
      relations: [...new Map([...closureOf(spec.rules ?? []).flatMap((rule) => (rule.relation !== undefined ? [rule.relation] : [])), ...contractRelations(spec.api)].map((r) => [r.id, r] as const)).values()],
    };
    const endSettings = (laneWaitMs?: number): EndSettings => ({
      profile: settings.profile,
      seed: settings.seed,
      strict: settings.strict,
      baseline: runBaseline(),
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
      ...(laneWaitMs !== undefined && { laneWaitMs }),
    });
    await annotateCheck({ checkId: spec.id, api: spec.api, area: spec.area, requirements, severity });
    const target = workerTarget();
    const skip = notRunFor(spec, target, settings);
    if (skip) {
      await reportOutcome(endCheck(identity, undefined, { skipped: skip.reason, outOfScope: skip.outOfScope }, endSettings()), ctx);
      ctx.skip(skip.reason);
      return;
    }
    // an exclusive check holds the lanes of its kinds alone for its whole run; every request holds
    // its own kind's lane shared while it is in flight (quiet-lane.ts)
    const lane = spec.exclusive ? await enterExclusiveLane(spec, spec.exclusive === true ? QUIET_KINDS : [spec.exclusive]) : undefined;
    if (lane) ctx.onTestFinished(() => lane.release());
    const blockedBefore = requestsBlockedMs(spec.api);
    // waits for the lanes: this check's requests behind another's window, and its own `alone` windows
    let aloneWaitedMs = 0;
    const blocked = (): number => aloneWaitedMs + (lane ? 0 : requestsBlockedMs(spec.api) - blockedBefore);
    const session = await sharedSession();
    const run = session.check(title, requirements);
    if (lane?.note) run.note(lane.note);
    const tools: CheckTools = {
      ...boundTools(session, run, Math.max(1, Math.floor(settings.concurrency ?? 1))),
      session,
      target,
      settings,
      receiver: () => {
        const url = process.env['PAYGATE_RECEIVER_URL'];
        if (!url) throw new NotRunError('receiver', 'no webhook receiver in this run (PAYGATE_RECEIVER_URL unset)');
        return new ReceiverClient(url);
      },
      callbackUrl: (path) => `${target.callback.publicUrl}${path.startsWith('/') ? path : `/${path}`}`,
      burst: (api, n, makeRequest, kinds = QUIET_KINDS) => {
        const origin = target[api]?.baseUrl;
        if (!origin) throw new NotRunError(api, `${api} API not configured`);
        return burst(n, makeRequest, { origin, ...(settings.maxRps !== undefined ? { maxRps: settings.maxRps } : {}), holdLanes: () => enterRequest(api, kinds) });
      },
      property: (name, arbitrary, predicate, options) => runProperty(session, run, { ...spec, requirements }, name, arbitrary, predicate, options),
      notRun: (capability, reason) => {
        throw new NotRunError(capability, reason);
      },
      // inside an exclusive check or another window, it takes only the lanes not held yet (check-lane.ts)
      alone: async (fn, kind) => runWindow(await enterExclusiveLane(spec, kind === undefined ? QUIET_KINDS : [kind]), fn),
      aloneAfter: async (opening, fn, kind) => {
        const { opened, lane: window } = await enterExclusiveLaneAfter(spec, kind === undefined ? QUIET_KINDS : [kind], opening);
        return runWindow(window, () => fn(opened));
      },
    };
    /** Runs `fn` in a taken window and gives the window back. */
    async function runWindow<R>(window: ExclusiveLane, fn: () => Promise<R>): Promise<R> {
      aloneWaitedMs += window.hold?.waitedMs ?? 0;
      if (!window.hold && window.note) run.note(window.note);
      // a body still running past the check's end must not keep the account (released twice: no-op)
      ctx.onTestFinished(() => window.release());
      try {
        return await window.run(fn);
      } finally {
        window.release();
      }
    }
    /** Runs the body on `on` within the check's time limit: how it ended. */
    const runBody = async (on: CheckRun, with_: CheckTools): Promise<CheckEnd> => {
      const end: CheckEnd = {};
      // time the check's requests waited behind another check's window is not held against its budget
      const limit = deadline(budget, blocked);
      try {
        // an exclusive check's own requests pass its lanes (quiet-lane.ts runHoldingLanes)
        // every request the body makes names this check (harness/http/check-context.ts)
        const running = inCheck(spec.id, () => (lane ? lane.run(() => body(with_)) : body(with_)));
        // after the deadline the body may still settle; its outcome no longer matters
        running.catch(() => undefined);
        if ((await Promise.race([running, limit.promise])) === 'deadline') {
          end.outOfTimeMs = budget;
          // a property shrinking a failure hands it over: the check fails on it, not inconclusive
          on.reachedDeadline();
          const silent = on.exchanges.filter((e) => !e.response).length;
          on.note(`stopped after ${budget / 1000} s: ${on.exchanges.length} request(s) made, ${silent} without a response`);
        }
      } catch (error) {
        end.thrown = error;
      } finally {
        limit.cancel();
      }
      return end;
    };
    const end = await runBody(run, tools);
    const ending = (): EndSettings => ({ ...endSettings((lane?.hold?.waitedMs ?? 0) + blocked()), redact: (text) => run.redactText(text) });
    let outcome = endCheck(identity, run, end, ending());
    if (outcome.state === 'failed' && confirmations > 0) {
      // the same case again (its seed and fast-check path), on runs of its own: confirmed or flaky
      let failedAgain = 0;
      for (let i = 0; i < confirmations; i += 1) {
        const again = session.check(title, requirements);
        const replay = run.replay ?? settings.replay;
        const retry: CheckTools = {
          ...tools,
          ...boundTools(session, again, tools.parallel),
          settings: { ...settings, ...(replay !== undefined && { replay }) },
          property: (name, arbitrary, predicate, options) => runProperty(session, again, { ...spec, requirements }, name, arbitrary, predicate, options, replay),
        };
        if (endCheck(identity, again, await runBody(again, retry), ending()).state === 'failed') failedAgain += 1;
      }
      outcome = endCheck(identity, run, { ...end, confirmation: { runs: confirmations, failed: failedAgain } }, ending());
    }
    await reportOutcome(outcome, ctx, run.exchanges);
    // --har, certify: every exchange goes into the run's archive (harness/report/har.ts)
    const har = process.env['PAYGATE_HAR'];
    if (har !== undefined && har !== '') spoolExchanges(har, { check: spec.id, exchanges: run.exchanges });
    // vitest's own state follows the outcome (JUnit, Allure): skipped, failed or passed
    if (outcome.state === 'not-run') return ctx.skip(outcome.notRun);
    // neither passed nor failed: skipped in vitest's terms, `inconclusive` in the outcome
    if (outcome.state === 'inconclusive') return ctx.skip(`inconclusive: ${outcome.inconclusive ?? ''}`);
    // the suite broke, or failed without a finding: the error as it was thrown
    if (outcome.error !== undefined) throw end.thrown;
    if (outcome.state === 'failed') {
      const failing = outcome.failures.length + (settings.strict ? outcome.warnings.length : 0);
      throw new ConformanceFailure(`${title}: ${failing} finding(s) break the contract\n\n${outcomeFindingsText(outcome)}`, run.findings);
    }
  });
}

async function runProperty<T>(
  session: Session,
  run: CheckRun,
  spec: CheckSpec & { requirements: RequirementId[] },
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T, it: RunTools) => Promise<void>,
  options: PropertyOptions = {},
  /** the fast-check path to replay (`--replay`, or a failing case being confirmed) */
  replay: string | undefined = runSettings().replay,
): Promise<void> {
  const settings = runSettings();
  const quickRuns = options.numRuns ?? 8;
  const numRuns = settings.runs ?? (settings.profile === 'quick' ? quickRuns : quickRuns * 4);
  let lastFailing: CheckRun | undefined;
  const acceptedFailures: Finding[] = [];
  // --concurrency: the same runs in flight together; only a pass is decided there (concurrent-runs.ts)
  const concurrency = Math.floor(settings.concurrency ?? 1);
  // the check already ended (its time limit): nothing more is sent
  if (run.deadlineReached) return;
  if (concurrency > 1 && numRuns > 1 && !replay && options.concurrent !== false) {
    const runs = await runConcurrently(arbitrary, { seed: settings.seed, numRuns }, concurrency, async (value) => {
      const iteration = session.check(`${run.name} › ${name}`, spec.requirements);
      await predicate(value, boundTools(session, iteration, concurrency));
      // a warning may come from a concurrent run's disturbance too: only a clean pass is kept
      return { passed: iteration.findings.length === 0, result: iteration };
    });
    if (runs) {
      for (const iteration of runs) {
        run.exchanges.push(...iteration.exchanges);
        run.absorb(iteration, { findings: 'warnings' });
      }
      return;
    }
    run.note(`${name}: a run found something while up to ${concurrency} ran at once; the property was run again one run at a time, and that run is the verdict`);
  }
  // the check's time limit while fast-check shrinks a failure (a slow or remote target): the last
  // failing run found is reported as it is, and the runs fast-check still asks for pass at once
  let stopped = false;
  // --baseline: the accepted deviations the runs met, reported once whichever way the property ends
  const recordAccepted = (): void => {
    if (acceptedFailures.length > 0) run.record({ requirements: [], findings: distinctFindings(acceptedFailures).slice(0, 5) });
  };
  const unwatch = run.onDeadline(() => {
    stopped = true;
    recordAccepted();
    if (!lastFailing) return;
    if (replay) run.setReplay({ path: replay });
    run.absorb(lastFailing, { findings: 'all' });
    run.note(`${name}: the check's time limit stopped fast-check while it was shrinking a failure: the failure reported is the last failing run found, not necessarily the smallest (replay with the same seed)`);
  });
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (stopped) return true;
    const iteration = session.check(`${run.name} › ${name}`, spec.requirements);
    try {
      await predicate(value, boundTools(session, iteration));
    } finally {
      run.exchanges.push(...iteration.exchanges);
    }
    // --baseline: an iteration that breaks the contract only in accepted ways passes, so the property
    // keeps looking for new deviations instead of stopping at a known one
    const failing = withoutAccepted(spec.id, spec.requirements, settings.strict ? iteration.findings : iteration.failures, acceptedFailures);
    if (failing.length) {
      lastFailing = iteration;
      return false;
    }
    // a passing iteration's evaluations count (its warnings too); a failing one's are reported
    // through the shrunk counterexample below, once
    run.absorb(iteration, { findings: 'warnings' });
    return true;
  });
  const parameters: fc.Parameters<[T]> = { seed: settings.seed, numRuns };
  // `--replay "<path>~<commandsReplayPath>"`: the part after `~` is fc.commands' own replayPath (harness/run/model.ts)
  if (replay) parameters.path = replay.split('~')[0] ?? replay;
  let details: fc.RunDetails<[T]>;
  try {
    details = await fc.check(property, parameters);
  } finally {
    unwatch();
  }
  // past the time limit the check has already ended (and holds what the hook handed over)
  if (stopped) return;
  recordAccepted();
  if (!details.failed) return;
  if (details.errorInstance && !lastFailing) {
    // the predicate threw something that is not a finding: a harness or suite bug, reported as broken
    throw details.errorInstance instanceof Error ? details.errorInstance : new HarnessError('property.error', String(details.errorInstance));
  }
  // model-based runs: fc.commands prints its replayPath in the counterexample; replay needs it too (STACK.md)
  const commandsReplay = details.counterexamplePath ? /\/\*replayPath="([^"]*)"\*\//.exec(fc.stringify(details.counterexample))?.[1] : undefined;
  const path = details.counterexamplePath && commandsReplay ? `${details.counterexamplePath}~${commandsReplay}` : details.counterexamplePath;
  run.setReplay({ seed: details.seed, ...(path ? { path } : {}) });
  run.note(`${name}: shrunk counterexample after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s): ${fc.stringify(details.counterexample)}`);
  if (lastFailing) run.absorb(lastFailing, { findings: 'all' });
}
