/**
 * Fee rules of the reference. The contract shows `fees` (integer cents) on charges and transfers
 * but not how they are computed; these are the reference's choices (DECISIONS.md). Both stay
 * between 0 and the amount, so `amount - fees` is never negative.
 */

/** PIX charge: 0.99 % of the amount, rounded up to the cent (R$ 1.00 → 1 cent). */
export function pixChargeFee(amountInCents: number): number {
  return Math.ceil((amountInCents * 99) / 10_000);
}

/** PIX transfer: 0.5 % of the amount, rounded down, taken out of the amount (netAmount = amount − fees). */
export function pixTransferFee(amount: number): number {
  return Math.floor((amount * 50) / 10_000);
}
