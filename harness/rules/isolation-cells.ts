/**
 * The isolation relation of an API, cell by cell (both contract documents: "404 | resource not found
 * or belongs to another account"; the environments "share the same host/address", the credentials
 * or key prefix choose one, and their data is isolated/independent). A cell is one route of the spec
 * that names a resource, lists resources or delivers an event × who calls it (or whose endpoint
 * receives) × whose resource, in which environment, of which kind.
 *
 * The routes come from the spec (harness/rules/spec-document.ts); the resource kinds each tag's
 * routes name, which creations move money and which events a documented route provokes come from
 * the contract text, in small tables of each API's rule module. The derivation is pure: a unit test
 * pins the cell list against the spec, so a spec change shows up.
 *
 * Actors and homes. The two accounts of a run are interchangeable (the suite calls one "own"), so
 * "own sandbox credentials on another account's sandbox resource" is "another account's sandbox
 * credentials on the account's sandbox resource" with the names swapped: one cell, not two. No
 * target configuration gives another account's production credentials: its production resources
 * cannot be made, and no cell names them. The owner acting on its own resource in its own
 * environment is the route's own behaviour (the route's suite), not a cell here, except that the
 * simulation routes refuse production credentials on the account's own production resource.
 */
import { followRef, isSpecNode } from './spec-document.js';

/** Who calls: the account's sandbox credentials, its production credentials, another account's sandbox credentials. */
export type IsolationActor = 'sandbox' | 'production' | 'other-account';
/** Whose resource, in which environment. */
export type IsolationHome = 'own-sandbox' | 'own-production' | 'other-sandbox';
/** What the route does with the resource: names it (`by-id`), simulates on it, lists it, or delivers its events. */
export type IsolationForm = 'by-id' | 'simulation' | 'list' | 'delivery';

/** Every (actor, home) pair that crosses an account or an environment (see the module comment). */
export const FOREIGN_PAIRS: readonly (readonly [IsolationActor, IsolationHome])[] = [
  ['production', 'own-sandbox'],
  ['production', 'other-sandbox'],
  ['sandbox', 'own-production'],
  ['other-account', 'own-sandbox'],
  ['other-account', 'own-production'],
];

/** The environment of a home. */
export function environmentOf(home: IsolationHome): 'sandbox' | 'production' {
  return home === 'own-production' ? 'production' : 'sandbox';
}

/** True when the actor and the home are of different accounts. */
export function crossesAccount(actor: IsolationActor, home: IsolationHome): boolean {
  return (actor === 'other-account') !== (home === 'other-sandbox');
}

/** True when the actor and the home are of different environments. */
export function crossesEnvironment(actor: IsolationActor, home: IsolationHome): boolean {
  return (actor === 'production') !== (home === 'own-production');
}

/** One cell of an isolation relation. */
export interface IsolationCell {
  cell: string;
  /** `METHOD /path` (a list variant with its query: `GET /path?status=paid`), or `event <name>` */
  operation: string;
  form: IsolationForm;
  actor: IsolationActor;
  home: IsolationHome;
  /** the resource kind, as the contract names it (a list variant: the kind in the state filtered on) */
  kind: string;
  /** no run can try it: why */
  untryable?: string;
  /** only a contract timer makes the resource (full and certify profiles) */
  timer?: true;
}

/** One operation of a spec, as the derivation reads it. */
export interface SpecOperation {
  method: string;
  path: string;
  /** `METHOD /path` */
  operation: string;
  tags: string[];
  /** the path names a resource (`{…}`) */
  byId: boolean;
  /** query parameters whose schema is an enum: name → values */
  queryEnums: Record<string, string[]>;
}

type Node = Record<string, unknown>;

const isNode = isSpecNode;

function deref(document: Node, value: unknown): unknown {
  return followRef(document, value, 'isolation').node;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the spec's `paths`, in document order (pure). */
export function specOperations(document: Node): SpecOperation[] {
  const paths = isNode(document['paths']) ? document['paths'] : {};
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isNode(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isNode(op)) continue;
      const parameters = [...(Array.isArray(item['parameters']) ? item['parameters'] : []), ...(Array.isArray(op['parameters']) ? op['parameters'] : [])].map((p) => deref(document, p)).filter(isNode);
      const queryEnums: Record<string, string[]> = {};
      for (const p of parameters) {
        if (p['in'] !== 'query' || typeof p['name'] !== 'string') continue;
        const schema = deref(document, p['schema']);
        const values = isNode(schema) && Array.isArray(schema['enum']) ? schema['enum'].filter((v): v is string => typeof v === 'string') : [];
        if (values.length > 0) queryEnums[p['name']] = values;
      }
      out.push({
        method: method.toUpperCase(),
        path,
        operation: `${method.toUpperCase()} ${path}`,
        tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
        byId: /\{[^}]+\}/.test(path),
        queryEnums,
      });
    }
  }
  return out;
}

/** The spec's event names (its `webhooks` keys), in document order (pure). */
export function specEvents(document: Node): string[] {
  return isNode(document['webhooks']) ? Object.keys(document['webhooks']) : [];
}

/** The relation's parts: every cell, the timer ones, the untryable ones with their reason. */
export function relationParts(cells: readonly IsolationCell[]): { cells: string[]; timerCells: string[]; untryable: Record<string, string> } {
  return {
    cells: cells.map((c) => c.cell),
    timerCells: cells.filter((c) => c.timer).map((c) => c.cell),
    untryable: Object.fromEntries(cells.flatMap((c) => (c.untryable !== undefined ? [[c.cell, c.untryable]] : []))),
  };
}

/** Where one cell of an isolation relation stands: who acts, whose resource in which environment, of which kind. */
export interface IsolationPlace {
  actor: IsolationActor;
  home: IsolationHome;
  kind: string;
}
/** The untried reason of a cell that needs an optional credential the target configuration lacks. */
export function needsCredential(variables: string, what: string): string {
  return `needs ${variables} (${what}): not configured`;
}
