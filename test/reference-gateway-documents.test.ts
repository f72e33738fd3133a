// The reference's CPF/CNPJ and PIX-key rules agree with two independent libraries.
import { generateCnpj, isValidCnpj as utilsIsValidCnpj } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeCpf, isValidCnpj, isValidCpf } from '../reference/gateway/documents.js';
import { classifyPixKey } from '../reference/gateway/pix-keys.js';

const digits = (length: number): fc.Arbitrary<string> => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(''));
const cnpjChars = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');

describe('documents', () => {
  it('CPF validity matches cpf-cnpj-validator on random 11-digit strings and generated CPFs', () => {
    fc.assert(fc.property(digits(11), (text) => isValidCpf(text) === cpfLib.isValid(text, true)), { seed: 7, numRuns: 2_000 });
    for (let i = 0; i < 200; i++) expect(isValidCpf(cpfLib.generate())).toBe(true);
  });

  it('numeric and alphanumeric CNPJ validity matches both libraries', () => {
    const alnum = fc.tuple(fc.array(cnpjChars, { minLength: 12, maxLength: 12 }), digits(2)).map(([base, check]) => base.join('') + check);
    fc.assert(fc.property(alnum, (text) => isValidCnpj(text) === cnpjLib.isValid(text, true)), { seed: 11, numRuns: 2_000 });
    for (let i = 0; i < 200; i++) {
      const generated = generateCnpj({ version: 2 });
      expect(isValidCnpj(generated)).toBe(true);
      expect(utilsIsValidCnpj(generated, { version: 2 })).toBe(true);
      expect(isValidCnpj(cnpjLib.generate())).toBe(true);
    }
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE35', { alphanumeric: false })).toBe(false);
    expect(isValidCnpj('12abc34501de35')).toBe(false);
  });

  it('rejects documents of one repeated character', () => {
    for (const d of '0123456789') {
      expect(isValidCpf(d.repeat(11))).toBe(false);
      expect(isValidCnpj(d.repeat(14))).toBe(false);
    }
  });

  it('completeCpf produces valid CPFs', () => {
    fc.assert(fc.property(digits(9).filter((d) => !/^(\d)\1*$/.test(d)), (base) => isValidCpf(completeCpf(base))), { seed: 3 });
  });
});

describe('PIX keys', () => {
  it.each([
    ['52998224725', 'cpf'], ['11222333000181', 'cnpj'], ['12ABC34501DE35', 'cnpj'], ['fulano@example.com', 'email'],
    ['+5511987654321', 'phone'], ['+551133334444', 'phone'], ['123e4567-e89b-42d3-a456-426614174000', 'random'],
  ])('%s is a %s key', (key, kind) => {
    expect(classifyPixKey(key)).toEqual({ kind });
  });

  it.each(['52998224726', '11222333000182', '+1202555012', '+55119876543210', '11987654321x', 'a@b', 'fulano@', '', 'random-text'])('%s is not a key', (key) => {
    expect('error' in classifyPixKey(key)).toBe(true);
  });
});
