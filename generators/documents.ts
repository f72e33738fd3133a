/**
 * Brazilian tax documents: CPF (individuals) and CNPJ (companies), numeric and alphanumeric.
 *
 * Contract rules encoded (gateway-api.md):
 * - "Buyer document: PIX and BRL card payments require a valid CPF or CNPJ."
 * - Customer (PIX IN request): `document` — "digits only; must be valid for PIX"; `documentType` `cpf` or `cnpj`.
 * - POST /api/v1/pix/out/pixkey `pixKey`: "CPF (digits), CNPJ (digits), …".
 * contract/README.md reading notes: punctuation where the text says "digits only" is ambiguous (a
 * warning); the alphanumeric CNPJ (Receita Federal, July 2026) is expected to be accepted by a
 * current implementation, so rejecting a valid one is a warning.
 *
 * Algorithms (Receita Federal):
 * - CPF: 9 base digits + 2 check digits, mod 11, weights 10..2 then 11..2; remainder < 2 → 0, else 11 − r.
 * - CNPJ: 12 base chars + 2 numeric check digits, mod 11, weights cycling 2..9 from the right;
 *   each char's value is its ASCII code − 48 (digits 0–9, 'A' = 17 … 'Z' = 42), so the numeric
 *   CNPJ is the special case with digits only.
 * - Numbers made of a single repeated digit are reserved and invalid (they pass the checksum).
 *
 * The suite's own validators live here too (`isValidCpf`, `isValidCnpj`): the reference has its own,
 * and the self-tests cross-check both against independent libraries.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** How a generated document is written. */
export type DocumentFormat = 'digits' | 'formatted';

export interface DocumentOptions {
  /** `digits` (default): `12345678909`; `formatted`: `123.456.789-09` / `12.345.678/0001-95`. */
  format?: DocumentFormat;
}

export interface CnpjOptions extends DocumentOptions {
  /** `numeric` (default): 14 digits; `alphanumeric`: at least one letter in the 12-char base; `any`: either. */
  variant?: 'numeric' | 'alphanumeric' | 'any';
}

/** Why an invalid document is invalid. */
export type InvalidDocumentKind = 'bad-check-digit' | 'all-same-digits' | 'wrong-length';

/** A labelled invalid document, so reports can say what was sent. */
export interface InvalidDocument {
  type: 'cpf' | 'cnpj';
  kind: InvalidDocumentKind;
  value: string;
}

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = DIGITS + LETTERS;

function fail(name: string, message: string): never {
  throw new Error(`generators.${name}: ${message}`);
}

function checkFormat(name: string, options: DocumentOptions | undefined): DocumentFormat {
  const format = options?.format ?? 'digits';
  if (format !== 'digits' && format !== 'formatted') fail(name, `unknown format ${JSON.stringify(format)}`);
  return format;
}

function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two CPF check digits for a 9-digit base. */
export function cpfCheckDigits(base9: string): string {
  if (!/^\d{9}$/.test(base9)) fail('cpfCheckDigits', `base must be 9 digits, got ${JSON.stringify(base9)}`);
  const digits = [...base9].map(Number);
  const d1 = mod11Digit(digits.reduce((s, d, i) => s + d * (10 - i), 0));
  digits.push(d1);
  const d2 = mod11Digit(digits.reduce((s, d, i) => s + d * (11 - i), 0));
  return `${d1}${d2}`;
}

function cnpjValue(ch: string): number {
  return ch.charCodeAt(0) - 48;
}

function cnpjDigitFor(chars: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    sum += cnpjValue(chars[i] as string) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return mod11Digit(sum);
}

/** The two (numeric) CNPJ check digits for a 12-char base of [0-9A-Z]. */
export function cnpjCheckDigits(base12: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base12)) fail('cnpjCheckDigits', `base must be 12 chars [0-9A-Z], got ${JSON.stringify(base12)}`);
  const d1 = cnpjDigitFor(base12);
  const d2 = cnpjDigitFor(base12 + String(d1));
  return `${d1}${d2}`;
}

/** `12345678909` → `123.456.789-09` (input must be 11 chars). */
export function formatCpf(value: string): string {
  if (value.length !== 11) fail('formatCpf', `expected 11 characters, got ${value.length}`);
  return `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`;
}

/** `12345678000195` → `12.345.678/0001-95` (input must be 14 chars; letters allowed). */
export function formatCnpj(value: string): string {
  if (value.length !== 14) fail('formatCnpj', `expected 14 characters, got ${value.length}`);
  return `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`;
}

/** Removes the official mask characters (`.`, `-`, `/`) only. */
export function stripDocumentMask(value: string): string {
  return value.replace(/[./-]/g, '');
}

function allSame(value: string): boolean {
  return value.length > 0 && [...value].every((c) => c === value[0]);
}

