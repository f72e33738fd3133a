/**
 * A small JSON Schema → fast-check converter, for request bodies described in specs/*.openapi.yaml
 * (OpenAPI 3.1 = JSON Schema 2020-12). No maintained library does this for fast-check 4 (STACK.md).
 *
 * - `validBody(schema, { root, overrides })`: bodies that satisfy the schema. Values are chosen
 *   conservatively where the schema leaves room (strings non-empty, numbers without bounds in
 *   [1, 100000]), so a "valid" body never leans on a choice the contract leaves open. Only declared
 *   properties are generated (no additional properties).
 * - `singleRuleMutants(schema, opts)`: bodies where exactly ONE schema rule is broken and everything
 *   else is valid, labelled `{ rule: '<kind>:<dotted.path>', path, body }`.
 * - `overrides` (dotted path → arbitrary; array elements as `*`, e.g. `items.*.title`) supplies
 *   values a schema cannot express: a CPF with correct check digits, a `documentType`/`document`
 *   pair (override the whole `customer`), a PIX key.
 *
 * Supported: type (incl. type arrays), properties/required/additionalProperties, enum/const,
 * minimum/maximum/exclusiveMinimum/exclusiveMaximum, minLength/maxLength, pattern, format
 * (email, uri, uuid, date-time, date, int32/int64), items/minItems/maxItems, allOf (merged),
 * oneOf/anyOf (one branch picked; branches should be mutually exclusive), $ref to `#/…` inside
 * `root`. Anything else that changes validity throws `generators.bodies: …` rather than producing
 * bodies ajv would reject. Mutants are not generated inside oneOf/anyOf (only a wrong type for the
 * whole value), nor for pattern+format combinations.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { email } from './emails.js';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

export interface JsonSchemaObject {
  $ref?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  readOnly?: boolean;
  [keyword: string]: unknown;
}
export type JsonSchema = boolean | JsonSchemaObject;

export type Overrides = Record<string, Arbitrary<unknown>>;

/**
 * An override may produce `OMIT` for an optional property: the property is then left out of the body
 * (e.g. `splits` when no platform e-mail is known). Never use it for a required property.
 */
export const OMIT: unique symbol = Symbol('generators.bodies.OMIT');

export interface BodyOptions {
  /** The document `$ref`s resolve against (an OpenAPI document, or the schema itself — the default). */
  root?: unknown;
  /** Dotted property path → arbitrary used instead of the schema there. Array elements are `*`. */
  overrides?: Overrides;
}

export type MutationKind =
  | 'missing-required'
  | 'wrong-type'
  | 'not-integer'
  | 'below-minimum'
  | 'above-maximum'
  | 'too-short'
  | 'too-long'
  | 'bad-pattern'
  | 'bad-format'
  | 'bad-enum'
  | 'bad-const'
  | 'too-few-items'
  | 'too-many-items'
  | 'unexpected-property';

export interface Mutant {
  /** `<kind>:<path>`, e.g. `missing-required:amountInCents`, `too-long:description`. */
  rule: string;
  kind: MutationKind;
  /** Dotted path of the value at fault (for `missing-required`, the missing property's path). */
  path: string;
  /**
   * The `x-requirement` of the schema node at fault (for `missing-required`, the missing property's
   * node, else the object's), or of its nearest ancestor that has one: the rule the mutant breaks.
   */
  requirements: readonly string[];
  body: unknown;
}

export interface MutantOptions extends BodyOptions {
  /** Keep only these rules (exact `<kind>:<path>` strings) or those the predicate accepts. */
  rules?: readonly string[] | ((rule: string) => boolean);
}

// ---------------------------------------------------------------------------------------------
// Errors, refs, merging

function fail(message: string): never {
  throw new Error(`generators.bodies: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves a `#/a/b~1c` JSON pointer inside `root`. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) fail(`only local $ref ("#/…") is supported, got ${JSON.stringify(ref)}`);
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) fail(`bad JSON pointer ${JSON.stringify(ref)}`);
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isObject(cur)) cur = cur[key];
    else cur = undefined;
    if (cur === undefined) fail(`$ref ${JSON.stringify(ref)} does not resolve`);
  }
  return cur;
}

