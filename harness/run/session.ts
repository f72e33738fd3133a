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
import type { ExchangeObserver } from '../http/client.js';
import type { RequirementId } from '../rules/finding.js';
import { CheckRun, NotRunError } from './check-run.js';
import type { CheckRunOptions } from './check-run.js';
import { HttpClient } from '../http/client.js';
import type { Contract } from '../contract/validator.js';
import { loadContract } from '../contract/validator.js';
import { defaultRedactor, registerTargetSecrets } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import { GatewayTokenManager, partnerApiKey } from '../http/auth.js';
import type { GatewayPairName, PartnerKeyName } from '../http/auth.js';
import { GatewayClient } from '../http/gateway-client.js';
import { PartnerClient } from '../http/partner-client.js';
import { notRunReason } from '../config/target.js';
import type { TargetConfig } from '../config/target.js';
import { targetNetwork } from '../http/target-network.js';
import type { TargetNetwork } from '../http/target-network.js';

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
  /** the target's time limit, headers and client certificate (default: from the CLI's PAYGATE_* variables) */
  network?: TargetNetwork;
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
    const common = { redactor, connections: options.connections, timeoutMs: options.timeoutMs, maxRps: options.maxRps, target: options.network ?? targetNetwork() };
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
  check(name: string, requirements: readonly RequirementId[] = [], options: Omit<CheckRunOptions, 'contract'> = {}): CheckRun {
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

