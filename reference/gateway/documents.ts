/**
 * Brazilian taxpayer documents for the reference gateway: CPF (11 digits) and CNPJ, numeric or
 * alphanumeric (Receita Federal, from July 2026: 12 characters [0-9A-Z] + 2 numeric check digits).
 *
 * Contract: "Customer (PIX IN request) — document: digits only; must be valid for PIX" and the
 * PIX key formats of `POST /api/v1/pix/out/pixkey`. The suite has its own independent validator.
 */
import { randomInt } from 'node:crypto';

/** A document whose characters are all equal (000.000.000-00, 11111111111111…) is never valid. */
function isRepeatedCharacter(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

/** Modulo-11 check digit: `11 - (Σ value·weight mod 11)`, 0 when that is 10 or 11. */
function mod11CheckDigit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i] as number) * (weights[i] as number);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

const CPF_FIRST_WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_SECOND_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

/** Loosenings used by faults only: the correct reference never sets them. */
export interface DocumentLeniency {
  /** fault `gw-document-repeated-digits-accepted`: the reserved one-digit documents (000…, 111…) pass the arithmetic */
  repeatedAllowed?: boolean;
}

/** True for 11 digits with both check digits correct, not all the same digit. */
export function isValidCpf(text: string, leniency: DocumentLeniency = {}): boolean {
  if (!/^\d{11}$/.test(text) || (isRepeatedCharacter(text) && !leniency.repeatedAllowed)) return false;
  const digits = [...text].map(Number);
  const first = mod11CheckDigit(digits.slice(0, 9), CPF_FIRST_WEIGHTS);
  const second = mod11CheckDigit(digits.slice(0, 10), CPF_SECOND_WEIGHTS);
  return digits[9] === first && digits[10] === second;
}

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * Value of one CNPJ character for the check-digit sums: its ASCII code minus 48, so '0'..'9' are
 * 0..9 and 'A'..'Z' are 17..42 (the alphanumeric CNPJ rule keeps the numeric weights).
 */
function cnpjCharacterValue(character: string): number {
  return character.charCodeAt(0) - 48;
}

export interface CnpjOptions extends DocumentLeniency {
  /** accept the alphanumeric CNPJ (12 characters [0-9A-Z]); true unless a fault turns it off */
  alphanumeric: boolean;
}

/** True for a CNPJ with correct check digits: 14 digits, or 12 [0-9A-Z] + 2 digits when allowed. */
export function isValidCnpj(text: string, options: CnpjOptions = { alphanumeric: true }): boolean {
  const shape = options.alphanumeric ? /^[0-9A-Z]{12}\d{2}$/ : /^\d{14}$/;
  if (!shape.test(text) || (isRepeatedCharacter(text) && !options.repeatedAllowed)) return false;
  const values = [...text].map(cnpjCharacterValue);
  const first = mod11CheckDigit(values.slice(0, 12), CNPJ_FIRST_WEIGHTS);
  const second = mod11CheckDigit(values.slice(0, 13), CNPJ_SECOND_WEIGHTS);
  return values[12] === first && values[13] === second;
}

/** Appends the two check digits to a 9-digit CPF base; used to mint simulated payers. */
/** A random valid CPF (digits only, never all one digit): a simulated counterparty's document. */
export function randomValidCpf(): string {
  let base = '';
  do base = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  while (/^(\d)\1*$/.test(base));
  return completeCpf(base);
}

export function completeCpf(base9: string): string {
  const digits = [...base9].map(Number);
  const first = mod11CheckDigit(digits, CPF_FIRST_WEIGHTS);
  const second = mod11CheckDigit([...digits, first], CPF_SECOND_WEIGHTS);
  return `${base9}${first}${second}`;
}
