// The BR Code rules (harness/rules/emv.ts): the parser and CRC judged by an independent oracle
// (@brazilian-utils/brazilian-utils), each rule at its valid and invalid edges, the cases public
// sources leave open as warnings, the key-versus-location and txid rules of the Manual de Padrões.
import { generatePixPayload, getPixPayloadInfo, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimal, computeBrCodeCrc, crc16CcittFalse, findEmvField, parseBrCode, readAmount, readBrCode, verifyBrCode, verifyDynamicBrCode, type BrCodeApi } from '../harness/rules/emv.js';
import type { Judgement } from '../harness/rules/finding.js';
import { BR_CODE_FIELDS, brCodeFieldViolation, buildDynamicBrCode, validDynamicBrCode } from '../generators/brcode-fields.js';

/** Manual BR Code test builder: TLV + CRC (the CRC itself is cross-checked against the oracle below). */
function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}
function brCode(fields: string[]): string {
  const body = `${fields.join('')}6304`;
  return body + computeBrCodeCrc(body);
}
interface CodeParts {
  url?: string;
  key?: string;
  fss?: string;
  amount?: string;
  poi?: string | null;
  gui?: string;
  txid?: string | null;
}
function code(opts: CodeParts = {}): string {
  const t26 = [tlv('00', opts.gui ?? 'br.gov.bcb.pix')];
  if (opts.key !== undefined) t26.push(tlv('01', opts.key));
  if (opts.fss !== undefined) t26.push(tlv('03', opts.fss));
  if (opts.url !== undefined) t26.push(tlv('25', opts.url));
  const fields = [tlv('00', '01')];
  if (opts.poi !== null) fields.push(tlv('01', opts.poi ?? '12'));
  fields.push(tlv('26', t26.join('')), tlv('52', '0000'), tlv('53', '986'));
  if (opts.amount !== undefined) fields.push(tlv('54', opts.amount));
  fields.push(tlv('58', 'BR'), tlv('59', 'LOJA TESTE'), tlv('60', 'SAO PAULO'));
  if (opts.txid !== null) fields.push(tlv('62', tlv('05', opts.txid ?? '***')));
  return brCode(fields);
}
const dynamic = (opts: CodeParts = {}): string => code({ url: 'pix.example.com/qr/v2/cobv9d36b84f', ...opts });
const staticCode = (opts: CodeParts = {}): string => code({ key: '123e4567-e12b-12d1-a456-426655440000', poi: '11', ...opts });

const ORACLE_DYNAMIC = '00020101021226480014br.gov.bcb.pix2526pix.example.com/qr/v2/12345204000053039865802BR5913Fulano de Tal6008Brasilia62070503***6304FC66';
const ORACLE_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.505802BR5913Fulano de Tal6008Brasilia62100506ABC1236304CF44';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const brCodeOf = (emv: unknown, amountCents?: number, api: BrCodeApi = 'gateway'): Judgement => verifyBrCode.judge({ api, emv, ...(amountCents !== undefined && { amountCents }) });
const dynamicOf = (emv: unknown, api: BrCodeApi = 'gateway'): Judgement => verifyDynamicBrCode.judge({ api, emv });
const structureOf = (emv: unknown): string => brCodeOf(emv).findings.find((f) => f.code === 'emv.structure')?.actual ?? '';

describe('CRC16/CCITT-FALSE', () => {
  it('matches the catalogue check value and the oracle-generated payloads', () => {
    expect(crc16CcittFalse('123456789')).toBe(0x29b1); // CRC-16/CCITT-FALSE check value
    expect(computeBrCodeCrc(ORACLE_DYNAMIC.slice(0, -4))).toBe('FC66');
    expect(computeBrCodeCrc(ORACLE_STATIC.slice(0, -4))).toBe('CF44');
  });
});

