/**
 * Error answers: gateway-api.md "Errors" ("Two body shapes occur: `{success: false, message}` and
 * `{error: <CODE>, message}`"; "400 | invalid body …"; "422 | validation failure; message points
 * to the field"), "Endpoints" ("All bodies are JSON.").
 *
 * Which of 400 and 422 a route answers for an invalid body is not stated: both pass, any other
 * 4xx warns, a 2xx (accepted) or a 5xx fails (rules/gateway/errors.ts expectInvalidBodyRejected).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import { expectStatus } from '../../harness/rules/status.js';
import { expectCardRequestNotCharged, expectInvalidBodyRejected, isFirmBodyRule, verifyErrorBody, verifyMessageNamesField } from '../../harness/rules/gateway/errors.js';
import { loadSpec } from '../../harness/contract/spec.js';
import { contractOverrides, singleRuleMutants } from '../../generators/index.js';
import type { Mutant } from '../../generators/index.js';
import { cardChargeBody, isRecord, pixChargeBody, uniqueTag } from './support.js';

const AREA = 'Errors';

/** Both documented shapes (rules/gateway/errors.ts verifyErrorBody: 4xx only, not 401/429). */
function verifyErrorShape(it: RunTools, r: ApiResponse, requirements: readonly RequirementId[] = ['GW-ERR-SHAPES']): void {
  it.run.record(verifyErrorBody(r.exchange, { requirements }));
}

/** "422 | validation failure; message points to the field": a warning when the field is not named. */
function verify422NamesField(it: RunTools, r: ApiResponse, field: string): void {
  it.run.record(verifyMessageNamesField(r.exchange, field, { requirements: ['GW-ERR-422-FIELD'] }));
}

const MALFORMED = ['{"amountInCents": 1000,', '{amountInCents: 1000}', "{'a': 1}", '{"a":1}}', '\u0000\u0001'];

check(
  'malformed JSON bodies are refused with 400/422 in a documented error shape, never a 5xx',
  {
    id: 'gateway.errors.malformed-json',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-ERR-400-MEANING', 'GW-ERR-SHAPES', 'GW-JSON-BODIES', 'GW-PIXIN-CREATE-400', 'GW-PIXOUT-CREATE-400'],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    // "All bodies are JSON"; "400 | invalid body"
    const routes: [string, RequirementId, (opts: { rawBody: string; contentType: string }) => Promise<ApiResponse>][] = [
      ['POST /api/v1/pix/in/qrcode', 'GW-PIXIN-CREATE-400', (opts) => gw.createPixCharge(undefined, opts)],
      ['POST /api/v1/pix/out/pixkey', 'GW-PIXOUT-CREATE-400', (opts) => gw.createTransfer(undefined, opts)],
      ['POST /api/v1/card', 'GW-ERR-400-MEANING', (opts) => gw.createCardCharge(undefined, opts)],
      ['POST /api/v1/webhook', 'GW-ERR-400-MEANING', (opts) => gw.createWebhook(undefined, opts)],
    ];
    // invalid bodies a correct target refuses: independent, sent together (up to --concurrency) and
    // judged in body × route order
    const calls = MALFORMED.flatMap((raw) => routes.map(([label, requirement, send]) => ({ raw, label, requirement, send })));
    const answers = await t.all(calls, (c) => c.send({ rawBody: c.raw, contentType: 'application/json' }));
    for (const [k, { raw, label, requirement }] of calls.entries()) {
      const r = answers[k] as ApiResponse;
      t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: [requirement, 'GW-ERR-400-MEANING'], subject: `${label} with ${JSON.stringify(raw)}` }));
      verifyErrorShape(t, r);
    }
  },
);

check(
  'bodies that are not a JSON object (array, null, string, number, empty) are refused, never a 5xx',
  {
    id: 'gateway.errors.non-object-body',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-ERR-400-MEANING', 'GW-ERR-SHAPES', 'GW-PIXIN-CREATE-400', 'GW-PIXIN-CUSTOMER-OBJECT'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // invalid bodies a correct target refuses: independent, sent together (up to --concurrency) and
    // judged afterwards in the order listed
    const probes: { send: () => Promise<ApiResponse>; judge: (r: ApiResponse) => void }[] = ['[]', 'null', '"text"', '42', ''].map((raw) => ({
      send: () => gw.createPixCharge(undefined, { rawBody: raw, contentType: 'application/json' }),
      judge: (r) => {
        t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXIN-CREATE-400', 'GW-ERR-400-MEANING'], subject: `body ${JSON.stringify(raw)}` }));
        verifyErrorShape(t, r);
      },
    }));
    // "customer | object | yes"
    probes.push({
      send: () => gw.createPixCharge({ ...pixChargeBody(), customer: 'not-an-object' }),
      judge: (r) => {
        t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXIN-CUSTOMER-OBJECT', 'GW-PIXIN-CREATE-400'] }));
        verifyErrorShape(t, r);
        verify422NamesField(t, r, 'customer');
      },
    });
    const answers = await t.all(probes, (p) => p.send());
    for (const [k, p] of probes.entries()) p.judge(answers[k] as ApiResponse);
  },
);

