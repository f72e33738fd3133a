/**
 * Command-line flags of `npm run conformance` / `paygate-conformance`, their validation, the help
 * text (every flag and every environment variable of the interface), the certify safety rule, and
 * the environment handed to test workers.
 */
import { isLoopbackHost } from '../http/network.js';

export { isLoopbackHost };
import { commandFor } from './invocation.js';

export type Profile = 'quick' | 'full' | 'certify';
export type ApiSelection = 'gateway' | 'partner' | 'both';

export interface CliOptions {
  profile: Profile;
  api: ApiSelection;
  /** undefined: the CLI picks a random seed and prints it */
  seed?: number;
  runs?: number;
  grep?: string;
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
}

/** A bad command line: the CLI prints the message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const CERTIFY_DEFAULT_MAX_RPS = 5;
/**
 * --concurrency against a configured (remote) target: the suite waits on the network, not the CPU,
 * so more checks and property runs than cores are in flight (issue 16: at 100 ms per round trip the
 * quick profile is otherwise ~2 000 requests one after another).
 */
export const REMOTE_DEFAULT_CONCURRENCY = 8;
/** fast-check seeds are 32-bit signed integers */
const SEED_MIN = -(2 ** 31);
const SEED_MAX = 2 ** 31 - 1;

interface FlagSpec {
  flag: string;
  value?: string;
  help: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { flag: '--profile', value: 'quick|full|certify', help: 'quick (default): the CI gate, no timer waits. full: plus timer checks (token/charge expiry, webhook redelivery backoff) and more property runs. certify: full, plus production-credential checks that move no money, a request-rate cap and a certificate in conformance.md' },
  { flag: '--api', value: 'gateway|partner|both', help: 'which API to test (default both); the other is reported as not run' },
  { flag: '--seed', value: 'N', help: 'fast-check seed (32-bit integer). Default: random, printed at start so a run can be replayed' },
  { flag: '--runs', value: 'N', help: 'override the number of fast-check runs per property' },
  { flag: '--grep', value: 'TEXT', help: 'run only checks whose test name contains TEXT (literal text, not a pattern)' },
  { flag: '--max-rps', value: 'N', help: `cap on requests per second for the whole run (certify default ${CERTIFY_DEFAULT_MAX_RPS}; no cap otherwise)` },
  { flag: '--strict', help: 'warnings (points the contract leaves ambiguous or advisory) fail the run' },
  { flag: '--allow-insecure', help: 'certify only (ignored with a warning otherwise): allow a plain-HTTP base URL that is not a loopback address' },
  { flag: '--proxy', value: 'URL', help: 'send every request to the target (and to CALLBACK_PUBLIC_URL) through this HTTP proxy; overrides HTTPS_PROXY/HTTP_PROXY, NO_PROXY still applies, loopback always goes direct' },
  { flag: '--no-allure', help: 'write no Allure results (conformance.json/md and junit.xml only): a leaner, faster CI gate' },
  { flag: '--no-preflight', help: 'skip the preflight probes (DNS, TLS, credentials, availability, receiver address) that stop an untestable run in seconds' },
  { flag: '--replay', value: 'PATH', help: 'fast-check replay path of a failing fuzz case (needs --seed; use with --grep to run that check only)' },
  { flag: '--shard', value: 'i/n', help: 'run shard i of n; each shard writes reports/verdict-fragments/shard-i.json, merged by the merge subcommand (npm run report:merge)' },
  { flag: '--workers', value: 'N', help: 'number of test worker processes (default: vitest\'s choice; 2 when a rate cap applies)' },
  { flag: '--receiver-url', value: 'URL', help: "receiver run: test YOUR webhook endpoint at URL by playing the platform (signed events, forgeries, replays); needs --receiver-scheme and RECEIVER_SIGNATURE_SECRET; runs suites/receiver only" },
  { flag: '--receiver-scheme', value: 'gateway|partner', help: 'which contract\'s webhooks the endpoint receives (with --receiver-url)' },
  { flag: '--personality', value: 'default|alt|mix:SEED', help: 'embedded reference only: which personality it runs (sets REFERENCE_PERSONALITY; alt takes the other option wherever the contract leaves one, mix:SEED draws each choice from its options with that seed, reference/DECISIONS.md)' },
  { flag: '--concurrency', value: 'N', help: `checks in flight at once (N worker processes) and, inside a check, independent property runs in flight at once; it follows the target's latency, not the CPUs (default ${REMOTE_DEFAULT_CONCURRENCY} against a configured target, vitest's choice against the embedded reference; 2 when a rate cap applies). Checks that need a quiet account still run alone` },
  { flag: '--dry-run', help: 'validate flags and configuration, print what would run, and exit' },
  { flag: '--version', help: 'print the tool version' },
  { flag: '--help', help: 'this text (also -h)' },
];

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
  { name: 'CI', help: 'when set (or stdout is not a terminal), progress is printed as plain periodic lines' },
  { name: 'PAYGATE_REPORTS_DIR', help: 'where every report goes (default reports)' },
  { name: 'PAYGATE_JUNIT_FILE', help: 'JUnit file path (default <reports>/junit.xml; the vitest --outputFile flag does not override the config)' },
  { name: 'PAYGATE_TEST_TIMEOUT_MS', help: "one time limit for every check (default: 60 s, or the check's own, × 4 in full/certify, longer under --max-rps; timer checks 15-30 min)" },
  { name: 'PAYGATE_PARTNER_RETRY_CAP_MS', help: "the target's partner redelivery cap when its sandbox runs timers shorter than the contract's 5 min (embedded: REFERENCE_PARTNER_RETRY_CAP_MS); only shortens" },
  { name: 'PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS', help: "the target's partner per-call timeout when shorter than the contract's 10 s (embedded: REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS); only shortens" },
  { name: 'REFERENCE_FAULTS', help: 'embedded reference only: comma-separated fault names to inject (see reference/faults.ts)' },
  { name: 'REFERENCE_PERSONALITY', help: 'embedded reference only: default | alt | mix:SEED (see reference/DECISIONS.md); --personality sets it' },
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
];

