/**
 * paygate-conformance.config.yaml (or .yml / .json): found in the working directory or a parent,
 * or given with --config. Validated against schemas/config.schema.json (ajv): every problem names
 * its key. Secrets are never in the file: a secret key takes only a `${VARIABLE}` reference, and
 * any text may use `${VARIABLE}` or `${VARIABLE:-default}` (an unset variable leaves the key unset).
 *
 * Precedence, for every setting: flag > environment variable > file > default. {@link SETTINGS}
 * maps each key to its flag and variable; the run takes the file's values as flag values it has
 * not been given, and the target's keys as the variables that are not set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { yaml } from '../core/yaml.js';
import { UsageError, nearest } from './parse.js';
import type { RawValues } from './parse.js';
import { schemaProblems } from '../config/schemas.js';
import { toCliOptions } from './args.js';
import type { CliOptions } from './args.js';

export const CONFIG_FILE_NAMES = ['paygate-conformance.config.yaml', 'paygate-conformance.config.yml', 'paygate-conformance.config.json'] as const;

/** One setting: its key in the file, the flag and/or environment variable that override it. */
export interface Setting {
  key: string;
  flag?: string;
  env?: string;
  /** a boolean key whose `false` is a `--no-…` flag */
  negates?: boolean;
  /** a file or directory: relative to the configuration file */
  path?: boolean;
  /** a list (repeatable flag) */
  list?: boolean;
  /** `{ Name: value }` → repeated `--header Name:value` */
  headers?: boolean;
  secret?: boolean;
  /** shown by `config print` when nothing sets it */
  default?: string | number | boolean;
}

export const SETTINGS: readonly Setting[] = [
  { key: 'profile', flag: 'profile', default: 'quick' },
  { key: 'api', flag: 'api', default: 'both' },
  { key: 'seed', flag: 'seed', default: 'random (printed at start)' },
  { key: 'runs', flag: 'runs' },
  { key: 'strict', flag: 'strict', default: false },
  { key: 'maxRps', flag: 'max-rps' },
  { key: 'concurrency', flag: 'concurrency' },
  { key: 'workers', flag: 'workers' },
  { key: 'allowInsecure', flag: 'allow-insecure', default: false },
  { key: 'reportsDir', flag: 'reports-dir', env: 'PAYGATE_REPORTS_DIR', path: true, default: 'reports' },
  { key: 'allure', flag: 'no-allure', negates: true, default: true },
  { key: 'baseline', flag: 'baseline', path: true },
  { key: 'history', flag: 'history', path: true },
  { key: 'select.checks', flag: 'check', list: true },
  { key: 'select.excludeChecks', flag: 'exclude-check', list: true },
  { key: 'select.requirements', flag: 'requirement', list: true },
  { key: 'select.areas', flag: 'area', list: true },
  { key: 'select.severities', flag: 'severity', list: true },
  { key: 'select.grep', flag: 'grep' },
  { key: 'network.requestTimeout', flag: 'request-timeout', default: 15 },
  { key: 'network.headers', flag: 'header', headers: true },
  { key: 'network.proxy', flag: 'proxy', env: 'PAYGATE_PROXY' },
  { key: 'network.clientCert', flag: 'client-cert', path: true },
  { key: 'network.clientKey', flag: 'client-key', path: true },
  { key: 'network.clientPfx', flag: 'client-pfx', path: true },
  { key: 'network.clientKeyPassphrase', env: 'PAYGATE_CLIENT_KEY_PASSPHRASE', secret: true },
  { key: 'network.preflight', flag: 'no-preflight', negates: true, env: 'PAYGATE_PREFLIGHT', default: true },
  { key: 'target.gateway.baseUrl', env: 'GATEWAY_BASE_URL', default: 'unset (the embedded reference when neither base URL is set)' },
  { key: 'target.gateway.clientId', env: 'GATEWAY_CLIENT_ID' },
  { key: 'target.gateway.clientSecret', env: 'GATEWAY_CLIENT_SECRET', secret: true },
  { key: 'target.gateway.liveClientId', env: 'GATEWAY_LIVE_CLIENT_ID' },
  { key: 'target.gateway.liveClientSecret', env: 'GATEWAY_LIVE_CLIENT_SECRET', secret: true },
  { key: 'target.gateway.otherClientId', env: 'GATEWAY_OTHER_CLIENT_ID' },
  { key: 'target.gateway.otherClientSecret', env: 'GATEWAY_OTHER_CLIENT_SECRET', secret: true },
  { key: 'target.gateway.splitEmail', env: 'GATEWAY_SPLIT_EMAIL' },
  { key: 'target.partner.baseUrl', env: 'PARTNER_BASE_URL', default: 'unset (the embedded reference when neither base URL is set)' },
  { key: 'target.partner.apiKey', env: 'PARTNER_API_KEY', secret: true },
  { key: 'target.partner.liveApiKey', env: 'PARTNER_LIVE_API_KEY', secret: true },
  { key: 'target.partner.otherApiKey', env: 'PARTNER_OTHER_API_KEY', secret: true },
  { key: 'target.partner.webhookSecret', env: 'PARTNER_WEBHOOK_SECRET', secret: true },
  { key: 'target.callback.host', env: 'CALLBACK_HOST', default: '127.0.0.1' },
  { key: 'target.callback.port', env: 'CALLBACK_PORT', default: 4799 },
  { key: 'target.callback.publicUrl', env: 'CALLBACK_PUBLIC_URL', default: 'http://CALLBACK_HOST:CALLBACK_PORT' },
  { key: 'receiver.url', flag: 'receiver-url' },
  { key: 'receiver.scheme', flag: 'receiver-scheme' },
  { key: 'receiver.signatureSecret', env: 'RECEIVER_SIGNATURE_SECRET', secret: true },
  { key: 'receiver.stateUrl', env: 'RECEIVER_STATE_URL' },
  { key: 'reference.personality', flag: 'personality', env: 'REFERENCE_PERSONALITY', default: 'default' },
];

