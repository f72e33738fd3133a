/**
 * A key of the files that go into the package (sizes and modification times of everything git
 * would ship or track under the shipped paths): test/packed.ts keeps a packed tarball per key, and
 * `npm run build` with PAYGATE_BUILD_IF_CHANGED=1 keeps a dist/ built from the same key.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SHIPPED = /^(bin|harness|suites|generators|reference|specs|schemas|scripts|docs\/ci)\/|^(package\.json|package-lock\.json|tsconfig(\.build)?\.json|README\.md|LICENSE|docs\/REPORTS\.md|vitest\.conformance\.config\.ts)$/;

export function sourcesKey(root: string): string {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => SHIPPED.test(f))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    hash.update(`${file} ${stat.size} ${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}
