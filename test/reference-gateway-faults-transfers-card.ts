// Probes of the PIX transfer and card faults (reference/gateway/faults-transfers-card.ts), spread
// into test/reference-gateway-faults.test.ts: `observe` returns true when the deviation is seen.
import { randomUUID } from 'node:crypto';
import { call, cardBody, chargeBody, pick, pickString, transferBody, type Reply } from './reference-gateway-client.js';

interface ProbeCtx {
  base: string;
  tokens: { sandbox: string };
}

export interface TransferCardProbe {
  fault: string;
  observe(ctx: ProbeCtx): Promise<boolean>;
}

const transfer = (ctx: ProbeCtx, overrides: Record<string, unknown> = {}): Promise<Reply> =>
  call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(overrides), headers: { 'x-idempotency-key': randomUUID() } });

const card = (ctx: ProbeCtx, overrides: Record<string, unknown> = {}, cardOverrides: Record<string, unknown> = {}): Promise<Reply> =>
  call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody(overrides, cardOverrides) });

async function lookup(ctx: ProbeCtx): Promise<Reply> {
  const id = pickString((await transfer(ctx)).body, 'data.id');
  return call(ctx.base, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token: ctx.tokens.sandbox });
}

/** Funds the sandbox, creates a transfer of 500 cents, completes it; returns the lookup after. */
async function completedLookup(ctx: ProbeCtx): Promise<Reply> {
  const charge = await call(ctx.base, 'POST', '/api/v1/pix/in/qrcode', { token: ctx.tokens.sandbox, body: chargeBody({ amountInCents: 5_000 }) });
  await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${pickString(charge.body, 'data.id')}/pay`, { token: ctx.tokens.sandbox });
  const id = pickString((await transfer(ctx)).body, 'data.id');
  await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox });
  return call(ctx.base, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token: ctx.tokens.sandbox });
}

export const TRANSFER_CARD_PROBES: TransferCardProbe[] = [
  { fault: 'gw-pixout-status-enum-name', observe: async (ctx) => pick((await transfer(ctx)).body, 'data.status') === 'BANKING_PROCESSING' },
  { fault: 'gw-pixout-fees-numeric-strings', observe: async (ctx) => typeof pick((await transfer(ctx)).body, 'data.fees') === 'string' },
  { fault: 'gw-pixout-post-201', observe: async (ctx) => (await transfer(ctx)).status === 201 },
  { fault: 'gw-pixout-lookup-unwrapped', observe: async (ctx) => (await lookup(ctx)).body.success === undefined },
  { fault: 'gw-pixout-lookup-no-end-to-end', observe: async (ctx) => pick((await completedLookup(ctx)).body, 'data.endToEndId') === undefined },
  { fault: 'gw-pixout-timestamps-epoch-ms', observe: async (ctx) => typeof pick((await lookup(ctx)).body, 'data.createdAt') === 'number' },
  { fault: 'gw-pixout-complete-not-saved', observe: async (ctx) => pick((await completedLookup(ctx)).body, 'data.status') === 'banking_processing' },
  { fault: 'gw-pixout-complete-unknown-500', observe: async (ctx) => (await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${randomUUID()}/complete`, { token: ctx.tokens.sandbox })).status === 500 },
  { fault: 'gw-amount-numeric-coerced', observe: async (ctx) => (await transfer(ctx, { amount: '150' })).status === 200 && (await card(ctx, { amountInCents: 250.5 })).status === 201 },
  { fault: 'gw-pixout-currency-required', observe: async (ctx) => (await transfer(ctx)).status !== 200 },
  { fault: 'gw-pixout-postback-url-500', observe: async (ctx) => (await transfer(ctx, { postbackUrl: 'not a uri' })).status === 500 },
  {
    fault: 'gw-card-validates-money-only',
    observe: async (ctx) => pick((await card(ctx, { customer: { name: 'Jo' } }, { holderName: undefined })).body, 'data.status') === 'paid',
  },
  { fault: 'gw-card-domestic-validator', observe: async (ctx) => (await card(ctx)).status >= 400 },
  { fault: 'gw-card-tracking-unguarded', observe: async (ctx) => (await card(ctx)).status === 500 },
  { fault: 'gw-card-installments-single-only', observe: async (ctx) => (await card(ctx, {}, { installments: 12 })).status >= 400 },
  { fault: 'gw-card-token-pattern-from-sample', observe: async (ctx) => (await card(ctx, {}, { token: 'ctoken_0123456789abcdef' })).status >= 400 },
  { fault: 'gw-card-response-unwrapped', observe: async (ctx) => (await card(ctx)).body.success === undefined },
  { fault: 'gw-card-decline-402', observe: async (ctx) => (await card(ctx, {}, { token: 'ctoken_decline' })).status === 402 },
  { fault: 'gw-card-pending-at-creation', observe: async (ctx) => pick((await card(ctx)).body, 'data.status') === 'pending' },
  {
    fault: 'gw-txn-lookup-pix-only',
    async observe(ctx) {
      const id = pickString((await card(ctx)).body, 'data.id');
      return (await call(ctx.base, 'GET', `/api/v1/transactions/${id}`, { token: ctx.tokens.sandbox })).status === 404;
    },
  },
];