function asSchema(v: unknown, where: string): JsonSchema {
  if (typeof v === 'boolean' || isObject(v)) return v as JsonSchema;
  return fail(`not a schema at ${where}`);
}

function intersectTypes(a: JsonType[] | undefined, b: JsonType[] | undefined, where: string): JsonType[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = new Set<JsonType>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  if (out.size === 0) fail(`allOf with incompatible types at ${where}`);
  return [...out];
}

function typeList(s: JsonSchemaObject): JsonType[] | undefined {
  if (s.type === undefined) return undefined;
  return Array.isArray(s.type) ? s.type : [s.type];
}

/** Merges two resolved (ref-free, allOf-free) schemas: the "simple cases" of allOf. */
function mergeSchemas(a: JsonSchemaObject, b: JsonSchemaObject, where: string): JsonSchemaObject {
  const out: JsonSchemaObject = { ...a, ...b };
  const types = intersectTypes(typeList(a), typeList(b), where);
  if (types) out.type = types.length === 1 ? (types[0] as JsonType) : types;
  if (a.properties || b.properties) {
    const props: Record<string, JsonSchema> = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties ?? {})) {
      const prev = props[k];
      props[k] = prev === undefined ? v : { allOf: [prev, v] };
    }
    out.properties = props;
  }
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.additionalProperties === false || b.additionalProperties === false) out.additionalProperties = false;
  const pickMax = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  const pickMin = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  out.minimum = pickMax(a.minimum, b.minimum);
  out.exclusiveMinimum = pickMax(a.exclusiveMinimum, b.exclusiveMinimum);
  out.maximum = pickMin(a.maximum, b.maximum);
  out.exclusiveMaximum = pickMin(a.exclusiveMaximum, b.exclusiveMaximum);
  out.minLength = pickMax(a.minLength, b.minLength);
  out.maxLength = pickMin(a.maxLength, b.maxLength);
  out.minItems = pickMax(a.minItems, b.minItems);
  out.maxItems = pickMin(a.maxItems, b.maxItems);
  for (const k of ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (out[k] === undefined) delete out[k];
  }
  if (a.enum && b.enum) {
    const bj = new Set(b.enum.map((v) => JSON.stringify(v)));
    out.enum = a.enum.filter((v) => bj.has(JSON.stringify(v)));
    if (out.enum.length === 0) fail(`allOf with disjoint enums at ${where}`);
  }
  if ('const' in a && 'const' in b && JSON.stringify(a.const) !== JSON.stringify(b.const)) fail(`allOf with different consts at ${where}`);
  if (a.pattern && b.pattern && a.pattern !== b.pattern) fail(`allOf with two patterns at ${where} is not supported`);
  if (a.format && b.format && a.format !== b.format) fail(`allOf with two formats at ${where} is not supported`);
  if (a.items !== undefined && b.items !== undefined) out.items = { allOf: [a.items, b.items] };
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (a[k] && b[k]) fail(`allOf combining two ${k} at ${where} is not supported`);
  }
  return out;
}

interface Ctx {
  root: unknown;
  overrides: Overrides;
}

/** Follows $ref and folds allOf, returning a schema without either at the top level. */
function resolve(schema: JsonSchema, ctx: Ctx, where: string, seen: readonly string[] = []): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  let s: JsonSchemaObject = schema;
  if (s.$ref !== undefined) {
    if (seen.includes(s.$ref)) fail(`$ref cycle through ${s.$ref} at ${where}`);
    const target = resolve(asSchema(resolvePointer(ctx.root, s.$ref), s.$ref), ctx, where, [...seen, s.$ref]);
    const { $ref: _ref, ...siblings } = s;
    if (target === false) return false;
    s = target === true ? siblings : Object.keys(siblings).length === 0 ? target : mergeSchemas(target, resolveObject(siblings, ctx, where, seen), where);
  }
  if (s.allOf) {
    const { allOf, ...base } = s;
    let merged = resolveObject(base, ctx, where, seen);
    for (const branch of allOf) {
      const r = resolve(branch, ctx, where, seen);
      if (r === false) return false;
      if (r !== true) merged = mergeSchemas(merged, r, where);
    }
    s = merged;
  }
  checkSupported(s, where);
  return s;
}

