/**
 * BR Code (PIX "copia e cola"): the suite's own EMV parser and CRC (the facts), and the two rules
 * that judge a charge's copy-and-paste code with them, for both APIs.
 *
 * Contract:
 * - gateway-api.md, "What the service does": "It creates PIX charges (dynamic QR code: an EMV
 *   copy-and-paste string plus a base64 PNG image)"; "PIX charge" table: "pix.emv | string |
 *   copy-and-paste payload (EMV standard)".
 * - partner-cashin-api.md: "Creates dynamic PIX charges and returns the copy-and-paste code
 *   (`qr_code`, standard central-bank EMV payload)"; "qr_code | string | copy-and-paste EMV payload".
 *
 * "EMV standard" / "standard central-bank EMV payload" is read as the Banco Central's BR Code
 * (Manual do BR Code, built on EMV® QRCPS-MPM) with the PIX template of the Manual de Padrões para
 * Iniciação do Pix. Where those texts are firm a deviation fails; where a public source marks a
 * case as left open, the rule warns:
 * - the public implementation @brazilian-utils/brazilian-utils (`isValidPixPayload`,
 *   src/utilities/is-valid-pix-payload, its comment quoting the manuals) reads a lower-case CRC
 *   ("No official source states the case of its hexadecimal digits"), trims surrounding whitespace,
 *   takes the EMV amount examples "98.73", "98" and "98.", and ignores a txid next to a payload
 *   location ("Os campos Valor e Identificador da Transação (txid) não devem ser preenchidos no QR
 *   Code dinâmico. Se preenchidos, seu conteúdo deve ser ignorado", §2.7).
 * This parser is independent of the reference's (reference/shared/); the tests cross-check it with
 * @brazilian-utils/brazilian-utils.
 */
import type { Exchange } from '../core/exchange.js';
import type { RequirementId } from '../core/requirement-ids.js';
import { show } from './judgement.js';
import { defineRule } from './rule.js';
import { dictKeyFormProblem } from './identifiers.js';
import { BR_CODE_FIELDS } from '../../generators/brcode-fields.js';

// ── the parser ────────────────────────────────────────────────────────────────────────────────

export interface EmvParseError {
  /** offset (in length units, see `lengthUnit`) where parsing stopped */
  offset: number;
  message: string;
}

export interface EmvField {
  /** two-digit id, e.g. `"26"` */
  id: string;
  /** the declared length */
  length: number;
  value: string;
  /** offset of the id in the parsed text (length units) */
  offset: number;
  /** sub-fields of a template (26–51, 62, 80–99) when its value parses as TLV */
  children?: EmvField[];
  /** why a template's value did not parse as TLV */
  childError?: EmvParseError;
}

/**
 * `lengthUnit` says how the declared lengths were counted: `chars` (Unicode code points, which is
 * what every ASCII payload uses) or `utf8-bytes` (a non-ASCII payload that only parses when lengths
 * count UTF-8 bytes). The BR Code character set is ASCII, so the difference only shows on payloads
 * that already carry characters outside it.
 */
export type BrCodeParseResult =
  | { ok: true; fields: EmvField[]; lengthUnit: 'chars' | 'utf8-bytes' }
  | { ok: false; error: EmvParseError; fields: EmvField[] };

/** EMV templates whose value is itself TLV: merchant account information, additional data, unreserved. */
function isTemplateId(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || (n >= 80 && n <= 99);
}

interface Units {
  length: number;
  slice(start: number, end: number): string;
}

function parseTlv(units: Units, base: number, nested: boolean, unit: 'chars' | 'utf8-bytes'): { fields: EmvField[]; error?: EmvParseError } {
  const fields: EmvField[] = [];
  let pos = 0;
  while (pos < units.length) {
    if (units.length - pos < 4) {
      return { fields, error: { offset: base + pos, message: `truncated field header ${show(units.slice(pos, units.length))} (need 2-digit id and 2-digit length)` } };
    }
    const id = units.slice(pos, pos + 2);
    const lengthText = units.slice(pos + 2, pos + 4);
    if (!/^\d{2}$/.test(id)) {
      return { fields, error: { offset: base + pos, message: `field id ${show(id)} is not two digits` } };
    }
    if (!/^\d{2}$/.test(lengthText)) {
      return { fields, error: { offset: base + pos + 2, message: `length ${show(lengthText)} of field ${id} is not two digits` } };
    }
    const length = Number(lengthText);
    const start = pos + 4;
    if (start + length > units.length) {
      return {
        fields,
        error: { offset: base + pos, message: `field ${id} declares length ${length} but only ${units.length - start} remain` },
      };
    }
    const value = units.slice(start, start + length);
    const field: EmvField = { id, length, value, offset: base + pos };
    if (!nested && isTemplateId(id)) {
      const inner = parseTlv(unitsOf(value, unit), base + start, true, unit);
      if (inner.error) field.childError = inner.error;
      else field.children = inner.fields;
    }
    fields.push(field);
    pos = start + length;
  }
  return { fields };
}

