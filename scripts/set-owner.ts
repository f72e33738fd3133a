/**
 * `npm run set-owner -- OWNER`: the GitHub owner of this repository, in every place that names it:
 * package.json (`config.repositoryOwner`, `repository`, `homepage`, `bugs`) and the
 * `uses: OWNER/paygate-conformance@…` lines of README.md, action.yml and docs/ci/.
 * test/packaging.test.ts checks that they agree with `config.repositoryOwner`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Files that name the repository by its owner (besides package.json). */
export const OWNER_FILES = ['README.md', 'action.yml', 'docs/ci/github-actions.yml'];
/** `github.com/OWNER/paygate-conformance` and `uses: OWNER/paygate-conformance@` */
export const OWNER_PATTERN = /(github\.com\/|uses: )([A-Za-z0-9][A-Za-z0-9-]*)(\/paygate-conformance\b)/g;

function main(owner: string | undefined): number {
  if (owner === undefined || !/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/.test(owner)) {
    console.error('usage: npm run set-owner -- OWNER   (a GitHub user or organisation name)');
    return 2;
  }
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { config?: Record<string, string>; repository: { url: string }; homepage: string; bugs: { url: string } };
  pkg.config = { ...pkg.config, repositoryOwner: owner };
  pkg.repository.url = `git+https://github.com/${owner}/paygate-conformance.git`;
  pkg.homepage = `https://github.com/${owner}/paygate-conformance#readme`;
  pkg.bugs.url = `https://github.com/${owner}/paygate-conformance/issues`;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  for (const file of OWNER_FILES) {
    const path = join(root, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(OWNER_PATTERN, (_, before: string, _old: string, after: string) => `${before}${owner}${after}`));
  }
  console.log(`repository owner: ${owner} (package.json, ${OWNER_FILES.join(', ')})`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main(process.argv[2]));