/** Keywords that change validity and that the converter does not model: refuse rather than guess. */
const UNSUPPORTED_KEYWORDS = [
  'if', 'then', 'else', 'not', 'multipleOf', 'uniqueItems', 'patternProperties', 'minProperties', 'maxProperties',
  'dependentRequired', 'dependentSchemas', 'prefixItems', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems',
] as const;

function checkSupported(s: JsonSchemaObject, where: string): void {
  for (const k of UNSUPPORTED_KEYWORDS) if (k in s) fail(`unsupported keyword "${k}" at ${where}`);
}

function resolveObject(s: JsonSchemaObject, ctx: Ctx, where: string, seen: readonly string[]): JsonSchemaObject {
  const r = resolve(s, ctx, where, seen);
  if (typeof r === 'boolean') return r ? {} : fail(`false schema at ${where}`);
  return r;
}

function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  return 'object';
}

/** Declared or inferred types; undefined = anything. */
function typesOf(s: JsonSchemaObject): JsonType[] | undefined {
  const declared = typeList(s);
  if (declared) return declared;
  if ('const' in s) return [jsonTypeOf(s.const)];
  if (s.enum) return [...new Set(s.enum.map(jsonTypeOf))];
  if (s.properties || s.required || s.additionalProperties !== undefined) return ['object'];
  if (s.items !== undefined || s.minItems !== undefined || s.maxItems !== undefined) return ['array'];
  if (s.minLength !== undefined || s.maxLength !== undefined || s.pattern !== undefined || s.format !== undefined) return ['string'];
  if (s.minimum !== undefined || s.maximum !== undefined || s.exclusiveMinimum !== undefined || s.exclusiveMaximum !== undefined) return ['number'];
  return undefined;
}

function accepts(types: readonly JsonType[], t: JsonType): boolean {
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

// ---------------------------------------------------------------------------------------------
// Paths and overrides

function pathString(segs: readonly string[]): string {
  return segs.join('.');
}

function overrideFor(ctx: Ctx, segs: readonly string[]): Arbitrary<unknown> | undefined {
  if (segs.length === 0) return ctx.overrides[''];
  const wild = segs.map((s) => (/^\d+$/.test(s) ? '*' : s));
  return ctx.overrides[pathString(segs)] ?? ctx.overrides[pathString(wild)];
}

// ---------------------------------------------------------------------------------------------
// Valid generation

const ASCII_UNIT = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.');
const LETTER = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');

/** ASCII of exactly `n` chars, letters at both ends (trim-proof). */
function asciiOfLength(n: number): Arbitrary<string> {
  if (n <= 0) return fc.constant('');
  if (n === 1) return LETTER;
  return fc.tuple(LETTER, fc.string({ unit: ASCII_UNIT, minLength: n - 2, maxLength: n - 2 }), LETTER).map(([a, m, b]) => a + m + b);
}

function codePointLength(s: string): number {
  return [...s].length;
}

function formatArb(format: string, where: string): Arbitrary<string> | undefined {
  switch (format) {
    case 'email':
      return email();
    case 'uri':
    case 'url':
    case 'uri-reference':
    case 'iri':
      return fc
        .tuple(fc.constantFrom('hooks.example.com', 'example.com', 'api.example.org'), fc.array(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), minLength: 1, maxLength: 10 }), { maxLength: 3 }))
        .map(([host, segs]) => `https://${host}/${segs.join('/')}`);
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    default:
      return fail(`unsupported string format ${JSON.stringify(format)} at ${where || '(root)'}`);
  }
}

