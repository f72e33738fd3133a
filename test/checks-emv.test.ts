// The suite's BR Code parser/CRC judged by an independent oracle (@brazilian-utils/brazilian-utils).
import { found } from './harness-fixtures.js';
import { generatePixPayload, getPixPayloadInfo, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  computeBrCodeCrc,
  crc16CcittFalse,
  emvStructureProblems,
  findEmvField,
  parseBrCode,
  verifyEmv,
  verifyEmvAmount,
  verifyEmvCrc,
  verifyEmvDynamic,
  verifyEmvStructure,
} from '../harness/rules/emv.js';
import type { RuleContext } from '../harness/rules/judgement.js';
import { BR_CODE_FIELDS, brCodeFieldViolation, validDynamicBrCode } from '../generators/brcode-fields.js';

const ctx: RuleContext = { requirements: ['GW-PIXIN-EMV'] };

/** Manual BR Code test builder: TLV + CRC (the CRC itself is cross-checked against the oracle below). */
function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}
function brCode(fields: string[]): string {
  const body = `${fields.join('')}6304`;
  return body + computeBrCodeCrc(body);
}
function dynamicCode(opts: { url?: string; key?: string; amount?: string; poi?: string | null; gui?: string } = {}): string {
  const t26 = [tlv('00', opts.gui ?? 'br.gov.bcb.pix')];
  if (opts.key !== undefined) t26.push(tlv('01', opts.key));
  if (opts.url !== undefined) t26.push(tlv('25', opts.url));
  const fields = [tlv('00', '01')];
  if (opts.poi !== null) fields.push(tlv('01', opts.poi ?? '12'));
  fields.push(tlv('26', t26.join('')), tlv('52', '0000'), tlv('53', '986'));
  if (opts.amount !== undefined) fields.push(tlv('54', opts.amount));
  fields.push(tlv('58', 'BR'), tlv('59', 'LOJA TESTE'), tlv('60', 'SAO PAULO'), tlv('62', tlv('05', '***')));
  return brCode(fields);
}

