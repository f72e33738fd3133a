/**
 * Global setup of the system tests (vitest.config.ts): packs this checkout and installs the tarball
 * into an adopter project (test/packed.ts `prepareInstalled`) in the background as soon as the run
 * starts, beside the unit tests, so the tests of the installed tool (package, Node versions, CI
 * templates, the GitHub Action's install step) find both made instead of each packing or
 * installing in turn behind the pack lock. Nothing starts when the run selects none of them.
 */
import { basename } from 'node:path';
import type { TestProject } from 'vitest/node';
import { cleanEnv, prepareInstalled } from './packed.js';

/** The test files that use the packed tarball or the installed tool. */
export const INSTALLED_TOOL_TESTS = ['test/package.test.ts', 'test/package-node-versions.test.ts', 'test/ci-templates.test.ts', 'test/action.test.ts'];

/** Whether the run's file filters (`vitest run <filter>…`) select one of those files (no filter: all). */
function selected(project: TestProject): boolean {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (filters === undefined || filters.length === 0) return true;
  return INSTALLED_TOOL_TESTS.some((file) => filters.some((filter) => file.includes(filter) || filter.endsWith(file) || basename(filter) === basename(file)));
}

export default function setup(project: TestProject): (() => Promise<void>) | undefined {
  if (!selected(project)) return undefined;
  const started = performance.now();
  const log = (line: string): void => console.log(`[packed-setup] ${line} (${((performance.now() - started) / 1000).toFixed(1)} s after the start)`);
  // the tests that need it wait on the pack lock and report a failure themselves
  const pending = prepareInstalled(cleanEnv(), log).catch((error: unknown) => log(`failed: ${error instanceof Error ? error.message : String(error)}`));
  // never leave the lock behind: the teardown waits for a packing still under way
  return async () => {
    await pending;
  };
}
