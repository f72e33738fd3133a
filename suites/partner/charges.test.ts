/**
 * Partner PIX charges: creation, the returned charge, limits, lookups.
 * partner-cashin-api.md "POST /v1/business/pix-charges", "PIX charge", "GET /v1/business/pix-charges/:id".
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import { makeFinding, show, verifyDetailNamesField } from '../../harness/rules/index.js';
import { asciiTextOfLength, boundaryText, TEXT_LIMITS } from '../../generators/index.js';
import {
  chargeBody,
  createCharge,
  ctxOf,
  expectError,
  isRecord,
  lookupState,
  status,
  uniqueRef,
  validChargeBody,
  verifyCreatedCharge,
  verifyExternalRef,
} from './support.js';

const AREA = 'PIX charges';

// "Creates dynamic PIX charges and returns the copy-and-paste code (`qr_code`, standard
// central-bank EMV payload)"; "A charge is created in `pending`"; "200: PIX charge.";
// "external_ref … returned unchanged on lookups"; "expires_at / created_at | ISO 8601 UTC";
// "GET …/:id Returns the current state of the charge".
check('a valid charge is created pending, with a BR Code for its amount, and looked up unchanged', {
  id: 'partner.charges.create-valid',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: [
    'PT-CHARGE-CREATE-200', 'PT-CHARGE-CREATE-PENDING', 'PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR', 'PT-CHARGE-QR-DYNAMIC',
    'PT-CHARGE-TIMESTAMPS-UTC', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-CHARGE-GET-CURRENT', 'PT-CHARGE-FIELD-AMOUNT',
    'PT-CHARGE-FIELD-ID', 'PT-CHARGE-EMAIL-OPTIONAL', 'PT-CHARGE-FIELD-EMAIL', 'PT-CHARGE-NO-IMAGE', 'PT-MONEY-INTEGER-CENTS',
    'PT-AUTH-BEARER', 'PT-ENV-SAME-ADDRESS', 'PT-CHARGE-GET-FIELDS',
    // field types are judged by the contract validation of every exchange (specs/partner.openapi.yaml)
    'PT-CHARGE-FIELD-STATUS', 'PT-CHARGE-FIELD-DESC', 'PT-CHARGE-FIELD-EXTREF', 'PT-CHARGE-FIELD-PROVIDER', 'PT-CHARGE-FIELD-E2E',
  ],
}, async (t) => {
  await t.property('valid bodies', validChargeBody('create'), async (body, it) => {
    const created = await createCharge(it.run, it.partner(), body);
    if (!created.charge || !created.id) return;
    verifyCreatedCharge(it.run, created.response, created.charge, body);
    const seen = await lookupState(it.run, it.partner(), created.id);
    if (!seen.charge) return;
    if (seen.state !== 'pending') {
      it.run.record(makeFinding(ctxOf(['PT-CHARGE-GET-CURRENT'], [seen.response.exchange]), { code: 'charge.state', title: 'a fresh charge is not pending on lookup', severity: 'failure', expected: 'status "pending"', actual: `status ${show(seen.state)}` }));
    }
    if ('external_ref' in seen.charge) verifyExternalRef(it.run, seen.response, seen.charge.external_ref, body.external_ref, 'on lookup');
    else it.run.record(makeFinding(ctxOf(['PT-CHARGE-GET-FIELDS'], [seen.response.exchange]), { code: 'charge.lookup-fields', title: 'the lookup omits external_ref', severity: 'warning', expected: 'the documented charge fields', actual: show(seen.charge, 300) }));
    if ('amount_cents' in seen.charge && seen.charge.amount_cents !== body.amount_cents) {
      it.run.record(makeFinding(ctxOf(['PT-CHARGE-GET-CURRENT'], [seen.response.exchange]), { code: 'charge.amount', title: 'the lookup shows another amount', severity: 'failure', expected: `amount_cents ${body.amount_cents}`, actual: `amount_cents ${show(seen.charge.amount_cents)}` }));
    }
  }, { numRuns: 6 });
});

// "description | string | no | max 300 the service" (ASCII at the limit is checkable; how
// multi-byte text is counted is not stated: an observation only).
check('description: 300 characters accepted, 301 rejected with 422 naming the field', {
  id: 'partner.charges.description-max',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-DESC-MAX', 'PT-CHARGE-DESC-MULTIBYTE', 'PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD'],
}, async (t) => {
  await limitCheck(t, 'description', TEXT_LIMITS.partnerDescription, ['PT-CHARGE-DESC-MAX'], 'PT-CHARGE-DESC-MULTIBYTE');
});

// "external_ref | string | no | max 120 the service"
check('external_ref: 120 characters accepted and returned unchanged, 121 rejected with 422', {
  id: 'partner.charges.external-ref-max',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-EXTREF-MAX', 'PT-CHARGE-EXTREF-MULTIBYTE', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD'],
}, async (t) => {
  await limitCheck(t, 'external_ref', TEXT_LIMITS.partnerExternalRef, ['PT-CHARGE-EXTREF-MAX'], 'PT-CHARGE-EXTREF-MULTIBYTE');
});

type LimitTools = Parameters<Parameters<typeof check>[2]>[0];

async function limitCheck(t: LimitTools, field: 'description' | 'external_ref', max: number, requirements: string[], multibyteReq: string): Promise<void> {
  // A unique prefix keeps the text (and for external_ref, the event label) ours.
  const unique = (text: string): string => (randomUUID().replace(/-/g, '') + text).slice(0, text.length);
  await t.property('ASCII at and over the limit', fc.tuple(asciiTextOfLength(max), asciiTextOfLength(max + 1)), async ([atMax, overMax], it) => {
    const at = chargeBody(`len-${field}`, { [field]: unique(atMax) });
    const ok = await createCharge(it.run, it.partner(), at);
    if (ok.charge && field === 'external_ref') verifyExternalRef(it.run, ok.response, ok.charge.external_ref, at.external_ref, 'on creation (120 characters)');
    const over = await it.partner().createCharge(chargeBody(`len-${field}`, { [field]: unique(overMax) }));
    if (expectError(it.run, over, 422, [...requirements, 'PT-ERR-422-INVALID-BODY'])) {
      it.run.record(verifyDetailNamesField(over.json, field, ctxOf(['PT-ERR-422-FIELD'], [over.exchange])));
    }
  }, { numRuns: 2 });
  // Multi-byte near the limit: either answer is fair; only a 5xx or a non-2xx/4xx is a finding.
  await t.property('multi-byte at the limit (observation)', boundaryText({ max, labels: ['accented-at-max', 'emoji-at-max-code-points', 'emoji-at-max-utf16-units'] }), async (text, it) => {
    const body = chargeBody(`mb-${field}`, { [field]: text.value });
    const r = await it.partner().createCharge(body);
    status(it.run, r, [200, 422], [multibyteReq]);
    it.run.note(`${field} ${text.label} (${text.lengths.codePoints} code points, ${text.lengths.utf16Units} UTF-16 units, ${text.lengths.utf8Bytes} bytes): HTTP ${r.status}`);
    if (r.status === 200 && isRecord(r.json) && field === 'external_ref') verifyExternalRef(it.run, r, r.json.external_ref, body.external_ref, 'on creation (multi-byte)');
  }, { numRuns: 3 });
}

// "expires_in_seconds | integer | no | 60 to 86400"
check('expires_in_seconds: 60 and 86400 accepted, 59 and 86401 rejected with 422', {
  id: 'partner.charges.expires-range',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-EXPIRES-RANGE', 'PT-ERR-422-INVALID-BODY', 'PT-ERR-422-FIELD'],
}, async (t) => {
  for (const seconds of [60, 86_400]) await createCharge(t.run, t.partner(), chargeBody('exp-ok', { expires_in_seconds: seconds }));
  for (const seconds of [59, 86_401, 0, -60]) {
    const r = await t.partner().createCharge(chargeBody('exp-bad', { expires_in_seconds: seconds }));
    if (expectError(t.run, r, 422, ['PT-CHARGE-EXPIRES-RANGE', 'PT-ERR-422-INVALID-BODY'])) {
      t.run.record(verifyDetailNamesField(r.json, 'expires_in_seconds', ctxOf(['PT-ERR-422-FIELD'], [r.exchange])));
    }
  }
});

/** expires_at − created_at in seconds, both read from the charge (so the clocks of client and service do not matter). */
function lifetimeSeconds(charge: Record<string, unknown>): number | undefined {
  if (typeof charge.expires_at !== 'string' || typeof charge.created_at !== 'string') return undefined;
  const d = (Date.parse(charge.expires_at) - Date.parse(charge.created_at)) / 1000;
  return Number.isFinite(d) ? d : undefined;
}

