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
import { idShape, isFirmBodyRule, refuseInvalidRequestBody, type MutatedOperation } from '../../harness/rules/gateway/errors.js';
import { answerUnknownPixCharge, honourPixChargeRequest } from '../../harness/rules/gateway/pix-charges.js';
import { answerUnknownTransfer, honourTransferRequest, transferRowRequirements } from '../../harness/rules/gateway/pix-transfers.js';
import { cardRowRequirements, honourCardRequest } from '../../harness/rules/gateway/card.js';
import { answerTransactionLookup } from '../../harness/rules/gateway/transactions.js';
import { surviveOddJsonBodies } from '../../harness/rules/gateway/fields.js';
import { requireWebhookUrlAndEvents } from '../../harness/rules/gateway/webhooks.js';
import { requireBearerOnEveryRoute } from '../../harness/rules/gateway/auth.js';
import type { Rule } from '../../harness/rules/rule.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { dataOf } from '../../harness/core/json.js';
import { loadSpec } from '../../harness/contract/spec.js';
import { contractOverrides, listRules, singleRuleMutants, validBody } from '../../generators/index.js';
import type { Mutant, Overrides } from '../../generators/index.js';

const spec = await loadSpec('gateway');

/** The value a mutant carries at its path (undefined for a missing one). */
function valueAt(body: unknown, path: string): unknown {
  let at: unknown = body;
  for (const seg of path.split('.')) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[seg] : undefined;
  return at;
}

/**
 * The invalid body is refused by the rule of its request table (400/422 pass, another 4xx warns, 2xx
 * and 5xx fail; a card body may also be answered with a refused charge; "missing or BRL gives 400"),
 * deciding the row the mutant breaks (its `requirements`: the schema's x-requirement at fault); the
 * refusal is the Errors rule's (the error body, the field a 422 names).
 */
function judgeRejected(it: RunTools, op: MutatedOperation, res: ApiResponse, m: Mutant): void {
  const broken = { kind: m.kind, requirements: m.requirements, value: valueAt(m.body, m.path), what: m.rule, answer: res };
  if (op === 'pix') it.judge(honourPixChargeRequest, { case: 'breaks', path: m.path, ...broken });
  else if (op === 'transfer') it.judge(honourTransferRequest, { case: 'breaks', row: m.path, ...broken });
  else if (op === 'card') it.judge(honourCardRequest, { case: 'breaks', path: m.path, ...broken });
  else it.judge(requireWebhookUrlAndEvents, { answer: res, what: m.rule, field: m.path.startsWith('events') ? 'events' : 'url' });
}

interface BodyOperation {
  op: MutatedOperation;
  schema: string;
  overrides: Overrides;
  send: (it: RunTools, body: unknown) => Promise<ApiResponse>;
  /** the rule of the request table */
  rule: Rule<never>;
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
    return { rule: `raw-card:card.${field}`, kind: 'unexpected-property', path: `card.${field}`, requirements: cardRowRequirements(`card.${field}`), body: b };
  });
/** "missing or BRL gives 400" */
const brlCard: fc.Arbitrary<Mutant> = cardValid.map((body) => ({ rule: 'bad-enum:currency=BRL', kind: 'bad-enum', path: 'currency', requirements: cardRowRequirements('currency', 'bad-enum', 'BRL'), body: { ...(body as object), currency: 'BRL' } }));
/** a PIX key matching none of the five formats (the firm case only) */
const badKey: fc.Arbitrary<Mutant> = fc
  .tuple(validBody(ref('PixTransferRequest'), { root: spec, overrides: contractOverrides('gateway.pixTransfer') }), fc.constantFrom('not a pix key', 'chave inválida!', 'http://example.com'))
  .map(([body, key]) => ({ rule: 'bad-key:pixKey', kind: 'bad-pattern', path: 'pixKey', requirements: transferRowRequirements('pixKey'), body: { ...(body as object), pixKey: key } }));

const OPERATIONS: BodyOperation[] = [
  { op: 'pix', schema: 'PixChargeRequest', rule: honourPixChargeRequest, overrides: contractOverrides('gateway.pixCharge'), send: (it, b) => it.gateway().createPixCharge(b) },
  { op: 'transfer', schema: 'PixTransferRequest', rule: honourTransferRequest, overrides: contractOverrides('gateway.pixTransfer'), send: (it, b) => it.gateway().createTransfer(b, { idempotencyKey: randomUUID() }), extra: badKey },
  { op: 'card', schema: 'CardChargeRequest', rule: honourCardRequest, overrides: contractOverrides('gateway.card'), send: (it, b) => it.gateway().createCardCharge(b), extra: fc.oneof(rawCard, brlCard) },
  { op: 'webhook', schema: 'WebhookCreateRequest', rule: requireWebhookUrlAndEvents, overrides: contractOverrides('gateway.webhook'), send: (it, b) => it.gateway().createWebhook(b) },
];

