/**
 * The JSON Schemas that ship in the package (schemas/config.schema.json for
 * paygate-conformance.config.yaml, schemas/baseline.schema.json for --baseline), checked with ajv.
 * Problems name the key at fault (`target.partner.apiKey: …`), most specific first.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import { packageRoot } from '../version.js';

export type SchemaName = 'config' | 'baseline';

const compiled = new Map<SchemaName, ValidateFunction>();

export function schemaPath(name: SchemaName): string {
  return join(packageRoot(), 'schemas', `${name}.schema.json`);
}

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (validate === undefined) {
    // ajv loads only when a config file or a baseline is checked (most runs have neither)
    const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof Ajv2020Module;
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, strictRequired: false, verbose: true });
    validate = ajv.compile(JSON.parse(readFileSync(schemaPath(name), 'utf8')) as object);
    compiled.set(name, validate);
  }
  return validate;
}

/** `/target/partner/apiKey` → `target.partner.apiKey`; `/accepted/2/code` → `accepted[2].code`. */
export function keyPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

export interface ProblemHints {
  /** suggests a key for a misspelt one */
  nearest?: (word: string, candidates: readonly string[]) => string | undefined;
  /** the environment variable a secret key should reference (`target.partner.apiKey` → PARTNER_API_KEY) */
  secretVariable?: (keyPath: string) => string | undefined;
}

function describe(error: ErrorObject, hints: ProblemHints): string | undefined {
  const at = keyPath(error.instancePath);
  const where = at === '' ? '(top level)' : at;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperty':
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const allowed = Object.keys((error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
      const suggestion = hints.nearest?.(key, allowed);
      return `${at === '' ? key : `${at}.${key}`}: unknown key${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'pattern':
      if (error.schemaPath.includes('/secret/')) {
        const variable = hints.secretVariable?.(at) ?? (at.split('.').pop() ?? 'secret').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
        return `${where}: a secret is never written in the file: reference an environment variable instead, e.g. "\${${variable}}"`;
      }
      if (error.schemaPath.includes('expires')) return `${where}: must be a date YYYY-MM-DD`;
      return `${where}: must not be empty`;
    case 'enum':
      return `${where}: must be one of ${((params['allowedValues'] as unknown[] | undefined) ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${where}: must be ${Array.isArray(params['type']) ? (params['type'] as string[]).join(' or ') : String(params['type'])}`;
    case 'required':
      return `${at === '' ? '' : `${at}.`}${String(params['missingProperty'])}: required`;
    case 'minLength':
    case 'minItems':
      return `${where}: must not be empty`;
    case 'anyOf': {
      // `anyOf: [{ required: [a] }, { required: [b] }]`: one of these keys
      const branches = error.schema as { required?: string[] }[] | undefined;
      const keys = Array.isArray(branches) ? branches.flatMap((b) => b.required ?? []) : [];
      return keys.length > 0 && keys.length === branches?.length ? `${where}: needs one of ${keys.join(', ')}` : undefined;
    }
    case 'oneOf':
    case 'if':
      return undefined; // the branches' own errors say more
    default:
      return `${where}: ${error.message ?? error.keyword}`;
  }
}

/**
 * Validates `value` against a shipped schema: the problems, one per key at fault (empty: valid).
 */
export function schemaProblems(name: SchemaName, value: unknown, hints: ProblemHints = {}): string[] {
  const validate = validator(name);
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // a branch of anyOf/oneOf that did not match says only what that branch wanted: noise when
  // another branch is the one meant (a type, a required key of one alternative)
  const inBranch = (e: ErrorObject): boolean => /\/(anyOf|oneOf)\/\d+\//.test(e.schemaPath) && (e.keyword === 'type' || e.keyword === 'required');
  const messages = errors.filter((e) => !inBranch(e)).map((e) => describe(e, hints)).filter((m): m is string => m !== undefined);
  // the other shapes of the document as a whole (a bare list instead of `accepted:`) likewise
  const specific = messages.filter((m) => !m.startsWith('(top level): must be'));
  if (specific.length > 0) return [...new Set(specific)];
  if (messages.length > 0) return [...new Set(messages)];
  const first = errors[0];
  return [`${first !== undefined ? keyPath(first.instancePath) || '(top level)' : '(top level)'}: does not have the shape of ${name === 'config' ? 'a configuration' : 'a baseline'} (schemas/${name}.schema.json)`];
}
