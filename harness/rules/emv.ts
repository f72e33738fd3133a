/**
 * BR Code (PIX "copia e cola") checks, with the suite's own EMV parser and CRC.
 *
 * Contract:
 * - gateway-api.md, "What the service does": "It creates PIX charges (dynamic QR code: an EMV
 *   copy-and-paste string plus a base64 PNG image)"; "PIX charge" table: "pix.emv | string |
 *   copy-and-paste payload (EMV standard)".
 * - partner-cashin-api.md: "Creates dynamic PIX charges and returns the copy-and-paste code
 *   (`qr_code`, standard central-bank EMV payload)".
 *
 * "EMV standard" / "standard central-bank EMV payload" is read as the Banco Central's BR Code
 * (Manual do BR Code, built on EMV® QRCPS-MPM) with the PIX template of the Manual de Padrões para
 * Iniciação do Pix. This parser is independent of the reference's (reference/shared/); the tests
 * cross-check it with @brazilian-utils/brazilian-utils.
 */
import type { Finding, FindingCode, Judgement } from './finding.js';
import { judge, makeFinding, show, type RuleContext } from './judgement.js';
import { BR_CODE_FIELDS } from '../../generators/brcode-fields.js';

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

/** The merchant account template (26–51) whose GUI (sub-field 00) is `br.gov.bcb.pix`, case-insensitively. */
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
 * `6304` that opens field 63, as 4 uppercase hex digits. `prefix` is that text.
 */
export function computeBrCodeCrc(prefix: string): string {
  return crc16CcittFalse(prefix).toString(16).toUpperCase().padStart(4, '0');
}

export interface EmvProblem {
  severity: 'failure' | 'warning';
  message: string;
}

function emvSubject(ctx: RuleContext): string {
  return ctx.subject ?? 'the EMV payload';
}

