/**
 * International card charge payloads (`card` object of POST /api/v1/card).
 *
 * Contract (gateway-api.md, POST /api/v1/card):
 * - `card.token` string, required: "the service id (format `ctoken_...`) captured in the buyer browser
 *   by a payment element; raw card number, CVV or expiry are never accepted".
 * - `card.last4`, `card.brand`: "echoed, not validated; a placeholder is allowed"; Card charge
 *   response: "echoed exactly as sent, never validated or extracted".
 * - `card.holderName` string, required; `card.installments` integer, optional, "minimum 1; accepted
 *   but without effect; always a single payment".
 * - Sandbox: "any card.token without the text decline" → `paid`; "card.token contains decline" → `refused`.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { personName } from './customers.js';

export interface CardPayload {
  token: string;
  last4: string;
  brand: string;
  holderName: string;
  installments?: number;
}

const TOKEN_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function tokenBody(minLength: number, maxLength: number): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength, maxLength });
}

/** A `ctoken_…` token that does not contain `decline` in any letter case (sandbox: approved). */
export function approvedCardToken(): Arbitrary<string> {
  return tokenBody(8, 24)
    .map((body) => `ctoken_${body}`)
    .filter((t) => !/decline/i.test(t));
}

/** A `ctoken_…` token containing the text `decline` at some position (sandbox: refused). */
export function declineCardToken(): Arbitrary<string> {
  return fc
    .tuple(tokenBody(0, 12), tokenBody(0, 12))
    .map(([before, after]) => `ctoken_${before}decline${after}`);
}

/** A card token: approved (default), declining, or either. */
export function cardToken(options: { outcome?: 'approved' | 'declined' | 'any' } = {}): Arbitrary<string> {
  const outcome = options.outcome ?? 'approved';
  if (outcome === 'approved') return approvedCardToken();
  if (outcome === 'declined') return declineCardToken();
  if (outcome === 'any') return fc.oneof(approvedCardToken(), declineCardToken());
  throw new Error(`generators.cardToken: unknown outcome ${JSON.stringify(outcome)}`);
}

/** `card.last4`: digits, or a placeholder string — never validated, echoed exactly. */
export function cardLast4(): Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 4, maxLength: 4 }),
    fc.constantFrom('0000', '4242', 'xxxx', '****', 'test'),
    fc.string({ minLength: 1, maxLength: 8 }),
  );
}

/** `card.brand`: a usual brand name or a placeholder string — never validated, echoed exactly. */
export function cardBrand(): Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('visa', 'mastercard', 'amex', 'elo', 'VISA', 'Mastercard', 'placeholder', 'unknown'),
    fc.string({ minLength: 1, maxLength: 16 }),
  );
}

export interface CardOptions {
  outcome?: 'approved' | 'declined' | 'any';
  /** `random` (default): sometimes present; `always`; `never`. */
  installments?: 'random' | 'always' | 'never';
}

/** A valid `card` object. */
export function card(options: CardOptions = {}): Arbitrary<CardPayload> {
  const mode = options.installments ?? 'random';
  if (mode !== 'random' && mode !== 'always' && mode !== 'never') throw new Error(`generators.card: unknown installments ${JSON.stringify(mode)}`);
  return fc
    .record({
      token: cardToken({ outcome: options.outcome ?? 'approved' }),
      last4: cardLast4(),
      brand: cardBrand(),
      holderName: personName().map((n) => n.toUpperCase()),
      withInstallments: mode === 'random' ? fc.boolean() : fc.constant(mode === 'always'),
      installments: fc.integer({ min: 1, max: 12 }),
    })
    .map(({ withInstallments, installments, ...rest }) => (withInstallments ? { ...rest, installments } : rest));
}

/** `installments` values below the documented minimum of 1 (0 and negatives). */
export function invalidInstallments(): Arbitrary<number> {
  return fc.integer({ min: -12, max: 0 });
}

/** Luhn check digit for a digit string (the digit to append). */
export function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let d = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A plausible card number: a well-known test PAN or a Luhn-valid 16-digit number with a brand prefix. */
export function plausiblePan(): Arbitrary<string> {
  const known = fc.constantFrom('4111111111111111', '4242424242424242', '5555555555554444', '378282246310005', '6011111111111117');
  const generated = fc
    .tuple(fc.constantFrom('4', '51', '52', '53', '54', '55'), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 14, maxLength: 14 }))
    .map(([prefix, rest]) => {
      const partial = (prefix + rest).slice(0, 15);
      return partial + luhnCheckDigit(partial);
    });
  return fc.oneof(known, generated);
}

export type RawCardField = 'card.number' | 'card.cvv' | 'card.expiry' | 'card.expMonth+expYear' | 'card.full-raw';

export interface RawCardInjection {
  kind: RawCardField;
  /** Whether a valid `ctoken_` token is still present next to the raw fields. */
  tokenPresent: boolean;
  /** The fields added to `card`. */
  injected: Record<string, string | number>;
  card: Record<string, unknown>;
}

/**
 * A `card` object carrying raw card data ("raw card number, CVV or expiry are never accepted"),
 * labelled. With `tokenPresent: false` the token is removed (raw data instead of a token).
 */
export function rawCardInjection(options: { kind?: RawCardField; tokenPresent?: boolean } = {}): Arbitrary<RawCardInjection> {
  const kinds: readonly RawCardField[] = options.kind ? [options.kind] : ['card.number', 'card.cvv', 'card.expiry', 'card.expMonth+expYear', 'card.full-raw'];
  return fc
    .record({
      base: card({ installments: 'never' }),
      kind: fc.constantFrom(...kinds),
      tokenPresent: options.tokenPresent === undefined ? fc.boolean() : fc.constant(options.tokenPresent),
      pan: plausiblePan(),
      cvv: fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 3, maxLength: 4 }),
      month: fc.integer({ min: 1, max: 12 }),
      year: fc.integer({ min: 2027, max: 2035 }),
    })
    .map(({ base, kind, tokenPresent, pan, cvv, month, year }) => {
      const mm = String(month).padStart(2, '0');
      const expiry = `${mm}/${String(year).slice(2)}`;
      const injected: Record<string, string | number> =
        kind === 'card.number'
          ? { number: pan }
          : kind === 'card.cvv'
            ? { cvv }
            : kind === 'card.expiry'
              ? { expiry }
              : kind === 'card.expMonth+expYear'
                ? { expMonth: month, expYear: year }
                : { number: pan, cvv, expiry };
      const cardObject: Record<string, unknown> = { ...base, ...injected };
      if (!tokenPresent) delete cardObject.token;
      return { kind, tokenPresent, injected, card: cardObject };
    });
}
