/**
 * Partner PIX charges: creation, the returned charge, limits, lookups.
 * partner-cashin-api.md "POST /v1/business/pix-charges", "PIX charge", "GET /v1/business/pix-charges/:id".
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import {
  acceptMultibyteTexts,
  answerChargeLookup,
  answerUnknownIdNotFound,
  chargeOf,
  honourChargeRequestTable,
  isDotSegment,
  UNREPRESENTABLE_AMOUNT_CENTS,
  verifyChargeBrCode,
  verifyChargeLifetime,
  verifyCreatedCharge,
  verifyExternalRefUnchanged,
  verifyLookedUpCharge,
} from '../../harness/rules/partner/index.js';
import { show } from '../../harness/rules/index.js';
import { asciiTextOfLength, boundaryText, TEXT_LIMITS } from '../../generators/index.js';
import { chargeBody, CREATES_CHARGES, createCharge, judgeCreated, lookupState, uniqueRef, validChargeBody } from './support.js';
import type { ApiResponse } from '../../harness/http/partner-client.js';

const AREA = 'PIX charges';

// "Creates dynamic PIX charges and returns the copy-and-paste code (`qr_code`, standard
// central-bank EMV payload)"; "A charge is created in `pending`"; "200: PIX charge.";
// "external_ref … returned unchanged on lookups"; "expires_at / created_at | ISO 8601 UTC";
// "GET …/:id Returns the current state of the charge". Field types are judged by the contract
// validation of every exchange (specs/partner.openapi.yaml).
check('a valid charge is created pending, with a BR Code for its amount, and looked up unchanged', {
  id: 'partner.charges.create-valid',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, honourChargeRequestTable, verifyCreatedCharge, answerChargeLookup, verifyLookedUpCharge, verifyChargeBrCode],
}, async (t) => {
  await t.property('valid bodies', validChargeBody('create'), async (body, it) => {
    const created = await createCharge(it.run, it.partner(), body);
    it.judge(honourChargeRequestTable, { case: 'valid', body, answer: created.response });
    // the charge is judged even without a usable id (verifyChargeId reports that); only the lookup needs one
    if (!created.charge) return;
    it.judge(verifyCreatedCharge, { charge: created.charge, sent: body, exchange: created.response.exchange });
    if (body.customer_email !== undefined && created.charge.customer_email !== body.customer_email) {
      it.run.note(`customer_email sent ${show(body.customer_email)}, returned ${show(created.charge.customer_email)} (the contract does not say it is echoed)`);
    }
    if (typeof created.charge.provider === 'string') it.run.note(`provider = ${show(created.charge.provider)}`);
    if (!created.id) return;
    const seen = await lookupState(it.run, it.partner(), created.id);
    if (!seen.charge) return;
    it.judge(answerChargeLookup, { answer: seen.response, expected: 'pending', why: 'on lookup right after creation' });
    it.judge(verifyLookedUpCharge, { charge: seen.charge, sent: body, exchange: seen.response.exchange });
  }, { numRuns: 6 });
  // "amount_cents | integer | yes"; every other field "no": a body with only the amount (and our
  // label, which matches our events) is accepted
  const minimal = { amount_cents: 1500, external_ref: uniqueRef('minimal') };
  // an amount beyond what BR Code field 54 holds (13 characters): no maximum is stated, so a refusal
  // is noted; an accepted one must still come with a well-formed BR Code (verifyChargeBrCode)
  const largeBody = chargeBody('large-amount', { amount_cents: UNREPRESENTABLE_AMOUNT_CENTS });
  // two fresh charges, independent: sent together, judged in this order
  const [minimalResponse, large] = (await t.all([minimal, largeBody], (body) => t.partner().createCharge(body))) as [ApiResponse, ApiResponse];
  const minimalAnswer = judgeCreated(t.run, minimalResponse).response;
  t.judge(honourChargeRequestTable, { case: 'valid', body: minimal, answer: minimalAnswer });
  const largeCharge = large.status === 200 ? chargeOf(large.json) : undefined;
  if (largeCharge) t.judge(verifyChargeBrCode, { charge: largeCharge, exchange: large.exchange, amountCents: UNREPRESENTABLE_AMOUNT_CENTS });
  t.run.note(`amount_cents ${UNREPRESENTABLE_AMOUNT_CENTS} (R$ 10 billion, beyond BR Code field 54) answered ${large.status}`);
});

// "description | string | no | max 300 the service" (ASCII at the limit is checkable; how
// multi-byte text is counted is not stated: an observation only).
check('description: 300 characters accepted, 301 rejected with 422 naming the field', {
  id: 'partner.charges.description-max',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, honourChargeRequestTable, acceptMultibyteTexts],
}, async (t) => {
  await limitCheck(t, 'description', TEXT_LIMITS.partnerDescription);
});

// "external_ref | string | no | max 120 the service"
check('external_ref: 120 characters accepted and returned unchanged, 121 rejected with 422', {
  id: 'partner.charges.external-ref-max',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, honourChargeRequestTable, acceptMultibyteTexts, verifyExternalRefUnchanged],
}, async (t) => {
  await limitCheck(t, 'external_ref', TEXT_LIMITS.partnerExternalRef);
});

type LimitTools = Parameters<Parameters<typeof check>[2]>[0];

async function limitCheck(t: LimitTools, field: 'description' | 'external_ref', max: number): Promise<void> {
  // A unique prefix keeps the text (and for external_ref, the event label) ours.
  const unique = (text: string): string => (randomUUID().replace(/-/g, '') + text).slice(0, text.length);
  // Short multi-byte text is within the limit under every way of counting: accepted (a crash fails).
  const short = chargeBody(`mb-short-${field}`);
  short[field] = `${field === 'external_ref' ? short.external_ref ?? '' : 'conformance'} café ação \u{1F389}\u{1F680}`;
  t.judge(acceptMultibyteTexts, { field, near: 'short', answer: await t.partner().createCharge(short) });
  await t.property('ASCII at and over the limit', fc.tuple(asciiTextOfLength(max), asciiTextOfLength(max + 1)), async ([atMax, overMax], it) => {
    const at = chargeBody(`len-${field}`, { [field]: unique(atMax) });
    const overBody = chargeBody(`len-${field}`, { [field]: unique(overMax) });
    // a fresh charge at the limit and a body over it: independent, sent together, judged in this order
    const [atAnswer, over] = (await it.all([at, overBody], (body) => it.partner().createCharge(body))) as [ApiResponse, ApiResponse];
    const ok = judgeCreated(it.run, atAnswer);
    it.judge(honourChargeRequestTable, { case: 'valid', body: at, answer: atAnswer, edges: [field] });
    if (ok.charge && field === 'external_ref') {
      it.judge(verifyExternalRefUnchanged, { seen: ok.charge.external_ref, sent: at.external_ref, where: 'on creation (120 characters)', exchanges: [ok.response.exchange] });
    }
    it.judge(honourChargeRequestTable, { case: 'breaks', field, kind: 'too-long', requirements: [], what: `${field} of ${max + 1} characters`, answer: over });
  }, { numRuns: 2 });
  // Multi-byte near the limit: either answer is fair; only a 5xx or a non-2xx/4xx is a finding.
  await t.property('multi-byte at the limit (observation)', boundaryText({ max, labels: ['accented-at-max', 'emoji-at-max-code-points', 'emoji-at-max-utf16-units'] }), async (text, it) => {
    const body = chargeBody(`mb-${field}`, { [field]: text.value });
    const r = await it.partner().createCharge(body);
    it.judge(acceptMultibyteTexts, { field, near: 'at-limit', answer: r });
    it.run.note(`${field} ${text.label} (${text.lengths.codePoints} code points, ${text.lengths.utf16Units} UTF-16 units, ${text.lengths.utf8Bytes} bytes): HTTP ${r.status}`);
    const charge = r.status === 200 ? chargeOf(r.json) : undefined;
    if (charge && field === 'external_ref') {
      it.judge(verifyExternalRefUnchanged, { seen: charge.external_ref, sent: body.external_ref, where: 'on creation (multi-byte)', exchanges: [r.exchange] });
    }
  }, { numRuns: 3 });
}

// "expires_in_seconds | integer | no | 60 to 86400"
check('expires_in_seconds: 60 and 86400 accepted, 59 and 86401 rejected with 422', {
  id: 'partner.charges.expires-range',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, honourChargeRequestTable],
}, async (t) => {
  const accepted = [60, 86_400];
  const refused = [59, 86_401, 0, -60];
  // fresh charges and bodies a correct target refuses, all independent: sent together, judged in this order
  const bodies = [...accepted.map((seconds) => chargeBody('exp-ok', { expires_in_seconds: seconds })), ...refused.map((seconds) => chargeBody('exp-bad', { expires_in_seconds: seconds }))];
  const answers = await t.all(bodies, (body) => t.partner().createCharge(body));
  for (const k of accepted.keys()) {
    judgeCreated(t.run, answers[k] as ApiResponse);
    t.judge(honourChargeRequestTable, { case: 'valid', body: bodies[k] ?? {}, answer: answers[k] as ApiResponse, edges: ['expires_in_seconds'] });
  }
  for (const [k, seconds] of refused.entries()) {
    t.judge(honourChargeRequestTable, { case: 'breaks', field: 'expires_in_seconds', kind: seconds < 60 ? 'below-minimum' : 'above-maximum', requirements: [], what: `expires_in_seconds ${seconds}`, answer: answers[accepted.length + k] as ApiResponse });
  }
});

// "expires_in_seconds … default 3600". Against a reference with REFERENCE_PARTNER_EXPIRY_SCALE ≠ 1
// this check fails by design (the scaled reference is not the contract).
check('without expires_in_seconds a charge expires 3600 s after creation', {
  id: 'partner.charges.expires-default',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, verifyChargeLifetime],
}, async (t) => {
  const created = await createCharge(t.run, t.partner(), { amount_cents: 1234, external_ref: uniqueRef('exp-default') });
  if (!created.charge) return;
  t.judge(verifyChargeLifetime, { charge: created.charge, exchange: created.response.exchange, requestedSeconds: undefined });
});

// "expires_in_seconds | integer | no | 60 to 86400": the text never says expires_at = created_at +
// expires_in_seconds in so many words (the catalogue caps it at a warning).
check('expires_at reflects expires_in_seconds', {
  id: 'partner.charges.expires-applied',
  api: 'partner',
  area: AREA,
  rules: [...CREATES_CHARGES, verifyChargeLifetime],
}, async (t) => {
  await t.property('lifetimes', fc.integer({ min: 60, max: 86_400 }), async (seconds, it) => {
    const created = await createCharge(it.run, it.partner(), chargeBody('exp-applied', { expires_in_seconds: seconds }));
    if (!created.charge) return;
    it.judge(verifyChargeLifetime, { charge: created.charge, exchange: created.response.exchange, requestedSeconds: seconds });
  }, { numRuns: 3 });
});

// "404 | resource not found" on every by-id route (the same rule as the negative fuzzer's). URL
// dot-segments are another route after normalisation: never sent here.
check('an unknown charge id answers 404 {detail} on lookup, cancel and pay', {
  id: 'partner.charges.unknown-id-404',
  api: 'partner',
  area: AREA,
  rules: [answerUnknownIdNotFound],
}, async (t) => {
  const ids = fc.oneof(fc.uuid().map((u) => `chg_${u}`), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((s) => `zz-unknown-${s}`)).filter((id) => !isDotSegment(id));
  await t.property('unknown ids', ids, async (id, it) => {
    const client = it.partner();
    // an id that exists nowhere: the three refusals are independent, sent together, judged in this order
    const probes: Array<() => Promise<ApiResponse>> = [() => client.getCharge(id), () => client.cancelCharge(id), () => client.payCharge(id)];
    for (const r of await it.all(probes, (probe) => probe())) it.judge(answerUnknownIdNotFound, r);
  }, { numRuns: 3 });
});
