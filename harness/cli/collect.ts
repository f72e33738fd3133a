/**
 * The collection pass: imports every suite file with PAYGATE_COLLECT=1, under which `check()`
 * records its static spec (harness/run/check-catalogue.ts) instead of registering a test, and
 * returns the checks with their files. Nothing is sent, started or registered.
 *
 * The packed package carries the result (harness/cli/checks-manifest.json, written at build
 * time); in a clone it is collected on demand (harness/cli/manifest.ts).
 *
 *   tsx harness/cli/collect.ts [OUT.json]     (node dist/harness/cli/collect.js OUT.json at build)
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CheckEntry } from '../run/check-catalogue.js';

/** The package root (the directory holding suites/): the clone, or dist/ of the built package. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** `.ts` in a clone (run through tsx), `.js` in the built package */
export const SOURCE_EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** Suite files under `root`, relative, sorted (suites/<area>/*.test.ts|js). */
export function suiteFiles(root: string = PACKAGE_ROOT, ext: string = SOURCE_EXT): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(`.test${ext}`)) out.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(join(root, 'suites'));
  return out.sort();
}

/**
 * Imports the suite files in collection mode and returns every check they declare. A file that
 * throws while loading (one that registers plain vitest tests, which need the runner) adds the
 * checks declared before that point and a problem.
 */
export async function collectChecks(root: string = PACKAGE_ROOT, files: readonly string[] = suiteFiles(root), problems: string[] = []): Promise<CheckEntry[]> {
  const previous = process.env['PAYGATE_COLLECT'];
  process.env['PAYGATE_COLLECT'] = '1';
  const { takeCollected } = await import('../run/check-catalogue.js');
  const entries: CheckEntry[] = [];
  try {
    takeCollected();
    for (const file of files) {
      try {
        await import(pathToFileURL(join(root, file)).href);
      } catch (error) {
        problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // the manifest names the source file (.ts): the same in a clone and in the built package
      for (const entry of takeCollected()) entries.push({ ...entry, file: file.replace(/\.js$/, '.ts') });
    }
  } finally {
    if (previous === undefined) delete process.env['PAYGATE_COLLECT'];
    else process.env['PAYGATE_COLLECT'] = previous;
  }
  return entries;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = process.argv[2];
  const problems: string[] = [];
  collectChecks(PACKAGE_ROOT, suiteFiles(), problems).then(
    (entries) => {
      // the package's manifest must hold every check: a suite that does not load is a broken build
      if (problems.length > 0) {
        console.error(`collect: ${problems.join('\n')}`);
        process.exit(3);
      }
      const text = `${JSON.stringify({ kind: 'paygate-checks-manifest', checks: entries }, null, 1)}\n`;
      if (out === undefined) process.stdout.write(text);
      else writeFileSync(out, text);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(3);
    },
  );
}