export interface ConfigFile {
  file: string;
  /** the values after `${VARIABLE}` substitution, by key (`target.partner.apiKey`) */
  values: Map<string, unknown>;
  /** secret keys → the variable they reference */
  secretVariables: Map<string, string>;
  /** keys left unset because a variable they reference is unset */
  unset: { key: string; variable: string }[];
}

/** The configuration file for this directory: `paygate-conformance.config.*` here or in a parent. */
export function findConfigFile(cwd: string = process.cwd()): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = join(dir, name);
      if (existsSync(file)) return file;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${A}` and `${A:-default}` in `text` from `env`; undefined (with the variable) when one is unset. */
export function substitute(text: string, env: NodeJS.ProcessEnv): { value?: string; missing?: string } {
  let missing: string | undefined;
  const value = text.replace(REFERENCE, (_, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    missing ??= name;
    return '';
  });
  return missing !== undefined ? { missing } : { value };
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  const leafObject = prefix === 'network.headers';
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !leafObject) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
  } else if (prefix !== '' && prefix !== '$schema') out.set(prefix, value);
}

const settingFor = (key: string): Setting | undefined => SETTINGS.find((s) => s.key === key);

/** Reads, validates and substitutes a configuration file. Throws UsageError naming the key at fault. */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`config ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`);
  }
  let doc: unknown;
  try {
    doc = file.endsWith('.json') ? JSON.parse(text) : yaml().parse(text);
  } catch (error) {
    throw new UsageError(`config ${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error instanceof Error ? error.message : String(error)}`);
  }
  doc ??= {};
  const problems = schemaProblems('config', doc, { nearest, secretVariable: (key) => settingFor(key)?.env });
  if (problems.length > 0) throw new UsageError(`config ${file}: ${problems.join('; ')}`);
  const raw = new Map<string, unknown>();
  flatten(doc, '', raw);
  const values = new Map<string, unknown>();
  const secretVariables = new Map<string, string>();
  const unset: ConfigFile['unset'] = [];
  const base = dirname(file);
  const one = (key: string, item: unknown): unknown => {
    if (typeof item !== 'string') return item;
    const { value, missing } = substitute(item, env);
    if (missing !== undefined) {
      unset.push({ key, variable: missing });
      return undefined;
    }
    return value;
  };
  for (const [key, item] of raw) {
    const setting = settingFor(key);
    if (setting?.secret === true && typeof item === 'string') secretVariables.set(key, item.slice(2, -1));
    let value: unknown;
    if (Array.isArray(item)) value = item.map((x) => one(key, x)).filter((x) => x !== undefined);
    else if (typeof item === 'object' && item !== null) value = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, one(`${key}.${k}`, v)]).filter(([, v]) => v !== undefined));
    else value = one(key, item);
    if (value === undefined) continue;
    if (setting?.path === true && typeof value === 'string') value = resolve(base, value);
    values.set(key, value);
  }
  return { file, values, secretVariables, unset };
}

/** The file's values as flag values (`--seed 5`, `--no-allure`, `--header A:b`…) for `toCliOptions`. */
export function configFlagValues(config: ConfigFile): RawValues {
  const out: RawValues = {};
  for (const setting of SETTINGS) {
    const value = config.values.get(setting.key);
    if (value === undefined || setting.flag === undefined) continue;
    if (setting.negates === true) {
      if (value === false) out[setting.flag] = true;
    } else if (setting.headers === true) out[setting.flag] = Object.entries(value as Record<string, string>).map(([k, v]) => `${k}:${v}`);
    else if (setting.list === true) out[setting.flag] = (value as unknown[]).map(String);
    else if (typeof value === 'boolean') {
      if (value) out[setting.flag] = true;
    } else out[setting.flag] = String(value);
  }
  return out;
}

/** The environment variables the file sets (target, receiver, passphrase): only where unset. */
export function configEnv(config: ConfigFile, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const setting of SETTINGS) {
    const value = config.values.get(setting.key);
    if (value === undefined || setting.env === undefined || setting.flag !== undefined) continue;
    if (env[setting.env] !== undefined && env[setting.env] !== '') continue;
    out[setting.env] = String(value);
  }
  return out;
}

/**
 * Merges flag values over the file's (a flag given replaces the file's value; a variable set in
 * the environment for a setting also hides the file's value).
 */
export function mergeFlagValues(fromFile: RawValues, fromFlags: RawValues, given: readonly string[], env: NodeJS.ProcessEnv): RawValues {
  const merged: RawValues = {};
  for (const [flag, value] of Object.entries(fromFile)) {
    const setting = SETTINGS.find((s) => s.flag === flag);
    if (setting?.env !== undefined && env[setting.env] !== undefined && env[setting.env] !== '') continue;
    merged[flag] = value;
  }
  for (const flag of given) merged[flag] = fromFlags[flag];
  return merged;
}

/** `--seed` in a message about the file's values → the file's key (`seed`). */
export function inFileTerms(message: string): string {
  return message.replace(/--([a-z-]+)/g, (whole, flag: string) => SETTINGS.find((s) => s.flag === flag)?.key ?? whole);
}

/** The settings of a run: flags over the configuration file (when there is one). */
export interface ResolvedRun {
  options: CliOptions;
  config?: ConfigFile;
  /** environment variables the configuration file supplies (target, secrets), only where unset */
  env: Record<string, string>;
}

/**
 * Flags over the configuration file: `--config FILE`, else paygate-conformance.config.* here or
 * in a parent. Values the file supplies are validated on their own first, so a bad one names its
 * key in the file.
 */
export function resolveRun(values: RawValues, given: readonly string[], env: NodeJS.ProcessEnv, cwd: string = process.cwd()): ResolvedRun {
  const explicit = typeof values['config'] === 'string' ? resolve(cwd, values['config']) : undefined;
  if (explicit !== undefined && !existsSync(explicit)) throw new UsageError(`--config ${explicit}: no such file`);
  const file = explicit ?? findConfigFile(cwd);
  if (file === undefined) return { options: toCliOptions(values, cwd), env: {} };
  const config = loadConfigFile(file, env);
  const fromFile = configFlagValues(config);
  try {
    toCliOptions(fromFile, cwd);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`config ${file}: ${inFileTerms(error.message)}`);
    throw error;
  }
  const options = toCliOptions(mergeFlagValues(fromFile, values, given, env), cwd);
  options.config = file;
  return { options, config, env: configEnv(config, env) };
}
