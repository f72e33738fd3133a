/**
 * The PIX charge's QR image.
 *
 * Contract (gateway-api.md): "It creates PIX charges (dynamic QR code: an EMV copy-and-paste string
 * plus a base64 PNG image)"; "PIX charge" table: "pix.qrCode | string | PNG image, base64". The
 * image is the QR code of the same charge, so it must decode to exactly `pix.emv`.
 * (The partner API returns no image: "No image is returned; the client generates the QR image.")
 */
import { createRequire } from 'node:module';
import type jsQRModule from 'jsqr';
import type { PNG as PngImage } from 'pngjs';
import type * as Pngjs from 'pngjs';
import type { Exchange } from '../core/exchange.js';
import { show } from './judgement.js';
import { defineRule } from './rule.js';

type JsQr = typeof jsQRModule.default;

/** The PNG and QR decoders, loaded when the first image is judged (~65 ms of CPU a worker that judges none never pays). */
let decoders: { jsQR: JsQr; PNG: typeof Pngjs.PNG } | undefined;
function qrDecoders(): { jsQR: JsQr; PNG: typeof Pngjs.PNG } {
  if (decoders === undefined) {
    const require = createRequire(import.meta.url);
    const jsqr = require('jsqr') as unknown;
    const jsQR = typeof jsqr === 'function' ? (jsqr as JsQr) : (jsqr as { default: JsQr }).default;
    decoders = { jsQR, PNG: (require('pngjs') as typeof Pngjs).PNG };
  }
  return decoders;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URI_PREFIX = /^data:image\/png;base64,/i;

/** Things about the text that were tolerated on the way to the PNG bytes (each a warning at most). */
export interface QrObservations {
  /** the text started with `data:image/png;base64,`: a data URI, not the plain base64 the table names */
  dataUriPrefix: boolean;
  /** whitespace/newlines inside the base64 (MIME-style wrapping) were removed */
  whitespace: boolean;
  /** the URL-safe alphabet (`-`, `_`) was used instead of standard base64 */
  urlSafeAlphabet: boolean;
}

export type QrDecodeResult =
  | ({ ok: true; text: string; width: number; height: number } & QrObservations)
  | ({ ok: false; code: 'qr.not-string' | 'qr.base64' | 'qr.png-signature' | 'qr.png-decode' | 'qr.undecodable'; detail: string } & QrObservations);

/** Surrounds RGBA pixels with a white border (some encoders leave no quiet zone, which jsQR needs). */
function withQuietZone(data: Uint8Array, width: number, height: number, margin: number): { data: Uint8ClampedArray; width: number; height: number } {
  const w = width + 2 * margin;
  const h = height + 2 * margin;
  const out = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < height; y++) {
    out.set(data.subarray(y * width * 4, (y + 1) * width * 4), ((y + margin) * w + margin) * 4);
  }
  return { data: out, width: w, height: h };
}

/**
 * Decodes a base64 PNG holding a QR code. Tolerates (and reports in the result) an optional
 * `data:image/png;base64,` prefix, whitespace, and the URL-safe alphabet. Never throws.
 */
export function decodeQrPng(base64: unknown): QrDecodeResult {
  const obs: QrObservations = { dataUriPrefix: false, whitespace: false, urlSafeAlphabet: false };
  if (typeof base64 !== 'string') return { ok: false, code: 'qr.not-string', detail: `not a string: ${show(base64)}`, ...obs };
  let text = base64;
  if (DATA_URI_PREFIX.test(text)) {
    obs.dataUriPrefix = true;
    text = text.replace(DATA_URI_PREFIX, '');
  }
  if (/\s/.test(text)) {
    obs.whitespace = true;
    text = text.replace(/\s+/g, '');
  }
  if (/[-_]/.test(text)) obs.urlSafeAlphabet = true;
  if (text.length === 0 || !/^[A-Za-z0-9+/\-_]+={0,2}$/.test(text)) {
    return { ok: false, code: 'qr.base64', detail: `not base64: ${show(base64, 80)}`, ...obs };
  }
  const bytes = Buffer.from(text, obs.urlSafeAlphabet ? 'base64url' : 'base64');
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return { ok: false, code: 'qr.png-signature', detail: `decoded bytes do not start with the PNG signature (first bytes ${bytes.subarray(0, 8).toString('hex')})`, ...obs };
  }
  const { PNG, jsQR } = qrDecoders();
  let png: PngImage;
  try {
    png = PNG.sync.read(bytes);
  } catch (err) {
    return { ok: false, code: 'qr.png-decode', detail: `PNG does not decode: ${err instanceof Error ? err.message : String(err)}`, ...obs };
  }
  const { width, height } = png;
  const attempts = [
    { data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), width, height },
    withQuietZone(png.data, width, height, Math.max(8, Math.round(Math.min(width, height) / 10))),
  ];
  for (const a of attempts) {
    try {
      const code = jsQR(a.data, a.width, a.height, { inversionAttempts: 'attemptBoth' });
      if (code) return { ok: true, text: code.data, width, height, ...obs };
    } catch {
      // a decoder crash is the same observation as no code found
    }
  }
  return { ok: false, code: 'qr.undecodable', detail: `a valid ${width}x${height} PNG in which no QR code could be decoded`, ...obs };
}