function unitsOf(text: string, unit: 'chars' | 'utf8-bytes'): Units {
  if (unit === 'utf8-bytes') {
    const buf = Buffer.from(text, 'utf8');
    return { length: buf.length, slice: (s, e) => buf.subarray(s, e).toString('utf8') };
  }
  const cps = Array.from(text);
  return { length: cps.length, slice: (s, e) => cps.slice(s, e).join('') };
}

/**
 * Parses a BR Code as EMV TLV: a 2-digit id, a 2-digit length, then that many characters of value.
 * Templates (26–51 merchant account information, 62 additional data, 80–99) are parsed one level
 * deep into `children`. Never throws.
 */
export function parseBrCode(text: string): BrCodeParseResult {
  if (typeof text !== 'string') return { ok: false, error: { offset: 0, message: `not a string (${typeof text})` }, fields: [] };
  if (text.length === 0) return { ok: false, error: { offset: 0, message: 'empty payload' }, fields: [] };
  const asChars = parseTlv(unitsOf(text, 'chars'), 0, false, 'chars');
  if (!asChars.error) return { ok: true, fields: asChars.fields, lengthUnit: 'chars' };
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(text)) {
    const asBytes = parseTlv(unitsOf(text, 'utf8-bytes'), 0, false, 'utf8-bytes');
    if (!asBytes.error) return { ok: true, fields: asBytes.fields, lengthUnit: 'utf8-bytes' };
  }
  return { ok: false, error: asChars.error, fields: asChars.fields };
}

/** Finds a field by dotted path (`"54"`, `"26.25"`, `"62.05"`); the first match at each level. */
export function findEmvField(fields: readonly EmvField[], path: string): EmvField | undefined {
  const [head, ...rest] = path.split('.');
  const field = fields.find((f) => f.id === head);
  if (!field || rest.length === 0) return field;
  return field.children ? findEmvField(field.children, rest.join('.')) : undefined;
}

const PIX_GUI = 'br.gov.bcb.pix';

/** The merchant account template (26–51) whose GUI (sub-field 00) is `br.gov.bcb.pix`, case-insensitively (§2.5: "O GUI [...] é case insensitive"). */
export function findPixTemplate(fields: readonly EmvField[]): EmvField | undefined {
  return fields.find((f) => {
    const n = Number(f.id);
    if (n < 26 || n > 51 || !f.children) return false;
    const gui = f.children.find((c) => c.id === '00');
    return gui !== undefined && gui.value.toLowerCase() === PIX_GUI;
  });
}

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. */
export function crc16CcittFalse(data: Uint8Array | string): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/**
 * The CRC a BR Code must carry: CRC16/CCITT-FALSE over every character up to and including the
 * `6304` that opens field 63, as 4 hex digits (written upper case in every example of the manuals).
 * `prefix` is that text.
 */
export function computeBrCodeCrc(prefix: string): string {
  return crc16CcittFalse(prefix).toString(16).toUpperCase().padStart(4, '0');
}

/** `1050` → `"10.50"`, with integer arithmetic. */
export function centsToDecimal(amountCents: number): string {
  const sign = amountCents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amountCents));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// ── reading a BR Code ─────────────────────────────────────────────────────────────────────────

/** What field 54 says. */
export interface AmountReading {
  text: string;
  /** digits with an optional single "." decimal mark (EMV: "98.73", "98" and "98." are its examples) */
  decimal: boolean;
  /** written with exactly 2 decimals, as every example of the BCB manuals */
  canonical: boolean;
  /** the value in cents, when it is a whole number of cents (`"10.500"` is 1050, `"10.505"` none) */
  cents?: number;
  zero: boolean;
}

