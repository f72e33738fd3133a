/**
 * The BR Code field table: every field a PIX BR Code may carry, with its format, maximum length and
 * presence, as the central bank's manuals write them down.
 *
 * Sources (public, Banco Central do Brasil):
 * - Manual do BR Code, "Tabela 1 – Campos do BR Code" (built on EMV® QR Code Specification for
 *   Payment Systems – Merchant-Presented Mode, QRCPS-MPM v1.0/1.1, whose data-object table gives
 *   the same formats and lengths for 00, 01, 52–63);
 * - Manual de Padrões para Iniciação do Pix, "Anexo I – Padrões para Iniciação do Pix": the PIX
 *   merchant account template (GUI br.gov.bcb.pix; 01 key; 02 additional information; 03 fss, the
 *   8-digit ISPB of a Pix Saque facilitator, §2.6; 25 payload location URL of a dynamic code, §2.7)
 *   and the additional data template's 05 (reference label / txid: 25 letters and digits in a
 *   static code, §2.6.2; unfilled, "***", in a dynamic one, §2.7).
 *
 * Format letters follow EMV: `N` digits only, `ans` alphanumeric special (printable ASCII).
 * Presence: `M` mandatory, `O` optional, `C` conditional. Both APIs promise this standard: gateway
 * "copy-and-paste payload (EMV standard)", partner "standard central-bank EMV payload".
 *
 * The suite's BR Code rule (harness/rules/emv.ts) judges against this table, and
 * {@link brCodeFieldViolation} produces the invalid side of each row for the rule's own tests.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type BrCodeFormat = 'N' | 'ans';
export type BrCodePresence = 'M' | 'O' | 'C';

export interface BrCodeField {
  /** dotted path: `"59"`, `"26.25"`, `"62.05"` (26 stands for the PIX template, wherever it sits in 26–51) */
  readonly path: string;
  readonly name: string;
  readonly format: BrCodeFormat;
  /** exact length when `fixed`, else the maximum */
  readonly length: number;
  readonly fixed: boolean;
  readonly presence: BrCodePresence;
  /** the only values allowed, when the table pins them */
  readonly values?: readonly string[];
}

export const BR_CODE_FIELDS: readonly BrCodeField[] = [
  { path: '00', name: 'Payload Format Indicator', format: 'N', length: 2, fixed: true, presence: 'M', values: ['01'] },
  { path: '01', name: 'Point of Initiation Method', format: 'N', length: 2, fixed: true, presence: 'O', values: ['11', '12'] },
  { path: '26', name: 'Merchant Account Information (PIX)', format: 'ans', length: 99, fixed: false, presence: 'M' },
  { path: '26.00', name: 'GUI', format: 'ans', length: 32, fixed: false, presence: 'M' },
  { path: '26.01', name: 'Pix key (static code)', format: 'ans', length: 77, fixed: false, presence: 'C' },
  { path: '26.02', name: 'additional information (static code)', format: 'ans', length: 72, fixed: false, presence: 'O' },
  // §2.6 (Pix Saque/Troco): "fss", the ISPB of the withdrawal service facilitator, 8 digits, static template only
  { path: '26.03', name: 'fss (ISPB of the withdrawal facilitator, static code)', format: 'N', length: 8, fixed: true, presence: 'O' },
  { path: '26.25', name: 'payload location URL (dynamic code)', format: 'ans', length: 77, fixed: false, presence: 'C' },
  { path: '52', name: 'Merchant Category Code', format: 'N', length: 4, fixed: true, presence: 'M' },
  { path: '53', name: 'Transaction Currency', format: 'N', length: 3, fixed: true, presence: 'M', values: ['986'] },
  { path: '54', name: 'Transaction Amount', format: 'ans', length: 13, fixed: false, presence: 'C' },
  { path: '58', name: 'Country Code', format: 'ans', length: 2, fixed: true, presence: 'M', values: ['BR'] },
  { path: '59', name: 'Merchant Name', format: 'ans', length: 25, fixed: false, presence: 'M' },
  { path: '60', name: 'Merchant City', format: 'ans', length: 15, fixed: false, presence: 'M' },
  { path: '61', name: 'Postal Code', format: 'ans', length: 99, fixed: false, presence: 'O' },
  { path: '62', name: 'Additional Data Field Template', format: 'ans', length: 99, fixed: false, presence: 'M' },
  { path: '62.05', name: 'Reference Label (txid)', format: 'ans', length: 25, fixed: false, presence: 'M' },
  { path: '63', name: 'CRC', format: 'ans', length: 4, fixed: true, presence: 'M' },
];

