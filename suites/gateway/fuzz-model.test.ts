/**
 * Model-based fuzzing of the gateway (fc.commands): random sequences of the documented operations,
 * each step's observations handed to the rules of harness/rules/gateway/ (states, atomicity,
 * webhooks) with what a small model of the contract's states and idempotency expects
 * (suites/gateway/model/). A failing sequence is shrunk to the shortest one that still fails and
 * printed as numbered steps plus a curl script, with the seed and `--replay` path that replay it.
 *
 * Budget: quick profile 40 sequences of at most 10 commands (full/certify 4×, `--runs N` overrides).
 * Under `--concurrency N` up to N sequences are in flight at once (a pass only; anything found is
 * judged again one sequence at a time: harness/run/model.ts).
 */
import { check } from '../../harness/run/check.js';
import { runModel } from '../../harness/run/model.js';
import { auditGateway, gatewayCommands, newGatewayModel } from './model/index.js';
import type { GatewayModel, GatewayReal } from './model/index.js';

check(
  'gateway: random sequences of operations keep the documented states, idempotency and atomicity',
  {
    id: 'gateway.fuzz.model',
    api: 'gateway',
    area: 'Stateful fuzzing',
    severity: 'critical',
    timeoutMs: 300_000,
    requirements: [
      'GW-PIXIN-CREATE-PENDING', 'GW-PIXIN-GET-CURRENT-STATUS', 'GW-PIXIN-PAY-PAID', 'GW-PIXIN-PAY-NOT-PENDING-400',
      'GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-CREATE-BANKING-PROCESSING',
      'GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE', 'GW-PIXOUT-IDEM-CONFLICT-409',
      'GW-PIXOUT-COMPLETE-COMPLETED', 'GW-PIXOUT-COMPLETE-TWICE-400', 'GW-PIXOUT-COMPLETE-BALANCE',
      'GW-CARD-SANDBOX-APPROVE', 'GW-CARD-SANDBOX-DECLINE', 'GW-CARD-ECHO-BRAND-LAST4',
      'GW-WH-CREATE-200', 'GW-WH-DELETE', 'GW-BAL-200-SHAPE',
    ],
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
