/**
 * `paygate-conformance config print [--config FILE] [--json] [run flags]`: the settings a run here
 * would use, each with where it comes from (flag, environment variable, configuration file,
 * default). Secrets and header values are never printed: `<redacted>` and the variable that holds
 * them. The settings are validated as a run would validate them (a bad one exits 2).
 */
import { EXIT } from './exit-codes.js';
import { SETTINGS, resolveRun } from './config-file.js';
import type { Setting } from './config-file.js';
import type { RawValues } from './parse.js';

export interface PrintedSetting {
  key: string;
  value: unknown;
  source: string;
}

const REDACTED = '<redacted>';

function shown(setting: Setting, value: unknown): unknown {
  if (setting.secret === true) return REDACTED;
  if (setting.headers === true && typeof value === 'object' && value !== null) return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]));
  if (setting.headers === true && Array.isArray(value)) return Object.fromEntries(value.map((h) => [String(h).split(':')[0] ?? '', REDACTED]));
  return value;
}

/** Every setting with its effective value and source (flag > environment > file > default). */
export function effectiveSettings(values: RawValues, given: readonly string[], env: NodeJS.ProcessEnv): { file?: string; settings: PrintedSetting[] } {
  const resolved = resolveRun(values, given, env);
  const config = resolved.config;
  const settings: PrintedSetting[] = [];
  for (const setting of SETTINGS) {
    const fromFile = config?.values.get(setting.key);
    const envValue = setting.env !== undefined ? env[setting.env] : undefined;
    let value: unknown;
    let source: string | undefined;
    if (setting.flag !== undefined && given.includes(setting.flag)) {
      value = setting.negates === true ? false : values[setting.flag];
      source = `flag --${setting.flag}`;
    } else if (envValue !== undefined && envValue !== '') {
      value = setting.negates === true ? envValue !== '0' : envValue;
      source = `environment ${setting.env ?? ''}`;
    } else if (fromFile !== undefined) {
      value = fromFile;
      const variable = config?.secretVariables.get(setting.key);
      source = `config file${variable !== undefined ? ` (\${${variable}})` : ''}`;
    } else if (setting.default !== undefined) {
      value = setting.default;
      source = 'default';
    }
    const unset = config?.unset.find((u) => u.key === setting.key || u.key.startsWith(`${setting.key}.`));
    if (source === undefined) {
      if (unset !== undefined) settings.push({ key: setting.key, value: null, source: `config file: \${${unset.variable}} is not set` });
      continue;
    }
    settings.push({ key: setting.key, value: shown(setting, value), source });
  }
  return { ...(resolved.options.config !== undefined && { file: resolved.options.config }), settings };
}

function yamlScalar(value: unknown): string {
  if (value === null) return '~';
  if (typeof value === 'string') return /^[\w./:@<>+-]+$/.test(value) && !/^(true|false|null|~|\d)/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** YAML of the settings, nested as in the file, a comment with each one's source. */
export function renderSettings(file: string | undefined, settings: readonly PrintedSetting[]): string {
  const lines = [`# effective configuration: flags > environment > ${file ?? '(no configuration file)'} > defaults`, '# secrets and header values are never printed'];
  const opened: string[] = [];
  for (const s of settings) {
    const path = s.key.split('.');
    const leaf = path.pop() ?? '';
    let depth = 0;
    while (depth < opened.length && opened[depth] === path[depth]) depth += 1;
    opened.length = depth;
    for (; depth < path.length; depth += 1) {
      lines.push(`${'  '.repeat(depth)}${path[depth] ?? ''}:`);
      opened.push(path[depth] ?? '');
    }
    const indent = '  '.repeat(path.length);
    if (Array.isArray(s.value)) lines.push(`${indent}${leaf}: [${s.value.map(yamlScalar).join(', ')}]   # ${s.source}`);
    else if (typeof s.value === 'object' && s.value !== null) {
      lines.push(`${indent}${leaf}:   # ${s.source}`);
      for (const [k, v] of Object.entries(s.value)) lines.push(`${indent}  ${k}: ${yamlScalar(v)}`);
    } else lines.push(`${indent}${leaf}: ${yamlScalar(s.value)}   # ${s.source}`);
  }
  return lines.join('\n');
}

export function configPrintCommand(values: RawValues, given: readonly string[], env: NodeJS.ProcessEnv = process.env): number {
  const { file, settings } = effectiveSettings(values, given, env);
  process.stdout.write(`${values['json'] === true ? JSON.stringify({ file: file ?? null, settings }, null, 2) : renderSettings(file, settings)}\n`);
  return EXIT.pass;
}
