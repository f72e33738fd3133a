/**
 * The checks of the suites (id, title, API, area, requirements, needs, tier, severity, file),
 * without running them: what `list` prints and what selection (`--check`, `--requirement`, …)
 * matches.
 *
 * The built package carries them in harness/cli/checks-manifest.json (written at build time by the
 * collection pass, harness/cli/collect.ts). In a clone they are collected on demand and cached in
 * node_modules/.cache/paygate-conformance/, keyed by the suite files' sizes and times.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckEntry } from '../run/check-catalogue.js';
import { PACKAGE_ROOT, SOURCE_EXT, collectChecks, suiteFiles } from './collect.js';

export type { CheckEntry };

export interface Manifest {
  kind: 'paygate-checks-manifest';
  checks: CheckEntry[];
}

const BUILT = fileURLToPath(new URL('./checks-manifest.json', import.meta.url));

/** Files matching PAYGATE_INCLUDE-style globs (`dir/*.test.ts`, `dir/**\/*.test.ts`), relative to root. */
export function globFiles(root: string, patterns: readonly string[]): string[] {
  const out = new Set<string>();
  for (const pattern of patterns) {
    const parts = pattern.split('/');
    const fixed: string[] = [];
    while (parts.length > 0 && !/[*?[]/.test(parts[0] ?? '')) fixed.push(parts.shift() ?? '');
    const base = join(root, ...fixed);
    if (parts.length === 0) {
      if (existsSync(base)) out.add(fixed.join('/'));
      continue;
    }
    const regex = new RegExp(`^${parts.join('/').split('**/').map((p) => p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')).join('(?:.*/)?')}$`);
    const walk = (dir: string): void => {
      if (!existsSync(dir)) return;
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (regex.test(relative(base, path).split('\\').join('/'))) out.add(relative(root, path).split('\\').join('/'));
      }
    };
    walk(base);
  }
  return [...out].sort();
}

function cacheKey(root: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  const watched = [...files, 'harness/run/check.ts', 'harness/run/check-catalogue.ts'];
  // suite helpers (support.ts, model/) can change titles and specs too
  for (const dir of ['suites']) {
    const walk = (d: string): void => {
      for (const entry of readdirSync(d, { withFileTypes: true })) {
        const path = join(d, entry.name);
        if (entry.isDirectory()) walk(path);
        else watched.push(relative(root, path));
      }
    };
    if (existsSync(join(root, dir))) walk(join(root, dir));
  }
  for (const file of [...new Set(watched)].sort()) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    hash.update(`${file} ${stat.size} ${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Every check of the suites (or of the files PAYGATE_INCLUDE names: the project's own fixture
 * suites). The built package reads its manifest; a clone collects (a few seconds) and caches.
 */
export async function loadManifest(env: NodeJS.ProcessEnv = process.env, root: string = PACKAGE_ROOT): Promise<Manifest> {
  const include = env['PAYGATE_INCLUDE'];
  if (include === undefined && existsSync(BUILT)) return JSON.parse(readFileSync(BUILT, 'utf8')) as Manifest;
  const files = include !== undefined ? globFiles(root, include.split(',')) : suiteFiles(root, SOURCE_EXT);
  const cacheFile = join(root, 'node_modules', '.cache', 'paygate-conformance', `checks-${cacheKey(root, files)}.json`);
  if (existsSync(cacheFile)) {
    try {
      return JSON.parse(readFileSync(cacheFile, 'utf8')) as Manifest;
    } catch {
      // a broken cache file is collected again
    }
  }
  const manifest: Manifest = { kind: 'paygate-checks-manifest', checks: await collectChecks(root, files) };
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    // runs side by side (the fault matrix) never read half a file: written aside, then renamed
    const partial = `${cacheFile}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(manifest));
    renameSync(partial, cacheFile);
  } catch {
    // no cache where node_modules is read-only: collected again next time
  }
  return manifest;
}

/** A manifest file name as the run's test file filter: the source in a clone, the compiled file in the package. */
export function runnableFile(file: string): string {
  return SOURCE_EXT === '.js' ? file.replace(/\.ts$/, '.js') : file;
}
