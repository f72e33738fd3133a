/**
 * Partner PIX charges: the charge's fields, its creation and its lookup (partner-cashin-api.md,
 * "PIX charge", "POST /v1/business/pix-charges", "GET /v1/business/pix-charges/:id").
 *
 * Every function is a rule: (observation, context) → Judgement, pure (no HTTP, no CheckRun). The
 * observation is plain data: the answer's status, its parsed JSON and its exchange.
 */
import type { Exchange } from '../../core/exchange.js';
import type { PartnerChargeRequest } from '../../http/partner-client.js';
import type { Judgement, RequirementId } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { verifyEmvAmount, verifyEmvCrc, verifyEmvDynamic, verifyEmvStructure } from '../emv.js';
import { verifyUtcTimestamp } from '../time.js';
import { expectStatus } from '../status.js';
import { isRecord } from '../../core/json.js';

export type Json = Record<string, unknown>;

/** What a rule sees of one HTTP answer (an ApiResponse is one). */
export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

/** An answer nothing can be concluded from: no response, or rate limited (the status rule reported it). */
export function inconclusive(answer: Pick<Answer, 'status'>): boolean {
  return answer.status === 0 || answer.status === 429;
}

/** No evaluation: the observation could not show the requirement either way. */
export const NOT_EVALUATED: Judgement = { requirements: [], findings: [] };

/**
 * The charge object of an answer. "Response fields: not shown beyond being the current state of
 * the charge": a bare charge or one wrapped in `data` are both accepted.
 */
export function chargeOf(json: unknown): Json | undefined {
  if (!isRecord(json)) return undefined;
  return isRecord(json.data) && typeof json.data.id === 'string' && typeof json.id !== 'string' ? json.data : json;
}

/** "id | string | charge id": a created charge carries a non-empty string id (the only handle to it). */
export function verifyChargeId(charge: Json | undefined, ctx: RuleContext): Judgement {
  const id = charge?.id;
  if (typeof id === 'string' && id !== '') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.id', title: 'a created charge has no usable id', severity: 'failure', expected: 'id: a non-empty string ("id | string | charge id")', actual: `id ${show(id)}` }));
}

/** "A charge is created in `pending`". */
export function ensureCreatedPending(charge: Json, ctx: RuleContext): Judgement {
  if (charge.status === 'pending') return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.not-pending', title: 'a new charge is not pending', severity: 'failure', expected: 'status "pending" ("A charge is created in `pending`")', actual: `status ${show(charge.status)}` }));
}

/** "amount_cents | integer | greater than zero": the charge carries the amount requested. */
export function verifyChargeAmount(charge: Json, sentCents: number, ctx: RuleContext): Judgement {
  if (charge.amount_cents === sentCents) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.amount', title: 'the charge amount differs from the amount requested', severity: 'failure', expected: `amount_cents ${sentCents}`, actual: `amount_cents ${show(charge.amount_cents)}` }));
}

/**
 * "external_ref | string | caller label, up to 120 the service; returned unchanged on lookups and in
 * webhooks": byte for byte (surrounding spaces and non-ASCII included). Nothing to judge when the
 * caller sent none.
 */
export function verifyExternalRefUnchanged(seen: unknown, sent: string | undefined, ctx: RuleContext & { where?: string }): Judgement {
  if (sent === undefined) return NOT_EVALUATED;
  if (seen === sent) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.external-ref-changed', title: `external_ref is not returned unchanged${ctx.where ? ` ${ctx.where}` : ''}`, severity: 'failure', expected: `external_ref ${show(sent)}`, actual: `external_ref ${show(seen)}` }));
}