function fold(ctx: RuleContext, code: FindingCode, title: string, expected: string, problems: EmvProblem[], emv: string): Finding | undefined {
  const failures = problems.filter((p) => p.severity === 'failure');
  const picked = failures.length > 0 ? failures : problems;
  if (picked.length === 0) return undefined;
  return makeFinding(ctx, {
    code,
    title,
    severity: failures.length > 0 ? 'failure' : 'warning',
    expected,
    actual: `${picked.map((p) => p.message).join('; ')} — in ${show(emv, 300)}`,
  });
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
 * limits, so a field over its limit is a payload that payers' apps may refuse).
 */
export function fieldLimitProblems(fields: readonly EmvField[]): string[] {
  const problems: string[] = [];
  for (const row of BR_CODE_FIELDS) {
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
 * Lists every structural problem of a BR Code (see {@link verifyEmvStructure} for the rules).
 * An empty list means the structure is sound.
 */
export function emvStructureProblems(emv: unknown): EmvProblem[] {
  if (typeof emv !== 'string') return [{ severity: 'failure', message: `not a string: ${show(emv)}` }];
  const parsed = parseBrCode(emv);
  if (!parsed.ok) return [{ severity: 'failure', message: `TLV does not parse at offset ${parsed.error.offset}: ${parsed.error.message}` }];
  const problems: EmvProblem[] = [];
  const fail = (message: string): void => void problems.push({ severity: 'failure', message });
  const warn = (message: string): void => void problems.push({ severity: 'warning', message });
  const { fields } = parsed;
  if (parsed.lengthUnit === 'utf8-bytes') warn('field lengths only add up when counted in UTF-8 bytes (payload has non-ASCII characters)');
  else if (/[^\x20-\x7e]/.test(emv)) warn('payload carries characters outside printable ASCII, the BR Code character set');

  const first = fields[0];
  if (!first || first.id !== '00' || first.value !== '01') {
    fail(`field 00 (payload format indicator) must come first with value "01"; first field is ${first ? `${first.id}=${show(first.value)}` : 'none'}`);
  }
  const last = fields[fields.length - 1];
  if (!last || last.id !== '63') fail(`field 63 (CRC) must come last; last field is ${last ? last.id : 'none'}`);
  else if (!/^[0-9A-F]{4}$/.test(last.value)) fail(`field 63 must be 4 uppercase hex digits, got ${show(last.value)}`);

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
  if (!findPixTemplate(fields)) {
    const t26 = get('26');
    fail(
      t26
        ? `template 26 does not carry the GUI "${PIX_GUI}" in sub-field 00 (got ${show(t26.children?.find((c) => c.id === '00')?.value)})`
        : `no merchant account template (26) with the GUI "${PIX_GUI}"`,
    );
  }

  const mcc = get('52');
  if (!mcc) fail('field 52 (merchant category code) is missing');
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
  const amount = get('54');
  if (amount && !/^\d+(\.\d+)?$/.test(amount.value)) fail(`field 54 (transaction amount) must be a decimal number with "." as mark, got ${show(amount.value)}`);
  const additional = get('62');
  if (!additional) warn('field 62 (additional data field template) is absent: mandatory in the BR Code table, optional in EMV QRCPS');
  else if (additional.children && !additional.children.some((c) => c.id === '05')) warn('field 62 carries no reference label (62.05): mandatory in the BR Code table');
  for (const message of fieldLimitProblems(fields)) fail(message);
  return problems;
}

/**
 * Verifies the EMV/BR Code structure of a copy-and-paste payload.
 *
 * Failures (the central-bank standard the contract names, "copy-and-paste payload (EMV standard)"):
 * TLV that does not parse (2-digit id, 2-digit length, value of exactly that length; templates 26
 * and 62 nested TLV); 00=`01` not first; 63 not last or not 4 uppercase hex digits; a duplicate
 * top-level id; 01 present with a value other than `11`/`12`; no merchant account template with the
 * GUI `br.gov.bcb.pix` (compared case-insensitively, as payers do); 52 missing or not 4 digits; 53
 * not `986`; 58 not `BR`; 59 or 60 missing/empty; 54 present but not a decimal number.
 *
 * Also a failure: any field present over its maximum length (or off its fixed length), or not
 * digits where the table says `N` (the field table in generators/brcode-fields.ts: 59 ≤ 25,
 * 60 ≤ 15, 54 ≤ 13, 26.25 ≤ 77, 62.05 ≤ 25, 52 four digits, …).
 *
 * Warnings (the manuals disagree or payloads in the wild differ, so not a deviation from the
 * contract's words): characters outside printable ASCII / lengths counted in UTF-8 bytes; 62 absent
 * or without 05 (mandatory in the BR Code table, optional in EMV).
 *
 * One finding per call: all failures listed in `actual`; warnings only when no failure was found.
 */
function verifyEmvStructureFinding(emv: unknown, ctx: RuleContext): Finding | undefined {
  return fold(
    ctx,
    'emv.structure',
    `${emvSubject(ctx)} is not a well-formed BR Code`,
    'a BR Code: EMV TLV with 00="01" first, a merchant account template carrying GUI "br.gov.bcb.pix", 52, 53="986", 58="BR", 59, 60, 62, and 63 (4 uppercase hex digits) last',
    emvStructureProblems(emv),
    typeof emv === 'string' ? emv : show(emv),
  );
}

/**
 * Verifies field 63: CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the payload up to and
 * including `6304`, as the BR Code manual prescribes. The hex digits are compared case-insensitively
 * here; their case is {@link verifyEmvStructure}'s rule. Failure when the payload does not end in
 * `6304` + 4 characters, or when the CRC differs.
 */
function verifyEmvCrcFinding(emv: unknown, ctx: RuleContext): Finding | undefined {
  const title = `${emvSubject(ctx)} has a wrong CRC (field 63)`;
  if (typeof emv !== 'string' || emv.length < 8 || emv.slice(-8, -4) !== '6304') {
    return makeFinding(ctx, {
      code: 'emv.crc',
      title,
      severity: 'failure',
      expected: 'the payload ends with "6304" followed by the 4-hex-digit CRC16/CCITT-FALSE',
      actual: `payload ends with ${show(typeof emv === 'string' ? emv.slice(-8) : emv)}`,
    });
  }
  const expectedCrc = computeBrCodeCrc(emv.slice(0, -4));
  const actualCrc = emv.slice(-4);
  if (actualCrc.toUpperCase() === expectedCrc) return undefined;
  return makeFinding(ctx, {
    code: 'emv.crc',
    title,
    severity: 'failure',
    expected: `CRC16/CCITT-FALSE over the payload up to and including "6304" = ${expectedCrc}`,
    actual: `field 63 = ${show(actualCrc)} in ${show(emv, 300)}`,
  });
}

/**
 * Verifies that the BR Code is dynamic, as both documents promise ("dynamic QR code", "Creates
 * dynamic PIX charges").
 *
 * In the central bank's terms a dynamic BR Code is one whose PIX template (26) carries the payload
 * location URL in sub-field 25 instead of a key in sub-field 01 (Manual de Padrões para Iniciação do
 * Pix, §2.7: the dynamic template holds 00 GUI and 25 URL). So:
 * - failure `emv.not-dynamic`: no 26.25 (e.g. a static code with the key in 26.01 — payable any
 *   number of times, which a charge-bound dynamic code is not), or an empty 26.25;
 * - warning `emv.dynamic-url-scheme`: 26.25 starts with `http://`/`https://` (the manual writes the
 *   location without the scheme; payers add `https://`);
 * - warning `emv.dynamic-with-key`: both 26.01 and 26.25 (the manual maps dynamic codes to 00+25);
 * - warning `emv.dynamic-reusable`: 01 = `11` ("may be used more than once") on a code the contract
 *   calls dynamic. Field 01 is optional (`Uso: O`) and only `12` ("só pode ser utilizado uma vez")
 *   has a stated meaning, so an ABSENT 01 is no finding at all: the contract never says single-use.
 * Returns undefined when the payload does not parse or has no PIX template: that is
 * {@link verifyEmvStructure}'s finding, not this one's.
 */
function verifyEmvDynamicFinding(emv: unknown, ctx: RuleContext): Finding | undefined {
  if (typeof emv !== 'string') return undefined;
  const parsed = parseBrCode(emv);
  if (!parsed.ok) return undefined;
  const template = findPixTemplate(parsed.fields);
  if (!template?.children) return undefined;
  const problems: EmvProblem[] = [];
  const url = template.children.find((c) => c.id === '25');
  const key = template.children.find((c) => c.id === '01');
  if (!url) {
    problems.push({
      severity: 'failure',
      message: key
        ? `template ${template.id} carries a Pix key in sub-field 01 (${show(key.value)}) and no payload URL in sub-field 25: a static BR Code`
        : `template ${template.id} carries no payload URL in sub-field 25`,
    });
  } else {
    if (url.value.trim() === '') problems.push({ severity: 'failure', message: `sub-field ${template.id}.25 (payload URL) is empty` });
    if (/^https?:\/\//i.test(url.value)) {
      problems.push({ severity: 'warning', message: `sub-field ${template.id}.25 ${show(url.value)} includes the URL scheme, which the PIX manual leaves out` });
    }
    if (key) problems.push({ severity: 'warning', message: `template ${template.id} carries both a key (01) and a payload URL (25)` });
  }
  const poi = parsed.fields.find((f) => f.id === '01');
  if (poi?.value === '11') problems.push({ severity: 'warning', message: 'field 01 = "11" declares a reusable code; a dynamic charge code is normally "12" (single use)' });
  return fold(
    ctx,
    'emv.not-dynamic',
    `${emvSubject(ctx)} is not a dynamic BR Code`,
    `a dynamic BR Code: the PIX template carries the payload location URL (without scheme) in sub-field 25 and no key in 01; field 01, if present, is "12"`,
    problems,
    emv,
  );
}

/** `1050` → `"10.50"`, with integer arithmetic. */
export function centsToDecimal(amountCents: number): string {
  const sign = amountCents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amountCents));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `"10.5"` → 1050, `"10"` → 1000; undefined when not a plain decimal with at most 2 places. */
function decimalToCents(text: string): number | undefined {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * Verifies field 54 (transaction amount) against the charge amount in cents (the contract: "Money
 * values are integers in cents (1050 means 10.50)"; the BR Code writes reais with "." as mark).
 * - failure `emv.amount-mismatch`: 54 present with a different value (or not a decimal number);
 * - warning `emv.amount-format`: same value written otherwise than with 2 decimals (`"10.5"`,
 *   `"10"`): EMV allows it, the manual's examples use 2 decimals;
 * - warning `emv.amount-absent`: 54 absent. For a dynamic code the payer's PSP reads the amount
 *   from the payload URL (26.25), which the manual makes the source of truth, so an absent 54 is
 *   legitimate there; it only means the suite cannot see the amount in the payload.
 * Returns undefined when the payload does not parse (see {@link verifyEmvStructure}).
 */
function verifyEmvAmountFinding(emv: unknown, amountCents: number, ctx: RuleContext): Finding | undefined {
  if (typeof emv !== 'string') return undefined;
  const parsed = parseBrCode(emv);
  if (!parsed.ok) return undefined;
  const expectedText = centsToDecimal(amountCents);
  const field = parsed.fields.find((f) => f.id === '54');
  const subject = emvSubject(ctx);
  if (!field) {
    return makeFinding(ctx, {
      code: 'emv.amount-absent',
      title: `${subject} carries no transaction amount (field 54)`,
      severity: 'warning',
      expected: `field 54 = "${expectedText}" (or the amount only behind the dynamic payload URL)`,
      actual: `no field 54 in ${show(emv, 300)}`,
    });
  }
  const cents = decimalToCents(field.value);
  if (cents !== amountCents) {
    return makeFinding(ctx, {
      code: 'emv.amount-mismatch',
      title: `${subject} field 54 does not match the charge amount`,
      severity: 'failure',
      expected: `field 54 = "${expectedText}" (${amountCents} cents)`,
      actual: `field 54 = ${show(field.value)}`,
    });
  }
  if (field.value !== expectedText) {
    return makeFinding(ctx, {
      code: 'emv.amount-format',
      title: `${subject} field 54 is not written with 2 decimals`,
      severity: 'warning',
      expected: `field 54 = "${expectedText}"`,
      actual: `field 54 = ${show(field.value)} (same value, other format)`,
    });
  }
  return undefined;
}

/**
 * Runs every BR Code check (structure, CRC, dynamic, and amount when `amountCents` is given) and
 * returns all findings. Suites normally call this.
 */
function verifyEmvFinding(emv: unknown, ctx: RuleContext, options: { amountCents?: number } = {}): Finding[] {
  const findings = [verifyEmvStructureFinding(emv, ctx), verifyEmvCrcFinding(emv, ctx), verifyEmvDynamicFinding(emv, ctx)];
  if (options.amountCents !== undefined) findings.push(verifyEmvAmountFinding(emv, options.amountCents, ctx));
  return findings.filter((f): f is Finding => f !== undefined);
}

export function verifyEmvStructure(emv: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyEmvStructureFinding(emv, ctx));
}

export function verifyEmvCrc(emv: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyEmvCrcFinding(emv, ctx));
}

export function verifyEmvDynamic(emv: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyEmvDynamicFinding(emv, ctx));
}

export function verifyEmvAmount(emv: unknown, amountCents: number, ctx: RuleContext): Judgement {
  return judge(ctx, verifyEmvAmountFinding(emv, amountCents, ctx));
}

export function verifyEmv(emv: unknown, ctx: RuleContext, options: { amountCents?: number } = {}): Judgement {
  return judge(ctx, verifyEmvFinding(emv, ctx, options));
}