/** Reads field 54 (transaction amount). */
export function readAmount(text: string): AmountReading {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return { text, decimal: false, canonical: false, zero: false };
  const whole = m[1] as string;
  const decimals = m[2] ?? '';
  const exact = /^0*$/.test(decimals.slice(2));
  const reading: AmountReading = { text, decimal: true, canonical: /^\d+\.\d{2}$/.test(text), zero: /^0+$/.test(whole) && /^0*$/.test(decimals) };
  if (exact) reading.cents = Number(whole) * 100 + Number(decimals.slice(0, 2).padEnd(2, '0'));
  return reading;
}

/** The kinds of things a BR Code can show, each judged under the code `emv.<kind>`. */
export type BrCodeProblemKind = 'structure' | 'crc' | 'crc-case' | 'whitespace' | 'charset' | 'additional-data' | 'txid-in-dynamic' | 'amount-format' | 'amount-zero';

export interface BrCodeProblem {
  kind: BrCodeProblemKind;
  message: string;
}

/** A BR Code read: its fields, its form, its amount and what is wrong with it. */
export interface BrCodeReading {
  /** the payload judged: the text without surrounding whitespace; undefined when not a string */
  text?: string;
  /** the top-level fields, when the payload parses */
  fields?: EmvField[];
  /** the PIX merchant account template */
  template?: EmvField;
  /** `dynamic`: the template carries a payload location (26.25); `static`: a key (26.01) and none */
  form?: 'dynamic' | 'static';
  amount?: AmountReading;
  problems: BrCodeProblem[];
}

/** The field a table path names: `26` is the PIX template wherever it sits in 26–51. */
function fieldAt(fields: readonly EmvField[], path: string): EmvField | undefined {
  const [head, child] = path.split('.');
  const parent = head === '26' ? findPixTemplate(fields) : fields.find((f) => f.id === head);
  if (child === undefined) return parent;
  return parent?.children?.find((c) => c.id === child);
}

/**
 * Every field present whose length or format breaks its row of the BR Code field table
 * (generators/brcode-fields.ts, from the BR Code manual and EMV QRCPS-MPM: the two agree on these
 * limits, so a field over its limit is a payload that payers' apps may refuse). 62.05 (txid) is
 * read by its own rules (see {@link txidProblem}).
 */
export function fieldLimitProblems(fields: readonly EmvField[]): string[] {
  const problems: string[] = [];
  for (const row of BR_CODE_FIELDS) {
    if (row.path === '62.05') continue;
    const field = fieldAt(fields, row.path);
    if (!field) continue;
    const length = Array.from(field.value).length;
    if (row.fixed ? length !== row.length : length > row.length) {
      problems.push(`field ${row.path} (${row.name}) is ${length} characters; the BR Code table ${row.fixed ? 'fixes' : 'allows at most'} ${row.length}`);
    }
    if (row.format === 'N' && !/^\d*$/.test(field.value)) problems.push(`field ${row.path} (${row.name}) must be digits only, got ${show(field.value)}`);
  }
  return problems;
}

/**
 * Field 62.05, the txid (Manual de Padrões para Iniciação do Pix):
 * - static code: `***` (none) or 1 to 25 letters and digits (§2.6.2: "limitado a 25 caracteres",
 *   "Letras minúsculas [...] Letras maiúsculas [...] Dígitos decimais"): anything else fails;
 * - dynamic code: "Os campos Valor e Identificador da Transação (txid) não devem ser preenchidos no
 *   QR Code dinâmico. Se preenchidos, seu conteúdo deve ser ignorado" (§2.7): a txid there is a
 *   WARNING (`txid-in-dynamic`), also when it has the 26–35 letters and digits of a dynamic charge's
 *   own txid (the Pix API's cob txid), over the 25 of EMV's field 05 (the issue's "25-character rule
 *   applied to dynamic codes": brazilian-utils checks only its presence there). A value of more
 *   than 25 characters that is no txid of either form is over EMV's 25 for field 05 ("Reference
 *   Label", ans, var. up to 25) with no reading that allows it: that fails.
 */
function txidProblem(txid: string, form: 'dynamic' | 'static' | undefined): BrCodeProblem | undefined {
  if (txid === '***') return undefined;
  const chars = Array.from(txid).length;
  if (form !== 'dynamic') {
    if (/^[A-Za-z0-9]{1,25}$/.test(txid)) return undefined;
    return { kind: 'structure', message: `field 62.05 (txid) ${show(txid)} is not "***" nor 1 to 25 letters and digits (Manual de Padrões §2.6.2)` };
  }
  if (chars <= 25 || /^[A-Za-z0-9]{26,35}$/.test(txid)) {
    return { kind: 'txid-in-dynamic', message: `field 62.05 carries a txid ${show(txid)} (${chars} characters) in a dynamic code, where the manual leaves it unfilled ("***") and payers ignore it (§2.7)` };
  }
  return { kind: 'structure', message: `field 62.05 (txid) ${show(txid)} is ${chars} characters: over the 25 of EMV's field 05 and no txid (1–25 letters and digits, or a dynamic charge's 26–35)` };
}

