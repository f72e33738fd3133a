/**
 * Identifiers: the end-to-end id of a PIX payment, UUIDs, and PIX keys as the DICT writes them.
 *
 * Contract: gateway-api.md, PIX transfer "endToEndId | string | on lookup; present once completed";
 * simulation responses `data{id, status, endToEndId}`; event payloads `pix{endToEndId, …}`; events
 * "`id` (string UUID)"; POST /api/v1/pix/out/pixkey "pixKey | string | yes | CPF (digits), CNPJ
 * (digits), e-mail, phone with +55 prefix, or random key (UUID)". partner-cashin-api.md: "e2e_id |
 * string | end-to-end identifier".
 *
 * A fact layer: each reader says what a value is, in the words of its public source, and the rules
 * of the contract sections (transfers, events, webhooks) judge with it under their own codes.
 */
import { defineRule, type FindingDraft } from './rule.js';
import { kindOf, show } from './judgement.js';
import { isValidCnpj, isValidCpf } from '../../generators/documents.js';
import { AREA_CODES } from '../../generators/phones.js';

/** What a reader found wrong with a value: its kind, and the words of a finding about it. */
export interface Problem<K extends string> extends Pick<FindingDraft, 'title' | 'expected' | 'actual'> {
  kind: K;
}

/** The words of a problem, for `v.find(code, { ...draftOf(problem), pointer })`. */
export function draftOf<K extends string>(problem: Problem<K>): Pick<FindingDraft, 'title' | 'expected' | 'actual'> {
  return { title: problem.title, expected: problem.expected, actual: problem.actual };
}

// ── the end-to-end id ─────────────────────────────────────────────────────────────────────────

/**
 * The BCB end-to-end id: `E` + the 8-character ISPB + `yyyyMMddHHmm` (12 digits, UTC) + 11
 * alphanumerics = 32 characters. Source: the SPI catalogue of messages (the BCB's pacs XSDs),
 * `EndToEndId` pattern `[E][0-9A-Z]{8}[0-9]{4}[0-1][0-9][0-3][0-9][0-2][0-9][0-5][0-9][a-zA-Z0-9]{11}`,
 * max 32, as the public repository PixSpiCatalog generates it from the XSDs (pacs.004 v1.5
 * `OrgnlEndToEndId`). The pattern bounds each digit of the date and time, not the calendar:
 * {@link endToEndIdProblem} reads the moment itself.
 */
export const BCB_END_TO_END_ID = /^E[0-9A-Z]{8}\d{12}[A-Za-z0-9]{11}$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Why the `yyyyMMddHHmm` of a BCB-shaped end-to-end id names no moment, or undefined when it does. */
function impossibleMoment(stamp: string): string | undefined {
  const [year, month, day, hour, minute] = [stamp.slice(0, 4), stamp.slice(4, 6), stamp.slice(6, 8), stamp.slice(8, 10), stamp.slice(10, 12)].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12) return `month ${stamp.slice(4, 6)}`;
  if (day < 1 || day > daysInMonth(year, month)) return `day ${stamp.slice(6, 8)} of ${stamp.slice(0, 4)}-${stamp.slice(4, 6)}`;
  if (hour > 23) return `hour ${stamp.slice(8, 10)}`;
  if (minute > 59) return `minute ${stamp.slice(10, 12)}`;
  return undefined;
}

export type EndToEndIdProblem = Problem<'type' | 'layout' | 'moment'>;

/**
 * What is wrong with an end-to-end id, or undefined:
 * - `type`: not a non-empty string (the tables say "string");
 * - `layout`: a string that does not follow the BCB layout. The contract says only "string" /
 *   "end-to-end identifier" and a sandbox may mint its own ids: the rules warn;
 * - `moment`: the BCB layout with a date or time that does not exist (month 13, 30 February, hour
 *   24, minute 60): no SPI ever issued it. At most as grave as `layout` (a warning), since an id of
 *   another layout is allowed at that level.
 */
export function endToEndIdProblem(value: unknown, subject = 'the end-to-end id'): EndToEndIdProblem | undefined {
  if (typeof value !== 'string' || value === '') {
    return { kind: 'type', title: `${subject} is not a non-empty string`, expected: 'a non-empty string', actual: `${kindOf(value)} ${show(value)}` };
  }
  if (!BCB_END_TO_END_ID.test(value)) {
    return {
      kind: 'layout',
      title: `${subject} does not follow the BCB end-to-end id layout`,
      expected: '32 characters: "E" + 8-character ISPB + yyyyMMddHHmm + 11 alphanumerics (^E[0-9A-Z]{8}\\d{12}[A-Za-z0-9]{11}$)',
      actual: `${show(value)} (${value.length} characters)`,
    };
  }
  const impossible = impossibleMoment(value.slice(9, 21));
  if (impossible === undefined) return undefined;
  return {
    kind: 'moment',
    title: `${subject} carries a date and time that do not exist`,
    expected: 'characters 10–21 a real UTC moment yyyyMMddHHmm (month 01–12, a day of that month, hour 00–23, minute 00–59)',
    actual: `${show(value)}: ${impossible}`,
  };
}

