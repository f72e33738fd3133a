/**
 * Duplicate deliveries. Both documents allow them: gateway "The same event id can arrive more than
 * once; processing is idempotent by event id or `endToEndId`"; partner "The same event id can arrive
 * more than once". So a duplicate is tolerated, counted and reported — never a finding by itself.
 */
import type { Delivery } from './types.js';

export interface UniqueEvent {
  id: string;
  /** the first delivery of this event (lowest seq) */
  first: Delivery;
  /** every delivery of this event, oldest first */
  deliveries: Delivery[];
  /** how many times it arrived */
  count: number;
}

export interface DeliverySummary {
  /** one entry per event id, in order of first arrival */
  unique: UniqueEvent[];
  /** events that arrived more than once, with their counts */
  duplicates: Array<{ id: string; count: number }>;
  /** total extra deliveries (sum of count − 1) */
  duplicateCount: number;
  /** deliveries `idOf` found no id in (e.g. a body that is not JSON) */
  withoutId: Delivery[];
}

/** `idOf` for both APIs' payloads: the top-level string `id` of the JSON body. */
export function eventIdOf(d: Delivery): string | undefined {
  const json = d.json;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const id = (json as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** Groups deliveries by event id (`idOf`, default {@link eventIdOf}), counting duplicates. */
export function summarizeDeliveries(deliveries: readonly Delivery[], idOf: (d: Delivery) => string | undefined = eventIdOf): DeliverySummary {
  const byId = new Map<string, UniqueEvent>();
  const withoutId: Delivery[] = [];
  for (const d of [...deliveries].sort((a, b) => a.seq - b.seq)) {
    const id = idOf(d);
    if (id === undefined) {
      withoutId.push(d);
      continue;
    }
    const entry = byId.get(id);
    if (entry) {
      entry.deliveries.push(d);
      entry.count += 1;
    } else {
      byId.set(id, { id, first: d, deliveries: [d], count: 1 });
    }
  }
  const unique = [...byId.values()];
  const duplicates = unique.filter((u) => u.count > 1).map((u) => ({ id: u.id, count: u.count }));
  return { unique, duplicates, duplicateCount: duplicates.reduce((n, d) => n + d.count - 1, 0), withoutId };
}
