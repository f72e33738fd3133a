/**
 * Validation of the `POST /v1/business/pix-charges` body ("POST /v1/business/pix-charges" and
 * "Limits"). An invalid body is a 422 whose detail names the field ("Errors": "detail points to
 * the field").
 */
import type { PartnerFaultSwitch } from './faults.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';

export interface ChargeRequest {
  amountCents: number;
  description: string | null;
  externalRef: string | null;
  customerEmail: string | null;
  expiresInSeconds: number;
}

export type ChargeRequestResult = { ok: true; request: ChargeRequest } | { ok: false; field: string; rule: string; detail: string };

/** "description | max 300", "external_ref | max 120", "expires_in_seconds | 60 to 86400; default 3600". */
export const DESCRIPTION_MAX_CHARS = 300;
export const EXTERNAL_REF_MAX_CHARS = 120;
export const EXPIRES_MIN_SECONDS = 60;
export const EXPIRES_MAX_SECONDS = 86_400;
export const EXPIRES_DEFAULT_SECONDS = 3_600;

/**
 * The largest amount a charge can carry: the contract states no maximum ("amount_cents | integer |
 * greater than zero"), but `qr_code` is a standard central-bank EMV payload whose amount field (54)
 * holds at most 13 characters, "9999999999.99" reais.
 */
export const EMV_MAX_AMOUNT_CENTS = 999_999_999_999;

/** Characters are Unicode code points, or UTF-16 units (personality; the contract does not say). */
function charCount(text: string, p: Personality): number {
  return p.ptCharacterCount === 'utf16-units' ? text.length : [...text].length;
}

function invalid(field: string, rule: string): ChargeRequestResult {
  return { ok: false, field, rule, detail: `${field}: ${rule}` };
}

/** An optional string field: absent or null means "not given" (null is refused by the alt personality). */
function optionalString(body: Record<string, unknown>, field: string, maxChars: number, p: Personality): string | null | Error {
  const value = body[field];
  if (value === undefined) return null;
  if (value === null) return p.ptNullOptionalFields === 'refuse' ? new Error('must be a string (null is not accepted)') : null;
  if (typeof value !== 'string') return new Error('must be a string');
  if (charCount(value, p) > maxChars) return new Error(`must be at most ${maxChars} characters`);
  return value;
}

/** The amount's problem, worded for what is wrong with it, or undefined when it is valid. */
function amountProblem(amount: unknown, minimum: number, capped: boolean): string | undefined {
  if (amount === undefined || amount === null) return 'is required';
  if (typeof amount !== 'number' || !Number.isInteger(amount)) return 'must be an integer (cents)';
  if (amount < minimum) return 'must be greater than zero';
  if (capped && amount > EMV_MAX_AMOUNT_CENTS) return `must be at most ${EMV_MAX_AMOUNT_CENTS} (R$ 9999999999.99, the largest amount a BR Code carries)`;
  return undefined;
}

export function parseChargeRequest(body: unknown, faults: PartnerFaultSwitch, p: Personality = DEFAULT_PERSONALITY): ChargeRequestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('body', 'must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  // "detail points to the field": which one, when several are wrong, is the personality's order
  if (p.ptValidationOrder === 'expiry-first') {
    const expiry = expiresProblem(fields.expires_in_seconds, faults, p);
    if (expiry !== undefined) return invalid('expires_in_seconds', expiry);
  }

  // fault pt-amount-nan-accepted: `Number(x)` then `if (amount <= 0)`: NaN (missing, "abc") is never <= 0
  const lenient = faults.has('pt-amount-nan-accepted') ? Number(fields.amount_cents) : undefined;
  const amount = lenient !== undefined && !(lenient <= 0) ? lenient : fields.amount_cents;
  const amountMinimum = faults.has('pt-amount-zero-accepted') ? 0 : 1;
  const problem = lenient !== undefined && !(lenient <= 0) ? undefined : amountProblem(amount, amountMinimum, !faults.has('pt-qr-amount-over-13'));
  if (problem !== undefined || typeof amount !== 'number') {
    return invalid('amount_cents', problem ?? 'must be an integer (cents)');
  }

  const descriptionMax = faults.has('pt-description-301-accepted')
    ? DESCRIPTION_MAX_CHARS + 1
    : faults.has('pt-description-300-rejected')
      ? DESCRIPTION_MAX_CHARS - 1
      : DESCRIPTION_MAX_CHARS;
  const description = optionalString(fields, 'description', descriptionMax, p);
  if (description instanceof Error) return invalid('description', description.message);

  const externalRefMax = faults.has('pt-external-ref-121-accepted') ? EXTERNAL_REF_MAX_CHARS + 1 : EXTERNAL_REF_MAX_CHARS;
  const externalRef = optionalString(fields, 'external_ref', externalRefMax, p);
  if (externalRef instanceof Error) return invalid('external_ref', externalRef.message);

  // customer_email: the contract types it "string" with no rule, so no format check (DECISIONS.md).
  const customerEmail = optionalString(fields, 'customer_email', Number.MAX_SAFE_INTEGER, p);
  if (customerEmail instanceof Error) return invalid('customer_email', customerEmail.message);
  // fault pt-customer-email-required: the request model marks the optional field required
  if (customerEmail === null && faults.has('pt-customer-email-required')) return invalid('customer_email', 'is required');

  const expiry = expiresProblem(fields.expires_in_seconds, faults, p);
  if (expiry !== undefined) return invalid('expires_in_seconds', expiry);
  const expires = fields.expires_in_seconds;
  // fault pt-expires-in-ignored: validated, then never read
  const expiresInSeconds = typeof expires === 'number' && !faults.has('pt-expires-in-ignored') ? expires : faults.has('pt-default-expiry-wrong') ? 1_800 : EXPIRES_DEFAULT_SECONDS;

  return { ok: true, request: { amountCents: amount, description, externalRef, customerEmail, expiresInSeconds } };
}

/** "expires_in_seconds | 60 to 86400; default 3600": the problem, or undefined when valid or absent. */
function expiresProblem(expires: unknown, faults: PartnerFaultSwitch, p: Personality): string | undefined {
  if (expires === undefined) return undefined;
  if (expires === null) return p.ptNullOptionalFields === 'refuse' ? 'must be an integer (null is not accepted)' : undefined;
  const minimum = faults.has('pt-expires-59-accepted') ? 1 : EXPIRES_MIN_SECONDS;
  const maximum = faults.has('pt-expires-86401-accepted') ? Number.MAX_SAFE_INTEGER : EXPIRES_MAX_SECONDS;
  if (typeof expires !== 'number' || !Number.isSafeInteger(expires) || expires < minimum || expires > maximum) {
    return `must be an integer from ${EXPIRES_MIN_SECONDS} to ${EXPIRES_MAX_SECONDS}`;
  }
  return undefined;
}

