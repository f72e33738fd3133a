/**
 * The reference as one JavaScript file, for the conformance runs the project's tests spawn.
 *
 * A run started from the clone starts the reference from its TypeScript source through tsx: ~0.7 s
 * of CPU to load its ~60 modules through tsx's hooks, against ~0.2 s for one bundled file. The
 * system tests start about a hundred references (the fault matrix alone 85 runs) on 2 cores that
 * they keep busy, so they run this bundle (PAYGATE_REFERENCE_SCRIPT, harness/config/target.ts). It
 * is the same code: esbuild only joins the modules and strips the types; packages stay imports.
 * Other tests (harness-clients, reference-personality) still start the source through tsx, as a
 * user's `npm run conformance` does.
 *
 * Built once per source content, under node_modules/.cache (so the bundle's package imports resolve
 * to the project's node_modules), named reference/main.js (reference/main.ts runs itself when its
 * path ends so), published by a rename (test workers may build it at the same time).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SOURCE = join(ROOT, 'reference');
const CACHE = join(ROOT, 'node_modules', '.cache', 'paygate-conformance', 'reference-bundle');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
    .sort();
}

/** A hash of the reference's sources: a changed source builds a new bundle. */
function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(SOURCE)) hash.update(relative(SOURCE, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

let built: string | undefined;

/** The path of the bundled reference (built on the first call of this process when not cached). */
export function referenceBundle(): string {
  if (built !== undefined) return built;
  const dir = join(CACHE, sourceHash());
  const script = join(dir, 'reference', 'main.js');
  if (!existsSync(script)) {
    mkdirSync(join(dir, 'reference'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const temp = `${script}.${process.pid}.tmp`;
    buildSync({ entryPoints: [join(SOURCE, 'main.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: temp, logLevel: 'error' });
    renameSync(temp, script);
  }
  built = script;
  return script;
}
