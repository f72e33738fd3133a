/**
 * The copy-and-paste code and QR image of a PIX charge. Contract, "PIX charge": `pix.emv` is the
 * EMV payload (a dynamic BR Code for the charge's amount), `pix.qrCode` a base64 PNG image of it.
 * Four faults break the code or the image in ways a payer's bank app would notice.
 */
import QRCode from 'qrcode';
import { buildDynamicBrCode, crc16CcittFalse } from '../shared/brcode.js';

/** Where the code points and how its image is drawn: personality choices `gwEmvMerchant`, `gwQrImage`. */
export interface ChargeCodeStyle {
  merchant: { host: string; name: string; city: string };
  image: { errorCorrectionLevel: 'M' | 'H'; scale: number; margin: number };
}

const DEFAULT_CODE_STYLE: ChargeCodeStyle = {
  merchant: { host: 'pix.sandbox.paygate.example', name: 'PAYGATE SANDBOX', city: 'SAO PAULO' },
  image: { errorCorrectionLevel: 'M', scale: 4, margin: 2 },
};

export interface ChargeCode {
  emv: string;
  /** PNG, base64, no `data:` prefix */
  qrCode: string;
}

/** Re-seals a BR Code body (everything up to and including "6304") with its CRC. */
function withCrc(body: string): string {
  return body + crc16CcittFalse(body);
}

/** The ISPB the reference PSP would have in the SPI (for the fss fault). */
const REFERENCE_ISPB = '12345678';

/** The registered company behind the sandbox merchant: longer than fields 59 (25) and 60 (15) allow. */
const REGISTERED_NAME = 'PAYGATE SANDBOX INTERMEDIACAO DE PAGAMENTOS LTDA';
const REGISTERED_CITY = 'SAO JOSE DOS CAMPOS';

/**
 * The PNG rows filtered with Paeth alone: pngjs's default tries all five filters on every row to
 * pick one, and that search was most of the reference's CPU for a PIX charge (~6 ms of ~8 per
 * image; Paeth alone ~2.5 ms). The pixels are the same; the file is ~2 % larger. A fresh object per
 * image: the renderer writes the size into it.
 */
function pngRenderer(): { deflateLevel?: number; filterType: number } {
  return { filterType: 4 };
}

/**
 * Field values as four faults write them, each a slip of a real BR Code builder (the field table:
 * generators/brcode-fields.ts): the merchant's registered name (`gw-emv-merchant-name-uncut`) or
 * city (`gw-emv-merchant-city-uncut`) copied without cutting it to 25 / 15 characters; the amount
 * rendered from a NUMERIC(20,12) column's text, 12 decimals, over field 54's 13 characters
 * (`gw-emv-amount-column-scale`); the merchant-prefixed charge id as txid in 62.05, over the 25 characters the
 * table allows (`gw-emv-txid-charge-id`).
 */
function fieldSlips(chargeId: string, amountCents: number, style: ChargeCodeStyle, faults: ReadonlySet<string>): { merchantName: string; merchantCity: string; amountText?: string; txid?: string; uncut: { name: boolean; city: boolean } } {
  const uncutName = faults.has('gw-emv-merchant-name-uncut');
  const uncutCity = faults.has('gw-emv-merchant-city-uncut');
  return {
    merchantName: uncutName ? REGISTERED_NAME : style.merchant.name,
    merchantCity: uncutCity ? REGISTERED_CITY : style.merchant.city,
    uncut: { name: uncutName, city: uncutCity },
    ...(faults.has('gw-emv-amount-column-scale') && { amountText: `${Math.trunc(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}0000000000` }),
    ...(faults.has('gw-emv-txid-charge-id') && { txid: `PAYGATE-SANDBOX-CHARGE-${chargeId}`.slice(0, 60) }),
  };
}

export async function buildChargeCode(chargeId: string, amountCents: number, feesCents: number, faults: ReadonlySet<string>, style: ChargeCodeStyle = DEFAULT_CODE_STYLE): Promise<ChargeCode> {
  const location = `${style.merchant.host}/qr/v2/${chargeId.replace(/-/g, '')}`;
  // fault: the code carries the net amount (after fees) instead of the charged amount
  const codedAmount = faults.has('gw-emv-amount-mismatch') ? amountCents - feesCents : amountCents;
  let emv = buildDynamicBrCode({ amountCents: codedAmount, location, ...fieldSlips(chargeId, codedAmount, style, faults) });
  if (faults.has('gw-emv-static-brcode')) {
    // a static BR Code: the merchant's PIX key in 26.01 and point of initiation 11, no payload URL (26.25)
    emv = withCrc(
      emv
        .slice(0, -4)
        .replace(/^000201010212/, '000201010211')
        .replace(/26\d\d0014br\.gov\.bcb\.pix25\d\d[^]*?(?=52040000)/, (): string => {
          const key = '0136123e4567-e89b-12d3-a456-426614174000';
          const account = `0014br.gov.bcb.pix${key}`;
          return `26${String(account.length).padStart(2, '0')}${account}`;
        }),
    );
  }
  if (faults.has('gw-emv-fss-in-dynamic')) {
    // the PSP's ISPB written as fss (26.03, the Pix Saque field of the static template) beside the
    // payload location; the location is cut short so that template 26 still fits its 99 characters
    const shortLocation = `${style.merchant.host}/qr/v2/${chargeId.replace(/-/g, '').slice(0, 20)}`;
    const account = `0014br.gov.bcb.pix0308${REFERENCE_ISPB}25${String(shortLocation.length).padStart(2, '0')}${shortLocation}`;
    emv = withCrc(emv.slice(0, -4).replace(/26\d\d0014br\.gov\.bcb\.pix25\d\d[^]*?(?=52040000)/, () => `26${String(account.length).padStart(2, '0')}${account}`));
  }
  if (faults.has('gw-emv-wrong-crc')) {
    // CRC computed without the "6304" tag of field 63, a classic implementation slip
    const body = emv.slice(0, -4);
    const slipped = crc16CcittFalse(body.slice(0, -4));
    const correct = emv.slice(-4);
    emv = body + (slipped !== correct ? slipped : (parseInt(correct, 16) ^ 1).toString(16).toUpperCase().padStart(4, '0'));
  }
  // fault: the image encodes the payload URL rather than the copy-and-paste code
  const imageText = faults.has('gw-qr-image-different-text') ? `https://${location}` : emv;
  // fault: the QR library's SVG output (its toString default) is shipped as the image
  if (faults.has('gw-pixin-qrcode-svg')) return { emv, qrCode: Buffer.from(await QRCode.toString(imageText, { type: 'svg', ...style.image })).toString('base64') };
  const png = await QRCode.toBuffer(imageText, { type: 'png', ...style.image, rendererOpts: pngRenderer() });
  return { emv, qrCode: png.toString('base64') };
}
