/**
 * The contract's numeric limits ("Limits" table), in one place, with the faults that move them
 * one step either way (off-by-one errors at both sides of each limit).
 */

/** "PIX charge amountInCents | minimum 100" */
export function minimumChargeAmount(faults: ReadonlySet<string>): number {
  if (faults.has('gw-pixin-amount-99-accepted')) return 99;
  if (faults.has('gw-pixin-amount-100-rejected')) return 101;
  return 100;
}

/** "Card amountInCents | minimum 100" */
export function minimumCardAmount(faults: ReadonlySet<string>): number {
  return faults.has('gw-card-amount-99-accepted') ? 99 : 100;
}

/** "PIX transfer amount | minimum 1" */
export function minimumTransferAmount(faults: ReadonlySet<string>): number {
  return faults.has('gw-pixout-amount-zero-accepted') ? 0 : 1;
}

/** "description (PIX charge, transfer) | max 140 the service" */
export function maximumDescriptionLength(faults: ReadonlySet<string>): number {
  if (faults.has('gw-description-141-accepted')) return 141;
  if (faults.has('gw-description-140-rejected')) return 139;
  return 140;
}

/** "Sum of split percentages | at most 100" */
export const MAX_SPLIT_PERCENT_SUM = 100;

/** Amounts above this are refused: the contract shows no maximum; R$ 100 million keeps EMV field 54 short. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;
