// Self-tests of amounts, texts, splits, tracking, cards and idempotency generators.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isValidCreditCard } from '@brazilian-utils/brazilian-utils';
import {
  AMOUNT_MINIMUMS,
  SPLIT_SCENARIO_KINDS,
  TEXT_LIMITS,
  TRACKING_FIELDS,
  amountBelowMinimum,
  asciiText,
  asciiTextOverMax,
  boundaryAmount,
  boundaryAmounts,
  boundaryText,
  canonicalJson,
  card,
  cardToken,
  idempotencyScenario,
  invalidInstallments,
  multibyteText,
  partitionHundredths,
  rawCardInjection,
  splitScenario,
  trackingFallbackScenario,
  trackingParameters,
  trackingQueryString,
  validAmount,
} from '../generators/index.js';

const RUNS = { numRuns: 200 };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('amounts', () => {
  test('boundaryAmounts(100): the labelled set, tagged by the documented rule', () => {
    const set = boundaryAmounts(AMOUNT_MINIMUMS.gatewayPixCharge);
    const byLabel = Object.fromEntries(set.map((a) => [a.label, a]));
    expect(set.map((a) => a.label)).toEqual(['min-1', 'min', 'min+1', 'zero', 'negative', 'huge-max-safe-integer', 'huge-2^31', 'fractional', 'string', 'null']);
    expect(byLabel['min-1']).toMatchObject({ value: 99, validity: 'invalid' });
    expect(byLabel['min']).toMatchObject({ value: 100, validity: 'valid' });
    expect(byLabel['min+1']).toMatchObject({ value: 101, validity: 'valid' });
    expect(byLabel['zero']).toMatchObject({ value: 0, validity: 'invalid' });
    expect(byLabel['negative']?.validity).toBe('invalid');
    expect(byLabel['huge-max-safe-integer']).toMatchObject({ value: Number.MAX_SAFE_INTEGER, validity: 'unspecified' });
    expect(byLabel['huge-2^31']).toMatchObject({ value: 2147483648, validity: 'unspecified' });
    expect(byLabel['fractional']).toMatchObject({ value: 100.5, validity: 'invalid' });
    expect(byLabel['string']).toMatchObject({ value: '100', validity: 'invalid' });
    expect(byLabel['null']).toMatchObject({ value: null, validity: 'invalid' });
  });

  test('every boundary set is consistent with "integer, minimum N" and never calls a huge amount invalid', () => {
    for (const min of Object.values(AMOUNT_MINIMUMS)) {
      const set = boundaryAmounts(min);
      expect(new Set(set.map((a) => JSON.stringify(a.value))).size).toBe(set.length);
      for (const a of set) {
        if (a.label.startsWith('huge')) {
          expect(a.validity).toBe('unspecified');
          continue;
        }
        const ok = typeof a.value === 'number' && Number.isInteger(a.value) && a.value >= min;
        expect(a.validity).toBe(ok ? 'valid' : 'invalid');
      }
    }
    // min 1: min−1 and zero coincide and appear once.
    expect(boundaryAmounts(1).filter((a) => a.value === 0).map((a) => a.label)).toEqual(['min-1']);
  });

  test('validAmount / amountBelowMinimum / boundaryAmount', () => {
    fc.assert(
      fc.property(validAmount({ min: 100 }), amountBelowMinimum({ min: 100 }), (ok, bad) => {
        expect(Number.isInteger(ok) && ok >= 100).toBe(true);
        expect(Number.isInteger(bad) && bad < 100).toBe(true);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(boundaryAmount(1, { validity: ['valid'] }), (a) => {
        expect(a.validity).toBe('valid');
      }),
      { numRuns: 50 },
    );
    expect(() => validAmount({ min: 1.5 })).toThrow(/^generators\.validAmount:/);
    expect(() => validAmount({ min: 10, max: 5 })).toThrow(/^generators\.validAmount:/);
    expect(() => boundaryAmounts(Number.NaN)).toThrow(/^generators\.boundaryAmounts:/);
  });
});

describe('texts', () => {
  test('boundaryText lengths match their labels for every documented maximum', () => {
    for (const max of Object.values(TEXT_LIMITS)) {
      fc.assert(
        fc.property(boundaryText({ max }), (t) => {
          const cp = [...t.value].length;
          const ascii = /^[\x20-\x7e]*$/.test(t.value);
          expect(t.lengths.codePoints).toBe(cp);
          expect(t.lengths.utf16Units).toBe(t.value.length);
          expect(t.lengths.utf8Bytes).toBe(new TextEncoder().encode(t.value).length);
          if (!ascii) expect(t.validity).toBe('ambiguous');
          if (ascii) expect(t.validity).toBe(cp <= max ? 'valid' : 'invalid');
          switch (t.label) {
            case 'empty':
              expect(t.value).toBe('');
              break;
            case 'ascii-at-max':
              expect(cp).toBe(max);
              break;
            case 'ascii-over-max':
              expect(cp).toBe(max + 1);
              break;
            case 'accented-at-max':
              expect(cp).toBe(max);
              expect(t.value.length).toBe(max);
              break;
            case 'emoji-at-max-code-points':
              expect(cp).toBe(max);
              expect(t.value.length).toBe(2 * max);
              break;
            case 'emoji-at-max-utf16-units':
              expect(t.value.length).toBe(max);
              break;
            case 'combining-at-max-graphemes':
              expect(cp).toBe(2 * max);
              break;
            default:
              break;
          }
        }),
        { numRuns: 60 },
      );
    }
  });

  test('asciiText / asciiTextOverMax / multibyteText', () => {
    fc.assert(
      fc.property(asciiText({ max: 140 }), asciiTextOverMax({ max: 140 }), multibyteText({ maxCodePoints: 20 }), (a, over, mb) => {
        expect(a.length).toBeLessThanOrEqual(140);
        expect(over.length).toBeGreaterThan(140);
        expect([...mb].length).toBeLessThanOrEqual(20);
      }),
      RUNS,
    );
    expect(() => boundaryText({ max: 0 })).toThrow(/^generators\.boundaryText:/);
  });
});

describe('splits', () => {
  test('each scenario sums exactly as labelled (integer hundredths) and is tagged by "at most 100"', () => {
    const emails = ['a@example.com', 'b@example.com'];
    fc.assert(
      fc.property(splitScenario({ recipientEmail: emails }), (s) => {
        // Independent arithmetic: BigInt hundredths recovered from the sent percentages.
        const sent = s.splits.map((x) => BigInt(Math.round(x.percentage * 100)));
        const total = sent.reduce((a, b) => a + b, 0n);
        expect(total).toBe(BigInt(s.totalHundredths));
        expect(s.splits.every((x) => x.percentage > 0 && emails.includes(x.email))).toBe(true);
        expect(s.splits.every((x) => Math.round(x.percentage * 100) / 100 === x.percentage)).toBe(true);
        expect(s.validity).toBe(total <= 10000n ? 'valid' : 'invalid');
        switch (s.kind) {
          case 'exactly-100':
          case 'many-summing-100':
            expect(total).toBe(10000n);
            break;
          case 'single-100':
            expect(s.splits).toEqual([{ email: expect.any(String), percentage: 100 }]);
            break;
          case 'under-100':
            expect(total < 10000n).toBe(true);
            break;
          case 'over-by-hundredth':
            expect(total).toBe(10001n);
            break;
          case 'over-100':
            expect(total > 10001n).toBe(true);
            break;
        }
        const floatSum = s.splits.reduce((a, x) => a + x.percentage, 0);
        expect(s.floatSumExceeds100).toBe(s.validity === 'valid' && floatSum > 100);
      }),
      { numRuns: 300 },
    );
    const kinds = new Set(fc.sample(splitScenario({ recipientEmail: 'x@example.com' }), { seed: 5, numRuns: 200 }).map((s) => s.kind));
    expect([...kinds].sort()).toEqual([...SPLIT_SCENARIO_KINDS].sort());
  });

  test('partitionHundredths and constraints', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20000 }).chain((t) => fc.tuple(fc.constant(t), fc.integer({ min: 1, max: Math.min(t, 12) }))).chain(([t, n]) => partitionHundredths(t, n).map((p) => [t, n, p] as const)), ([t, n, p]) => {
        expect(p.length).toBe(n);
        expect(p.reduce((a, b) => a + b, 0)).toBe(t);
        expect(p.every((x) => Number.isInteger(x) && x >= 1)).toBe(true);
      }),
      RUNS,
    );
    expect(() => splitScenario({ recipientEmail: [] })).toThrow(/^generators\.splits:/);
    expect(() => partitionHundredths(5, 6)).toThrow(/^generators\.splits:/);
  });
});

