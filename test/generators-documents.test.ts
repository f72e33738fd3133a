// Self-tests of generators/documents.ts against two independent oracles:
// @brazilian-utils/brazilian-utils (alphanumeric CNPJ only with { version: 2 }) and cpf-cnpj-validator.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isValidCnpj as buCnpj, isValidCpf as buCpf } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjOracle, cpf as cpfOracle } from 'cpf-cnpj-validator';
import {
  cnpj,
  cnpjAllSameDigits,
  cnpjAlphanumeric,
  cnpjCheckDigits,
  cnpjWithBadCheckDigit,
  cnpjWrongLength,
  cpf,
  cpfAllSameDigits,
  cpfCheckDigits,
  cpfWithBadCheckDigit,
  cpfWrongLength,
  documentOf,
  invalidCnpj,
  invalidCpf,
  isValidCnpj,
  isValidCpf,
} from '../generators/index.js';

const RUNS = { numRuns: 200 };
const CPF_MASK = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ_MASK = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

describe('CPF', () => {
  test('cpf() is 11 digits and valid for both oracles and ours', () => {
    fc.assert(
      fc.property(cpf(), (v) => {
        expect(v).toMatch(/^\d{11}$/);
        expect(buCpf(v)).toBe(true);
        expect(cpfOracle.isValid(v)).toBe(true);
        expect(isValidCpf(v)).toBe(true);
        expect(isValidCpf(v, { format: 'formatted' })).toBe(false);
      }),
      RUNS,
    );
  });

  test("cpf({ format: 'formatted' }) is 000.000.000-00 and valid", () => {
    fc.assert(
      fc.property(cpf({ format: 'formatted' }), (v) => {
        expect(v).toMatch(CPF_MASK);
        expect(buCpf(v)).toBe(true);
        expect(cpfOracle.isValid(v, true)).toBe(true);
        expect(isValidCpf(v)).toBe(true);
        expect(isValidCpf(v, { format: 'digits' })).toBe(false);
      }),
      RUNS,
    );
  });

  test('cpfWithBadCheckDigit() is rejected by both oracles and ours, in both formats', () => {
    fc.assert(
      fc.property(fc.constantFrom('digits' as const, 'formatted' as const).chain((format) => cpfWithBadCheckDigit({ format })), (v) => {
        expect(buCpf(v)).toBe(false);
        expect(cpfOracle.isValid(v)).toBe(false);
        expect(isValidCpf(v)).toBe(false);
      }),
      RUNS,
    );
  });

  test('cpfAllSameDigits() and cpfWrongLength() are rejected', () => {
    fc.assert(
      fc.property(fc.oneof(cpfAllSameDigits(), cpfWrongLength()), (v) => {
        expect(buCpf(v)).toBe(false);
        expect(cpfOracle.isValid(v)).toBe(false);
        expect(isValidCpf(v)).toBe(false);
      }),
      RUNS,
    );
    fc.assert(fc.property(cpfWrongLength(), (v) => {
      expect([10, 12]).toContain(v.length);
    }), RUNS);
  });

  test('invalidCpf() labels match the value', () => {
    fc.assert(
      fc.property(invalidCpf(), (d) => {
        expect(d.type).toBe('cpf');
        expect(buCpf(d.value)).toBe(false);
        if (d.kind === 'all-same-digits') expect(new Set(d.value).size).toBe(1);
        if (d.kind === 'wrong-length') expect(d.value.length).not.toBe(11);
        if (d.kind === 'bad-check-digit') expect(d.value).toMatch(/^\d{11}$/);
      }),
      RUNS,
    );
  });

  test('isValidCpf agrees with both oracles on arbitrary 11-digit strings and near-misses', () => {
    const digits11 = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 11 });
    fc.assert(
      fc.property(fc.oneof(digits11, cpf(), cpfWithBadCheckDigit()), (v) => {
        expect(isValidCpf(v)).toBe(buCpf(v));
        expect(isValidCpf(v)).toBe(cpfOracle.isValid(v));
      }),
      { numRuns: 500 },
    );
  });

  test('check digits match the oracle library', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 9, maxLength: 9 }), (b) => {
        const d1 = cpfOracle.verifierDigit(b);
        expect(cpfCheckDigits(b)).toBe(`${d1}${cpfOracle.verifierDigit(b + String(d1))}`);
      }),
      RUNS,
    );
  });
});

