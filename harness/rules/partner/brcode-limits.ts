/**
 * The BR Code of a charge whose amount no BR Code can carry (partner-cashin-api.md: "amount_cents |
 * integer | greater than zero" with no maximum; "qr_code | copy-and-paste EMV payload", "standard
 * central-bank EMV payload"). Field 54 (transaction amount) holds at most 13 characters in the BR
 * Code table (generators/brcode-fields.ts), so R$ 9,999,999,999.99 is the largest amount it can
 * write. The contract states no maximum, so a service may refuse a larger amount (the caller notes
 * it) or accept it; when it accepts it, its BR Code must still be one: every field within its limit
 * (54 left out, the dynamic payload location carrying the amount, is how that is done), the CRC right.
 * The amount itself is not compared (an absent 54 is expected here, not a warning).
 */
import type { Judgement } from '../finding.js';
import { combine, type RuleContext } from '../judgement.js';
import { verifyEmvCrc, verifyEmvStructure } from '../emv.js';

/** R$ 10,000,000,000.00: "10000000000.00" is 14 characters, one more than field 54 holds. */
export const UNREPRESENTABLE_AMOUNT_CENTS = 1_000_000_000_000;

export function verifyLargeAmountBrCode(qrCode: unknown, ctx: Omit<RuleContext, 'requirements'>): Judgement {
  const qr: RuleContext = { ...ctx, requirements: ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR'], subject: 'qr_code', pointer: '/qr_code' };
  return combine(verifyEmvStructure(qrCode, qr), verifyEmvCrc(qrCode, qr));
}