export interface ValidatorOptions {
  /** `digits`: only the bare form; `formatted`: only the official mask; `any` (default): either. */
  format?: DocumentFormat | 'any';
}

/**
 * Is `value` a valid CPF? Digits only (`12345678909`) or the official mask (`123.456.789-09`),
 * per `options.format`. Rejects the reserved repeated-digit numbers.
 */
export function isValidCpf(value: string, options: ValidatorOptions = {}): boolean {
  const format = options.format ?? 'any';
  const bare = /^\d{11}$/.test(value);
  const masked = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(value);
  if (!((format !== 'formatted' && bare) || (format !== 'digits' && masked))) return false;
  const digits = stripDocumentMask(value);
  if (allSame(digits)) return false;
  return cpfCheckDigits(digits.slice(0, 9)) === digits.slice(9);
}

export interface CnpjValidatorOptions extends ValidatorOptions {
  /** Accept the alphanumeric CNPJ (upper-case letters in the 12-char base). Default `true`. */
  alphanumeric?: boolean;
}

/**
 * Is `value` a valid CNPJ? 12 base chars + 2 numeric check digits, bare or with the official mask
 * (`12.345.678/0001-95`, `12.ABC.345/01DE-35`). Letters must be upper case (the Receita Federal
 * format); lower case is rejected. Rejects the numeric reserved repeated-digit numbers.
 */
export function isValidCnpj(value: string, options: CnpjValidatorOptions = {}): boolean {
  const format = options.format ?? 'any';
  const base = options.alphanumeric === false ? '\\d' : '[0-9A-Z]';
  const bare = new RegExp(`^${base}{12}\\d{2}$`).test(value);
  const masked = new RegExp(`^${base}{2}\\.${base}{3}\\.${base}{3}/${base}{4}-\\d{2}$`).test(value);
  if (!((format !== 'formatted' && bare) || (format !== 'digits' && masked))) return false;
  const chars = stripDocumentMask(value);
  if (/^\d+$/.test(chars) && allSame(chars)) return false;
  return cnpjCheckDigits(chars.slice(0, 12)) === chars.slice(12);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries. Built from per-position digit arbitraries so shrinking moves towards small bases
// (000000001…) while every shrunk value keeps the property it was generated with.

function digitString(length: number): Arbitrary<string> {
  return fc.array(fc.constantFrom(...DIGITS), { minLength: length, maxLength: length }).map((a) => a.join(''));
}

function applyFormat(kind: 'cpf' | 'cnpj', value: string, format: DocumentFormat): string {
  if (format === 'digits') return value;
  return kind === 'cpf' ? formatCpf(value) : formatCnpj(value);
}

/** 9-digit CPF base that is not a single repeated digit. */
function cpfBase(): Arbitrary<string> {
  return digitString(9).filter((b) => !allSame(b));
}

/** A valid CPF (11 digits, correct mod-11 check digits, not a reserved repeated-digit number). */
export function cpf(options?: DocumentOptions): Arbitrary<string> {
  const format = checkFormat('cpf', options);
  return cpfBase().map((b) => applyFormat('cpf', b + cpfCheckDigits(b), format));
}

/** Changes check digit `position` (0 or 1) of a document by `delta` (1..9, mod 10). */
function corruptCheckDigit(value: string, position: number, delta: number): string {
  const index = value.length - 2 + position;
  const digit = (Number(value[index]) + delta) % 10;
  return value.slice(0, index) + String(digit) + value.slice(index + 1);
}

/** An 11-digit CPF whose first or second check digit is wrong. */
export function cpfWithBadCheckDigit(options?: DocumentOptions): Arbitrary<string> {
  const format = checkFormat('cpfWithBadCheckDigit', options);
  return fc
    .tuple(cpfBase(), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 9 }))
    .map(([b, position, delta]) => applyFormat('cpf', corruptCheckDigit(b + cpfCheckDigits(b), position, delta), format));
}

/** A CPF made of one repeated digit (`00000000000` … `99999999999`): passes mod 11, reserved. */
export function cpfAllSameDigits(options?: DocumentOptions): Arbitrary<string> {
  const format = checkFormat('cpfAllSameDigits', options);
  return fc.constantFrom(...DIGITS).map((d) => applyFormat('cpf', d.repeat(11), format));
}

/** A valid CPF with its last digit dropped (10 digits) or one digit appended (12 digits). */
export function cpfWrongLength(): Arbitrary<string> {
  return fc
    .tuple(cpf(), fc.boolean(), fc.constantFrom(...DIGITS))
    .map(([v, drop, extra]) => (drop ? v.slice(0, 10) : v + extra));
}