const ORACLE_DYNAMIC = '00020101021226480014br.gov.bcb.pix2526pix.example.com/qr/v2/12345204000053039865802BR5913Fulano de Tal6008Brasilia62070503***6304FC66';
const ORACLE_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.505802BR5913Fulano de Tal6008Brasilia62100506ABC1236304CF44';

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
    const r = parseBrCode(withBytes);
    expect(r).toMatchObject({ ok: true, lengthUnit: 'utf8-bytes' });
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
        (name, city, cents, dynamic, suffix) => {
          const params = dynamic
            ? { url: `pix.example.com/qr/v2/${suffix}`, merchantName: name, merchantCity: city }
            : { key: 'fulano@example.com', merchantName: name, merchantCity: city, ...(cents === undefined ? {} : { amount: cents / 100 }) };
          const payload = generatePixPayload(params);
          if (payload === null) return;
          const info = getPixPayloadInfo(payload);
          const parsed = parseBrCode(payload);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok || !info) return;
          expect(found(verifyEmvCrc(payload, ctx))).toBeUndefined();
          expect(emvStructureProblems(payload).filter((p) => p.severity === 'failure')).toEqual([]);
          expect(findEmvField(parsed.fields, '59')?.value).toBe(info.merchantName);
          expect(findEmvField(parsed.fields, '60')?.value).toBe(info.merchantCity);
          expect(findEmvField(parsed.fields, '26.25')?.value).toBe(info.url);
          expect(findEmvField(parsed.fields, '26.01')?.value).toBe(info.key);
          if (!dynamic && cents !== undefined) {
            expect(findEmvField(parsed.fields, '54')?.value).toBe(centsToDecimal(cents));
            expect(found(verifyEmvAmount(payload, cents, ctx))).toBeUndefined();
          }
          expect(found(verifyEmvDynamic(payload, ctx))?.code).toBe(dynamic ? undefined : 'emv.not-dynamic');
        },
      ),
      { seed: 20261122, numRuns: 200 },
    );
  });

  it('detects every single-character corruption the oracle rejects (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ORACLE_DYNAMIC.length - 9 }), fc.constantFrom(...'0123456789ABCXYZabcxyz./*'), (at, ch) => {
        if (ORACLE_DYNAMIC[at] === ch) return;
        const corrupted = ORACLE_DYNAMIC.slice(0, at) + ch + ORACLE_DYNAMIC.slice(at + 1);
        expect(isValidPixPayload(corrupted)).toBe(false);
        const mine = [found(verifyEmvStructure(corrupted, ctx)), found(verifyEmvCrc(corrupted, ctx))].filter((f) => f?.severity === 'failure');
        expect(mine.length).toBeGreaterThan(0);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('builds payloads the oracle accepts (the test builder is sound)', () => {
    expect(isValidPixPayload(dynamicCode({ url: 'pix.example.com/qr/v2/cobv/9d36b84f' }))).toBe(true);
    expect(isValidPixPayload(dynamicCode({ key: 'fulano@example.com', amount: '10.50', poi: null }))).toBe(true);
  });
});

describe('verifyEmvStructure', () => {
  it('passes oracle payloads', () => {
    expect(found(verifyEmvStructure(ORACLE_DYNAMIC, ctx))).toBeUndefined();
    expect(found(verifyEmvStructure(ORACLE_STATIC, ctx))).toBeUndefined();
    expect(found(verifyEmvStructure(dynamicCode({ url: 'pix.example.com/qr/1', gui: 'BR.GOV.BCB.PIX' }), ctx))).toBeUndefined();
  });

  it('fails each broken rule', () => {
    const cases: Array<[string, RegExp]> = [
      [brCode([tlv('01', '12'), tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /field 00/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'com.example')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /GUI/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '840'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /53 must be "986"/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'US'), tlv('59', 'X'), tlv('60', 'Y')]), /58 must be "BR"/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /52/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('60', 'Y')]), /59/],
      [brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X')]), /60/],
      [brCode([tlv('00', '01'), tlv('01', '13'), tlv('26', tlv('00', 'br.gov.bcb.pix')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'X'), tlv('60', 'Y')]), /field 01/],
      [ORACLE_DYNAMIC.slice(0, -4) + 'fc66', /uppercase hex/],
      [`${ORACLE_DYNAMIC}6401X`, /63 \(CRC\) must come last/],
      [ORACLE_DYNAMIC.slice(0, -8), /63/],
      [ORACLE_DYNAMIC.replace('2526pix', '2599pix'), /does not parse|TLV/],
      ['not an emv', /TLV/],
    ];
    for (const [emv, why] of cases) {
      const f = found(verifyEmvStructure(emv, ctx));
      expect(f, emv).toBeDefined();
      expect(f?.severity).toBe('failure');
      expect(f?.code).toBe('emv.structure');
      expect(f?.actual).toMatch(why);
      expect(f?.requirements).toEqual(['GW-PIXIN-EMV']);
    }
    expect(found(verifyEmvStructure(42, ctx))?.actual).toMatch(/not a string/);
  });

  it('only warns when 62 is absent; a merchant name over the 25 of the field table fails', () => {
    const no62 = brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/x')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'LOJA'), tlv('60', 'SP')]);
    const f = found(verifyEmvStructure(no62, ctx));
    expect(f?.severity).toBe('warning');
    expect(f?.actual).toMatch(/62/);
    const longName = brCode([tlv('00', '01'), tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/x')), tlv('52', '0000'), tlv('53', '986'), tlv('58', 'BR'), tlv('59', 'A VERY LONG MERCHANT NAME THAT GOES ON'), tlv('60', 'SP'), tlv('62', tlv('05', '***'))]);
    const g = found(verifyEmvStructure(longName, ctx));
    expect(g?.severity).toBe('failure');
    expect(g?.actual).toMatch(/field 59 .* 25/);
  });
});

describe('verifyEmvCrc', () => {
  it('passes a correct CRC (either case) and fails a wrong one with both values', () => {
    expect(found(verifyEmvCrc(ORACLE_DYNAMIC, ctx))).toBeUndefined();
    expect(found(verifyEmvCrc(ORACLE_DYNAMIC.slice(0, -4) + 'fc66', ctx))).toBeUndefined();
    const f = found(verifyEmvCrc(ORACLE_DYNAMIC.slice(0, -4) + 'FC67', ctx));
    expect(f).toMatchObject({ code: 'emv.crc', severity: 'failure' });
    expect(f?.expected).toMatch(/FC66/);
    expect(f?.actual).toMatch(/FC67/);
    expect(found(verifyEmvCrc('000201', ctx))?.code).toBe('emv.crc');
  });
});

describe('verifyEmvDynamic', () => {
  it('passes a dynamic code (26.25 URL, 01=12 or absent)', () => {
    expect(found(verifyEmvDynamic(ORACLE_DYNAMIC, ctx))).toBeUndefined();
    expect(found(verifyEmvDynamic(dynamicCode({ url: 'pix.example.com/qr/1', poi: null }), ctx))).toBeUndefined();
  });
  it('fails a static code', () => {
    const f = found(verifyEmvDynamic(ORACLE_STATIC, ctx));
    expect(f).toMatchObject({ code: 'emv.not-dynamic', severity: 'failure' });
    expect(f?.actual).toMatch(/static/);
  });
  it('warns on scheme in the URL, key next to URL, and 01=11', () => {
    for (const emv of [dynamicCode({ url: 'https://pix.example.com/qr/1' }), dynamicCode({ url: 'pix.example.com/qr/1', key: 'a@b.co' }), dynamicCode({ url: 'pix.example.com/qr/1', poi: '11' })]) {
      expect(found(verifyEmvDynamic(emv, ctx))?.severity).toBe('warning');
    }
  });
  it('leaves unparseable payloads to verifyEmvStructure', () => {
    expect(found(verifyEmvDynamic('garbage', ctx))).toBeUndefined();
  });
});

describe('verifyEmvAmount', () => {
  it('passes a matching 2-decimal amount', () => {
    expect(found(verifyEmvAmount(ORACLE_STATIC, 1050, ctx))).toBeUndefined();
    expect(found(verifyEmvAmount(dynamicCode({ url: 'pix.example.com/x', amount: '1234567.89' }), 123456789, ctx))).toBeUndefined();
  });
  it('fails a different amount', () => {
    const f = found(verifyEmvAmount(ORACLE_STATIC, 1051, ctx));
    expect(f).toMatchObject({ code: 'emv.amount-mismatch', severity: 'failure', expected: 'field 54 = "10.51" (1051 cents)' });
  });
  it('warns when 54 is absent (dynamic) or written without 2 decimals', () => {
    expect(found(verifyEmvAmount(ORACLE_DYNAMIC, 1050, ctx))).toMatchObject({ code: 'emv.amount-absent', severity: 'warning' });
    expect(found(verifyEmvAmount(dynamicCode({ url: 'pix.example.com/x', amount: '10.5' }), 1050, ctx))).toMatchObject({ code: 'emv.amount-format', severity: 'warning' });
    expect(found(verifyEmvAmount(dynamicCode({ url: 'pix.example.com/x', amount: '10' }), 1000, ctx))?.code).toBe('emv.amount-format');
  });
  it('centsToDecimal uses integer arithmetic', () => {
    expect(centsToDecimal(100)).toBe('1.00');
    expect(centsToDecimal(1)).toBe('0.01');
    expect(centsToDecimal(123456789)).toBe('1234567.89');
  });
});

describe('verifyEmv', () => {
  it('collects all findings; none for a good dynamic code with amount', () => {
    expect(verifyEmv(dynamicCode({ url: 'pix.example.com/qr/1', amount: '5.00' }), ctx, { amountCents: 500 }).findings).toEqual([]);
    expect(verifyEmv(ORACLE_STATIC, ctx, { amountCents: 999 }).findings.map((f) => f.code).sort()).toEqual(['emv.amount-mismatch', 'emv.not-dynamic']);
  });
  it('returns one judgement deciding the context requirements, clean or not', () => {
    expect(verifyEmvDynamic(ORACLE_STATIC, ctx).requirements).toEqual(['GW-PIXIN-EMV']);
    expect(verifyEmvCrc(dynamicCode({ url: 'pix.example.com/qr/1' }), ctx)).toEqual({ requirements: ['GW-PIXIN-EMV'], findings: [] });
  });
});

describe('BR Code field table (generators/brcode-fields.ts)', () => {
  it('accepts valid dynamic codes with every field within its limits', () => {
    fc.assert(
      fc.property(validDynamicBrCode(), ({ emv, parts }) => {
        expect(verifyEmv(emv, ctx, parts.amount !== undefined ? { amountCents: Math.round(Number(parts.amount) * 100) } : {}).findings.filter((f) => f.severity === 'failure')).toEqual([]);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
  it('fails every field over its length or off its format, naming the field', () => {
    fc.assert(
      fc.property(brCodeFieldViolation(), (v) => {
        const f = found(verifyEmvStructure(v.emv, ctx));
        expect(f, v.rule).toMatchObject({ code: 'emv.structure', severity: 'failure' });
        expect(f?.actual).toContain(`field ${v.path}`);
        // the CRC is right: only the field is wrong
        expect(found(verifyEmvCrc(v.emv, ctx))).toBeUndefined();
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
  it('pins the limits the issue names: 59 ≤ 25, 60 ≤ 15, 54 ≤ 13, 26.25 ≤ 77, 62.05 ≤ 25', () => {
    const limits = Object.fromEntries(BR_CODE_FIELDS.map((f) => [f.path, f.length]));
    expect(limits).toMatchObject({ '59': 25, '60': 15, '54': 13, '26.25': 77, '62.05': 25, '63': 4 });
    // a 26.25 over 77 cannot even be written: template 26 holds 99 characters, 22 of them the GUI and the URL header
  });
});
