/**
 * The partner command set for fc.commands (one arbitrary per command class) and the end-of-sequence
 * audit (every charge re-read and compared with the model).
 */
import fc from 'fast-check';
import type { PartnerChargeRequest } from '../../../harness/http/partner-client.js';
import { email } from '../../../generators/index.js';
import type { PartnerModel, PartnerReal } from './model.js';
import {
  CancelCharge, ConflictCreate, CreateAgainWithoutKey, CreateCharge, GetCharge, ListCharges, PayCancelConcurrently, PayCharge,
  PayPayConcurrently, ReplayCreate, SameKeyConcurrently, chargeStateAnswer, MODEL_CHARGE_RULES,
} from './charges.js';
import { sendThenJudge } from '../../../harness/run/model.js';
import { GetFinance, MODEL_FINANCE_RULES } from './finance.js';

/** Every rule the partner commands and the audit judge by. */
export const PARTNER_MODEL_RULES = [...MODEL_CHARGE_RULES, ...MODEL_FINANCE_RULES] as const;

export * from './model.js';

type Cmd = fc.AsyncCommand<PartnerModel, PartnerReal>;

const index = fc.nat({ max: 7 });
const ascii = (max: number) => fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_ '.split('')), minLength: 1, maxLength: max });

/**
 * A valid creation body. external_ref sometimes has surrounding spaces (it must come back unchanged);
 * expires_in_seconds stays ≥ 600 so no charge expires during a sequence (or its shrinking).
 */
const chargeBody: fc.Arbitrary<PartnerChargeRequest> = fc
  .record(
    {
      amount_cents: fc.integer({ min: 1, max: 100_000 }),
      description: ascii(300),
      external_ref: fc.oneof(ascii(100).map((s) => `ref-${s}`.slice(0, 120)), ascii(100).map((s) => ` ref-${s} `.slice(0, 120))),
      customer_email: email(),
      expires_in_seconds: fc.integer({ min: 600, max: 86_400 }),
    },
    { requiredKeys: ['amount_cents'] },
  )
  .map((b) => b as PartnerChargeRequest);

export function partnerCommands(): fc.Arbitrary<Cmd>[] {
  // creation appears twice: most commands need a charge, so they would otherwise be skipped often
  return [
    fc.tuple(chargeBody, fc.boolean()).map(([b, key]): Cmd => new CreateCharge(b, key)),
    fc.tuple(chargeBody, fc.boolean()).map(([b, key]): Cmd => new CreateCharge(b, key)),
    index.map((i): Cmd => new ReplayCreate(i)),
    index.map((i): Cmd => new ConflictCreate(i)),
    chargeBody.map((b): Cmd => new SameKeyConcurrently(b)),
    index.map((i): Cmd => new CreateAgainWithoutKey(i)),
    index.map((i): Cmd => new GetCharge(i)),
    fc.option(fc.constantFrom('pending' as const, 'paid' as const, 'canceled' as const), { nil: undefined }).map((f): Cmd => new ListCharges(f)),
    index.map((i): Cmd => new CancelCharge(i)),
    fc.tuple(index, fc.boolean()).map(([i, measure]): Cmd => new PayCharge(i, measure)),
    index.map((i): Cmd => new PayPayConcurrently(i)),
    index.map((i): Cmd => new PayCancelConcurrently(i)),
    fc.constant<Cmd>(new GetFinance()),
  ];
}

/** After the last command: every charge is in the state the model says. */
export async function auditPartner(m: PartnerModel, r: PartnerReal): Promise<void> {
  // independent lookups of distinct charges: sent together in the concurrent phase, judged in order
  const before = r.it.run.failures.length;
  await sendThenJudge(r.it, m.charges, (c) => r.pt.getCharge(c.id), (c, res) => {
    chargeStateAnswer(r, c, res);
    return r.it.run.failures.length === before;
  });
  if (r.it.run.failures.length > before) return;
  r.log.outcome(`${m.charges.length} charge(s) as modelled`);
}
