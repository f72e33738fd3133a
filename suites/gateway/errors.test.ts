/**
 * Error answers: gateway-api.md "Errors" ("Two body shapes occur: `{success: false, message}` and
 * `{error: <CODE>, message}`"; "400 | invalid body …"; "422 | validation failure; message points
 * to the field"), "Endpoints" ("All bodies are JSON.").
 *
 * Which of 400 and 422 a route answers for an invalid body is not stated: both pass, any other
 * 4xx warns, a 2xx (accepted) or a 5xx fails (rules/gateway/errors.ts refuseInvalidRequestBody). The rules
 * of each field belong to its route's section (pix-charges, card): this file judges the answers.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { answerErrorsInDocumentedShape, carryPinnedErrorCode, isFirmBodyRule, refuseInvalidRequestBody } from '../../harness/rules/gateway/errors.js';
import { refuseInvalidCredentials, requireBearerOnEveryRoute } from '../../harness/rules/gateway/auth.js';
import { loadSpec } from '../../harness/contract/spec.js';
import { contractOverrides, singleRuleMutants } from '../../generators/index.js';
import type { Mutant } from '../../generators/index.js';
import { cardChargeBody, isRecord, pixChargeBody, uniqueTag } from './support.js';

const AREA = 'Errors';

const MALFORMED = ['{"amountInCents": 1000,', '{amountInCents: 1000}', "{'a': 1}", '{"a":1}}', '\u0000\u0001'];

check(
  'malformed JSON bodies are refused with 400/422 in a documented error shape, never a 5xx',
  {
    id: 'gateway.errors.malformed-json',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidRequestBody],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    // "All bodies are JSON"; "400 | invalid body"
    const routes: [string, (opts: { rawBody: string; contentType: string }) => Promise<ApiResponse>][] = [
      ['POST /api/v1/pix/in/qrcode', (opts) => gw.createPixCharge(undefined, opts)],
      ['POST /api/v1/pix/out/pixkey', (opts) => gw.createTransfer(undefined, opts)],
      ['POST /api/v1/card', (opts) => gw.createCardCharge(undefined, opts)],
      ['POST /api/v1/webhook', (opts) => gw.createWebhook(undefined, opts)],
    ];
    // invalid bodies a correct target refuses: independent, sent together (up to --concurrency) and
    // judged in body × route order
    const calls = MALFORMED.flatMap((raw) => routes.map(([label, send]) => ({ raw, label, send })));
    const answers = await t.all(calls, (c) => c.send({ rawBody: c.raw, contentType: 'application/json' }));
    for (const [k, { raw, label }] of calls.entries()) {
      t.judge(refuseInvalidRequestBody, { answer: answers[k] as ApiResponse, what: `${label} with ${JSON.stringify(raw)}` });
    }
  },
);

check(
  'bodies that are not a JSON object (array, null, string, number, empty) are refused, never a 5xx',
  {
    id: 'gateway.errors.non-object-body',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidRequestBody],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // invalid bodies a correct target refuses: independent, sent together (up to --concurrency) and
    // judged afterwards in the order listed
    const probes: { what: string; field?: string; send: () => Promise<ApiResponse> }[] = ['[]', 'null', '"text"', '42', ''].map((raw) => ({
      what: `body ${JSON.stringify(raw)}`,
      send: () => gw.createPixCharge(undefined, { rawBody: raw, contentType: 'application/json' }),
    }));
    // "customer | object | yes"
    probes.push({ what: 'customer "not-an-object"', field: 'customer', send: () => gw.createPixCharge({ ...pixChargeBody(), customer: 'not-an-object' }) });
    const answers = await t.all(probes, (p) => p.send());
    for (const [k, p] of probes.entries()) t.judge(refuseInvalidRequestBody, { answer: answers[k] as ApiResponse, what: p.what, ...(p.field !== undefined ? { field: p.field } : {}) });
  },
);

/** PIX charge mutants whose invalidity the contract states firmly (rules/gateway/errors.ts isFirmBodyRule). */
const pixRuleAllowed = (rule: string): boolean => isFirmBodyRule('pix', rule);

/**
 * Card mutants whose invalidity the contract states firmly, but not the billing address: "without it
 * the charge is refused before reaching the issuer" makes a refused charge the answer there, which the
 * card section judges.
 */
const cardRuleAllowed = (rule: string): boolean => isFirmBodyRule('card', rule) && !/:customer\.billingAddress(\.|$)/.test(rule);

/** The last path segment a message would name (`customer.document` → `document`). */
function fieldOf(m: Mutant): string {
  return m.path || m.rule.split(':')[1] || '';
}

check(
  'PIX charge bodies breaking one documented rule (missing field, wrong type, unknown enum, below minimum, too long) are refused',
  {
    id: 'gateway.errors.pix-charge-mutants',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidRequestBody],
    severity: 'critical',
  },
  async (t) => {
    const doc = await loadSpec('gateway');
    const mutants = singleRuleMutants({ $ref: '#/components/schemas/PixChargeRequest' }, { root: doc, overrides: contractOverrides('gateway.pixCharge'), rules: pixRuleAllowed });
    await t.property('single-rule mutants', mutants, async (m, it) => {
      // never let a generated postbackUrl make the target call out
      const body = isRecord(m.body) && m.rule !== 'wrong-type:postbackUrl' ? { ...m.body, postbackUrl: undefined } : m.body;
      const r = await it.gateway().createPixCharge(body);
      it.judge(refuseInvalidRequestBody, { answer: r, what: m.rule, field: fieldOf(m) });
    }, { numRuns: 12 });
  },
);