/**
 * The PIX merchant account template's key-versus-location rules (Manual de Padrões §2.5–§2.7,
 * as @brazilian-utils `isValidPixPayload` reads them): exactly one of a key (01) and a payload
 * location (25); a key written as the DICT registers it (§2.5.1); the fss (03, the 8-digit ISPB of
 * a Pix Saque facilitator, §2.6) only beside a key, since "§2.7 maps the dynamic QR Code to exactly
 * two sub-objects, 00 (GUI) and 25 (URL)"; a location that is a URL (no spaces). Failures all.
 */
function templateProblems(template: EmvField): string[] {
  const at = (id: string): EmvField | undefined => template.children?.find((c) => c.id === id);
  const key = at('01');
  const url = at('25');
  const fss = at('03');
  const problems: string[] = [];
  const where = `template ${template.id}`;
  if (!key && !url) problems.push(`${where} carries neither a Pix key (01) nor a payload location (25)`);
  if (key && url) problems.push(`${where} carries both a Pix key (01) and a payload location (25): a dynamic template holds 00 and 25 only (Manual de Padrões §2.7)`);
  if (fss && url) problems.push(`${where} carries an fss (03) beside a payload location (25): the fss belongs to the static template (§2.6), the dynamic one holds 00 and 25 only (§2.7)`);
  if (key) {
    const why = dictKeyFormProblem(key.value);
    if (why !== undefined) problems.push(`${where}.01 ${show(key.value)} is not a Pix key as the DICT writes it (§2.5.1): ${why}`);
  }
  if (url && /\s/.test(url.value)) problems.push(`${where}.25 ${show(url.value)} contains whitespace: no URL`);
  return problems;
}

/** What the characters around the payload are, for a finding. */
function describeWhitespace(raw: string, text: string): string {
  const lead = raw.slice(0, raw.indexOf(text));
  const trail = raw.slice(raw.indexOf(text) + text.length);
  return [lead && `starts with ${show(lead)}`, trail && `ends with ${show(trail)}`].filter(Boolean).join(' and ');
}

/**
 * Reads a BR Code: parses it and lists what is wrong, each problem with the kind that names its
 * code (`emv.<kind>`):
 * - `structure` (failure): TLV that does not parse (2-digit id, 2-digit length, value of exactly
 *   that length; templates 26 and 62 nested TLV); 00=`01` not first; 63 not last or not 4 hex
 *   digits; a duplicate top-level id; 01 other than `11`/`12`; no merchant account template with
 *   the GUI `br.gov.bcb.pix`; the template's key-versus-location rules ({@link templateProblems});
 *   52 missing; 53 not `986`; 58 not `BR`; 59 or 60 missing or empty; 54 not digits with an
 *   optional "."; a zero 54 in a static code without fss (EMV: "If present, the Transaction Amount
 *   shall be different from zero"); a field over its limit of the BR Code table; a txid breaking
 *   its rules ({@link txidProblem});
 * - `crc` (failure): the payload does not end in `6304` + 4 characters, or the CRC differs;
 * - `crc-case` (warning): the right CRC in lower-case hex ("No official source states the case
 *   of its hexadecimal digits", brazilian-utils; every example of the manuals is upper case);
 * - `whitespace` (warning): whitespace around the payload, e.g. a trailing newline: the payload
 *   inside is judged (brazilian-utils trims before it validates); a copy-and-paste code with a
 *   newline pasted into a payer's app may or may not be trimmed;
 * - `charset` (warning): characters outside printable ASCII, or lengths that only add up in UTF-8
 *   bytes (the BR Code character set is ASCII; payloads in the wild differ);
 * - `additional-data` (warning): 62 absent or without 05 (mandatory in the BR Code table, optional
 *   in EMV QRCPS);
 * - `txid-in-dynamic` (warning): see {@link txidProblem};
 * - `amount-format` (warning): 54 not written with 2 decimals (`"98."`, `"98"`, `"10.5"`, three
 *   decimals): the EMV examples include `"98."` and `"98"`; a third decimal is outside the
 *   manuals' examples and what a public implementation takes ("at most two decimals");
 * - `amount-zero` (warning): a zero 54 in a dynamic code or beside an fss, where the BCB gives zero
 *   a meaning (the Pix API's withdrawal charges "deve apresentar o valor 0.00", and payers ignore a
 *   dynamic code's 54, §2.7).
 */