// ── UUIDs ─────────────────────────────────────────────────────────────────────────────────────

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID string (8-4-4-4-12 hex digits, either case, any version: RFC 4122 reads them case-insensitively). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Why a value is no UUID (where the text says UUID: event `id` "string UUID"), or undefined. */
export function uuidProblem(value: unknown, subject = 'the id'): Problem<'uuid'> | undefined {
  if (isUuid(value)) return undefined;
  return { kind: 'uuid', title: `${subject} is not a UUID`, expected: 'a UUID string (8-4-4-4-12 hex digits)', actual: `${kindOf(value)} ${show(value)}` };
}

/**
 * gateway-api.md, "Payload shapes": "Transaction events: `id` (string UUID), …" (transfer and
 * infraction events: "same envelope"): an event's id is a UUID string (8-4-4-4-12 hex digits,
 * either case, any version). The suite names where the id was seen (`subject`).
 */
export const identifyEventsByUuid = defineRule({
  name: 'identifyEventsByUuid',
  requirements: ['GW-EVT-ID-UUID'],
  codes: { 'id.uuid': 'failure' },
  judge(observation: { value: unknown; subject: string }, v) {
    const problem = uuidProblem(observation.value, observation.subject);
    if (problem) v.find('id.uuid', { ...draftOf(problem), pointer: '/id' });
  },
});

// ── PIX keys ──────────────────────────────────────────────────────────────────────────────────

/**
 * How a value stands against the contract's words:
 * - `valid`: one of the forms the text names, as the DICT registers it;
 * - `borderline`: a form the text does not pin down, or that the DICT and the text read
 *   differently: either answer is allowed, accepting it is at most a warning;
 * - `invalid`: none of the forms: it must be refused.
 */
export type Standing = 'valid' | 'borderline' | 'invalid';

export interface Reading {
  standing: Standing;
  /** what the value reads as, in the contract's (or the DICT's) words */
  why: string;
}

/** The DICT's longest e-mail key: "E-mail deve possuir no máximo 77 caracteres e deve ser em minúsculo" (DICT API, tag "Chave"). */
export const DICT_EMAIL_MAX = 77;

/**
 * The e-mail key as the DICT API registers it (tag "Chave", type EMAIL; the pattern as the BCB
 * publishes it since version 2.6.0, which took `&` out of the set): lower case, the local part
 * of letters, digits and `.!#$'*+/=?^_\`{|}~-`, the domain of labels of at most 63 letters, digits
 * and inner hyphens. Read with the public implementation @brazilian-utils/brazilian-utils
 * (src/_internals/constants/pix-key.ts), whose comment quotes the DICT API and its changelog.
 */
