/**
 * Declaring a rule. A rule is one judgement of the contract, declared once: the requirement IDs it
 * decides, the finding codes it can produce with their severities, the rules it applies to parts of
 * its observation, and one judge function `observation → Judgement`. Suites and fuzzer commands hand
 * observations to rules (`t.judge(rule, observation)`); they never name a requirement ID, build a
 * finding or choose a severity.
 *
 *   export const refuseDescriptionOverLimit = defineRule({
 *     name: 'refuseDescriptionOverLimit',
 *     requirements: ['PT-CHARGE-DESC-MAX'],
 *     codes: { 'charge.description-over-limit-accepted': 'failure' },
 *     judge(answer: Answer, v) {
 *       if (is2xx(answer.status)) v.find('charge.description-over-limit-accepted', { … });
 *     },
 *   });
 *
 * - **Requirements.** An evaluation decides every requirement the rule declares, unless the judge
 *   narrows it with `v.decides(…)` (a table rule deciding one row) or says `v.nothingToJudge()` (the
 *   observation shows nothing about the rule). A finding names the evaluation's requirements unless it
 *   names a subset; naming one the rule does not declare is a bug of the suite (HarnessError).
 * - **Codes and severities.** A code belongs to exactly one rule (test/rules-declarations.test.ts),
 *   and has exactly one severity: the text is firm (`failure`) or ambiguous or advisory (`warning`).
 *   A finding naming only requirements the catalogue marks `latitude: warning` is capped at a warning,
 *   wherever it is made.
 * - **Composition.** A rule may apply the rules it declares in `uses` to parts of its observation
 *   (`v.apply(rule, part)`): their findings stay theirs (their code, their rule), and the evaluation
 *   decides their requirements too. A check's requirement list is the closure of the rules it declares.
 * - **Purity.** A judge reads its observation and nothing else: no HTTP, no clock, no run state. A
 *   request of the observation that got no answer is reported with `v.unanswered(exchange)`: the
 *   harness then makes the check inconclusive (harness/run/check-run.ts), never the rule.
 * - **Requirements from the specs.** The contract rules (harness/rules/contract.ts) judge every
 *   response against the OpenAPI specs, whose nodes name the requirement they encode
 *   (`x-requirement`). Such a rule declares `requirementsFromSpec: true` and no requirement of its
 *   own: its observation carries the IDs as data, read from the spec node at fault, and it may decide
 *   or name any of them. The section rule deciding a sentence still declares it; the spec shapes it
 *   encodes are judged on every response besides (test/rules-declarations.test.ts allows this only
 *   in harness/rules/contract.ts; test/spec-*.test.ts proves every `x-requirement` is catalogued).
 */
import type { Exchange } from '../core/exchange.js';
import { HarnessError } from '../core/errors.js';
import type { RequirementId } from '../core/requirement-ids.js';
import { findRequirement } from '../contract/requirements.js';
import type { CoveredCells, Finding, Judgement, Severity } from './finding.js';

/**
 * A relation of the contract judged cell by cell (issue: "cover each relation completely"): the
 * idempotency fingerprint of every keyed request field, every echoed value on every path, every
 * (actor, owner, environment, route) of isolation, every status a route lists, every (state, action).
 * Its cells are derived from the specs and the catalogue; a rule that judges the relation says which
 * cell each observation tried (`v.covers(cell)`), and the report shows cells tried / cells.
 */
export interface Relation {
  /** stable id, e.g. `partner.idempotency-fingerprint` */
  readonly id: string;
  readonly title: string;
  /** every cell of the relation, e.g. `POST /business/pix-charges · description` */
  readonly cells: readonly string[];
  /** the cells that can only be tried by waiting for a contract timer (full and certify profiles) */
  readonly timerCells?: readonly string[];
  /** cells no run can try (a money-moving request with production credentials, an unprovokable cause): the reason */
  readonly untryable?: Readonly<Record<string, string>>;
}

/** The parts of a finding a judge writes; code, severity, rule and requirements come from the declaration. */
export interface FindingDraft {
  title: string;
  expected: string;
  actual: string;
  /** exchanges that show it besides those of `v.shows(…)` */
  exchanges?: readonly (Exchange | undefined)[];
  /** JSON pointer into the response body, when the finding is located */
  pointer?: string;
  /** a subset of the evaluation's requirements, when the finding breaks only some of them */
  requirements?: readonly RequirementId[];
}

