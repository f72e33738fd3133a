/**
 * The run's options: the flags of `run` (harness/cli/commands.ts), validated and typed, the help
 * text (every flag and the environment variables of the interface), the certify safety rule, and
 * the environment handed to test workers.
 */
import { resolve } from 'node:path';
import { isLoopbackHost } from '../http/network.js';
import { commandFor } from './invocation.js';
import { CERTIFY_DEFAULT_MAX_RPS, REMOTE_DEFAULT_CONCURRENCY, RUN_OPTIONS } from './commands.js';
import { UsageError, listValue, parseFlags, renderOptions } from './parse.js';
import type { RawValues } from './parse.js';
import { exitCodeLines } from './exit-codes.js';

export { isLoopbackHost, UsageError, CERTIFY_DEFAULT_MAX_RPS, REMOTE_DEFAULT_CONCURRENCY };

export type Profile = 'quick' | 'full' | 'certify';
export type ApiSelection = 'gateway' | 'partner' | 'both';
export type Severity = 'blocker' | 'critical' | 'normal' | 'minor';
export const SEVERITIES: readonly Severity[] = ['blocker', 'critical', 'normal', 'minor'];

/** Which checks a run registers (harness/cli/selection.ts); empty: every check. */
export interface SelectionOptions {
  /** ids or globs */
  check?: string[];
  excludeCheck?: string[];
  /** requirement IDs or globs */
  requirement?: string[];
  area?: string[];
  severity?: Severity[];
  /** literal text in a check's title or id */
  grep?: string;
}

/** How the suite reaches the target (harness/http/target-network.ts reads them in the workers). */
export interface NetworkOptions {
  requestTimeoutMs?: number;
  /** extra headers for every request to the target: [name, value] */
  headers?: [string, string][];
  clientCert?: string;
  clientKey?: string;
  clientPfx?: string;
}

export interface CliOptions extends SelectionOptions {
  profile: Profile;
  api: ApiSelection;
  /** undefined: the CLI picks a random seed and prints it */
  seed?: number;
  runs?: number;
  /** total request rate for the whole run; certify defaults to 5 */
  maxRps?: number;
  strict: boolean;
  allowInsecure: boolean;
  /** every request to the target through this HTTP proxy (overrides HTTPS_PROXY/HTTP_PROXY) */
  proxy?: string;
  /** skip the preflight probes (harness/run/preflight.ts) */
  noPreflight: boolean;
  /** no Allure results (conformance.json/md and junit.xml only): a lean CI gate */
  noAllure: boolean;
  replay?: string;
  shard?: { index: number; count: number };
  workers?: number;
  /** checks (worker processes) and property runs per check in flight at once (--concurrency) */
  concurrency?: number;
  dryRun: boolean;
  help: boolean;
  version: boolean;
  /** receiver run: test the integrator's webhook endpoint instead of the APIs (--receiver-url, --receiver-scheme) */
  receiver?: { url: string; scheme: 'gateway' | 'partner' };
  /** embedded reference only: REFERENCE_PERSONALITY for the reference this run starts */
  personality?: 'default' | 'alt' | `mix:${number}`;
  /** the configuration file given with --config */
  config?: string;
  /** the summary as JSON on stdout */
  json?: boolean;
  network?: NetworkOptions;
  /** absolute; default ./reports of the working directory (or PAYGATE_REPORTS_DIR) */
  reportsDir?: string;
  /** YAML of accepted deviations (harness/report/baseline.ts), absolute */
  baseline?: string;
  /** write a baseline accepting every finding of this run, absolute */
  writeBaseline?: string;
  /** JSON-lines history file (harness/report/history.ts), absolute */
  history?: string;
  /** write the run's HTTP Archive, reports/exchanges.har (harness/report/har.ts) */
  har?: boolean;
  /** a failing check runs this many times more in the same run: confirmed or flaky */
  confirmFailures?: number;
}

/** fast-check seeds are 32-bit signed integers */
const SEED_MIN = -(2 ** 31);
const SEED_MAX = 2 ** 31 - 1;

export interface EnvSpec {
  name: string;
  help: string;
}

