/**
 * Idempotency scenarios for operations keyed by an idempotency header.
 *
 * Contract:
 * - gateway POST /api/v1/pix/out/pixkey: "Required header x-idempotency-key: a unique value (UUID) per
 *   operation. Resending with the same key and body returns the original response and never
 *   duplicates the transfer. The same key with a different body gives 409 (IDEMPOTENCY_CONFLICT)."
 * - partner POST /v1/business/pix-charges: "Optional header Idempotency-Key (recommended)"; "same key
 *   and same body returns the original response without repeating the effect; same key with a
 *   different body gives 409; without the header every call creates a new record."
 * The header NAME differs per API (the suite's client picks it); this file only shapes the scenario.
 * "Different body" means different canonical JSON (key order ignored), so no scenario relies on an
 * implementation comparing bodies byte for byte.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type IdempotencyKind = 'replay-same-body' | 'same-key-different-body' | 'concurrent-same-key' | 'no-key';
export const IDEMPOTENCY_KINDS: readonly IdempotencyKind[] = ['replay-same-body', 'same-key-different-body', 'concurrent-same-key', 'no-key'];

export interface IdempotencyScenario<B> {
  kind: IdempotencyKind;
  /** The key to send; `undefined` for `no-key`. */
  key: string | undefined;
  /** Bodies to send in order (replays are deep copies of the first). */
  bodies: B[];
  /** For `concurrent-same-key`: how many identical requests to fire at once (= bodies.length). */
  concurrency?: number;
}

/** An idempotency key: a version-4 UUID. */
export function idempotencyKey(): Arbitrary<string> {
  return fc.uuid({ version: 4 });
}

/** JSON with object keys sorted, to compare bodies independently of key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
    }
    return v;
  });
}

function copy<B>(body: B): B {
  return structuredClone(body);
}

export interface IdempotencyOptions {
  kind?: IdempotencyKind | readonly IdempotencyKind[];
  /** Replays after the first call for `replay-same-body` / `no-key` (default 1..2). */
  maxReplays?: number;
  /** Upper bound for `concurrent-same-key` (default 8, minimum 2). */
  maxConcurrency?: number;
}

/**
 * An idempotency scenario over bodies from `body`. For `same-key-different-body`, `body` must be able
 * to produce two values with different canonical JSON (a constant arbitrary would never finish).
 */
export function idempotencyScenario<B>(body: Arbitrary<B>, options: IdempotencyOptions = {}): Arbitrary<IdempotencyScenario<B>> {
  const kinds = options.kind === undefined ? IDEMPOTENCY_KINDS : typeof options.kind === 'string' ? [options.kind] : options.kind;
  if (kinds.length === 0) throw new Error('generators.idempotencyScenario: kind list is empty');
  const maxReplays = options.maxReplays ?? 2;
  if (!Number.isSafeInteger(maxReplays) || maxReplays < 1) throw new Error(`generators.idempotencyScenario: maxReplays must be an integer >= 1, got ${String(maxReplays)}`);
  const maxConcurrency = options.maxConcurrency ?? 8;
  if (!Number.isSafeInteger(maxConcurrency) || maxConcurrency < 2) {
    throw new Error(`generators.idempotencyScenario: maxConcurrency must be an integer >= 2, got ${String(maxConcurrency)}`);
  }
  const repeat = (b: B, n: number): B[] => Array.from({ length: n }, () => copy(b));
  const arbs = kinds.map((kind): Arbitrary<IdempotencyScenario<B>> => {
    switch (kind) {
      case 'replay-same-body':
        return fc
          .tuple(idempotencyKey(), body, fc.integer({ min: 1, max: maxReplays }))
          .map(([key, b, n]) => ({ kind, key, bodies: repeat(b, n + 1) }));
      case 'same-key-different-body':
        return fc
          .tuple(idempotencyKey(), body, body)
          .filter(([, a, b]) => canonicalJson(a) !== canonicalJson(b))
          .map(([key, a, b]) => ({ kind, key, bodies: [a, b] }));
      case 'concurrent-same-key':
        return fc
          .tuple(idempotencyKey(), body, fc.integer({ min: 2, max: maxConcurrency }))
          .map(([key, b, n]) => ({ kind, key, bodies: repeat(b, n), concurrency: n }));
      case 'no-key':
        return fc
          .tuple(body, fc.integer({ min: 1, max: maxReplays }))
          .map(([b, n]) => ({ kind, key: undefined, bodies: repeat(b, n + 1) }));
      default:
        throw new Error(`generators.idempotencyScenario: unknown kind ${JSON.stringify(kind)}`);
    }
  });
  return arbs.length === 1 ? (arbs[0] as Arbitrary<IdempotencyScenario<B>>) : fc.oneof(...arbs);
}
