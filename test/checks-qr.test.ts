import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeQrPng, verifyQrImage } from '../harness/rules/qr.js';

const EMV = '00020101021226480014br.gov.bcb.pix2526pix.example.com/qr/v2/12345204000053039865802BR5913Fulano de Tal6008Brasilia62070503***6304FC66';

async function qrBase64(text: string, margin = 4): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin, scale: 4 });
  return png.toString('base64');
}

function blankPngBase64(): string {
  const png = new PNG({ width: 40, height: 40 });
  png.data.fill(255);
  return PNG.sync.write(png).toString('base64');
}

describe('decodeQrPng', () => {
  it('round-trips a QR encoded with qrcode', async () => {
    const r = decodeQrPng(await qrBase64(EMV));
    expect(r).toMatchObject({ ok: true, text: EMV, dataUriPrefix: false });
  });

  it('decodes a QR without quiet zone', async () => {
    expect(decodeQrPng(await qrBase64(EMV, 0))).toMatchObject({ ok: true, text: EMV });
  });

  it('tolerates a data URI prefix and notes it', async () => {
    expect(decodeQrPng(`data:image/png;base64,${await qrBase64(EMV)}`)).toMatchObject({ ok: true, text: EMV, dataUriPrefix: true });
  });

  it('fails cleanly on bad input', () => {
    expect(decodeQrPng(42)).toMatchObject({ ok: false, code: 'qr.not-string' });
    expect(decodeQrPng('***')).toMatchObject({ ok: false, code: 'qr.base64' });
    expect(decodeQrPng(Buffer.from('GIF89a not a png').toString('base64'))).toMatchObject({ ok: false, code: 'qr.png-signature' });
    const truncated = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('junk')]);
    expect(decodeQrPng(truncated.toString('base64'))).toMatchObject({ ok: false, code: 'qr.png-decode' });
    expect(decodeQrPng(blankPngBase64())).toMatchObject({ ok: false, code: 'qr.undecodable' });
  });
});

describe('verifyQrImage', () => {
  const codes = (qrCode: unknown, emv: unknown = EMV) => verifyQrImage.judge({ qrCode, emv }).findings.map((f) => `${f.severity}:${f.code}:${f.requirements.join(',')}`);

  it('passes when the QR text is exactly pix.emv, deciding both rows', async () => {
    const j = verifyQrImage.judge({ qrCode: await qrBase64(EMV), emv: EMV });
    expect(j.findings).toEqual([]);
    expect(j.requirements).toEqual(['GW-PIXIN-QRCODE-PNG', 'GW-PIXIN-QRCODE-MATCHES-EMV']);
  });

  it('fails when the QR encodes something else (the payer would pay something else)', async () => {
    expect(codes(await qrBase64(`${EMV} `))).toEqual(['failure:qr.mismatch:GW-PIXIN-QRCODE-MATCHES-EMV']);
  });

  it('fails when there is no QR in the image, or no PNG at all, deciding only the image row', () => {
    expect(codes(blankPngBase64())).toEqual(['failure:qr.undecodable:GW-PIXIN-QRCODE-PNG']);
    expect(codes('aGVsbG8=')).toEqual(['failure:qr.png-signature:GW-PIXIN-QRCODE-PNG']);
    expect(codes(undefined)).toEqual(['failure:qr.not-string:GW-PIXIN-QRCODE-PNG']);
    expect(verifyQrImage.judge({ qrCode: blankPngBase64(), emv: EMV }).requirements).toEqual(['GW-PIXIN-QRCODE-PNG']);
  });

  it('warns (only) on a data URI', async () => {
    const f = verifyQrImage.judge({ qrCode: `data:image/png;base64,${await qrBase64(EMV)}`, emv: EMV }).findings;
    expect(f).toMatchObject([{ code: 'qr.base64-variant', severity: 'warning' }]);
    expect(f[0]?.actual).toMatch(/data URI/);
  });

});