/** Tolerance for `expires_at − created_at`: the two may be stamped at slightly different moments. */
const SKEW_SECONDS = 5;

// "expires_in_seconds … default 3600". Against a reference with REFERENCE_PARTNER_EXPIRY_SCALE ≠ 1
// this check fails by design (the scaled reference is not the contract).
check('without expires_in_seconds a charge expires 3600 s after creation', {
  id: 'partner.charges.expires-default',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-EXPIRES-DEFAULT'],
}, async (t) => {
  const created = await createCharge(t.run, t.partner(), { amount_cents: 1234, external_ref: uniqueRef('exp-default') });
  if (!created.charge) return;
  const life = lifetimeSeconds(created.charge);
  if (life === undefined || Math.abs(life - 3600) > SKEW_SECONDS) {
    t.run.record(makeFinding(ctxOf(['PT-CHARGE-EXPIRES-DEFAULT'], [created.response.exchange]), {
      code: 'charge.expiry-default',
      title: 'the default expiry is not 3600 s',
      severity: 'failure',
      expected: `expires_at ≈ created_at + 3600 s (± ${SKEW_SECONDS} s)`,
      actual: `created_at ${show(created.charge.created_at)}, expires_at ${show(created.charge.expires_at)} (${life ?? '?'} s)`,
    }));
  }
});

