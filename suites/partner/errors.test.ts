/**
 * Partner error answers. partner-cashin-api.md "Errors": "Body: `{detail: <readable message>}`";
 * "422 | invalid request body; detail points to the field"; "Endpoints": "Bodies are JSON."
 * A 5xx is never a conforming answer, whatever the input.
 */
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';
import { ensurePayoutUnavailable, judgeInvalidBody } from '../../harness/rules/partner/index.js';
import { amountBelowMinimum, asciiTextOverMax, boundaryAmounts, AMOUNT_MINIMUMS, TEXT_LIMITS } from '../../generators/index.js';
import { chargeBody, status, uniqueRef } from './support.js';

const AREA = 'Errors';

interface InvalidCase {
  field: string;
  label: string;
  body: Record<string, unknown>;
  requirements: RequirementId[];
}

const base = (): Record<string, unknown> => ({ amount_cents: 1500, external_ref: uniqueRef('err'), description: 'conformance invalid body' });
const withField = (field: string, value: unknown): Record<string, unknown> => ({ ...base(), [field]: value });

/** Every documented rule broken once (one field per body); the field named is where the 422 detail should point. */
function boundaryCases(): InvalidCase[] {
  const amounts = boundaryAmounts(AMOUNT_MINIMUMS.partnerCharge).filter((a) => a.validity === 'invalid');
  const { amount_cents: _omit, ...withoutAmount } = base();
  const others: Array<[string, unknown, RequirementId]> = [
    ['description', 12345, 'PT-CHARGE-FIELD-DESC'],
    ['description', 'd'.repeat(301), 'PT-CHARGE-DESC-MAX'],
    ['external_ref', 42, 'PT-CHARGE-FIELD-EXTREF'],
    ['external_ref', 'r'.repeat(121), 'PT-CHARGE-EXTREF-MAX'],
    ['customer_email', 7, 'PT-CHARGE-EMAIL-OPTIONAL'],
    ['expires_in_seconds', 59, 'PT-CHARGE-EXPIRES-RANGE'],
    ['expires_in_seconds', 86_401, 'PT-CHARGE-EXPIRES-RANGE'],
    ['expires_in_seconds', 90.5, 'PT-CHARGE-EXPIRES-RANGE'],
    ['expires_in_seconds', '3600', 'PT-CHARGE-EXPIRES-RANGE'],
  ];
  return [
    ...amounts.map((a) => ({
      field: 'amount_cents', label: `amount ${a.label}`, body: withField('amount_cents', a.value),
      requirements: (typeof a.value === 'number' && Number.isInteger(a.value) ? ['PT-CHARGE-AMOUNT-POSITIVE'] : ['PT-CHARGE-AMOUNT-INTEGER']) as RequirementId[],
    })),
    { field: 'amount_cents', label: 'amount missing', body: withoutAmount, requirements: ['PT-CHARGE-AMOUNT-REQUIRED'] as RequirementId[] },
    ...others.map(([field, value, req]) => ({ field, label: `${field} ${JSON.stringify(value).slice(0, 20)}`, body: withField(field, value), requirements: [req] })),
  ];
}

/** Random invalid values beyond the boundaries: amounts below 1, texts over their limits, lifetimes out of range. */
const randomInvalid: fc.Arbitrary<InvalidCase> = fc.oneof(
  amountBelowMinimum({ min: AMOUNT_MINIMUMS.partnerCharge }).map((v) => ({ field: 'amount_cents', label: `amount ${v}`, body: withField('amount_cents', v), requirements: ['PT-CHARGE-AMOUNT-POSITIVE'] as RequirementId[] })),
  asciiTextOverMax({ max: TEXT_LIMITS.partnerDescription }).map((v) => ({ field: 'description', label: `description ${v.length} chars`, body: withField('description', v), requirements: ['PT-CHARGE-DESC-MAX'] as RequirementId[] })),
  asciiTextOverMax({ max: TEXT_LIMITS.partnerExternalRef }).map((v) => ({ field: 'external_ref', label: `external_ref ${v.length} chars`, body: withField('external_ref', v), requirements: ['PT-CHARGE-EXTREF-MAX'] as RequirementId[] })),
  fc.oneof(fc.integer({ min: -100_000, max: 59 }), fc.integer({ min: 86_401, max: 10_000_000 })).map((v) => ({ field: 'expires_in_seconds', label: `expires_in_seconds ${v}`, body: withField('expires_in_seconds', v), requirements: ['PT-CHARGE-EXPIRES-RANGE'] as RequirementId[] })),
);

