/**
 * The states relation of a resource kind (every (state, action) pair), derived from the spec and
 * the catalogue: a resource is a path `…/{id}` with a lookup (GET) and action routes `…/{id}/<verb>`
 * (POST); its states are the `status` enum of the lookup's 2xx schema; its transitions are the rows
 * of the contract's transition tables (catalogue quotes `from | trigger | condition | to | …`) that
 * its operations name (`x-requirement`, on the operation or on one of its responses). A row named
 * by an action moves `from` to `to` with that action; a row named by the lookup is a transition the
 * lookup itself makes (lazy expiry: a contract timer when the catalogue says so); a `(creation…)`
 * row, or "created in `x`", named by the creation route gives the initial states.
 *
 * A cell is allowed when a row leaves its state by its action, forbidden otherwise. A state no run
 * reaches through documented routes is untryable (the transition tables say nothing leads there:
 * "Transitions: not shown"); one reached only by a timer row is a timer cell.
 */
import { HarnessError } from '../core/errors.js';
import type { Relation } from './rule.js';

type Node = Record<string, unknown>;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a local `$ref` (any JSON pointer into the document) points at. */
function deref(document: Node, node: unknown): unknown {
  let current = node;
  for (let depth = 0; isObject(current) && typeof current['$ref'] === 'string' && depth < 20; depth++) {
    const ref = current['$ref'];
    if (!ref.startsWith('#/')) throw new HarnessError('spec.ref', `state matrix: external $ref ${ref}`);
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    current = target;
  }
  return current;
}