describe('CNPJ', () => {
  test('cnpj() (numeric) is 14 digits and valid for both oracles (v1 and v2) and ours', () => {
    fc.assert(
      fc.property(cnpj(), (v) => {
        expect(v).toMatch(/^\d{14}$/);
        expect(buCnpj(v)).toBe(true);
        expect(buCnpj(v, { version: 2 })).toBe(true);
        expect(cnpjOracle.isValid(v)).toBe(true);
        expect(isValidCnpj(v, { alphanumeric: false })).toBe(true);
        expect(isValidCnpj(v)).toBe(true);
      }),
      RUNS,
    );
  });

  test('cnpjAlphanumeric() has a letter, is valid for v2 / cpf-cnpj-validator / ours, not for numeric-only v1', () => {
    fc.assert(
      fc.property(cnpjAlphanumeric(), (v) => {
        expect(v).toMatch(/^[0-9A-Z]{12}\d{2}$/);
        expect(v.slice(0, 12)).toMatch(/[A-Z]/);
        expect(buCnpj(v, { version: 2 })).toBe(true);
        expect(buCnpj(v)).toBe(false);
        expect(cnpjOracle.isValid(v, true)).toBe(true);
        expect(isValidCnpj(v)).toBe(true);
        expect(isValidCnpj(v, { alphanumeric: false })).toBe(false);
      }),
      RUNS,
    );
  });

  test("formatted CNPJs (both variants) use the official mask and stay valid", () => {
    fc.assert(
      fc.property(cnpj({ format: 'formatted', variant: 'any' }), (v) => {
        expect(v).toMatch(CNPJ_MASK);
        expect(buCnpj(v, { version: 2 })).toBe(true);
        expect(cnpjOracle.isValid(v, true)).toBe(true);
        expect(isValidCnpj(v)).toBe(true);
        expect(isValidCnpj(v, { format: 'digits' })).toBe(false);
      }),
      RUNS,
    );
  });

  test('bad check digits, repeated digits and wrong lengths are rejected by both oracles and ours', () => {
    const bad = fc.oneof(
      cnpjWithBadCheckDigit({ variant: 'any' }),
      cnpjWithBadCheckDigit({ variant: 'alphanumeric', format: 'formatted' }),
      cnpjAllSameDigits(),
      cnpjWrongLength(),
    );
    fc.assert(
      fc.property(bad, (v) => {
        expect(buCnpj(v, { version: 2 })).toBe(false);
        expect(cnpjOracle.isValid(v)).toBe(false);
        expect(isValidCnpj(v)).toBe(false);
      }),
      RUNS,
    );
  });

  test('invalidCnpj() labels match the value', () => {
    fc.assert(
      fc.property(invalidCnpj(), (d) => {
        expect(d.type).toBe('cnpj');
        expect(buCnpj(d.value, { version: 2 })).toBe(false);
        if (d.kind === 'wrong-length') expect([13, 15]).toContain(d.value.length);
      }),
      RUNS,
    );
  });

  test('isValidCnpj agrees with both oracles on arbitrary [0-9A-Z]{12}\\d{2} strings and near-misses', () => {
    const alnum = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 });
    const dv = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 2, maxLength: 2 });
    const random = fc.tuple(alnum, dv).map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.oneof(random, cnpj({ variant: 'any' }), cnpjWithBadCheckDigit({ variant: 'any' })), (v) => {
        expect(isValidCnpj(v)).toBe(buCnpj(v, { version: 2 }));
        expect(isValidCnpj(v)).toBe(cnpjOracle.isValid(v, true));
      }),
      { numRuns: 500 },
    );
  });

  test('check digits match the oracle library, letters valued ASCII − 48', () => {
    const base = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(base, (b) => {
        const d1 = cnpjOracle.verifierDigit(b);
        expect(cnpjCheckDigits(b)).toBe(`${d1}${cnpjOracle.verifierDigit(b + String(d1))}`);
      }),
      RUNS,
    );
  });

  test('known fixtures', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('Q0SLFMBD7VX439')).toBe(true);
    // Lower case is not the Receita Federal format: the suite's validator is strict about it.
    expect(isValidCnpj('q0slfmbd7vx439')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCpf('12345678909')).toBe(true);
    expect(isValidCpf('123.456.789-09')).toBe(true);
    expect(isValidCpf('123.456.78909')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
  });
});

describe('constraints', () => {
  test('bad options throw with a generators.<name>: prefix', () => {
    expect(() => cpf({ format: 'dots' as never })).toThrow(/^generators\.cpf:/);
    expect(() => cnpj({ variant: 'hex' as never })).toThrow(/^generators\.cnpj:/);
    expect(() => documentOf('rg' as never)).toThrow(/^generators\.documentOf:/);
    expect(() => cpfCheckDigits('123')).toThrow(/^generators\.cpfCheckDigits:/);
  });
});
