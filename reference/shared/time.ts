/**
 * ISO 8601 timestamps as a personality writes them: fraction digits (none, milliseconds,
 * microseconds) and how the offset is written (`Z`, `+00:00`, or Brasília time `-03:00`). The
 * contracts say only "ISO 8601" (gateway, partner events and ledger) or "ISO 8601 UTC" (partner
 * charge timestamps).
 */
import type { Offset, TimestampPrecision } from '../personality.js';

export type { Offset };

export interface TimestampStyle {
  precision: TimestampPrecision;
  offset: Offset;
}

export const DEFAULT_TIMESTAMP: TimestampStyle = { precision: 'ms', offset: 'Z' };

/** The instant `at` (epoch ms, Date or an ISO string) in the given style. */
export function formatTimestamp(at: number | Date | string, style: TimestampStyle): string {
  const ms = typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) : at.getTime();
  const shiftMs = style.offset === '-03:00' ? -3 * 3_600_000 : 0;
  const iso = new Date(ms + shiftMs).toISOString(); // yyyy-mm-ddThh:mm:ss.sssZ
  const seconds = iso.slice(0, 19);
  const fraction = style.precision === 's' ? '' : style.precision === 'ms' ? iso.slice(19, 23) : `${iso.slice(19, 23)}000`;
  return `${seconds}${fraction}${style.offset}`;
}