describe('parseBrCode', () => {
  it('parses top-level TLV and templates 26 and 62', () => {
    const r = parseBrCode(ORACLE_STATIC);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.fields.map((f) => f.id)).toEqual(['00', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(findEmvField(r.fields, '26.00')?.value).toBe('br.gov.bcb.pix');
    expect(findEmvField(r.fields, '26.01')?.value).toBe('123e4567-e12b-12d1-a456-426655440000');
    expect(findEmvField(r.fields, '62.05')?.value).toBe('ABC123');
    expect(findEmvField(r.fields, '54')?.value).toBe('10.50');
  });

  it('reports where a malformed payload stops', () => {
    expect(parseBrCode('')).toMatchObject({ ok: false });
    expect(parseBrCode('000201260')).toMatchObject({ ok: false, error: { offset: 6 } });
    expect(parseBrCode('0002019912abc')).toMatchObject({ ok: false, error: { offset: 6, message: expect.stringMatching(/declares length 12/) } });
    expect(parseBrCode('AB0201')).toMatchObject({ ok: false, error: { offset: 0 } });
  });

  it('falls back to UTF-8 byte lengths for non-ASCII payloads', () => {
    const withBytes = `${'0002015906'}São P${'6002SP'}`; // "São P" is 5 code points, 6 UTF-8 bytes
    expect(parseBrCode(withBytes)).toMatchObject({ ok: true, lengthUnit: 'utf8-bytes' });
  });

  it('agrees with the oracle on generated payloads (property)', () => {
    const ascii = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}$/);
    fc.assert(
      fc.property(
        ascii,
        ascii,
        fc.option(fc.integer({ min: 1, max: 99_999_999 }), { nil: undefined }),
        fc.boolean(),
        fc.stringMatching(/^[a-z0-9]{1,20}$/),
        (name, city, cents, isDynamic, suffix) => {
          const params = isDynamic
            ? { url: `pix.example.com/qr/v2/${suffix}`, merchantName: name, merchantCity: city }
            : { key: 'fulano@example.com', merchantName: name, merchantCity: city, ...(cents === undefined ? {} : { amount: cents / 100 }) };
          const payload = generatePixPayload(params);
          if (payload === null) return;
          const info = getPixPayloadInfo(payload);
          const parsed = parseBrCode(payload);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok || !info) return;
          expect(findEmvField(parsed.fields, '59')?.value).toBe(info.merchantName);
          expect(findEmvField(parsed.fields, '60')?.value).toBe(info.merchantCity);
          expect(findEmvField(parsed.fields, '26.25')?.value).toBe(info.url);
          expect(findEmvField(parsed.fields, '26.01')?.value).toBe(info.key);
          // every payload the oracle builds is a BR Code for the rule; only a static one is not dynamic
          const amountCents = !isDynamic && cents !== undefined ? cents : undefined;
          if (amountCents !== undefined) expect(findEmvField(parsed.fields, '54')?.value).toBe(centsToDecimal(amountCents));
          expect(codes(brCodeOf(payload, amountCents))).toEqual([]);
          expect(codes(dynamicOf(payload))).toEqual(isDynamic ? [] : ['failure:emv.not-dynamic']);
        },
      ),
      { seed: 20261122, numRuns: 200 },
    );
  });

  it('fails every single-character corruption the oracle rejects (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ORACLE_DYNAMIC.length - 9 }), fc.constantFrom(...'0123456789ABCXYZabcxyz./*'), (at, ch) => {
        if (ORACLE_DYNAMIC[at] === ch) return;
        const corrupted = ORACLE_DYNAMIC.slice(0, at) + ch + ORACLE_DYNAMIC.slice(at + 1);
        expect(isValidPixPayload(corrupted)).toBe(false);
        expect(codes(brCodeOf(corrupted)).filter((c) => c.startsWith('failure:')).length).toBeGreaterThan(0);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('builds payloads the oracle accepts (the test builder is sound)', () => {
    expect(isValidPixPayload(dynamic())).toBe(true);
    expect(isValidPixPayload(staticCode({ amount: '10.50' }))).toBe(true);
    expect(isValidPixPayload(code({ key: 'fulano@example.com', amount: '10.50', poi: null }))).toBe(true);
  });
});

describe('verifyBrCode: a BR Code, for both APIs', () => {
  it('passes the oracle payloads and a GUI in upper case (§2.5: case insensitive)', () => {
    expect(codes(brCodeOf(ORACLE_DYNAMIC))).toEqual([]);
    expect(codes(brCodeOf(ORACLE_STATIC, 1050))).toEqual([]);
    expect(codes(brCodeOf(dynamic({ gui: 'BR.GOV.BCB.PIX' })))).toEqual([]);
  });

  it("decides the row of the observation's API", () => {
    expect(brCodeOf(ORACLE_DYNAMIC, undefined, 'gateway').requirements).toEqual(['GW-PIXIN-EMV']);
    expect(brCodeOf(ORACLE_DYNAMIC, undefined, 'partner').requirements).toEqual(['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR']);
    const broken = brCodeOf('not an emv', undefined, 'partner');
    expect(broken.findings.map((f) => [f.code, f.requirements])).toEqual([['emv.structure', ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR']], ['emv.crc', ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR']]]);
  });

  it('fails each broken structural rule in one emv.structure finding', () => {
    const rest = [tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y'), tlv('62', tlv('05', '***'))];
    const t26 = tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/x'));
    const cases: Array<[string, RegExp]> = [
      [brCode([tlv('01', '12'), tlv('00', '01'), t26, ...rest]), /field 00/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'com.example') + tlv('25', 'x.example.com/1')), ...rest]), /GUI/],
      [brCode([tlv('00', '01'), t26, tlv('52', '0000'), tlv('53', '840'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /53 must be "986"/],
      [brCode([tlv('00', '01'), t26, tlv('52', '0000'), tlv('53', '986'), tlv('58', 'US'), tlv('59', 'X'), tlv('60', 'Y')]), /58 must be "BR"/],
      [brCode([tlv('00', '01'), t26, tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /52/],
      [brCode([tlv('00', '01'), t26, tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('60', 'Y')]), /59/],
      [brCode([tlv('00', '01'), t26, tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X')]), /60/],
      [brCode([tlv('00', '01'), tlv('01', '13'), t26, ...rest]), /field 01/],
      [`${ORACLE_DYNAMIC}6401X`, /63 \(CRC\) must come last/],
      [ORACLE_DYNAMIC.replace('2526pix', '2599pix'), /does not parse|TLV/],
      ['not an emv', /TLV/],
      [dynamic({ amount: '10,50' }), /54 .* digits/],
      [dynamic({ amount: '.50' }), /54 .* digits/],
    ];
    for (const [emv, why] of cases) {
      const f = brCodeOf(emv).findings.find((x) => x.code === 'emv.structure');
      expect(f, emv).toMatchObject({ severity: 'failure', requirements: ['GW-PIXIN-EMV'] });
      expect(f?.actual).toMatch(why);
    }
    expect(structureOf(42)).toMatch(/not a string/);
    expect(structureOf('')).toMatch(/empty/);
  });

  it('only warns when 62 is absent; a merchant name over the 25 of the field table fails', () => {
    expect(codes(brCodeOf(dynamic({ txid: null })))).toEqual(['warning:emv.additional-data']);
    const longName = brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/x')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'A VERY LONG MERCHANT NAME THAT GOES ON'), tlv('60', 'SP'), tlv('62', tlv('05', '***'))]);
    expect(codes(brCodeOf(longName))).toEqual(['failure:emv.structure']);
    expect(structureOf(longName)).toMatch(/field 59 .* 25/);
  });

  it('fails a wrong CRC with both values, and a payload without 6304', () => {
    const f = brCodeOf(ORACLE_DYNAMIC.slice(0, -4) + 'FC67').findings;
    expect(f.map((x) => `${x.severity}:${x.code}`)).toEqual(['failure:emv.crc']);
    expect(f[0]?.actual).toMatch(/FC67.*FC66/);
    expect(codes(brCodeOf('000201'))).toContain('failure:emv.crc');
  });
});

describe('verifyBrCode: what public sources leave open only warns', () => {
  it('the right CRC in lower-case hex ("no official source states the case")', () => {
    const lower = ORACLE_DYNAMIC.slice(0, -4) + 'fc66';
    expect(isValidPixPayload(lower)).toBe(true);
    expect(codes(brCodeOf(lower))).toEqual(['warning:emv.crc-case']);
    // a wrong CRC in lower case is still wrong
    expect(codes(brCodeOf(ORACLE_DYNAMIC.slice(0, -4) + 'fc67'))).toEqual(['failure:emv.crc']);
  });

  it('a payload that ends in a newline (or carries other surrounding whitespace): the code inside is judged', () => {
    for (const around of [`${ORACLE_DYNAMIC}\n`, `${ORACLE_DYNAMIC}\r\n`, ` ${ORACLE_DYNAMIC}`]) {
      expect(codes(brCodeOf(around)), JSON.stringify(around)).toEqual(['warning:emv.whitespace']);
      expect(codes(dynamicOf(around))).toEqual([]);
    }
    expect(brCodeOf(`${ORACLE_DYNAMIC}\n`).findings[0]?.actual).toMatch(/ends with "\\n"/);
    // the code inside is judged: a newline does not hide a wrong CRC
    expect(codes(brCodeOf(`${ORACLE_DYNAMIC.slice(0, -1)}7\n`))).toEqual(['warning:emv.whitespace', 'failure:emv.crc']);
  });

  it('an amount written "98." or "98", with one or three decimals, of the same value', () => {
    for (const amount of ['98.', '98', '98.0', '98.000']) {
      expect(codes(brCodeOf(dynamic({ amount }), 9800)), amount).toEqual(['warning:emv.amount-format']);
    }
    expect(codes(brCodeOf(dynamic({ amount: '98.00' }), 9800))).toEqual([]);
    // a third decimal that is not 0 is another amount: no charge in cents has it
    expect(codes(brCodeOf(dynamic({ amount: '98.005' }), 9800))).toEqual(['failure:emv.amount-mismatch']);
    expect(codes(brCodeOf(dynamic({ amount: '98.5' }), 9800))).toEqual(['failure:emv.amount-mismatch']);
  });

  it('a dynamic code that carries a txid in 62.05, of up to 25 characters or a charge txid of 26–35', () => {
    for (const txid of ['ABC123', 'a'.repeat(25), 'RP12345678-2019', 'Z'.repeat(26), 'cobv9d36b84fcobv9d36b84fcobv9d36b8']) {
      expect(codes(brCodeOf(dynamic({ txid }))), txid).toEqual(['warning:emv.txid-in-dynamic']);
    }
  });
});

describe('verifyBrCode: the txid of 62.05 (Manual de Padrões §2.6.2, §2.7)', () => {
  it('static: "***" or 1–25 letters and digits; anything else fails', () => {
    for (const txid of ['***', 'A', 'abc123XYZ', 'a'.repeat(25)]) expect(codes(brCodeOf(staticCode({ txid }))), txid).toEqual([]);
    for (const txid of ['a'.repeat(26), 'RP12345678-2019', 'ab c', 'pedido_1', '**']) {
      expect(codes(brCodeOf(staticCode({ txid }))), txid).toEqual(['failure:emv.structure']);
      expect(structureOf(staticCode({ txid }))).toMatch(/62\.05/);
    }
  });
  it('dynamic: more than 25 characters that are no charge txid (26–35 letters and digits) fail', () => {
    for (const txid of ['a'.repeat(36), `cob-${'a'.repeat(26)}`, `PAYGATE-SANDBOX-CHARGE-${'0'.repeat(36)}`]) {
      expect(codes(brCodeOf(dynamic({ txid }))), txid).toEqual(['failure:emv.structure']);
      expect(structureOf(dynamic({ txid }))).toMatch(/field 62\.05/);
    }
  });
});

describe('verifyBrCode: field 54 against the charge', () => {
  it('passes the charge amount in 2 decimals; fails another amount', () => {
    expect(codes(brCodeOf(ORACLE_STATIC, 1050))).toEqual([]);
    expect(codes(brCodeOf(dynamic({ amount: '1234567.89' }), 123456789))).toEqual([]);
    const f = brCodeOf(ORACLE_STATIC, 1051).findings;
    expect(f).toMatchObject([{ code: 'emv.amount-mismatch', severity: 'failure', expected: 'field 54 = "10.51" (1051 cents)' }]);
  });
  it('54 absent is no finding: a dynamic code leaves the amount to its payload location (§2.7)', () => {
    expect(codes(brCodeOf(ORACLE_DYNAMIC, 1050))).toEqual([]);
  });
  it('an amount 54 cannot hold (over 13 characters) is not compared; writing it whole breaks the field table', () => {
    expect(codes(brCodeOf(dynamic(), 1_000_000_000_000))).toEqual([]);
    expect(codes(brCodeOf(dynamic({ amount: centsToDecimal(1_000_000_000_000) }), 1_000_000_000_000))).toEqual(['failure:emv.structure']);
  });
  it('a zero amount: fails in a static code without fss (EMV: "shall be different from zero"), warns where the BCB gives zero a meaning', () => {
    for (const amount of ['0', '0.00', '0.']) {
      expect(codes(brCodeOf(staticCode({ amount }))), amount).toEqual(['failure:emv.structure']);
      expect(codes(brCodeOf(dynamic({ amount }))), amount).toEqual(['warning:emv.amount-zero']);
      expect(codes(brCodeOf(staticCode({ amount, fss: '12345678' }))), amount).toEqual(['warning:emv.amount-zero']);
    }
    expect(structureOf(staticCode({ amount: '0.00' }))).toMatch(/different from zero/);
    // against a charge amount, a zero is another amount
    expect(codes(brCodeOf(dynamic({ amount: '0.00' }), 1050))).toEqual(['failure:emv.amount-mismatch']);
  });
  it('readAmount', () => {
    expect(readAmount('10.50')).toEqual({ text: '10.50', decimal: true, canonical: true, cents: 1050, zero: false });
    expect(readAmount('98.')).toMatchObject({ decimal: true, canonical: false, cents: 9800 });
    expect(readAmount('10.505')).toMatchObject({ decimal: true, canonical: false });
    expect(readAmount('10.505').cents).toBeUndefined();
    expect(readAmount('0.00')).toMatchObject({ zero: true, cents: 0 });
    expect(readAmount('R$10')).toMatchObject({ decimal: false });
    expect(centsToDecimal(1)).toBe('0.01');
    expect(centsToDecimal(123456789)).toBe('1234567.89');
  });
});

describe('verifyBrCode: the template, key versus payload location (Manual de Padrões §2.5–§2.7)', () => {
  it('exactly one of a key (01) and a location (25)', () => {
    expect(structureOf(dynamic({ key: 'fulano@example.com' }))).toMatch(/both a Pix key \(01\) and a payload location \(25\)/);
    expect(structureOf(code({}))).toMatch(/neither a Pix key/);
  });
  it('the fss (03): 8 digits, beside a key only', () => {
    expect(codes(brCodeOf(staticCode({ fss: '12345678', amount: '10.00' })))).toEqual([]);
    expect(structureOf(staticCode({ fss: '1234567' }))).toMatch(/field 26\.03 .* fixes 8/);
    expect(structureOf(staticCode({ fss: '1234567A' }))).toMatch(/field 26\.03 .* digits only/);
    expect(structureOf(dynamic({ fss: '12345678' }))).toMatch(/fss \(03\) beside a payload location/);
  });
  it('a key written as the DICT registers it (§2.5.1)', () => {
    for (const key of ['52998224725', '+5511987654321', 'fulano@example.com', '123e4567-e12b-12d1-a456-426655440000', '11222333000181']) {
      expect(codes(brCodeOf(staticCode({ key }))), key).toEqual([]);
    }
    for (const key of ['529.982.247-25', 'Fulano@Example.com', '+55 11 98765-4321', '123E4567-E12B-12D1-A456-426655440000', '123e4567e12b12d1a456426655440000', 'not a key']) {
      expect(structureOf(staticCode({ key })), key).toMatch(/01 .* DICT/);
    }
  });
  it('a location with whitespace is no URL', () => {
    expect(structureOf(dynamic({ url: 'pix.example.com/qr v2' }))).toMatch(/whitespace/);
  });
});

describe('verifyDynamicBrCode', () => {
  it('passes a dynamic code (26.25 URL, 01=12 or absent)', () => {
    expect(codes(dynamicOf(ORACLE_DYNAMIC))).toEqual([]);
    expect(codes(dynamicOf(dynamic({ poi: null })))).toEqual([]);
    expect(dynamicOf(ORACLE_DYNAMIC, 'partner').requirements).toEqual(['PT-CHARGE-QR-DYNAMIC']);
  });
  it('fails a static code and an empty location', () => {
    const f = dynamicOf(ORACLE_STATIC).findings;
    expect(f).toMatchObject([{ code: 'emv.not-dynamic', severity: 'failure', requirements: ['GW-PIXIN-DYNAMIC-QR'] }]);
    expect(f[0]?.actual).toMatch(/static/);
    expect(codes(dynamicOf(dynamic({ url: '' })))).toEqual(['failure:emv.not-dynamic']);
  });
  it('warns on a URL scheme, a location that is no host and path, and 01=11', () => {
    expect(codes(dynamicOf(dynamic({ url: 'https://pix.example.com/qr/1' })))).toEqual(['warning:emv.dynamic-url-scheme']);
    expect(codes(dynamicOf(dynamic({ url: 'localhost/qr/1' })))).toEqual(['warning:emv.dynamic-url-form']);
    expect(codes(dynamicOf(dynamic({ url: 'pix.example.com:8443/qr/1' })))).toEqual([]);
    expect(codes(dynamicOf(dynamic({ poi: '11' })))).toEqual(['warning:emv.dynamic-reusable']);
  });
  it('decides nothing on a payload that does not parse or has no PIX template (verifyBrCode says why)', () => {
    expect(dynamicOf('garbage')).toEqual({ rule: 'verifyDynamicBrCode', requirements: [], findings: [] });
  });
});

describe('BR Code field table (generators/brcode-fields.ts)', () => {
  it('accepts valid dynamic codes with every field within its limits', () => {
    fc.assert(
      fc.property(validDynamicBrCode(), ({ emv, parts }) => {
        const amountCents = parts.amount !== undefined ? Math.round(Number(parts.amount) * 100) : undefined;
        expect(codes(brCodeOf(emv, amountCents)).filter((c) => c.startsWith('failure:'))).toEqual([]);
        expect(codes(dynamicOf(emv))).toEqual([]);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
  it('fails every field over its length or off its format, naming the field', () => {
    fc.assert(
      fc.property(brCodeFieldViolation(), (violation) => {
        const found = brCodeOf(violation.emv).findings;
        // the CRC is right: only the field is wrong
        expect(found.map((f) => `${f.severity}:${f.code}`), violation.rule).toEqual(['failure:emv.structure']);
        expect(found[0]?.actual).toContain(`field ${violation.path}`);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
  it('pins the limits: 59 ≤ 25, 60 ≤ 15, 54 ≤ 13, 26.25 ≤ 77, 62.05 ≤ 25, fss 26.03 = 8 digits', () => {
    const limits = Object.fromEntries(BR_CODE_FIELDS.map((f) => [f.path, f.length]));
    expect(limits).toMatchObject({ '59': 25, '60': 15, '54': 13, '26.25': 77, '62.05': 25, '63': 4, '26.03': 8 });
    expect(BR_CODE_FIELDS.find((f) => f.path === '26.03')).toMatchObject({ format: 'N', fixed: true });
    // a 26.25 over 77 cannot even be written: template 26 holds 99 characters, 22 of them the GUI and the URL header
  });
  it('readBrCode reads the form of the code', () => {
    expect(readBrCode(ORACLE_DYNAMIC).form).toBe('dynamic');
    expect(readBrCode(ORACLE_STATIC).form).toBe('static');
    expect(readBrCode(buildDynamicBrCode({ url: 'a.example/x', name: 'N', city: 'C', txid: '***', mcc: '0000' })).problems).toEqual([]);
  });
});
