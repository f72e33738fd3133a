/**
 * The rulebook's declarations (harness/rules/rule.ts): one sentence, one rule. Every finding code
 * belongs to exactly one rule; a requirement ID is declared by one rule; rule names are unique; the
 * suites hand observations to rules and name (almost) no requirement ID themselves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRule } from '../harness/rules/rule.js';
import type { Rule } from '../harness/rules/rule.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Every rule exported by a module of harness/rules/, with the module that declares it. */
async function allRules(): Promise<Array<{ module: string; exported: string; rule: Rule<never> }>> {
  const found: Array<{ module: string; exported: string; rule: Rule<never> }> = [];
  const seen = new Set<Rule<never>>();
  for (const file of tsFiles('harness/rules')) {
    const mod = (await import(pathToFileURL(join(ROOT, file)).href)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(mod)) {
      if (!isRule(value) || seen.has(value)) continue;
      seen.add(value);
      found.push({ module: file, exported, rule: value });
    }
  }
  return found;
}

/**
 * Requirement-ID literals in suites/ (and suite-side helpers). Suites name rules, not requirements;
 * they cite a sentence in a comment at most (the rule that decides it names it).
 */
const SUITE_LITERAL_CEILING = 0;

describe('the rulebook declarations', async () => {
  const rules = await allRules();
  const declared = rules.filter((r) => r.rule.kind === 'declared');

  it('rule names are unique and each rule is exported under its own name', () => {
    const names = rules.map((r) => r.rule.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(rules.filter((r) => r.exported !== r.rule.name).map((r) => `${r.module}: ${r.exported} is ${r.rule.name}`)).toEqual([]);
  });

  it('each finding code is produced by exactly one rule', () => {
    const owners = new Map<string, string[]>();
    for (const { rule, module } of declared) for (const code of Object.keys(rule.codes)) owners.set(code, [...(owners.get(code) ?? []), `${module}#${rule.name}`]);
    expect([...owners].filter(([, by]) => by.length > 1).map(([code, by]) => `${code}: ${by.join(', ')}`)).toEqual([]);
  });

  it('each requirement ID is declared by one rule (one sentence, one rule)', () => {
    const owners = new Map<string, string[]>();
    for (const { rule, module } of rules) for (const id of rule.requirements) owners.set(id, [...(owners.get(id) ?? []), `${module}#${rule.name}`]);
    expect([...owners].filter(([, by]) => by.length > 1).map(([id, by]) => `${id}: ${by.join(', ')}`)).toEqual([]);
  });

  it('only the contract rules take their requirements from the specs, declaring none themselves', () => {
    // harness/rules/contract.ts judges every response against the specs: the IDs it decides are the
    // specs' `x-requirement` (data, each catalogued: test/spec-*.test.ts), not declarations
    const fromSpec = rules.filter(({ rule }) => rule.requirementsFromSpec);
    expect(fromSpec.filter(({ module }) => module !== 'harness/rules/contract.ts').map(({ module, rule }) => `${module}#${rule.name}`)).toEqual([]);
    expect(fromSpec.filter(({ rule }) => rule.requirements.length > 0).map(({ rule }) => rule.name)).toEqual([]);
    expect(fromSpec.map(({ rule }) => rule.name).sort()).toEqual(['answerDocumentedStatuses', 'answerJsonBodies', 'matchResponseSchemas']);
  });

  it('a rule uses only declared rules', () => {
    const known = new Set(rules.map((r) => r.rule));
    expect(rules.flatMap(({ rule }) => rule.uses.filter((u) => !known.has(u)).map((u) => `${rule.name} uses ${u.name}, exported by no rule module`))).toEqual([]);
  });

  it(`the suites name at most ${SUITE_LITERAL_CEILING} requirement IDs themselves`, () => {
    const literal = /['"`](?:GW|PT)-[A-Z0-9]+(?:-[A-Z0-9]+)*['"`]/g;
    const count = tsFiles('suites').reduce((n, file) => n + (readFileSync(join(ROOT, file), 'utf8').match(literal)?.length ?? 0), 0);
    expect(count).toBeLessThanOrEqual(SUITE_LITERAL_CEILING);
  });
});
