// Every generator is deterministic per seed: the same seed gives the same values, twice, even when
// other faker-driven generators run in between (faker is reseeded inside each map).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import * as g from '../generators/index.js';

const schema: g.JsonSchema = {
  type: 'object',
  required: ['amountInCents', 'customer'],
  properties: {
    amountInCents: { type: 'integer', minimum: 100 },
    customer: { type: 'object', required: ['documentType', 'document'], properties: { documentType: { enum: ['cpf', 'cnpj'] }, document: { type: 'string' } } },
    description: { type: 'string', maxLength: 140 },
  },
};

const arbitraries: Record<string, Arbitrary<unknown>> = {
  cpf: g.cpf(),
  cpfWithBadCheckDigit: g.cpfWithBadCheckDigit({ format: 'formatted' }),
  cnpj: g.cnpj({ variant: 'any' }),
  invalidCnpj: g.invalidCnpj(),
  pixKey: g.pixKey(),
  malformedPixKey: g.malformedPixKey(),
  validAmount: g.validAmount({ min: 100 }),
  boundaryAmount: g.boundaryAmount(100),
  boundaryText: g.boundaryText({ max: 140 }),
  billingAddress: g.billingAddress(),
  pixCustomer: g.pixCustomer(),
  cardCustomer: g.cardCustomer(),
  invalidPixCustomer: g.invalidPixCustomer(),
  invalidCardCustomer: g.invalidCardCustomer(),
  card: g.card(),
  rawCardInjection: g.rawCardInjection(),
  splitScenario: g.splitScenario({ recipientEmail: 'split@example.com' }),
  trackingParameters: g.trackingParameters(),
  trackingFallbackScenario: g.trackingFallbackScenario(),
  idempotencyScenario: g.idempotencyScenario(g.validAmount({ min: 1 }).map((amount) => ({ amount }))),
  validBody: g.validBody(schema, { overrides: { customer: g.pixCustomer() } }),
  singleRuleMutants: g.singleRuleMutants(schema, { overrides: { customer: g.pixCustomer() } }),
};

describe('determinism per seed', () => {
  for (const [name, arb] of Object.entries(arbitraries)) {
    test(name, () => {
      for (const seed of [1, 42, 20261122]) {
        const first = fc.sample(arb, { seed, numRuns: 15 });
        // Interleave another faker-driven generator: must not leak state into the next sample.
        fc.sample(g.cardCustomer(), { seed: seed + 1, numRuns: 3 });
        const second = fc.sample(arb, { seed, numRuns: 15 });
        expect(second).toEqual(first);
      }
    });
  }

  test('shrinking a customer keeps it valid (seed shrinks to 0: still complete)', () => {
    const out = fc.check(
      fc.property(g.cardCustomer(), (c) => c.name.length < 0),
      { seed: 3, numRuns: 5 },
    );
    expect(out.failed).toBe(true);
    const [shrunk] = out.counterexample as [g.CardCustomer];
    expect(shrunk.billingAddress.zipCode).toMatch(/^\d{8}$/);
    expect(g.isValidCpf(shrunk.document) || g.isValidCnpj(shrunk.document) || shrunk.document === '').toBe(true);
  });

  test('shrinking a bad-check-digit CPF keeps the check digit bad', () => {
    const out = fc.check(fc.property(g.cpfWithBadCheckDigit(), () => false), { seed: 9, numRuns: 5 });
    const [shrunk] = out.counterexample as [string];
    expect(g.isValidCpf(shrunk)).toBe(false);
    expect(shrunk).toMatch(/^\d{11}$/);
  });
});
