/**
 * The partner redelivery timers the suite judges against. partner-cashin-api.md "Events":
 * "exponential backoff doubling per attempt with a cap of 5 minutes, 10 s timeout per call."
 *
 * A test sandbox may run these timers compressed (the embedded reference does so under
 * REFERENCE_PARTNER_RETRY_CAP_MS / REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS). The operator then says
 * so with PAYGATE_PARTNER_RETRY_CAP_MS / PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS and the suite judges
 * gaps against the shorter values and waits less. A value can only shorten the contract's timer:
 * a larger or invalid one is ignored, so no setting makes the suite more lenient than the contract.
 */
export const CONTRACT_RETRY_CAP_MS = 300_000;
export const CONTRACT_CALL_TIMEOUT_MS = 10_000;

export interface RedeliveryTimers {
  /** the longest backoff between two attempts */
  capMs: number;
  /** the per-call timeout */
  callTimeoutMs: number;
  /** true when either value was shortened by configuration */
  compressed: boolean;
}

function shortened(value: string | undefined, contractMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 && n < contractMs ? n : undefined;
}

export function redeliveryTimers(env: NodeJS.ProcessEnv = process.env): RedeliveryTimers {
  const cap = shortened(env['PAYGATE_PARTNER_RETRY_CAP_MS'], CONTRACT_RETRY_CAP_MS);
  const timeout = shortened(env['PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS'], CONTRACT_CALL_TIMEOUT_MS);
  return {
    capMs: cap ?? CONTRACT_RETRY_CAP_MS,
    callTimeoutMs: timeout ?? CONTRACT_CALL_TIMEOUT_MS,
    compressed: cap !== undefined || timeout !== undefined,
  };
}

/**
 * Tolerance on a gap measured at the receiver (timer lateness, scheduler polling, network): 10% of
 * the cap, at least 1 s and at most 30 s.
 */
export function gapSlackMs(timers: RedeliveryTimers): number {
  return Math.min(30_000, Math.max(1_000, timers.capMs / 10));
}

/**
 * The signature age a redelivery may show: the 300 s tolerance ("A timestamp tolerance of 300
 * seconds is the default in the reference verification"). The contract's cap (5 min) equals it, so
 * a redelivery after a capped gap verifies only if it was signed again; compressed timers compress
 * that tolerance by the same ratio, plus 1 s (t is whole seconds) and the gap slack, never beyond
 * the contract's 300 s.
 */
export function redeliveryToleranceMs(timers: RedeliveryTimers, contractToleranceMs = 300_000): number {
  if (!timers.compressed) return contractToleranceMs;
  const scaled = (contractToleranceMs * timers.capMs) / CONTRACT_RETRY_CAP_MS;
  return Math.min(contractToleranceMs, scaled + 1_000 + gapSlackMs(timers));
}

/**
 * For the embedded reference: the compressed timers it was started with are the ones to judge
 * against, unless the operator set the PAYGATE_ values explicitly.
 */
export function timersFromReferenceEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const pairs = [
    ['REFERENCE_PARTNER_RETRY_CAP_MS', 'PAYGATE_PARTNER_RETRY_CAP_MS'],
    ['REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS', 'PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS'],
  ] as const;
  for (const [from, to] of pairs) {
    const value = env[from];
    if (value !== undefined && value.trim() !== '' && (env[to] ?? '').trim() === '') out[to] = value.trim();
  }
  return out;
}