/**
 * "It creates PIX charges (dynamic QR code: an EMV copy-and-paste string plus a base64 PNG image)",
 * "pix.qrCode | string | PNG image, base64": the image is a base64 PNG whose QR code decodes to
 * exactly `pix.emv` (an image of ANOTHER payload would make the payer pay something else):
 * - failure (GW-PIXIN-QRCODE-PNG): not a string (`qr.not-string`), not base64 (`qr.base64`), not a
 *   PNG (`qr.png-signature`), a PNG that does not decode (`qr.png-decode`), no QR code found
 *   (`qr.undecodable`);
 * - failure `qr.mismatch` (GW-PIXIN-QRCODE-MATCHES-EMV, decided once the image decodes): the
 *   decoded text differs from `pix.emv`;
 * - warning `qr.base64-variant` when everything matches but the text is a data URI
 *   (`data:image/png;base64,` prefix), wrapped with whitespace, or URL-safe base64: the table says
 *   "PNG image, base64", and whether a data URI counts as that is ambiguous.
 */
export const verifyQrImage = defineRule({
  name: 'verifyQrImage',
  requirements: ['GW-PIXIN-QRCODE-PNG', 'GW-PIXIN-QRCODE-MATCHES-EMV'],
  codes: {
    'qr.not-string': 'failure',
    'qr.base64': 'failure',
    'qr.png-signature': 'failure',
    'qr.png-decode': 'failure',
    'qr.undecodable': 'failure',
    'qr.mismatch': 'failure',
    'qr.base64-variant': 'warning',
  },
  judge(observation: { qrCode: unknown; emv: unknown; exchange?: Exchange }, v) {
    const { qrCode, emv, exchange } = observation;
    v.shows(exchange);
    const pointer = '/data/pix/qrCode';
    const result = decodeQrPng(qrCode);
    if (!result.ok) {
      v.decides('GW-PIXIN-QRCODE-PNG');
      return v.find(result.code, { title: 'data.pix.qrCode is not a base64 PNG QR code of the charge', expected: 'a base64 PNG image of a QR code whose text is exactly pix.emv', actual: result.detail, pointer });
    }
    if (result.text !== emv) {
      v.find('qr.mismatch', { title: 'data.pix.qrCode decodes to a different text than pix.emv', expected: `QR text = pix.emv = ${show(emv, 300)}`, actual: `QR text = ${show(result.text, 300)}`, pointer, requirements: ['GW-PIXIN-QRCODE-MATCHES-EMV'] });
    }
    const notes: string[] = [];
    if (result.dataUriPrefix) notes.push('a data URI ("data:image/png;base64," prefix)');
    if (result.whitespace) notes.push('base64 wrapped with whitespace');
    if (result.urlSafeAlphabet) notes.push('URL-safe base64 alphabet');
    if (notes.length === 0) return;
    v.find('qr.base64-variant', { title: 'data.pix.qrCode is not plain base64', expected: 'plain standard base64 of the PNG bytes ("PNG image, base64")', actual: `${notes.join(', ')}; the image itself decodes`, pointer, requirements: ['GW-PIXIN-QRCODE-PNG'] });
  },
});