export function readBrCode(emv: unknown): BrCodeReading {
  if (typeof emv !== 'string') return { problems: [{ kind: 'structure', message: `not a string: ${show(emv)}` }] };
  const problems: BrCodeProblem[] = [];
  const add = (kind: BrCodeProblemKind, message: string): void => void problems.push({ kind, message });
  const text = emv.trim();
  const reading: BrCodeReading = { text, problems };
  if (text === '') {
    add('structure', 'empty payload');
    return reading;
  }
  if (text !== emv) add('whitespace', `the payload ${describeWhitespace(emv, text)}; the BR Code inside was judged`);

  if (text.length < 8 || text.slice(-8, -4) !== '6304') {
    add('crc', `the payload does not end with "6304" and 4 hex digits: it ends with ${show(text.slice(-8))}`);
  } else {
    const expected = computeBrCodeCrc(text.slice(0, -4));
    const actual = text.slice(-4);
    if (actual.toUpperCase() !== expected) add('crc', `field 63 = ${show(actual)}; CRC16/CCITT-FALSE over the payload up to and including "6304" = ${expected}`);
    else if (actual !== expected) add('crc-case', `field 63 = ${show(actual)}: the right CRC, in lower-case hex (the manuals write ${expected})`);
  }

  const parsed = parseBrCode(text);
  if (!parsed.ok) {
    add('structure', `TLV does not parse at offset ${parsed.error.offset}: ${parsed.error.message}`);
    return reading;
  }
  const { fields } = parsed;
  reading.fields = fields;
  const fail = (message: string): void => add('structure', message);
  if (parsed.lengthUnit === 'utf8-bytes') add('charset', 'field lengths only add up when counted in UTF-8 bytes (the payload has non-ASCII characters)');
  else if (/[^\x20-\x7e]/.test(text)) add('charset', 'the payload carries characters outside printable ASCII, the BR Code character set');

  const first = fields[0];
  if (!first || first.id !== '00' || first.value !== '01') {
    fail(`field 00 (payload format indicator) must come first with value "01"; first field is ${first ? `${first.id}=${show(first.value)}` : 'none'}`);
  }
  const last = fields[fields.length - 1];
  if (!last || last.id !== '63') fail(`field 63 (CRC) must come last; last field is ${last ? last.id : 'none'}`);
  else if (!/^[0-9A-Fa-f]{4}$/.test(last.value)) fail(`field 63 must be 4 hex digits, got ${show(last.value)}`);

  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.id)) fail(`field ${f.id} occurs more than once`);
    seen.add(f.id);
  }
  const get = (id: string): EmvField | undefined => fields.find((f) => f.id === id);

  const poi = get('01');
  if (poi && poi.value !== '11' && poi.value !== '12') fail(`field 01 (point of initiation) must be "11" or "12" when present, got ${show(poi.value)}`);

  for (const f of fields) {
    if ((f.id === '26' || f.id === '62') && f.childError) {
      fail(`template ${f.id} does not parse as TLV at offset ${f.childError.offset}: ${f.childError.message}`);
    }
  }
  const template = findPixTemplate(fields);
  if (!template) {
    const t26 = get('26');
    fail(
      t26
        ? `template 26 does not carry the GUI "${PIX_GUI}" in sub-field 00 (got ${show(t26.children?.find((c) => c.id === '00')?.value)})`
        : `no merchant account template (26) with the GUI "${PIX_GUI}"`,
    );
  } else {
    reading.template = template;
    const child = (id: string): EmvField | undefined => template.children?.find((c) => c.id === id);
    if (child('25')) reading.form = 'dynamic';
    else if (child('01')) reading.form = 'static';
    for (const message of templateProblems(template)) fail(message);
  }

  if (!get('52')) fail('field 52 (merchant category code) is missing');
  const currency = get('53');
  if (!currency) fail('field 53 (transaction currency) is missing');
  else if (currency.value !== '986') fail(`field 53 must be "986" (BRL), got ${show(currency.value)}`);
  const country = get('58');
  if (!country) fail('field 58 (country code) is missing');
  else if (country.value !== 'BR') fail(`field 58 must be "BR", got ${show(country.value)}`);
  const name = get('59');
  if (!name || name.value.trim() === '') fail('field 59 (merchant name) is missing or empty');
  const city = get('60');
  if (!city || city.value.trim() === '') fail('field 60 (merchant city) is missing or empty');

  const amountField = get('54');
  if (amountField) {
    const amount = readAmount(amountField.value);
    reading.amount = amount;
    const fss = template?.children?.some((c) => c.id === '03') === true;
    if (!amount.decimal) fail(`field 54 (transaction amount) must be digits with an optional "." decimal mark, got ${show(amountField.value)}`);
    else if (amount.zero && reading.form !== 'dynamic' && !fss) fail(`field 54 is zero (${show(amountField.value)}): EMV QRCPS "the Transaction Amount shall be different from zero", and a static code without fss gives zero no meaning`);
    else if (amount.zero) add('amount-zero', `field 54 is zero (${show(amountField.value)}) in a ${fss ? 'Pix Saque code (fss)' : 'dynamic code'}: EMV wants a non-zero amount, the BCB gives zero a meaning there`);
    else if (!amount.canonical) add('amount-format', `field 54 = ${show(amountField.value)} is not written with 2 decimals, as the manuals' examples are`);
  }

  const additional = get('62');
  if (!additional) add('additional-data', 'field 62 (additional data field template) is absent: mandatory in the BR Code table, optional in EMV QRCPS');
  else if (additional.children) {
    const txid = additional.children.find((c) => c.id === '05');
    if (!txid) add('additional-data', 'field 62 carries no reference label (62.05): mandatory in the BR Code table, optional in EMV QRCPS');
    else {
      const problem = txidProblem(txid.value, reading.form);
      if (problem) problems.push(problem);
    }
  }
  for (const message of fieldLimitProblems(fields)) fail(message);
  return reading;
}

