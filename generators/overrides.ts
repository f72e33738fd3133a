/**
 * Ready-made `overrides` for `validBody` / `singleRuleMutants` on the contract's request bodies:
 * the values a JSON Schema cannot express, so that a "valid" body is valid by the contract's words
 * and not only by the schema.
 *
 * - gateway POST /api/v1/pix/in/qrcode: `customer` — "document: digits only; must be valid for PIX"
 *   (check digits, matching documentType); `splits` — "e-mail of another company on the platform",
 *   "sum … must not exceed 100": generated only when a platform e-mail is given, else omitted.
 * - gateway POST /api/v1/pix/out/pixkey: `pixKey` — "CPF (digits), CNPJ (digits), e-mail, phone
 *   with +55 prefix, or random key (UUID)".
 * - gateway POST /api/v1/card: `card` (`ctoken_…` token; approved by default in sandbox) and
 *   `customer` (card Customer with a complete billing address, document valid or empty).
 * - gateway POST /api/v1/webhook: `url` — an https URL (the schema says only "string").
 * - partner POST /v1/business/pix-charges: `customer_email` — an e-mail (the schema says only "string").
 */
import fc from 'fast-check';
import { OMIT } from './bodies.js';
import type { Overrides } from './bodies.js';
import { card } from './cards.js';
import { cardCustomer, pixCustomer } from './customers.js';
import { email } from './emails.js';
import { pixKey } from './pix-keys.js';
import { splitScenario } from './splits.js';
import { httpsUrl } from './urls.js';

export type ContractOperation = 'gateway.pixCharge' | 'gateway.pixTransfer' | 'gateway.card' | 'gateway.webhook' | 'partner.pixCharge';

export interface ContractOverrideOptions {
  /** A company e-mail on the platform (the reference's `splitEmail`); without it `splits` is omitted. */
  splitEmail?: string;
  /** Card outcome in sandbox (`approved` default: no `decline` in the token). */
  cardOutcome?: 'approved' | 'declined' | 'any';
  /** CNPJ variant used in customers and PIX keys (default `numeric`, the undisputed reading). */
  cnpjVariant?: 'numeric' | 'alphanumeric' | 'any';
}

/** Overrides that make schema-generated bodies valid by the contract's words for `operation`. */
export function contractOverrides(operation: ContractOperation, options: ContractOverrideOptions = {}): Overrides {
  const cnpjVariant = options.cnpjVariant ?? 'numeric';
  switch (operation) {
    case 'gateway.pixCharge':
      return {
        customer: pixCustomer({ cnpjVariant }),
        splits:
          options.splitEmail === undefined
            ? fc.constant(OMIT)
            : splitScenario({ recipientEmail: options.splitEmail, kind: ['exactly-100', 'single-100', 'under-100'] })
                .filter((s) => !s.floatSumExceeds100)
                .map((s) => s.splits),
      };
    case 'gateway.pixTransfer':
      return { pixKey: pixKey({ cnpjVariant }).map((k) => k.value) };
    case 'gateway.card':
      return { card: card({ outcome: options.cardOutcome ?? 'approved' }), customer: cardCustomer({ cnpjVariant }) };
    case 'gateway.webhook':
      return { url: httpsUrl() };
    case 'partner.pixCharge':
      return { customer_email: email() };
    default:
      throw new Error(`generators.contractOverrides: unknown operation ${JSON.stringify(operation)}`);
  }
}
