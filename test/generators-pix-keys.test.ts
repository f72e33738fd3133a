// Self-tests of generators/pix-keys.ts (and emails/phones): valid keys checked by independent oracles,
// malformed keys checked to be no valid key of any kind under the contract's wording.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isValidCnpj as buCnpj, isValidCpf as buCpf, isValidEmail as buEmail, isValidMobilePhone as buMobile } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjOracle, cpf as cpfOracle } from 'cpf-cnpj-validator';
import { MALFORMED_PIX_KEY_KINDS, PIX_KEY_KINDS, email, malformedEmail, malformedPixKey, phone, pixKey } from '../generators/index.js';

// ajv-formats is CommonJS: under NodeNext the default import is module.exports, whose `.default` is the plugin.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const isEmail = ajv.compile({ type: 'string', format: 'email' });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHONE = /^\+55\d{10,11}$/;
const RUNS = { numRuns: 200 };

/**
 * The contract's five key kinds, judged by oracles independent of generators/, with the DICT's
 * e-mail cap (77 characters, DICT API tag "Chave") the key kind carries.
 */
function isAnyValidKey(v: string): boolean {
  return (
    (/^\d{11}$/.test(v) && buCpf(v) && cpfOracle.isValid(v)) ||
    (/^[0-9A-Z]{14}$/.test(v) && buCnpj(v, { version: 2 }) && cnpjOracle.isValid(v, true)) ||
    (isEmail(v) && v.length <= 77) ||
    PHONE.test(v) ||
    UUID_ANY.test(v)
  );
}

describe('pixKey', () => {
  test('each kind satisfies its oracle', () => {
    fc.assert(
      fc.property(pixKey(), (k) => {
        switch (k.kind) {
          case 'cpf':
            expect(k.value).toMatch(/^\d{11}$/);
            expect(buCpf(k.value) && cpfOracle.isValid(k.value)).toBe(true);
            break;
          case 'cnpj':
            expect(k.value).toMatch(/^\d{14}$/);
            expect(buCnpj(k.value) && cnpjOracle.isValid(k.value)).toBe(true);
            break;
          case 'email':
            expect(isEmail(k.value)).toBe(true);
            expect(buEmail(k.value)).toBe(true);
            break;
          case 'phone':
            expect(k.value).toMatch(PHONE);
            expect(buMobile(k.value.slice(3))).toBe(true);
            break;
          case 'evp':
            expect(k.value).toMatch(UUID_V4);
            break;
        }
      }),
      { numRuns: 300 },
    );
  });

  test('every kind is produced, and kind filters hold', () => {
    const seen = new Set(fc.sample(pixKey(), { seed: 7, numRuns: 200 }).map((k) => k.kind));
    expect([...seen].sort()).toEqual([...PIX_KEY_KINDS].sort());
    for (const kind of PIX_KEY_KINDS) {
      expect(fc.sample(pixKey({ kind }), { seed: 1, numRuns: 20 }).every((k) => k.kind === kind)).toBe(true);
    }
    const alnum = fc.sample(pixKey({ kind: 'cnpj', cnpjVariant: 'alphanumeric' }), { seed: 3, numRuns: 50 });
    for (const k of alnum) {
      expect(k.value).toMatch(/[A-Z]/);
      expect(buCnpj(k.value, { version: 2 })).toBe(true);
    }
  });

  test('throws on bad constraints', () => {
    expect(() => pixKey({ kind: [] })).toThrow(/^generators\.pixKey:/);
    expect(() => pixKey({ kind: 'iban' as never })).toThrow(/^generators\.pixKey:/);
  });
});

describe('malformedPixKey', () => {
  test('no malformed key is a valid key of any kind', () => {
    fc.assert(
      fc.property(malformedPixKey(), (k) => {
        expect(isAnyValidKey(k.value)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('labels describe the value', () => {
    fc.assert(
      fc.property(malformedPixKey(), (k) => {
        switch (k.kind) {
          case 'phone-without-plus55':
            expect(k.value).toMatch(/^\d{10,13}$/);
            break;
          case 'wrong-length-digits':
            expect(k.value).toMatch(/^\d+$/);
            expect([11, 14]).not.toContain(k.value.length);
            break;
          case 'cpf-bad-check-digit':
            expect(k.value).toMatch(/^\d{11}$/);
            break;
          case 'cnpj-bad-check-digit':
            expect(k.value).toMatch(/^\d{14}$/);
            break;
          case 'non-uuid-evp':
            expect(k.value.length).toBeGreaterThanOrEqual(35);
            break;
          case 'empty':
            expect(k.value).toBe('');
            break;
          case 'bad-email':
            expect(isEmail(k.value)).toBe(false);
            break;
          case 'phone-wrong-length':
            expect(k.value).toMatch(/^\+55(\d{8,9}|\d{12,13})$/);
            break;
          case 'evp-without-hyphens':
            expect(k.value).toMatch(/^[0-9a-f]{32}$/);
            break;
          case 'email-over-77':
            // a well-formed address, over the DICT's length only
            expect(isEmail(k.value)).toBe(true);
            expect(buEmail(k.value)).toBe(true);
            expect(k.value.length).toBeGreaterThan(77);
            break;
        }
      }),
      RUNS,
    );
    const seen = new Set(fc.sample(malformedPixKey(), { seed: 11, numRuns: 300 }).map((k) => k.kind));
    expect([...seen].sort()).toEqual([...MALFORMED_PIX_KEY_KINDS].sort());
  });
});

describe('emails and phones', () => {
  test('email() passes ajv-formats email and brazilian-utils isValidEmail', () => {
    fc.assert(
      fc.property(email(), (v) => {
        expect(isEmail(v)).toBe(true);
        expect(buEmail(v)).toBe(true);
      }),
      RUNS,
    );
  });
  test('malformedEmail() fails ajv-formats email', () => {
    fc.assert(fc.property(malformedEmail(), (m) => {
      expect(isEmail(m.value)).toBe(false);
    }), RUNS);
  });
  test('phone() is +55 and 10–11 digits', () => {
    fc.assert(fc.property(phone(), (v) => {
      expect(v).toMatch(PHONE);
    }), RUNS);
  });
});