// ── the rules ─────────────────────────────────────────────────────────────────────────────────

/** The API whose charge carries the payload, and where. */
export type BrCodeApi = 'gateway' | 'partner';

const AT: Record<BrCodeApi, { subject: string; pointer: string }> = {
  gateway: { subject: 'data.pix.emv', pointer: '/data/pix/emv' },
  partner: { subject: 'qr_code', pointer: '/qr_code' },
};

/** The rows each API states the BR Code in (one rule decides both, the row of the observation's API). */
const EMV_ROWS = {
  /** "pix.emv | string | copy-and-paste payload (EMV standard)" */
  gateway: ['GW-PIXIN-EMV'],
  /** "returns the copy-and-paste code (`qr_code`, standard central-bank EMV payload)"; "qr_code | string | copy-and-paste EMV payload" */
  partner: ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR'],
} as const satisfies Record<BrCodeApi, readonly RequirementId[]>;

const DYNAMIC_ROWS = {
  /** "It creates PIX charges (dynamic QR code: …)" */
  gateway: ['GW-PIXIN-DYNAMIC-QR'],
  /** "Creates dynamic PIX charges" */
  partner: ['PT-CHARGE-QR-DYNAMIC'],
} as const satisfies Record<BrCodeApi, readonly RequirementId[]>;

/** A charge's copy-and-paste code as an answer carried it. */
export interface BrCodeObservation {
  api: BrCodeApi;
  /** the payload (`data.pix.emv`, `qr_code`) as the answer carried it */
  emv: unknown;
  /** the charge's amount in cents, when the code is to carry it in 54 */
  amountCents?: number;
  exchange?: Exchange;
  /** JSON pointer of the payload, when not the API's usual place */
  pointer?: string;
}

const STRUCTURE_EXPECTED = 'a BR Code: EMV TLV with 00="01" first, a merchant account template carrying GUI "br.gov.bcb.pix" and either a DICT key (01) or a payload location (25), 52, 53="986", 58="BR", 59, 60, 62 with a txid (05), every field within the BR Code table, and 63 (the CRC) last';

/** The largest amount field 54's 13 characters hold: R$ 9,999,999,999.99. */
const LARGEST_54_CENTS = 999_999_999_999;

