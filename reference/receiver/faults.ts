/**
 * Switchable faults of the reference receiver (REFERENCE_RECEIVER_FAULTS, comma-separated, or the
 * `faults` option), each a classic webhook-consumer bug, and the receiver requirement the suite
 * must name when it is on, under each scheme the fault shows in (test/receiver-conformance.test.ts
 * runs every fault against each of those schemes and proves each requirement).
 *
 * `strict`: the schemes under which the requirement is ambiguous (a warning by the contract's
 * words), so the fault fails the run only under --strict.
 */
export const RECEIVER_FAULTS = {
  /** verifies nothing: forged and unsigned events are accepted */
  'accept-bad-signature': { requirement: { gateway: 'GW-RCV-VERIFY-SIGNATURE', partner: 'PT-RCV-VERIFY-SIGNATURE' }, strict: [] },
  /** verifies the HMAC over JSON.stringify(JSON.parse(raw)) instead of the raw bytes (gateway: "JSON of the payload" allows it, a warning) */
  'verify-reserialized': { requirement: { gateway: 'GW-RCV-SIGNATURE-INPUT', partner: 'PT-RCV-RAW-BODY' }, strict: ['gateway'] },
  /** no deduplication: a replayed event id (or a second event for one payment) is processed again */
  'process-duplicates': { requirement: { gateway: 'GW-RCV-IDEMPOTENT-EVENT-ID', partner: 'PT-RCV-IDEMPOTENT-CREDIT' }, strict: [] },
  /** answers after REFERENCE_RECEIVER_SLOW_MS (default 2500 ms): a warning ("quickly" is not a number) */
  'answer-slowly': { requirement: { gateway: 'GW-RCV-ACK-QUICK', partner: 'PT-RCV-ACK-QUICK' }, strict: ['gateway', 'partner'] },
  /** answers 422 to an event with a field it does not know */
  'reject-unknown-fields': { requirement: { gateway: 'GW-RCV-EXTRA-FIELDS', partner: 'PT-RCV-EXTRA-FIELDS' }, strict: [] },
  /** compares v1 with the uppercase hex digest, case-sensitively (partner: "hex" states no case, a warning) */
  'uppercase-only-digest': { requirement: { gateway: 'GW-RCV-DIGEST-HEX', partner: 'PT-RCV-DIGEST-HEX' }, strict: ['partner'] },
  /** partner: no timestamp tolerance (a warning: 300 s is "the default") */
  'ignore-timestamp-tolerance': { requirement: { gateway: undefined, partner: 'PT-RCV-TOLERANCE' }, strict: ['partner'] },
  /** answers 409 to an event id it has already received, so the platform keeps redelivering it */
  'conflict-on-duplicate': { requirement: { gateway: 'GW-RCV-ACK-2XX', partner: 'PT-RCV-ACK-2XX' }, strict: [] },
  /** verifies a signature only when the header is there: an unsigned event is accepted (gateway: postbackUrl deliveries are unsigned, a warning) */
  'accept-unsigned': { requirement: { gateway: 'GW-RCV-UNSIGNED', partner: 'PT-RCV-REQUIRE-SIGNATURE' }, strict: ['gateway'] },
  /** deduplicates by event id only: two events with distinct ids for one payment are both processed (gateway: "by event id or endToEndId", a warning) */
  'dedupe-event-id-only': { requirement: { gateway: 'GW-RCV-IDEMPOTENT-E2E', partner: 'PT-RCV-IDEMPOTENT-CREDIT' }, strict: ['gateway'] },
  /** drops (after acknowledging) a paid event for a payment whose created event it has not seen: order is not stated, a warning */
  'drop-paid-before-created': { requirement: { gateway: 'GW-RCV-PAID-PROCESSED', partner: 'PT-RCV-PAID-CREDITS' }, strict: ['gateway', 'partner'] },
  /** refuses bodies over 100 kB (413), the default limit of common JSON body parsers: no size is stated, a warning */
  'body-limit-100kb': { requirement: { gateway: 'GW-RCV-BODY-SIZE', partner: 'PT-RCV-BODY-SIZE' }, strict: ['gateway', 'partner'] },
} as const satisfies Record<string, { requirement: Record<'gateway' | 'partner', string | undefined>; strict: readonly ('gateway' | 'partner')[] }>;

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
