/**
 * The statuses and enums relations of each API, derived from specs/<api>.openapi.yaml (the contract
 * as data: each operation's documented responses, which restate the route's statuses and the rows of
 * the Errors table that apply to it):
 *
 * - **statuses**: every (operation × documented status) cell, `METHOD path → status`; the success
 *   statuses of one operation are one cell (`POST /api/v1/card → 201|200`: which one is the target's
 *   choice). A cell is tried when a rule judges an answer of that operation against an expectation
 *   naming that status (harness/rules/status.ts `judgeStatus`): the request was made to provoke it
 *   with its stated cause, and the answer's body is judged against the documented one by the
 *   contract rules. Cells no documented request provokes are untryable, with the reason.
 * - **response enums**: every enum (and string const) of a documented response body, cell = (schema
 *   pointer × value). The contract rules validate every response case-exactly (ajv `enum`/`const`);
 *   a cell is tried when a validated response carries the value at that place (in any letter case:
 *   "PAID" where "paid" is documented tries the cell, and the schema rule fails it).
 * - **request enums**: every enum value (and documented alternative) of a request field or query
 *   parameter, and both edges of every documented numeric range of a request field (the minimum
 *   installments, the least amount, the longest expiry), cell = `METHOD path · field = value`;
 *   tried by sending a valid request carrying it.
 *
 * The derivations are pure functions of the document (unit tests pin the cell lists).
 */
import { HarnessError } from '../core/errors.js';
import { specDocument } from './spec-document.js';
import type { Relation } from './rule.js';

type Api = 'gateway' | 'partner';
type Node = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a `$ref` (internal only) points to, and its pointer; other nodes as they are. */
function deref(document: Node, node: unknown, pointer: string): { node: Node; pointer: string } {
  let current = node;
  let at = pointer;
  for (let depth = 0; isObject(current) && typeof current['$ref'] === 'string' && depth < 20; depth++) {
    const ref = current['$ref'];
    if (!ref.startsWith('#/')) throw new HarnessError('spec.ref', `statuses: external $ref ${ref}`);
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    current = target;
    at = ref;
  }
  return { node: isObject(current) ? current : {}, pointer: at };
}

