// Documents and PIX keys (harness/rules/gateway/documents-keys.ts): the oracle reads every generated
// invalid case as invalid (cross-checked with @brazilian-utils and cpf-cnpj-validator), every valid
// draw as valid, the forms the text leaves open as borderline (the request rules that judge the
// answers: test/rules-gateway-pix-charges.test.ts, test/rules-gateway-pix-transfers.test.ts).
import { isValidCPF } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjOracle } from 'cpf-cnpj-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cnpj, cpf, invalidDocumentCases, malformedPixKeyCases, pixKey } from '../generators/index.js';
import { readCustomerDocument, readPixKey } from '../harness/rules/gateway/documents-keys.js';

describe('readPixKey', () => {
  it('reads every generated malformed key as invalid (one per class, several seeds)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const c of malformedPixKeyCases(seed)) expect(readPixKey(c.value).standing, `${c.rule} ${c.value}`).toBe('invalid');
    }
  });

  it('reads every valid key of the five kinds as valid', () => {
    fc.assert(fc.property(pixKey(), (k) => readPixKey(k.value).standing === 'valid'), { seed: 15, numRuns: 300 });
  });

  it('a CPF-shaped key with wrong check digits is invalid, also for an independent oracle', () => {
    expect(isValidCPF('52998224726')).toBe(false);
    expect(readPixKey('52998224726')).toMatchObject({ standing: 'invalid' });
    expect(readPixKey('52998224725')).toMatchObject({ standing: 'valid' });
    expect(readPixKey('11111111111')).toMatchObject({ standing: 'invalid', why: 'a reserved one-digit CPF' });
    expect(readPixKey('00000000000000')).toMatchObject({ standing: 'invalid' });
    expect(cnpjOracle.isValid('11222333000182')).toBe(false);
    expect(readPixKey('11222333000182').standing).toBe('invalid');
  });

  it('leaves the forms the text does not pin down borderline', () => {
    for (const key of ['529.982.247-25', '12ABC34501DE35', '+55 11 99999-8888', 'a@localhost']) {
      expect(readPixKey(key).standing, key).toBe('borderline');
    }
    expect(readPixKey('12ABC34501DE36').standing).toBe('invalid');
    expect(readPixKey('+12025550123').standing).toBe('invalid');
    expect(readPixKey('').standing).toBe('invalid');
    // the DICT's key rules (test/checks-identifiers.test.ts): a +55 phone of 9 national digits, a UUID without hyphens
    expect(readPixKey('+5511999998').standing).toBe('invalid');
    expect(readPixKey('123e4567e89b12d3a456426614174000').standing).toBe('invalid');
    expect(readPixKey('123e4567-e89b-12d3-a456-42661417400').standing).toBe('invalid');
  });
});

describe('readCustomerDocument', () => {
  it('reads every generated invalid document as invalid under its own type', () => {
    for (const seed of [1, 2, 3, 7]) {
      for (const c of invalidDocumentCases(seed)) {
        const type = c.rule.startsWith('cpf') ? 'cpf' : 'cnpj';
        expect(readCustomerDocument(type, c.value).standing, `${c.rule} ${c.value}`).toBe('invalid');
      }
    }
  });

  it('reads valid documents as valid, the alphanumeric CNPJ and punctuation as borderline', () => {
    fc.assert(fc.property(cpf(), (v) => readCustomerDocument('cpf', v).standing === 'valid'), { seed: 3, numRuns: 100 });
    fc.assert(fc.property(cnpj(), (v) => readCustomerDocument('cnpj', v).standing === 'valid'), { seed: 3, numRuns: 100 });
    expect(readCustomerDocument('cnpj', '12ABC34501DE35').standing).toBe('borderline');
    expect(readCustomerDocument('cpf', '529.982.247-25').standing).toBe('borderline');
    expect(readCustomerDocument('cpf', '00000000000').standing).toBe('invalid');
  });
});