function stringArb(s: JsonSchemaObject, where: string): Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength;
  if (max !== undefined && max < min) fail(`maxLength < minLength at ${where}`);
  const lengthOk = (v: string) => {
    const n = codePointLength(v);
    return n >= min && (max === undefined || n <= max);
  };
  const re = s.pattern !== undefined ? new RegExp(s.pattern, 'u') : undefined;
  if (s.format !== undefined) {
    const arb = formatArb(s.format, where) as Arbitrary<string>;
    return arb.filter((v) => lengthOk(v) && (!re || re.test(v)));
  }
  if (s.pattern !== undefined) {
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => lengthOk(v) && (re as RegExp).test(v));
  }
  // Conservative: non-empty unless the schema forbids it.
  const lo = Math.max(min, max === 0 ? 0 : 1);
  const hi = max ?? lo + 24;
  return fc.integer({ min: lo, max: Math.min(hi, lo + 64) }).chain(asciiOfLength);
}

interface NumericBounds {
  lo: number;
  hi: number;
}

/** Valid bounds in the generation unit (integers, or hundredths for `number`). */
function numericBounds(s: JsonSchemaObject, integer: boolean, where: string): NumericBounds {
  const scale = integer ? 1 : 100;
  let lo: number | undefined;
  let hi: number | undefined;
  if (s.minimum !== undefined) lo = Math.ceil(s.minimum * scale);
  if (s.exclusiveMinimum !== undefined) {
    const e = Math.floor(s.exclusiveMinimum * scale) + 1;
    lo = lo === undefined ? e : Math.max(lo, e);
  }
  if (s.maximum !== undefined) hi = Math.floor(s.maximum * scale);
  if (s.exclusiveMaximum !== undefined) {
    const e = Math.ceil(s.exclusiveMaximum * scale) - 1;
    hi = hi === undefined ? e : Math.min(hi, e);
  }
  if (integer && s.format === 'int32') {
    lo = Math.max(lo ?? -(2 ** 31), -(2 ** 31));
    hi = Math.min(hi ?? 2 ** 31 - 1, 2 ** 31 - 1);
  }
  // Conservative defaults where the schema sets no bound: small positive values.
  if (lo === undefined && hi === undefined) {
    lo = scale;
    hi = 100_000 * scale;
  } else if (lo === undefined) {
    const h = hi as number;
    lo = h >= scale ? scale : h - 1_000_000 * scale;
  } else if (hi === undefined) {
    hi = lo + 1_000_000 * scale;
  }
  lo = Math.max(lo, Number.MIN_SAFE_INTEGER);
  hi = Math.min(hi as number, Number.MAX_SAFE_INTEGER);
  if (hi < lo) fail(`no value satisfies the numeric bounds at ${where || '(root)'}`);
  return { lo, hi };
}

function numberArb(s: JsonSchemaObject, integer: boolean, where: string): Arbitrary<number> {
  const { lo, hi } = numericBounds(s, integer, where);
  const arb = fc.integer({ min: lo, max: hi });
  return integer ? arb : arb.map((h) => h / 100);
}

