/**
 * Timestamps.
 *
 * Contract: gateway-api.md, PIX transfer: "createdAt, updatedAt, processedAt | string | ISO 8601
 * timestamps, on lookup"; Webhook: "createdAt | string | ISO 8601". partner-cashin-api.md, PIX
 * charge: "expires_at | string | ISO 8601 UTC", "created_at | string | ISO 8601 UTC"; finance
 * `created_at` and webhook `created_at`: "ISO 8601".
 */
import type { Finding, Judgement } from './finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from './judgement.js';

/** ISO 8601 extended date-time: date, `T`, hh:mm[:ss[.fff]], optional zone (Z, ±hh, ±hh:mm, ±hhmm). */
const EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** ISO 8601 basic date-time: `20261122T101500Z`. */
const BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?$/;
/** RFC 3339 allows a space instead of `T`; ISO 8601 does not. */
const SPACE_SEPARATED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;

export interface IsoParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** the zone designator as written, undefined when absent (local time) */
  zone?: string;
}

/** Parses an ISO 8601 date-time (extended or basic); undefined when it is not one or the date is impossible. */
export function parseIsoDateTime(text: string): IsoParts | undefined {
  const m = EXTENDED.exec(text) ?? BASIC.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  // 24:00 is ISO 8601's end of day; 60 seconds allows a leap second
  if (hour > 24 || minute > 59 || second > 60 || (hour === 24 && (minute !== 0 || second !== 0))) return undefined;
  const zone = m[7];
  if (zone !== undefined && zone !== 'Z') {
    const hh = Number(zone.slice(1, 3));
    const mm = zone.length > 3 ? Number(zone.slice(-2)) : 0;
    if (hh > 23 || mm > 59) return undefined;
  }
  const parts: IsoParts = { year, month, day, hour, minute, second };
  if (zone !== undefined) parts.zone = zone;
  return parts;
}

function notIso(value: unknown, ctx: RuleContext, subject: string, expected: string): Finding {
  const spaced = typeof value === 'string' && SPACE_SEPARATED.test(value) && parseIsoDateTime(value.replace(' ', 'T')) !== undefined;
  return makeFinding(ctx, {
    code: spaced ? 'time.space-separator' : 'time.iso8601',
    title: `${subject} is not an ISO 8601 date-time`,
    // "YYYY-MM-DD hh:mm:ss" is RFC 3339-valid and common; ISO 8601 requires the `T`: ambiguous enough to warn
    severity: spaced ? 'warning' : 'failure',
    expected,
    actual: typeof value === 'string' ? show(value) : `${kindOf(value)} ${show(value)}`,
  });
}

/**
 * Verifies an ISO 8601 date-time string (extended or basic format, a real calendar date). A value
 * without zone designator is valid ISO 8601 (local time) and passes: the text does not ask for a
 * zone here. A space instead of `T` (RFC 3339 style) is a warning; anything else is a failure.
 */
function verifyIsoTimestampFinding(value: unknown, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the timestamp';
  if (typeof value === 'string' && parseIsoDateTime(value)) return undefined;
  return notIso(value, ctx, subject, 'an ISO 8601 date-time string, e.g. "2026-11-22T10:15:00Z"');
}

/**
 * Verifies an "ISO 8601 UTC" timestamp (partner `expires_at`, `created_at`): an ISO 8601 date-time
 * whose zone is UTC: `Z`, `+00:00`, `+0000` or `+00`. No zone, or any other offset, is a failure
 * (`time.not-utc`); `-00:00` (RFC 3339's "offset unknown") is a warning.
 */
function verifyUtcTimestampFinding(value: unknown, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the timestamp';
  const expected = 'an ISO 8601 UTC date-time, e.g. "2026-11-22T10:15:00Z" (zone Z or +00:00)';
  if (typeof value !== 'string') return notIso(value, ctx, subject, expected);
  const parts = parseIsoDateTime(value);
  if (!parts) return notIso(value, ctx, subject, expected);
  const zone = parts.zone;
  if (zone === 'Z' || zone === '+00:00' || zone === '+0000' || zone === '+00') return undefined;
  const unknownOffset = zone === '-00:00' || zone === '-0000' || zone === '-00';
  return makeFinding(ctx, {
    code: 'time.not-utc',
    title: `${subject} is not in UTC`,
    severity: unknownOffset ? 'warning' : 'failure',
    expected,
    actual: zone === undefined ? `${show(value)} has no zone designator (local time)` : `${show(value)} has zone ${zone}`,
  });
}

export function verifyIsoTimestamp(value: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyIsoTimestampFinding(value, ctx));
}

export function verifyUtcTimestamp(value: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyUtcTimestampFinding(value, ctx));
}
