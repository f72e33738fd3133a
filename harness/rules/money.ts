/**
 * Money representation: what a money value is (facts); the rules of the contract sections that
 * state a money column (gateway `fees`, `amount`, balance buckets; partner `amount_cents`,
 * `available_cents`…) judge with these readers under their own codes.
 *
 * Contract (gateway-api.md, "What the service does"): "Money values are integers in cents (1050
 * means 10.50). The balance endpoint is the exception: it returns strings in reais with 2
 * decimals." Partner: "Money values are integers in cents."
 */
import { kindOf, show } from './judgement.js';
import type { Problem } from './identifiers.js';

/**
 * Why a value is not a money value in cents ("Money values are integers in cents"): a JSON integer,
 * not a string, not a fraction (`integer-cents`); at least `min` when the contract states one for
 * the field (`minimum`). Undefined when it is one.
 */
export function integerCentsProblem(value: unknown, options: { min?: number; subject?: string } = {}): Problem<'integer-cents' | 'minimum'> | undefined {
  const subject = options.subject ?? 'the amount';
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    return { kind: 'integer-cents', title: `${subject} is not an integer number of cents`, expected: 'a JSON integer in cents (1050 means 10.50)', actual: `${kindOf(value)} ${show(value)}` };
  }
  if (options.min !== undefined && value < options.min) return { kind: 'minimum', title: `${subject} is below its minimum`, expected: `an integer ≥ ${options.min}`, actual: String(value) };
  return undefined;
}

/**
 * Why a balance value is not "strings in reais with 2 decimals": a string matching `^-?\d+\.\d{2}$`.
 * A number (even `10.5` or `10.50` in JSON) is not: the text says strings. A negative sign is
 * tolerated (the contract does not say balances are non-negative). Undefined when it is one.
 */
export function reaisStringProblem(value: unknown, subject = 'the balance'): Problem<'balance-string'> | undefined {
  if (typeof value === 'string' && /^-?\d+\.\d{2}$/.test(value)) return undefined;
  return {
    kind: 'balance-string',
    title: `${subject} is not a string in reais with 2 decimals`,
    expected: 'a string in reais with exactly 2 decimals, e.g. "10.50" (pattern ^-?\\d+\\.\\d{2}$)',
    actual: typeof value === 'string' ? `string ${show(value)}` : `${kindOf(value)} ${show(value)}`,
  };
}
