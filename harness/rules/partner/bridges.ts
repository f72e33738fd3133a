/**
 * MIGRATION ONLY: the domain oracles the partner rules apply to a part of their observation (an ISO
 * 8601 timestamp, an integer number of cents) are still
 * old-style functions of other modules (harness/rules/time.ts, money.ts). Each bridge
 * wraps one of them as a rule with no requirement of its own: the partner rule that applies it (in
 * its `uses`) owns the sentence and names it in the observation, so the finding names that sentence.
 * They go once those modules declare their rules.
 */
import type { RequirementId } from '../finding.js';
import { legacyRule } from '../rule.js';
import { verifyIsoTimestamp } from '../time.js';
import { verifyIntegerCents } from '../money.js';

/** A value some partner rule judges with a domain oracle, and where it sits. */
export interface OraclePart {
  value: unknown;
  /** the sentence of the rule applying the oracle (its own requirements) */
  requirements: readonly RequirementId[];
  /** JSON pointer of the value in the body */
  pointer: string;
  /** the value's name in finding texts */
  subject: string;
}

/** "ISO 8601" (a posting's or an event's `created_at`): any ISO 8601 date-time form. */
export const checkIsoTimestampPart = legacyRule('checkIsoTimestampPart', [], (part: OraclePart) =>
  verifyIsoTimestamp(part.value, { requirements: part.requirements, pointer: part.pointer, subject: part.subject }),
);

/** "Money values are integers in cents": a JSON integer. */
export const checkIntegerCentsPart = legacyRule('checkIntegerCentsPart', [], (part: OraclePart) =>
  verifyIntegerCents(part.value, { requirements: part.requirements, pointer: part.pointer, subject: part.subject }),
);
