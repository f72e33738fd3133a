/**
 * Switchable faults of the reference receiver (REFERENCE_RECEIVER_FAULTS, comma-separated, or the
 * `faults` option), each a classic webhook-consumer bug, and the receiver requirement the suite
 * must name when it is on (test/receiver-conformance.test.ts proves each).
 */
export const RECEIVER_FAULTS = {
  /** verifies nothing: forged and unsigned events are accepted */
  'accept-bad-signature': { requirement: { gateway: 'GW-RCV-VERIFY-SIGNATURE', partner: 'PT-RCV-VERIFY-SIGNATURE' }, strict: false },
  /** verifies the HMAC over JSON.stringify(JSON.parse(raw)) instead of the raw bytes */
  'verify-reserialized': { requirement: { gateway: 'GW-RCV-SIGNATURE-INPUT', partner: 'PT-RCV-RAW-BODY' }, strict: false },
  /** no deduplication: a replayed event id (or a second event for one payment) is processed again */
  'process-duplicates': { requirement: { gateway: 'GW-RCV-IDEMPOTENT-EVENT-ID', partner: 'PT-RCV-IDEMPOTENT-CREDIT' }, strict: false },
  /** answers after REFERENCE_RECEIVER_SLOW_MS (default 2500 ms): a warning ("quickly" is not a number) */
  'answer-slowly': { requirement: { gateway: 'GW-RCV-ACK-QUICK', partner: 'PT-RCV-ACK-QUICK' }, strict: true },
  /** answers 422 to an event with a field it does not know */
  'reject-unknown-fields': { requirement: { gateway: 'GW-RCV-EXTRA-FIELDS', partner: 'PT-RCV-EXTRA-FIELDS' }, strict: false },
  /** compares v1 with the uppercase hex digest, case-sensitively */
  'uppercase-only-digest': { requirement: { gateway: 'GW-RCV-DIGEST-HEX', partner: 'PT-RCV-DIGEST-HEX' }, strict: false },
  /** partner: no timestamp tolerance (a warning: 300 s is "the default") */
  'ignore-timestamp-tolerance': { requirement: { gateway: undefined, partner: 'PT-RCV-TOLERANCE' }, strict: true },
} as const;

export type ReceiverFault = keyof typeof RECEIVER_FAULTS;
export const RECEIVER_FAULT_NAMES = Object.keys(RECEIVER_FAULTS) as ReceiverFault[];

/** Parses a comma-separated fault list; throws for an unknown name. */
export function parseReceiverFaults(text: string | undefined): Set<ReceiverFault> {
  const out = new Set<ReceiverFault>();
  for (const name of (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    if (!(name in RECEIVER_FAULTS)) throw new Error(`unknown receiver fault "${name}" (known: ${RECEIVER_FAULT_NAMES.join(', ')})`);
    out.add(name as ReceiverFault);
  }
  return out;
}
