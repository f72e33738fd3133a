/**
 * The package's root directory and version, found the same way from the sources (a clone, run
 * through tsx) and from the compiled package (dist/ inside the installed package): the nearest
 * directory above this file whose package.json is paygate-conformance's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

let found: { root: string; version: string } | undefined;

function locate(): { root: string; version: string } {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
      if (pkg.name === 'paygate-conformance') return (found = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    const parent = dirname(dir);
    if (parent === dir) return (found = { root: fileURLToPath(new URL('../', import.meta.url)), version: '0.0.0' });
    dir = parent;
  }
}

/** The directory holding package.json, README.md, schemas/, docs/ci/ (the clone or the installed package). */
export function packageRoot(): string {
  return locate().root;
}

export function packageVersion(): string {
  return locate().version;
}

/** `paygate-conformance/0.1.0`: the User-Agent of every request to the target. */
export function userAgent(): string {
  return `paygate-conformance/${packageVersion()}`;
}
