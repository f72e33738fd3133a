/**
 * The subcommands of `paygate-conformance` and their flags: one table that parsing, `--help` and
 * the docs' tests read. Loads nothing heavy: `--help` of every subcommand answers at once and
 * starts nothing.
 */
import type { OptionSpec } from './parse.js';

export const CERTIFY_DEFAULT_MAX_RPS = 5;
/**
 * --concurrency against a configured (remote) target: the suite waits on the network, not the CPU,
 * so more checks and property runs than cores are in flight (at 100 ms per round trip the quick
 * profile is otherwise ~2 000 requests one after another).
 */
export const REMOTE_DEFAULT_CONCURRENCY = 8;
/** the default per-request timeout, seconds (--request-timeout) */
export const DEFAULT_REQUEST_TIMEOUT_S = 15;

const HELP: OptionSpec = { name: 'help', short: 'h', help: 'this text; starts nothing' };
const CONFIG: OptionSpec = { name: 'config', value: 'FILE', help: 'the configuration file (default: paygate-conformance.config.yaml or .json in this directory or a parent)' };
const REPORTS_DIR: OptionSpec = { name: 'reports-dir', value: 'DIR', help: 'where every report goes (default ./reports of the working directory; also PAYGATE_REPORTS_DIR)' };

export const SELECTION_OPTIONS: readonly OptionSpec[] = [
  { name: 'check', value: 'ID', multiple: true, group: 'Selection (a partial run says so in every report)', help: 'run only these checks: ids or globs (partner.charges.*), repeatable or comma-separated; `list` shows the ids' },
  { name: 'exclude-check', value: 'ID', multiple: true, group: 'Selection (a partial run says so in every report)', help: 'leave these checks out: ids or globs' },
  { name: 'requirement', value: 'ID', multiple: true, group: 'Selection (a partial run says so in every report)', help: 'run the checks that set out to decide these requirements: IDs or globs (PT-CHARGE-*)' },
  { name: 'area', value: 'NAME', multiple: true, group: 'Selection (a partial run says so in every report)', help: 'run the checks of these functional areas ("PIX charges"; case-insensitive)' },
  { name: 'severity', value: 'LEVEL', multiple: true, group: 'Selection (a partial run says so in every report)', help: 'run the checks of these severities: blocker, critical, normal, minor' },
  { name: 'grep', value: 'TEXT', group: 'Selection (a partial run says so in every report)', help: 'run the checks whose title or id contains TEXT (literal text)' },
];

