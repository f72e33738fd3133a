/**
 * Fee rules of the reference. The contract shows `fees` (integer cents) on charges and transfers
 * but not how they are computed; these are the reference's choices (DECISIONS.md). Both stay
 * between 0 and the amount, so `amount - fees` is never negative.
 */

/**
 * PIX charge: 0.99 % of the amount, rounded up to the cent (R$ 1.00 → 1 cent); the alt
 * personality takes a flat 35 cents (the minimum charge is 100 cents, so it never exceeds the
 * amount); a mix may charge none.
 */
export function pixChargeFee(amountInCents: number, rule: 'percent-0.99-ceil' | 'flat-35' | 'zero' = 'percent-0.99-ceil'): number {
  if (rule === 'zero') return 0;
  if (rule === 'flat-35') return Math.min(35, amountInCents);
  return Math.ceil((amountInCents * 99) / 10_000);
}

/**
 * PIX transfer: 0.5 % of the amount, rounded down, taken out of the amount (netAmount = amount −
 * fees); the alt personality charges none.
 */
export function pixTransferFee(amount: number, rule: 'percent-0.5-floor' | 'zero' = 'percent-0.5-floor'): number {
  if (rule === 'zero') return 0;
  return Math.floor((amount * 50) / 10_000);
}
