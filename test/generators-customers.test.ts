// Self-tests of generators/customers.ts: documents judged by independent oracles, e-mails by ajv-formats.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { getStates, isValidCnpj as buCnpj, isValidCpf as buCpf } from '@brazilian-utils/brazilian-utils';
import { cnpj as cnpjOracle, cpf as cpfOracle } from 'cpf-cnpj-validator';
import { billingAddress, cardCustomer, invalidCardCustomer, invalidPixCustomer, pixCustomer } from '../generators/index.js';
import type { BillingAddress } from '../generators/index.js';

const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const isEmail = ajv.compile({ type: 'string', format: 'email' });
const UF = new Set(getStates().map((s) => s.code as string));
const RUNS = { numRuns: 200 };

function validFor(type: unknown, doc: unknown): boolean {
  if (typeof doc !== 'string') return false;
  if (type === 'cpf') return /^\d{11}$/.test(doc) && buCpf(doc) && cpfOracle.isValid(doc);
  if (type === 'cnpj') return /^[0-9A-Z]{14}$/.test(doc) && buCnpj(doc, { version: 2 }) && cnpjOracle.isValid(doc, true);
  return false;
}

function expectAddress(a: BillingAddress): void {
  for (const k of ['street', 'number', 'neighborhood', 'city', 'state', 'zipCode'] as const) {
    expect(typeof a[k]).toBe('string');
    expect(a[k].length).toBeGreaterThan(0);
  }
  expect(UF.has(a.state)).toBe(true);
  expect(a.zipCode).toMatch(/^\d{8}$/);
}

describe('customers', () => {
  test('billingAddress(): six non-empty strings, UF state, 8-digit zipCode', () => {
    fc.assert(fc.property(billingAddress(), (a) => {
      expectAddress(a);
    }), RUNS);
  });

  test('pixCustomer(): a valid document of the declared type; optional fields well-formed', () => {
    fc.assert(
      fc.property(pixCustomer(), (c) => {
        expect(validFor(c.documentType, c.document)).toBe(true);
        if (c.email !== undefined) expect(isEmail(c.email)).toBe(true);
        if (c.phone !== undefined) expect(c.phone).toMatch(/^\+55\d{10,11}$/);
        if (c.billingAddress !== undefined) expectAddress(c.billingAddress);
        if (c.name !== undefined) expect(c.name.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
    for (const c of fc.sample(pixCustomer({ documentType: 'cnpj', cnpjVariant: 'alphanumeric', optionalFields: 'all' }), { seed: 2, numRuns: 30 })) {
      expect(c.document).toMatch(/[A-Z]/);
      expect(validFor('cnpj', c.document)).toBe(true);
      expect(Object.keys(c).sort()).toEqual(['billingAddress', 'document', 'documentType', 'email', 'name', 'phone']);
    }
    for (const c of fc.sample(pixCustomer({ optionalFields: 'none' }), { seed: 2, numRuns: 10 })) {
      expect(Object.keys(c).sort()).toEqual(['document', 'documentType']);
    }
  });

  test('cardCustomer(): every required field, document empty or valid, complete address', () => {
    fc.assert(
      fc.property(cardCustomer(), (c) => {
        expect(c.name.length).toBeGreaterThan(0);
        expect(['cpf', 'cnpj']).toContain(c.documentType);
        expect(c.document === '' || validFor(c.documentType, c.document)).toBe(true);
        expect(isEmail(c.email)).toBe(true);
        expectAddress(c.billingAddress);
      }),
      RUNS,
    );
    expect(fc.sample(cardCustomer({ document: 'empty' }), { seed: 1, numRuns: 10 }).every((c) => c.document === '')).toBe(true);
    expect(() => cardCustomer({ document: 'fake' as never })).toThrow(/^generators\.cardCustomer:/);
  });

  test('invalidPixCustomer(): exactly the labelled rule is broken', () => {
    fc.assert(
      fc.property(invalidPixCustomer(), (l) => {
        const c = l.customer;
        switch (l.kind) {
          case 'missing-documentType':
            expect('documentType' in c).toBe(false);
            expect(validFor('cpf', c.document) || validFor('cnpj', c.document)).toBe(true);
            break;
          case 'missing-document':
            expect('document' in c).toBe(false);
            break;
          case 'invalid-document':
            expect(validFor(c.documentType, c.document)).toBe(false);
            break;
          case 'documentType-mismatch': {
            const other = c.documentType === 'cpf' ? 'cnpj' : 'cpf';
            expect(validFor(c.documentType, c.document)).toBe(false);
            expect(validFor(other, c.document)).toBe(true);
            break;
          }
          case 'bad-documentType':
            expect(['cpf', 'cnpj']).not.toContain(c.documentType);
            break;
        }
      }),
      RUNS,
    );
  });

  test('invalidCardCustomer(): exactly the labelled field is absent', () => {
    fc.assert(
      fc.property(invalidCardCustomer(), (l) => {
        const [head, sub] = l.field.split('.') as [string, string | undefined];
        if (sub === undefined) expect(head in l.customer).toBe(false);
        else {
          const addr = l.customer[head] as Record<string, unknown>;
          expect(sub in addr).toBe(false);
          expect(Object.keys(addr)).toHaveLength(5);
        }
      }),
      RUNS,
    );
  });
});
