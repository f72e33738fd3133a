/**
 * Resource fields shared by several gateway routes (gateway-api.md "Resources and their fields").
 */
import type { Judgement } from '../finding.js';
import { judge, type RuleContext } from '../judgement.js';
import { verifyIsoTimestamp } from '../time.js';

/**
 * An ISO 8601 timestamp field that may be absent or null until an event happens (e.g. a transfer's
 * `processedAt` before completion: "not shown" until then). Absent or null conforms; present, it is
 * judged by {@link verifyIsoTimestamp} ("createdAt … ISO 8601").
 */
export function verifyIsoTimestampIfPresent(value: unknown, ctx: RuleContext): Judgement {
  if (value === undefined || value === null) return judge(ctx);
  return verifyIsoTimestamp(value, ctx);
}
