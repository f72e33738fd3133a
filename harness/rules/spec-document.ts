/**
 * The OpenAPI documents as plain data, read synchronously once per process: relations derive their
 * cells from them at module load (harness/rules/rule.ts `Relation`). Internal `$ref`s are left as
 * they are; the derivations resolve what they need.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultSpecPath } from '../contract/spec.js';
import { HarnessError } from '../core/errors.js';

const documents = new Map<string, Record<string, unknown>>();

export function specDocument(api: 'gateway' | 'partner'): Record<string, unknown> {
  let document = documents.get(api);
  if (document === undefined) {
    document = parse(readFileSync(defaultSpecPath(api), 'utf8')) as Record<string, unknown>;
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
