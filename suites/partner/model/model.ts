/**
 * The partner model of one sequence (deliberately small): the charges this sequence created, their
 * states, the Idempotency-Keys it used with their bodies.
 *
 * Contract (partner-cashin-api.md, "States and transitions"): "A charge is created in pending and
 * moves to exactly one of the other states"; pending → paid (sandbox pay, terminal); pending →
 * canceled (cancel); "Cancel from paid, expired or canceled answers 409"; "Transitions are atomic:
 * two concurrent confirmations of the same charge never capture the value twice". Charges here expire
 * after at least 600 s, far beyond a sequence, so `expired` never occurs in the model.
 *
 * Concurrency: other files pay charges of the same sandbox account at the same time, so
 * `available_cents` is never predicted. The model attributes ledger postings to its own charges (a
 * posting that names the charge id) and bounds `available_cents` soundly (see finance.ts).
 */
import type { PartnerChargeRequest, PartnerClient } from '../../../harness/http/partner-client.js';
import type { ModelContext } from '../../../harness/run/model.js';

export type ChargeState = 'pending' | 'paid' | 'canceled';

export interface ModelCharge {
  ref: string;
  id: string;
  body: PartnerChargeRequest;
  /** Idempotency-Key used at creation, if any */
  key: string | undefined;
  createdAt: string | undefined;
  status: ChargeState;
}

export interface PartnerModel {
  charges: ModelCharge[];
}

export interface PartnerReal extends ModelContext {
  pt: PartnerClient;
}

export function newPartnerModel(): PartnerModel {
  return { charges: [] };
}