/** PIX charge mutants whose invalidity the contract states firmly (rules/gateway/errors.ts isFirmBodyRule). */
const pixRuleAllowed = (rule: string): boolean => isFirmBodyRule('pix', rule);

/** Card mutants whose invalidity the contract states firmly. */
const cardRuleAllowed = (rule: string): boolean => isFirmBodyRule('card', rule);

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
    requirements: [
      'GW-PIXIN-CREATE-400',
      'GW-ERR-400-MEANING',
      'GW-ERR-SHAPES',
      'GW-ERR-422-FIELD',
      'GW-PIXIN-AMOUNT-INT',
      'GW-PIXIN-AMOUNT-MIN',
      'GW-PIXIN-CUSTOMER-OBJECT',
      'GW-PIXIN-CUSTOMER-REQUIRED',
      'GW-PIXIN-DOCTYPE-ENUM',
      'GW-PIXIN-ITEM-FIELDS',
      'GW-PIXIN-DESC-MAX',
      'GW-TRACK-ACCEPTED',
      'GW-ADDR-STRINGS',
    ],
    severity: 'critical',
  },
  async (t) => {
    const doc = await loadSpec('gateway');
    const mutants = singleRuleMutants({ $ref: '#/components/schemas/PixChargeRequest' }, { root: doc, overrides: contractOverrides('gateway.pixCharge'), rules: pixRuleAllowed });
    await t.property('single-rule mutants', mutants, async (m, it) => {
      // never let a generated postbackUrl make the target call out
      const body = isRecord(m.body) && m.rule !== 'wrong-type:postbackUrl' ? { ...m.body, postbackUrl: undefined } : m.body;
      const r = await it.gateway().createPixCharge(body);
      it.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXIN-CREATE-400', 'GW-ERR-400-MEANING'], subject: m.rule }));
      verifyErrorShape(it, r);
      verify422NamesField(it, r, fieldOf(m));
    }, { numRuns: 12 });
  },
);

check(
  'card bodies breaking one documented rule are refused and never charged',
  {
    id: 'gateway.errors.card-mutants',
    api: 'gateway',
    area: AREA,
    requirements: [
      'GW-ERR-400-MEANING',
      'GW-ERR-SHAPES',
      'GW-ERR-422-FIELD',
      'GW-CARD-AMOUNT-INT',
      'GW-CARD-AMOUNT-MIN',
      'GW-CARD-CURRENCY',
      'GW-CARD-CURRENCY-BRL-400',
      'GW-CARD-TOKEN-REQUIRED',
      'GW-CARD-LAST4-REQUIRED',
      'GW-CARD-BRAND-REQUIRED',
      'GW-CARD-HOLDER-REQUIRED',
      'GW-CARD-INSTALLMENTS-MIN',
      'GW-CARD-CUSTOMER-OBJECT',
      'GW-CARD-CUSTOMER-REQUIRED',
      'GW-CARD-DOCTYPE-ENUM',
      'GW-CARD-BILLING-REQUIRED',
      'GW-TRACK-ACCEPTED',
      'GW-ADDR-STRINGS',
    ],
    severity: 'critical',
  },
  async (t) => {
    const doc = await loadSpec('gateway');
    const mutants = singleRuleMutants({ $ref: '#/components/schemas/CardChargeRequest' }, { root: doc, overrides: contractOverrides('gateway.card'), rules: cardRuleAllowed });
    await t.property('single-rule mutants', mutants, async (m, it) => {
      const body = isRecord(m.body) && m.rule !== 'wrong-type:postbackUrl' ? { ...m.body, postbackUrl: undefined } : m.body;
      const r = await it.gateway().createCardCharge(body);
      // "billingAddress required; without it the charge is refused before reaching the issuer": a
      // refused charge is as good as an error there; elsewhere it warns (rules/gateway/errors.ts).
      // "missing or BRL gives 400" is a fixed status for the currency.
      const billing = m.path.startsWith('customer.billingAddress');
      const currency = m.rule === 'missing-required:currency';
      const requirements: RequirementId[] = currency ? ['GW-CARD-CURRENCY-BRL-400'] : billing ? ['GW-CARD-BILLING-REQUIRED', 'GW-ERR-400-MEANING'] : ['GW-ERR-400-MEANING'];
      it.run.record(expectCardRequestNotCharged(r.exchange, { requirements, subject: m.rule }, billing ? 'billing-address' : 'invalid-field', { exactly400: currency }));
      verifyErrorShape(it, r);
      verify422NamesField(it, r, fieldOf(m));
    }, { numRuns: 12 });
  },
);

