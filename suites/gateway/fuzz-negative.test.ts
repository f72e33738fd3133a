/**
 * Negative fuzzing of the gateway, derived from the request-body schemas (specs/gateway.openapi.yaml)
 * with generators/bodies.ts `singleRuleMutants`: bodies that break exactly ONE documented rule, plus
 * malformed/empty/huge/odd bodies, garbage path ids and Authorization variants.
 *
 * Contract (gateway-api.md): "400 | invalid body"; "422 | validation failure"; "Two body shapes occur:
 * {success: false, message} and {error: <CODE>, message}"; "card … currency missing or BRL gives 400";
 * "raw card number, CVV or expiry are never accepted"; "404 resource not found"; "401 token missing,
 * invalid or expired". 400 and 422 both pass for an invalid body (the text gives both); another 4xx is a
 * warning; a 2xx or 5xx fails.
 *
 * Fairness: only rules the text states firmly are mutated. Left out: URI format of postbackUrl (only
 * "string (URI)"; catalogue ambiguity), the ctoken_ pattern (contradicted by "any token is approved"),
 * splits (the e-mail of "another company on the platform" cannot be generated), shippingAddress (field
 * list not shown), unknown event names on webhooks (hidden event names exist), extra properties (not
 * forbidden). A card customer without a complete billing address may also be a 2xx charge `refused`.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import { expectStatus } from '../../harness/rules/index.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import {
  expectCardRequestNotCharged,
  expectInvalidBodyRejected,
  expectUnknownIdRefused,
  idShape,
  isFirmBodyRule,
  verifyErrorBody,
  type CardViolation,
  type MutatedOperation,
} from '../../harness/rules/gateway/errors.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { dataOf } from '../../harness/core/json.js';
import { loadSpec } from '../../harness/contract/spec.js';
import { contractOverrides, listRules, singleRuleMutants, validBody } from '../../generators/index.js';
import type { Mutant, Overrides } from '../../generators/index.js';

const spec = await loadSpec('gateway');

interface Refusal {
  requirements: RequirementId[];
  /** card bodies: which sentence makes the body invalid (a refused charge passes or warns accordingly) */
  card?: CardViolation;
  /** exactly 400 ("currency missing or BRL gives 400") */
  exact400?: boolean;
}

/**
 * The invalid body is refused (rules/gateway/errors.ts: 400/422 pass, another 4xx warns, 2xx and 5xx
 * fail; a card body may also be answered with a refused charge) and the error body has a documented shape.
 */
function judgeRejected(it: RunTools, res: ApiResponse, what: string, j: Refusal): void {
  const ctx = { requirements: j.requirements, subject: what };
  if (j.card) it.run.record(expectCardRequestNotCharged(res.exchange, ctx, j.card, { exactly400: j.exact400 ?? false }));
  else it.run.record(expectInvalidBodyRejected(res.exchange, ctx, { exactly400: j.exact400 ?? false }));
  it.run.record(verifyErrorBody(res.exchange, { requirements: ['GW-ERR-SHAPES'] }));
}

