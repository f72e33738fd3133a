/**
 * Negative fuzzing of the partner API, derived from the request-body schema (specs/partner.openapi.yaml,
 * CreatePixChargeRequest) with generators/bodies.ts: bodies that break exactly ONE documented rule,
 * plus malformed/empty/huge/odd bodies, garbage path ids and Authorization variants.
 *
 * Contract (partner-cashin-api.md, "Errors"): "Body: {detail: <readable message>}"; "422 | invalid
 * request body; detail points to the field"; "404 | resource not found"; "401 | API key missing,
 * invalid or revoked". The text fixes 422 for an invalid body: another 4xx fails for a broken field
 * rule; for a body that is not JSON at all it is a warning (PT-ERR-422-MALFORMED-JSON ambiguity).
 * All mutated rules are stated firmly (amount_cents integer > 0, description ≤ 300, external_ref ≤ 120,
 * customer_email string, expires_in_seconds integer 60..86400); lengths are broken with ASCII only.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import { acceptMultibyteTexts, answerUnknownIdNotFound, honourChargeRequestTable, isDotSegment, refuseMalformedJson, refuseWithoutValidKey, surviveOddBodies } from '../../harness/rules/partner/index.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import { loadSpec } from '../../harness/contract/spec.js';
import { contractOverrides, listRules, singleRuleMutants } from '../../generators/index.js';

const spec = await loadSpec('partner');
const schema = { $ref: '#/components/schemas/CreatePixChargeRequest' };

check(
  'partner: charge bodies breaking one documented rule are rejected with 422 {detail}',
  { id: 'partner.fuzz.negative.charge', api: 'partner', area: 'Negative fuzzing', rules: [honourChargeRequestTable], timeoutMs: 180_000 },
  async (t) => {
    const options = { root: spec, overrides: contractOverrides('partner.pixCharge') };
    // every rule once per iteration (a tuple): no rule depends on sampling luck; not shrunk (see the gateway file)
    const perRule = listRules(schema, options)
      .filter((rule) => !rule.startsWith('unexpected-property:'))
      .map((rule) => singleRuleMutants(schema, { ...options, rules: [rule] }));
    await t.property(
      'every rule of CreatePixChargeRequest broken alone',
      fc.noShrink(fc.tuple(...perRule)),
      async (mutants, it) => {
        // independent bodies a correct target refuses: sent `it.parallel` at a time, judged in order,
        // judging stops at the first failure; in the run that is the verdict `it.parallel` is 1, so
        // it sends and judges exactly what the one-at-a-time loop did
        // half of them with an Idempotency-Key: a rejected body must not be remembered as a charge either
        const send = (m: (typeof mutants)[number]): Promise<ApiResponse> => it.partner().createCharge(m.body, m.rule.length % 2 === 0 ? { idempotencyKey: randomUUID() } : {});
        for (let from = 0; from < mutants.length && !it.run.failures.length; from += it.parallel) {
          const chunk = mutants.slice(from, from + it.parallel);
          const answers = await it.all(chunk, send);
          for (const [k, m] of chunk.entries()) {
            // the row the mutant breaks comes from the schema node's x-requirement (Mutant.requirements)
            it.judge(honourChargeRequestTable, { case: 'breaks', field: m.path, kind: m.kind, requirements: m.requirements, what: m.rule, answer: answers[k] as ApiResponse });
            if (it.run.failures.length) break;
          }
        }
      },
      { numRuns: 4 },
    );
  },
);

check(
  'partner: malformed, empty, huge, mistyped and odd-Unicode bodies never cause a server error',
  { id: 'partner.fuzz.negative.malformed', api: 'partner', area: 'Negative fuzzing', rules: [refuseMalformedJson, surviveOddBodies, honourChargeRequestTable, acceptMultibyteTexts], timeoutMs: 180_000 },
  async (t) => {
    const pt = t.partner();
    // every body stands alone (refused, or a fresh charge nothing else reads): sent together, judged in this order
    const cases: Array<{ send: () => Promise<ApiResponse>; judge: (res: ApiResponse) => void }> = [
      // not JSON, or JSON that is not an object: 422 expected, another 4xx warns (catalogue ambiguity)
      ...['{"amount_cents": 100,', '{', '', 'null', '[]', '"text"', '{"amount_cents":1}}', '\u0000', '{"amount_cents":1e999999}'].map((raw) => ({
        send: () => pt.createCharge(undefined, { rawBody: raw, contentType: 'application/json' }),
        judge: (res: ApiResponse) => t.judge(refuseMalformedJson, { answer: res, raw }),
      })),
      // a valid JSON body with a wrong content type: 2xx or 4xx (not shown), never 5xx
      {
        send: () => pt.createCharge(undefined, { rawBody: JSON.stringify({ amount_cents: 100 }), contentType: 'text/plain' }),
        judge: (typed) => t.judge(surviveOddBodies, typed),
      },
      // a 256 KiB description (over the 300 limit): 422; another 4xx (413: too large) only warns
      {
        send: () => pt.createCharge({ amount_cents: 100, description: 'x'.repeat(256 * 1024) }),
        judge: (huge) => t.judge(honourChargeRequestTable, { case: 'breaks', field: 'description', kind: 'too-long', requirements: [], what: '256 KiB description', answer: huge, oversized: true }),
      },
      // odd Unicode inside the limits: accepted or rejected, never 5xx
      ...['\u202Eevil\u202C', 'e\u0301\u0301\u0301', '😀👍🏽', '\uFEFFbom', 'ｆｕｌｌ　ｗｉｄｔｈ'].map((text) => ({
        send: () => pt.createCharge({ amount_cents: 100, description: text, external_ref: text }),
        judge: (res: ApiResponse) => t.judge(acceptMultibyteTexts, { field: 'both', near: 'odd', text, answer: res }),
      })),
      {
        send: () => pt.createCharge(undefined, { rawBody: '{"amount_cents":100,"description":"\\ud800"}', contentType: 'application/json' }),
        judge: (lone) => t.judge(surviveOddBodies, lone),
      },
    ];
    const answers = await t.all(cases, (c) => c.send());
    for (const [k, c] of cases.entries()) c.judge(answers[k] as ApiResponse);
  },
);

// URL dot-segments ('.', '..') are left out: after normalisation they request another route.
const GARBAGE_IDS = ['does-not-exist', '../../business/finance', '..%2F..%2Ffinance', '%00', "' OR '1'='1", '😀', '-1', '0', ' ', 'a'.repeat(2048), randomUUID()];

check(
  'partner: garbage, traversal-looking and oversized ids answer 404 {detail}, never 2xx or 5xx',
  { id: 'partner.fuzz.negative.ids', api: 'partner', area: 'Negative fuzzing', rules: [answerUnknownIdNotFound], timeoutMs: 180_000 },
  async (t) => {
    type Pt = ReturnType<RunTools['partner']>;
    const routes: Array<(pt: Pt, id: string) => Promise<ApiResponse>> = [(pt, id) => pt.getCharge(id), (pt, id) => pt.cancelCharge(id), (pt, id) => pt.payCharge(id)];
    await t.property(
      'a garbage id on a by-id route',
      fc.tuple(fc.nat({ max: routes.length - 1 }), fc.oneof(fc.constantFrom(...GARBAGE_IDS), fc.string({ minLength: 1, maxLength: 40 })).filter((id) => !isDotSegment(id))),
      async ([r, id], it) => {
        const res = await (routes[r] as (pt: Pt, id: string) => Promise<ApiResponse>)(it.partner(), id);
        // the one unknown-id rule: 404 {detail}; 400 (malformed id) or 414 (URI too long) warn; 2xx and 5xx fail
        it.judge(answerUnknownIdNotFound, res);
      },
      { numRuns: 40 },
    );
  },
);

check(
  'partner: Authorization variants without a valid Bearer key answer 401 {detail}',
  { id: 'partner.fuzz.negative.auth', api: 'partner', area: 'Negative fuzzing', rules: [refuseWithoutValidKey] },
  async (t) => {
    const pt = t.partner();
    const key = pt.apiKey;
    const must401: Array<[string, string | undefined]> = [
      ['no Authorization header', undefined],
      ['empty key', 'Bearer '],
      ['scheme only', 'Bearer'],
      ['key without scheme', key],
      ['Basic scheme with the key', `Basic ${key}`],
      // another scheme whose name ends in "Bearer": the credentials are not a Bearer key
      ['the key under a scheme ending in Bearer', `XBearer ${key}`],
      ['unknown ak_test_ key', `Bearer ak_test_${'0'.repeat(24)}`],
      ['truncated key', `Bearer ${key.slice(0, -3)}`],
      ['garbage', 'Bearer not-a-key'],
    ];
    // RFC 7235: scheme case-insensitive, 1*SP before the credentials: 2xx or 401 both pass
    const lenient: Array<[string, string]> = [['lower-case scheme', `bearer ${key}`], ['two spaces after the scheme', `Bearer  ${key}`]];
    // reads of the statement, each on its own: sent together, judged in this order
    const read = ([, value]: [string, string | undefined]): Promise<ApiResponse> =>
      pt.send({ method: 'GET', path: '/business/finance', operation: 'GET /business/finance', auth: value === undefined ? 'none' : { authorization: value } });
    const answers = await t.all([...must401, ...lenient], read);
    for (const [k, [name]] of must401.entries()) {
      const res = answers[k] as ApiResponse;
      if (!t.judge(refuseWithoutValidKey, { answer: res, key: name })) t.run.note(`${name}: HTTP ${res.status}`);
    }
    for (const [k, [name]] of lenient.entries()) {
      const res = answers[must401.length + k] as ApiResponse;
      t.judge(refuseWithoutValidKey, { lenient: res, key: name });
      t.run.note(`${name}: HTTP ${res.status}`);
    }
  },
);