/** The target configuration variables of INTERFACE.md. */
export const TARGET_ENV: readonly EnvSpec[] = [
  { name: 'GATEWAY_BASE_URL', help: 'gateway {base_url}; routes are /api/auth and /api/v1/...' },
  { name: 'GATEWAY_CLIENT_ID', help: 'sandbox credential pair (required to test the gateway), with GATEWAY_CLIENT_SECRET' },
  { name: 'GATEWAY_CLIENT_SECRET', help: 'see GATEWAY_CLIENT_ID' },
  { name: 'GATEWAY_LIVE_CLIENT_ID', help: 'production pair, optional (with GATEWAY_LIVE_CLIENT_SECRET): only checks that move no money' },
  { name: 'GATEWAY_LIVE_CLIENT_SECRET', help: 'see GATEWAY_LIVE_CLIENT_ID' },
  { name: 'GATEWAY_OTHER_CLIENT_ID', help: "a second account's sandbox pair, optional (with GATEWAY_OTHER_CLIENT_SECRET): cross-account isolation" },
  { name: 'GATEWAY_OTHER_CLIENT_SECRET', help: 'see GATEWAY_OTHER_CLIENT_ID' },
  { name: 'GATEWAY_SPLIT_EMAIL', help: 'e-mail of another company on the platform, optional: valid split checks' },
  { name: 'PARTNER_BASE_URL', help: 'partner {partner_base_url}, ending in /v1' },
  { name: 'PARTNER_API_KEY', help: 'an ak_test_ key (required to test the partner API)' },
  { name: 'PARTNER_LIVE_API_KEY', help: 'an ak_live_ key, optional' },
  { name: 'PARTNER_OTHER_API_KEY', help: "another account's ak_test_ key, optional" },
  { name: 'PARTNER_WEBHOOK_SECRET', help: 'secret of the partner webhook registered at ${CALLBACK_PUBLIC_URL}/partner, optional: enables partner webhook checks' },
  { name: 'CALLBACK_HOST', help: "where the suite's webhook receiver listens (default 127.0.0.1), with CALLBACK_PORT" },
  { name: 'CALLBACK_PORT', help: 'receiver port (default 4799; with the embedded reference, unset means any free port)' },
  { name: 'CALLBACK_PUBLIC_URL', help: 'the address at which the target reaches the receiver (default http://CALLBACK_HOST:CALLBACK_PORT)' },
];

/** The receiver run's variables (with --receiver-url; README "Receiver conformance"). */
export const RECEIVER_ENV: readonly EnvSpec[] = [
  { name: 'RECEIVER_SIGNATURE_SECRET', help: 'receiver run: the endpoint\'s secret (gateway signatureSecret / partner endpoint secret) the suite signs events with' },
  { name: 'RECEIVER_STATE_URL', help: 'receiver run, optional test-only hook: GET → {"processed":[{"eventId","endToEndId","count"}]}; without it, effect checks are not run' },
];

/** Other variables the CLI reads. */
export const OTHER_ENV: readonly EnvSpec[] = [
  { name: 'HTTPS_PROXY', help: 'proxy for https:// targets (also https_proxy; --proxy overrides); e.g. http://proxy.corp:3128' },
  { name: 'HTTP_PROXY', help: 'proxy for http:// targets (also http_proxy)' },
  { name: 'NO_PROXY', help: 'hosts that bypass the proxy (also no_proxy): comma-separated names, .domain suffixes, host:port, *; loopback always does' },
  { name: 'NODE_EXTRA_CA_CERTS', help: "PEM file of extra CA certificates (Node's own variable): a sandbox whose certificate is issued by a private/corporate CA" },
  { name: 'PAYGATE_PREFLIGHT', help: '0 skips the preflight probes (as --no-preflight)' },
  { name: 'PAYGATE_CLIENT_KEY_PASSPHRASE', help: 'passphrase of the --client-key or --client-pfx file' },
  { name: 'NO_COLOR', help: 'no colours (FORCE_COLOR=1 colours even when not a terminal)' },
  { name: 'CI', help: 'when set (or stdout is not a terminal), progress is printed as plain periodic lines' },
  { name: 'PAYGATE_REPORTS_DIR', help: 'where every report goes (default reports)' },
  { name: 'PAYGATE_JUNIT_FILE', help: 'JUnit file path (default <reports>/junit.xml; the vitest --outputFile flag does not override the config)' },
  { name: 'PAYGATE_TEST_TIMEOUT_MS', help: "one time limit for every check (default: 60 s, or the check's own, × 4 in full/certify, longer under --max-rps; timer checks 15-30 min)" },
  { name: 'PAYGATE_PARTNER_RETRY_CAP_MS', help: "the target's partner redelivery cap when its sandbox runs timers shorter than the contract's 5 min (embedded: REFERENCE_PARTNER_RETRY_CAP_MS); only shortens" },
  { name: 'PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS', help: "the target's partner per-call timeout when shorter than the contract's 10 s (embedded: REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS); only shortens" },
  { name: 'REFERENCE_FAULTS', help: 'embedded reference only: comma-separated fault names to inject (see reference/faults.ts)' },
  { name: 'REFERENCE_PERSONALITY', help: 'embedded reference only: default | alt | mix:SEED (see reference/DECISIONS.md); --personality sets it' },
  { name: 'PAYGATE_LANE_TRACE', help: 'a file that gets one JSON line per quiet-account lane hold of the run: where a run waits (the repository\'s bench/lane-trace.ts reads it)' },
];

