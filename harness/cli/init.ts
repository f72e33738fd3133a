/**
 * `paygate-conformance init [--ci github|gitlab|jenkins] [--force]`: writes a commented
 * paygate-conformance.config.yaml that runs as it is (against the embedded reference, until a
 * target is set), and on request the CI file of the chosen system from the templates that ship in
 * the package (docs/ci/). Never overwrites a file unless --force.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT } from './exit-codes.js';
import { UsageError, listValue } from './parse.js';
import type { RawValues } from './parse.js';
import { packageRoot } from '../version.js';

/** Where each CI system looks for its file, and the template it comes from. */
export const CI_FILES = {
  github: { path: '.github/workflows/conformance.yml', template: 'docs/ci/github-actions.yml' },
  gitlab: { path: '.gitlab-ci.yml', template: 'docs/ci/gitlab-ci.yml' },
  jenkins: { path: 'Jenkinsfile', template: 'docs/ci/Jenkinsfile' },
} as const;

export type CiSystem = keyof typeof CI_FILES;

/** The configuration `init` writes: every setting, commented; what is not commented out is the default. */
export function configTemplate(): string {
  return `# yaml-language-server: $schema=./node_modules/paygate-conformance/schemas/config.schema.json
# paygate-conformance configuration (the schema above lets editors complete and check it).
# Flags and environment variables override it; \`npx paygate-conformance config print\` shows the
# effective settings, \`npx paygate-conformance --help\` every flag.
#
# Secrets are never written here: a secret key takes only a \${VARIABLE} reference, read from the
# environment (a CI secret). Any text may use \${VARIABLE} or \${VARIABLE:-default}.

profile: quick        # quick: the CI gate | full: plus contract timers | certify: a certificate
api: both             # gateway | partner | both
strict: false         # true: warnings (ambiguous points) and stale baseline entries fail the run
reportsDir: reports   # relative to this file
# seed: 1234          # unset: random, printed at start (a run replays with its seed)
# baseline: conformance-baseline.yaml    # accepted deviations: start one with --write-baseline FILE
# history: .conformance/history.jsonl    # verdict changes and flaky checks between runs
# maxRps: 5           # request-rate cap (certify: 5 unless set)
# concurrency: 8      # checks in flight (default 8 against a configured target)

# Which checks run (\`npx paygate-conformance list\` shows them). Any of these makes the run partial,
# and every report says so.
# select:
#   checks: [partner.charges.*]
#   excludeChecks: []
#   requirements: [PT-CHARGE-*]
#   areas: ["PIX charges"]
#   severities: [blocker, critical]

# The target. Without a base URL (here or in GATEWAY_BASE_URL / PARTNER_BASE_URL) the embedded
# reference sandbox is started and tested: this file runs as it is.
# target:
#   gateway:
#     baseUrl: https://sandbox.example.com
#     clientId: \${GATEWAY_CLIENT_ID}
#     clientSecret: \${GATEWAY_CLIENT_SECRET}
#     # liveClientId / liveClientSecret: a production pair (only checks that move no money)
#     # otherClientId / otherClientSecret: a second account (isolation); splitEmail: split checks
#   partner:
#     baseUrl: https://partner.example.com/v1
#     apiKey: \${PARTNER_API_KEY}
#     # liveApiKey, otherApiKey, webhookSecret: \${…} each
#   callback:
#     host: 127.0.0.1
#     port: 4799
#     publicUrl: https://tunnel.example.com   # where the target reaches the suite's webhook receiver

# A real sandbox's network.
# network:
#   requestTimeout: 15                 # seconds per request
#   headers:                           # sent to the target only; values redacted in every report
#     X-Tenant: acme
#     X-Waf-Token: \${WAF_TOKEN}
#   proxy: http://proxy.example:3128
#   clientCert: certs/client.pem       # mTLS (with clientKey), or clientPfx
#   clientKey: certs/client-key.pem
#   clientKeyPassphrase: \${CLIENT_KEY_PASSPHRASE}
#   preflight: true
`;
}

function write(path: string, text: string, force: boolean): string {
  if (existsSync(path) && !force) throw new UsageError(`${path} exists (--force overwrites it)`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export function initCommand(values: RawValues, cwd: string = process.cwd()): number {
  const force = values['force'] === true;
  const file = resolve(cwd, typeof values['file'] === 'string' ? values['file'] : 'paygate-conformance.config.yaml');
  const systems = (listValue(values['ci']) ?? []).map((name) => {
    if (!(name in CI_FILES)) throw new UsageError(`--ci must be one of ${Object.keys(CI_FILES).join(', ')}, got "${name}"`);
    return name as CiSystem;
  });
  // check every target before writing anything
  for (const path of [file, ...systems.map((s) => resolve(cwd, CI_FILES[s].path))]) {
    if (existsSync(path) && !force) throw new UsageError(`${relative(cwd, path) || path} exists (--force overwrites it)`);
  }
  const written = [write(file, configTemplate(), force)];
  for (const system of systems) {
    const template = readFileSync(join(packageRoot(), CI_FILES[system].template), 'utf8');
    written.push(write(resolve(cwd, CI_FILES[system].path), template, force));
  }
  process.stdout.write(
    [
      ...written.map((path) => `wrote ${relative(cwd, path) || path}`),
      '',
      'It runs as it is, against the embedded reference sandbox: npx paygate-conformance',
      'Point it at your implementation under target: (secrets as ${VARIABLE}), then check with: npx paygate-conformance config print',
    ].join('\n') + '\n',
  );
  return EXIT.pass;
}
