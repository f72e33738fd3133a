/**
 * Model-based fuzzing of the gateway (fc.commands): random sequences of the documented operations,
 * each step's observations handed to the rules of harness/rules/gateway/ (the sections of the PIX
 * charge, the transfer, the card, the balance, atomicity; webhooks) with what a small model of the contract's states and idempotency expects
 * (suites/gateway/model/). A failing sequence is shrunk to the shortest one that still fails and
 * printed as numbered steps plus a curl script, with the seed and `--replay` path that replay it.
 *
 * Budget: quick profile 40 sequences of at most 10 commands (full/certify 4×, `--runs N` overrides).
 * Under `--concurrency N` up to N sequences are in flight at once (a pass only; anything found is
 * judged again one sequence at a time: harness/run/model.ts).
 */
import { check } from '../../harness/run/check.js';
import { runModel } from '../../harness/run/model.js';
import { auditGateway, GATEWAY_MODEL_RULES, gatewayCommands, newGatewayModel } from './model/index.js';
import type { GatewayModel, GatewayReal } from './model/index.js';

check(
  'gateway: random sequences of operations keep the documented states, idempotency and atomicity',
  {
    id: 'gateway.fuzz.model',
    api: 'gateway',
    area: 'Stateful fuzzing',
    severity: 'critical',
    timeoutMs: 300_000,
    rules: GATEWAY_MODEL_RULES,
  },
  async (t) => {
    await runModel<GatewayModel, GatewayReal>(t, {
      name: 'gateway command sequences',
      commands: gatewayCommands(),
      model: newGatewayModel,
      real: (ctx) => ({ ...ctx, gw: ctx.it.gateway(), callbackUrl: t.callbackUrl }),
      audit: auditGateway,
      numRuns: 40,
      maxCommands: 10,
      // each sequence creates and judges its own charges, transfers, cards and webhooks; the shared
      // balance is only logged (suites/gateway/model/model.ts), so sequences may run side by side
      concurrent: true,
    });
  },
);
