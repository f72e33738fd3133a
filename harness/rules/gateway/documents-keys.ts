/**
 * Documents and PIX keys (gateway-api.md): "Buyer document: PIX and BRL card payments require a
 * valid CPF or CNPJ"; Customer (PIX IN request) "document | string | yes | digits only; must be
 * valid for PIX"; POST /api/v1/pix/out/pixkey "pixKey | string | yes | CPF (digits), CNPJ (digits),
 * e-mail, phone with +55 prefix, or random key (UUID)".
 *
 * The oracle reads a value the way the contract's words do (the transfer rule `expectPixKeyRejected`
 * in pix-transfers.ts uses {@link readPixKey}; charges use {@link judgeCustomerDocumentAnswer}), with the validators of
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
import type { Exchange } from '../../core/exchange.js';
import type { Judgement, RequirementId } from '../finding.js';
import { judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { expectStatus } from '../status.js';
import { isValidCnpj, isValidCpf } from '../../../generators/documents.js';

export type Standing = 'valid' | 'borderline' | 'invalid';

export interface Reading {
  standing: Standing;
  /** what the value reads as, in the contract's words */
  why: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MASKED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const MASKED_CNPJ = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

function oneDigit(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

/** A PIX key as "CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)" reads it. */
export function readPixKey(key: string): Reading {
  if (key === '') return { standing: 'invalid', why: 'an empty key' };
  if (/^\d{11}$/.test(key)) {
    if (isValidCpf(key, { format: 'digits' })) return { standing: 'valid', why: 'a CPF (digits)' };
    return { standing: 'invalid', why: oneDigit(key) ? 'a reserved one-digit CPF' : '11 digits that are no valid CPF (check digits) and no phone with +55' };
  }
  if (/^\d{14}$/.test(key)) {
    if (isValidCnpj(key, { format: 'digits' })) return { standing: 'valid', why: 'a CNPJ (digits)' };
    return { standing: 'invalid', why: oneDigit(key) ? 'a reserved one-digit CNPJ' : '14 digits that are no valid CNPJ (check digits)' };
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) {
    return isValidCnpj(key, { format: 'digits' })
      ? { standing: 'borderline', why: 'an alphanumeric CNPJ (the text says "CNPJ (digits)")' }
      : { standing: 'invalid', why: 'an alphanumeric CNPJ with wrong check digits' };
  }
  if (MASKED_CPF.test(key) || MASKED_CNPJ.test(key)) {
    const valid = MASKED_CPF.test(key) ? isValidCpf(key, { format: 'formatted' }) : isValidCnpj(key, { format: 'formatted' });
    return valid ? { standing: 'borderline', why: 'a valid document with punctuation (the text says digits)' } : { standing: 'invalid', why: 'a punctuated document with wrong check digits' };
  }
  if (/^\+55\d{10,11}$/.test(key)) return { standing: 'valid', why: 'a phone with +55 prefix' };
  if (/^\+55[\d\s()-]+$/.test(key)) return { standing: 'borderline', why: 'a +55 phone of another digit count or with separators (the count is not stated)' };
  if (key.startsWith('+')) return { standing: 'invalid', why: 'a phone without the +55 prefix' };
  if (/^\d+$/.test(key)) return { standing: 'invalid', why: `${key.length} bare digits: no CPF, no CNPJ, no phone with +55` };
  if (UUID.test(key)) return { standing: 'valid', why: 'a random key (UUID)' };
  if (/^[0-9a-f]{32}$/i.test(key)) return { standing: 'borderline', why: 'a UUID without its hyphens' };
  const at = key.split('@');
  if (at.length === 2) {
    const [local = '', domain = ''] = at;
    if (local !== '' && domain !== '' && !/\s/.test(key)) {
      return /^[^.]+(\.[^.]+)+$/.test(domain) ? { standing: 'valid', why: 'an e-mail' } : { standing: 'borderline', why: 'an e-mail with a dotless domain' };
    }
  }
  return { standing: 'invalid', why: /[0-9a-f]{8}-/i.test(key) ? 'a malformed UUID' : 'no CPF, CNPJ, e-mail, +55 phone or UUID' };
}

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

function accepted(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status <= 299;
}

/**
 * The answer to a request carrying one value read by {@link readPixKey} / {@link readCustomerDocument}:
 * - invalid: refused as an invalid body (400 or 422 "validation failure; message points to the
 *   field"; another 4xx is a warning); ACCEPTED: failure `value.invalid-accepted`;
 * - borderline: any 4xx or a 2xx; a 2xx is a WARNING `value.borderline-accepted` (the caller notes a
 *   refusal); a 5xx fails (status rule);
 * - valid: decided elsewhere (the creation checks); nothing is decided here.
 */
function judgeValueAnswer(exchange: Exchange, sent: string, reading: Reading, what: string, ctx: RuleContext): Judgement {
  const c: RuleContext = { ...ctx, exchanges: ctx.exchanges ?? [exchange], subject: ctx.subject ?? `${what} ${show(sent)}` };
  if (reading.standing === 'valid') return { requirements: [], findings: [] };
  if (reading.standing === 'borderline') {
    if (!accepted(exchange)) return expectStatus(exchange, '4xx', c);
    return judge(c, makeFinding(c, {
      code: 'value.borderline-accepted',
      title: `${what} ${show(sent)} (${reading.why}) was accepted`,
      severity: 'warning',
      expected: 'either answer: the text does not pin this form down (observation)',
      actual: `HTTP ${exchange.response?.status ?? 0}`,
    }));
  }
  if (!accepted(exchange)) return expectStatus(exchange, [400, 422], c, { otherClientError: 'warning' });
  return judge(c, makeFinding(c, {
    code: 'value.invalid-accepted',
    title: `${what} ${show(sent)} (${reading.why}) was accepted`,
    severity: 'failure',
    expected: 'HTTP 400 or 422: the value matches none of the forms the contract allows',
    actual: `HTTP ${exchange.response?.status ?? 0}`,
  }));
}

const DOCUMENT_REQUIREMENTS: readonly RequirementId[] = ['GW-PIXIN-DOC-VALID'];

/**
 * "PIX … payments require a valid CPF or CNPJ" / "document | digits only; must be valid for PIX":
 * the answer to a PIX charge whose only doubtful field is `customer.document` (see
 * {@link judgeValueAnswer}). Decides GW-PIXIN-DOC-VALID unless `ctx.requirements` names others.
 */
export function judgeCustomerDocumentAnswer(exchange: Exchange, documentType: 'cpf' | 'cnpj', document: string, ctx: Partial<RuleContext> = {}): Judgement {
  const c: RuleContext = { ...ctx, requirements: ctx.requirements ?? DOCUMENT_REQUIREMENTS };
  return judgeValueAnswer(exchange, document, readCustomerDocument(documentType, document), `the ${documentType.toUpperCase()} document`, c);
}