check(
  'card bodies breaking one documented rule are refused and never charged',
  {
    id: 'gateway.errors.card-mutants',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidRequestBody],
    severity: 'critical',
  },
  async (t) => {
    const doc = await loadSpec('gateway');
    const mutants = singleRuleMutants({ $ref: '#/components/schemas/CardChargeRequest' }, { root: doc, overrides: contractOverrides('gateway.card'), rules: cardRuleAllowed });
    await t.property('single-rule mutants', mutants, async (m, it) => {
      const body = isRecord(m.body) && m.rule !== 'wrong-type:postbackUrl' ? { ...m.body, postbackUrl: undefined } : m.body;
      const r = await it.gateway().createCardCharge(body);
      // a refused charge warns (card answers are "Usually synchronous (approved or refused)");
      // "also card request with BRL or without currency" is a fixed 400
      it.judge(refuseInvalidRequestBody, { answer: r, what: m.rule, field: fieldOf(m), card: true, exactly400: m.rule === 'missing-required:currency' });
    }, { numRuns: 12 });
  },
);

check(
  'unknown enum values (documentType, currency) are refused with a documented error shape',
  {
    id: 'gateway.errors.unknown-enum',
    api: 'gateway',
    area: AREA,
    rules: [refuseInvalidRequestBody],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    const values = fc.sample(fc.constantFrom('rg', 'passport', 'CPF', 'cnpj ', 'ssn'), { numRuns: 3, seed: t.settings.seed });
    // invalid bodies a correct target refuses (and a refused card charge moves nothing): independent,
    // sent together (up to --concurrency) and judged afterwards in the order listed
    const probes: { what: string; field: string; card?: boolean; send: () => Promise<ApiResponse> }[] = values.map((documentType) => ({
      what: `PIX documentType ${JSON.stringify(documentType)}`,
      field: 'documentType',
      send: () => {
        const pix = pixChargeBody();
        return gw.createPixCharge({ ...pix, customer: { ...pix.customer, documentType } });
      },
    }));
    probes.push(
      {
        what: 'card documentType "passport"',
        field: 'documentType',
        card: true,
        send: () => {
          const card = cardChargeBody();
          return gw.createCardCharge({ ...card, customer: { ...card.customer, documentType: 'passport' } });
        },
      },
      { what: 'card currency "XYZ"', field: 'currency', card: true, send: () => gw.createCardCharge({ ...cardChargeBody(), currency: 'XYZ' }) },
    );
    const answers = await t.all(probes, (p) => p.send());
    for (const [k, p] of probes.entries()) t.judge(refuseInvalidRequestBody, { answer: answers[k] as ApiResponse, what: p.what, field: p.field, card: p.card === true });
  },
);

check(
  'error answers of every kind (401, 400/422, 404) carry one of the two documented body shapes',
  {
    id: 'gateway.errors.shapes',
    api: 'gateway',
    area: AREA,
    rules: [requireBearerOnEveryRoute, refuseInvalidCredentials, refuseInvalidRequestBody, carryPinnedErrorCode, answerErrorsInDocumentedShape],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    type Probe = { send: () => Promise<ApiResponse>; judge: (r: ApiResponse) => void };
    const probes: Probe[] = [
      // 401 ("token missing"): a 401 body may have any shape (it comes before any route)
      { send: () => gw.send({ method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance', auth: 'none' }), judge: (r) => t.judge(requireBearerOnEveryRoute, { answer: r, token: 'missing', label: 'GET /api/v1/balance without a token' }) },
      // 400/422 (invalid body)
      { send: () => gw.createPixCharge({ ...pixChargeBody(), amountInCents: 1 }), judge: (r) => t.judge(refuseInvalidRequestBody, { answer: r, what: 'a PIX charge of 1 cent', field: 'amountInCents' }) },
      // 404 with its pinned code ("404 body {error: NOT_FOUND, message}")
      {
        send: () => gw.getPixCharge(uniqueTag('none')),
        judge: (r) => {
          t.judge(carryPinnedErrorCode, { answer: r, pin: 'charge-lookup' });
          t.judge(answerErrorsInDocumentedShape, r);
        },
      },
      // 404 of routes whose body is not pinned: one of the two shapes (their status is their route's)
      { send: () => gw.getTransaction(uniqueTag('none')), judge: (r) => t.judge(answerErrorsInDocumentedShape, r) },
      { send: () => gw.payPixCharge(randomUUID()), judge: (r) => t.judge(answerErrorsInDocumentedShape, r) },
    ];
    // 401 at POST /api/auth ("invalid credentials")
    const pair = t.target.gateway?.sandbox;
    if (pair) probes.push({ send: () => gw.auth({ clientId: pair.clientId, clientSecret: `wrong-${randomUUID()}` }), judge: (r) => t.judge(refuseInvalidCredentials, { answer: r, label: 'a wrong secret' }) });
    // independent error answers: sent together (up to --concurrency), judged in the order listed
    const answers = await t.all(probes, (p) => p.send());
    for (const [k, p] of probes.entries()) {
      const r = answers[k] as ApiResponse;
      p.judge(r);
      if (r.status === 401) t.run.note(`HTTP 401 body: ${JSON.stringify(r.json ?? r.exchange.response?.body ?? '').slice(0, 120)}`);
      if (isRecord(r.json) && typeof r.json.error === 'string' && !['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'].includes(r.json.error)) {
        // "The full list of codes: not shown": another code is an observation
        t.run.note(`HTTP ${r.status} carries error code ${JSON.stringify(r.json.error)}`);
      }
    }
  },
);
