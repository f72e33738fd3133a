/**
 * Webhook event bodies as the platform sends them, for the receiver suite (suites/receiver/), built
 * from the project's generators (amounts, names, documents) and valid against the specs' event
 * schemas (test/generators-events.test.ts validates every type):
 *
 * - gateway (gateway-api.md "Events" and "Payload shapes"): "Transaction events: `id` (string UUID),
 *   `type` (`transaction`), `event`, `scope` (`user`), `transaction{id, amount (integer cents),
 *   status, pix{endToEndId, payerInfo{name, document}}}`", transfer events the same envelope with
 *   `transfer{…creditorAccount…}`, and the infraction event.
 * - partner (partner-cashin-api.md "Webhook event body"): "`id` (string), `type` (event name),
 *   `created_at` (ISO 8601), `data{amount_cents, e2e_id, external_ref}`".
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { validAmount } from './amounts.js';
import { personName } from './customers.js';
import { cpf } from './documents.js';

/** The Events table of gateway-api.md, in its order. */
export const GATEWAY_EVENTS = [
  'transaction_created',
  'transaction_paid',
  'transaction_refunded',
  'transaction_updated',
  'infraction',
  'transfer_created',
  'transfer_updated',
  'transfer_completed',
  'transfer_canceled',
] as const;
export type GatewayEventName = (typeof GATEWAY_EVENTS)[number];

/** The Events table of partner-cashin-api.md. */
export const PARTNER_EVENTS = ['business.pix.created', 'business.pix.paid', 'business.pix.canceled'] as const;
export type PartnerEventName = (typeof PARTNER_EVENTS)[number];

export type EventScheme = 'gateway' | 'partner';

/** The varying facts of one payment that its events share. */
export interface PaymentFacts {
  /** the event's own id (gateway: UUID; partner: `evt_…`) */
  eventId: string;
  /** the charge or transfer id */
  resourceId: string;
  amount: number;
  /** PIX end-to-end id: `E` + 8-digit ISPB + yyyyMMddHHmm + 11 alphanumerics (32 characters) */
  endToEndId: string;
  payerName: string;
  payerDocument: string;
  externalRef: string;
}

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
const alnum = (min: number, max: number): Arbitrary<string> => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: max });

/** A PIX end-to-end id (BCB format: E + ISPB + timestamp + 11 characters). */
export function endToEndId(): Arbitrary<string> {
  return fc
    .tuple(fc.stringMatching(/^\d{8}$/), fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:00Z'), noInvalidDate: true }), alnum(11, 11))
    .map(([ispb, date, tail]) => `E${ispb}${date.toISOString().replace(/[-T:]/g, '').slice(0, 12)}${tail}`);
}

/** One payment's facts. `scheme` decides the event id's form. */
export function paymentFacts(scheme: EventScheme): Arbitrary<PaymentFacts> {
  return fc.record({
    eventId: scheme === 'gateway' ? fc.uuid({ version: 4 }) : alnum(20, 20).map((s) => `evt_${s}`),
    resourceId: scheme === 'gateway' ? fc.uuid({ version: 4 }) : alnum(16, 16).map((s) => `ch_${s}`),
    amount: validAmount({ min: 100, max: 500_000 }),
    endToEndId: endToEndId(),
    payerName: personName(),
    payerDocument: cpf(),
    externalRef: alnum(8, 24).map((s) => `order-${s}`),
  });
}

const TRANSACTION_STATUS: Record<Exclude<GatewayEventName, `transfer_${string}` | 'infraction'>, string> = {
  transaction_created: 'pending',
  transaction_paid: 'paid',
  transaction_refunded: 'refunded',
  transaction_updated: 'refused',
};
// "Event payload status for a completed transfer is `paid`"; the others are not listed (any string)
const TRANSFER_STATUS: Record<Extract<GatewayEventName, `transfer_${string}`>, string> = {
  transfer_created: 'pending',
  transfer_updated: 'banking_processing',
  transfer_completed: 'paid',
  transfer_canceled: 'refused',
};

/** The gateway event `event` for a payment, as a plain object (serialise it yourself). */
export function gatewayEvent(event: GatewayEventName, facts: PaymentFacts): Record<string, unknown> {
  const party = { name: facts.payerName, document: facts.payerDocument };
  if (event === 'infraction') {
    return {
      id: facts.eventId,
      type: 'infraction',
      event: 'infraction',
      scope: 'user',
      infraction: { id: `inf_${facts.resourceId}`, amount: facts.amount, status: 'OPEN', pix: { endToEndId: facts.endToEndId } },
      transaction: { id: facts.resourceId, amount: facts.amount, status: 'infraction', pix: { endToEndId: facts.endToEndId, payerInfo: party } },
    };
  }
  if (event.startsWith('transfer_')) {
    const created = event === 'transfer_created';
    return {
      id: facts.eventId,
      type: 'transfer',
      event,
      scope: 'user',
      transfer: {
        id: facts.resourceId,
        amount: facts.amount,
        status: TRANSFER_STATUS[event as keyof typeof TRANSFER_STATUS],
        // before completion the end-to-end id and creditor are not shown: null
        pix: created ? { endToEndId: null, creditorAccount: null } : { endToEndId: facts.endToEndId, creditorAccount: party },
      },
    };
  }
  const created = event === 'transaction_created';
  return {
    id: facts.eventId,
    type: 'transaction',
    event,
    scope: 'user',
    transaction: {
      id: facts.resourceId,
      amount: facts.amount,
      status: TRANSACTION_STATUS[event as keyof typeof TRANSACTION_STATUS],
      pix: created ? { endToEndId: null, payerInfo: null } : { endToEndId: facts.endToEndId, payerInfo: party },
    },
  };
}

/** The partner event `type` for a payment, as a plain object. */
export function partnerEvent(type: PartnerEventName, facts: PaymentFacts, createdAt: Date = new Date()): Record<string, unknown> {
  return {
    id: facts.eventId,
    type,
    created_at: createdAt.toISOString(),
    // the end-to-end id is assigned at payment: null on created/canceled ("not stated", tolerated by the spec)
    data: { amount_cents: facts.amount, e2e_id: type === 'business.pix.paid' ? facts.endToEndId : null, external_ref: facts.externalRef },
  };
}

/** The end-to-end id an event body carries, when it carries one. */
export function endToEndIdOf(body: Record<string, unknown>): string | undefined {
  const pick = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined), v);
  const found = pick(body, 'transaction', 'pix', 'endToEndId') ?? pick(body, 'transfer', 'pix', 'endToEndId') ?? pick(body, 'data', 'e2e_id');
  return typeof found === 'string' ? found : undefined;
}