export function helpText(): string {
  const lines: string[] = [
    'paygate-conformance — contract conformance suite and fuzzer for the gateway and partner PIX cash-in APIs',
    '',
    'Usage: npm run conformance -- [flags]    or    npx paygate-conformance [flags]',
    '',
    'With no target configured, the embedded reference sandbox is started and both APIs are tested.',
    'Exit code: 0 no check failed (warnings and not-run checks do not count unless --strict);',
    '           1 a check failed; 2 bad flags or configuration; 3 the suite itself broke (harness error);',
    '           4 inconclusive: nothing failed, but the target could not be tested from here (DNS, TLS, proxy,',
    '             credentials, an unavailable target, an unreachable CALLBACK_PUBLIC_URL: found by the preflight',
    '             before any check, or during the run for the checks it touched). Never a conformance failure.',
    '',
    'Flags (also --flag=value):',
  ];
  for (const f of FLAGS) lines.push(`  ${`${f.flag}${f.value !== undefined ? ` ${f.value}` : ''}`.padEnd(30)} ${f.help}`);
  lines.push('', 'Target configuration (environment variables):');
  for (const e of TARGET_ENV) lines.push(`  ${e.name.padEnd(30)} ${e.help}`);
  lines.push(
    '',
    '  If neither GATEWAY_BASE_URL nor PARTNER_BASE_URL is set, the embedded reference is the target. If only one',
    '  is set, only that API is tested. A missing optional variable turns its checks into "not run", never failures.',
    '',
    'Receiver run (--receiver-url URL --receiver-scheme gateway|partner: tests your webhook endpoint, not the APIs):',
  );
  for (const e of RECEIVER_ENV) lines.push(`  ${e.name.padEnd(30)} ${e.help}`);
  lines.push('', 'Other environment variables:');
  for (const e of OTHER_ENV) lines.push(`  ${e.name.padEnd(30)} ${e.help}`);
  lines.push('', 'Set by the CLI for test workers:');
  for (const e of WORKER_ENV) lines.push(`  ${e.name.padEnd(30)} ${e.help}`);
  lines.push(
    '',
    'Real sandboxes: before any check, a preflight probes each base URL (DNS, TLS, POST /api/auth with the',
    'sandbox pair, the partner key on GET /business/finance) and sends a request to CALLBACK_PUBLIC_URL, which',
    'the target must reach to deliver webhooks; a problem stops the run in seconds (exit 4) with what to do.',
    'Behind a proxy: HTTPS_PROXY / HTTP_PROXY / NO_PROXY or --proxy URL. A private CA: NODE_EXTRA_CA_CERTS=ca.pem.',
    '',
    'Outputs (reports/): allure-results/, junit.xml, conformance.json, conformance.md;',
    `\`${commandFor('report', { bare: true })}\` builds reports/allure-report/index.html (one offline file).`,
  );
  return lines.join('\n');
}

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new UsageError(`${flag} expects an integer, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${text}`);
  return value;
}

function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${text}"`);
}

const WITH_VALUE = new Set(FLAGS.filter((f) => f.value !== undefined).map((f) => f.flag));
const BOOLEAN = new Set(FLAGS.filter((f) => f.value === undefined).map((f) => f.flag));