/** Variables the CLI sets for the test workers (documented so suites can read them). */
export const WORKER_ENV: readonly EnvSpec[] = [
  { name: 'PAYGATE_PROFILE', help: 'quick | full | certify' },
  { name: 'PAYGATE_SEED', help: 'the run seed' },
  { name: 'PAYGATE_RUNS', help: 'fast-check numRuns override (unset: the profile default)' },
  { name: 'PAYGATE_MAX_RPS', help: "this worker's share of the rate cap (total / workers); unset: no cap" },
  { name: 'PAYGATE_MAX_RPS_TOTAL', help: 'the whole run\'s rate cap (--max-rps)' },
  { name: 'PAYGATE_WORKERS', help: 'number of worker processes when set by --workers, --concurrency or a rate cap' },
  { name: 'PAYGATE_ISOLATE', help: '1: a fresh module graph per test file (default: one per worker process; the specs and validators load once)' },
  { name: 'PAYGATE_CONCURRENCY', help: 'property runs in flight at once inside one check (--concurrency); unset: one at a time' },
  { name: 'PAYGATE_API', help: 'gateway | partner | both' },
  { name: 'PAYGATE_STRICT', help: '1 when warnings fail' },
  { name: 'PAYGATE_ALLURE', help: '0 writes no Allure results (as --no-allure)' },
  { name: 'PAYGATE_REPLAY', help: 'fast-check replay path (with PAYGATE_SEED)' },
  { name: 'PAYGATE_SHARD', help: 'i/n when sharded' },
  { name: 'PAYGATE_PROXY', help: 'the --proxy URL' },
  { name: 'PAYGATE_PLANNED_CHECKS', help: 'checks the run is expected to have (progress total from the start)' },
  { name: 'PAYGATE_PLANNED_REQUESTS', help: 'requests the run is expected to make (progress ETA)' },
  { name: 'PAYGATE_CLI', help: '1 when run by the CLI (the config then uses the compact progress reporter)' },
  { name: 'PAYGATE_REQUEST_TIMEOUT_MS', help: 'per-request time limit (--request-timeout)' },
  { name: 'PAYGATE_TARGET_HEADERS', help: 'JSON [[name, value], …]: headers for every request to the target (--header)' },
  { name: 'PAYGATE_CLIENT_CERT', help: 'mTLS PEM certificate file (--client-cert); PAYGATE_CLIENT_KEY, PAYGATE_CLIENT_PFX likewise' },
  { name: 'PAYGATE_SELECT', help: 'JSON array of the check ids a partial run registers (--check, --requirement, --area, --severity, --grep)' },
  { name: 'PAYGATE_SELECTION', help: 'JSON: the selection as given, recorded in conformance.json' },
];

