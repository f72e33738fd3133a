/**
 * Money representation.
 *
 * Contract (gateway-api.md, "What the service does"): "Money values are integers in cents (1050
 * means 10.50). The balance endpoint is the exception: it returns strings in reais with 2
 * decimals." Partner: "Money values are integers in cents."
 */
import type { Finding, Judgement } from './finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from './judgement.js';

/**
 * Verifies a balance value (`data.pix.balance`, `data.pixBlocked.balance`, `data.reserve.balance`):
 * "strings in reais with 2 decimals", i.e. a string matching `^-?\d+\.\d{2}$`. A number (even
 * `10.5` or `10.50` in JSON) is a failure: the text says strings. A negative sign is tolerated (the
 * contract does not say balances are non-negative).
 */
function verifyBalanceStringFinding(value: unknown, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the balance';
  if (typeof value === 'string' && /^-?\d+\.\d{2}$/.test(value)) return undefined;
  return makeFinding(ctx, {
    code: 'money.balance-string',
    title: `${subject} is not a string in reais with 2 decimals`,
    severity: 'failure',
    expected: 'a string in reais with exactly 2 decimals, e.g. "10.50" (pattern ^-?\\d+\\.\\d{2}$)',
    actual: typeof value === 'string' ? `string ${show(value)}` : `${kindOf(value)} ${show(value)}`,
  });
}

export interface IntegerCentsOptions {
  /** smallest allowed value (inclusive), when the contract states one for the field */
  min?: number;
}

/**
 * Verifies a money value in cents: a JSON integer ("Money values are integers in cents"), not a
 * string, not a fraction; at least `options.min` when given. Failure otherwise.
 */
function verifyIntegerCentsFinding(value: unknown, ctx: RuleContext, options: IntegerCentsOptions = {}): Finding | undefined {
  const subject = ctx.subject ?? 'the amount';
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    return makeFinding(ctx, {
      code: 'money.integer-cents',
      title: `${subject} is not an integer number of cents`,
      severity: 'failure',
      expected: 'a JSON integer in cents (1050 means 10.50)',
      actual: `${kindOf(value)} ${show(value)}`,
    });
  }
  if (options.min !== undefined && value < options.min) {
    return makeFinding(ctx, {
      code: 'money.minimum',
      title: `${subject} is below its minimum`,
      severity: 'failure',
      expected: `an integer ≥ ${options.min}`,
      actual: String(value),
    });
  }
  return undefined;
}

export function verifyBalanceString(value: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyBalanceStringFinding(value, ctx));
}

export function verifyIntegerCents(value: unknown, ctx: RuleContext, options: IntegerCentsOptions = {}): Judgement {
  return judge(ctx, verifyIntegerCentsFinding(value, ctx, options));
}