function genOfType(t: JsonType, s: JsonSchemaObject, segs: readonly string[], ctx: Ctx, forced: readonly string[] | undefined, depth: number): Arbitrary<unknown> {
  const where = pathString(segs);
  switch (t) {
    case 'string':
      return stringArb(s, where);
    case 'integer':
      return numberArb(s, true, where);
    case 'number':
      return numberArb(s, false, where);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items: JsonSchema = s.items ?? { type: 'string' };
      const min = s.minItems ?? 0;
      const max = s.maxItems ?? min + 3;
      if (max < min) fail(`maxItems < minItems at ${where || '(root)'}`);
      const elem = (f: readonly string[] | undefined) => gen(items, [...segs, '*'], ctx, f, depth + 1);
      if (forced && forced.length > 0) {
        if (max < 1) fail(`path ${where}.0 forced into an array with maxItems 0`);
        const rest = forced[0] === '0' ? forced.slice(1) : fail(`forced path must use index 0 at ${where}`);
        return fc
          .tuple(elem(rest), fc.array(elem(undefined), { minLength: Math.max(0, min - 1), maxLength: Math.max(0, Math.min(max - 1, min + 2)) }))
          .map(([first, others]) => [first, ...others]);
      }
      return fc.array(elem(undefined), { minLength: min, maxLength: Math.min(max, min + 3) });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const model: Record<string, Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [name, propSchema] of Object.entries(props)) {
        const isForced = forced !== undefined && forced[0] === name;
        if (!required.has(name) && !isForced && typeof propSchema === 'object' && propSchema.readOnly === true) continue;
        model[name] = gen(propSchema, [...segs, name], ctx, isForced ? (forced as readonly string[]).slice(1) : undefined, depth + 1);
        if (required.has(name) || isForced) requiredKeys.push(name);
      }
      for (const name of required) {
        if (!(name in model)) {
          model[name] = gen(s.additionalProperties === undefined || typeof s.additionalProperties === 'boolean' ? { type: 'string' } : s.additionalProperties, [...segs, name], ctx, undefined, depth + 1);
          requiredKeys.push(name);
        }
      }
      if (forced && forced.length > 0 && !(forced[0] as string in model)) fail(`path ${pathString([...segs, forced[0] as string])} is not a declared property`);
      return fc
        .record(model, { requiredKeys, noNullPrototype: true })
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== OMIT)));
    }
    default:
      return fail(`unknown type ${JSON.stringify(t)} at ${where || '(root)'}`);
  }
}

function gen(schema: JsonSchema, segs: readonly string[], ctx: Ctx, forced: readonly string[] | undefined, depth: number, ignoreOverrideHere = false): Arbitrary<unknown> {
  const where = pathString(segs) || '(root)';
  if (depth > 12) fail(`schema nests deeper than 12 levels at ${where} (recursive $ref?)`);
  const override = ignoreOverrideHere ? undefined : overrideFor(ctx, segs);
  if (override) return override;
  const s = resolve(schema, ctx, where);
  if (s === false) fail(`false schema at ${where}`);
  if (s === true) return fc.constantFrom<unknown>('x', 1, true, null);
  for (const k of ['oneOf', 'anyOf'] as const) {
    const branches = s[k];
    if (branches) {
      if (branches.length === 0) fail(`empty ${k} at ${where}`);
      const { [k]: _drop, ...base } = s;
      return fc.oneof(
        ...branches.map((b) => {
          const r = resolve(b, ctx, where);
          const merged = r === true ? base : r === false ? fail(`false branch in ${k} at ${where}`) : mergeSchemas(base, r, where);
          return gen(merged, segs, ctx, forced, depth + 1);
        }),
      );
    }
  }
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) {
    if (s.enum.length === 0) fail(`empty enum at ${where}`);
    return fc.constantFrom(...s.enum);
  }
  const types = typesOf(s) ?? ['string'];
  if (forced && forced.length > 0) {
    const container = types.filter((t) => t === 'object' || t === 'array');
    if (container.length === 0) fail(`path continues below a scalar at ${where}`);
    return genOfType(container[0] as JsonType, s, segs, ctx, forced, depth);
  }
  const arbs = types.map((t) => genOfType(t, s, segs, ctx, undefined, depth));
  return arbs.length === 1 ? (arbs[0] as Arbitrary<unknown>) : fc.oneof(...arbs);
}

/** Bodies that satisfy `schema` (see the file comment for what "valid" means here). */
export function validBody(schema: JsonSchema, options: BodyOptions = {}): Arbitrary<unknown> {
  const ctx: Ctx = { root: options.root ?? schema, overrides: options.overrides ?? {} };
  return gen(schema, [], ctx, undefined, 0);
}

// ---------------------------------------------------------------------------------------------
// Rules and mutants