/** The text of `run --help`. */
export function helpText(): string {
  const lines: string[] = [
    'paygate-conformance — contract conformance suite and fuzzer for the gateway and partner PIX cash-in APIs',
    '',
    `Usage: ${commandFor('run')} [run] [flags]     (the other subcommands are listed at the end)`,
    '',
    'With no target configured, the embedded reference sandbox is started and both APIs are tested.',
    'Settings come from flags, then environment variables, then paygate-conformance.config.yaml (`init` writes',
    'one; `config print` shows the effective settings). Every flag also takes --flag=value.',
    ...renderOptions(RUN_OPTIONS.map((o) => ({ group: 'Run', ...o }))),
    '',
    'Target (environment variables, or target: in the config file with secrets as ${VARIABLE}):',
    ...renderEnv(TARGET_ENV),
    '  With neither base URL set, the embedded reference is the target; with one, only that API is tested.',
    '  A missing optional variable turns its checks into "not run", never failures.',
    '',
    'Receiver run:',
    ...renderEnv(RECEIVER_ENV),
    '',
    'Other environment variables:',
    ...renderEnv(OTHER_ENV),
    '',
    'Real sandboxes: a preflight probes each base URL (DNS, TLS, credentials) and CALLBACK_PUBLIC_URL before any',
    'check; a problem stops the run in seconds (exit 4) with what to do. Behind a proxy: HTTPS_PROXY / HTTP_PROXY /',
    'NO_PROXY or --proxy URL. A private CA: NODE_EXTRA_CA_CERTS=ca.pem.',
    '',
    'Outputs (reports/): conformance.json, conformance.md, junit.xml, allure-results/, failures/<check-id>.json;',
    `\`${commandFor('report', { bare: true })}\` builds reports/allure-report/index.html (one offline file).`,
    '',
    'Exit codes (README.md "Exit codes"):',
    ...exitCodeLines(),
  ];
  return lines.join('\n');
}

function renderEnv(specs: readonly EnvSpec[]): string[] {
  return renderOptions(specs.map((e) => ({ name: e.name, help: e.help })), undefined, 34, (s) => s.name);
}

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`${flag} expects an integer, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${text}`);
  return value;
}

function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${text}"`);
}

/** `30`, `30s`, `1500ms`, `2m` → milliseconds (a bare number is seconds). */
export function durationMs(flag: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text.trim());
  const n = Number(m?.[1]);
  if (m === null || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} expects a duration such as 30, 30s or 1500ms, got "${text}"`);
  const ms = m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  return Math.round(ms);
}

/** `Name: value` or `Name:value` → [name, value]; names as HTTP allows them. */
export function headerValue(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header expects NAME:VALUE (e.g. X-Tenant:acme), got "${text}"`);
  if (['host', 'content-length', 'authorization', 'connection', 'transfer-encoding'].includes(name.toLowerCase())) {
    throw new UsageError(`--header ${name}: the suite sets this header itself (credentials come from the target configuration)`);
  }
  return [name, text.slice(colon + 1).trim()];
}

function url(flag: string, text: string, example: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw new UsageError(`${flag} expects an http(s) URL such as ${example}, got "${text}"`);
  return text;
}

