/**
 * MIGRATION ONLY: the judgements of other sections (Errors, Webhook, Events, Authentication,
 * Endpoints, Versioning) that the money-flow suites hand observations to, while those sections'
 * modules still judge with old-style functions. Each bridge is a `legacyRule` over the existing
 * function; it owns the requirement IDs until the section's own declared rule replaces it (then the
 * bridge goes and its callers name that rule).
 */
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { legacyRule } from '../rule.js';
import { expectStatus } from '../status.js';
import { expectInvalidBodyRejected, expectUnknownIdRefused, verifyErrorBody } from './errors.js';
import { judgeEventArrival, verifyWebhookId, type ArrivalObservation } from './webhooks.js';
import { verifyServedUnderVersionPrefix } from './general.js';
import type { Answer } from './fields.js';

/** Errors: "Two body shapes occur: `{success: false, message}` and `{error: <CODE>, message}`" (any 4xx but 401 and 429). */
export const answerWithDocumentedErrorShape = legacyRule('answerWithDocumentedErrorShape', ['GW-ERR-SHAPES'], (answer: Answer): Judgement => verifyErrorBody(answer.exchange, { requirements: ['GW-ERR-SHAPES'] }));

/** Endpoints: "All bodies are JSON." A body that is JSON but labelled otherwise, or odd but valid JSON text, is served or refused, never a server error. */
export const surviveOddJsonBodies = legacyRule('surviveOddJsonBodies', ['GW-JSON-BODIES'], (observation: { answer: Answer; what: string }): Judgement => expectStatus(observation.answer.exchange, ['2xx', '4xx'], { requirements: ['GW-JSON-BODIES'], subject: observation.what }));

/** Versioning: "Routes other than authentication carry the prefix `/api/v1`." */
export const serveUnderVersionPrefix = legacyRule('serveUnderVersionPrefix', ['GW-VER-PREFIX'], (exchange: Exchange): Judgement => verifyServedUnderVersionPrefix(exchange, { requirements: ['GW-VER-PREFIX'] }));

/** POST /api/v1/webhook: "Body: `url` string (required), `events` array of event names (required)": a body breaking that is refused (400/422; another 4xx warns). */
export const refuseInvalidWebhookBody = legacyRule('refuseInvalidWebhookBody', ['GW-WH-CREATE-REQUIRED'], (observation: { answer: Answer; what: string }): Judgement => expectInvalidBodyRejected(observation.answer.exchange, { requirements: ['GW-WH-CREATE-REQUIRED'], subject: observation.what }));

/** Errors: "400 | invalid body": a card body that is no JSON object of fields is refused (400/422; another 4xx warns). */
export const refuseMalformedCardBody = legacyRule('refuseMalformedCardBody', ['GW-ERR-400-MEANING'], (observation: { answer: Answer; what: string }): Judgement => expectInvalidBodyRejected(observation.answer.exchange, { requirements: ['GW-ERR-400-MEANING'], subject: observation.what }));

/** POST /api/v1/webhook: "200: `success`, `data` (Webhook, with signatureSecret)", "id | integer" (any 2xx here). */
export const answerWebhookCreated = legacyRule('answerWebhookCreated', ['GW-WH-CREATE-200', 'GW-WH-ID-INTEGER'], (answer: Answer): Judgement => {
  const status = expectStatus(answer.exchange, '2xx', { requirements: ['GW-WH-CREATE-200'] });
  if (status.findings.length > 0 || answer.status < 200 || answer.status > 299) return status;
  const data = typeof answer.json === 'object' && answer.json !== null ? (answer.json as { data?: { id?: unknown } }).data : undefined;
  const id = verifyWebhookId(data?.id, { exchanges: [answer.exchange] });
  return { requirements: [...status.requirements, ...id.requirements], findings: id.findings };
});

/** DELETE /api/v1/webhook/{id}: "Removes a webhook." A webhook already removed may answer 404 or an idempotent 2xx; an id of no webhook answers 404. */
export const removeWebhook = legacyRule('removeWebhook', ['GW-WH-DELETE'], (observation: { answer: Answer; webhook: 'active' | 'deleted' } | { answer: Answer; unknownId: string; what: string }): Judgement => {
  const ctx = { requirements: ['GW-WH-DELETE'] as RequirementId[] };
  if ('unknownId' in observation) return expectUnknownIdRefused(observation.answer.exchange, observation.unknownId, { ...ctx, subject: observation.what }, { body: 'any' });
  return expectStatus(observation.answer.exchange, observation.webhook === 'deleted' ? ['2xx', 404] : '2xx', ctx);
});

/** Authentication: a request without a valid Bearer token answers 401; RFC 7235 spellings of a valid one (scheme case, extra space) get 2xx or 401. */
export const refuseWithoutValidBearer = legacyRule('refuseWithoutValidBearer', ['GW-AUTH-401-MISSING', 'GW-AUTH-401-INVALID-TOKEN', 'GW-AUTH-BEARER-EVERY-ROUTE'], (observation: { answer: Answer; what: string; lenient: boolean }): Judgement =>
  observation.lenient
    ? expectStatus(observation.answer.exchange, ['2xx', 401], { requirements: ['GW-AUTH-BEARER-EVERY-ROUTE'], subject: observation.what })
    : expectStatus(observation.answer.exchange, 401, { requirements: ['GW-AUTH-401-MISSING', 'GW-AUTH-401-INVALID-TOKEN'], subject: observation.what }),
);

/** Events: the event reached the destination (a webhook subscribed to it, or the postbackUrl) within the suite's wait. */
export const awaitEventArrival = legacyRule('awaitEventArrival', ['GW-EVT-DELIVERY-SUBSCRIBED', 'GW-EVT-POSTBACK', 'GW-EVT-TRANSACTION-PAID', 'GW-EVT-TRANSFER-COMPLETED', 'GW-SANDBOX-SIM-EVENTS'], (observation: ArrivalObservation): Judgement => judgeEventArrival(observation));
