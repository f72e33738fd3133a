/**
 * The OpenAPI documents as plain data, read synchronously once per process: relations derive their
 * cells from them at module load (harness/rules/rule.ts `Relation`). Internal `$ref`s are left as
 * they are; the derivations resolve what they need.
 *
 * Parsing the YAML cost every worker ~0.25 s of CPU before its first check, so the parsed document
 * is kept as JSON by a hash of the spec's text (harness/contract/cache.ts); only a document that
 * JSON carries unchanged (no alias shared, no non-JSON scalar) is written, so a cached one is the
 * same data the YAML parser gives.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { cacheKey, readCachedJson, writeCached } from '../contract/cache.js';
import { defaultSpecPath } from '../contract/spec.js';
import { HarnessError } from '../core/errors.js';
import { yaml } from '../core/yaml.js';

const documents = new Map<string, Record<string, unknown>>();

/** The cache file name of a spec's parsed (not bundled) document. */
export function parsedSpecCacheName(api: 'gateway' | 'partner', specText: string): string {
  return `spec-parsed-${api}-${cacheKey([specText], ['yaml'])}.json`;
}

/** Parses a spec's YAML (no cache); the YAML parser loads only when a document is not cached. */
export function parseSpecText(text: string): Record<string, unknown> {
  return yaml().parse(text) as Record<string, unknown>;
}

function parsedSpec(api: 'gateway' | 'partner'): Record<string, unknown> {
  const text = readFileSync(defaultSpecPath(api), 'utf8');
  const name = parsedSpecCacheName(api, text);
  const cached = readCachedJson(name, isSpecNode);
  if (cached !== undefined) return cached;
  const document = parseSpecText(text);
  if (!sharesNodes(document) && isDeepStrictEqual(JSON.parse(JSON.stringify(document)), document)) writeCached(name, JSON.stringify(document));
  return document;
}

/** True when one object or array is reached twice (a YAML alias): JSON would copy it apart. */
function sharesNodes(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (seen.has(value)) return true;
    seen.add(value);
    stack.push(...Object.values(value));
  }
  return false;
}

export function specDocument(api: 'gateway' | 'partner'): Record<string, unknown> {
  let document = documents.get(api);
  if (document === undefined) {
    document = parsedSpec(api);
    documents.set(api, document);
  }
  return document;
}

/** A JSON object node of a spec document. */
export type SpecNode = Record<string, unknown>;

export function isSpecNode(value: unknown): value is SpecNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows a node's local `$ref`s (any JSON pointer into the document, e.g.
 * `#/components/schemas/A/properties/id`) to what they point at: the node reached, and the pointer of
 * the last reference followed (undefined when `node` was no reference). Keywords beside a `$ref`
 * (OpenAPI 3.1 allows them) are kept over the target's. `who` names the derivation in the error an
 * external reference raises.
 */
export function followRef(document: SpecNode, node: unknown, who: string): { node: unknown; pointer: string | undefined } {
  let current = node;
  let pointer: string | undefined;
  for (let depth = 0; isSpecNode(current) && typeof current['$ref'] === 'string' && depth < 20; depth++) {
    const ref = current['$ref'];
    if (!ref.startsWith('#/')) throw new HarnessError('spec.ref', `${who}: external $ref ${ref}`);
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) target = isSpecNode(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    const { $ref: _ref, ...siblings } = current;
    current = isSpecNode(target) && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
    pointer = ref;
  }
  return { node: current, pointer };
}
