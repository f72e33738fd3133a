/**
 * Loads the OpenAPI documents (specs/gateway.openapi.yaml, specs/partner.openapi.yaml) once per
 * process, bundled by swagger-parser (external refs inlined, internal `$ref`s kept). swagger-parser
 * mutates what it is given, so it only ever receives a path.
 *
 * The bundled document is kept on disk by a hash of the spec's text (harness/contract/cache.ts):
 * every later process reads that JSON instead of loading swagger-parser and the YAML parser and
 * bundling again. The specs refer to no other file (their `$ref`s are internal), so the spec's own
 * text names the result.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../core/errors.js';
import type { ApiName } from '../http/client.js';
import { cacheKey, readCachedJson, writeCached } from './cache.js';

/** A bundled OpenAPI 3.1 document, as plain JSON data. */
export type OpenApiDocument = Record<string, unknown>;

/** Default spec path of an API (resolved from this module, not the working directory). */
export function defaultSpecPath(api: ApiName): string {
  return fileURLToPath(new URL(`../../specs/${api}.openapi.yaml`, import.meta.url));
}

const cache = new Map<string, Promise<OpenApiDocument>>();

/** The cache file name of a spec's bundled document. */
export function bundledSpecCacheName(api: ApiName, specText: string): string {
  return `spec-${api}-${cacheKey([specText], ['@apidevtools/swagger-parser'])}.json`;
}

/** Bundles a spec with swagger-parser (no cache), as plain JSON data. */
export async function bundleSpec(path: string): Promise<OpenApiDocument> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const doc = (await SwaggerParser.bundle(path)) as unknown;
  // detach from swagger-parser's internal references: plain JSON data
  return JSON.parse(JSON.stringify(doc)) as OpenApiDocument;
}

/** Loads and bundles a spec once per path; the result is frozen-by-convention: do not mutate it. */
export function loadSpec(api: ApiName, path: string = defaultSpecPath(api)): Promise<OpenApiDocument> {
  let p = cache.get(path);
  if (!p) {
    p = (async () => {
      try {
        const name = bundledSpecCacheName(api, readFileSync(path, 'utf8'));
        const cached = readCachedJson(name, (value): value is OpenApiDocument => typeof value === 'object' && value !== null);
        if (cached !== undefined) return cached;
        const doc = await bundleSpec(path);
        writeCached(name, JSON.stringify(doc));
        return doc;
      } catch (err) {
        cache.delete(path);
        throw new HarnessError('spec.load', `cannot load the ${api} spec ${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    })();
    cache.set(path, p);
  }
  return p;
}