for (const o of OPERATIONS) {
  check(
    `gateway: ${o.schema} bodies breaking one documented rule are rejected with a 4xx`,
    { id: `gateway.fuzz.negative.${o.op}`, api: 'gateway', area: 'Negative fuzzing', rules: [o.rule], timeoutMs: 180_000 },
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
              judgeRejected(it, o.op, res, m);
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
  {
    id: 'gateway.fuzz.negative.malformed',
    api: 'gateway',
    area: 'Negative fuzzing',
    rules: [honourPixChargeRequest, honourTransferRequest, refuseInvalidRequestBody, requireWebhookUrlAndEvents, surviveOddJsonBodies],
    timeoutMs: 180_000,
  },
  async (t) => {
    const gw = t.gateway();
    const valid = { amountInCents: 1000, customer: { documentType: 'cpf', document: '52998224725' } };
    const transfer = { amount: 100, pixKey: 'payee@example.com' };
    // an invalid body is refused by the rule of its route (the request tables of the PIX charge and the
    // transfer: "400 invalid body"; the webhook: "url … (required), events … (required)"; the card's
    // table names no row a body that is no object breaks: the Errors rule, "400 | invalid body")
    const refuse: Record<MutatedOperation, (res: ApiResponse, what: string) => void> = {
      pix: (res, what) => t.judge(honourPixChargeRequest, { case: 'breaks', path: '(body)', what, answer: res }),
      transfer: (res, what) => t.judge(honourTransferRequest, { case: 'breaks', row: '(body)', what, answer: res }),
      card: (res, what) => t.judge(refuseInvalidRequestBody, { answer: res, what, card: true }),
      webhook: (res, what) => t.judge(requireWebhookUrlAndEvents, { answer: res, what, field: 'url' }),
    };
    const posts: Array<{ op: MutatedOperation; name: string; send: (opts: { rawBody: string; contentType?: string }) => Promise<ApiResponse>; json: object }> = [
      { op: 'pix', name: 'PIX charge', send: (opts) => gw.createPixCharge(undefined, opts), json: valid },
      { op: 'transfer', name: 'transfer', send: (opts) => gw.createTransfer(undefined, { ...opts, idempotencyKey: randomUUID() }), json: transfer },
      { op: 'card', name: 'card', send: (opts) => gw.createCardCharge(undefined, opts), json: { amountInCents: 1000, currency: 'USD' } },
      { op: 'webhook', name: 'webhook', send: (opts) => gw.createWebhook(undefined, opts), json: { url: 'https://example.com/h' } },
    ];
    // Every request below is independent (an invalid body a correct target refuses, or a fresh charge or
    // transfer of its own): all are sent together (up to --concurrency) and judged afterwards, in the
    // order they are listed, so what is sent and judged never depends on the concurrency.
    const probes: Array<{ send: () => Promise<ApiResponse>; judge: (res: ApiResponse) => void }> = [];
    for (const p of posts) {
      // malformed JSON, empty body, JSON that is not an object: an invalid body, 4xx (400/422 pass, another 4xx warns)
      for (const raw of ['{"amountInCents": 100,', '{', '', 'null', '[]', '"text"', '{"a":1}}', '\u0000']) {
        probes.push({
          send: () => p.send({ rawBody: raw, contentType: 'application/json' }),
          judge: (res) => refuse[p.op](res, `${p.name} body ${JSON.stringify(raw)}`),
        });
      }
      // a valid JSON body with a wrong content type: 2xx or 4xx (not shown), never 5xx
      probes.push({
        send: () => p.send({ rawBody: JSON.stringify(p.json), contentType: 'text/plain' }),
        judge: (typed) => t.judge(surviveOddJsonBodies, { answer: typed, what: `a ${p.name} body sent as text/plain` }),
      });
    }
    // huge bodies (256 KiB description, over the 140-character limit): 4xx, never 5xx
    const huge = 'x'.repeat(HUGE);
    probes.push(
      {
        send: () => gw.createPixCharge({ ...valid, description: huge }),
        judge: (res) => t.judge(honourPixChargeRequest, { case: 'breaks', path: 'description', kind: 'too-long', what: 'a 256 KiB description', answer: res }),
      },
      {
        send: () => gw.createTransfer({ ...transfer, description: huge }),
        judge: (res) => t.judge(honourTransferRequest, { case: 'breaks', row: 'description', kind: 'too-long', what: 'a 256 KiB description', answer: res }),
      },
    );
    // odd Unicode inside the limits (RTL mark, combining marks, emoji, BOM): accepted or rejected, never 5xx
    for (const text of ['\u202Eevil\u202C', 'e\u0301\u0301\u0301', '😀👍🏽', '\uFEFFbom', 'ｆｕｌｌ　ｗｉｄｔｈ']) {
      probes.push({
        send: () => gw.createPixCharge({ ...valid, description: text, customer: { ...valid.customer, name: text } }),
        judge: (res) => t.judge(honourPixChargeRequest, { case: 'open', part: 'description', what: `the description and name ${JSON.stringify(text)}`, answer: res }),
      });
    }
    // a lone surrogate escaped in JSON is valid JSON syntax but not valid Unicode: 2xx or 4xx, never 5xx
    probes.push({
      send: () => gw.createPixCharge(undefined, { rawBody: '{"amountInCents":1000,"customer":{"documentType":"cpf","document":"52998224725"},"description":"\\ud800"}', contentType: 'application/json' }),
      judge: (lone) => t.judge(surviveOddJsonBodies, { answer: lone, what: 'a description with a lone surrogate escape' }),
    });
    const answers = await t.all(probes, (probe) => probe.send());
    for (const [k, probe] of probes.entries()) probe.judge(answers[k] as ApiResponse);
  },
);

/** Ids that name no resource: garbage, traversal-looking, oversized, odd. */
const GARBAGE_IDS = ['does-not-exist', '../../api/v1/balance', '..%2F..%2Fbalance', '%00', "' OR '1'='1", '😀', '-1', '0', ' ', 'a'.repeat(2048), `${randomUUID()}`];

check(
  'gateway: garbage, traversal-looking and oversized ids answer 404 (400/414 for a malformed id), never 2xx or 5xx',
  { id: 'gateway.fuzz.negative.ids', api: 'gateway', area: 'Negative fuzzing', rules: [answerUnknownPixCharge, answerUnknownTransfer, answerTransactionLookup], timeoutMs: 180_000 },
  async (t) => {
    type Gw = ReturnType<RunTools['gateway']>;
    // the 404 body: "404 body {error: NOT_FOUND, message}" on the two lookups; not pinned elsewhere
    // (the webhook's DELETE of an unknown id: the webhook suite's; "Removes a webhook" states no 404 body)
    const routes: Array<{ name: string; call: (gw: Gw, id: string) => Promise<ApiResponse>; judge: (it: RunTools, id: string, answer: ApiResponse) => void }> = [
      { name: 'GET charge', call: (gw, id) => gw.getPixCharge(id), judge: (it, id, answer) => it.judge(answerUnknownPixCharge, { route: 'lookup', id, answer }) },
      { name: 'pay charge', call: (gw, id) => gw.payPixCharge(id), judge: (it, id, answer) => it.judge(answerUnknownPixCharge, { route: 'pay', id, answer }) },
      { name: 'GET transfer', call: (gw, id) => gw.getTransfer(id), judge: (it, id, answer) => it.judge(answerUnknownTransfer, { route: 'lookup', id, answer }) },
      { name: 'complete transfer', call: (gw, id) => gw.completeTransfer(id), judge: (it, id, answer) => it.judge(answerUnknownTransfer, { route: 'complete', id, answer }) },
      { name: 'GET transaction', call: (gw, id) => gw.getTransaction(id), judge: (it, id, answer) => it.judge(answerTransactionLookup, { kind: 'pix', unknownId: id, answer }) },
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
        route.judge(it, id, res);
      },
      { numRuns: 40 },
    );
  },
);