// "expires_in_seconds | integer | no | 60 to 86400": the text never says expires_at = created_at +
// expires_in_seconds in so many words (PT-CHARGE-EXPIRES-APPLIED ambiguity): a warning.
check('expires_at reflects expires_in_seconds', {
  id: 'partner.charges.expires-applied',
  api: 'partner',
  area: AREA,
  requirements: ['PT-CHARGE-EXPIRES-APPLIED'],
}, async (t) => {
  await t.property('lifetimes', fc.integer({ min: 60, max: 86_400 }), async (seconds, it) => {
    const created = await createCharge(it.run, it.partner(), chargeBody('exp-applied', { expires_in_seconds: seconds }));
    if (!created.charge) return;
    const life = lifetimeSeconds(created.charge);
    if (life === undefined || Math.abs(life - seconds) > SKEW_SECONDS) {
      it.run.record(makeFinding(ctxOf(['PT-CHARGE-EXPIRES-APPLIED'], [created.response.exchange]), {
        code: 'charge.expiry-applied',
        title: 'expires_at does not reflect expires_in_seconds',
        severity: 'warning',
        expected: `expires_at ≈ created_at + ${seconds} s (± ${SKEW_SECONDS} s)`,
        actual: `created_at ${show(created.charge.created_at)}, expires_at ${show(created.charge.expires_at)} (${life ?? '?'} s)`,
      }));
    }
  }, { numRuns: 3 });
});

// "404 | resource not found" on every by-id route.
check('an unknown charge id answers 404 {detail} on lookup, cancel and pay', {
  id: 'partner.charges.unknown-id-404',
  api: 'partner',
  area: AREA,
  requirements: ['PT-ERR-404-UNKNOWN', 'PT-ERR-DETAIL-SHAPE'],
}, async (t) => {
  const ids = fc.oneof(fc.uuid().map((u) => `chg_${u}`), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((s) => `zz-unknown-${s}`));
  await t.property('unknown ids', ids, async (id, it) => {
    const client = it.partner();
    for (const r of [await client.getCharge(id), await client.cancelCharge(id), await client.payCharge(id)]) {
      expectError(it.run, r, 404, ['PT-ERR-404-UNKNOWN']);
    }
  }, { numRuns: 3 });
});
