/**
 * When a check's outcome says nothing about the target: the "inconclusive" verdict.
 *
 * A check is inconclusive when, before it found anything the target itself got wrong,
 * - a request got no HTTP answer (DNS, TLS, refused/reset connection, our timeout, a proxy), or
 * - a gateway token could not be had (`POST /api/auth` failed: the check never reached its routes), or
 * - it ran out of its own time limit.
 * Those are the certifier's network, credentials or patience, not conformance. A finding about an
 * answer the target did give stays the target's: a 5xx is always a failure, and so is any failure
 * recorded about exchanges made before the first request that went unanswered (later ones may be
 * consequences of the missing answer: a charge never created, then "not found").
 */
import type { Exchange } from '../core/exchange.js';
import type { Finding } from '../rules/finding.js';
import { InconclusiveError, unreachableCause } from '../http/transport.js';

/** Exchanges that got no HTTP response at all. */
export function unanswered(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.filter((e) => e.response === undefined);
}

function isAuthFailure(error: unknown): error is Error & { exchange: Exchange } {
  return error instanceof Error && (error as { code?: unknown }).code === 'auth.failed' && typeof (error as { exchange?: unknown }).exchange === 'object';
}

/**
 * The cause that makes a check inconclusive, or undefined: `error` is what the check's body threw
 * (undefined when it returned), `exchanges` everything it sent.
 */
export function inconclusiveCause(exchanges: readonly Exchange[], error?: unknown): string | undefined {
  if (error instanceof InconclusiveError) return error.message;
  // harness/http/burst.ts could not open its connections: the same network trouble
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (code === 'burst.connect' || code === 'burst.connect-timeout') return (error as Error).message;
  if (isAuthFailure(error)) {
    const ex = error.exchange;
    if (ex.response === undefined) return `the gateway token could not be had: ${unreachableCause(ex)}`;
    return `the gateway token could not be had (${error.message}): check GATEWAY_CLIENT_ID/GATEWAY_CLIENT_SECRET`;
  }
  const silent = unanswered(exchanges);
  const firstSilent = silent[0];
  if (firstSilent === undefined) return undefined;
  const more = silent.length > 1 ? ` (and ${silent.length - 1} more request(s) without an answer)` : '';
  return `${unreachableCause(firstSilent)}${more}`;
}

/**
 * The failures that stand although the check is otherwise inconclusive: any 5xx, and failures
 * whose exchanges all got an answer before the first unanswered request.
 */
export function standingFailures(failures: readonly Finding[], exchanges: readonly Exchange[]): Finding[] {
  const firstSilent = unanswered(exchanges)[0]?.seq ?? Number.POSITIVE_INFINITY;
  return failures.filter(
    (f) =>
      f.code === 'target.5xx' ||
      (f.exchanges.length > 0 && f.exchanges.every((e) => e.response !== undefined && e.seq < firstSilent)),
  );
}

/** What a check found and sent, as {@link settleInconclusive} reads it. */
export interface SettlingRun {
  readonly exchanges: readonly Exchange[];
  readonly failures: readonly Finding[];
}

/** How a check that may have been cut off ends: see {@link settleInconclusive}. */
export interface Settlement {
  /** the cause, when the check is inconclusive (no failure stands) */
  inconclusive?: string;
  /** the failures that stand */
  failures: Finding[];
  /** what could not be judged, and why the check stopped early */
  notes: string[];
}

/**
 * The end of a check: its inconclusive cause (`cause`, what its body threw, else an unanswered
 * request, else its time limit `outOfTimeMs` when it found nothing), or none. When there is one,
 * the failures that do not stand are not judged (each becomes a note); if some stand, the check
 * fails on them and the cause is only noted. Pure: the run is read, never changed.
 */
export function settleInconclusive(run: SettlingRun, cause: string | undefined, outOfTimeMs?: number): Settlement {
  let reason = cause ?? inconclusiveCause(run.exchanges);
  if (reason === undefined && outOfTimeMs !== undefined && run.failures.length === 0) {
    const silent = unanswered(run.exchanges).length;
    reason =
      `the check did not finish within ${outOfTimeMs / 1000} s (${run.exchanges.length} request(s), ${silent} without a response): ` +
      'the target is too slow or stopped answering; raise PAYGATE_TEST_TIMEOUT_MS if it is only slow';
  }
  if (reason === undefined) return { failures: [...run.failures], notes: [] };
  // what the target did answer wrongly before the network failed stays its finding
  const standing = standingFailures(run.failures, run.exchanges);
  const notes = run.failures.filter((f) => !standing.includes(f)).map((f) => `not judged (${f.code}: ${f.title}): ${reason}`);
  if (standing.length === 0) return { inconclusive: reason, failures: [], notes };
  return { failures: standing, notes: [...notes, `stopped early, inconclusive beyond the findings above: ${reason}`] };
}