check('an invalid body answers 422 {detail} naming the field', {
  id: 'partner.errors.invalid-body-422',
  api: 'partner',
  area: AREA,
  requirements: ['PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD', 'PT-ERR-DETAIL-SHAPE', 'PT-CHARGE-AMOUNT-POSITIVE', 'PT-CHARGE-AMOUNT-INTEGER', 'PT-CHARGE-AMOUNT-REQUIRED'],
}, async (t) => {
  const verdict = (c: InvalidCase, it: RunTools, r: ApiResponse): void => {
    it.run.record(judgeInvalidBody(r, { requirements: c.requirements, what: c.label, field: c.field }));
  };
  // each body breaks its own rule (a correct target refuses it; an accepted one is a fresh charge of
  // its own): sent together, judged in this order
  const cases = boundaryCases();
  const answers = await t.all(cases, (c) => t.partner().createCharge(c.body));
  for (const [k, c] of cases.entries()) verdict(c, t, answers[k] as ApiResponse);
  await t.property('random invalid values', randomInvalid, async (c, it) => verdict(c, it, await it.partner().createCharge(c.body)), { numRuns: 6 });
});

// A body that is not JSON at all: whether it is "an invalid request body" is not stated
// (PT-ERR-422-MALFORMED-JSON ambiguity): judgeInvalidBody warns on another 4xx; 2xx or 5xx are out
// of contract. JSON that is not an object (array, string, null) is an invalid request body: 422.
check('malformed or non-object JSON is rejected (422), never 2xx or 5xx', {
  id: 'partner.errors.malformed-json',
  api: 'partner',
  area: AREA,
  requirements: ['PT-ERR-422-MALFORMED-JSON', 'PT-ERR-422-INVALID-BODY', 'PT-BODY-JSON', 'PT-ERR-DETAIL-SHAPE'],
}, async (t) => {
  const unparseable = fc.constantFrom('{', '{"amount_cents": 100,', 'amount_cents=100', 'not json', '{"amount_cents": 1500, "external_ref": "x"}}', "{'amount_cents': 1500}", '');
  const nonObject = fc.constantFrom('[]', '[{"amount_cents": 1500}]', '"amount_cents"', 'null', '1500', 'true');
  await t.property('bodies', fc.oneof(unparseable.map((raw) => ({ raw, parses: false })), nonObject.map((raw) => ({ raw, parses: true }))), async ({ raw, parses }, it) => {
    const r = await it.partner().createCharge(undefined, { rawBody: raw, contentType: 'application/json' });
    it.run.record(judgeInvalidBody(r, parses ? { requirements: ['PT-ERR-422-INVALID-BODY'], what: `body ${JSON.stringify(raw)}` } : { requirements: ['PT-ERR-422-MALFORMED-JSON'], what: `body ${JSON.stringify(raw)}`, malformed: true }));
  }, { numRuns: 8 });
});

// "PIX out (payout, route `/v1/business/payouts`) is not available … has no public route." Its
// answer is not shown (404 or 403): ensurePayoutUnavailable.
check('the announced payouts route is not available', {
  id: 'partner.errors.payouts-unavailable',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  requirements: ['PT-PAYOUT-UNAVAILABLE'],
}, async (t) => {
  const c = t.partner();
  const body = { amount_cents: 100, pix_key: 'conformance@example.com', external_ref: uniqueRef('payout') };
  const r = await c.send({ method: 'POST', path: '/business/payouts', json: body, headers: { 'idempotency-key': uniqueRef('payout-key') } });
  t.run.record(ensurePayoutUnavailable(r, { requirements: ['PT-PAYOUT-UNAVAILABLE'] }));
  t.run.note(`POST /business/payouts answered ${r.status}`);
});

// Sanity: a valid body right after the invalid ones still works (the errors had no side effect).
check('a valid body is still accepted after invalid ones', {
  id: 'partner.errors.recovery',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  requirements: ['PT-CHARGE-CREATE-200'],
}, async (t) => {
  await t.partner().createCharge('{', { rawBody: '{', contentType: 'application/json' });
  status(t.run, await t.partner().createCharge(chargeBody('err-recovery')), 200, ['PT-CHARGE-CREATE-200']);
});