/** What a judge uses to say what it found. */
export interface Verdict<C extends string> {
  /** records a finding of `code` (one of the rule's codes, at its declared severity) */
  find(code: C, draft: FindingDraft): void;
  /** this evaluation decides only these of the rule's requirements (a table rule deciding one row) */
  decides(...ids: readonly RequirementId[]): void;
  /** the observation shows nothing about this rule: no requirement is decided, nothing is found */
  nothingToJudge(): void;
  /** exchanges shown with every finding of this evaluation (rendered as curl) */
  shows(...exchanges: readonly (Exchange | undefined)[]): void;
  /** a request of the observation got no HTTP answer: nothing can be judged (the check is inconclusive) */
  unanswered(exchange: Exchange): void;
  /** applies a rule declared in `uses` to a part of the observation; returns its judgement */
  apply<O>(rule: Rule<O>, observation: O): Judgement;
  /** this observation tried `cell` of the rule's relation (one of `relation.cells`) */
  covers(cell: string): void;
  /**
   * this observation tried `cell` of a relation every check of the API judges through shared helpers
   * (the statuses a route lists, judged by harness/rules/status.ts `judgeStatus` inside any rule)
   */
  coversIn(relation: Relation, cell: string): void;
}

export interface RuleDeclaration<O, C extends string> {
  /** verb-first, after the rule it enforces (`ensureCreatedPending`, `verifyEmvCrc`); unique */
  name: string;
  /** the requirement IDs (specs/requirements.yaml) this rule decides */
  requirements: readonly RequirementId[];
  /**
   * the rule decides requirements its observation names as data, from the specs' `x-requirement`
   * (the contract rules only): `decides` and findings may name them besides `requirements`
   */
  requirementsFromSpec?: true;
  /** every finding code it can produce, with its one severity */
  codes: { readonly [K in C]: Severity };
  /** rules it applies to parts of its observation (`v.apply`) */
  uses?: readonly Rule<never>[];
  /** the relation whose cells this rule judges (`v.covers`) */
  relation?: Relation;
  judge(observation: O, v: Verdict<C>): void;
}

/** A declared rule: what it decides and produces, and its judge. */
export interface Rule<O> {
  readonly kind: 'declared';
  readonly name: string;
  readonly requirements: readonly RequirementId[];
  /** also decides the requirements its observations name from the specs (see RuleDeclaration) */
  readonly requirementsFromSpec: boolean;
  readonly codes: Readonly<Record<string, Severity>>;
  readonly uses: readonly Rule<never>[];
  readonly relation?: Relation;
  /** one evaluation of the rule on an observation */
  judge(observation: O): Judgement;
}

/** The observation type a rule takes. */
export type ObservationOf<R> = R extends Rule<infer O> ? O : never;

function isWarnOnly(id: RequirementId): boolean {
  try {
    return findRequirement(id)?.latitude === 'warning';
  } catch {
    return false; // a broken catalogue must not change a verdict
  }
}

/** What every evaluation of one rule reads of its declaration. */
interface Declared {
  readonly name: string;
  readonly requirements: readonly RequirementId[];
  readonly codes: Readonly<Record<string, Severity>>;
  readonly uses: readonly Rule<never>[];
  readonly relation: Relation | undefined;
  readonly fromSpec: boolean;
}

/**
 * One evaluation's {@link Verdict}. A class, not an object of closures: the contract rules run four
 * evaluations on every response the suite receives, and an evaluation's state is made only as it
 * is needed.
 */
class Evaluation<C extends string> implements Verdict<C> {
  decided: readonly RequirementId[];
  nothing = false;
  readonly shown: Exchange[] = [];
  readonly findings: Finding[] = [];
  applied: Judgement[] | undefined;
  /** the requests of the observation that got no answer (see {@link unanswered}) */
  unansweredList: Exchange[] | undefined;
  covered: string[] | undefined;
  elsewhere: Map<string, string[]> | undefined;

  constructor(private readonly rule: Declared) {
    this.decided = rule.requirements;
  }

  private owns(id: RequirementId): boolean {
    return this.rule.fromSpec || this.rule.requirements.includes(id);
  }

  find(code: C, draft: FindingDraft): void {
    const { name, codes } = this.rule;
    const severity = codes[code];
    if (severity === undefined) throw new HarnessError('rule.code', `${name}: code ${code} is not declared by the rule`);
    const named = [...(draft.requirements ?? this.decided)];
    for (const id of named) {
      if (!this.owns(id)) throw new HarnessError('rule.requirement', `${name}: finding ${code} names ${id}, which the rule does not declare`);
    }
    const exchanges = [...this.shown];
    for (const e of draft.exchanges ?? []) if (e && !exchanges.includes(e)) exchanges.push(e);
    const ambiguous = named.length > 0 && named.every(isWarnOnly);
    const finding: Finding = {
      code,
      rule: name,
      title: draft.title,
      severity: ambiguous ? 'warning' : severity,
      requirements: named,
      expected: draft.expected,
      actual: draft.actual,
      exchanges,
    };
    if (draft.pointer !== undefined) finding.pointer = draft.pointer;
    this.findings.push(finding);
  }

  decides(...ids: readonly RequirementId[]): void {
    for (const id of ids) {
      if (!this.owns(id)) throw new HarnessError('rule.requirement', `${this.rule.name}: decides ${id}, which the rule does not declare`);
    }
    this.decided = ids;
  }

  nothingToJudge(): void {
    this.nothing = true;
  }

