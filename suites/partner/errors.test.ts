/**
 * Partner error answers. partner-cashin-api.md "Errors": "Body: `{detail: <readable message>}`";
 * "422 | invalid request body; detail points to the field"; "Endpoints": "Bodies are JSON."
 * A 5xx is never a conforming answer, whatever the input.
 */
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import { expectChargeCreated, honourChargeRequestTable, keepPayoutsUnavailable, refuseInvalidBody, refuseMalformedJson } from '../../harness/rules/partner/index.js';
import { amountBelowMinimum, asciiTextOverMax, boundaryAmounts, AMOUNT_MINIMUMS, TEXT_LIMITS } from '../../generators/index.js';
import { chargeBody, uniqueRef } from './support.js';

const AREA = 'Errors';

/** One body breaking one row of the request table; `kind` says how (the clause of amount_cents' row it breaks). */
interface InvalidCase {
  field: string;
  label: string;
  body: Record<string, unknown>;
  kind: 'missing-required' | 'below-minimum' | 'above-maximum' | 'not-integer' | 'wrong-type' | 'too-long';
}

/** How a value breaks "integer | greater than zero". */
function amountKind(value: unknown): InvalidCase['kind'] {
  if (typeof value !== 'number') return 'wrong-type';
  return Number.isInteger(value) ? 'below-minimum' : 'not-integer';
}

const base = (): Record<string, unknown> => ({ amount_cents: 1500, external_ref: uniqueRef('err'), description: 'conformance invalid body' });
const withField = (field: string, value: unknown): Record<string, unknown> => ({ ...base(), [field]: value });

/** Every documented rule broken once (one field per body); the field named is where the 422 detail should point. */
function boundaryCases(): InvalidCase[] {
  const amounts = boundaryAmounts(AMOUNT_MINIMUMS.partnerCharge).filter((a) => a.validity === 'invalid');
  const { amount_cents: _omit, ...withoutAmount } = base();
  const others: Array<[string, unknown, InvalidCase['kind']]> = [
    ['description', 12345, 'wrong-type'],
    ['description', 'd'.repeat(301), 'too-long'],
    ['external_ref', 42, 'wrong-type'],
    ['external_ref', 'r'.repeat(121), 'too-long'],
    ['customer_email', 7, 'wrong-type'],
    ['expires_in_seconds', 59, 'below-minimum'],
    ['expires_in_seconds', 86_401, 'above-maximum'],
    ['expires_in_seconds', 90.5, 'not-integer'],
    ['expires_in_seconds', '3600', 'wrong-type'],
  ];
  return [
    ...amounts.map((a): InvalidCase => ({ field: 'amount_cents', label: `amount ${a.label}`, body: withField('amount_cents', a.value), kind: amountKind(a.value) })),
    { field: 'amount_cents', label: 'amount missing', body: withoutAmount, kind: 'missing-required' },
    ...others.map(([field, value, kind]): InvalidCase => ({ field, label: `${field} ${JSON.stringify(value).slice(0, 20)}`, body: withField(field, value), kind })),
  ];
}

/** Random invalid values beyond the boundaries: amounts below 1, texts over their limits, lifetimes out of range. */
const randomInvalid: fc.Arbitrary<InvalidCase> = fc.oneof(
  amountBelowMinimum({ min: AMOUNT_MINIMUMS.partnerCharge }).map((v): InvalidCase => ({ field: 'amount_cents', label: `amount ${v}`, body: withField('amount_cents', v), kind: amountKind(v) })),
  asciiTextOverMax({ max: TEXT_LIMITS.partnerDescription }).map((v): InvalidCase => ({ field: 'description', label: `description ${v.length} chars`, body: withField('description', v), kind: 'too-long' })),
  asciiTextOverMax({ max: TEXT_LIMITS.partnerExternalRef }).map((v): InvalidCase => ({ field: 'external_ref', label: `external_ref ${v.length} chars`, body: withField('external_ref', v), kind: 'too-long' })),
  fc.oneof(fc.integer({ min: -100_000, max: 59 }), fc.integer({ min: 86_401, max: 10_000_000 })).map((v): InvalidCase => ({ field: 'expires_in_seconds', label: `expires_in_seconds ${v}`, body: withField('expires_in_seconds', v), kind: v < 60 ? 'below-minimum' : 'above-maximum' })),
);