check(
  'gateway: Authorization variants without a valid Bearer token answer 401',
  { id: 'gateway.fuzz.negative.auth', api: 'gateway', area: 'Negative fuzzing', rules: [requireBearerOnEveryRoute] },
  async (t) => {
    const gw = t.gateway();
    const token = await gw.tokens.getToken(t.run);
    const must401: Array<[string, string | undefined, 'missing' | 'invalid']> = [
      ['no Authorization header', undefined, 'missing'],
      ['empty token', 'Bearer ', 'missing'],
      ['scheme only', 'Bearer', 'missing'],
      ['token without scheme', token, 'invalid'],
      ['Basic scheme with the token', `Basic ${token}`, 'invalid'],
      ['garbage token', 'Bearer not-a-token', 'invalid'],
      ['truncated token', `Bearer ${token.slice(0, -4)}`, 'invalid'],
      ['token with a changed signature', `Bearer ${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`, 'invalid'],
    ];
    // RFC 7235: the scheme is case-insensitive and 1*SP may separate it from the token: 2xx or 401
    // both conform (observed only; a 5xx is the contract validation's)
    const lenient: Array<[string, string]> = [['lower-case scheme', `bearer ${token}`], ['two spaces after the scheme', `Bearer  ${token}`]];
    // reads of the balance that change nothing: sent together (up to --concurrency), judged in list order
    const probes = [...must401.map(([name, value, kind]) => ({ name, value, kind })), ...lenient.map(([name, value]) => ({ name, value, kind: undefined }))];
    const answers = await t.all(probes, (p) => gw.send({ method: 'GET', path: '/api/v1/balance', operation: 'GET /api/v1/balance', auth: p.value === undefined ? 'none' : { authorization: p.value } }));
    for (const [k, { name, kind }] of probes.entries()) {
      const res = answers[k] as ApiResponse;
      if (kind !== undefined) t.judge(requireBearerOnEveryRoute, { answer: res, token: kind, label: `GET /api/v1/balance with ${name}` });
      if (kind === undefined || res.status !== 401) t.run.note(`${name}: HTTP ${res.status}`);
    }
  },
);