/** The table row of a field path (`26` for any PIX template id in 26–51). */
export function brCodeField(path: string): BrCodeField | undefined {
  return BR_CODE_FIELDS.find((f) => f.path === path);
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`generators.brCode: field ${id} value of ${value.length} characters does not fit a 2-digit length`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC16/CCITT-FALSE (the BR Code manual's CRC), as 4 uppercase hex digits. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface BrCodeParts {
  url: string;
  amount?: string;
  name: string;
  city: string;
  txid: string;
  mcc: string;
}

/** Assembles a dynamic PIX BR Code from its parts, with a correct CRC (lengths are not checked here). */
export function buildDynamicBrCode(parts: BrCodeParts): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', parts.url)) +
    tlv('52', parts.mcc) +
    tlv('53', '986') +
    (parts.amount !== undefined ? tlv('54', parts.amount) : '') +
    tlv('58', 'BR') +
    tlv('59', parts.name) +
    tlv('60', parts.city) +
    tlv('62', tlv('05', parts.txid)) +
    '6304';
  return body + crc16(body);
}

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function asciiOf(min: number, max: number): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...`${upper}abcdefghijklmnopqrstuvwxyz0123456789 `), minLength: min, maxLength: max }).filter((s) => s.trim() !== '');
}

/** A valid dynamic BR Code, every field within the table's limits. */
export function validDynamicBrCode(): Arbitrary<{ emv: string; parts: BrCodeParts }> {
  return fc
    .record({
      url: fc.stringMatching(/^[a-z]{3,20}\.example\.com\/qr\/v2\/[a-z0-9]{10,40}$/),
      amount: fc.option(fc.integer({ min: 1, max: 99_999_999_99 }).map((c) => `${Math.trunc(c / 100)}.${String(c % 100).padStart(2, '0')}`), { nil: undefined }),
      name: asciiOf(1, 25),
      city: asciiOf(1, 15),
      txid: fc.constant('***'),
      mcc: fc.constantFrom('0000', '5999', '8299'),
    })
    .map((parts) => ({ emv: buildDynamicBrCode(parts as BrCodeParts), parts: parts as BrCodeParts }));
}

/** One violation of one row of the table, for the rule's tests. */
export interface BrCodeFieldViolation {
  /** the table path violated */
  path: string;
  /** what is wrong, e.g. `59 over 25 characters` */
  rule: string;
  emv: string;
}

/**
 * Every length/format row of the table broken by one field of an otherwise valid dynamic code.
 * (26.25 over 77 cannot be written: the GUI and the URL's own header leave 77 of template 26's 99.)
 */
export function brCodeFieldViolation(): Arbitrary<BrCodeFieldViolation> {
  const base: BrCodeParts = { url: 'pix.example.com/qr/v2/cobv9a1b2c3', amount: '10.50', name: 'Loja Exemplo', city: 'Sao Paulo', txid: '***', mcc: '0000' };
  const cases: Arbitrary<BrCodeFieldViolation>[] = [
    asciiOf(26, 40).map((name) => ({ path: '59', rule: `59 (merchant name) of ${name.length} characters, over 25`, emv: buildDynamicBrCode({ ...base, name }) })),
    asciiOf(16, 30).map((city) => ({ path: '60', rule: `60 (merchant city) of ${city.length} characters, over 15`, emv: buildDynamicBrCode({ ...base, city }) })),
    fc.integer({ min: 14, max: 20 }).map((n) => {
      const amount = `${'9'.repeat(n - 3)}.00`;
      return { path: '54', rule: `54 (amount) of ${amount.length} characters, over 13`, emv: buildDynamicBrCode({ ...base, amount }) };
    }),
    fc.constantFrom('10,50', '1.050,00', 'R$10.50', '-10.50', '10.5.0').map((amount) => ({ path: '54', rule: `54 (amount) ${amount} is not a decimal number with "." as mark`, emv: buildDynamicBrCode({ ...base, amount }) })),
    // a dynamic code's 62.05 of 26–35 letters and digits is a dynamic charge's own txid (a warning): beyond 35 it is no txid at all
    asciiOf(36, 45).map((txid) => ({ path: '62.05', rule: `62.05 (txid) of ${txid.length} characters, over 25 and over any txid's 35`, emv: buildDynamicBrCode({ ...base, txid: txid.replace(/ /g, 'x') }) })),
    fc.constantFrom('123', '12345', '12A4').map((mcc) => ({ path: '52', rule: `52 (MCC) ${mcc} is not 4 digits`, emv: buildDynamicBrCode({ ...base, mcc }) })),
  ];
  return fc.oneof(...cases);
}