describe('tracking', () => {
  test('trackingParameters: only the seven documented names, string values', () => {
    fc.assert(
      fc.property(trackingParameters(), trackingParameters({ fields: 'all' }), (some, all) => {
        for (const [k, v] of Object.entries(some)) {
          expect(TRACKING_FIELDS).toContain(k);
          expect(typeof v).toBe('string');
        }
        expect(Object.keys(all).sort()).toEqual([...TRACKING_FIELDS].sort());
        const q = new URLSearchParams(trackingQueryString(all));
        for (const f of TRACKING_FIELDS) expect(q.get(f)).toBe(all[f]);
      }),
      RUNS,
    );
  });

  test('fallback scenarios: body wins, missing fields come from a query, never a precedence conflict', () => {
    fc.assert(
      fc.property(trackingFallbackScenario(), (s) => {
        for (const f of TRACKING_FIELDS) {
          const o = s.originQuery[f];
          const p = s.postbackQuery[f];
          if (s.body[f] === undefined && o !== undefined && p !== undefined) expect(o).toBe(p);
          expect(s.expected[f]).toBe(s.body[f] ?? o ?? p);
        }
      }),
      RUNS,
    );
  });
});

describe('cards', () => {
  test('tokens: ctoken_ prefix; decline tokens contain "decline", approved ones never', () => {
    fc.assert(
      fc.property(cardToken(), cardToken({ outcome: 'declined' }), (ok, declined) => {
        expect(ok.startsWith('ctoken_')).toBe(true);
        expect(/decline/i.test(ok)).toBe(false);
        expect(declined.startsWith('ctoken_')).toBe(true);
        expect(declined.includes('decline')).toBe(true);
      }),
      RUNS,
    );
    expect(() => cardToken({ outcome: 'maybe' as never })).toThrow(/^generators\.cardToken:/);
  });

  test('card(): required fields are strings, installments ≥ 1 when present; invalid installments < 1', () => {
    fc.assert(
      fc.property(card(), invalidInstallments(), (c, bad) => {
        for (const k of ['token', 'last4', 'brand', 'holderName'] as const) {
          expect(typeof c[k]).toBe('string');
          expect(c[k].length).toBeGreaterThan(0);
        }
        if (c.installments !== undefined) expect(Number.isInteger(c.installments) && c.installments >= 1).toBe(true);
        expect(bad).toBeLessThan(1);
      }),
      RUNS,
    );
  });

  test('raw card injections carry plausible (Luhn-valid) PANs and say what they inject', () => {
    fc.assert(
      fc.property(rawCardInjection(), (r) => {
        expect('token' in r.card).toBe(r.tokenPresent);
        for (const [k, v] of Object.entries(r.injected)) expect(r.card[k]).toBe(v);
        if (typeof r.injected.number === 'string') expect(isValidCreditCard(r.injected.number)).toBe(true);
        if (typeof r.injected.cvv === 'string') expect(r.injected.cvv).toMatch(/^\d{3,4}$/);
        if (typeof r.injected.expiry === 'string') expect(r.injected.expiry).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
        if (r.kind === 'card.expMonth+expYear') expect(r.card).toHaveProperty('expMonth');
      }),
      RUNS,
    );
  });
});