const str = (raw: RawValues, name: string): string | undefined => {
  const v = raw[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
};
const bool = (raw: RawValues, name: string): boolean => raw[name] === true;

/**
 * The run's options from parsed flag values (and values the configuration file supplies in the
 * same shape: harness/cli/config-file.ts). Throws UsageError with a message fit for the user.
 * Relative paths resolve against `cwd`.
 */
export function toCliOptions(raw: RawValues, cwd: string = process.cwd()): CliOptions {
  const options: CliOptions = { profile: 'quick', api: 'both', strict: false, allowInsecure: false, noPreflight: false, noAllure: false, dryRun: false, help: false, version: false };
  const text = (name: string): string | undefined => str(raw, name);
  const v = {
    profile: text('profile'),
    api: text('api'),
    seed: text('seed'),
    runs: text('runs'),
    maxRps: text('max-rps'),
  };
  if (v.profile !== undefined) options.profile = oneOf('--profile', v.profile, ['quick', 'full', 'certify'] as const);
  if (v.api !== undefined) options.api = oneOf('--api', v.api, ['gateway', 'partner', 'both'] as const);
  if (v.seed !== undefined) options.seed = integer('--seed', v.seed, SEED_MIN, SEED_MAX);
  if (v.runs !== undefined) options.runs = integer('--runs', v.runs, 1, 1_000_000);
  const grep = text('grep');
  if (grep !== undefined) options.grep = grep;
  if (v.maxRps !== undefined) {
    const rps = Number(v.maxRps);
    if (v.maxRps.trim() === '' || !Number.isFinite(rps) || rps <= 0) throw new UsageError(`--max-rps expects a positive number, got "${v.maxRps}"`);
    options.maxRps = rps;
  }
  const replay = text('replay');
  if (replay !== undefined) options.replay = replay;
  const shard = text('shard');
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    const index = Number(m?.[1]);
    const count = Number(m?.[2]);
    if (m === null || count < 1 || index < 1 || index > count) throw new UsageError(`--shard expects i/n with 1 <= i <= n, got "${shard}"`);
    options.shard = { index, count };
  }
  const workers = text('workers');
  if (workers !== undefined) options.workers = integer('--workers', workers, 1, 64);
  const concurrency = text('concurrency');
  if (concurrency !== undefined) options.concurrency = integer('--concurrency', concurrency, 1, 64);
  const personality = text('personality');
  if (personality !== undefined) {
    if (personality === 'default' || personality === 'alt') options.personality = personality;
    else if (/^mix:\d{1,15}$/.test(personality) && Number.isSafeInteger(Number(personality.slice(4)))) options.personality = `mix:${Number(personality.slice(4))}`;
    else throw new UsageError(`--personality must be one of default, alt, mix:SEED (SEED a non-negative integer), got "${personality}"`);
  }
  options.strict = bool(raw, 'strict');
  options.allowInsecure = bool(raw, 'allow-insecure');
  options.noPreflight = bool(raw, 'no-preflight');
  options.noAllure = bool(raw, 'no-allure');
  options.dryRun = bool(raw, 'dry-run');
  if (bool(raw, 'har')) options.har = true;
  const confirm = text('confirm-failures');
  if (confirm !== undefined) options.confirmFailures = integer('--confirm-failures', confirm, 1, 20);
  options.help = bool(raw, 'help');
  options.version = bool(raw, 'version');
  if (bool(raw, 'json')) options.json = true;
  const proxy = text('proxy');
  if (proxy !== undefined) options.proxy = url('--proxy', proxy, 'http://proxy.example:3128');
  const config = text('config');
  if (config !== undefined) options.config = resolve(cwd, config);

  for (const [flag, key] of [['check', 'check'], ['exclude-check', 'excludeCheck'], ['requirement', 'requirement'], ['area', 'area']] as const) {
    const list = listValue(raw[flag]);
    if (list !== undefined && list.length > 0) options[key] = list;
  }
  const severity = listValue(raw['severity']);
  if (severity !== undefined && severity.length > 0) options.severity = severity.map((s) => oneOf('--severity', s.toLowerCase(), SEVERITIES));

  const network: NetworkOptions = {};
  const timeout = text('request-timeout');
  if (timeout !== undefined) network.requestTimeoutMs = durationMs('--request-timeout', timeout);
  const headers = raw['header'];
  if (headers !== undefined && typeof headers !== 'boolean') network.headers = (Array.isArray(headers) ? headers : [headers]).map(headerValue);
  for (const [flag, key] of [['client-cert', 'clientCert'], ['client-key', 'clientKey'], ['client-pfx', 'clientPfx']] as const) {
    const file = text(flag);
    if (file !== undefined) network[key] = resolve(cwd, file);
  }
  if ((network.clientCert === undefined) !== (network.clientKey === undefined)) throw new UsageError('--client-cert and --client-key go together (or --client-pfx alone)');
  if (network.clientPfx !== undefined && network.clientCert !== undefined) throw new UsageError('--client-pfx or --client-cert/--client-key, not both');
  if (Object.keys(network).length > 0) options.network = network;

  for (const [flag, key] of [['reports-dir', 'reportsDir'], ['baseline', 'baseline'], ['write-baseline', 'writeBaseline'], ['history', 'history']] as const) {
    const file = text(flag);
    if (file !== undefined) options[key] = resolve(cwd, file);
  }

  const receiverUrl = text('receiver-url');
  const receiverScheme = text('receiver-scheme');
  if ((receiverUrl === undefined) !== (receiverScheme === undefined)) {
    throw new UsageError('--receiver-url and --receiver-scheme go together (e.g. --receiver-url https://example.test/hooks --receiver-scheme partner)');
  }
  if (receiverUrl !== undefined && receiverScheme !== undefined) {
    if (v.api !== undefined) throw new UsageError('--api does not apply to a receiver run (--receiver-url): the scheme is --receiver-scheme');
    options.receiver = { url: receiverUrl, scheme: oneOf('--receiver-scheme', receiverScheme, ['gateway', 'partner'] as const) };
  }
  if (options.replay !== undefined && options.seed === undefined) {
    throw new UsageError('--replay needs the --seed of the failing run (both are in its failure file; `replay FILE` passes them)');
  }
  return options;
}

