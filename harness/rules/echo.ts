/**
 * The echo and events-against-resources relations, derived from the OpenAPI documents (pure; their
 * cells are pinned by test/rules-echo.test.ts, so a spec change shows up):
 * - echo: a request field that appears again, under the same dotted name, in the schema of an answer
 *   or event about the same resource comes back there (`amount` sent, `data.amount` answered), plus
 *   what the text says comes back elsewhere under another name (declared by the API modules);
 * - events against resources: a field of an event's resource object whose name is a field of the
 *   resource's lookup states that attribute of the resource (`transfer.pix.endToEndId` and the
 *   lookup's `endToEndId`), plus what the text maps otherwise (declared by the API modules).
 * The API modules (harness/rules/{gateway,partner}/echo.ts) name the operations and judge the cells.
 */
import { HarnessError } from '../core/errors.js';
import { followRef, isSpecNode } from './spec-document.js';

type Schema = Record<string, unknown>;

const isObject = isSpecNode;

/** The node a local `$ref` points at (harness/rules/spec-document.ts `followRef`), as an object. */
function deref(document: Schema, node: unknown): Schema {
  const target = followRef(document, node, 'echo').node;
  return isObject(target) ? target : {};
}

/**
 * The leaf fields of a schema as dotted paths (`customer.document`, `transfer.pix.endToEndId`),
 * the parts of an `allOf` included; an array of objects contributes `field[].leaf`, any other array
 * or scalar is a leaf itself. Document order, each once.
 */
export function schemaLeaves(document: Schema, schema: unknown, prefix = '', depth = 0): string[] {
  if (depth > 12) return [];
  const node = deref(document, schema);
  const out: string[] = [];
  const add = (paths: readonly string[]): void => {
    for (const p of paths) if (!out.includes(p)) out.push(p);
  };
  for (const part of Array.isArray(node['allOf']) ? node['allOf'] : []) add(schemaLeaves(document, part, prefix, depth + 1));
  const properties = isObject(node['properties']) ? node['properties'] : {};
  for (const [name, raw] of Object.entries(properties)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const child = deref(document, raw);
    const items = child['items'] !== undefined ? deref(document, child['items']) : undefined;
    if (isObject(child['properties']) || Array.isArray(child['allOf'])) add(schemaLeaves(document, child, path, depth + 1));
    else if (items && (isObject(items['properties']) || Array.isArray(items['allOf']))) add(schemaLeaves(document, items, `${path}[]`, depth + 1));
    else add([path]);
  }
  return out;
}

function operation(document: Schema, method: string, path: string): Schema {
  const item = (document['paths'] as Schema | undefined)?.[path];
  const op = isObject(item) ? item[method.toLowerCase()] : undefined;
  if (!isObject(op)) throw new HarnessError('spec.operation', `echo: ${method} ${path} is not in the spec`);
  return op;
}

function jsonSchemaOf(document: Schema, holder: unknown): unknown {
  const node = deref(document, holder);
  const content = isObject(node['content']) ? node['content'] : {};
  const media = content['application/json'];
  return isObject(media) ? media['schema'] : undefined;
}

/** The leaves of an operation's JSON request body. */
export function requestLeaves(document: Schema, method: string, path: string): string[] {
  const schema = jsonSchemaOf(document, operation(document, method, path)['requestBody']);
  if (schema === undefined) throw new HarnessError('spec.operation', `echo: ${method} ${path} has no JSON request body`);
  return schemaLeaves(document, schema);
}

/** The leaves of an operation's JSON answer for `status` (`200`, `2XX`), below `under` (`data`) when given. */
export function responseLeaves(document: Schema, method: string, path: string, status: string, under = ''): string[] {
  const responses = operation(document, method, path)['responses'];
  const schema = jsonSchemaOf(document, isObject(responses) ? responses[status] : undefined);
  return below(schemaLeaves(document, schema), under);
}

/** The webhooks of the spec (`webhooks:`), each with the leaves of its JSON body. */
export function webhookLeaves(document: Schema): { event: string; leaves: string[] }[] {
  const hooks = isObject(document['webhooks']) ? document['webhooks'] : {};
  return Object.entries(hooks).map(([event, item]) => {
    const post = isObject(item) ? item['post'] : undefined;
    const schema = isObject(post) ? jsonSchemaOf(document, post['requestBody']) : undefined;
    return { event, leaves: schema === undefined ? [] : schemaLeaves(document, schema) };
  });
}

/** The leaves below `prefix` (`transfer`), with the prefix taken off; all of them when `prefix` is empty. */
export function below(leaves: readonly string[], prefix: string): string[] {
  if (prefix === '') return [...leaves];
  return leaves.filter((l) => l.startsWith(`${prefix}.`)).map((l) => l.slice(prefix.length + 1));
}

/** The request fields that come back, under the same dotted name, among `answered` (request order). */
export function echoedFields(request: readonly string[], answered: readonly string[]): string[] {
  return request.filter((field) => answered.includes(field));
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/**
 * The fields of an event's resource object (leaves below its property, e.g. `transfer`) whose last
 * name is the last name of a field of the resource's lookup: each with the lookup field it states.
 */
export function attributeFields(eventResource: readonly string[], lookup: readonly string[]): { field: string; lookup: string }[] {
  const out: { field: string; lookup: string }[] = [];
  for (const field of eventResource) {
    const match = lookup.find((l) => lastSegment(l) === lastSegment(field));
    if (match !== undefined) out.push({ field, lookup: match });
  }
  return out;
}

/** One cell of an echo relation: a value of a resource × the path it comes back by. */
export function echoCell(resource: string, field: string, path: string): string {
  return `${resource} · ${field} · ${path}`;
}

/** One cell of an events-against-resources relation: an event type × a field of it that states an attribute. */
export function eventCell(event: string, field: string): string {
  return `${event} · ${field}`;
}

/** Texts equal once a representation the contract leaves open is set aside: surrounding spaces, Unicode normalisation. */
export function sameTextLoosely(a: string, b: string): boolean {
  return a.normalize('NFC').trim() === b.normalize('NFC').trim();
}

/**
 * Where a status read in an event stands against the status a later lookup shows, on a documented
 * path (`order`: each state with the states it may be followed by, transitively): `same`, `earlier`
 * (the resource moved on after the event: fair), `later` / `off-path` (the event states what the
 * resource never was before the lookup), `unknown` (a value the path does not list).
 */
export function statusAgainstLookup(event: string, lookup: string, next: Readonly<Record<string, readonly string[]>>): 'same' | 'earlier' | 'later' | 'off-path' | 'unknown' {
  if (!(event in next) || !(lookup in next)) return 'unknown';
  if (event === lookup) return 'same';
  const reach = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const s = stack.pop()!;
      for (const n of next[s] ?? []) {
        if (n === to) return true;
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return false;
  };
  if (reach(event, lookup)) return 'earlier';
  return reach(lookup, event) ? 'later' : 'off-path';
}