check('an invalid body answers 422 {detail} naming the field', {
  id: 'partner.errors.invalid-body-422',
  api: 'partner',
  area: AREA,
  rules: [honourChargeRequestTable],
}, async (t) => {
  const verdict = (c: InvalidCase, it: RunTools, r: ApiResponse): void => {
    it.judge(honourChargeRequestTable, { case: 'breaks', field: c.field, kind: c.kind, requirements: [], what: c.label, answer: r });
  };
  // each body breaks its own rule (a correct target refuses it; an accepted one is a fresh charge of
  // its own): sent together, judged in this order
  const cases = boundaryCases();
  const answers = await t.all(cases, (c) => t.partner().createCharge(c.body));
  for (const [k, c] of cases.entries()) verdict(c, t, answers[k] as ApiResponse);
  await t.property('random invalid values', randomInvalid, async (c, it) => verdict(c, it, await it.partner().createCharge(c.body)), { numRuns: 6 });
});

// A body that is not JSON at all: whether it is "an invalid request body" is not stated
// (PT-ERR-422-MALFORMED-JSON ambiguity): refuseMalformedJson warns on another 4xx; 2xx or 5xx are out
// of contract. JSON that is not an object (array, string, null) is an invalid request body: 422.
check('malformed or non-object JSON is rejected (422), never 2xx or 5xx', {
  id: 'partner.errors.malformed-json',
  api: 'partner',
  area: AREA,
  rules: [refuseMalformedJson, refuseInvalidBody],
}, async (t) => {
  const unparseable = fc.constantFrom('{', '{"amount_cents": 100,', 'amount_cents=100', 'not json', '{"amount_cents": 1500, "external_ref": "x"}}', "{'amount_cents': 1500}", '');
  const nonObject = fc.constantFrom('[]', '[{"amount_cents": 1500}]', '"amount_cents"', 'null', '1500', 'true');
  await t.property('bodies', fc.oneof(unparseable.map((raw) => ({ raw, parses: false })), nonObject.map((raw) => ({ raw, parses: true }))), async ({ raw, parses }, it) => {
    const r = await it.partner().createCharge(undefined, { rawBody: raw, contentType: 'application/json' });
    if (parses) it.judge(refuseInvalidBody, { answer: r, what: `body ${JSON.stringify(raw)}`, kind: 'shape' });
    else it.judge(refuseMalformedJson, { answer: r, raw });
  }, { numRuns: 8 });
});

// "PIX out (payout, route `/v1/business/payouts`) is not available … has no public route." Its
// answer is not shown (404 or 403): keepPayoutsUnavailable.
check('the announced payouts route is not available', {
  id: 'partner.errors.payouts-unavailable',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  rules: [keepPayoutsUnavailable],
}, async (t) => {
  const c = t.partner();
  const body = { amount_cents: 100, pix_key: 'conformance@example.com', external_ref: uniqueRef('payout') };
  const r = await c.send({ method: 'POST', path: '/business/payouts', json: body, headers: { 'idempotency-key': uniqueRef('payout-key') } });
  t.judge(keepPayoutsUnavailable, r);
  t.run.note(`POST /business/payouts answered ${r.status}`);
});

// Sanity: a valid body right after the invalid ones still works (the errors had no side effect).
check('a valid body is still accepted after invalid ones', {
  id: 'partner.errors.recovery',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  rules: [expectChargeCreated],
}, async (t) => {
  await t.partner().createCharge('{', { rawBody: '{', contentType: 'application/json' });
  t.judge(expectChargeCreated, await t.partner().createCharge(chargeBody('err-recovery')));
});
