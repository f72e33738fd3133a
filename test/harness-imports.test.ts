/**
 * The import structure: no import cycle anywhere in the suite's side (harness/, suites/, generators/),
 * harness/core/ imports nothing else of the harness, and the two independent sides (reference/ and
 * the suite) never import each other. Imports are read with TypeScript's own pre-processor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** file → the project files it imports (type-only imports included: they are structure too). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(ROOT, resolve(ROOT, dirname(file), spec.replace(/\.js$/, '.ts'))));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk (each reported once, from its first file). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

const SUITE_SIDE = [...sourceFiles('harness'), ...sourceFiles('suites'), ...sourceFiles('generators')];
const REFERENCE = sourceFiles('reference');

describe('import structure', () => {
  const suiteGraph = importGraph(SUITE_SIDE);

  it('has no import cycle on the suite side', () => {
    expect(cycles(suiteGraph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('has no import cycle in the reference', () => {
    expect(cycles(importGraph(REFERENCE)).map((c) => c.join(' → '))).toEqual([]);
  });

  it('harness/core imports nothing else of the harness', () => {
    const outside = [...suiteGraph].filter(([file]) => file.startsWith('harness/core/')).flatMap(([file, targets]) => targets.filter((t) => !t.startsWith('harness/core/')).map((t) => `${file} → ${t}`));
    expect(outside).toEqual([]);
  });

  it('the suite and the reference never import each other', () => {
    const crossing = [
      ...[...suiteGraph].flatMap(([file, targets]) => targets.filter((t) => t.startsWith('reference/')).map((t) => `${file} → ${t}`)),
      ...[...importGraph(REFERENCE)].flatMap(([file, targets]) => targets.filter((t) => /^(harness|suites|generators)\//.test(t)).map((t) => `${file} → ${t}`)),
    ];
    expect(crossing).toEqual([]);
  });

  it('finds a cycle when there is one (the walk itself)', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
