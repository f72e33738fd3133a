/**
 * Money amounts (integers in cents) around every documented minimum.
 *
 * Contract:
 * - gateway-api.md "Money values are integers in cents (1050 means 10.50)."
 * - gateway POST /api/v1/pix/in/qrcode `amountInCents` integer, "minimum 100".
 * - gateway POST /api/v1/card `amountInCents` integer, "minimum 100".
 * - gateway POST /api/v1/pix/out/pixkey `amount` integer, "cents, minimum 1".
 * - partner POST /v1/business/pix-charges `amount_cents` integer, "greater than zero" (so minimum 1).
 * - gateway Limits: "Rate-limit thresholds and maximum amounts: not shown." — a huge amount is
 *   therefore `unspecified` (never `invalid`): the contract leaves the maximum open.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** Documented minimums, in cents. */
export const AMOUNT_MINIMUMS = {
  /** gateway POST /api/v1/pix/in/qrcode amountInCents: "minimum 100". */
  gatewayPixCharge: 100,
  /** gateway POST /api/v1/card amountInCents: "minimum 100". */
  gatewayCard: 100,
  /** gateway POST /api/v1/pix/out/pixkey amount: "cents, minimum 1". */
  gatewayTransfer: 1,
  /** partner POST /v1/business/pix-charges amount_cents: "greater than zero". */
  partnerCharge: 1,
} as const;

/** `valid`/`invalid` per a documented rule; `unspecified` where the contract leaves the choice open. */
export type AmountValidity = 'valid' | 'invalid' | 'unspecified';

export type AmountLabel =
  | 'min-1'
  | 'min'
  | 'min+1'
  | 'zero'
  | 'negative'
  | 'huge-max-safe-integer'
  | 'huge-2^31'
  | 'fractional'
  | 'string'
  | 'null';

export interface LabelledAmount {
  label: AmountLabel;
  /** What goes in the JSON body (not always a number: `"100"`, `null`). */
  value: unknown;
  validity: AmountValidity;
  /** Why, in the contract's terms. */
  reason: string;
}

function checkMin(name: string, min: number): void {
  if (!Number.isSafeInteger(min)) throw new Error(`generators.${name}: min must be a safe integer, got ${String(min)}`);
}

/** A valid integer amount in [min, max]; `max` defaults to min + 1 000 000 (maximums are not shown). */
export function validAmount(options: { min: number; max?: number }): Arbitrary<number> {
  checkMin('validAmount', options.min);
  const max = options.max ?? options.min + 1_000_000;
  if (!Number.isSafeInteger(max)) throw new Error(`generators.validAmount: max must be a safe integer, got ${String(max)}`);
  if (max < options.min) throw new Error(`generators.validAmount: max ${max} is below min ${options.min}`);
  return fc.integer({ min: options.min, max });
}

/** An integer amount strictly below the documented minimum (down to min − 1 000 000). */
export function amountBelowMinimum(options: { min: number }): Arbitrary<number> {
  checkMin('amountBelowMinimum', options.min);
  // Shrinks towards min − 1, the boundary.
  return fc.integer({ min: 0, max: 1_000_000 }).map((d) => options.min - 1 - d);
}

/**
 * The labelled boundary set for an integer amount whose documented minimum is `min`:
 * min−1, min, min+1, 0, a negative, huge (Number.MAX_SAFE_INTEGER, 2^31), fractional (min + 0.5),
 * string (`"<min>"`) and null. Values that coincide (min−1 = 0 when min is 1) appear once, under the
 * first label.
 */
export function boundaryAmounts(min: number): LabelledAmount[] {
  checkMin('boundaryAmounts', min);
  const rule = `integer, minimum ${min}`;
  const validity = (v: number): AmountValidity => (v >= min ? 'valid' : 'invalid');
  const all: LabelledAmount[] = [
    { label: 'min-1', value: min - 1, validity: validity(min - 1), reason: `${rule}: one below the minimum` },
    { label: 'min', value: min, validity: validity(min), reason: `${rule}: exactly the minimum` },
    { label: 'min+1', value: min + 1, validity: validity(min + 1), reason: `${rule}: one above the minimum` },
    { label: 'zero', value: 0, validity: validity(0), reason: `${rule}: zero` },
    { label: 'negative', value: -Math.max(min, 1), validity: validity(-Math.max(min, 1)), reason: `${rule}: negative` },
    {
      label: 'huge-max-safe-integer',
      value: Number.MAX_SAFE_INTEGER,
      validity: 'unspecified',
      reason: 'maximum amounts: not shown',
    },
    { label: 'huge-2^31', value: 2 ** 31, validity: 'unspecified', reason: 'maximum amounts: not shown (beyond 32-bit integers)' },
    { label: 'fractional', value: min + 0.5, validity: 'invalid', reason: `${rule}: not an integer (money is integer cents)` },
    { label: 'string', value: String(min), validity: 'invalid', reason: `${rule}: a JSON string is not an integer` },
    { label: 'null', value: null, validity: 'invalid', reason: `${rule}: null is not an integer` },
  ];
  const seen = new Set<string>();
  return all.filter((a) => {
    const key = JSON.stringify(a.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One of `boundaryAmounts(min)`, optionally restricted to some validities. */
export function boundaryAmount(min: number, options: { validity?: readonly AmountValidity[] } = {}): Arbitrary<LabelledAmount> {
  const set = boundaryAmounts(min).filter((a) => !options.validity || options.validity.includes(a.validity));
  if (set.length === 0) throw new Error('generators.boundaryAmount: no boundary amount has the requested validity');
  return fc.constantFrom(...set);
}
