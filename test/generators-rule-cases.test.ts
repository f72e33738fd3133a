// The invalid side of every document and key rule: one case per class, each judged invalid by two
// independent validators (ours and cpf-cnpj-validator / @brazilian-utils), deterministic per seed.
import { isValidCNPJ, isValidCPF } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjOracle, cpf as cpfOracle } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { invalidDocumentCases, isValidCnpj, isValidCpf, malformedPixKeyCases } from '../generators/index.js';

describe('invalidDocumentCases', () => {
  it('covers every class, each invalid for both oracles, the same for a seed', () => {
    const cases = invalidDocumentCases(7);
    expect(cases.map((c) => c.rule)).toEqual(['cpf.check-digit', 'cpf.same-digits', 'cpf.zeros', 'cpf.length', 'cnpj.check-digit', 'cnpj-alphanumeric.check-digit', 'cnpj.same-digits', 'cnpj.zeros', 'cnpj.length']);
    for (const c of cases) {
      if (c.rule.startsWith('cpf')) {
        expect(isValidCpf(c.value), c.rule).toBe(false);
        expect(cpfOracle.isValid(c.value), c.rule).toBe(false);
      } else {
        expect(isValidCnpj(c.value, { alphanumeric: true }), c.rule).toBe(false);
        expect(cnpjOracle.isValid(c.value), c.rule).toBe(false);
        if (c.rule === 'cnpj-alphanumeric.check-digit') expect(/[A-Z]/.test(c.value)).toBe(true);
        else expect(isValidCNPJ(c.value, { version: 2 }), c.rule).toBe(false);
      }
      if (c.rule.startsWith('cpf') && c.rule !== 'cpf.length') expect(isValidCPF(c.value), c.rule).toBe(false);
    }
    expect(invalidDocumentCases(7)).toEqual(cases);
  });
});

describe('malformedPixKeyCases', () => {
  it('has one case per malformed kind plus the reserved documents, none a valid key', () => {
    const cases = malformedPixKeyCases(3);
    expect(new Set(cases.map((c) => c.rule)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      expect(/^\+55\d{10,11}$/.test(c.value), c.rule).toBe(false);
    }
  });
});