/** Looks for image-like values ("No image is returned"): data:image URIs or base64 PNG/JPEG. */
export function imageLikeFields(charge: Json): string[] {
  return Object.entries(charge)
    .filter(([, v]) => typeof v === 'string' && (/^data:image\//i.test(v) || /^(iVBORw0KGgo|\/9j\/)/.test(v)))
    .map(([k]) => k);
}

/**
 * "No image is returned; the client generates the QR image." No field is named for an image, so
 * only image-like values can be looked for (PT-CHARGE-NO-IMAGE is marked ambiguous: a warning).
 */
export function ensureNoQrImage(charge: Json, ctx: RuleContext): Judgement {
  const images = imageLikeFields(charge);
  if (!images.length) return judge(ctx);
  return judge(ctx, makeFinding(ctx, { code: 'charge.image', title: 'the charge carries an image-like value', severity: 'warning', expected: 'no QR image ("the client generates the QR image")', actual: `image-like value in ${images.join(', ')}` }));
}

/**
 * "Creates dynamic PIX charges and returns the copy-and-paste code (`qr_code`, standard central-bank
 * EMV payload)": the BR Code parses (TLV, CRC), carries the charge amount, and is dynamic. The text
 * says "dynamic": a static code (a key in 26.01, no payload URL in 26.25) is a failure (issue 15).
 */
export function verifyChargeBrCode(qrCode: unknown, amountCents: number, ctx: Omit<RuleContext, 'requirements'>): Judgement {
  const qr: RuleContext = { ...ctx, requirements: ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR'], subject: 'qr_code', pointer: '/qr_code' };
  const structure = verifyEmvStructure(qrCode, qr);
  const parts = [structure, verifyEmvCrc(qrCode, qr)];
  if (structure.findings.length === 0) parts.push(verifyEmvAmount(qrCode, amountCents, qr));
  parts.push(verifyEmvDynamic(qrCode, { ...qr, requirements: ['PT-CHARGE-QR-DYNAMIC'] }));
  return combine(...parts);
}

/** "expires_at | string | ISO 8601 UTC", "created_at | string | ISO 8601 UTC" (any ISO 8601 form, zone UTC). */
export function verifyChargeTimestamps(charge: Json, ctx: Omit<RuleContext, 'requirements'>): Judgement {
  return combine(
    ...(['created_at', 'expires_at'] as const).map((field) => verifyUtcTimestamp(charge[field], { ...ctx, requirements: ['PT-CHARGE-TIMESTAMPS-UTC'], subject: field, pointer: `/${field}` })),
  );
}

/**
 * The charge as returned on creation ("200: PIX charge."): pending, the amount sent, the external_ref
 * unchanged, the BR Code, UTC timestamps, no image. Field types are judged by the contract
 * validation of every exchange (specs/partner.openapi.yaml).
 */
export function verifyCreatedCharge(observation: { charge: Json; sent: PartnerChargeRequest; exchange: Exchange }): Judgement {
  const { charge, sent } = observation;
  const base = { exchanges: [observation.exchange] };
  return combine(
    verifyChargeId(charge, { ...base, requirements: ['PT-CHARGE-FIELD-ID'] }),
    ensureCreatedPending(charge, { ...base, requirements: ['PT-CHARGE-CREATE-PENDING'] }),
    verifyChargeAmount(charge, sent.amount_cents, { ...base, requirements: ['PT-CHARGE-FIELD-AMOUNT'] }),
    verifyExternalRefUnchanged(charge.external_ref, sent.external_ref, { ...base, requirements: ['PT-CHARGE-EXTREF-UNCHANGED'], where: 'on creation' }),
    verifyChargeBrCode(charge.qr_code, sent.amount_cents, base),
    verifyChargeTimestamps(charge, base),
    ensureNoQrImage(charge, { ...base, requirements: ['PT-CHARGE-NO-IMAGE'] }),
  );
}

/**
 * A lookup of a charge we know ("Returns the current state of the charge"; "Response fields: not
 * shown beyond being the current state"): the state the caller expects, the same amount when shown;
 * external_ref unchanged when shown, and an omitted external_ref only warns (PT-CHARGE-GET-FIELDS is
 * ambiguous in the catalogue).
 */
export function verifyLookedUpCharge(observation: { charge: Json; sent: PartnerChargeRequest; exchange: Exchange }): Judgement {
  const { charge, sent } = observation;
  const base = { exchanges: [observation.exchange] };
  // lookup fields are "not shown": the amount is judged only when the lookup shows one
  const parts: Judgement[] = 'amount_cents' in charge ? [verifyChargeAmount(charge, sent.amount_cents, { ...base, requirements: ['PT-CHARGE-GET-CURRENT'] })] : [];
  const fields = { ...base, requirements: ['PT-CHARGE-GET-FIELDS'] as const };
  if (sent.external_ref !== undefined && !('external_ref' in charge)) {
    parts.push(judge(fields, makeFinding(fields, { code: 'charge.lookup-fields', title: 'the lookup omits external_ref', severity: 'warning', expected: 'the documented charge fields, external_ref included ("returned unchanged on lookups")', actual: show(charge, 300) })));
  } else {
    parts.push(judge(fields), verifyExternalRefUnchanged(charge.external_ref, sent.external_ref, { ...base, requirements: ['PT-CHARGE-EXTREF-UNCHANGED'], where: 'on lookup' }));
  }
  return combine(...parts);
}

/** Tolerance for `expires_at − created_at`: the two may be stamped at slightly different moments. */
export const LIFETIME_SKEW_SECONDS = 5;

/** expires_at − created_at in seconds, both read from the charge (the service's own clock). */
export function lifetimeSeconds(charge: Json): number | undefined {
  if (typeof charge.expires_at !== 'string' || typeof charge.created_at !== 'string') return undefined;
  const d = (Date.parse(charge.expires_at) - Date.parse(charge.created_at)) / 1000;
  return Number.isFinite(d) ? d : undefined;
}

/**
 * "expires_in_seconds | integer | no | 60 to 86400; default 3600": a charge created with
 * `requestedSeconds` (3600 when none was sent) expires that long after its created_at, within
 * {@link LIFETIME_SKEW_SECONDS}. The caller names PT-CHARGE-EXPIRES-DEFAULT (stated) or
 * PT-CHARGE-EXPIRES-APPLIED (the catalogue marks it ambiguous: a warning).
 */
export function verifyChargeLifetime(charge: Json, requestedSeconds: number, ctx: RuleContext): Judgement {
  const life = lifetimeSeconds(charge);
  if (life !== undefined && Math.abs(life - requestedSeconds) <= LIFETIME_SKEW_SECONDS) return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: ctx.requirements.includes('PT-CHARGE-EXPIRES-DEFAULT') ? 'charge.expiry-default' : 'charge.expiry-applied',
    title: `expires_at is not created_at + ${requestedSeconds} s`,
    severity: 'failure',
    expected: `expires_at ≈ created_at + ${requestedSeconds} s (± ${LIFETIME_SKEW_SECONDS} s)`,
    actual: `created_at ${show(charge.created_at)}, expires_at ${show(charge.expires_at)} (${life ?? '?'} s)`,
  }));
}