interface Rule {
  kind: MutationKind;
  segs: string[];
  /** The value put at `segs`; `undefined` = delete. */
  value: Arbitrary<unknown> | undefined;
  /** The path whose presence the base body must guarantee. */
  forced: string[];
  /** x-requirement of the node at fault (see Mutant.requirements) */
  requirements: readonly string[];
}

const WRONG_TYPE_CANDIDATES: ReadonlyArray<[JsonType, unknown]> = [
  ['string', '1'],
  ['integer', 12345],
  ['boolean', true],
  ['object', {}],
  ['null', null],
];

const BAD_FORMAT_CANDIDATES: Record<string, readonly string[]> = {
  email: ['not-an-email', 'user@', '@example.com', 'a b@example.com'],
  uri: ['not a uri', 'example.com/path', '/relative/path'],
  url: ['not a uri', 'example.com/path', '/relative/path'],
  uuid: ['not-a-uuid', '1234', 'zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz'],
  'date-time': ['not-a-date', '2024-13-45T00:00:00Z', '2024-01-01'],
  date: ['not-a-date', '2024-13-45', '2024/01/01'],
};

function lengthWithin(s: JsonSchemaObject, v: string): boolean {
  const n = codePointLength(v);
  return n >= (s.minLength ?? 0) && (s.maxLength === undefined || n <= s.maxLength);
}

/** The `x-requirement` of a schema node (an ID or a list), as a list; empty when it names none. */
function xRequirements(schema: JsonSchema | undefined): string[] {
  if (schema === undefined || typeof schema === 'boolean') return [];
  const x = (schema as Record<string, unknown>)['x-requirement'];
  return typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((id): id is string => typeof id === 'string') : [];
}

