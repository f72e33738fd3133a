/**
 * Files derived from the specs, kept so a run does not derive them again: the bundled OpenAPI
 * documents (swagger-parser) and the compiled response validators (ajv standalone code). Each is
 * named by a hash of what it is derived from (the spec text, or the bundled documents, and the
 * versions of the libraries that derive it), so a changed spec or library never reads a stale file.
 *
 * Where they are looked for, in order:
 * 1. beside the compiled package (`dist/contract-cache/`, written by scripts/build.ts): the
 *    installed tool never derives them;
 * 2. the clone's cache (`node_modules/.cache/paygate-conformance/`, or PAYGATE_CACHE_DIR), written by
 *    the first run that needed them; every later run and worker reads it.
 * A cache that cannot be read or written is not an error: the value is derived as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bump when the format of a cached file changes. */
export const CACHE_FORMAT = 1;

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version?: string }).version ?? '?';
  } catch {
    return '?';
  }
}

/** sha256 (hex, 24 chars) of the parts, with the cache format and the named libraries' versions. */
export function cacheKey(parts: readonly string[], libraries: readonly string[]): string {
  const h = createHash('sha256');
  h.update(`format ${CACHE_FORMAT}\n`);
  for (const lib of libraries) h.update(`${lib}@${packageVersion(lib)}\n`);
  for (const p of parts) h.update(`${p.length}:${p}\n`);
  return h.digest('hex').slice(0, 24);
}

/** The shipped cache of the built package (absent in a clone). */
export function shippedCacheDir(): string {
  return fileURLToPath(new URL('../../contract-cache/', import.meta.url));
}

/** The writable cache: PAYGATE_CACHE_DIR, else node_modules/.cache/paygate-conformance of the package root. */
export function localCacheDir(): string {
  const override = process.env['PAYGATE_CACHE_DIR'];
  if (override !== undefined && override !== '') return override;
  return fileURLToPath(new URL('../../node_modules/.cache/paygate-conformance/', import.meta.url));
}

/** The path of a cached file when one exists (shipped first), else undefined. */
export function findCached(name: string): string | undefined {
  for (const dir of [shippedCacheDir(), localCacheDir()]) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Reads a cached text file, undefined when absent or unreadable. */
export function readCached(name: string): string | undefined {
  const path = findCached(name);
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A cached JSON value: undefined when the file is absent, unreadable, not JSON, or not what `accept`
 * takes (a damaged cache file: the caller derives the value again and replaces it).
 */
export function readCachedJson<T>(name: string, accept: (value: unknown) => value is T): T | undefined {
  const text = readCached(name);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return accept(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a file to a cache directory (default: the local one) atomically: workers deriving the
 * same file at once each write a whole file and rename it into place. Errors are ignored.
 */
export function writeCached(name: string, text: string, dir = localCacheDir()): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
    return path;
  } catch {
    return undefined;
  }
}
