/**
 * Model-based fuzzing of the partner cash-in API (fc.commands): random sequences of the documented
 * operations, each step checked against a small model of the charge states, idempotency, and the
 * ledger postings of this sequence's own charges (suites/partner/model/). A failing sequence is shrunk
 * to the shortest one and printed as numbered steps plus a curl script, with the seed and `--replay`.
 *
 * Budget: quick profile 40 sequences of at most 10 commands (full/certify 4×, `--runs N` overrides).
 * Under `--concurrency N` up to N sequences are in flight at once (a pass only; anything found is
 * judged again one sequence at a time: harness/run/model.ts).
 */
import { check } from '../../harness/run/check.js';
import { runModel } from '../../harness/run/model.js';
import { auditPartner, newPartnerModel, partnerCommands, PARTNER_MODEL_RULES } from './model/index.js';
import type { PartnerModel, PartnerReal } from './model/index.js';

check(
  'partner: random sequences of operations keep the documented states, idempotency and captures',
  {
    id: 'partner.fuzz.model',
    api: 'partner',
    area: 'Stateful fuzzing',
    severity: 'critical',
    timeoutMs: 300_000,
    rules: [...PARTNER_MODEL_RULES],
  },
  async (t) => {
    await runModel<PartnerModel, PartnerReal>(t, {
      name: 'partner command sequences',
      commands: partnerCommands(),
      model: newPartnerModel,
      real: (ctx) => ({ ...ctx, pt: ctx.it.partner() }),
      audit: auditPartner,
      numRuns: 40,
      maxCommands: 10,
      // each sequence creates and judges its own charges; ledger windows hold the sibling lane alone
      // (suites/partner/model/charges.ts), so the other sequences may run side by side
      concurrent: true,
    });
  },
);
