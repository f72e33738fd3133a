/**
 * Per-check context and the per-run session.
 *
 * {@link CheckRun}: one per test. It observes every exchange made through clients created for it,
 * validates each response against the contract automatically, collects the findings the test
 * records (failures and warnings kept apart), and `finish()` throws an AssertionError-named error
 * listing the failures. `summary()` is JSON-serialisable for reporters.
 *
 * {@link Session}: one per test file / run: the HTTP pools, token managers and contract for a
 * target configuration; it makes clients bound to a CheckRun.
 *
 *   const session = await Session.create(config);
 *   test('…', async () => {
 *     const run = session.check('creates a charge', ['GW-PIXIN-CREATE-PENDING']);
 *     const gw = session.gateway(run);
 *     const r = await gw.createPixCharge(body);
 *     run.record(ensureSomething(r.exchange));
 *     run.finish();
 *   });
 */
import type { Exchange } from '../http/exchange.js';
import type { Finding } from '../rules/finding.js';
import { HarnessError } from '../rules/finding.js';
import type { ExchangeObserver, HttpResult } from '../http/client.js';
import { HttpClient } from '../http/client.js';
import type { Contract } from '../contract/validator.js';
import { loadContract } from '../contract/validator.js';
import { formatFinding } from '../report/format.js';
import { defaultRedactor, registerTargetSecrets } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import { GatewayTokenManager, partnerApiKey } from '../http/auth.js';
import type { GatewayPairName, PartnerKeyName } from '../http/auth.js';
import { GatewayClient } from '../http/gateway-client.js';
import { PartnerClient } from '../http/partner-client.js';
import { notRunReason } from '../config/target.js';
import type { TargetConfig } from '../config/target.js';

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

/** JSON-serialisable record of a check for reporters. */
export interface CheckRunSummary {
  name: string;
  requirements: string[];
  verdict: 'pass' | 'fail' | 'warn';
  failures: Finding[];
  warnings: Finding[];
  notes: string[];
  exchanges: Exchange[];
  seed?: number;
  replay?: string;
}

export class CheckRun implements ExchangeObserver {
  readonly requirements: string[];
  readonly exchanges: Exchange[] = [];
  readonly failures: Finding[] = [];
  readonly warnings: Finding[] = [];
  /** observations worth reporting that are not findings (e.g. "multi-byte counted as UTF-16 units") */
  readonly notes: string[] = [];
  seed: number | undefined;
  replay: string | undefined;

  constructor(
    readonly name: string,
    requirements: readonly string[] = [],
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

  /** ExchangeObserver: records the exchange and validates its response against the contract. */
  observe(exchange: Exchange, result?: HttpResult): void {
    this.exchanges.push(exchange);
    if (!this.options.contract) return;
    const raw = result && result.status !== 0 ? { json: result.json, text: result.text } : undefined;
    this.record(this.options.contract.validateExchange(exchange, raw));
  }

  /**
   * Records findings; `undefined` entries (a check that passed) are ignored. A finding with the code
   * of one already recorded about the same response (a 5xx seen by the contract validation and then
   * by the check's status expectation) is folded into it: one finding, both requirement lists.
   */
  record(...findings: (Finding | undefined | readonly (Finding | undefined)[])[]): void {
    for (const item of findings.flat()) {
      if (!item) continue;
      for (const id of item.requirements) if (!this.requirements.includes(id)) this.requirements.push(id);
      const list = item.severity === 'failure' ? this.failures : this.warnings;
      const same = item.exchanges.length === 1 ? list.find((f) => f.code === item.code && f.exchanges.length === 1 && sameExchange(f.exchanges[0]!, item.exchanges[0]!)) : undefined;
      if (same) {
        for (const id of item.requirements) if (!same.requirements.includes(id)) same.requirements.push(id);
        continue;
      }
      list.push(item);
    }
  }

  /**
   * Withdraws the warnings with `code` about `exchange`, noting why: for a response the check
   * provoked on purpose and judges itself (e.g. a request the contract says is not accepted, refused
   * with a status the operation does not list but the Errors table allows).
   */
  dismiss(code: string, exchange: Exchange, reason: string): void {
    const before = this.warnings.length;
    const kept = this.warnings.filter((f) => !(f.code === code && f.exchanges.some((e) => sameExchange(e, exchange))));
    if (kept.length === before) return;
    this.warnings.splice(0, before, ...kept);
    this.note(`${code} on request #${exchange.seq} not reported: ${reason}`);
  }

  /** Adds requirement IDs this check covers. */
  cover(...ids: string[]): void {
    for (const id of ids) if (!this.requirements.includes(id)) this.requirements.push(id);
  }

  /** Adds an observation (reported, never a failure). */
  note(text: string): void {
    this.notes.push((this.options.redactor ?? defaultRedactor).redactText(text));
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
      const opts = { check: this.name, ...(this.seed !== undefined ? { seed: this.seed } : {}), ...(this.replay !== undefined ? { replay: this.replay } : {}) };
      const body = failing.map((f) => formatFinding(f, opts)).join('\n\n');
      throw new ConformanceFailure(`${this.name}: ${failing.length} finding(s) break the contract\n\n${body}`, failing);
    }
    return this.summary();
  }
}

