// The bookkeeping of `npm run mutation` (test/mutation/): stable mutant keys, the seeded sample,
// the fault-code ignorer, the triage file and the score. Stryker itself is not run here.
import { describe, expect, it } from 'vitest';
import { killedBy } from './mutation/command.js';
import type { AstNode } from './mutation/fault-code.js';
import { FaultCode, faultOnlyChildren, isFaultSwitch } from './mutation/fault-code.js';
import { parseMutationFlags, readProgress } from './mutation/main.js';
import type { MutantKey, SampledMutant } from './mutation/mutants.js';
import { collapse, keyString, keysOf, mutantDiff, sampleMutants } from './mutation/mutants.js';
import type { MutantOutcome } from './mutation/report.js';
import { buildReport, renderMarkdown } from './mutation/report.js';
import { apiOf, inScope } from './mutation/scope.js';
import { OUTSIDE_SAMPLE, detailOf, outcomeOf, resultIdentity } from './mutation/stryker-plugins.js';
import { parseTriage, triageIndex } from './mutation/triage.js';

const at = (line: number, column: number, endLine: number, endColumn: number) => ({ start: { line, column }, end: { line: endLine, column: endColumn } });

describe('mutant keys', () => {
  const source = ['function f(a) {', "  if (a < 100) return 'low';", "  if (a < 100) return 'low';", '  return a;', '}'].join('\n');
  const mutants = [
    { mutatorName: 'EqualityOperator', replacement: 'a <= 100', location: at(1, 6, 1, 13) },
    { mutatorName: 'EqualityOperator', replacement: 'a <= 100', location: at(2, 6, 2, 13) },
    { mutatorName: 'StringLiteral', replacement: '""', location: at(3, 9, 3, 10) },
  ];

  it('are the file, mutator, original and replacement text, and a context hash', () => {
    const [first] = keysOf('reference/x.ts', source, mutants);
    expect(first).toMatchObject({ file: 'reference/x.ts', mutator: 'EqualityOperator', original: 'a < 100', replacement: 'a <= 100' });
    expect(first?.context).toMatch(/^[0-9a-f]{12}$/);
  });

  it('tell twins apart by an occurrence index, in file order', () => {
    const [a, b] = keysOf('reference/x.ts', source, mutants);
    expect(b?.context).toBe(`${a?.context}#2`);
  });

  it('hold when the code moves: lines added above change the line, not the key', () => {
    const before = keysOf('reference/x.ts', source, mutants);
    const moved = keysOf('reference/x.ts', `// a comment\n\n${source}`, mutants.map((m) => ({ ...m, location: at(m.location.start.line + 2, m.location.start.column, m.location.end.line + 2, m.location.end.column) })));
    expect(moved.map(keyString)).toEqual(before.map(keyString));
  });

  it('change when the mutated line changes', () => {
    const edited = source.replace("if (a < 100) return 'low';\n  return", "if (a < 100) return 'small';\n  return");
    const [, , before] = keysOf('reference/x.ts', source, mutants);
    const [, , after] = keysOf('reference/x.ts', edited, [mutants[0]!, mutants[1]!, { ...mutants[2]!, location: at(2, 22, 2, 29) }]);
    expect(after?.context).not.toBe(before?.context);
  });

  it('collapse whitespace and cut long text', () => {
    expect(collapse('a\n   b\t c')).toBe('a b c');
    expect(collapse('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('diff the lines the mutant changes', () => {
    expect(mutantDiff(source.split('\n'), { line: 1, column: 6 }, { line: 1, column: 13 }, 'a <= 100')).toBe("-   if (a < 100) return 'low';\n+   if (a <= 100) return 'low';");
    const block = mutantDiff(['f() {', ...Array.from({ length: 10 }, (_, i) => `  s${i};`), '}'], { line: 0, column: 4 }, { line: 11, column: 1 }, '{}', 3);
    expect(block.split('\n')).toEqual(['- f() {', '-   s0;', '- …', '+ f() {}']);
  });
});

describe('the seeded sample', () => {
  const population: MutantKey[] = Array.from({ length: 500 }, (_, i) => ({ file: `reference/f${i % 7}.ts`, mutator: 'StringLiteral', original: `'s${i}'`, replacement: '""', context: `c${i}` }));

  it('takes N mutants, the same ones for the same seed whatever the input order', () => {
    const a = sampleMutants(population, 50, 7);
    const b = sampleMutants([...population].reverse(), 50, 7);
    expect(a).toHaveLength(50);
    expect(b.map(keyString)).toEqual(a.map(keyString));
  });

  it('differs with another seed', () => {
    expect(sampleMutants(population, 50, 8).map(keyString)).not.toEqual(sampleMutants(population, 50, 7).map(keyString));
  });

  it('keeps the rest of the sample when a mutant is added elsewhere (at most one member changes)', () => {
    const a = new Set(sampleMutants(population, 50, 7).map(keyString));
    const extra = { file: 'reference/new.ts', mutator: 'BooleanLiteral', original: 'true', replacement: 'false', context: 'new' };
    const b = sampleMutants([...population, extra], 50, 7).map(keyString);
    expect(b.filter((k) => !a.has(k)).length).toBeLessThanOrEqual(1);
  });

  it('is the whole population when N is larger', () => {
    expect(sampleMutants(population, 10_000, 1)).toHaveLength(500);
  });
});

describe('scope', () => {
  it('mutates the reference of both APIs and shared code, not faults, chaos or the receiver', () => {
    expect(inScope('reference/gateway/pix-in.ts')).toBe(true);
    expect(inScope('reference/shared/http.ts')).toBe(true);
    expect(inScope('reference/server.ts')).toBe(true);
    for (const f of ['reference/faults.ts', 'reference/gateway/faults-pix-charges.ts', 'reference/partner/faults.ts', 'reference/partner/brcode-faults.ts', 'reference/shared/chaos.ts', 'reference/receiver/server.ts', 'harness/cli/main.ts']) expect(inScope(f), f).toBe(false);
  });

  it('runs the mutated file\'s API, both for shared code', () => {
    expect(apiOf('reference/gateway/card.ts')).toBe('gateway');
    expect(apiOf('reference/partner/charges.ts')).toBe('partner');
    expect(apiOf('reference/personality.ts')).toBe('both');
  });
});

describe('fault code (the ignorer)', () => {
  const id = (name: string): AstNode => ({ type: 'Identifier', name });
  const member = (object: AstNode, property: string): AstNode => ({ type: 'MemberExpression', object, property: id(property), computed: false });
  const has = (object: AstNode): AstNode => ({ type: 'CallExpression', callee: member(object, 'has'), arguments: [{ type: 'StringLiteral', value: 'gw-x' }] });
  const sw = has(id('faults'));
  const not = (argument: AstNode): AstNode => ({ type: 'UnaryExpression', operator: '!', argument });
  const and = (left: AstNode, right: AstNode): AstNode => ({ type: 'LogicalExpression', operator: '&&', left, right });
  const or = (left: AstNode, right: AstNode): AstNode => ({ type: 'LogicalExpression', operator: '||', left, right });
  const block = (): AstNode => ({ type: 'BlockStatement', body: [] });

  it('knows a fault switch on any object named faults', () => {
    expect(isFaultSwitch(sw)).toBe(true);
    expect(isFaultSwitch(has(member(id('deps'), 'faults')))).toBe(true);
    expect(isFaultSwitch(has(member({ type: 'ThisExpression' }, 'faults')))).toBe(true);
    expect(isFaultSwitch(has(id('seen')))).toBe(false);
  });

  it('marks the branches only a fault takes', () => {
    const yes = block();
    const no = block();
    expect(faultOnlyChildren({ type: 'IfStatement', test: and(sw, id('x')), consequent: yes, alternate: no })).toEqual([yes]);
    expect(faultOnlyChildren({ type: 'IfStatement', test: or(not(sw), id('x')), consequent: yes, alternate: no })).toEqual([no]);
    expect(faultOnlyChildren({ type: 'IfStatement', test: and(not(sw), id('x')), consequent: yes, alternate: no })).toEqual([]);
    expect(faultOnlyChildren({ type: 'IfStatement', test: or(sw, id('x')), consequent: yes, alternate: no })).toEqual([]);
    const right = id('y');
    expect(faultOnlyChildren(and(sw, right))).toEqual([right]);
    expect(faultOnlyChildren(or(not(sw), right))).toEqual([right]);
  });

  it('ignores a branch entered after its parent, even when the test beside it was rewritten meanwhile', () => {
    const consequent = block();
    const stmt: AstNode = { type: 'IfStatement', test: and(sw, id('x')), consequent, alternate: null };
    const fc = new FaultCode();
    expect(fc.reason({ node: stmt })).toBeUndefined();
    stmt['test'] = { type: 'ConditionalExpression', test: id('stryMutAct'), consequent: id('true'), alternate: id('x') };
    expect(fc.reason({ node: consequent })).toMatch(/only a fault runs/);
    expect(fc.reason({ node: sw })).toMatch(/fault switch/);
    expect(fc.reason({ node: block() })).toBeUndefined();
  });
});

describe('triage file', () => {
  const entry = { file: 'reference/x.ts', mutator: 'StringLiteral', original: "'low'", replacement: '""', context: 'abcdef012345', status: 'unobservable', reason: 'a log line' };

  it('reads entries and indexes them by key', () => {
    const [e] = parseTriage([entry]);
    expect(triageIndex([e!]).get(keyString(e!))?.status).toBe('unobservable');
    expect(parseTriage(null)).toEqual([]);
  });

  it('refuses an unknown status, an open entry without its relation, a missing reason and duplicates', () => {
    expect(() => parseTriage([{ ...entry, status: 'maybe' }])).toThrow(/not one of/);
    expect(() => parseTriage([{ ...entry, status: 'open' }])).toThrow(/relation/);
    expect(() => parseTriage([{ ...entry, reason: '' }])).toThrow(/reason/);
    expect(() => parseTriage([entry, entry])).toThrow(/twice/);
    expect(parseTriage([{ ...entry, status: 'open', relation: 'echo' }])[0]?.relation).toBe('echo');
  });
});

describe('report', () => {
  const mutant = (i: number, outcome: MutantOutcome['outcome']): MutantOutcome => {
    const key: MutantKey = { file: 'reference/gateway/x.ts', mutator: 'StringLiteral', original: `'s${i}'`, replacement: '""', context: `c${i}` };
    const m: SampledMutant = { ...key, api: 'gateway', line: i + 1, identity: `id${i}`, diff: `- '${i}'\n+ ""` };
    return { ...m, outcome };
  };
  const outcomes = [...Array.from({ length: 16 }, (_, i) => ({ ...mutant(i, 'killed'), detail: `killed (default personality, exit ${i === 0 ? 3 : 1}): …` })), mutant(16, 'timeout'), mutant(17, 'survived'), mutant(18, 'survived'), mutant(19, 'survived'), mutant(20, 'error')];
  const triaged = parseTriage([
    { ...outcomes[17]!, status: 'equivalent', reason: 'same value' },
    { ...outcomes[18]!, status: 'closed', relation: 'echo', reason: 'the echo matrix' },
  ]);
  const report = buildReport({ stryker: '9.6.1', command: 'npm run mutation', seed: 1, sampleSize: 21, population: 100, faultCode: 5, files: 3, startedAt: '2026-01-01T00:00:00Z', durationMs: 61_000, concurrency: 1, groups: [{ api: 'gateway', mutants: 21, durationMs: 60_000 }], outcomes, triage: triageIndex(triaged) });

  it('scores detected / (run − equivalent): a Stryker error is not run, a timeout is detected', () => {
    expect(report.counts).toMatchObject({ killed: 16, timeout: 1, survived: 3, error: 1, equivalent: 1, closed: 1, untriaged: 1 });
    expect(report.score).toBeCloseTo(17 / 19);
    expect(report.killedByExit).toEqual({ '1': 15, '3': 1 });
  });

  it('lists every survivor with its diff and triage, and a closed one that survives as a regression', () => {
    expect(report.survivors.map((s) => s.triage)).toEqual(['equivalent', 'closed', 'untriaged']);
    expect(report.survivors[0]?.diff).toContain('+ ""');
    expect(report.regressions.map((s) => s.context)).toEqual(['c18']);
    const md = renderMarkdown(report);
    expect(md).toContain('**Score: 89.5 %**');
    expect(md).toContain('```diff');
  });

  it('scores a written report again under a newer triage (--retriage)', () => {
    const { tool: _t, counts: _c, killedByExit: _k, score: _s, survivors: _sv, regressions: _r, errors: _e, mutants, ...facts } = JSON.parse(JSON.stringify(report)) as typeof report;
    const again = buildReport({ ...facts, outcomes: mutants, triage: triageIndex([...triaged, ...parseTriage([{ ...outcomes[19]!, status: 'equivalent', reason: 'x' }])]) });
    expect(again.counts).toMatchObject({ equivalent: 2, untriaged: 0 });
    expect(again.score).toBeCloseTo(17 / 18);
    expect(again.survivors[0]?.diff).toBe(report.survivors[0]?.diff);
  });

  it('maps Stryker statuses, leaving out what the sample checker stopped', () => {
    expect(outcomeOf({ status: 'Killed' })).toBe('killed');
    expect(outcomeOf({ status: 'Timeout' })).toBe('timeout');
    expect(outcomeOf({ status: 'Survived' })).toBe('survived');
    expect(outcomeOf({ status: 'CompileError', statusReason: OUTSIDE_SAMPLE })).toBeUndefined();
    expect(outcomeOf({ status: 'RuntimeError', statusReason: 'boom' })).toBe('error');
  });

  it('keeps the command\'s "killed" line of a verdict, and finds a result\'s mutant by its 1-based location', () => {
    expect(detailOf('killed', 'noise\nkilled (default personality, exit 1): x [Y]\nmore')).toBe('killed (default personality, exit 1): x [Y]');
    expect(detailOf('survived', 'anything')).toBeUndefined();
    const r = { fileName: '/repo/reference/x.ts', mutatorName: 'StringLiteral', replacement: '""', location: { start: { line: 3, column: 10 }, end: { line: 3, column: 15 } } };
    expect(resultIdentity(r, '/repo/')).toBe('reference/x.ts|StringLiteral|""|2:9-2:14');
  });

  it('reads the progress file of a run cut short, a later verdict winning and a torn last line skipped', () => {
    const text = [JSON.stringify({ identity: 'a', outcome: 'timeout' }), JSON.stringify({ identity: 'b', outcome: 'killed', detail: 'killed …' }), JSON.stringify({ identity: 'a', outcome: 'survived' }), '{"identity":"c","out'].join('\n');
    const p = readProgress(text);
    expect([...p.keys()]).toEqual(['a', 'b']);
    expect(p.get('a')?.outcome).toBe('survived');
  });

  it('names what killed a mutant from the run\'s conformance.json', () => {
    expect(killedBy(1, JSON.stringify({ failures: [{ check: 'gateway.pixin.amount', requirements: ['GW-PIXIN-AMOUNT-MIN'] }] }))).toBe('gateway.pixin.amount [GW-PIXIN-AMOUNT-MIN]');
    expect(killedBy(3, undefined)).toMatch(/exit 3/);
  });
});

describe('flags', () => {
  it('defaults to 200 mutants, seed 1, concurrency 1', () => {
    expect(parseMutationFlags([])).toMatchObject({ sample: 200, seed: 1, concurrency: 1 });
    expect(parseMutationFlags(['--sample', '20', '--seed', '9', '--api', 'partner'])).toMatchObject({ sample: 20, seed: 9, api: 'partner' });
    expect(() => parseMutationFlags(['--sample', '0'])).toThrow(/integer/);
    expect(() => parseMutationFlags(['--api', 'card'])).toThrow(/gateway, partner or both/);
  });
});
