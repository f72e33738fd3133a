/**
 * Documents and PIX keys (gateway-api.md): "Buyer document: PIX and BRL card payments require a
 * valid CPF or CNPJ"; Customer (PIX IN request) "document | string | yes | digits only; must be
 * valid for PIX"; POST /api/v1/pix/out/pixkey "pixKey | string | yes | CPF (digits), CNPJ (digits),
 * e-mail, phone with +55 prefix, or random key (UUID)".
 *
 * The oracle reads a value the way the contract's words do (the request rules of pix-transfers.ts and
 * pix-charges.ts judge with {@link readPixKey} and {@link readCustomerDocument}), with the validators of
 * generators/documents.ts (Receita Federal's modulo-11 check digits, numeric and alphanumeric CNPJ,
 * the reserved one-digit numbers refused), never the target's:
 * - `valid`: one of the forms the text names;
 * - `borderline`: a form the text does not pin down (punctuation, alphanumeric CNPJ key, a +55 phone
 *   with an unusual digit count, a UUID without hyphens, an e-mail with a dotless domain): either
 *   answer is allowed, accepting it is at most a warning;
 * - `invalid`: none of the forms. A CPF-shaped key with wrong check digits is no CPF, and 11 bare
 *   digits are no "phone with +55 prefix" either: it matches none of the five formats and must be
 *   refused. A one-digit document (000…, 111…) passes the check-digit arithmetic but is no valid CPF
 *   or CNPJ (Receita Federal never issues them).
 */
import { isValidCnpj, isValidCpf } from '../../../generators/documents.js';

export type Standing = 'valid' | 'borderline' | 'invalid';

export interface Reading {
  standing: Standing;
  /** what the value reads as, in the contract's words */
  why: string;
}


function oneDigit(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

/** A PIX key, read with the DICT's key rules (harness/rules/identifiers.ts). */
export { readPixKey } from '../identifiers.js';

/** A customer document declared as `documentType`, as "digits only; must be valid for PIX" reads it. */
export function readCustomerDocument(documentType: 'cpf' | 'cnpj', document: string): Reading {
  if (documentType === 'cpf') {
    if (isValidCpf(document, { format: 'digits' })) return { standing: 'valid', why: 'a valid CPF' };
    if (isValidCpf(document, { format: 'formatted' })) return { standing: 'borderline', why: 'a valid CPF with punctuation (the text says digits only)' };
    return { standing: 'invalid', why: /^\d{11}$/.test(document) && oneDigit(document) ? 'a reserved one-digit CPF' : 'no valid CPF' };
  }
  if (isValidCnpj(document, { format: 'digits', alphanumeric: false })) return { standing: 'valid', why: 'a valid CNPJ' };
  if (isValidCnpj(document, { format: 'digits' })) return { standing: 'borderline', why: 'a valid alphanumeric CNPJ (accepting it is expected, refusing it a warning)' };
  if (isValidCnpj(document, { format: 'formatted' })) return { standing: 'borderline', why: 'a valid CNPJ with punctuation (the text says digits only)' };
  return { standing: 'invalid', why: /^\d{14}$/.test(document) && oneDigit(document) ? 'a reserved one-digit CNPJ' : 'no valid CNPJ' };
}
