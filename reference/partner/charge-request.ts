/**
 * Validation of the `POST /v1/business/pix-charges` body ("POST /v1/business/pix-charges" and
 * "Limits"). An invalid body is a 422 whose detail names the field ("Errors": "detail points to
 * the field").
 */
import type { PartnerFaultSwitch } from './faults.js';

export interface ChargeRequest {
  amountCents: number;
  description: string | null;
  externalRef: string | null;
  customerEmail: string | null;
  expiresInSeconds: number;
}

export type ChargeRequestResult = { ok: true; request: ChargeRequest } | { ok: false; field: string; detail: string };

/** "description | max 300", "external_ref | max 120", "expires_in_seconds | 60 to 86400; default 3600". */
export const DESCRIPTION_MAX_CHARS = 300;
export const EXTERNAL_REF_MAX_CHARS = 120;
export const EXPIRES_MIN_SECONDS = 60;
export const EXPIRES_MAX_SECONDS = 86_400;
export const EXPIRES_DEFAULT_SECONDS = 3_600;

/** Characters are Unicode code points (the contract does not say; see DECISIONS.md). */
function charCount(text: string): number {
  return [...text].length;
}

function invalid(field: string, rule: string): ChargeRequestResult {
  return { ok: false, field, detail: `${field}: ${rule}` };
}

/** An optional string field: absent or null means "not given". */
function optionalString(body: Record<string, unknown>, field: string, maxChars: number): string | null | Error {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return new Error('must be a string');
  if (charCount(value) > maxChars) return new Error(`must be at most ${maxChars} characters`);
  return value;
}

export function parseChargeRequest(body: unknown, faults: PartnerFaultSwitch): ChargeRequestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('body', 'must be a JSON object');
  }
  const fields = body as Record<string, unknown>;

  const amount = fields.amount_cents;
  const amountMinimum = faults.has('pt-amount-zero-accepted') ? 0 : 1;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < amountMinimum) {
    return invalid('amount_cents', 'is required and must be an integer greater than zero');
  }

  const descriptionMax = faults.has('pt-description-301-accepted')
    ? DESCRIPTION_MAX_CHARS + 1
    : faults.has('pt-description-300-rejected')
      ? DESCRIPTION_MAX_CHARS - 1
      : DESCRIPTION_MAX_CHARS;
  const description = optionalString(fields, 'description', descriptionMax);
  if (description instanceof Error) return invalid('description', description.message);

  const externalRefMax = faults.has('pt-external-ref-121-accepted') ? EXTERNAL_REF_MAX_CHARS + 1 : EXTERNAL_REF_MAX_CHARS;
  const externalRef = optionalString(fields, 'external_ref', externalRefMax);
  if (externalRef instanceof Error) return invalid('external_ref', externalRef.message);

  // customer_email: the contract types it "string" with no rule, so no format check (DECISIONS.md).
  const customerEmail = optionalString(fields, 'customer_email', Number.MAX_SAFE_INTEGER);
  if (customerEmail instanceof Error) return invalid('customer_email', customerEmail.message);

  let expiresInSeconds = faults.has('pt-default-expiry-wrong') ? 1_800 : EXPIRES_DEFAULT_SECONDS;
  const expires = fields.expires_in_seconds;
  if (expires !== undefined && expires !== null) {
    const minimum = faults.has('pt-expires-59-accepted') ? 1 : EXPIRES_MIN_SECONDS;
    const maximum = faults.has('pt-expires-86401-accepted') ? Number.MAX_SAFE_INTEGER : EXPIRES_MAX_SECONDS;
    if (typeof expires !== 'number' || !Number.isSafeInteger(expires) || expires < minimum || expires > maximum) {
      return invalid('expires_in_seconds', `must be an integer from ${EXPIRES_MIN_SECONDS} to ${EXPIRES_MAX_SECONDS}`);
    }
    expiresInSeconds = expires;
  }

  return { ok: true, request: { amountCents: amount, description, externalRef, customerEmail, expiresInSeconds } };
}

