/**
 * Loads the OpenAPI documents (specs/gateway.openapi.yaml, specs/partner.openapi.yaml) once per
 * process, bundled by swagger-parser (external refs inlined, internal `$ref`s kept). swagger-parser
 * mutates what it is given, so it only ever receives a path.
 */
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { HarnessError } from '../core/errors.js';
import type { ApiName } from '../http/client.js';

/** A bundled OpenAPI 3.1 document, as plain JSON data. */
export type OpenApiDocument = Record<string, unknown>;

/** Default spec path of an API (resolved from this module, not the working directory). */
export function defaultSpecPath(api: ApiName): string {
  return fileURLToPath(new URL(`../../specs/${api}.openapi.yaml`, import.meta.url));
}

const cache = new Map<string, Promise<OpenApiDocument>>();

/** Loads and bundles a spec once per path; the result is frozen-by-convention: do not mutate it. */
export function loadSpec(api: ApiName, path: string = defaultSpecPath(api)): Promise<OpenApiDocument> {
  let p = cache.get(path);
  if (!p) {
    p = (async () => {
      try {
        const doc = (await SwaggerParser.bundle(path)) as unknown;
        // detach from swagger-parser's internal references: plain JSON data
        return JSON.parse(JSON.stringify(doc)) as OpenApiDocument;
      } catch (err) {
        cache.delete(path);
        throw new HarnessError('spec.load', `cannot load the ${api} spec ${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    })();
    cache.set(path, p);
  }
  return p;
}
