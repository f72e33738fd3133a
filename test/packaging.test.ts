// What the package says about itself: the licence, the Node versions it supports and tests, the
// files it ships, the repository owner as one setting (scripts/set-owner.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { OWNER_FILES, OWNER_PATTERN } from '../scripts/set-owner.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { license: string; engines: { node: string }; files: string[]; config: { repositoryOwner: string }; repository: { url: string }; homepage: string; bugs: { url: string }; dependencies: Record<string, string>; scripts: Record<string, string> };

describe('the package', () => {
  test('MIT, as LICENSE says', () => {
    expect(pkg.license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License/);
    expect(pkg.files).toContain('LICENSE');
  });

  test('supports the Node versions CI tests (20, 22, 24); the action defaults to 24; README says which are tested', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.12.0 || >=24.0.0');
    const action = parse(read('action.yml')) as { inputs: Record<string, { default?: string }> };
    expect(action.inputs['node-version']?.default).toBe('24');
    expect(read('README.md')).toMatch(/Node 22 and 24 are tested/);
    expect(read('docs/ci/gitlab-ci.yml')).toContain('image: node:24');
  });

  test('ships compiled JavaScript built at prepack; the bin needs no tsx', () => {
    expect(pkg.scripts['prepack']).toBe('npm run build');
    expect(pkg.files).toEqual(expect.arrayContaining(['bin/', 'dist/', 'schemas/', 'docs/ci/']));
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(read('bin/paygate-conformance.js')).not.toMatch(/tsx/);
  });

  test('the repository owner is one setting: every place that names the repository agrees with config.repositoryOwner', () => {
    const owner = pkg.config.repositoryOwner;
    for (const url of [pkg.repository.url, pkg.homepage, pkg.bugs.url]) expect(url).toContain(`github.com/${owner}/paygate-conformance`);
    for (const file of OWNER_FILES) {
      const owners = [...read(file).matchAll(OWNER_PATTERN)].map((m) => m[2]);
      expect(owners.length, file).toBeGreaterThan(0);
      expect(new Set(owners), file).toEqual(new Set([owner]));
    }
  });
});