describe('idempotency', () => {
  const body = fc.record({ pixKey: fc.string({ minLength: 1, maxLength: 5 }), amount: fc.integer({ min: 1, max: 1000 }) });
  test('scenarios are what their kind says', () => {
    fc.assert(
      fc.property(idempotencyScenario(body), (s) => {
        if (s.kind === 'no-key') expect(s.key).toBeUndefined();
        else expect(s.key).toMatch(UUID_V4);
        switch (s.kind) {
          case 'replay-same-body':
          case 'no-key':
            expect(s.bodies.length).toBeGreaterThanOrEqual(2);
            for (const b of s.bodies) expect(b).toEqual(s.bodies[0]);
            expect(s.bodies[1]).not.toBe(s.bodies[0]);
            break;
          case 'same-key-different-body':
            expect(s.bodies).toHaveLength(2);
            expect(canonicalJson(s.bodies[0])).not.toBe(canonicalJson(s.bodies[1]));
            break;
          case 'concurrent-same-key':
            expect(s.concurrency).toBe(s.bodies.length);
            expect(s.bodies.length).toBeGreaterThanOrEqual(2);
            for (const b of s.bodies) expect(b).toEqual(s.bodies[0]);
            break;
        }
      }),
      RUNS,
    );
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe(canonicalJson({ a: { c: 2, d: 1 }, b: 1 }));
    expect(() => idempotencyScenario(body, { maxConcurrency: 1 })).toThrow(/^generators\.idempotencyScenario:/);
  });
});
