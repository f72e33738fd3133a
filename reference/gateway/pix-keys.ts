/**
 * PIX key formats accepted by `POST /api/v1/pix/out/pixkey` (contract: "CPF (digits), CNPJ
 * (digits), e-mail, phone with +55 prefix, or random key (UUID)").
 */
import { isValidCnpj, isValidCpf } from './documents.js';

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';

export interface PixKeyRules {
  /** fault switch: a Brazilian phone without the +55 prefix passes */
  phoneWithoutCountryCode: boolean;
  /** fault switch: anything with an @ passes as e-mail */
  looseEmail: boolean;
  /** fault switch: CPF and CNPJ keys are checked for their shape only, not their check digits */
  documentShapeOnly?: boolean;
  /** fault switch: one-digit CPF/CNPJ keys (00000000000, 11111111111…) pass the arithmetic */
  repeatedDigitsAllowed?: boolean;
  /** fault switch: a random key is "32 to 36 hex digits or hyphens", not the 8-4-4-4-12 UUID layout */
  looseRandomKey?: boolean;
  /** fault switch: a phone key is "+55 and digits", of any count from 8 to 13 */
  phoneAnyLength?: boolean;
  /** fault switch: an e-mail key is checked for its pattern only, not for the DICT's 77 characters */
  emailLengthUnchecked?: boolean;
}

export const STRICT_PIX_KEY_RULES: PixKeyRules = {
  phoneWithoutCountryCode: false,
  looseEmail: false,
};

const LOOSE_RANDOM_KEY = /^[0-9a-f-]{32,36}$/i;

/** The central bank caps e-mail keys at 77 characters (DICT). */
const MAX_EMAIL_KEY_LENGTH = 77;
const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** +55, two-digit area code (11–99), then an 8-digit landline or 9-digit mobile number. */
const PHONE_PATTERN = /^\+55[1-9][0-9]\d{8,9}$/;

export function isPlausibleEmail(text: string): boolean {
  return text.length <= MAX_EMAIL_KEY_LENGTH && EMAIL_PATTERN.test(text);
}

/**
 * The kind of a PIX key, or a reason it is not one. 11 digits is always read as a CPF and 14
 * characters ending in two digits as a CNPJ, so a phone without +55 is rejected as a bad CPF.
 */
export function classifyPixKey(key: string, rules: PixKeyRules = STRICT_PIX_KEY_RULES): { kind: PixKeyKind } | { error: string } {
  const leniency = { repeatedAllowed: rules.repeatedDigitsAllowed === true };
  if (/^\d{11}$/.test(key)) {
    if (rules.phoneWithoutCountryCode && /^[1-9][0-9]9\d{8}$/.test(key) && !isValidCpf(key)) return { kind: 'phone' };
    // fault: shape only (one-digit keys stay refused, as a blacklist written next to the pattern would)
    if (rules.documentShapeOnly && !/^(\d)\1*$/.test(key)) return { kind: 'cpf' };
    return isValidCpf(key, leniency) ? { kind: 'cpf' } : { error: 'invalid CPF key (check digits)' };
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) {
    if (rules.documentShapeOnly && !/^(.)\1*$/.test(key)) return { kind: 'cnpj' };
    return isValidCnpj(key, { alphanumeric: true, ...leniency }) ? { kind: 'cnpj' } : { error: 'invalid CNPJ key (check digits)' };
  }
  if (key.startsWith('+')) {
    if (rules.phoneAnyLength && /^\+55\d{8,13}$/.test(key)) return { kind: 'phone' };
    return PHONE_PATTERN.test(key) ? { kind: 'phone' } : { error: 'invalid phone key (expected +55 and 10 or 11 digits)' };
  }
  // fault: a national number, or 55 without the plus, passes as a phone key
  if (rules.phoneWithoutCountryCode && /^(55)?[1-9][0-9]\d{8,9}$/.test(key)) return { kind: 'phone' };
  if (UUID_PATTERN.test(key) || (rules.looseRandomKey && LOOSE_RANDOM_KEY.test(key) && /[0-9a-f]{8}/i.test(key))) return { kind: 'random' };
  if (key.includes('@')) {
    if (rules.looseEmail) return { kind: 'email' };
    if (rules.emailLengthUnchecked && EMAIL_PATTERN.test(key)) return { kind: 'email' };
    return isPlausibleEmail(key) ? { kind: 'email' } : { error: 'invalid e-mail key' };
  }
  return { error: 'not a CPF, CNPJ, e-mail, +55 phone or random (UUID) key' };
}
