/**
 * The contract rules: every response the suite receives, judged against the OpenAPI specs
 * (specs/<api>.openapi.yaml, the contract written as data). harness/run/check-run.ts hands each
 * observed exchange's facts (harness/contract/validator.ts `responseFacts`) to {@link conformToContract}.
 *
 * Requirements come from the specs: each node names the requirement it encodes (`x-requirement`),
 * and the facts carry those IDs (the operation's, the documented response's, the failing schema
 * node's, the document's "bodies are JSON"). These rules declare `requirementsFromSpec` and no ID of
 * their own: a spec shape is judged here on every response, while the section rule of the same
 * sentence (harness/rules/<api>/…) judges what the schema cannot say. test/spec-*.test.ts proves
 * every `x-requirement` is in the catalogue.
 *
 * Contract:
 * - gateway-api.md, "Endpoints": "All bodies are JSON."; "Every route can answer 401 and 429.";
 *   the "Errors" table (400, 401, 403, 404, 409, 422, 429) and each route's own statuses.
 * - partner-cashin-api.md, "Endpoints": "Bodies are JSON."; the "Errors" table (401, 403, 404, 409,
 *   422); "Rate limits: not shown" (a 429 is a choice the text leaves open).
 * - Neither documents a 5xx answer anywhere. Undocumented response parts are open.
 */
import type { Exchange } from '../core/exchange.js';
import type { ApiName } from '../http/client.js';
import type { BodyFacts, ResponseFacts, SchemaError } from '../contract/validator.js';
import { isJsonMediaType } from '../contract/validator.js';
import type { RequirementId } from './finding.js';
import { defineRule, type Verdict } from './rule.js';
import { GATEWAY_RESPONSE_ENUMS, PARTNER_RESPONSE_ENUMS, hasResponseEnums, responseEnumCellsCarried } from './statuses.js';

/** Statuses of each API's general Errors table: allowed for any operation, a warning where the operation does not list them. */
export const GENERAL_ERROR_STATUSES: Record<ApiName, readonly number[]> = {
  gateway: [400, 401, 403, 404, 409, 422, 429],
  partner: [401, 403, 404, 409, 422],
};

/**
 * Statuses every route may answer without listing them: gateway "Every route can answer 401 and
 * 429"; partner 401 "API key missing, invalid or revoked" applies to every route, and "Rate limits:
 * not shown" leaves a 429 open.
 */
export const ALWAYS_ALLOWED_STATUSES: readonly number[] = [401, 429];