/**
 * "pix.emv | string | copy-and-paste payload (EMV standard)" (gateway) and "returns the
 * copy-and-paste code (`qr_code`, standard central-bank EMV payload)" (partner): the payload is a
 * BR Code ({@link readBrCode}: structure, CRC, the field table, the template's key-versus-location
 * rules, the txid) and carries the charge's amount when it carries one in 54:
 * - `emv.amount-mismatch` (failure): 54 present with another value than `amountCents` (a third
 *   decimal that is not 0 is another value: no charge in cents has it). An amount 54 cannot hold
 *   (over R$ 9,999,999,999.99) is not compared: the code must then leave it to the location.
 * - 54 absent: no finding. "Os campos Valor e [...] txid não devem ser preenchidos no QR Code
 *   dinâmico" (§2.7): a dynamic code's amount is behind its payload location.
 * All structure failures are listed in one `emv.structure` finding; the warnings are one finding
 * each, and an amount format or zero warning gives way to a mismatch.
 */
export const verifyBrCode = defineRule({
  name: 'verifyBrCode',
  requirements: [...EMV_ROWS.gateway, ...EMV_ROWS.partner],
  codes: {
    'emv.structure': 'failure',
    'emv.crc': 'failure',
    'emv.crc-case': 'warning',
    'emv.whitespace': 'warning',
    'emv.charset': 'warning',
    'emv.additional-data': 'warning',
    'emv.txid-in-dynamic': 'warning',
    'emv.amount-mismatch': 'failure',
    'emv.amount-format': 'warning',
    'emv.amount-zero': 'warning',
  },
  judge(observation: BrCodeObservation, v) {
    const { api, emv, amountCents, exchange } = observation;
    v.decides(...EMV_ROWS[api]);
    v.shows(exchange);
    const { subject } = AT[api];
    const pointer = observation.pointer ?? AT[api].pointer;
    const reading = readBrCode(emv);
    const shown = show(emv, 300);
    const mismatch = amountCents !== undefined && amountCents <= LARGEST_54_CENTS && reading.amount !== undefined && reading.amount.cents !== amountCents;
    const structure = reading.problems.filter((p) => p.kind === 'structure');
    if (structure.length > 0) {
      v.find('emv.structure', { title: `${subject} is not a well-formed BR Code`, expected: STRUCTURE_EXPECTED, actual: `${structure.map((p) => p.message).join('; ')} — in ${shown}`, pointer });
    }
    const titles: Record<Exclude<BrCodeProblemKind, 'structure'>, string> = {
      crc: `${subject} has a wrong CRC (field 63)`,
      'crc-case': `${subject} writes its CRC (field 63) in lower-case hex`,
      whitespace: `${subject} is surrounded by whitespace`,
      charset: `${subject} carries characters outside the BR Code character set`,
      'additional-data': `${subject} carries no txid (62.05)`,
      'txid-in-dynamic': `${subject} carries a txid (62.05) in a dynamic code`,
      'amount-format': `${subject} field 54 is not written with 2 decimals`,
      'amount-zero': `${subject} field 54 is zero`,
    };
    const expectations: Record<Exclude<BrCodeProblemKind, 'structure'>, string> = {
      crc: 'the payload ends with "6304" and the 4-hex-digit CRC16/CCITT-FALSE of everything up to and including "6304"',
      'crc-case': 'the CRC in upper-case hex, as every example of the BCB manuals writes it (the case is not stated: a warning)',
      whitespace: 'the BR Code alone, with nothing around it (a payer app may not trim it: a warning)',
      charset: 'printable ASCII only, lengths counted in characters',
      'additional-data': 'field 62 with a reference label 05 ("***" when none)',
      'txid-in-dynamic': 'field 62.05 = "***" in a dynamic code: "Os campos Valor e Identificador da Transação (txid) não devem ser preenchidos no QR Code dinâmico" (§2.7)',
      'amount-format': amountCents !== undefined ? `field 54 = "${centsToDecimal(amountCents)}"` : 'field 54 with 2 decimals',
      'amount-zero': 'field 54 absent, or a non-zero amount (EMV: "shall be different from zero")',
    };
    for (const problem of reading.problems) {
      if (problem.kind === 'structure') continue;
      if (mismatch && (problem.kind === 'amount-format' || problem.kind === 'amount-zero')) continue;
      v.find(`emv.${problem.kind}`, { title: titles[problem.kind], expected: expectations[problem.kind], actual: problem.kind === 'crc' || problem.kind === 'whitespace' ? `${problem.message} — in ${shown}` : problem.message, pointer });
    }
    if (mismatch && amountCents !== undefined) {
      v.find('emv.amount-mismatch', { title: `${subject} field 54 does not match the charge amount`, expected: `field 54 = "${centsToDecimal(amountCents)}" (${amountCents} cents)`, actual: `field 54 = ${show(reading.amount?.text)}`, pointer });
    }
  },
});

