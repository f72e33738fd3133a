/**
 * The OpenAPI documents as plain data, read synchronously once per process: relations derive their
 * cells from them at module load (harness/rules/rule.ts `Relation`). Internal `$ref`s are left as
 * they are; the derivations resolve what they need.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultSpecPath } from '../contract/spec.js';

const documents = new Map<string, Record<string, unknown>>();

export function specDocument(api: 'gateway' | 'partner'): Record<string, unknown> {
  let document = documents.get(api);
  if (document === undefined) {
    document = parse(readFileSync(defaultSpecPath(api), 'utf8')) as Record<string, unknown>;
    documents.set(api, document);
  }
  return document;
}