function cut(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** The recorded body for a finding's `actual` (the record redacts it when first read: only a finding reads it). */
function shownBody(response: Exchange['response']): string {
  return response === undefined || response.body === '' ? '(empty body)' : cut(response.body);
}

/** The requirements a finding about the status names: the operation's own, else the document's. */
function statusRequirements(facts: ResponseFacts): RequirementId[] {
  return facts.operationRequirements.length > 0 ? [...facts.operationRequirements] : [facts.documentRequirement];
}

function documented(facts: ResponseFacts): string {
  return facts.documentedStatuses.join(', ') || 'none';
}

/**
 * The status is one the contract documents for the operation: its own statuses, the general Errors
 * table (a warning where the operation does not list it), 401 and 429 anywhere. A 5xx is never a
 * conforming answer: a failure. A 429 the client's retries did not get past reaches no other rule
 * (harness/rules/status.ts `judgeStatus`): it is reported here, once per answer, as a warning, so a
 * target that rate-limits everything shows; a 429 the client retries is not the check's answer.
 */
export const answerDocumentedStatuses = defineRule({
  name: 'answerDocumentedStatuses',
  requirements: [],
  requirementsFromSpec: true,
  codes: { 'target.5xx': 'failure', 'contract.status-undocumented': 'warning', 'status.rate-limited': 'warning' },
  judge(facts: ResponseFacts, v) {
    const { operation, status } = facts;
    const response = facts.exchange.response;
    if (status === 429 && facts.retried) return v.nothingToJudge();
    v.decides(...statusRequirements(facts));
    v.shows(facts.exchange);
    if (status >= 500) {
      v.find('target.5xx', {
        title: `${operation} answered ${status}: a server error is never a conforming answer`,
        expected: `a status documented for ${operation} (${documented(facts)}) or a general error status`,
        actual: `${status} ${shownBody(response)}`,
      });
      return;
    }
    if (status === 429) {
      const retryAfter = response?.headers['retry-after'];
      v.find('status.rate-limited', {
        title: `${operation} answered 429 after the client's retries: nothing else about this answer can be judged`,
        expected: `an answer past the rate limit (the client honours Retry-After and retries); ${facts.api === 'gateway' ? '"Every route can answer 401 and 429"' : '"Rate limits: not shown"'}`,
        actual: `HTTP 429${retryAfter !== undefined ? ` (Retry-After: ${retryAfter})` : ''}, ${shownBody(response)}`,
      });
      return;
    }
    if (facts.response !== undefined || ALWAYS_ALLOWED_STATUSES.includes(status)) return;
    const inTable = GENERAL_ERROR_STATUSES[facts.api].includes(status);
    v.find('contract.status-undocumented', {
      title: inTable
        ? `${operation} answered ${status}, which the Errors table allows in general but the operation does not list`
        : `${operation} answered ${status}, a status the contract does not document for it`,
      expected: `one of ${facts.documentedStatuses.join(', ') || '(none documented)'}`,
      actual: String(status),
    });
  },
});

/** The media type of a recorded Content-Type, for display. */
function shownMediaType(body: BodyFacts): string | undefined {
  return body.contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/**
 * "All bodies are JSON." / "Bodies are JSON.": a documented JSON body that does not parse is a
 * failure (one the spec leaves open, `x-body: optional`, may be absent; `x-body: any` may be
 * anything). A JSON body labelled with another Content-Type is a warning: the contract names no
 * response header.
 */
export const answerJsonBodies = defineRule({
  name: 'answerJsonBodies',
  requirements: [],
  requirementsFromSpec: true,
  codes: { 'contract.not-json': 'failure', 'contract.content-type': 'warning' },
  judge(facts: ResponseFacts, v) {
    const body = facts.response?.body;
    if (body === undefined) return v.nothingToJudge();
    if (!body.parsed && ((body.open !== undefined && body.empty) || body.open === 'any')) return v.nothingToJudge();
    const { operation, status, documentRequirement } = facts;
    v.shows(facts.exchange);
    if (!body.parsed) {
      const requirements = [documentRequirement, ...(facts.response?.requirements ?? []).filter((r) => r !== documentRequirement)];
      v.decides(...requirements);
      v.find('contract.not-json', {
        title: `${operation} answered ${status} with a body that is not JSON`,
        expected: `a JSON body (${body.mediaType})`,
        actual: body.shown === '' ? '(empty body)' : `${shownMediaType(body) ?? 'no Content-Type'}: ${body.shown}`,
        requirements,
      });
      return;
    }
    v.decides(documentRequirement);
    if (isJsonMediaType(body.receivedMediaType)) return;
    v.find('contract.content-type', {
      title: `${operation} answered ${status} with a JSON body labelled ${shownMediaType(body) ?? '(no Content-Type)'}`,
      expected: `Content-Type ${body.mediaType}`,
      actual: body.contentType ?? '(none)',
    });
  },
});

/**
 * Covers the response-enum cells the validated body carries. It reads the parse that was validated
 * (no second parse, no redaction of the body): a cell names a spec value, never body text.
 */
function coverResponseEnums(v: Verdict<string>, api: ApiName, operation: string, key: string, json: unknown): void {
  if (json === undefined || !hasResponseEnums(api, operation, key)) return;
  const relation = api === 'gateway' ? GATEWAY_RESPONSE_ENUMS : PARTNER_RESPONSE_ENUMS;
  for (const cell of responseEnumCellsCarried(api, operation, key, json)) v.coversIn(relation, cell);
}

function schemaActual(error: SchemaError): string {
  if (error.keyword === 'required') return `property ${JSON.stringify(error.params['missingProperty'])} absent`;
  if (error.keyword === 'additionalProperties') return `extra property ${JSON.stringify(error.params['additionalProperty'])}`;
  return error.shown;
}

/**
 * A JSON body matches the schema the spec documents for its operation and status: one failure per
 * ajv error, located by its instance path, naming the `x-requirement` of the schema node at fault
 * (see harness/contract/validator.ts for how it is found). The evaluation decides every
 * `x-requirement` of the schema, found or not.
 */
export const matchResponseSchemas = defineRule({
  name: 'matchResponseSchemas',
  requirements: [],
  requirementsFromSpec: true,
  codes: { 'contract.schema': 'failure' },
  judge(facts: ResponseFacts, v) {
    const body = facts.response?.body;
    if (body === undefined || !body.parsed) return v.nothingToJudge();
    v.decides(...body.schemaRequirements);
    v.shows(facts.exchange);
    // every enum value the validated body carries (in any letter case) tries its response-enum cell
    if (body.validated && facts.response !== undefined) coverResponseEnums(v, facts.api, facts.operation, facts.response.key, body.json);
    for (const error of body.schemaErrors) {
      const pointer = error.instancePath;
      v.find('contract.schema', {
        title: `${facts.operation} → ${facts.status}: response body ${pointer || '(root)'} ${error.message ?? 'does not match the spec'}`,
        expected: `${error.keyword} ${cut(JSON.stringify(error.params))}`,
        actual: schemaActual(error),
        pointer,
        requirements: error.requirements,
      });
    }
  },
});

/**
 * Every response, as the specs document it: its status; unless a server error, its body as JSON
 * and its schema. Applied by harness/run/check-run.ts to every exchange a check observes.
 */
export const conformToContract = defineRule({
  name: 'conformToContract',
  requirements: [],
  codes: {},
  uses: [answerDocumentedStatuses, answerJsonBodies, matchResponseSchemas],
  judge(facts: ResponseFacts, v) {
    v.apply(answerDocumentedStatuses, facts);
    if (facts.status >= 500) return;
    v.apply(answerJsonBodies, facts);
    v.apply(matchResponseSchemas, facts);
  },
});