function collectRules(schema: JsonSchema, segs: string[], ctx: Ctx, out: Rule[], depth: number, inherited: readonly string[] = []): void {
  const where = pathString(segs) || '(root)';
  if (depth > 12) fail(`schema nests deeper than 12 levels at ${where} (recursive $ref?)`);
  const s = resolve(schema, ctx, where);
  if (typeof s === 'boolean') return;
  const isRoot = segs.length === 0;
  const own = xRequirements(schema);
  const here = own.length > 0 ? own : xRequirements(s).length > 0 ? xRequirements(s) : inherited;
  const add = (kind: MutationKind, value: Arbitrary<unknown> | undefined, at: string[] = segs, forced: string[] = segs, requirements: readonly string[] = here) =>
    out.push({ kind, segs: at, value, forced, requirements });

  if (s.oneOf || s.anyOf) {
    // Only a wrong type for the whole value, when every branch declares its types.
    const branchTypes = (s.oneOf ?? s.anyOf ?? []).map((b) => {
      const r = resolve(b, ctx, where);
      return typeof r === 'boolean' ? undefined : typesOf(r);
    });
    if (!isRoot && branchTypes.every((t) => t !== undefined)) {
      const all = branchTypes.flat() as JsonType[];
      const bad = WRONG_TYPE_CANDIDATES.find(([t]) => !accepts(all, t));
      if (bad) add('wrong-type', fc.constant(bad[1]));
    }
    return;
  }
  const types = typesOf(s);
  if (!isRoot && types) {
    const bad = WRONG_TYPE_CANDIDATES.find(([t]) => !accepts(types, t) && !(t === 'object' && types.includes('array')));
    if (bad) add('wrong-type', fc.constant(bad[1]));
  }
  if ('const' in s) {
    if (!isRoot) {
      const c = s.const;
      const bad = typeof c === 'string' ? `${c}_not_const` : typeof c === 'number' ? c + 1 : typeof c === 'boolean' ? !c : undefined;
      if (bad !== undefined) add('bad-const', fc.constant(bad));
    }
    return;
  }
  if (s.enum) {
    if (!isRoot) {
      const taken = new Set(s.enum.map((v) => JSON.stringify(v)));
      const kinds = new Set(s.enum.map(jsonTypeOf));
      let bad: unknown;
      if ([...kinds].every((k) => k === 'string')) {
        bad = ['not_in_enum', 'INVALID', 'x'].find((c) => !taken.has(JSON.stringify(c)) && lengthWithin(s, c) && (!s.pattern || new RegExp(s.pattern, 'u').test(c)));
      } else if ([...kinds].every((k) => k === 'integer' || k === 'number')) {
        bad = Math.max(...(s.enum as number[])) + 1;
      }
      if (bad !== undefined) add('bad-enum', fc.constant(bad));
    }
    return;
  }
  if (!types) return;

  if (types.includes('integer') || types.includes('number')) {
    const integer = !types.includes('number');
    const { lo, hi } = numericBounds(s, integer, where);
    const unit = integer ? 1 : 100;
    if (!isRoot) {
      if (s.minimum !== undefined || s.exclusiveMinimum !== undefined) {
        // One unit below the lowest valid value: the boundary itself.
        add('below-minimum', fc.constant((lo - unit) / unit));
      }
      if (s.maximum !== undefined || s.exclusiveMaximum !== undefined) {
        add('above-maximum', fc.constant((hi + unit) / unit));
      }
      if (integer && !types.includes('string') && lo + 0.5 <= hi) add('not-integer', fc.constant(lo + 0.5));
    }
  }
  if (types.includes('string') && !isRoot) {
    const plain = s.pattern === undefined && s.format === undefined;
    if (plain && s.minLength !== undefined && s.minLength > 0) add('too-short', asciiOfLength(s.minLength - 1));
    if (plain && s.maxLength !== undefined) add('too-long', asciiOfLength(s.maxLength + 1));
    if (s.format !== undefined && s.pattern === undefined) {
      const bad = (BAD_FORMAT_CANDIDATES[s.format] ?? []).filter((c) => lengthWithin(s, c));
      if (bad.length > 0) add('bad-format', fc.constantFrom(...bad));
    }
    if (s.pattern !== undefined && s.format === undefined) {
      const re = new RegExp(s.pattern, 'u');
      const lengths = [s.minLength ?? 0, (s.minLength ?? 0) + 1, s.maxLength ?? 8].filter((n) => n >= 0);
      const candidates = ['!', '~', ' ', 'x', '0', 'a!b', 'ZZ', '--', ...lengths.map((n) => '!'.repeat(n)), ...lengths.map((n) => 'x'.repeat(n))];
      const bad = candidates.filter((c) => lengthWithin(s, c) && !re.test(c));
      if (bad.length > 0) add('bad-pattern', fc.constantFrom(...[...new Set(bad)]));
    }
  }
  if (types.includes('array')) {
    const items: JsonSchema = s.items ?? { type: 'string' };
    const elem = gen(items, [...segs, '*'], ctx, undefined, depth + 1);
    if (!isRoot && s.minItems !== undefined && s.minItems > 0) add('too-few-items', fc.array(elem, { minLength: s.minItems - 1, maxLength: s.minItems - 1 }));
    if (!isRoot && s.maxItems !== undefined) add('too-many-items', fc.array(elem, { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }));
    if (s.maxItems === undefined || s.maxItems >= 1) collectRules(items, [...segs, '0'], ctx, out, depth + 1, here);
  }
  if (types.includes('object')) {
    const props = s.properties ?? {};
    for (const name of s.required ?? []) {
      const child = props[name];
      const childOwn = xRequirements(child);
      const childResolved = child === undefined ? [] : xRequirements(resolve(child, ctx, where));
      add('missing-required', undefined, [...segs, name], [...segs, name], childOwn.length > 0 ? childOwn : childResolved.length > 0 ? childResolved : here);
    }
    if (s.additionalProperties === false) {
      let extra = 'unexpectedProperty';
      while (extra in props) extra += '_';
      add('unexpected-property', fc.constant('x'), [...segs, extra], segs);
    }
    for (const [name, propSchema] of Object.entries(props)) {
      collectRules(propSchema, [...segs, name], ctx, out, depth + 1, here);
    }
  }
}

function ruleName(r: Rule): string {
  return `${r.kind}:${pathString(r.segs)}`;
}

