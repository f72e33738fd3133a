/**
 * Timestamps: the ISO 8601 reader (facts) and the rule of the rows that state a timestamp format.
 *
 * Contract: gateway-api.md, PIX transfer: "createdAt, updatedAt, processedAt | string | ISO 8601
 * timestamps, on lookup"; Webhook: "createdAt | string | ISO 8601". partner-cashin-api.md, PIX
 * charge: "expires_at | string | ISO 8601 UTC", "created_at | string | ISO 8601 UTC"; finance
 * `created_at` and webhook `created_at`: "ISO 8601".
 */
import type { Exchange } from '../core/exchange.js';
import type { RequirementId } from '../core/requirement-ids.js';
import { kindOf, show } from './judgement.js';
import { defineRule, type FindingDraft } from './rule.js';

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

/**
 * What is wrong with a timestamp:
 * - `iso8601`: not an ISO 8601 date-time (extended or basic format, a real calendar date);
 * - `space-separator`: "YYYY-MM-DD hh:mm…", RFC 3339-valid and common, where ISO 8601 requires
 *   the `T`: ambiguous enough to warn;
 * - `not-utc` (only when UTC is asked): no zone (local time) or an offset other than `Z`,
 *   `+00:00`, `+0000`, `+00`;
 * - `unknown-offset` (only when UTC is asked): `-00:00`, RFC 3339's "offset unknown": a warning.
 * A value without zone designator is valid ISO 8601 (local time): only "UTC" asks for a zone.
 */
export type TimestampProblemKind = 'iso8601' | 'space-separator' | 'not-utc' | 'unknown-offset';

export interface TimestampProblem extends Pick<FindingDraft, 'title' | 'expected' | 'actual'> {
  kind: TimestampProblemKind;
}

/** Why `value` is no ISO 8601 (UTC, when `utc`) timestamp, or undefined when it is one. */
export function timestampProblem(value: unknown, options: { utc?: boolean; subject?: string } = {}): TimestampProblem | undefined {
  const subject = options.subject ?? 'the timestamp';
  const expected = options.utc ? 'an ISO 8601 UTC date-time, e.g. "2026-11-22T10:15:00Z" (zone Z or +00:00)' : 'an ISO 8601 date-time string, e.g. "2026-11-22T10:15:00Z"';
  const parts = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
  if (!parts) {
    const spaced = typeof value === 'string' && SPACE_SEPARATED.test(value) && parseIsoDateTime(value.replace(' ', 'T')) !== undefined;
    return { kind: spaced ? 'space-separator' : 'iso8601', title: `${subject} is not an ISO 8601 date-time`, expected, actual: typeof value === 'string' ? show(value) : `${kindOf(value)} ${show(value)}` };
  }
  if (!options.utc) return undefined;
  const zone = parts.zone;
  if (zone === 'Z' || zone === '+00:00' || zone === '+0000' || zone === '+00') return undefined;
  const unknownOffset = zone === '-00:00' || zone === '-0000' || zone === '-00';
  return {
    kind: unknownOffset ? 'unknown-offset' : 'not-utc',
    title: `${subject} is not in UTC`,
    expected,
    actual: zone === undefined ? `${show(value)} has no zone designator (local time)` : `${show(value)} has zone ${zone}${unknownOffset ? ' ("offset unknown" in RFC 3339)' : ''}`,
  };
}

/**
 * The instant an ISO 8601 date-time names (milliseconds since the epoch), or undefined when it names
 * none: not a date-time, no zone designator (local time) or `-00:00` (RFC 3339's "offset unknown").
 */
export function instantOf(value: unknown): number | undefined {
  const parts = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
  if (!parts || parts.zone === undefined || /^-00(?::?00)?$/.test(parts.zone)) return undefined;
  const zone = parts.zone === 'Z' ? 0 : (parts.zone.startsWith('-') ? -1 : 1) * (Number(parts.zone.slice(1, 3)) * 60 + (parts.zone.length > 3 ? Number(parts.zone.slice(-2)) : 0));
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, Math.min(parts.second, 59)) - zone * 60_000;
}