export const RUN_OPTIONS: readonly OptionSpec[] = [
  CONFIG,
  { name: 'profile', value: 'quick|full|certify', group: 'Run', help: 'quick (default): the CI gate, no timer waits. full: plus timer checks (token/charge expiry, webhook redelivery backoff) and more property runs. certify: full, plus production-credential checks that move no money, a request-rate cap and a certificate in conformance.md' },
  { name: 'api', value: 'gateway|partner|both', group: 'Run', help: 'which API to test (default both); the other is reported as not run' },
  { name: 'seed', value: 'N', group: 'Run', help: 'fast-check seed (32-bit integer; a negative one as --seed=-5). Default: random, printed at start' },
  { name: 'runs', value: 'N', group: 'Run', help: 'fast-check runs per property (default: the profile\'s)' },
  { name: 'strict', group: 'Run', help: 'warnings (points the contract leaves ambiguous or advisory) fail the run' },
  { name: 'max-rps', value: 'N', group: 'Run', help: `cap on requests per second for the whole run (certify default ${CERTIFY_DEFAULT_MAX_RPS}; no cap otherwise)` },
  { name: 'concurrency', value: 'N', group: 'Run', help: `checks (worker processes) and, inside a check, property runs in flight at once (default ${REMOTE_DEFAULT_CONCURRENCY} against a configured target, vitest's choice against the embedded reference; 2 under a rate cap)` },
  { name: 'workers', value: 'N', group: 'Run', help: 'test worker processes (default: from --concurrency, else vitest\'s choice; 2 under a rate cap)' },
  { name: 'shard', value: 'i/n', group: 'Run', help: 'run shard i of n; each shard writes reports/verdict-fragments/shard-i.json, merged by `merge`' },
  { name: 'replay', value: 'PATH', group: 'Run', help: 'fast-check path of a failing case (with its --seed; `replay FILE` does all of it)' },
  { name: 'personality', value: 'default|alt|mix:SEED', group: 'Run', help: 'embedded reference only: the personality it runs (REFERENCE_PERSONALITY; alt takes the other option wherever the contract leaves one, mix:SEED draws each choice from its options with that seed, reference/DECISIONS.md)' },
  { name: 'allow-insecure', group: 'Run', help: 'certify only: allow a plain-HTTP base URL that is not a loopback address' },
  { name: 'dry-run', group: 'Run', help: 'validate flags and configuration, print what would run, start nothing' },
  ...SELECTION_OPTIONS,
  { name: 'request-timeout', value: 'SECONDS', group: 'Network', help: `time limit of one request to the target (default ${DEFAULT_REQUEST_TIMEOUT_S}; also 1500ms, 30s)` },
  { name: 'header', value: 'NAME:VALUE', multiple: true, group: 'Network', help: 'add this header to every request to the target (a WAF token, a tenant, a trace id), repeatable; values are redacted in every report' },
  { name: 'client-cert', value: 'FILE', group: 'Network', help: 'mTLS: PEM client certificate for the target (with --client-key)' },
  { name: 'client-key', value: 'FILE', group: 'Network', help: 'mTLS: PEM private key of --client-cert (passphrase: PAYGATE_CLIENT_KEY_PASSPHRASE)' },
  { name: 'client-pfx', value: 'FILE', group: 'Network', help: 'mTLS: PKCS#12 client certificate and key (passphrase: PAYGATE_CLIENT_KEY_PASSPHRASE)' },
  { name: 'proxy', value: 'URL', group: 'Network', help: 'send every request to the target through this HTTP proxy (overrides HTTPS_PROXY/HTTP_PROXY; NO_PROXY applies; loopback goes direct)' },
  { name: 'no-preflight', group: 'Network', help: 'skip the preflight probes (DNS, TLS, credentials, receiver address) that stop an untestable run in seconds' },
  { name: 'receiver-url', value: 'URL', group: 'Receiver run (tests YOUR webhook endpoint, not the APIs)', help: 'the endpoint to play the platform against (signed events, forgeries, replays); with --receiver-scheme and RECEIVER_SIGNATURE_SECRET' },
  { name: 'receiver-scheme', value: 'gateway|partner', group: 'Receiver run (tests YOUR webhook endpoint, not the APIs)', help: 'which contract\'s webhooks the endpoint receives' },
  { ...REPORTS_DIR, group: 'Reports' },
  { name: 'json', group: 'Reports', help: 'print the run\'s summary as JSON on stdout (everything else goes to stderr)' },
  { name: 'no-allure', group: 'Reports', help: 'write no Allure results (conformance.json/md and junit.xml only)' },
  { name: 'baseline', value: 'FILE', group: 'Reports', help: 'YAML of accepted deviations (schemas/baseline.schema.json): the run fails only on findings not in it' },
  { name: 'write-baseline', value: 'FILE', group: 'Reports', help: 'write a baseline accepting every finding of this run (fill in the reasons)' },
  { name: 'history', value: 'FILE', group: 'Reports', help: 'append this run to a JSON-lines history; reports name verdict changes and flaky checks' },
  { name: 'har', group: 'Reports', help: 'write reports/exchanges.har: every HTTP exchange of the run (HAR 1.2, secrets redacted), one entry per request' },
  { name: 'confirm-failures', value: 'N', group: 'Reports', help: 'run each failing check N times more in the same run (the same seed and case); it is labelled confirmed (failed every time) or flaky (k/N)' },
  { name: 'version', group: 'Reports', help: 'print the tool version' },
  { ...HELP, group: 'Reports' },
];