/**
 * The optional fields of `POST /v1/business/pix-charges` ("Required: no") and the catalogue entry of
 * each one's row: a body without them is still a valid request.
 */
export const OPTIONAL_CHARGE_FIELDS = {
  description: 'PT-CHARGE-DESC-MAX',
  external_ref: 'PT-CHARGE-EXTREF-MAX',
  customer_email: 'PT-CHARGE-EMAIL-OPTIONAL',
  expires_in_seconds: 'PT-CHARGE-EXPIRES-DEFAULT',
} as const satisfies Record<string, RequirementId>;

/** How a `detail` may point at a creation field ("detail points to the field"; wording not shown), lower case. */
const FIELD_WORDS: Readonly<Record<string, readonly string[]>> = {
  amount_cents: ['amount'],
  description: ['description'],
  external_ref: ['external_ref', 'external ref', 'externalref'],
  customer_email: ['email', 'e-mail'],
  expires_in_seconds: ['expires_in', 'expir'],
};

/**
 * "amount_cents | integer | yes"; every other field "| no |": a body that leaves optional fields out
 * is accepted. A refusal is filed under the omitted fields' rows, narrowed to those the `detail`
 * names when it names any ("detail points to the field"); a detail naming only fields that were sent
 * is a refusal of their values, not of the omissions, and decides nothing here. A 429 or no answer
 * decides nothing.
 */
export function ensureOptionalFieldsOmittable(observation: { answer: Answer; sent: Readonly<Partial<Record<keyof typeof OPTIONAL_CHARGE_FIELDS, unknown>>> }, ctx: Omit<RuleContext, 'requirements'>): Judgement {
  const { answer, sent } = observation;
  const omitted = (Object.keys(OPTIONAL_CHARGE_FIELDS) as Array<keyof typeof OPTIONAL_CHARGE_FIELDS>).filter((f) => sent[f] === undefined);
  if (omitted.length === 0 || inconclusive(answer)) return NOT_EVALUATED;
  const base: RuleContext = { ...ctx, exchanges: [...(ctx.exchanges ?? []), answer.exchange], requirements: omitted.map((f) => OPTIONAL_CHARGE_FIELDS[f]) };
  if (answer.status >= 200 && answer.status <= 299) return judge(base);
  const detail = isRecord(answer.json) && typeof answer.json.detail === 'string' ? answer.json.detail : '';
  const lower = detail.toLowerCase();
  const points = (field: string): boolean => (FIELD_WORDS[field] ?? [field]).some((w) => lower.includes(w));
  const named = omitted.filter(points);
  // a detail that points only at a field we did send ("detail points to the field") refuses that
  // value, not the omissions: the creation's own status rule (PT-CHARGE-CREATE-200) judges it
  const sentFields = ['amount_cents', ...Object.keys(sent).filter((f) => sent[f as keyof typeof sent] !== undefined)];
  if (named.length === 0 && sentFields.some(points)) return NOT_EVALUATED;
  const blamed = named.length > 0 ? named : omitted;
  return judge(base, makeFinding(base, {
    code: 'charge.optional-field-required',
    title: `a charge body without ${omitted.join(', ')} is refused`,
    severity: 'failure',
    requirements: blamed.map((f) => OPTIONAL_CHARGE_FIELDS[f]),
    expected: `200: only amount_cents is required ("${blamed.join('", "')} | … | no")`,
    actual: `HTTP ${answer.status}${detail ? `, detail ${show(detail)}` : ''}`,
  }));
}

/**
 * "description | string | no | max 300" / "external_ref | string | no | max 120": a short text with
 * accents and an emoji is within the limit however characters are counted (code points, UTF-16
 * units or UTF-8 bytes), so it is a valid value. A 5xx (a crash on multi-byte input) fails; a 4xx
 * only warns: the text names no character set, though it allows no refusal either. Near the limit
 * the counting is open (PT-CHARGE-DESC-MULTIBYTE, PT-CHARGE-EXTREF-MULTIBYTE): only observed.
 */
export function ensureShortMultibyteAccepted(answer: Answer, ctx: RuleContext): Judgement {
  return expectStatus(answer.exchange, 200, ctx, { otherClientError: 'warning' });
}
