/**
 * The YAML library, loaded on first use: a run reads its YAML (spec documents, requirement
 * catalogue) from the JSON cache (harness/contract/cache.ts), so most processes never need the
 * parser, and importing it cost each test worker ~70 ms of CPU before its first check.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let library: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  library ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return library;
}