const DICT_EMAIL = /^[a-z0-9.!#$'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** The same with the `&` the DICT allowed until version 2.6.0 (2025). */
const DICT_EMAIL_BEFORE_2_6 = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const MASKED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const MASKED_CNPJ = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

function oneDigit(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

/**
 * A `+55` phone key. The DICT registers "número de telefone celular" in E.164: `+55`, the 2-digit
 * area code, the 9-digit mobile number that starts with 9 (Manual Operacional do DICT; read with
 * @brazilian-utils/brazilian-utils `isValidPixKey`, "a landline is not a valid phone key"). The
 * contract says "phone with +55 prefix", which names no kind of line: a landline (10 national
 * digits) or an 11-digit number outside the mobile numbering is borderline. Any other count of
 * national digits is no Brazilian phone at all, under either reading: invalid.
 */
function readPlus55Phone(key: string): Reading {
  const national = key.slice(3).replace(/[\s().-]/g, '');
  if (!/^\d*$/.test(national)) return { standing: 'invalid', why: 'a +55 phone with characters other than digits and separators' };
  if (national.length !== 10 && national.length !== 11) {
    return { standing: 'invalid', why: `a +55 phone of ${national.length} national digits: a Brazilian number has a 2-digit area code and 8 or 9 digits, the DICT's phone keys 11` };
  }
  if (national !== key.slice(3)) return { standing: 'borderline', why: 'a +55 phone with separators (the DICT writes +55 and digits only)' };
  if (national.length === 10) return { standing: 'borderline', why: 'a +55 landline number (the DICT registers mobile numbers; "phone with +55 prefix" names no kind of line)' };
  if (AREA_CODES.includes(national.slice(0, 2)) && national[2] === '9') return { standing: 'valid', why: 'a phone with +55 prefix' };
  return { standing: 'borderline', why: 'a +55 number of 11 digits outside the mobile numbering (area code, leading 9): the contract states no numbering rule' };
}

/** An e-mail key, as the DICT registers it (see {@link DICT_EMAIL}). */
function readEmail(key: string): Reading {
  if (key.length > DICT_EMAIL_MAX) return { standing: 'invalid', why: `an e-mail of ${key.length} characters, over the ${DICT_EMAIL_MAX} the DICT registers` };
  const lower = key.toLowerCase();
  if (!DICT_EMAIL.test(lower)) {
    return DICT_EMAIL_BEFORE_2_6.test(lower)
      ? { standing: 'borderline', why: 'an e-mail with "&", which the DICT took out of its e-mail keys in 2025 (DICT API 2.6.0)' }
      : { standing: 'invalid', why: 'an e-mail with characters outside the DICT e-mail keys (letters, digits, .!#$\'*+/=?^_`{|}~-, labelled domain)' };
  }
  const [local = '', domain = ''] = lower.split('@');
  const notes: string[] = [];
  if (lower !== key) notes.push('upper-case letters (the DICT keeps e-mail keys in lower case, a service may lower them)');
  if (!domain.includes('.')) notes.push('a dotless domain (the DICT pattern allows it, common e-mail validators do not)');
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) notes.push('dots at the edge of the local part or doubled (the DICT pattern allows them, RFC 5322 does not)');
  return notes.length === 0 ? { standing: 'valid', why: 'an e-mail' } : { standing: 'borderline', why: `an e-mail with ${notes.join(' and ')}` };
}

/**
 * A PIX key as "CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)"
 * reads it, each kind closed against the DICT's key rules (the Manual de Padrões para Iniciação do
 * Pix, §2.5.1: "A regra para formatação das chaves Pix [...] segue estritamente as regras definidas
 * no Manual Operacional do DICT"):
 * - CPF and CNPJ: Receita Federal's check digits (generators/documents.ts), the one-digit numbers
 *   refused; with punctuation, or an alphanumeric CNPJ (since July 2026), borderline;
 * - e-mail: at most 77 characters of the DICT's set ({@link readEmail});
 * - phone: `+55` and 10 or 11 national digits ({@link readPlus55Phone});
 * - random key (EVP): a UUID written 8-4-4-4-12 (the DICT generates it so); 32 hex digits without
 *   the hyphens are no UUID string and no EVP: invalid;
 * - a valid key with surrounding spaces is borderline: a service may trim them and accept it
 *   (@brazilian-utils `isValidPixKey(' a@b.com')` does), another refuse it.
 */
export function readPixKey(key: string): Reading {
  if (key === '') return { standing: 'invalid', why: 'an empty key' };
  const trimmed = key.trim();
  if (trimmed !== key) {
    const inner = readPixKey(trimmed);
    return inner.standing === 'invalid' ? { standing: 'invalid', why: `${inner.why}, with surrounding spaces` } : { standing: 'borderline', why: `${inner.why} with surrounding spaces (a service may trim them)` };
  }
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
  if (key.startsWith('+55')) return readPlus55Phone(key);
  if (key.startsWith('+')) return { standing: 'invalid', why: 'a phone without the +55 prefix' };
  if (/^\d+$/.test(key)) return { standing: 'invalid', why: `${key.length} bare digits: no CPF, no CNPJ, no phone with +55` };
  if (UUID.test(key)) return { standing: 'valid', why: 'a random key (UUID)' };
  if (/^[0-9a-f]{32}$/i.test(key)) return { standing: 'invalid', why: 'a UUID without its hyphens (a random key is written 8-4-4-4-12, as the DICT generates it)' };
  const at = key.split('@');
  if (at.length === 2 && at[0] !== '' && at[1] !== '') return readEmail(key);
  return { standing: 'invalid', why: /[0-9a-f]{8}-/i.test(key) ? 'a malformed UUID' : 'no CPF, CNPJ, e-mail, +55 phone or UUID' };
}

/**
 * A key written as a static BR Code carries it in 26.01: exactly the DICT's form (§2.5.1 of the
 * Manual de Padrões: "segue estritamente as regras [...] do DICT"): a valid key, and a random key
 * or an e-mail in lower case. Anything else, the reason; undefined when it is.
 */
export function dictKeyFormProblem(key: string): string | undefined {
  const reading = readPixKey(key);
  if (reading.standing !== 'valid') return reading.why;
  if (UUID.test(key) && key !== key.toLowerCase()) return 'a random key in upper case (the DICT writes it in lower case)';
  return undefined;
}