/** The `status` enum of a response schema: its own `status`, or its envelope's `data.status`, through `allOf`. */
export function statusEnum(document: Node, schema: unknown, depth = 0): string[] | undefined {
  const node = deref(document, schema);
  if (!isObject(node) || depth > 6) return undefined;
  const properties = isObject(node['properties']) ? node['properties'] : {};
  const status = deref(document, properties['status']);
  if (isObject(status) && Array.isArray(status['enum'])) return status['enum'].map(String);
  for (const inner of [properties['data'], ...(Array.isArray(node['allOf']) ? node['allOf'] : [])]) {
    const found = inner === undefined ? undefined : statusEnum(document, inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The requirement IDs an operation names, on itself and on its responses. */
function namedBy(document: Node, operation: unknown): string[] {
  const op = deref(document, operation);
  if (!isObject(op)) return [];
  const ids = (node: unknown): string[] => {
    const value = isObject(node) ? node['x-requirement'] : undefined;
    return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  };
  const responses = isObject(op['responses']) ? Object.values(op['responses']).map((r) => deref(document, r)) : [];
  return [...new Set([...ids(op), ...responses.flatMap(ids)])];
}

/** The catalogue entries the derivation reads. */
export interface CatalogueEntry {
  id: string;
  quote: string;
  kind: 'checkable' | 'timer' | 'unobservable';
}

/** One transition of a table row. */
export interface Transition {
  from: string;
  to: string;
  /** the action's verb, or `lookup` for a transition a read makes */
  by: string;
  requirement: string;
  timer: boolean;
}

export interface StateAction {
  verb: string;
  /** `POST <path>` */
  operation: string;
}

export interface StateResource {
  /** the lookup path `…/{id}` */
  path: string;
  states: string[];
  initial: string[];
  actions: StateAction[];
  transitions: Transition[];
}

/** One (state, action) pair. */
export interface StateCell {
  cell: string;
  resource: string;
  state: string;
  verb: string;
  operation: string;
  /** the state it moves to when allowed */
  to?: string;
  expect: 'allowed' | 'forbidden';
  /** `run`: a documented route builds the state; `timer`: only a contract timer does; `none`: nothing documented does */
  reach: 'run' | 'timer' | 'none';
}

/** The cell of `state` × the action route `operation`. */
export function stateCell(state: string, operation: string): string {
  return `${state} · ${operation}`;
}

function rowOf(quote: string): string[] | undefined {
  const cells = quote.split('|').map((c) => c.trim());
  return cells.length >= 4 ? cells : undefined;
}

/** The resources with documented states and actions, and their transitions (pure). */
export function stateResources(document: Node, catalogue: readonly CatalogueEntry[]): StateResource[] {
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const byId = new Map(catalogue.map((e) => [e.id, e]));
  const resources: StateResource[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!/\/\{[^/]+\}$/.test(path) || !isObject(item) || item['get'] === undefined) continue;
    const actions: StateAction[] = Object.entries(paths)
      .filter(([p, node]) => p.startsWith(`${path}/`) && /^[a-z-]+$/.test(p.slice(path.length + 1)) && isObject(node) && node['post'] !== undefined)
      .map(([p]) => ({ verb: p.slice(path.length + 1), operation: `POST ${p}` }));
    if (actions.length === 0) continue;
    const get = deref(document, item['get']);
    const responses = isObject(get) && isObject(get['responses']) ? get['responses'] : {};
    const ok = Object.entries(responses).find(([code]) => /^2/.test(code))?.[1];
    const media = isObject(deref(document, ok)) ? ((deref(document, ok) as Node)['content'] as Node | undefined)?.['application/json'] : undefined;
    const states = isObject(media) ? statusEnum(document, media['schema']) : undefined;
    if (!states) throw new HarnessError('spec.states', `state matrix: the lookup GET ${path} has no status enum`);
    const rows = (operation: unknown): { entry: CatalogueEntry; row: string[] }[] =>
      namedBy(document, operation).flatMap((id) => {
        const entry = byId.get(id);
        const row = entry ? rowOf(entry.quote) : undefined;
        return entry && row ? [{ entry, row }] : [];
      });
    const transitions: Transition[] = [];
    const take = (by: string, operation: unknown): void => {
      for (const { entry, row } of rows(operation)) {
        const [from, , , to] = row as [string, string, string, string];
        if (!states.includes(from) || !states.includes(to)) continue;
        if (!transitions.some((t) => t.from === from && t.to === to && t.by === by)) transitions.push({ from, to, by, requirement: entry.id, timer: entry.kind === 'timer' && by === 'lookup' });
      }
    };
    for (const action of actions) take(action.verb, (paths[action.operation.slice(5)] as Node)['post']);
    take('lookup', item['get']);
    // the creation route: POST on the collection the lookup path sits in
    const collection = paths[path.replace(/\/\{[^/]+\}$/, '')];
    const creation = isObject(collection) ? collection['post'] : undefined;
    const initial: string[] = [];
    for (const id of namedBy(document, creation)) {
      const entry = byId.get(id);
      if (!entry) continue;
      const row = rowOf(entry.quote);
      const state = row && row[0]?.startsWith('(creation') ? row[3] : /created in `([a-z_]+)`/.exec(entry.quote)?.[1];
      if (state !== undefined && states.includes(state) && !initial.includes(state)) initial.push(state);
    }
    resources.push({ path, states, initial, actions, transitions });
  }
  return resources;
}

/** Every (state, action) cell of the resources, each with its expectation and reachability (pure). */
export function stateCells(resources: readonly StateResource[]): StateCell[] {
  const cells: StateCell[] = [];
  for (const r of resources) {
    const reach = new Map<string, 'run' | 'timer'>(r.initial.map((s) => [s, 'run']));
    for (let changed = true; changed; ) {
      changed = false;
      for (const t of r.transitions) {
        const from = reach.get(t.from);
        if (from === undefined) continue;
        const to = from === 'timer' || t.timer ? 'timer' : 'run';
        const known = reach.get(t.to);
        if (known === undefined || (known === 'timer' && to === 'run')) {
          reach.set(t.to, to);
          changed = true;
        }
      }
    }
    for (const state of r.states) {
      for (const action of r.actions) {
        const move = r.transitions.find((t) => t.from === state && t.by === action.verb);
        cells.push({
          cell: stateCell(state, action.operation),
          resource: r.path,
          state,
          verb: action.verb,
          operation: action.operation,
          ...(move ? { to: move.to } : {}),
          expect: move ? 'allowed' : 'forbidden',
          reach: reach.get(state) ?? 'none',
        });
      }
    }
  }
  return cells;
}

/**
 * The relation of the cells: timer cells and untryable ones (no documented route reaches the state)
 * marked; `reasons` words the reason of an untryable state of one resource (`<resource path> <state>`).
 */
export function stateRelation(id: string, title: string, cells: readonly StateCell[], reasons: Readonly<Record<string, string>> = {}): Relation {
  const untryable = cells.filter((c) => c.reach === 'none');
  return {
    id,
    title,
    cells: cells.map((c) => c.cell),
    timerCells: cells.filter((c) => c.reach === 'timer').map((c) => c.cell),
    untryable: Object.fromEntries(untryable.map((c) => [c.cell, reasons[`${c.resource} ${c.state}`] ?? `no documented route leads a resource to ${c.state} (its transitions are not shown)`])),
  };
}