/** Every single-rule mutation the converter knows for `schema`, as `<kind>:<path>` strings. */
export function listRules(schema: JsonSchema, options: BodyOptions = {}): string[] {
  const ctx: Ctx = { root: options.root ?? schema, overrides: options.overrides ?? {} };
  const rules: Rule[] = [];
  collectRules(schema, [], ctx, rules, 0);
  return rules.map(ruleName);
}

/** Schema (resolved) at a concrete path, walking properties and items. */
function schemaAt(schema: JsonSchema, segs: readonly string[], ctx: Ctx): JsonSchema {
  let cur: JsonSchema = schema;
  for (let i = 0; i < segs.length; i++) {
    const r = resolve(cur, ctx, pathString(segs.slice(0, i)));
    if (typeof r === 'boolean') return r;
    const seg = segs[i] as string;
    if (/^\d+$/.test(seg) && (r.items !== undefined || typesOf(r)?.includes('array'))) cur = r.items ?? { type: 'string' };
    else cur = r.properties?.[seg] ?? fail(`no schema for ${pathString(segs.slice(0, i + 1))}`);
  }
  return cur;
}

function mutantArb(schema: JsonSchema, rule: Rule, ctx: Ctx): Arbitrary<Mutant> {
  const base = gen(schema, [], ctx, rule.forced, 0);
  // Fillers for containers along the path, used when an override produced a value without them.
  const fillers: Arbitrary<unknown>[] = [];
  for (let i = 1; i < rule.segs.length; i++) {
    const prefix = rule.segs.slice(0, i);
    // The schema, not the override, fills a container: an override may have produced OMIT there.
    fillers.push(gen(schemaAt(schema, prefix, ctx), prefix, ctx, rule.forced.slice(i), 1, true));
  }
  const value = rule.value ?? fc.constant(undefined);
  const name = ruleName(rule);
  const path = pathString(rule.segs);
  return fc.tuple(base, fc.tuple(...fillers), value).map(([b, fill, v]) => {
    const body = structuredClone(b);
    let cur: unknown = body;
    for (let i = 0; i < rule.segs.length - 1; i++) {
      const seg = rule.segs[i] as string;
      const holder = cur as Record<string, unknown> | unknown[];
      const next = (holder as Record<string, unknown>)[seg];
      if (typeof next !== 'object' || next === null) (holder as Record<string, unknown>)[seg] = structuredClone(fill[i]);
      cur = (holder as Record<string, unknown>)[seg];
    }
    const last = rule.segs[rule.segs.length - 1] as string;
    const holder = cur as Record<string, unknown>;
    if (rule.value === undefined) delete holder[last];
    else holder[last] = structuredClone(v);
    return { rule: name, kind: rule.kind, path, requirements: rule.requirements, body };
  });
}

/**
 * Bodies where exactly one rule of `schema` is broken, everything else valid, labelled with the rule.
 * Throws when the schema (after the `rules` filter) has no breakable rule.
 */
export function singleRuleMutants(schema: JsonSchema, options: MutantOptions = {}): Arbitrary<Mutant> {
  const ctx: Ctx = { root: options.root ?? schema, overrides: options.overrides ?? {} };
  const all: Rule[] = [];
  collectRules(schema, [], ctx, all, 0);
  const keep = options.rules;
  const rules = keep === undefined ? all : typeof keep === 'function' ? all.filter((r) => keep(ruleName(r))) : all.filter((r) => keep.includes(ruleName(r)));
  if (Array.isArray(keep)) {
    const known = new Set(all.map(ruleName));
    const unknown = keep.filter((r) => !known.has(r));
    if (unknown.length > 0) fail(`unknown rule(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  if (rules.length === 0) fail('the schema has no breakable rule (after the rules filter)');
  const arbs = rules.map((r) => mutantArb(schema, r, ctx));
  return arbs.length === 1 ? (arbs[0] as Arbitrary<Mutant>) : fc.oneof(...arbs);
}