function requirementsFor(op: MutatedOperation, m: Mutant): RequirementId[] {
  const p = m.path;
  if (op === 'pix') {
    if (p === 'amountInCents') return m.kind === 'below-minimum' ? ['GW-PIXIN-AMOUNT-MIN'] : ['GW-PIXIN-AMOUNT-INT'];
    if (p === 'description') return ['GW-PIXIN-DESC-MAX'];
    if (p.startsWith('customer.document')) return [p === 'customer.documentType' ? 'GW-PIXIN-DOCTYPE-ENUM' : 'GW-PIXIN-DOC-VALID'];
    if (p.startsWith('customer')) return ['GW-PIXIN-CUSTOMER-REQUIRED', 'GW-PIXIN-CUSTOMER-OBJECT'];
    if (p.startsWith('items')) return ['GW-PIXIN-ITEM-FIELDS'];
    if (p.startsWith('trackingParameters')) return ['GW-TRACK-ACCEPTED'];
    return ['GW-PIXIN-CREATE-400'];
  }
  if (op === 'transfer') {
    if (p === 'amount') return m.kind === 'below-minimum' ? ['GW-PIXOUT-AMOUNT-MIN'] : ['GW-PIXOUT-AMOUNT-INT'];
    if (p === 'currency') return ['GW-PIXOUT-CURRENCY-BRL'];
    if (p === 'description') return ['GW-PIXOUT-DESC-MAX'];
    if (p === 'pixKey') return ['GW-PIXOUT-KEY-INVALID-REJECTED'];
    return ['GW-PIXOUT-CREATE-400'];
  }
  if (op === 'card') {
    if (p === 'amountInCents') return m.kind === 'below-minimum' ? ['GW-CARD-AMOUNT-MIN'] : ['GW-CARD-AMOUNT-INT'];
    if (p === 'currency') return ['GW-CARD-CURRENCY', 'GW-CARD-CURRENCY-BRL-400'];
    if (p === 'card.installments') return ['GW-CARD-INSTALLMENTS-MIN'];
    if (p === 'card.token') return ['GW-CARD-TOKEN-REQUIRED'];
    if (p === 'card.last4') return ['GW-CARD-LAST4-REQUIRED'];
    if (p === 'card.brand') return ['GW-CARD-BRAND-REQUIRED'];
    if (p === 'card.holderName') return ['GW-CARD-HOLDER-REQUIRED'];
    if (p.startsWith('customer.billingAddress')) return ['GW-CARD-BILLING-REQUIRED'];
    if (p === 'customer.documentType') return ['GW-CARD-DOCTYPE-ENUM'];
    if (p.startsWith('customer')) return ['GW-CARD-CUSTOMER-REQUIRED'];
    if (p.startsWith('card.number') || p.startsWith('card.cvv') || p.startsWith('card.expiry')) return ['GW-CARD-RAW-DATA-REJECTED'];
    return ['GW-ERR-400-MEANING'];
  }
  return ['GW-WH-CREATE-REQUIRED'];
}