  shows(...exchanges: readonly (Exchange | undefined)[]): void {
    for (const e of exchanges) if (e && !this.shown.includes(e)) this.shown.push(e);
  }

  unanswered(exchange: Exchange): void {
    const list = (this.unansweredList ??= []);
    if (!list.includes(exchange)) list.push(exchange);
  }

  apply<O>(sub: Rule<O>, part: O): Judgement {
    if (!this.rule.uses.includes(sub as Rule<never>)) throw new HarnessError('rule.uses', `${this.rule.name}: applies ${sub.name}, which it does not declare in \`uses\``);
    const judgement = sub.judge(part);
    (this.applied ??= []).push(judgement);
    return judgement;
  }

  covers(cell: string): void {
    const { name, relation } = this.rule;
    if (!relation) throw new HarnessError('rule.relation', `${name}: covers ${cell}, but the rule judges no relation`);
    if (!relation.cells.includes(cell)) throw new HarnessError('rule.relation', `${name}: ${cell} is not a cell of ${relation.id}`);
    const covered = (this.covered ??= []);
    if (!covered.includes(cell)) covered.push(cell);
  }

  coversIn(other: Relation, cell: string): void {
    if (!other.cells.includes(cell)) throw new HarnessError('rule.relation', `${this.rule.name}: ${cell} is not a cell of ${other.id}`);
    if (other.id === this.rule.relation?.id) return this.covers(cell);
    const elsewhere = (this.elsewhere ??= new Map());
    const list = elsewhere.get(other.id) ?? [];
    if (!list.includes(cell)) list.push(cell);
    elsewhere.set(other.id, list);
  }

  judgement(): Judgement {
    const { name, relation } = this.rule;
    const own: Judgement = this.nothing && this.findings.length === 0 ? { rule: name, requirements: [], findings: [] } : { rule: name, requirements: this.decided, findings: this.findings };
    const cells: CoveredCells[] = [];
    if (relation && this.covered !== undefined && this.covered.length > 0) cells.push({ relation: relation.id, cells: this.covered });
    for (const [id, list] of this.elsewhere ?? []) cells.push({ relation: id, cells: list });
    return merge(own, this.applied ?? [], this.unansweredList ?? [], cells);
  }
}

/** Declares a rule (see the module comment). */
export function defineRule<O, C extends string>(declaration: RuleDeclaration<O, C>): Rule<O> {
  const { name, requirements, codes, relation } = declaration;
  const uses = declaration.uses ?? [];
  const declared: Declared = { name, requirements, codes, uses, relation, fromSpec: declaration.requirementsFromSpec === true };
  const rule: Rule<O> = {
    kind: 'declared',
    name,
    requirements,
    requirementsFromSpec: declared.fromSpec,
    codes,
    uses,
    ...(relation !== undefined ? { relation } : {}),
    judge(observation: O): Judgement {
      const v = new Evaluation<C>(declared);
      declaration.judge(observation, v);
      return v.judgement();
    },
  };
  return rule;
}

function merge(own: Judgement, applied: readonly Judgement[], unanswered: readonly Exchange[], cells: readonly CoveredCells[]): Judgement {
  const requirements = [...own.requirements];
  const findings = [...own.findings];
  const silent = [...unanswered];
  const covered = [...cells];
  for (const j of applied) {
    for (const id of j.requirements) if (!requirements.includes(id)) requirements.push(id);
    findings.push(...j.findings);
    for (const e of j.unanswered ?? []) if (!silent.includes(e)) silent.push(e);
    covered.push(...(j.covered ?? []));
  }
  for (const f of findings) for (const id of f.requirements) if (!requirements.includes(id)) requirements.push(id);
  return { rule: own.rule, requirements, findings, ...(silent.length > 0 ? { unanswered: silent } : {}), ...(covered.length > 0 ? { covered } : {}) };
}

/** Every requirement a rule decides, itself and through the rules it uses. */
export function requirementsOf(rules: readonly Rule<never>[]): RequirementId[] {
  const seen = new Set<Rule<never>>();
  const ids: RequirementId[] = [];
  const visit = (rule: Rule<never>): void => {
    if (seen.has(rule)) return;
    seen.add(rule);
    for (const id of rule.requirements) if (!ids.includes(id)) ids.push(id);
    for (const sub of rule.uses) visit(sub);
  };
  for (const rule of rules) visit(rule);
  return ids;
}

/** Every rule reachable from `rules` through `uses`, each once. */
export function closureOf(rules: readonly Rule<never>[]): Rule<never>[] {
  const out: Rule<never>[] = [];
  const visit = (rule: Rule<never>): void => {
    if (out.includes(rule)) return;
    out.push(rule);
    for (const sub of rule.uses) visit(sub);
  };
  for (const rule of rules) visit(rule);
  return out;
}

/** True for a value made by {@link defineRule}. */
export function isRule(value: unknown): value is Rule<never> {
  return typeof value === 'object' && value !== null && 'judge' in value && 'requirements' in value && 'codes' in value && (value as { kind?: unknown }).kind === 'declared';
}