/**
 * "It creates PIX charges (dynamic QR code: …)" (gateway), "Creates dynamic PIX charges" (partner):
 * the BR Code is dynamic. In the central bank's terms a dynamic BR Code is one whose PIX template
 * carries the payload location URL in sub-field 25 instead of a key in 01 (Manual de Padrões §2.7:
 * the dynamic template holds 00 GUI and 25 URL):
 * - `emv.not-dynamic` (failure): no 26.25 (e.g. a static code with the key in 26.01, payable any
 *   number of times, which a charge-bound dynamic code is not), or an empty one;
 * - `emv.dynamic-url-scheme` (warning): 26.25 starts with `http://`/`https://` (the manual writes
 *   the location without the scheme; payers add `https://`);
 * - `emv.dynamic-url-form` (warning): 26.25 is not a host with a dot and a path (the manual's
 *   examples, and what @brazilian-utils `isValidPixUrl` takes);
 * - `emv.dynamic-reusable` (warning): 01 = `11` ("may be used more than once") on a code the
 *   contract calls dynamic. Field 01 is optional (`Uso: O`) and only `12` ("só pode ser utilizado
 *   uma vez") has a stated meaning, so an ABSENT 01 is no finding: the contract never says single-use.
 * A payload that does not parse or has no PIX template decides nothing here: that is
 * {@link verifyBrCode}'s finding. A key beside a location is {@link verifyBrCode}'s too (the template rules).
 */
export const verifyDynamicBrCode = defineRule({
  name: 'verifyDynamicBrCode',
  requirements: [...DYNAMIC_ROWS.gateway, ...DYNAMIC_ROWS.partner],
  codes: { 'emv.not-dynamic': 'failure', 'emv.dynamic-url-scheme': 'warning', 'emv.dynamic-url-form': 'warning', 'emv.dynamic-reusable': 'warning' },
  judge(observation: Omit<BrCodeObservation, 'amountCents'>, v) {
    const { api, emv, exchange } = observation;
    const reading = readBrCode(emv);
    const template = reading.template;
    if (!template?.children || !reading.fields) return v.nothingToJudge();
    v.decides(...DYNAMIC_ROWS[api]);
    v.shows(exchange);
    const { subject } = AT[api];
    const pointer = observation.pointer ?? AT[api].pointer;
    const title = `${subject} is not a dynamic BR Code`;
    const expected = 'a dynamic BR Code: the PIX template carries the payload location URL (without scheme) in sub-field 25; field 01, if present, is "12"';
    const url = template.children.find((c) => c.id === '25');
    const key = template.children.find((c) => c.id === '01');
    if (!url || url.value.trim() === '') {
      const actual = !url
        ? key
          ? `template ${template.id} carries a Pix key in sub-field 01 (${show(key.value)}) and no payload URL in sub-field 25: a static BR Code`
          : `template ${template.id} carries no payload URL in sub-field 25`
        : `sub-field ${template.id}.25 (payload URL) is empty`;
      v.find('emv.not-dynamic', { title, expected, actual: `${actual} — in ${show(reading.text, 300)}`, pointer });
    } else {
      const scheme = /^https?:\/\//i.test(url.value);
      if (scheme) {
        v.find('emv.dynamic-url-scheme', { title: `${subject} writes its payload location with a URL scheme`, expected: 'sub-field 25 without "https://" (the manual leaves the scheme out; payers add it)', actual: `sub-field ${template.id}.25 = ${show(url.value)}`, pointer });
      }
      const location = url.value.replace(/^https?:\/\//i, '');
      if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+(?::\d+)?(?:\/\S*)?$/.test(location)) {
        v.find('emv.dynamic-url-form', { title: `${subject} payload location is not a host and path`, expected: 'sub-field 25 = host with a dot, then a path (e.g. "pix.example.com/qr/v2/…")', actual: `sub-field ${template.id}.25 = ${show(url.value)}`, pointer });
      }
    }
    const poi = reading.fields.find((f) => f.id === '01');
    if (poi?.value === '11') {
      v.find('emv.dynamic-reusable', { title: `${subject} declares a reusable code`, expected: 'field 01 = "12" (single use) or absent on a dynamic charge code', actual: 'field 01 = "11" ("may be used more than once")', pointer });
    }
  },
});