interface BodyOperation {
  op: MutatedOperation;
  schema: string;
  overrides: Overrides;
  send: (it: RunTools, body: unknown) => Promise<ApiResponse>;
  /** extra hand-written single-rule mutants the schema cannot express */
  extra?: fc.Arbitrary<Mutant>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const cardValid = validBody(ref('CardChargeRequest'), { root: spec, overrides: contractOverrides('gateway.card') });
/** "raw card number, CVV or expiry are never accepted": a valid card body plus one raw-card field. */
const rawCard: fc.Arbitrary<Mutant> = fc
  .tuple(cardValid, fc.constantFrom<[string, unknown]>(['number', '4242424242424242'], ['cvv', '123'], ['expiry', '12/30'], ['cardNumber', '4111111111111111']))
  .map(([body, [field, value]]) => {
    const b = structuredClone(body) as { card: Record<string, unknown> };
    b.card[field] = value;
    return { rule: `raw-card:card.${field}`, kind: 'unexpected-property', path: `card.${field}`, requirements: [], body: b };
  });
/** "missing or BRL gives 400" */
const brlCard: fc.Arbitrary<Mutant> = cardValid.map((body) => ({ rule: 'bad-enum:currency=BRL', kind: 'bad-enum', path: 'currency', requirements: [], body: { ...(body as object), currency: 'BRL' } }));
/** a PIX key matching none of the five formats (GW-PIXOUT-KEY-INVALID-REJECTED, firm case only) */
const badKey: fc.Arbitrary<Mutant> = fc
  .tuple(validBody(ref('PixTransferRequest'), { root: spec, overrides: contractOverrides('gateway.pixTransfer') }), fc.constantFrom('not a pix key', 'chave inválida!', 'http://example.com'))
  .map(([body, key]) => ({ rule: 'bad-key:pixKey', kind: 'bad-pattern', path: 'pixKey', requirements: [], body: { ...(body as object), pixKey: key } }));

const OPERATIONS: BodyOperation[] = [
  { op: 'pix', schema: 'PixChargeRequest', overrides: contractOverrides('gateway.pixCharge'), send: (it, b) => it.gateway().createPixCharge(b) },
  { op: 'transfer', schema: 'PixTransferRequest', overrides: contractOverrides('gateway.pixTransfer'), send: (it, b) => it.gateway().createTransfer(b, { idempotencyKey: randomUUID() }), extra: badKey },
  { op: 'card', schema: 'CardChargeRequest', overrides: contractOverrides('gateway.card'), send: (it, b) => it.gateway().createCardCharge(b), extra: fc.oneof(rawCard, brlCard) },
  { op: 'webhook', schema: 'WebhookCreateRequest', overrides: contractOverrides('gateway.webhook'), send: (it, b) => it.gateway().createWebhook(b) },
];

for (const o of OPERATIONS) {
  check(
    `gateway: ${o.schema} bodies breaking one documented rule are rejected with a 4xx`,
    { id: `gateway.fuzz.negative.${o.op}`, api: 'gateway', area: 'Negative fuzzing', requirements: ['GW-ERR-SHAPES', 'GW-ERR-400-MEANING'], timeoutMs: 180_000 },
    async (t) => {
      // every firm rule once per iteration (a tuple), so no rule depends on sampling luck; 4 iterations.
      // Not shrunk: the finding names the one broken rule and carries the exact body (shrinking a tuple of
      // ~40 requests would resend them all for every candidate).
      const options = { root: spec, overrides: o.overrides };
      const perRule = listRules(ref(o.schema), options).filter((rule) => isFirmBodyRule(o.op, rule)).map((rule) => singleRuleMutants(ref(o.schema), { ...options, rules: [rule] }));
      const arb = fc.noShrink(fc.tuple(...perRule, ...(o.extra ? [o.extra, o.extra] : [])));
      await t.property(
        `every firm rule of ${o.schema} broken alone`,
        arb,
        async (mutants, it) => {
          // the mutants are independent requests: up to `it.parallel` in flight at once (--concurrency in
          // the concurrent phase, which only decides a pass; one at a time in the run that is the
          // verdict), judged in order and stopping at the first failure
          const width = Math.max(1, Math.floor(it.parallel));
          for (let at = 0; at < mutants.length && it.run.failures.length === 0; at += width) {
            const chunk = mutants.slice(at, at + width);
            const answers = await Promise.all(chunk.map((m) => o.send(it, m.body)));
            let failed: ApiResponse | undefined;
            for (const [k, m] of chunk.entries()) {
              const res = answers[k] as ApiResponse;
              const j: Refusal = { requirements: requirementsFor(o.op, m) };
              if (o.op === 'card') j.card = m.path.startsWith('customer.billingAddress') ? 'billing-address' : m.rule.startsWith('raw-card:') ? 'raw-card-data' : 'invalid-field';
              if (o.op === 'card' && (m.rule === 'missing-required:currency' || m.rule === 'bad-enum:currency=BRL')) j.exact400 = true;
              judgeRejected(it, res, m.rule, j);
              if (it.run.failures.length) {
                failed = res;
                break; // the rest would only slow shrinking down
              }
            }
            // a webhook registered by a faulty target must not keep receiving this run's events (the
            // failing answer's stays, as its finding shows it)
            for (const res of answers) {
              if (res === failed) continue;
              const id = dataOf(res.json)?.id;
              if (o.op === 'webhook' && res.status >= 200 && res.status <= 299 && (typeof id === 'number' || typeof id === 'string')) await it.gateway().deleteWebhook(id);
            }
          }
        },
        { numRuns: 4 },
      );
    },
  );
}

const HUGE = 256 * 1024;

check(
  'gateway: malformed, empty, huge, mistyped and odd-Unicode bodies never cause a server error',
  { id: 'gateway.fuzz.negative.malformed', api: 'gateway', area: 'Negative fuzzing', requirements: ['GW-PIXIN-CREATE-400', 'GW-PIXOUT-CREATE-400', 'GW-ERR-400-MEANING', 'GW-JSON-BODIES'], timeoutMs: 180_000 },
  async (t) => {
    const gw = t.gateway();
    const valid = { amountInCents: 1000, customer: { documentType: 'cpf', document: '52998224725' } };
    const transfer = { amount: 100, pixKey: 'payee@example.com' };
    const posts: Array<{ name: string; send: (opts: { rawBody: string; contentType?: string }) => Promise<ApiResponse>; json: object; requirement: RequirementId }> = [
      { name: 'PIX charge', send: (opts) => gw.createPixCharge(undefined, opts), json: valid, requirement: 'GW-PIXIN-CREATE-400' },
      { name: 'transfer', send: (opts) => gw.createTransfer(undefined, { ...opts, idempotencyKey: randomUUID() }), json: transfer, requirement: 'GW-PIXOUT-CREATE-400' },
      { name: 'card', send: (opts) => gw.createCardCharge(undefined, opts), json: { amountInCents: 1000, currency: 'USD' }, requirement: 'GW-ERR-400-MEANING' },
      { name: 'webhook', send: (opts) => gw.createWebhook(undefined, opts), json: { url: 'https://example.com/h' }, requirement: 'GW-WH-CREATE-REQUIRED' },
    ];
    // Every request below is independent (an invalid body a correct target refuses, or a fresh charge or
    // transfer of its own): all are sent together (up to --concurrency) and judged afterwards, in the
    // order they are listed, so what is sent and judged never depends on the concurrency.
    const probes: Array<{ send: () => Promise<ApiResponse>; judge: (res: ApiResponse) => void }> = [];
    for (const p of posts) {
      const requirements: RequirementId[] = [p.requirement, 'GW-ERR-400-MEANING'];
      // malformed JSON, empty body, JSON that is not an object: an invalid body, 4xx (400/422 pass, another 4xx warns)
      for (const raw of ['{"amountInCents": 100,', '{', '', 'null', '[]', '"text"', '{"a":1}}', '\u0000']) {
        probes.push({
          send: () => p.send({ rawBody: raw, contentType: 'application/json' }),
          judge: (res) => judgeRejected(t, res, `${p.name} body ${JSON.stringify(raw)}`, { requirements }),
        });
      }
      // a valid JSON body with a wrong content type: 2xx or 4xx (not shown), never 5xx
      probes.push({
        send: () => p.send({ rawBody: JSON.stringify(p.json), contentType: 'text/plain' }),
        judge: (typed) => t.run.record(expectStatus(typed.exchange, ['2xx', '4xx'], { requirements: ['GW-JSON-BODIES'] })),
      });
    }
    // huge bodies (256 KiB description, over the 140-character limit): 4xx, never 5xx
    const huge = 'x'.repeat(HUGE);
    probes.push(
      {
        send: () => gw.createPixCharge({ ...valid, description: huge }),
        judge: (res) => judgeRejected(t, res, 'PIX charge with a 256 KiB description', { requirements: ['GW-PIXIN-DESC-MAX', 'GW-PIXIN-CREATE-400'] }),
      },
      {
        send: () => gw.createTransfer({ ...transfer, description: huge }),
        judge: (res) => judgeRejected(t, res, 'transfer with a 256 KiB description', { requirements: ['GW-PIXOUT-DESC-MAX', 'GW-PIXOUT-CREATE-400'] }),
      },
    );
    // odd Unicode inside the limits (RTL mark, combining marks, emoji, BOM): accepted or rejected, never 5xx
    for (const text of ['\u202Eevil\u202C', 'e\u0301\u0301\u0301', '😀👍🏽', '\uFEFFbom', 'ｆｕｌｌ　ｗｉｄｔｈ']) {
      probes.push({
        send: () => gw.createPixCharge({ ...valid, description: text, customer: { ...valid.customer, name: text } }),
        judge: (res) => t.run.record(expectStatus(res.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXIN-DESC-MAX'] })),
      });
    }
    // a lone surrogate escaped in JSON is valid JSON syntax but not valid Unicode: 2xx or 4xx, never 5xx
    probes.push({
      send: () => gw.createPixCharge(undefined, { rawBody: '{"amountInCents":1000,"customer":{"documentType":"cpf","document":"52998224725"},"description":"\\ud800"}', contentType: 'application/json' }),
      judge: (lone) => t.run.record(expectStatus(lone.exchange, ['2xx', '4xx'], { requirements: ['GW-JSON-BODIES'] })),
    });
    const answers = await t.all(probes, (probe) => probe.send());
    for (const [k, probe] of probes.entries()) probe.judge(answers[k] as ApiResponse);
  },
);

/** Ids that name no resource: garbage, traversal-looking, oversized, odd. */
const GARBAGE_IDS = ['does-not-exist', '../../api/v1/balance', '..%2F..%2Fbalance', '%00', "' OR '1'='1", '😀', '-1', '0', ' ', 'a'.repeat(2048), `${randomUUID()}`];

check(
  'gateway: garbage, traversal-looking and oversized ids answer 404 (400/414 for a malformed id), never 2xx or 5xx',
  { id: 'gateway.fuzz.negative.ids', api: 'gateway', area: 'Negative fuzzing', requirements: ['GW-PIXIN-GET-404-SHAPE', 'GW-PIXOUT-GET-404-SHAPE', 'GW-PIXIN-PAY-404', 'GW-PIXOUT-COMPLETE-404'], timeoutMs: 180_000 },
  async (t) => {
    type Gw = ReturnType<RunTools['gateway']>;
    // the 404 body: "404 body {error: NOT_FOUND, message}" on the two lookups; not pinned elsewhere
    const routes: Array<{ name: string; call: (gw: Gw, id: string) => Promise<ApiResponse>; requirements: RequirementId[]; body: 'not-found' | 'any' }> = [
      { name: 'GET charge', call: (gw, id) => gw.getPixCharge(id), requirements: ['GW-PIXIN-GET-404-SHAPE'], body: 'not-found' },
      { name: 'pay charge', call: (gw, id) => gw.payPixCharge(id), requirements: ['GW-PIXIN-PAY-404'], body: 'any' },
      { name: 'GET transfer', call: (gw, id) => gw.getTransfer(id), requirements: ['GW-PIXOUT-GET-404-SHAPE'], body: 'not-found' },
      { name: 'complete transfer', call: (gw, id) => gw.completeTransfer(id), requirements: ['GW-PIXOUT-COMPLETE-404'], body: 'any' },
      { name: 'GET transaction', call: (gw, id) => gw.getTransaction(id), requirements: ['GW-TXN-LOOKUP-PIX'], body: 'any' },
      { name: 'DELETE webhook', call: (gw, id) => gw.deleteWebhook(id), requirements: ['GW-WH-DELETE'], body: 'any' },
    ];
    await t.property(
      'a garbage id on a by-id route',
      fc.tuple(fc.constantFrom(...routes), fc.oneof(fc.constantFrom(...GARBAGE_IDS), fc.string({ minLength: 1, maxLength: 40 }))),
      async ([route, id], it) => {
        // "." and ".." are URL dot segments: normalised away, they address another route (not judged)
        if (idShape(id) === 'dot-segment') {
          it.run.note(`${route.name} with the dot-segment id ${JSON.stringify(id)}: not a lookup after URL normalisation, not judged`);
          return;
        }
        const res = await route.call(it.gateway(), id);
        // 404; 400 (a malformed id) and 414 (URI too long) for a malformed id; another 4xx warns; 2xx and 5xx fail
        it.run.record(expectUnknownIdRefused(res.exchange, id, { requirements: route.requirements, subject: `${route.name} ${JSON.stringify(id.slice(0, 40))}` }, { body: route.body }));
      },
      { numRuns: 40 },
    );
  },
);

check(
  'gateway: Authorization variants without a valid Bearer token answer 401',
  { id: 'gateway.fuzz.negative.auth', api: 'gateway', area: 'Negative fuzzing', requirements: ['GW-AUTH-401-MISSING', 'GW-AUTH-401-INVALID-TOKEN', 'GW-AUTH-BEARER-EVERY-ROUTE'] },
  async (t) => {
    const gw = t.gateway();
    const token = await gw.tokens.getToken(t.run);
    const must401: Array<[string, string | undefined]> = [
      ['no Authorization header', undefined],
      ['empty token', 'Bearer '],
      ['scheme only', 'Bearer'],
      ['token without scheme', token],
      ['Basic scheme with the token', `Basic ${token}`],
      ['garbage token', 'Bearer not-a-token'],
      ['truncated token', `Bearer ${token.slice(0, -4)}`],
      ['token with a changed signature', `Bearer ${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`],
    ];
    // RFC 7235: the scheme is case-insensitive and 1*SP may separate it from the token: 2xx or 401 pass
    const lenient: Array<[string, string]> = [['lower-case scheme', `bearer ${token}`], ['two spaces after the scheme', `Bearer  ${token}`]];
    // reads of the balance that change nothing: sent together (up to --concurrency), judged in list order
    const probes = [...must401.map(([name, value]) => ({ name, value, lenient: false })), ...lenient.map(([name, value]) => ({ name, value, lenient: true }))];
    const answers = await t.all(probes, (p) => gw.send({ method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance', auth: p.value === undefined ? 'none' : { authorization: p.value } }));
    for (const [k, { name, lenient: open }] of probes.entries()) {
      const res = answers[k] as ApiResponse;
      if (open) {
        t.run.record(expectStatus(res.exchange, ['2xx', 401], { requirements: ['GW-AUTH-BEARER-EVERY-ROUTE'], subject: name }));
        t.run.note(`${name}: HTTP ${res.status}`);
      } else {
        t.run.record(expectStatus(res.exchange, 401, { requirements: ['GW-AUTH-401-MISSING', 'GW-AUTH-401-INVALID-TOKEN'], subject: name }));
        if (res.status !== 401) t.run.note(`${name}: HTTP ${res.status}`);
      }
    }
  },
);