/** Parses and validates the flags of `run`. Throws UsageError with a message fit for the user. */
export function parseArgs(argv: readonly string[], cwd: string = process.cwd()): CliOptions {
  return toCliOptions(parseFlags(argv, RUN_OPTIONS).values, cwd);
}

/** True when the options select part of the checks (the run is partial). */
export function hasSelection(options: SelectionOptions): boolean {
  return options.check !== undefined || options.excludeCheck !== undefined || options.requirement !== undefined || options.area !== undefined || options.severity !== undefined || options.grep !== undefined;
}

export const BASE_URL_VARS = ['GATEWAY_BASE_URL', 'PARTNER_BASE_URL'] as const;

/**
 * Configuration problems that stop the run before it starts: malformed base URLs (any profile) and,
 * in certify, a plain-HTTP base URL that is not loopback unless --allow-insecure.
 */
export function checkTargetSafety(options: Pick<CliOptions, 'profile' | 'allowInsecure'>, env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const name of BASE_URL_VARS) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      problems.push(`${name} is not a valid URL: "${value}"`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      problems.push(`${name} must be an http(s) URL, got "${value}"`);
      continue;
    }
    if (options.profile === 'certify' && url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecure) {
      problems.push(
        `${name} is plain HTTP (${value}): certify sends credentials and only accepts HTTPS or a loopback address; pass --allow-insecure to override`,
      );
    }
  }
  return problems;
}

/** Seed when none was given: random 31-bit, printed by the CLI. */
export function randomSeed(): number {
  return Math.floor(Math.random() * SEED_MAX);
}

/** The effective total rate cap: --max-rps, else the certify default, else none. */
export function effectiveMaxRps(options: Pick<CliOptions, 'profile' | 'maxRps'>): number | undefined {
  return options.maxRps ?? (options.profile === 'certify' ? CERTIFY_DEFAULT_MAX_RPS : undefined);
}

/**
 * Worker processes in full and certify: the timer checks live in three files (token expiry, charge
 * expiry, webhook redelivery), so three workers let their waits overlap while they mostly sleep.
 */
export const TIMED_PROFILE_WORKERS = 3;

/**
 * Checks and property runs in flight: --concurrency; else, against a configured target, the remote
 * default (unless a rate cap applies: the cap, not the latency, then bounds the run); else undefined
 * (the embedded reference shares this machine's CPUs: vitest's default, one property run at a time).
 */
export function effectiveConcurrency(options: Pick<CliOptions, 'profile' | 'maxRps' | 'concurrency'>, remote = false): number | undefined {
  if (options.concurrency !== undefined) return options.concurrency;
  if (!remote || effectiveMaxRps(options) !== undefined) return undefined;
  return REMOTE_DEFAULT_CONCURRENCY;
}

/**
 * Worker processes: --workers; else --concurrency (or the remote default); else 3 in full/certify
 * (timer waits overlap); else 2 under a rate cap; else vitest's default. In full/certify the
 * concurrency never lowers the three workers the timer files need.
 */
export function effectiveWorkers(options: Pick<CliOptions, 'profile' | 'maxRps' | 'workers' | 'concurrency'>, remote = false): number | undefined {
  if (options.workers !== undefined) return options.workers;
  const concurrency = effectiveConcurrency(options, remote);
  if (options.profile !== 'quick') return Math.max(TIMED_PROFILE_WORKERS, concurrency ?? 0);
  if (concurrency !== undefined) return concurrency;
  return effectiveMaxRps(options) !== undefined ? 2 : undefined;
}

