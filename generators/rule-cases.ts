/**
 * Every invalid side of every document and PIX-key rule, one labelled case per class, drawn
 * deterministically from a seed. A random draw of 8 property runs can miss a class for a whole run
 * (an invalid alphanumeric CNPJ, a CNPJ key with a wrong check digit); a check that iterates these
 * cases tries each rule on every endpoint that takes a document or a key, in every run.
 *
 * Rules (gateway-api.md): "Buyer document: PIX and BRL card payments require a valid CPF or CNPJ";
 * "document | string | yes | CPF or CNPJ, digits only"; "pixKey | CPF (digits), CNPJ (digits),
 * e-mail, phone with +55 prefix, or random key (UUID)". A CPF or CNPJ with wrong check digits, or
 * one repeated digit (which passes the check-digit arithmetic but is reserved), is not a valid
 * document; the alphanumeric CNPJ (Receita Federal, July 2026) has check digits of its own.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import {
  cnpjAllSameDigits,
  cnpjWithBadCheckDigit,
  cnpjWrongLength,
  cpfAllSameDigits,
  cpfWithBadCheckDigit,
  cpfWrongLength,
} from './documents.js';
import { evpKey, MALFORMED_PIX_KEY_KINDS, malformedPixKey } from './pix-keys.js';
import type { MalformedPixKeyKind } from './pix-keys.js';

export interface RuleCase {
  /** the rule broken, e.g. `cpf.check-digit`, `cnpj-alphanumeric.check-digit`, `key.phone-without-plus55` */
  rule: string;
  value: string;
}

function one(arbitrary: Arbitrary<string>, seed: number): string {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  if (value === undefined) throw new Error('generators.ruleCases: an arbitrary produced no value');
  return value;
}

/** One invalid document of every class (CPF and CNPJ, numeric and alphanumeric), digits only. */
export function invalidDocumentCases(seed = 1): RuleCase[] {
  return [
    { rule: 'cpf.check-digit', value: one(cpfWithBadCheckDigit(), seed) },
    { rule: 'cpf.same-digits', value: one(cpfAllSameDigits().filter((v) => v !== '00000000000'), seed) },
    { rule: 'cpf.zeros', value: '00000000000' },
    { rule: 'cpf.length', value: one(cpfWrongLength(), seed) },
    { rule: 'cnpj.check-digit', value: one(cnpjWithBadCheckDigit(), seed) },
    { rule: 'cnpj-alphanumeric.check-digit', value: one(cnpjWithBadCheckDigit({ variant: 'alphanumeric' }), seed) },
    { rule: 'cnpj.same-digits', value: one(cnpjAllSameDigits().filter((v) => v !== '00000000000000'), seed) },
    { rule: 'cnpj.zeros', value: '00000000000000' },
    { rule: 'cnpj.length', value: one(cnpjWrongLength(), seed) },
  ];
}

/** One malformed PIX key of every class (every kind of `malformedPixKey`, plus reserved documents). */
export function malformedPixKeyCases(seed = 1): RuleCase[] {
  const byKind = MALFORMED_PIX_KEY_KINDS.map((kind: MalformedPixKeyKind) => {
    const [key] = fc.sample(malformedPixKey({ kind }), { seed, numRuns: 1 });
    if (!key) throw new Error(`generators.malformedPixKeyCases: no ${kind} key`);
    return { rule: `key.${kind}`, value: key.value };
  });
  return [
    ...byKind,
    { rule: 'key.cnpj-alphanumeric-check-digit', value: one(cnpjWithBadCheckDigit({ variant: 'alphanumeric' }), seed) },
    { rule: 'key.cpf-same-digits', value: one(cpfAllSameDigits(), seed) },
    { rule: 'key.cnpj-same-digits', value: one(cnpjAllSameDigits(), seed) },
    { rule: 'key.cpf-zeros', value: '00000000000' },
    { rule: 'key.cnpj-zeros', value: '00000000000000' },
    // "random key (UUID)": each way a UUID gets broken, not only the one a draw picks (a validator
    // matching "32 to 36 hex digits or hyphens" lets the truncated one through)
    ...randomKeyCases(one(evpKey(), seed)),
  ];
}

/** A UUID one character short, one too long, and with a non-hex letter (never at a hyphen). */
function randomKeyCases(uuid: string): RuleCase[] {
  const at = uuid.search(/[0-9a-f]/i);
  return [
    { rule: 'key.random-truncated', value: uuid.slice(0, -1) },
    { rule: 'key.random-extra-char', value: `${uuid}0` },
    { rule: 'key.random-non-hex', value: `${uuid.slice(0, at)}g${uuid.slice(at + 1)}` },
  ];
}
