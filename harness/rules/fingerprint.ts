/**
 * The idempotency fingerprint relation of a keyed operation, derived from its request schema in
 * specs/<api>.openapi.yaml: "same key and same body returns the original response; same key with a
 * different body gives 409". Every request field (top-level and nested, optional ones included) is a
 * cell: changed alone under a reused key it must conflict; an optional one added when absent too.
 * Where "the same body" is open, the cell expects a replay or a 409, never a new record: the same
 * JSON re-serialised (key order, whitespace), and an optional field absent versus sent with its
 * documented default.
 */
import { HarnessError } from '../core/errors.js';
import { followRef, isSpecNode, specDocument } from './spec-document.js';
import type { Relation } from './rule.js';

/** How one cell is tried against the first body sent under a key. */
export interface FingerprintCell {
  cell: string;
  /** `conflict`: a different body, 409; `equivalent`: "the same body" is open: a replay or 409, never a new record */
  expect: 'conflict' | 'equivalent';
  /** `changed` alone on the full body; `added` to the minimal one; `default` added to the minimal one with its documented default; `reserialised`: the full body's JSON re-written */
  kind: 'changed' | 'added' | 'default' | 'reserialised';
  /** dotted path of the field */
  field?: string;
  /** the documented default (`default` cells) */
  value?: unknown;
}

type Schema = Record<string, unknown>;

const isObject = isSpecNode;

function resolve(document: Schema, schema: unknown): Schema {
  const node = followRef(document, schema, 'fingerprint').node;
  if (!isObject(node)) throw new HarnessError('spec.ref', 'fingerprint: a request schema node is not an object');
  const all = node['allOf'];
  if (!Array.isArray(all)) return node;
  // the parts' fields first, then the node's own, in document order
  const properties: Schema = {};
  const required: unknown[] = [];
  for (const part of [...all.map((p) => resolve(document, p)), node]) {
    Object.assign(properties, isObject(part['properties']) ? part['properties'] : {});
    required.push(...(Array.isArray(part['required']) ? part['required'] : []));
  }
  return { ...node, allOf: undefined, properties, required };
}

function singleValue(schema: Schema): boolean {
  return 'const' in schema || (Array.isArray(schema['enum']) && schema['enum'].length === 1);
}

/** The cells of the fingerprint relation of one operation's JSON request body (pure). */
export function fingerprintCells(document: Schema, method: string, path: string): FingerprintCell[] {
  const operation = (document['paths'] as Schema | undefined)?.[path];
  const op = isObject(operation) ? operation[method.toLowerCase()] : undefined;
  const media = isObject(op) && isObject(op['requestBody']) ? (op['requestBody']['content'] as Schema | undefined)?.['application/json'] : undefined;
  if (!isObject(media)) throw new HarnessError('spec.operation', `fingerprint: ${method} ${path} has no JSON request body in the spec`);
  const cells: FingerprintCell[] = [];
  const walk = (schema: Schema, prefix: string): void => {
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required']) ? schema['required'] : [];
    for (const [name, raw] of Object.entries(properties)) {
      const field = prefix === '' ? name : `${prefix}.${name}`;
      const node = resolve(document, raw);
      if (isObject(node['properties'])) {
        walk(node, field);
        continue;
      }
      const optional = !required.includes(name);
      const hasDefault = 'default' in node;
      if (!singleValue(node)) cells.push({ cell: `${field} changed`, expect: 'conflict', kind: 'changed', field });
      if (optional && !(singleValue(node) && hasDefault)) cells.push({ cell: `${field} added`, expect: 'conflict', kind: 'added', field });
      if (optional && hasDefault) cells.push({ cell: `${field} absent vs ${JSON.stringify(node['default'])} (its default)`, expect: 'equivalent', kind: 'default', field, value: node['default'] });
    }
  };
  walk(resolve(document, media['schema']), '');
  cells.push({ cell: 'the same body re-serialised (key order, whitespace)', expect: 'equivalent', kind: 'reserialised' });
  return cells;
}

/** The fingerprint relation of an operation of an API's spec, read once (at module load of the rules). */
export function fingerprintRelation(api: 'gateway' | 'partner', method: string, path: string, id: string, title: string): { relation: Relation; cells: readonly FingerprintCell[] } {
  const cells = fingerprintCells(specDocument(api), method, path);
  return { relation: { id, title, cells: cells.map((c) => c.cell) }, cells };
}

function read(body: Schema, field: string): unknown {
  let node: unknown = body;
  for (const part of field.split('.')) node = isObject(node) ? node[part] : undefined;
  return node;
}

function write(body: Schema, field: string, value: unknown): Schema {
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...body, [head]: value };
  const inner = isObject(body[head]) ? (body[head] as Schema) : {};
  return { ...body, [head]: write(inner, rest.join('.'), value) };
}

/** Every key of every object in reverse order, pretty-printed: the same JSON value, other bytes. */
export function reserialise(body: unknown): string {
  const reverse = (value: unknown): unknown => (isObject(value) ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverse(v)])) : Array.isArray(value) ? value.map(reverse) : value);
  return `\n ${JSON.stringify(reverse(body), null, 3)}\n`;
}

/**
 * What one cell sends under which key: `full` carries every field (optional ones with a value other
 * than their default), `other` a different valid value for each field, `minimal` the required fields
 * only. A field the spec gained and the suite gives no value is a harness error (the suite must be
 * told the field's values), never a silent gap.
 */
export function fingerprintProbe(cell: FingerprintCell, bodies: { full: Schema; other: Schema; minimal: Schema }): { on: 'full' | 'minimal'; body?: Schema; raw?: string } {
  if (cell.kind === 'reserialised') return { on: 'full', raw: reserialise(bodies.full) };
  const field = cell.field ?? '';
  if (cell.kind === 'default') return { on: 'minimal', body: write(bodies.minimal, field, cell.value) };
  const source = cell.kind === 'changed' ? bodies.other : bodies.full;
  const value = read(source, field);
  if (value === undefined || (cell.kind === 'changed' && JSON.stringify(value) === JSON.stringify(read(bodies.full, field)))) {
    throw new HarnessError('fingerprint.values', `fingerprint cell "${cell.cell}": the suite's ${cell.kind === 'changed' ? 'other' : 'full'} body gives ${field} no ${cell.kind === 'changed' ? 'different ' : ''}value (the spec has a field the suite does not know)`);
  }
  return cell.kind === 'changed' ? { on: 'full', body: write(bodies.full, field, value) } : { on: 'minimal', body: write(bodies.minimal, field, value) };
}
