/**
 * What several gateway routes share (gateway-api.md "What the service does", "Resources and their
 * fields"): the answer a rule reads, and the money columns of the resources.
 */
import type { Exchange } from '../../core/exchange.js';
import type { RequirementId } from '../finding.js';
import { kindOf, show } from '../judgement.js';
import { judgeStatus, type StatusCodes } from '../status.js';
import { defineRule, type Verdict } from '../rule.js';
import { errorShapeProblem, idShape } from './errors.js';

/**
 * Endpoints: "All bodies are JSON." A request whose body is JSON but labelled otherwise (a text/plain
 * Content-Type), or whose JSON text is odd but valid (a lone surrogate escape), may be served or
 * refused (the text does not say which); it never crashes the service.
 */
export const surviveOddJsonBodies = defineRule({
  name: 'surviveOddJsonBodies',
  requirements: ['GW-JSON-BODIES'],
  codes: { 'body.odd-json-status': 'failure' },
  judge(observation: { answer: Answer; what: string }, v) {
    judgeStatus(v, observation.answer.exchange, ['2xx', '4xx'], { unexpected: 'body.odd-json-status' }, observation.what);
  },
});

/** What a rule sees of one HTTP answer (an ApiResponse of harness/http is one). */
export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

/** The resources whose money columns a table states, and the catalogue entry of each table's row. */
const MONEY_ROWS = {
  /** "PIX charge (response data)": "fees | integer | cents" */
  'pix-charge': 'GW-PIXIN-FEES-INT',
  /** "PIX transfer (response data)": "amount / netAmount / fees | integer | cents" */
  transfer: 'GW-PIXOUT-RESP-FIELDS',
} as const satisfies Record<string, RequirementId>;

export type MoneyResource = keyof typeof MONEY_ROWS | 'other';

/**
 * "Money values are integers in cents (1050 means 10.50)", and the rows of the resource tables that
 * restate it for a field ("fees | integer | cents"): every money value an answer shows is a JSON
 * integer (not a string, not a fraction). The balance is the stated exception (its own rule). The
 * observation names the resource (its table's row is decided with the sentence) and the money fields
 * it shows; a field the answer does not carry is judged too (the tables list it).
 */
export const verifyMoneyInCents = defineRule({
  name: 'verifyMoneyInCents',
  requirements: ['GW-MONEY-CENTS', ...Object.values(MONEY_ROWS)],
  codes: { 'money.not-cents': 'failure' },
  judge(observation: { resource: MoneyResource; fields: Readonly<Record<string, unknown>>; exchange: Exchange }, v) {
    const row: RequirementId[] = observation.resource === 'other' ? [] : [MONEY_ROWS[observation.resource]];
    v.decides('GW-MONEY-CENTS', ...row);
    v.shows(observation.exchange);
    for (const [field, value] of Object.entries(observation.fields)) {
      if (typeof value === 'number' && Number.isSafeInteger(value)) continue;
      v.find('money.not-cents', {
        title: `data.${field} is not an integer number of cents`,
        expected: 'a JSON integer in cents (1050 means 10.50)',
        actual: `${kindOf(value)} ${show(value)}`,
        pointer: `/data/${field}`,
      });
    }
  },
});

/**
 * Why a body is not `{error: <code>, message}` ("404 body `{error: NOT_FOUND, message}`", "409
 * (`IDEMPOTENCY_CONFLICT`)"), or undefined when it is. `message` may be a string, a list or a map
 * (its type is not stated).
 */
export function codedErrorMismatch(json: unknown, code: string): { expected: string; actual: string } | undefined {
  const expected = `{error: "${code}", message}`;
  const problem = errorShapeProblem(json, 'error-code');
  if (problem !== undefined) return { expected, actual: problem };
  const error = (json as Record<string, unknown>).error;
  return error === code ? undefined : { expected, actual: `error = ${show(error)} in ${show(json, 300)}` };
}

/**
 * Inside a rule's judge: a by-id route called with an id that names no resource ("404 | resource not
 * found"). 404 passes; for a MALFORMED id (`idShape`: the id format is not shown, so spaces,
 * punctuation, escapes or an oversized id may be refused as such) 400 and 414 pass too; another 4xx
 * is `codes.otherClientError` (a warning: a target may read a plausible id as malformed); a 2xx or a
 * 5xx is `codes.unexpected`. A URL dot segment (`.`, `..`) names another route after normalisation:
 * nothing is judged. Returns true when the answer is a 404.
 */
export function judgeUnknownId<C extends string>(v: Verdict<C>, answer: Answer, id: string, codes: Required<StatusCodes<C>>, what: string): boolean {
  const shape = idShape(id);
  if (shape === 'dot-segment') {
    v.nothingToJudge();
    return false;
  }
  judgeStatus(v, answer.exchange, shape === 'malformed' ? [404, 400, 414] : 404, codes, what);
  return answer.exchange.response?.status === 404;
}

/**
 * Inside a rule's judge: an unknown id on a route of a resource. The lookup's 404 carries "`{error:
 * NOT_FOUND, message}`"; a simulation route's 404 body is not pinned. See {@link judgeUnknownId}.
 */
export function judgeUnknownResource<C extends string>(v: Verdict<C>, observation: { id: string; answer: Answer; lookup: boolean }, codes: Required<StatusCodes<C>> & { body: C }, what: string): void {
  const { id, answer, lookup } = observation;
  if (!judgeUnknownId(v, answer, id, codes, `${what} ${show(id, 40)}`) || !lookup) return;
  const mismatch = codedErrorMismatch(answer.json, 'NOT_FOUND');
  if (mismatch) v.find(codes.body, { title: `the 404 of ${what} is not {error: NOT_FOUND, message}`, ...mismatch, exchanges: [answer.exchange] });
}

/** Mutation kinds and boundary labels (generators/amounts.ts) of an integer under its minimum; any other break of an amount is its type. */
export const BELOW_MINIMUM: readonly string[] = ['below-minimum', 'min-1', 'zero', 'negative'];

/**
 * The clause a broken body decides, narrowed to the schema's `x-requirement` of the node at fault
 * (generators/bodies.ts `Mutant.requirements`) when they meet; the clause itself otherwise.
 */
export function narrowedToSchema(clause: readonly RequirementId[], fromSchema: readonly string[]): RequirementId[] {
  const named = clause.filter((id) => fromSchema.includes(id));
  return named.length > 0 ? named : [...clause];
}
