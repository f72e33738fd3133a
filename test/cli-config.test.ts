// The configuration file (harness/cli/config-file.ts, schemas/config.schema.json), `init`,
// `config print`, and the CLI's own manners: subcommands, --help that starts nothing, unknown
// flags named with the nearest one, the one exit-code table.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { configEnv, configFlagValues, findConfigFile, loadConfigFile, resolveRun, substitute } from '../harness/cli/config-file.js';
import { UsageError } from '../harness/cli/parse.js';
import { configTemplate, initCommand } from '../harness/cli/init.js';
import { effectiveSettings, renderSettings } from '../harness/cli/config-print.js';
import { EXIT_CODES, exitCodeMarkdown } from '../harness/cli/exit-codes.js';
import { COMMANDS } from '../harness/cli/commands.js';
import { conformanceCli } from './fault-matrix/runner.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'paygate-config-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function dir(name: string): string {
  const path = join(work, name);
  mkdirSync(path, { recursive: true });
  return path;
}

function file(path: string, text: string): string {
  writeFileSync(path, text);
  return path;
}

describe('the configuration file', () => {
  test('is found in the working directory or a parent; ${VAR} and ${VAR:-default} come from the environment', () => {
    const project = dir('found');
    const nested = join(project, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    const path = file(join(project, 'paygate-conformance.config.yaml'), 'profile: full\nseed: ${SEED:-7}\ntarget:\n  partner:\n    baseUrl: https://${HOST}/v1\n    apiKey: ${KEY}\n');
    expect(findConfigFile(nested)).toBe(path);
    expect(findConfigFile(dir('elsewhere'))).toBeUndefined();
    const config = loadConfigFile(path, { HOST: 'pt.example', KEY: 'ak_test_abc123' });
    expect(configFlagValues(config)).toEqual({ profile: 'full', seed: '7' });
    expect(configEnv(config, {})).toEqual({ PARTNER_BASE_URL: 'https://pt.example/v1', PARTNER_API_KEY: 'ak_test_abc123' });
    // a variable already set wins over the file
    expect(configEnv(config, { PARTNER_BASE_URL: 'https://other/v1' })).toEqual({ PARTNER_API_KEY: 'ak_test_abc123' });
    // an unset variable leaves its key unset (said by config print), never an empty value
    const unset = loadConfigFile(path, {});
    expect(configEnv(unset, {})).toEqual({});
    expect(unset.unset.map((u) => u.variable)).toEqual(['HOST', 'KEY']);
    expect(substitute('${A}-${B:-b}', { A: 'a' })).toEqual({ value: 'a-b' });
  });

  test.each([
    ['target:\n  partner:\n    apiKey: ak_test_literal\n', /target\.partner\.apiKey: a secret is never written in the file: reference an environment variable instead, e.g. "\$\{PARTNER_API_KEY\}"/],
    ['profile: fast\n', /profile: must be one of "quick", "full", "certify"/],
    ['selct:\n  checks: [a]\n', /selct: unknown key \(did you mean select\?\)/],
    ['network:\n  headers:\n    X-Tenant: 3\n', /network\.headers\.X-Tenant: must be string/],
    ['seed: abc\n', /config .*: seed expects an integer, got "abc"/],
    ['select:\n  severities: [high]\n', /select\.severities\[0\]: must be one of/],
    ['profile: [quick\n', /not valid YAML/],
  ])('%j is refused, naming the key at fault', (text, message) => {
    const project = dir(`bad-${Math.random().toString(36).slice(2)}`);
    file(join(project, 'paygate-conformance.config.yaml'), text);
    expect(() => resolveRun({}, [], {}, project)).toThrow(UsageError);
    expect(() => resolveRun({}, [], {}, project)).toThrow(message);
  });

  test('flags > environment > file > defaults; paths are relative to the file; JSON works too', () => {
    const project = dir('precedence');
    file(join(project, 'paygate-conformance.config.json'), JSON.stringify({ api: 'partner', strict: true, reportsDir: 'out', baseline: 'b.yaml', allure: false, select: { checks: ['partner.charges.*'] }, network: { requestTimeout: '30s', headers: { 'X-Tenant': 'acme' } } }));
    const fromFile = resolveRun({}, [], {}, join(project));
    expect(fromFile.options).toMatchObject({ api: 'partner', strict: true, noAllure: true, reportsDir: join(project, 'out'), baseline: join(project, 'b.yaml'), check: ['partner.charges.*'], network: { requestTimeoutMs: 30_000, headers: [['X-Tenant', 'acme']] } });
    expect(fromFile.options.config).toBe(join(project, 'paygate-conformance.config.json'));
    // a flag replaces the file's value (a list as a whole)
    const flagged = resolveRun({ api: 'gateway', check: ['gateway.auth.*'] }, ['api', 'check'], {}, project);
    expect(flagged.options).toMatchObject({ api: 'gateway', check: ['gateway.auth.*'] });
    // a variable set in the environment hides the file's value (PAYGATE_REPORTS_DIR)
    expect(resolveRun({}, [], { PAYGATE_REPORTS_DIR: '/elsewhere' }, project).options.reportsDir).toBeUndefined();
    // --config names the file; one that does not exist is a usage error
    expect(() => resolveRun({ config: 'nope.yaml' }, ['config'], {}, project)).toThrow(/--config .*nope\.yaml: no such file/);
  });
});

describe('init and config print', () => {
  test('init writes a commented config that validates and runs as it is (embedded reference); --ci writes the CI file; nothing is overwritten', () => {
    const project = dir('init');
    expect(initCommand({ ci: ['gitlab', 'jenkins'] }, project)).toBe(0);
    const text = readFileSync(join(project, 'paygate-conformance.config.yaml'), 'utf8');
    expect(text).toBe(configTemplate());
    expect(text).toMatch(/^# yaml-language-server: \$schema=\.\/node_modules\/paygate-conformance\/schemas\/config\.schema\.json/);
    expect(parse(text)).toEqual({ profile: 'quick', api: 'both', strict: false, reportsDir: 'reports' });
    const resolved = resolveRun({}, [], {}, project);
    expect(resolved.options).toMatchObject({ profile: 'quick', api: 'both', strict: false, reportsDir: join(project, 'reports') });
    expect(resolved.env).toEqual({});
    expect(readFileSync(join(project, '.gitlab-ci.yml'), 'utf8')).toBe(readFileSync(join(ROOT, 'docs/ci/gitlab-ci.yml'), 'utf8'));
    expect(existsSync(join(project, 'Jenkinsfile'))).toBe(true);
    expect(() => initCommand({}, project)).toThrow(/paygate-conformance\.config\.yaml exists \(--force overwrites it\)/);
    expect(() => initCommand({ ci: ['travis'] }, dir('init-bad'))).toThrow(/--ci must be one of github, gitlab, jenkins/);
    expect(initCommand({ force: true, ci: ['github'] }, project)).toBe(0);
    expect(existsSync(join(project, '.github/workflows/conformance.yml'))).toBe(true);
  });

  test('config print: each setting with its source; secrets and header values never printed', () => {
    const project = dir('print');
    file(join(project, 'paygate-conformance.config.yaml'), 'api: partner\ntarget:\n  partner:\n    baseUrl: https://pt.example/v1\n    apiKey: ${PT_KEY}\nnetwork:\n  headers:\n    X-Waf-Token: ${WAF}\n');
    const cwd = process.cwd();
    process.chdir(project);
    try {
      const { file: used, settings } = effectiveSettings({ seed: '9' }, ['seed'], { PT_KEY: 'ak_test_secret_value', WAF: 'waf-secret-value' });
      const text = renderSettings(used, settings);
      expect(text).toContain('seed: "9"   # flag --seed');
      expect(text).toContain('api: partner   # config file');
      expect(text).toContain('profile: quick   # default');
      expect(text).toMatch(/ {4}apiKey: <redacted> {3}# config file \(\$\{PT_KEY\}\)/);
      expect(text).toContain('X-Waf-Token: <redacted>');
      expect(text).not.toContain('secret_value');
      expect(text).not.toContain('waf-secret');
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('the CLI', () => {

  const cli = (args: string[], cwd = ROOT): ReturnType<typeof spawnSync> & { stdout: string; stderr: string } => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|GATEWAY_|PARTNER_|PAYGATE_|CALLBACK_)/.test(k)) env[k] = v;
    return spawnSync(process.execPath, conformanceCli(args), { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' }, timeout: 60_000 });
  };

  test('every subcommand answers --help (starting nothing: reference --help exits at once)', () => {
    for (const command of COMMANDS) {
      const r = cli([command.name, '--help']);
      expect(r.status, `${command.name}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toContain(command.name === 'run' ? 'Usage: npm run conformance -- [run] [flags]' : `Usage: npm run conformance -- ${command.usage}`);
      expect(r.stdout).toContain('5  partial');
    }
  }, 60_000);

  test('unknown subcommands and flags are named with the nearest known one (exit 2); verify names a missing bundle', () => {
    const sub = cli(['lsit']);
    expect(sub.status).toBe(2);
    expect(sub.stderr).toContain('unknown subcommand "lsit" (did you mean list?)');
    const flag = cli(['report', '--report-dir', 'x']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('paygate-conformance report: unknown flag --report-dir (did you mean --reports-dir?)');
    const merge = cli(['merge', '--strict']);
    expect(merge.stderr).toContain('unknown flag --strict');
    const verify = cli(['verify', 'no-such-bundle']);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain('no-such-bundle');
  }, 30_000);

  test('`config print` and `list` read the configuration file of the working directory', () => {
    const project = dir('cli-print');
    file(join(project, 'paygate-conformance.config.yaml'), 'api: partner\nselect:\n  checks: [partner.charges.description-max]\n');
    const print = cli(['config', 'print', '--json'], project);
    expect(print.status, print.stderr).toBe(0);
    const settings = (JSON.parse(print.stdout) as { settings: { key: string; value: unknown; source: string }[] }).settings;
    expect(settings.find((s) => s.key === 'select.checks')).toEqual({ key: 'select.checks', value: ['partner.charges.description-max'], source: 'config file' });
    const list = cli(['list', '--json'], project);
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { checks: { id: string }[] }).checks.map((c) => c.id)).toEqual(['partner.charges.description-max']);
  }, 60_000);
});

describe('one exit-code table', () => {
  test('codes 0-5, README.md prints it, and what tells users about exit codes refers to it', () => {
    expect(EXIT_CODES.map((e) => e.code)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(exitCodeMarkdown());
    for (const path of ['action.yml', 'docs/ci/github-actions.yml', 'docs/ci/gitlab-ci.yml', 'docs/ci/Jenkinsfile', 'docs/REPORTS.md', 'harness/report/merge.ts']) {
      expect(readFileSync(join(ROOT, path), 'utf8'), path).toContain('README.md "Exit codes"');
    }
  });
});

describe('colours', () => {
  test('only on a terminal; NO_COLOR turns them off, FORCE_COLOR on', async () => {
    const { colours, painter } = await import('../harness/cli/style.js');
    expect(colours({ isTTY: true }, {})).toBe(true);
    expect(colours({ isTTY: false }, {})).toBe(false);
    expect(colours({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colours({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colours({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(painter({ isTTY: false }, { FORCE_COLOR: '1' })('red', 'x')).toBe('\u001b[31mx\u001b[39m');
    expect(painter({ isTTY: true }, { NO_COLOR: '1' })('red', 'x')).toBe('x');
  });
});