/** Any invalid CPF, labelled with why. */
export function invalidCpf(options?: DocumentOptions): Arbitrary<InvalidDocument> {
  checkFormat('invalidCpf', options);
  return fc.oneof(
    cpfWithBadCheckDigit(options).map((value) => ({ type: 'cpf' as const, kind: 'bad-check-digit' as const, value })),
    cpfAllSameDigits(options).map((value) => ({ type: 'cpf' as const, kind: 'all-same-digits' as const, value })),
    cpfWrongLength().map((value) => ({ type: 'cpf' as const, kind: 'wrong-length' as const, value })),
  );
}

function checkVariant(name: string, options: CnpjOptions | undefined): 'numeric' | 'alphanumeric' | 'any' {
  const variant = options?.variant ?? 'numeric';
  if (variant !== 'numeric' && variant !== 'alphanumeric' && variant !== 'any') {
    fail(name, `unknown variant ${JSON.stringify(variant)}`);
  }
  return variant;
}

/** 12-char CNPJ base: numeric (not all the same digit) or alphanumeric (at least one letter). */
function cnpjBase(variant: 'numeric' | 'alphanumeric' | 'any'): Arbitrary<string> {
  const numeric = digitString(12).filter((b) => !allSame(b));
  // The letter position and letter are explicit so a shrunk value still contains a letter.
  const alphanumeric = fc
    .tuple(
      fc.array(fc.constantFrom(...ALNUM), { minLength: 11, maxLength: 11 }),
      fc.integer({ min: 0, max: 11 }),
      fc.constantFrom(...LETTERS),
    )
    .map(([rest, at, letter]) => [...rest.slice(0, at), letter, ...rest.slice(at)].join(''));
  if (variant === 'numeric') return numeric;
  if (variant === 'alphanumeric') return alphanumeric;
  return fc.oneof(numeric, alphanumeric);
}

/**
 * A valid CNPJ. `variant: 'numeric'` (default) gives 14 digits; `'alphanumeric'` the Receita Federal
 * format of July 2026 (12 chars [0-9A-Z] with at least one letter + 2 numeric check digits).
 */
export function cnpj(options?: CnpjOptions): Arbitrary<string> {
  const format = checkFormat('cnpj', options);
  const variant = checkVariant('cnpj', options);
  return cnpjBase(variant).map((b) => applyFormat('cnpj', b + cnpjCheckDigits(b), format));
}

/** Shorthand for `cnpj({ ...options, variant: 'alphanumeric' })`. */
export function cnpjAlphanumeric(options?: DocumentOptions): Arbitrary<string> {
  return cnpj({ ...options, variant: 'alphanumeric' });
}

/** A CNPJ (numeric by default) whose first or second check digit is wrong. */
export function cnpjWithBadCheckDigit(options?: CnpjOptions): Arbitrary<string> {
  const format = checkFormat('cnpjWithBadCheckDigit', options);
  const variant = checkVariant('cnpjWithBadCheckDigit', options);
  return fc
    .tuple(cnpjBase(variant), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 9 }))
    .map(([b, position, delta]) => applyFormat('cnpj', corruptCheckDigit(b + cnpjCheckDigits(b), position, delta), format));
}

/** A CNPJ made of one repeated digit (`00000000000000` … `99999999999999`): reserved. */
export function cnpjAllSameDigits(options?: DocumentOptions): Arbitrary<string> {
  const format = checkFormat('cnpjAllSameDigits', options);
  return fc.constantFrom(...DIGITS).map((d) => applyFormat('cnpj', d.repeat(14), format));
}

/** A valid numeric CNPJ with its last digit dropped (13 digits) or one digit appended (15 digits). */
export function cnpjWrongLength(): Arbitrary<string> {
  return fc
    .tuple(cnpj(), fc.boolean(), fc.constantFrom(...DIGITS))
    .map(([v, drop, extra]) => (drop ? v.slice(0, 13) : v + extra));
}

/** Any invalid CNPJ, labelled with why. */
export function invalidCnpj(options?: CnpjOptions): Arbitrary<InvalidDocument> {
  checkFormat('invalidCnpj', options);
  checkVariant('invalidCnpj', options);
  return fc.oneof(
    cnpjWithBadCheckDigit(options).map((value) => ({ type: 'cnpj' as const, kind: 'bad-check-digit' as const, value })),
    cnpjAllSameDigits(options).map((value) => ({ type: 'cnpj' as const, kind: 'all-same-digits' as const, value })),
    cnpjWrongLength().map((value) => ({ type: 'cnpj' as const, kind: 'wrong-length' as const, value })),
  );
}

/** A valid document of the given type (`cpf` or `cnpj`). */
export function documentOf(type: 'cpf' | 'cnpj', options?: CnpjOptions): Arbitrary<string> {
  if (type === 'cpf') return cpf(options);
  if (type === 'cnpj') return cnpj(options);
  return fail('documentOf', `unknown document type ${JSON.stringify(type)}`);
}