check(
  'unknown enum values (documentType, currency) are refused with a documented error shape',
  {
    id: 'gateway.errors.unknown-enum',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-DOCTYPE-ENUM', 'GW-CARD-DOCTYPE-ENUM', 'GW-CARD-CURRENCY', 'GW-ERR-400-MEANING', 'GW-ERR-SHAPES'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    const values = fc.sample(fc.constantFrom('rg', 'passport', 'CPF', 'cnpj ', 'ssn'), { numRuns: 3, seed: t.settings.seed });
    // invalid bodies a correct target refuses (and a refused card charge moves nothing): independent,
    // sent together (up to --concurrency) and judged afterwards in the order listed
    const probes: { send: () => Promise<ApiResponse>; judge: (r: ApiResponse) => void }[] = values.map((documentType) => ({
      send: () => {
        const pix = pixChargeBody();
        return gw.createPixCharge({ ...pix, customer: { ...pix.customer, documentType } });
      },
      judge: (r) => {
        t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXIN-DOCTYPE-ENUM', 'GW-PIXIN-CREATE-400'], subject: `PIX documentType ${JSON.stringify(documentType)}` }));
        verifyErrorShape(t, r);
        verify422NamesField(t, r, 'documentType');
      },
    }));
    probes.push(
      {
        send: () => {
          const card = cardChargeBody();
          return gw.createCardCharge({ ...card, customer: { ...card.customer, documentType: 'passport' } });
        },
        judge: (c) => {
          t.run.record(expectCardRequestNotCharged(c.exchange, { requirements: ['GW-CARD-DOCTYPE-ENUM'], subject: 'card documentType "passport"' }, 'invalid-field'));
          verifyErrorShape(t, c);
        },
      },
      {
        send: () => gw.createCardCharge({ ...cardChargeBody(), currency: 'XYZ' }),
        judge: (cur) => {
          t.run.record(expectCardRequestNotCharged(cur.exchange, { requirements: ['GW-CARD-CURRENCY'], subject: 'card currency "XYZ"' }, 'invalid-field'));
          verifyErrorShape(t, cur);
        },
      },
    );
    const answers = await t.all(probes, (p) => p.send());
    for (const [k, p] of probes.entries()) p.judge(answers[k] as ApiResponse);
  },
);

check(
  'error answers of every kind (401, 400/422, 404) carry one of the two documented body shapes',
  {
    id: 'gateway.errors.shapes',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-ERR-SHAPES', 'GW-ERR-CODES', 'GW-ANY-401-429'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    const requests: (() => Promise<ApiResponse>)[] = [];
    // 401 ("token missing")
    requests.push(() => gw.send({ method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance', auth: 'none' }));
    // 401 at POST /api/auth ("invalid credentials")
    const pair = t.target.gateway?.sandbox;
    if (pair) requests.push(() => gw.auth({ clientId: pair.clientId, clientSecret: `wrong-${randomUUID()}` }));
    // 400/422 (invalid body)
    requests.push(() => gw.createPixCharge({ ...pixChargeBody(), amountInCents: 1 }));
    // 404 (unknown resources)
    requests.push(() => gw.getTransaction(`${uniqueTag('none')}`));
    requests.push(() => gw.payPixCharge(randomUUID()));
    // independent error answers: sent together (up to --concurrency), judged in the order listed
    const answers = await t.all(requests, (send) => send());
    for (const r of answers) {
      t.run.record(expectStatus(r.exchange, '4xx', { requirements: ['GW-ANY-401-429'] }));
      // a 401 body may have any shape (it comes before any route; rules/gateway/errors.ts verifyErrorBody)
      verifyErrorShape(t, r, ['GW-ERR-SHAPES', 'GW-ERR-CODES']);
      if (r.status === 401) t.run.note(`HTTP 401 body: ${JSON.stringify(r.json ?? r.exchange.response?.body ?? '').slice(0, 120)}`);
      if (isRecord(r.json) && typeof r.json.error === 'string' && !['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'].includes(r.json.error)) {
        // "The full list of codes: not shown": another code is an observation
        t.run.note(`HTTP ${r.status} carries error code ${JSON.stringify(r.json.error)}`);
      }
    }
  },
);
