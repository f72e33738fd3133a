/**
 * Split lists around the 100 % sum.
 *
 * Contract (gateway-api.md, Split (PIX IN `splits[]`)): `email` — "e-mail of another company on the
 * platform"; `percentage` number — "sum over all entries must not exceed 100". Limits: "Sum of split
 * percentages: at most 100".
 *
 * Percentages are built from integer hundredths (1 = 0.01 %) so the intended sum is exact; each
 * percentage is `hundredths / 100`, the double closest to the decimal. A naive floating-point sum of
 * those doubles can land a hair above 100 (e.g. 33.33 + 33.33 + 33.34); such scenarios are valid by
 * the contract's arithmetic but carry `floatSumExceeds100: true`, so a check can report that an
 * implementation rejecting them uses binary floating point (a warning: the precision of `number` is
 * not stated).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export interface Split {
  email: string;
  percentage: number;
}

export type SplitScenarioKind =
  | 'exactly-100'
  | 'single-100'
  | 'many-summing-100'
  | 'under-100'
  | 'over-by-hundredth'
  | 'over-100';

export const SPLIT_SCENARIO_KINDS: readonly SplitScenarioKind[] = [
  'exactly-100',
  'single-100',
  'many-summing-100',
  'under-100',
  'over-by-hundredth',
  'over-100',
];

export interface SplitScenario {
  kind: SplitScenarioKind;
  /** By the contract: valid when the exact decimal sum is at most 100. */
  validity: 'valid' | 'invalid';
  splits: Split[];
  /** Exact sum in hundredths of a percent (10000 = 100 %). */
  totalHundredths: number;
  /** Each entry's percentage in hundredths (exact). */
  hundredths: number[];
  /** The left-to-right IEEE-754 sum of the percentages exceeds 100 although the exact sum does not. */
  floatSumExceeds100: boolean;
}

function fail(message: string): never {
  throw new Error(`generators.splits: ${message}`);
}

/**
 * `count` positive integers (hundredths) summing exactly to `total`, via `count − 1` distinct cut
 * points in (0, total). Shrinks towards small cut points.
 */
export function partitionHundredths(total: number, count: number): Arbitrary<number[]> {
  if (!Number.isSafeInteger(total) || total < 1) fail(`total must be a positive integer, got ${String(total)}`);
  if (!Number.isSafeInteger(count) || count < 1 || count > total) fail(`count must be in [1, ${total}], got ${String(count)}`);
  if (count === 1) return fc.constant([total]);
  return fc
    .uniqueArray(fc.integer({ min: 1, max: total - 1 }), { minLength: count - 1, maxLength: count - 1 })
    .map((cuts) => {
      const sorted = [...cuts].sort((a, b) => a - b);
      const bounds = [0, ...sorted, total];
      return bounds.slice(1).map((b, i) => b - (bounds[i] as number));
    });
}

function toScenario(kind: SplitScenarioKind, hundredths: number[], emails: readonly string[], pick: number[]): SplitScenario {
  const total = hundredths.reduce((s, h) => s + h, 0);
  const splits = hundredths.map((h, i) => ({ email: emails[(pick[i] ?? 0) % emails.length] as string, percentage: h / 100 }));
  const floatSum = splits.reduce((s, x) => s + x.percentage, 0);
  const validity = total <= 10000 ? 'valid' : 'invalid';
  return { kind, validity, splits, totalHundredths: total, hundredths, floatSumExceeds100: validity === 'valid' && floatSum > 100 };
}

export interface SplitScenarioOptions {
  /** Recipient e-mail(s): companies on the platform (e.g. the reference's `splitEmail`). */
  recipientEmail: string | readonly string[];
  /** Restrict to some scenario kinds; default all. */
  kind?: SplitScenarioKind | readonly SplitScenarioKind[];
  /** Upper bound on the number of entries for multi-entry scenarios (default 10, minimum 2). */
  maxEntries?: number;
}

/** A labelled split list around the 100 % boundary. */
export function splitScenario(options: SplitScenarioOptions): Arbitrary<SplitScenario> {
  const emails = typeof options.recipientEmail === 'string' ? [options.recipientEmail] : options.recipientEmail;
  if (emails.length === 0 || emails.some((e) => typeof e !== 'string' || e.length === 0)) fail('recipientEmail must be a non-empty e-mail or list of e-mails');
  const maxEntries = options.maxEntries ?? 10;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 2) fail(`maxEntries must be an integer >= 2, got ${String(maxEntries)}`);
  const kinds = options.kind === undefined ? SPLIT_SCENARIO_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) fail('kind list is empty');
  const picks = fc.array(fc.nat({ max: emails.length - 1 }), { minLength: maxEntries + 1, maxLength: maxEntries + 1 });
  const parts = (total: number, minCount: number, maxCount: number) =>
    fc.integer({ min: minCount, max: maxCount }).chain((n) => partitionHundredths(total, n));
  const arbs = kinds.map((kind): Arbitrary<SplitScenario> => {
    const of = (h: Arbitrary<number[]>) => fc.tuple(h, picks).map(([hs, p]) => toScenario(kind, hs, emails, p));
    switch (kind) {
      case 'exactly-100':
        return of(parts(10000, 2, Math.min(3, maxEntries)));
      case 'single-100':
        return of(fc.constant([10000]));
      case 'many-summing-100':
        return of(parts(10000, Math.min(4, maxEntries), maxEntries));
      case 'under-100':
        return of(fc.integer({ min: 1, max: 9999 }).chain((t) => parts(t, 1, Math.min(maxEntries, t))));
      case 'over-by-hundredth':
        // 100.01 in one entry, or spread over several.
        return of(parts(10001, 1, Math.min(3, maxEntries)));
      case 'over-100':
        return of(fc.integer({ min: 10002, max: 20000 }).chain((t) => parts(t, 2, maxEntries)));
      default:
        return fail(`unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<SplitScenario>) : fc.oneof(...arbs);
}