function operations(document: Node): { method: string; path: string; op: Node }[] {
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const out: { method: string; path: string; op: Node }[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

// ── statuses ─────────────────────────────────────────────────────────────────────────────────────

export interface StatusCell {
  cell: string;
  /** `METHOD path`, as exchanges name their operation */
  operation: string;
  /** the documented response keys of the cell (`200`, `2XX`, `404`) */
  keys: readonly string[];
  success: boolean;
}

function isSuccessKey(key: string): boolean {
  return key.startsWith('2');
}

/** The (operation × documented status) cells of a document, in document order (pure). */
export function statusCells(document: Node): StatusCell[] {
  const cells: StatusCell[] = [];
  for (const { method, path, op } of operations(document)) {
    const operation = `${method} ${path}`;
    const keys = Object.keys(isObject(op['responses']) ? op['responses'] : {});
    const success = keys.filter(isSuccessKey);
    if (success.length > 0) cells.push({ cell: `${operation} → ${success.join('|')}`, operation, keys: success, success: true });
    for (const key of keys.filter((k) => !isSuccessKey(k) && k !== 'default')) cells.push({ cell: `${operation} → ${key}`, operation, keys: [key], success: false });
  }
  return cells;
}

/** Why a status cell cannot be tried by any run (none when it can). */
export function untryableStatus(api: Api, cell: StatusCell): string | undefined {
  if (cell.keys.includes('429')) {
    return api === 'gateway' ? 'rate limited: no documented request provokes it ("Rate-limit thresholds … not shown")' : 'rate limited: "Rate limits: not shown"';
  }
  if (cell.keys.some((k) => k.startsWith('5'))) return 'a server error: no documented request provokes one';
  return undefined;
}

function statusRelation(api: Api): { relation: Relation; cells: readonly StatusCell[] } {
  const cells = statusCells(specDocument(api));
  const untryable: Record<string, string> = {};
  for (const cell of cells) {
    const why = untryableStatus(api, cell);
    if (why !== undefined) untryable[cell.cell] = why;
  }
  const relation: Relation = { id: `${api}.statuses`, title: `${api === 'gateway' ? 'Gateway' : 'Partner'}: every status each route lists, provoked with its stated cause`, cells: cells.map((c) => c.cell), untryable };
  return { relation, cells };
}

const STATUSES = { gateway: statusRelation('gateway'), partner: statusRelation('partner') };
const STATUS_CELLS_BY_OPERATION = new Map<string, { api: Api; cells: StatusCell[] }>();
for (const api of ['gateway', 'partner'] as const) {
  for (const cell of STATUSES[api].cells) {
    const entry = STATUS_CELLS_BY_OPERATION.get(cell.operation) ?? { api, cells: [] };
    entry.cells.push(cell);
    STATUS_CELLS_BY_OPERATION.set(cell.operation, entry);
  }
}

export const GATEWAY_STATUSES: Relation = STATUSES.gateway.relation;
export const PARTNER_STATUSES: Relation = STATUSES.partner.relation;

/**
 * The status cells an expectation of an answer of `operation` tries: each status it names that the
 * operation documents (a 2xx, or the class `2xx`: the operation's success cell). A class `4xx` names
 * no one status: it tries none.
 */
export function statusCellsTried(operation: string | undefined, expected: readonly (number | string)[]): { relation: Relation; cells: string[] } | undefined {
  const entry = operation === undefined ? undefined : STATUS_CELLS_BY_OPERATION.get(operation);
  if (entry === undefined) return undefined;
  const cells: string[] = [];
  for (const one of expected) {
    const success = one === '2xx' || (typeof one === 'number' && one >= 200 && one <= 299);
    const found = entry.cells.find((c) => (success ? c.success : c.keys.includes(String(one))));
    if (found && !cells.includes(found.cell)) cells.push(found.cell);
  }
  return cells.length > 0 ? { relation: STATUSES[entry.api].relation, cells } : undefined;
}

// ── response enums ───────────────────────────────────────────────────────────────────────────────

/** One place of a response body that carries an enum (or string const). */
export interface EnumSite {
  /** instance path segments; `*` for every item of an array */
  path: readonly string[];
  /** the JSON pointer of the enum's schema node */
  pointer: string;
  values: readonly string[];
}

/** The enum sites of one schema, walking properties, items, allOf, anyOf and oneOf (conditions `if`/`not` are no values). */
export function enumSites(document: Node, schema: unknown, pointer: string, path: readonly string[] = [], depth = 0): EnumSite[] {
  if (depth > 24) return [];
  const { node, pointer: at } = deref(document, schema, pointer);
  const sites: EnumSite[] = [];
  const values: string[] = [];
  if (Array.isArray(node['enum'])) for (const v of node['enum']) if (typeof v === 'string') values.push(v);
  if (typeof node['const'] === 'string') values.push(node['const']);
  if (values.length > 0) sites.push({ path, pointer: at, values });
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = node[key];
    if (Array.isArray(parts)) parts.forEach((part, i) => sites.push(...enumSites(document, part, `${at}/${key}/${i}`, path, depth + 1)));
  }
  if (isObject(node['properties'])) {
    for (const [name, sub] of Object.entries(node['properties'])) sites.push(...enumSites(document, sub, `${at}/properties/${name}`, [...path, name], depth + 1));
  }
  if (node['items'] !== undefined) sites.push(...enumSites(document, node['items'], `${at}/items`, [...path, '*'], depth + 1));
  return sites;
}

export interface ResponseEnumCell {
  cell: string;
  pointer: string;
  value: string;
}

function enumCell(pointer: string, value: string): string {
  return `${pointer} = ${JSON.stringify(value)}`;
}

/** Every response's enum sites by `METHOD path` and response key, and the (pointer × value) cells (pure). */
export function responseEnums(document: Node): { cells: ResponseEnumCell[]; sites: Map<string, EnumSite[]> } {
  const cells: ResponseEnumCell[] = [];
  const sites = new Map<string, EnumSite[]>();
  for (const { method, path, op } of operations(document)) {
    const responses = isObject(op['responses']) ? op['responses'] : {};
    for (const key of Object.keys(responses)) {
      const { node: response, pointer } = deref(document, responses[key], `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${key}`);
      const media = isObject(response['content']) ? response['content']['application/json'] : undefined;
      if (!isObject(media) || media['schema'] === undefined) continue;
      const found = enumSites(document, media['schema'], `${pointer}/content/application~1json/schema`);
      if (found.length === 0) continue;
      sites.set(`${method} ${path} ${key}`, found);
      for (const site of found) {
        for (const value of site.values) {
          if (!cells.some((c) => c.pointer === site.pointer && c.value === value)) cells.push({ cell: enumCell(site.pointer, value), pointer: site.pointer, value });
        }
      }
    }
  }
  return { cells, sites };
}

/**
 * Values of a response enum no documented request of the suite makes a service return (the reason);
 * the others may stay untried in a run that does not reach them (their reason is then "not reached").
 */
const UNREACHABLE_RESPONSE_VALUES: Record<Api, Readonly<Record<string, string>>> = {
  gateway: {
    'PixChargeStatus = "refused"': 'no documented route or sandbox rule refuses a PIX charge',
    'PixChargeStatus = "refunded"': 'no documented route refunds a PIX charge',
    'PixTransferStatus = "pending"': 'not provokable: a sandbox transfer is created banking_processing unless the service holds it for a manual review no request can ask for; production transfers move money (never sent)',
    'PixTransferStatus = "refused"': 'no documented route or sandbox rule refuses a transfer',
    'CardChargeStatus = "pending"': 'only a 3DS/SCA challenge leaves a card charge pending; no documented sandbox token provokes one',
  },
  partner: {},
};

function responseEnumRelation(api: Api): { relation: Relation; sites: Map<string, EnumSite[]> } {
  const { cells, sites } = responseEnums(specDocument(api));
  const untryable: Record<string, string> = {};
  for (const cell of cells) {
    const name = `${cell.pointer.replace(/^#\/components\/schemas\//, '')} = ${JSON.stringify(cell.value)}`;
    const why = UNREACHABLE_RESPONSE_VALUES[api][name];
    if (why !== undefined) untryable[cell.cell] = why;
  }
  // a charge expires only after its expires_in_seconds (60 at least): the full and certify profiles wait for it
  const timerCells = cells.filter((c) => api === 'partner' && c.pointer === '#/components/schemas/ChargeStatus' && c.value === 'expired').map((c) => c.cell);
  const relation: Relation = { id: `${api}.response-enums`, title: `${api === 'gateway' ? 'Gateway' : 'Partner'}: every response enum value, case-exact`, cells: cells.map((c) => c.cell), untryable, timerCells };
  return { relation, sites };
}

const RESPONSE_ENUMS = { gateway: responseEnumRelation('gateway'), partner: responseEnumRelation('partner') };
export const GATEWAY_RESPONSE_ENUMS: Relation = RESPONSE_ENUMS.gateway.relation;
export const PARTNER_RESPONSE_ENUMS: Relation = RESPONSE_ENUMS.partner.relation;

function valuesAt(json: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [json];
  const [head, ...rest] = path as [string, ...string[]];
  if (head === '*') return Array.isArray(json) ? json.flatMap((item) => valuesAt(item, rest)) : [];
  return isObject(json) && head in json ? valuesAt(json[head], rest) : [];
}

/** True when the documented response `key` of `operation` carries an enum (its body is worth reading for them). */
export function hasResponseEnums(api: Api, operation: string, key: string): boolean {
  return RESPONSE_ENUMS[api].sites.has(`${operation} ${key}`);
}

/**
 * The response-enum cells a body of `operation` answered under the documented response `key`
 * carries: each value found at an enum site that equals one of its values in any letter case.
 */
export function responseEnumCellsCarried(api: Api, operation: string, key: string, json: unknown): string[] {
  const sites = RESPONSE_ENUMS[api].sites.get(`${operation} ${key}`);
  if (sites === undefined) return [];
  const cells: string[] = [];
  for (const site of sites) {
    for (const value of valuesAt(json, site.path)) {
      if (typeof value !== 'string') continue;
      const match = site.values.find((v) => v === value) ?? site.values.find((v) => v.toLowerCase() === value.toLowerCase());
      const cell = match === undefined ? undefined : enumCell(site.pointer, match);
      if (cell !== undefined && !cells.includes(cell)) cells.push(cell);
    }
  }
  return cells;
}

/** The relations every check of an API judges through the contract rules (statuses, response enums). */
export function contractRelations(api: 'gateway' | 'partner' | 'both'): Relation[] {
  return [...(api !== 'partner' ? [GATEWAY_STATUSES, GATEWAY_RESPONSE_ENUMS] : []), ...(api !== 'gateway' ? [PARTNER_STATUSES, PARTNER_RESPONSE_ENUMS] : [])];
}

// ── request enums ────────────────────────────────────────────────────────────────────────────────

export interface RequestEnumCell {
  cell: string;
  operation: string;
  /** dotted field path (`[]` after an array field), or `?name` for a query parameter */
  field: string;
  value: string;
  /** the schema node's description marks the value as one the text leaves ambiguous */
  ambiguous: boolean;
  /** a documented range's edge (`amount = 100 (minimum)`), the number to send; absent for an enum value */
  edge?: { bound: 'minimum' | 'maximum'; number: number };
}

/** The edges of a documented numeric range: its minimum (the least integer above an exclusive one) and maximum. */
function rangeEdges(node: Node): { bound: 'minimum' | 'maximum'; number: number }[] {
  const integer = node['type'] === 'integer';
  const edges: { bound: 'minimum' | 'maximum'; number: number }[] = [];
  if (typeof node['minimum'] === 'number') edges.push({ bound: 'minimum', number: node['minimum'] });
  else if (integer && typeof node['exclusiveMinimum'] === 'number') edges.push({ bound: 'minimum', number: Math.floor(node['exclusiveMinimum']) + 1 });
  if (typeof node['maximum'] === 'number') edges.push({ bound: 'maximum', number: node['maximum'] });
  else if (integer && typeof node['exclusiveMaximum'] === 'number') edges.push({ bound: 'maximum', number: Math.ceil(node['exclusiveMaximum']) - 1 });
  return edges;
}

function describe(node: Node): string {
  return typeof node['description'] === 'string' ? node['description'] : '';
}

/** The enum values (and described alternatives of an `anyOf`/`oneOf` of string forms) a request schema node admits. */
function requestValues(document: Node, schema: unknown, pointer: string): { value: string; ambiguous: boolean }[] {
  const { node, pointer: at } = deref(document, schema, pointer);
  const out: { value: string; ambiguous: boolean }[] = [];
  if (Array.isArray(node['enum'])) for (const v of node['enum']) if (typeof v === 'string') out.push({ value: v, ambiguous: false });
  for (const key of ['anyOf', 'oneOf'] as const) {
    const parts = node[key];
    if (!Array.isArray(parts)) continue;
    parts.forEach((raw, i) => {
      const { node: part } = deref(document, raw, `${at}/${key}/${i}`);
      const inner = requestValues(document, raw, `${at}/${key}/${i}`);
      // an inline alternative of a node that calls some of its names hidden (gateway EventName): ambiguous
      const hidden = !(isObject(raw) && typeof raw['$ref'] === 'string') && /hidden/i.test(describe(node));
      if (inner.length > 0) out.push(...inner.map((v) => ({ ...v, ambiguous: v.ambiguous || hidden })));
      else if (describe(part) !== '') out.push({ value: describe(part), ambiguous: /ambiguous/i.test(describe(part)) });
    });
  }
  return out;
}

/** Every request enum cell of a document: body fields (nested, array items) and query parameters, enum values and range edges (pure). */
export function requestEnumCells(document: Node): RequestEnumCell[] {
  const cells: RequestEnumCell[] = [];
  for (const { method, path, op } of operations(document)) {
    const operation = `${method} ${path}`;
    const push = (field: string, values: { value: string; ambiguous: boolean }[]): void => {
      for (const { value, ambiguous } of values) cells.push({ cell: `${operation} · ${field} = ${value}`, operation, field, value, ambiguous });
    };
    for (const raw of Array.isArray(op['parameters']) ? op['parameters'] : []) {
      const { node: parameter } = deref(document, raw, '');
      if (parameter['in'] === 'query' && typeof parameter['name'] === 'string') push(`?${parameter['name']}`, requestValues(document, parameter['schema'], ''));
    }
    const body = isObject(op['requestBody']) ? deref(document, op['requestBody'], '').node : undefined;
    const media = body && isObject(body['content']) ? body['content']['application/json'] : undefined;
    if (!isObject(media)) continue;
    const walk = (schema: unknown, prefix: string, depth: number): void => {
      if (depth > 12) return;
      const { node } = deref(document, schema, '');
      const parts = Array.isArray(node['allOf']) ? node['allOf'] : [];
      for (const part of parts) walk(part, prefix, depth + 1);
      if (isObject(node['properties'])) {
        for (const [name, sub] of Object.entries(node['properties'])) {
          const field = prefix === '' ? name : `${prefix}.${name}`;
          const { node: child } = deref(document, sub, '');
          if (child['type'] === 'array' && child['items'] !== undefined) {
            push(`${field}[]`, requestValues(document, child['items'], ''));
            walk(child['items'], `${field}[]`, depth + 1);
            continue;
          }
          push(field, requestValues(document, sub, ''));
          for (const edge of rangeEdges(child)) cells.push({ cell: `${operation} · ${field} = ${edge.number} (${edge.bound})`, operation, field, value: String(edge.number), ambiguous: false, edge });
          walk(sub, field, depth + 1);
        }
      }
    };
    walk(media['schema'], '', 0);
  }
  return cells;
}

function requestEnumRelation(api: Api): { relation: Relation; cells: readonly RequestEnumCell[] } {
  const cells = requestEnumCells(specDocument(api));
  const untryable: Record<string, string> = {};
  for (const cell of cells) {
    if (cell.ambiguous && cell.field.endsWith('[]')) untryable[cell.cell] = 'hidden from the public event list: whether a registration may name it is not stated (payloads and triggers: not shown)';
  }
  const relation: Relation = { id: `${api}.request-enums`, title: `${api === 'gateway' ? 'Gateway' : 'Partner'}: every documented request enum value and range edge accepted`, cells: cells.map((c) => c.cell), untryable };
  return { relation, cells };
}

const REQUEST_ENUMS = { gateway: requestEnumRelation('gateway'), partner: requestEnumRelation('partner') };
export const GATEWAY_REQUEST_ENUMS: Relation = REQUEST_ENUMS.gateway.relation;
export const PARTNER_REQUEST_ENUMS: Relation = REQUEST_ENUMS.partner.relation;

/** The request enum cells of an API (derived once from its spec). */
export function requestEnumCellsOf(api: Api): readonly RequestEnumCell[] {
  return REQUEST_ENUMS[api].cells;
}

/** The request-enum cell of `operation`'s `field` = `value`, when the spec documents it. */
export function requestEnumCell(api: Api, operation: string, field: string, value: string): string | undefined {
  return REQUEST_ENUMS[api].cells.find((c) => c.operation === operation && c.field === field && c.value === value)?.cell;
}