/** Parses and validates the flags. Throws UsageError with a message fit for the user. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { profile: 'quick', api: 'both', strict: false, allowInsecure: false, noPreflight: false, noAllure: false, dryRun: false, help: false, version: false };
  const seen = new Set<string>();
  let receiverUrl: string | undefined;
  let receiverScheme: 'gateway' | 'partner' | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') continue; // npm passes it through sometimes
    if (arg === '-h') {
      options.help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}" (flags start with --; see --help)`);
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    if (!WITH_VALUE.has(flag) && !BOOLEAN.has(flag)) throw new UsageError(`unknown flag ${flag} (see --help)`);
    if (seen.has(flag)) throw new UsageError(`${flag} given twice`);
    seen.add(flag);
    if (BOOLEAN.has(flag)) {
      if (value !== undefined) throw new UsageError(`${flag} takes no value`);
    } else if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`${flag} needs a value`);
      value = next;
      i += 1;
    }
    const v = value ?? '';
    switch (flag) {
      case '--profile':
        options.profile = oneOf(flag, v, ['quick', 'full', 'certify'] as const);
        break;
      case '--api':
        options.api = oneOf(flag, v, ['gateway', 'partner', 'both'] as const);
        break;
      case '--seed':
        options.seed = integer(flag, v, SEED_MIN, SEED_MAX);
        break;
      case '--runs':
        options.runs = integer(flag, v, 1, 1_000_000);
        break;
      case '--grep':
        if (v.trim() === '') throw new UsageError('--grep needs a non-empty text');
        options.grep = v;
        break;
      case '--max-rps': {
        const rps = Number(v);
        if (v.trim() === '' || !Number.isFinite(rps) || rps <= 0) throw new UsageError(`--max-rps expects a positive number, got "${v}"`);
        options.maxRps = rps;
        break;
      }
      case '--replay':
        if (v.trim() === '') throw new UsageError('--replay needs a fast-check path (e.g. "3:1:0")');
        options.replay = v;
        break;
      case '--shard': {
        const m = /^(\d+)\/(\d+)$/.exec(v);
        const index = Number(m?.[1]);
        const count = Number(m?.[2]);
        if (m === null || count < 1 || index < 1 || index > count) throw new UsageError(`--shard expects i/n with 1 <= i <= n, got "${v}"`);
        options.shard = { index, count };
        break;
      }
      case '--workers':
        options.workers = integer(flag, v, 1, 64);
        break;
      case '--personality':
        if (v === 'default' || v === 'alt') options.personality = v;
        else if (/^mix:\d{1,15}$/.test(v) && Number.isSafeInteger(Number(v.slice(4)))) options.personality = `mix:${Number(v.slice(4))}`;
        else throw new UsageError(`${flag} must be one of default, alt, mix:SEED (SEED a non-negative integer), got "${v}"`);
        break;
      case '--concurrency':
        options.concurrency = integer(flag, v, 1, 64);
        break;
      case '--strict':
        options.strict = true;
        break;
      case '--allow-insecure':
        options.allowInsecure = true;
        break;
      case '--no-preflight':
        options.noPreflight = true;
        break;
      case '--no-allure':
        options.noAllure = true;
        break;
      case '--proxy': {
        let url: URL | undefined;
        try {
          url = new URL(v);
        } catch {
          url = undefined;
        }
        if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--proxy expects an http(s) URL such as http://proxy.example:3128, got "${v}"`);
        options.proxy = v;
        break;
      }
      case '--dry-run':
        options.dryRun = true;
        break;
      case '--receiver-url':
        receiverUrl = v;
        break;
      case '--receiver-scheme':
        receiverScheme = oneOf(flag, v, ['gateway', 'partner'] as const);
        break;
      case '--help':
        options.help = true;
        break;
      case '--version':
        options.version = true;
        break;
    }
  }
  if ((receiverUrl === undefined) !== (receiverScheme === undefined)) {
    throw new UsageError('--receiver-url and --receiver-scheme go together (e.g. --receiver-url https://example.test/hooks --receiver-scheme partner)');
  }
  if (receiverUrl !== undefined && receiverScheme !== undefined) {
    if (seen.has('--api')) throw new UsageError('--api does not apply to a receiver run (--receiver-url): the scheme is --receiver-scheme');
    options.receiver = { url: receiverUrl, scheme: receiverScheme };
  }
  if (options.replay !== undefined && options.seed === undefined) {
    throw new UsageError('--replay needs the --seed of the failing run (both are printed with the failure)');
  }
  return options;
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
  };
  if (options.noAllure) env['PAYGATE_ALLURE'] = '0';
  if (options.runs !== undefined) env['PAYGATE_RUNS'] = String(options.runs);
  if (options.proxy !== undefined) env['PAYGATE_PROXY'] = options.proxy;
  if (options.replay !== undefined) env['PAYGATE_REPLAY'] = options.replay;
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
