/**
 * The reference's own BR Code (EMV QRCPS-MPM, Banco Central do Brasil "Manual de Padrões para
 * Iniciação do Pix") builder. Dynamic BR Codes carry a payload URL (field 26.25) and point of
 * initiation "12". The suite has its own independent parser; do not share code with it.
 */

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as the BR Code's field 63 requires. */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8');
  if (length > 99) throw new Error(`reference.brcode: field ${id} longer than 99 bytes`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/** Removes accents and characters the BR Code's name/city fields do not allow, and truncates. */
function plain(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .-]/g, '')
    .trim()
    .slice(0, max) || 'NA';
}

const NO_LIMIT = 99;

export interface DynamicBrCodeInput {
  amountCents: number;
  /** payload location without scheme, e.g. `pix.example.test/qr/v2/abc` */
  location: string;
  merchantName: string;
  merchantCity: string;
  /** field 54 as written; default: the amount in reais with 2 decimals (faults write it otherwise) */
  amountText?: string;
  /** field 62.05; default `***` (a dynamic code's txid travels in the payload location) */
  txid?: string;
  /** fault switches: the name (field 59, max 25) or city (field 60, max 15) is written uncut */
  uncut?: { name?: boolean; city?: boolean };
}

/** A dynamic BR Code whose amount (field 54) is `amountCents` in reais with 2 decimals. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const merchantAccount = field('00', 'br.gov.bcb.pix') + field('25', input.location);
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', merchantAccount) +
    field('52', '0000') +
    field('53', '986') +
    field('54', input.amountText ?? (input.amountCents / 100).toFixed(2)) +
    field('58', 'BR') +
    field('59', plain(input.merchantName, input.uncut?.name ? NO_LIMIT : 25)) +
    field('60', plain(input.merchantCity, input.uncut?.city ? NO_LIMIT : 15)) +
    field('62', field('05', input.txid ?? '***')) +
    '6304';
  return body + crc16CcittFalse(body);
}