/** The PAYGATE_* environment for the test workers; `remote`: the target is configured, not the embedded reference. */
export function workerEnv(options: CliOptions, seed: number, remote = false): Record<string, string> {
  const env: Record<string, string> = {
    PAYGATE_CLI: '1',
    PAYGATE_PROFILE: options.profile,
    PAYGATE_SEED: String(seed),
    PAYGATE_API: options.api,
    PAYGATE_STRICT: options.strict ? '1' : '0',
    // the printed replay line carries them (harness/report/format.ts replayCommand)
    PAYGATE_REPLAY_FLAGS: JSON.stringify(replayFlags(options)),
  };
  if (options.noAllure) env['PAYGATE_ALLURE'] = '0';
  if (options.runs !== undefined) env['PAYGATE_RUNS'] = String(options.runs);
  if (options.proxy !== undefined) env['PAYGATE_PROXY'] = options.proxy;
  const network = options.network;
  if (network?.requestTimeoutMs !== undefined) env['PAYGATE_REQUEST_TIMEOUT_MS'] = String(network.requestTimeoutMs);
  if (network?.headers !== undefined) env['PAYGATE_TARGET_HEADERS'] = JSON.stringify(network.headers);
  if (network?.clientCert !== undefined) env['PAYGATE_CLIENT_CERT'] = network.clientCert;
  if (network?.clientKey !== undefined) env['PAYGATE_CLIENT_KEY'] = network.clientKey;
  if (network?.clientPfx !== undefined) env['PAYGATE_CLIENT_PFX'] = network.clientPfx;
  if (options.replay !== undefined) env['PAYGATE_REPLAY'] = options.replay;
  if (options.confirmFailures !== undefined) env['PAYGATE_CONFIRM_FAILURES'] = String(options.confirmFailures);
  if (options.shard !== undefined) env['PAYGATE_SHARD'] = `${options.shard.index}/${options.shard.count}`;
  if (options.receiver !== undefined) {
    env['PAYGATE_TARGET_KIND'] = 'receiver';
    env['PAYGATE_RECEIVER_TARGET_URL'] = options.receiver.url;
    env['PAYGATE_RECEIVER_SCHEME'] = options.receiver.scheme;
  }
  // read by the embedded reference the global setup starts (it inherits the environment)
  if (options.personality !== undefined) env['REFERENCE_PERSONALITY'] = options.personality;
  const rps = effectiveMaxRps(options);
  const workers = effectiveWorkers(options, remote);
  if (workers !== undefined) env['PAYGATE_WORKERS'] = String(workers);
  const concurrency = effectiveConcurrency(options, remote);
  if (concurrency !== undefined) env['PAYGATE_CONCURRENCY'] = String(concurrency);
  if (rps !== undefined) {
    // the limiter is per process: each worker gets its share so the run never exceeds the cap
    env['PAYGATE_MAX_RPS_TOTAL'] = String(rps);
    env['PAYGATE_MAX_RPS'] = String(Math.floor((rps / (workers ?? 1)) * 1000) / 1000);
  }
  return env;
}

/** The flags a replay needs: what changes what a check does, never the target or a secret. */
export function replayFlags(options: CliOptions): string[] {
  const flags: string[] = ['--profile', options.profile];
  if (options.receiver === undefined && options.api !== 'both') flags.push('--api', options.api);
  if (options.strict) flags.push('--strict');
  if (options.personality !== undefined) flags.push('--personality', options.personality);
  if (options.maxRps !== undefined) flags.push('--max-rps', String(options.maxRps));
  if (options.runs !== undefined) flags.push('--runs', String(options.runs));
  if (options.concurrency !== undefined) flags.push('--concurrency', String(options.concurrency));
  if (options.receiver !== undefined) flags.push('--receiver-url', options.receiver.url, '--receiver-scheme', options.receiver.scheme);
  const network = options.network;
  if (network?.requestTimeoutMs !== undefined) flags.push('--request-timeout', `${network.requestTimeoutMs}ms`);
  if (network?.clientCert !== undefined) flags.push('--client-cert', network.clientCert);
  if (network?.clientKey !== undefined) flags.push('--client-key', network.clientKey);
  if (network?.clientPfx !== undefined) flags.push('--client-pfx', network.clientPfx);
  if (options.noPreflight) flags.push('--no-preflight');
  return flags;
}

/** --grep text as a literal pattern for vitest's testNamePattern. */
export function grepPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** Test file filters of a receiver run: the receiver suites only. */
export const RECEIVER_FILTERS: readonly string[] = ['suites/receiver/'];

/** Test file filters for --api. */
export function apiFilters(api: ApiSelection): string[] {
  return api === 'both' ? [] : [`suites/${api}/`];
}