/**
 * How the service's own clocks may disagree: a timestamp it writes against the Date header of the
 * answer that shows it (whole seconds, another machine's clock). A time-zone mistake is hours.
 */
export const CLOCK_TOLERANCE_MS = 15 * 60_000;

/**
 * How far a timestamp lies after the answer that shows it, by the service's own clock (the answer's
 * Date header), in milliseconds; undefined when the answer carries no Date or the value names no
 * instant. A resource's createdAt, updatedAt or processedAt cannot name a time after an answer that
 * already shows it, whatever zone it is written in: more than {@link CLOCK_TOLERANCE_MS} ahead is a
 * time-zone offset applied the wrong way (e.g. 15:00-03:00 written for 12:00 UTC).
 */
export function aheadOfAnswer(value: unknown, exchange: Exchange | undefined): number | undefined {
  const date = exchange?.response?.headers['date'];
  const answered = date === undefined ? Number.NaN : Date.parse(date);
  const instant = instantOf(value);
  if (Number.isNaN(answered) || instant === undefined) return undefined;
  return instant - answered;
}

/** A finding draft for a timestamp after the answer showing it (see {@link aheadOfAnswer}), or undefined. */
export function futureStampProblem(value: unknown, exchange: Exchange | undefined, subject: string): Pick<FindingDraft, 'title' | 'expected' | 'actual'> | undefined {
  const ahead = aheadOfAnswer(value, exchange);
  if (ahead === undefined || ahead <= CLOCK_TOLERANCE_MS) return undefined;
  return {
    title: `${subject} names a time after the answer that shows it`,
    expected: `an instant no later than the answer's Date (${exchange?.response?.headers['date'] ?? ''}), give or take ${CLOCK_TOLERANCE_MS / 60_000} minutes of clock drift, in any zone`,
    actual: `${show(value)}: ${(ahead / 3_600_000).toFixed(2)} hours after it (a zone offset applied the wrong way?)`,
  };
}

/** The rows whose sentence is a timestamp format, and whether the row says UTC. */
const TIMESTAMP_ROWS = {
  /** partner "PIX charge": "expires_at | string | ISO 8601 UTC", "created_at | string | ISO 8601 UTC" */
  'partner-charge': { requirement: 'PT-CHARGE-TIMESTAMPS-UTC', utc: true },
  /** gateway "Webhook": "createdAt | string | ISO 8601" */
  'gateway-webhook': { requirement: 'GW-WH-CREATED-AT-ISO', utc: false },
} as const satisfies Record<string, { requirement: RequirementId; utc: boolean }>;

export type TimestampRow = keyof typeof TIMESTAMP_ROWS;

/**
 * The rows of the contract that state a timestamp format (a table: each observation names its
 * row): every field the observation shows is an ISO 8601 date-time (any form: extended or basic,
 * fractions, any zone), in UTC where the row says so. Codes: {@link timestampProblem}'s kinds.
 */
export const writeIsoTimestamps = defineRule({
  name: 'writeIsoTimestamps',
  requirements: Object.values(TIMESTAMP_ROWS).map((r) => r.requirement),
  codes: { 'time.iso8601': 'failure', 'time.space-separator': 'warning', 'time.not-utc': 'failure', 'time.unknown-offset': 'warning' },
  judge(observation: { row: TimestampRow; fields: Readonly<Record<string, unknown>>; exchange?: Exchange; pointerBase?: string }, v) {
    const row = TIMESTAMP_ROWS[observation.row];
    v.decides(row.requirement);
    v.shows(observation.exchange);
    const base = observation.pointerBase ?? '';
    for (const [field, value] of Object.entries(observation.fields)) {
      const problem = timestampProblem(value, { utc: row.utc, subject: `${base.slice(1).replace(/\//g, '.')}${base ? '.' : ''}${field}` });
      if (problem) v.find(`time.${problem.kind}`, { title: problem.title, expected: problem.expected, actual: problem.actual, pointer: `${base}/${field}` });
    }
  },
});
