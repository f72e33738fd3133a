/**
 * How an error text may name a field, shared by the two APIs' "points to the field" rules (gateway
 * "422 | validation failure; message points to the field", partner "422 | invalid request body;
 * detail points to the field"). Neither document says how the text points, so every common spelling
 * of the name counts.
 */
import { isRecord } from '../core/json.js';

/** The spellings under which a message may name a field: `amount_cents` ~ `amountCents` ~ `amount cents`; a dotted path also by its last segment. */
export function fieldNameVariants(field: string): string[] {
  const variants = new Set<string>();
  const add = (name: string): void => {
    if (name === '') return;
    variants.add(name);
    variants.add(name.replace(/_([a-z0-9])/gi, (_m, c: string) => c.toUpperCase()));
    variants.add(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
    variants.add(name.replace(/_/g, ' '));
    variants.add(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());
  };
  add(field);
  const segments = field.split(/[.[\]/]+/).filter((s) => s !== '' && !/^\d+$/.test(s));
  const lastSegment = segments[segments.length - 1];
  if (lastSegment !== undefined) add(lastSegment);
  return [...variants];
}

/**
 * True when the text under `key` of an error body names `field` (case-insensitive, in any spelling of
 * {@link fieldNameVariants}); a structured text (a list, a field map) is searched as JSON.
 */
export function bodyNamesField(json: unknown, key: string, field: string): boolean {
  const raw = isRecord(json) ? json[key] : undefined;
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : (JSON.stringify(raw) ?? '');
  const haystack = text.toLowerCase();
  return text !== '' && fieldNameVariants(field).some((variant) => haystack.includes(variant.toLowerCase()));
}