export interface CommandSpec {
  name: string;
  /** one line for the command list */
  summary: string;
  usage: string;
  options: readonly OptionSpec[];
  /** takes positional arguments */
  positionals?: boolean;
  /** more text after the flags */
  notes?: readonly string[];
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    summary: 'run the conformance suite (the default subcommand)',
    usage: '[run] [flags]',
    options: RUN_OPTIONS,
  },
  {
    name: 'list',
    summary: 'list the checks (id, title, API, requirements, credentials needed, estimated requests) and the requirements',
    usage: 'list [--json] [selection flags]',
    options: [CONFIG, { name: 'json', help: 'print JSON: { checks, requirements }' }, { name: 'api', value: 'gateway|partner|both', help: 'only this API\'s checks' }, { name: 'profile', value: 'quick|full|certify', help: 'estimated requests for this profile (default quick)' }, ...SELECTION_OPTIONS.map((o) => ({ ...o, group: 'Selection' })), HELP],
  },
  {
    name: 'replay',
    summary: 'run one failing check again from its failure file (reports/failures/<check-id>.json): FIXED or STILL FAILING',
    usage: 'replay FILE [--target URL] [flags]',
    positionals: true,
    options: [
      { name: 'target', value: 'URL', help: 'the base URL of the check\'s API to replay against (default: the target configured now)' },
      CONFIG,
      { name: 'reports-dir', value: 'DIR', help: 'where the replay\'s reports go (default: replays/<check-id> beside the failure file\'s reports)' },
      { name: 'json', help: 'print the outcome as JSON on stdout' },
      HELP,
    ],
    notes: ['The same flags, seed and fast-check path as the failing run; credentials and headers come from the environment and configuration as for a run. Exit 0 FIXED, 1 STILL FAILING, 4 could not be judged.'],
  },
  {
    name: 'report',
    summary: 'build reports/allure-report/index.html: one self-contained file that opens from file://',
    usage: 'report [--reports-dir DIR] [--history FILE] [--quality-gate RULES]',
    options: [
      REPORTS_DIR,
      { name: 'results', value: 'DIR', help: 'the Allure results (default DIR/allure-results)' },
      { name: 'output', value: 'DIR', help: 'where the report goes (default DIR/allure-report)' },
      { name: 'history', value: 'FILE', help: "Allure's history (JSON lines): the report shows history and trends across the runs it holds" },
      { name: 'quality-gate', value: 'RULES', help: 'e.g. maxFailures=0,successRate=0.95 (also maxWarnings, minTestsCount, minRequirementsDecided): shown in the report; exit 1 when it fails' },
      HELP,
    ],
  },
  {
    name: 'merge',
    summary: 'merge sharded verdicts (DIR/verdict-fragments/shard-*.json) into DIR/conformance.{json,md}',
    usage: 'merge [--reports-dir DIR] [--allow-partial] [--baseline FILE] [--history FILE] [fragment.json …]',
    positionals: true,
    options: [
      REPORTS_DIR,
      { name: 'allow-partial', help: 'merge missing, duplicated or mismatched shards anyway: the verdict is PARTIAL (without it they are refused, nothing written)' },
      { name: 'baseline', value: 'FILE', help: 'the run\'s baseline: reports stale and expired entries (each shard saw part of the run)' },
      { name: 'history', value: 'FILE', help: 'compare with and append to this history' },
      HELP,
    ],
  },
  {
    name: 'reference',
    summary: 'start the embedded reference sandbox alone and print how to point a client at it',
    usage: 'reference [--json] [--receiver [--port N] [--faults a,b]]',
    options: [
      { name: 'json', help: 'print one line of JSON (addresses and credentials) instead of the text' },
      { name: 'receiver', help: 'start the reference webhook receiver instead (to try a receiver run)' },
      { name: 'port', value: 'N', help: 'the receiver\'s port (with --receiver; default: any free port)' },
      { name: 'faults', value: 'a,b', help: 'the receiver\'s faults (with --receiver; reference/receiver/faults.ts)' },
      { name: 'personality', value: 'default|alt|mix:SEED', help: 'the sandbox\'s personality (REFERENCE_PERSONALITY)' },
      HELP,
    ],
    notes: ['REFERENCE_FAULTS=name[,name] switches on deliberate deviations (reference/faults.ts). Ctrl-C stops it.'],
  },
  {
    name: 'init',
    summary: 'write a commented paygate-conformance.config.yaml (and, on request, a CI file)',
    usage: 'init [--ci github|gitlab|jenkins] [--force]',
    options: [
      { name: 'ci', value: 'github|gitlab|jenkins', multiple: true, help: 'also write the CI file: .github/workflows/conformance.yml, .gitlab-ci.yml or Jenkinsfile' },
      { name: 'file', value: 'FILE', help: 'where the config goes (default paygate-conformance.config.yaml)' },
      { name: 'force', help: 'overwrite files that exist' },
      HELP,
    ],
  },
  {
    name: 'config',
    summary: '`config print`: the effective configuration (file, environment, flags), secrets redacted',
    usage: 'config print [--config FILE] [--json] [run flags]',
    positionals: true,
    options: [...RUN_OPTIONS.filter((o) => o.name !== 'help' && o.name !== 'version'), HELP],
  },
  {
    name: 'certify',
    summary: 'a certify run keeping every exchange, then its bundle DIR/certificate/ (certificate, HAR, reports, MANIFEST.sha256)',
    usage: 'certify --implementation-name NAME --implementation-version VERSION [run flags]',
    options: [
      { name: 'implementation-name', value: 'NAME', help: 'the implementation certified (required)' },
      { name: 'implementation-version', value: 'VERSION', help: 'its version (required)' },
      ...RUN_OPTIONS.filter((o) => o.name !== 'profile' && o.name !== 'shard' && o.name !== 'no-allure'),
    ],
    notes: ['Exit code: the run\'s (0 PASS, 1 FAIL, 4 INCONCLUSIVE, 5 PARTIAL); 2 bad usage; 3 the bundle could not be written. PAYGATE_SIGN_COMMAND signs the manifest (README "Certification").'],
  },
  {
    name: 'verify',
    summary: 'check a certification bundle (default reports/certificate): exit 1 naming any altered, added or missing file',
    usage: 'verify [DIR]',
    positionals: true,
    options: [HELP],
    notes: ['PAYGATE_VERIFY_COMMAND, when set, checks MANIFEST.sha256.sig too ({manifest} and {signature} are replaced by the paths).'],
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