export interface SessionOptions {
  /** the contract to validate with; default: the specs loaded once per process; `false`: none */
  contract?: Contract | false;
  /** process-wide request-rate cap (`--max-rps`) */
  maxRps?: number;
  /** pool size per API */
  connections?: number;
  /** default per-request timeout (ms) */
  timeoutMs?: number;
  /** defaults for CheckRuns made by `check()` */
  seed?: number;
  strict?: boolean;
  redactor?: Redactor;
}

/** HTTP pools, token managers and contract for one target configuration. */
export class Session {
  readonly gatewayHttp: HttpClient | undefined;
  readonly partnerHttp: HttpClient | undefined;
  private readonly tokenManagers = new Map<GatewayPairName, GatewayTokenManager>();

  private constructor(
    readonly config: TargetConfig,
    readonly contract: Contract | undefined,
    private readonly options: SessionOptions,
  ) {
    const redactor = options.redactor ?? defaultRedactor;
    registerTargetSecrets(config, redactor);
    const common = { redactor, connections: options.connections, timeoutMs: options.timeoutMs, maxRps: options.maxRps };
    this.gatewayHttp = config.gateway ? new HttpClient({ ...common, api: 'gateway', baseUrl: config.gateway.baseUrl }) : undefined;
    this.partnerHttp = config.partner ? new HttpClient({ ...common, api: 'partner', baseUrl: config.partner.baseUrl }) : undefined;
  }

  /** Builds a session; loads the contract (once per process) unless given or disabled. */
  static async create(config: TargetConfig, options: SessionOptions = {}): Promise<Session> {
    const apis = (['gateway', 'partner'] as const).filter((a) => config[a]);
    const contract = options.contract === false ? undefined : (options.contract ?? (apis.length ? await loadContract({ apis: [...apis] }) : undefined));
    return new Session(config, contract, options);
  }

  /** A CheckRun validating against this session's contract. */
  check(name: string, requirements: readonly string[] = [], options: Omit<CheckRunOptions, 'contract'> = {}): CheckRun {
    const opts: CheckRunOptions = { ...options };
    if (this.contract) opts.contract = this.contract;
    if (opts.seed === undefined && this.options.seed !== undefined) opts.seed = this.options.seed;
    if (opts.strict === undefined && this.options.strict !== undefined) opts.strict = this.options.strict;
    if (this.options.redactor) opts.redactor = this.options.redactor;
    return new CheckRun(name, requirements, opts);
  }

  /** The shared token manager of a gateway pair; throws NotRunError when the pair is not configured. */
  tokens(which: GatewayPairName = 'sandbox'): GatewayTokenManager {
    const existing = this.tokenManagers.get(which);
    if (existing) return existing;
    const gw = this.config.gateway;
    const capability = which === 'sandbox' ? 'gateway' : (`gateway.${which}` as const);
    const pair = gw?.[which];
    if (!gw || !pair || !this.gatewayHttp) throw new NotRunError(capability, notRunReason(this.config, capability) ?? `gateway ${which} pair not configured`);
    // a pair equal to the production pair is production, whatever slot it was configured in
    const production = which === 'live' || (gw.live !== undefined && gw.live.clientId === pair.clientId);
    const manager = new GatewayTokenManager(this.gatewayHttp, pair, production ? 'live' : which);
    this.tokenManagers.set(which, manager);
    return manager;
  }

  /** A gateway client for a pair (default sandbox) reporting to `observer` (usually a CheckRun). */
  gateway(observer?: ExchangeObserver, which: GatewayPairName = 'sandbox'): GatewayClient {
    const tokens = this.tokens(which);
    return new GatewayClient({ http: tokens.http, tokens, ...(observer ? { observer } : {}) });
  }

  /** A partner client for a key (default test) reporting to `observer`; throws NotRunError when not configured. */
  partner(observer?: ExchangeObserver, which: PartnerKeyName = 'test'): PartnerClient {
    const pt = this.config.partner;
    const capability = which === 'test' ? 'partner' : (`partner.${which}` as const);
    const apiKey = pt ? partnerApiKey(pt, which) : undefined;
    if (!pt || !apiKey || !this.partnerHttp) throw new NotRunError(capability, notRunReason(this.config, capability) ?? `partner ${which} key not configured`);
    return new PartnerClient({ http: this.partnerHttp, apiKey, keyName: which, ...(observer ? { observer } : {}) });
  }

  /** Closes the HTTP pools. */
  async close(): Promise<void> {
    await Promise.all([this.gatewayHttp?.close(), this.partnerHttp?.close()]);
  }
}

function sameExchange(a: Exchange, b: Exchange): boolean {
  return a === b || (a.seq === b.seq && a.request.method === b.request.method && a.request.url === b.request.url && a.startedAt === b.startedAt);
}
