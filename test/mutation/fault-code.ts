/**
 * Which code of the reference runs only when a fault is switched on. The reference interleaves its
 * faults with the correct code (`if (faults.has('gw-…')) …`); the mutation test runs the correct
 * reference, so a mutant of a fault switch or of a branch only a fault takes is never executed (or
 * only turns a catalogued fault on, which the fault matrix measures). The ignorer leaves them out.
 *
 * Plain structural checks over babel's nodes (no babel types: Stryker hands its ignorers a NodePath).
 */

/** The part of a babel node this module reads. */
export interface AstNode {
  type: string;
  [key: string]: unknown;
}

/** The part of a babel NodePath this module reads. */
export interface AstPath {
  node: AstNode;
}

function isNode(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

function nameOf(v: unknown): string | undefined {
  if (!isNode(v)) return undefined;
  if (v.type === 'Identifier') return typeof v['name'] === 'string' ? v['name'] : undefined;
  if (v.type === 'MemberExpression' && v['computed'] !== true) return nameOf(v['property']);
  return undefined;
}

/** `faults.has(…)`, `deps.faults.has(…)`, `this.options.faults.has(…)`. */
export function isFaultSwitch(node: unknown): boolean {
  if (!isNode(node) || node.type !== 'CallExpression') return false;
  const callee = node['callee'];
  return isNode(callee) && callee.type === 'MemberExpression' && nameOf(callee['property']) === 'has' && nameOf(callee['object']) === 'faults';
}

function logical(node: unknown, operator: '&&' | '||'): [unknown, unknown] | undefined {
  return isNode(node) && node.type === 'LogicalExpression' && node['operator'] === operator ? [node['left'], node['right']] : undefined;
}

/** True only when a fault is on: a switch, or a conjunction with one. */
export function onlyWithFault(test: unknown): boolean {
  if (isFaultSwitch(test)) return true;
  const and = logical(test, '&&');
  return and !== undefined && (onlyWithFault(and[0]) || onlyWithFault(and[1]));
}

/** False only when a fault is on: a negated switch, or a disjunction with one. */
export function falseOnlyWithFault(test: unknown): boolean {
  if (isNode(test) && test.type === 'UnaryExpression' && test['operator'] === '!' && isFaultSwitch(test['argument'])) return true;
  const or = logical(test, '||');
  return or !== undefined && (falseOnlyWithFault(or[0]) || falseOnlyWithFault(or[1]));
}

/** The children of a node that only run when a fault is on: if/else and `?:` branches, the right side of `&&`/`||`. */
export function faultOnlyChildren(node: AstNode): unknown[] {
  const out: unknown[] = [];
  if (node.type === 'IfStatement' || node.type === 'ConditionalExpression') {
    if (onlyWithFault(node['test'])) out.push(node['consequent']);
    if (falseOnlyWithFault(node['test'])) out.push(node['alternate']);
  }
  if (node.type === 'LogicalExpression') {
    if (node['operator'] === '&&' && onlyWithFault(node['left'])) out.push(node['right']);
    if (node['operator'] === '||' && falseOnlyWithFault(node['left'])) out.push(node['right']);
  }
  return out.filter(isNode);
}

/**
 * Decides, node by node in traversal order, whether a node (and all below it) is fault code: a
 * fault switch, or a branch only a fault takes. The branches are marked when their parent is
 * entered, because Stryker instruments as it walks: by the time a branch is entered, the test
 * beside it may already be rewritten into mutant switches. A compound test such as
 * `faults.has(x) && amount > n` stays mutated: replacing it by `true` runs the fault's branch in
 * the correct reference (observable), by `false` changes nothing (an equivalent mutant, triaged).
 */
export class FaultCode {
  private readonly faultOnly = new WeakSet<object>();

  reason(path: AstPath): string | undefined {
    const { node } = path;
    if (this.faultOnly.has(node)) return 'code only a fault runs';
    if (isFaultSwitch(node)) return 'fault switch (off in the correct reference; the fault matrix measures each fault)';
    for (const child of faultOnlyChildren(node)) this.faultOnly.add(child as object);
    return undefined;
  }
}
