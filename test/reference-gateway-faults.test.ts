// Every gateway fault switches on a deviation that documented behaviour shows, and the correct
// reference does not show it. One probe per fault (reference/gateway/faults.ts): `observe` returns
// true when the deviation is seen.
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_FAULTS } from '../reference/gateway/faults.js';
import {
  call, cardBody, chargeBody, decodeQrPng, eventually, login, pick, pickString, startGateway, startReceiver, tokensOf, transferBody,
  type ReceivedCallback, type RunningGateway,
} from './reference-gateway-client.js';
import { TRANSFER_CARD_PROBES } from './reference-gateway-faults-transfers-card.js';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface ProbeContext {
  gateway: RunningGateway;
  base: string;
  tokens: { sandbox: string; production: string; other: string };
  receiver: Receiver;
}

interface Probe {
  fault: string;
  observe(ctx: ProbeContext): Promise<boolean>;
  tokenTtlMs?: number;
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const transferHeaders = (): Record<string, string> => ({ 'x-idempotency-key': randomUUID() });

async function createCharge(ctx: ProbeContext, overrides: Record<string, unknown> = {}, token = ctx.tokens.sandbox): Promise<{ status: number; id: string; body: Record<string, unknown> }> {
  const reply = await call(ctx.base, 'POST', '/api/v1/pix/in/qrcode', { token, body: chargeBody(overrides) });
  return { status: reply.status, id: String(pick(reply.body, 'data.id')), body: reply.body };
}

async function chargeStatus(ctx: ProbeContext, overrides: Record<string, unknown>): Promise<number> {
  return (await createCharge(ctx, overrides)).status;
}

async function transferStatus(ctx: ProbeContext, overrides: Record<string, unknown>): Promise<number> {
  return (await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(overrides), headers: transferHeaders() })).status;
}

async function balanceCents(ctx: ProbeContext, token = ctx.tokens.sandbox): Promise<number> {
  const reply = await call(ctx.base, 'GET', '/api/v1/balance', { token });
  return Math.round(Number(pick(reply.body, 'data.pix.balance')) * 100);
}

async function paidCharge(ctx: ProbeContext, amountInCents: number): Promise<void> {
  const charge = await createCharge(ctx, { amountInCents });
  await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${charge.id}/pay`, { token: ctx.tokens.sandbox });
}

async function newTransfer(ctx: ProbeContext, amount: number, postbackUrl?: string): Promise<string> {
  const reply = await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody({ amount, postbackUrl }), headers: transferHeaders() });
  return pickString(reply.body, 'data.id');
}

function concurrently<T>(count: number, work: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, work));
}

/** Registers a webhook at a fresh receiver path; returns the path and its secret. */
async function hook(ctx: ProbeContext, events: string[], token = ctx.tokens.sandbox): Promise<{ path: string; secret: string; id: number }> {
  const path = `/${randomUUID()}`;
  const reply = await call(ctx.base, 'POST', '/api/v1/webhook', { token, body: { url: `${receiver.url}${path}`, events } });
  return { path, secret: pickString(reply.body, 'data.signatureSecret'), id: Number(pick(reply.body, 'data.id')) };
}

async function deliveriesAt(path: string, count = 1, timeoutMs = 2_000): Promise<ReceivedCallback[]> {
  return receiver.waitFor(count, (c) => c.path === path, timeoutMs);
}

/** A paid charge's transaction_paid as delivered to a subscribed webhook. */
async function paidDelivery(ctx: ProbeContext): Promise<{ delivery: ReceivedCallback; secret: string }> {
  const { path, secret } = await hook(ctx, ['transaction_paid']);
  await paidCharge(ctx, 1_000);
  const [delivery] = await deliveriesAt(path);
  return { delivery: delivery as ReceivedCallback, secret };
}

function signatureVerifies(delivery: ReceivedCallback, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-fA-F]+)$/.exec(String(delivery.headers['servicegateway-signature']));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${delivery.body}`).digest('hex');
  return expected === match[2];
}

async function arrivesWithin(path: string, timeoutMs: number): Promise<boolean> {
  try {
    await deliveriesAt(path, 1, timeoutMs);
    return true;
  } catch {
    return false;
  }
}

/** A field of the charge's BR Code (`62.05` reaches into a template). */
async function chargeEmvField(ctx: ProbeContext, path: string): Promise<string> {
  const emv = pickString((await createCharge(ctx)).body, 'data.pix.emv');
  const [head, child] = path.split('.');
  const value = emvField(emv, head as string) ?? '';
  return child === undefined ? value : (emvField(value, child) ?? '');
}

/** Completes a fresh transfer of `amount` after a paid charge of `credit`; the completion's status and the balances around it. */
async function completion(ctx: ProbeContext, credit: number, amount: number): Promise<{ status: number; before: number; after: number }> {
  await paidCharge(ctx, credit);
  const before = await balanceCents(ctx);
  const id = await newTransfer(ctx, amount);
  const { status } = await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox });
  return { status, before, after: await balanceCents(ctx) };
}

async function transferWithKey(ctx: ProbeContext, key: string, body: Record<string, unknown>, token = ctx.tokens.sandbox): Promise<{ status: number; id: unknown }> {
  const reply = await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token, body, headers: { 'x-idempotency-key': key } });
  return { status: reply.status, id: pick(reply.body, 'data.id') };
}

function emvField(emv: string, wanted: string): string | undefined {
  for (let at = 0; at < emv.length;) {
    const id = emv.slice(at, at + 2);
    const length = Number(emv.slice(at + 2, at + 4));
    if (id === wanted) return emv.slice(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return undefined;
}

const PROBES: Probe[] = [
  {
    fault: 'gw-auth-expired-token-accepted',
    tokenTtlMs: 1,
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const token = await login(ctx.base, c.clientId, c.clientSecret);
      const issued = Date.now();
      await eventually(() => Date.now() > issued + 5, 1_000);
      return (await call(ctx.base, 'GET', '/api/v1/balance', { token })).status === 200;
    },
  },
  { fault: 'gw-auth-garbage-token-accepted', observe: async (ctx) => (await call(ctx.base, 'GET', '/api/v1/balance', { token: 'garbage' })).status === 200 },
  {
    fault: 'gw-auth-wrong-secret-accepted',
    observe: async (ctx) => (await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: `Basic ${Buffer.from(`${ctx.gateway.app.credentials.clientId}:nope`).toString('base64')}` } })).status === 200,
  },
  {
    fault: 'gw-auth-body-500',
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const reply = await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` }, body: { grant_type: 'client_credentials' } });
      return reply.status >= 500;
    },
  },
  {
    fault: 'gw-production-validation-422',
    observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/pix/in/qrcode', { token: ctx.tokens.production, body: { amountInCents: 99, customer: { documentType: 'cpf', document: '52998224725' } } })).status === 422,
  },
  {
    fault: 'gw-card-status-approved',
    observe: async (ctx) => pick((await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({}) })).body, 'data.status') === 'approved',
  },
  {
    fault: 'gw-auth-expires-in-string',
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const reply = await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` } });
      return typeof reply.body.expiresIn === 'string';
    },
  },
  {
    fault: 'gw-auth-expires-in-seconds',
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const reply = await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` } });
      return reply.body.expiresIn !== 60_000;
    },
  },
  { fault: 'gw-pixin-amount-99-accepted', observe: async (ctx) => (await chargeStatus(ctx, { amountInCents: 99 })) === 200 },
  { fault: 'gw-pixin-amount-100-rejected', observe: async (ctx) => (await chargeStatus(ctx, { amountInCents: 100 })) === 400 },
  { fault: 'gw-description-141-accepted', observe: async (ctx) => (await transferStatus(ctx, { description: 'd'.repeat(141) })) === 200 },
  { fault: 'gw-description-140-rejected', observe: async (ctx) => (await chargeStatus(ctx, { description: 'd'.repeat(140) })) === 400 },
  {
    fault: 'gw-pixin-split-sum-over-100-accepted',
    observe: async (ctx) => (await chargeStatus(ctx, { splits: [{ email: ctx.gateway.app.credentials.splitEmail, percentage: 100.01 }] })) === 200,
  },
  { fault: 'gw-pixout-amount-zero-accepted', observe: async (ctx) => (await transferStatus(ctx, { amount: 0 })) === 200 },
  { fault: 'gw-card-amount-99-accepted', observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({ amountInCents: 99 }) })).status === 201 },
  { fault: 'gw-pixin-cpf-check-digit-ignored', observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cpf', document: '52998224726' } })) === 200 },
  { fault: 'gw-pixin-alphanumeric-cnpj-rejected', observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cnpj', document: '12ABC34501DE35' } })) === 400 },
  { fault: 'gw-pixkey-phone-without-plus55-accepted', observe: async (ctx) => (await transferStatus(ctx, { pixKey: '1133334444' })) === 200 },
  { fault: 'gw-pixkey-malformed-email-accepted', observe: async (ctx) => (await transferStatus(ctx, { pixKey: 'a@b' })) === 200 },
  { fault: 'gw-emv-wrong-crc', observe: async (ctx) => !isValidPixPayload(pickString((await createCharge(ctx)).body, 'data.pix.emv')) },
  { fault: 'gw-emv-amount-mismatch', observe: async (ctx) => emvField(pickString((await createCharge(ctx, { amountInCents: 10_000 })).body, 'data.pix.emv'), '54') !== '100.00' },
  { fault: 'gw-emv-static-brcode', observe: async (ctx) => { const emv = pickString((await createCharge(ctx)).body, 'data.pix.emv'); return emvField(emv, '01') === '11' && !/br\.gov\.bcb\.pix25\d\d/i.test(emv); } },
  {
    fault: 'gw-qr-image-different-text',
    async observe(ctx) {
      const { body } = await createCharge(ctx);
      return decodeQrPng(pickString(body, 'data.pix.qrCode')) !== pickString(body, 'data.pix.emv');
    },
  },
  {
    fault: 'gw-pixin-second-pay-succeeds',
    async observe(ctx) {
      const { id } = await createCharge(ctx);
      await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox });
      return (await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox })).status === 200;
    },
  },
  {
    fault: 'gw-pixout-second-complete-succeeds',
    async observe(ctx) {
      await paidCharge(ctx, 10_000);
      const id = await newTransfer(ctx, 100);
      await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox });
      return (await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox })).status === 200;
    },
  },
  {
    fault: 'gw-pixout-complete-without-balance',
    async observe(ctx) {
      const id = await newTransfer(ctx, 1_000);
      return (await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox })).status === 200;
    },
  },
  {
    fault: 'gw-pixin-pay-race-double-credit',
    async observe(ctx) {
      const { id } = await createCharge(ctx);
      const replies = await concurrently(20, () => call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox }));
      return replies.filter((r) => r.status === 200).length > 1;
    },
  },
  {
    fault: 'gw-pixout-complete-race-double-debit',
    async observe(ctx) {
      await paidCharge(ctx, 100_000);
      const before = await balanceCents(ctx);
      const id = await newTransfer(ctx, 100);
      await concurrently(20, () => call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox }));
      return before - (await balanceCents(ctx)) > 100;
    },
  },
  {
    fault: 'gw-idempotency-race-creates-two',
    async observe(ctx) {
      const headers = transferHeaders();
      const replies = await concurrently(20, () => call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(), headers }));
      return new Set(replies.map((r) => pick(r.body, 'data.id'))).size > 1;
    },
  },
  {
    fault: 'gw-idempotency-replay-creates-new-transfer',
    async observe(ctx) {
      const headers = transferHeaders();
      const first = await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(), headers });
      const second = await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(), headers });
      return pick(first.body, 'data.id') !== pick(second.body, 'data.id');
    },
  },
  ...(['gw-idempotency-conflict-returns-200', 'gw-idempotency-conflict-returns-400', 'gw-error-conflict-without-code'] as const).map((fault): Probe => ({
    fault,
    async observe(ctx) {
      const headers = transferHeaders();
      await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody(), headers });
      const conflict = await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody({ amount: 999 }), headers });
      return conflict.status !== 409 || conflict.body.error !== 'IDEMPOTENCY_CONFLICT';
    },
  })),
  { fault: 'gw-idempotency-key-optional', observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/pix/out/pixkey', { token: ctx.tokens.sandbox, body: transferBody() })).status === 200 },
  {
    fault: 'gw-balance-credit-fees-twice',
    async observe(ctx) {
      const { id, body } = await createCharge(ctx, { amountInCents: 10_000 });
      await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox });
      return (await balanceCents(ctx)) !== 10_000 - Number(pick(body, 'data.fees'));
    },
  },
  { fault: 'gw-balance-as-number', observe: async (ctx) => typeof pick((await call(ctx.base, 'GET', '/api/v1/balance', { token: ctx.tokens.sandbox })).body, 'data.pix.balance') !== 'string' },
  { fault: 'gw-balance-one-decimal', observe: async (ctx) => !/^\d+\.\d\d$/.test(String(pick((await call(ctx.base, 'GET', '/api/v1/balance', { token: ctx.tokens.sandbox })).body, 'data.reserve.balance'))) },
  {
    fault: 'gw-card-sale-credits-pix-balance',
    async observe(ctx) {
      await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody() });
      return (await balanceCents(ctx)) !== 0;
    },
  },
  { fault: 'gw-card-brl-accepted', observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({ currency: 'BRL' }) })).status === 201 },
  { fault: 'gw-card-raw-number-accepted', observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({}, { number: '4111111111111111', cvv: '123' }) })).status === 201 },
  {
    fault: 'gw-card-decline-token-paid',
    observe: async (ctx) => pick((await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({}, { token: 'ctoken_decline' }) })).body, 'data.status') === 'paid',
  },
  {
    fault: 'gw-card-brand-last4-normalised',
    async observe(ctx) {
      const reply = await call(ctx.base, 'POST', '/api/v1/card', { token: ctx.tokens.sandbox, body: cardBody({}, { brand: 'Visa', last4: '**42' }) });
      return pick(reply.body, 'data.card.brand') !== 'Visa' || pick(reply.body, 'data.card.last4') !== '**42';
    },
  },
  ...(['gw-webhook-signature-wrong-key', 'gw-webhook-signature-over-pretty-json', 'gw-webhook-signed-timestamp-differs'] as const).map((fault): Probe => ({
    fault,
    async observe(ctx) {
      const { delivery, secret } = await paidDelivery(ctx);
      return !signatureVerifies(delivery, secret);
    },
  })),
  {
    fault: 'gw-webhook-signature-uppercase-hex',
    observe: async (ctx) => /[A-F]/.test(String((await paidDelivery(ctx)).delivery.headers['servicegateway-signature']).split('v1=')[1] ?? ''),
  },
  {
    fault: 'gw-webhook-unsubscribed-receives',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transfer_completed']);
      await paidCharge(ctx, 1_000);
      return arrivesWithin(path, 300);
    },
  },
  {
    fault: 'gw-webhook-deleted-still-receives',
    async observe(ctx) {
      const { path, id } = await hook(ctx, ['transaction_created']);
      await call(ctx.base, 'DELETE', `/api/v1/webhook/${id}`, { token: ctx.tokens.sandbox });
      await createCharge(ctx);
      return arrivesWithin(path, 300);
    },
  },
  {
    fault: 'gw-webhook-postback-ignored',
    async observe(ctx) {
      const path = `/${randomUUID()}`;
      await createCharge(ctx, { postbackUrl: `${receiver.url}${path}` });
      return !(await arrivesWithin(path, 300));
    },
  },
  {
    fault: 'gw-webhook-transfer-status-completed',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transfer_completed']);
      await paidCharge(ctx, 10_000);
      const id = await newTransfer(ctx, 100);
      await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox });
      const [delivery] = await deliveriesAt(path);
      return pick(JSON.parse(delivery?.body ?? '{}'), 'transfer.status') !== 'paid';
    },
  },
  {
    fault: 'gw-webhook-amount-in-reais',
    observe: async (ctx) => pick(JSON.parse((await paidDelivery(ctx)).delivery.body), 'transaction.amount') !== 1_000,
  },
  { fault: 'gw-webhook-missing-user-agent', observe: async (ctx) => (await paidDelivery(ctx)).delivery.headers['user-agent'] !== 'Gateway' },
  {
    fault: 'gw-isolation-production-sees-sandbox',
    observe: async (ctx) => (await call(ctx.base, 'GET', `/api/v1/pix/in/qrcode/${(await createCharge(ctx)).id}`, { token: ctx.tokens.production })).status === 200,
  },
  {
    fault: 'gw-isolation-other-account-sees-resource',
    observe: async (ctx) => (await call(ctx.base, 'GET', `/api/v1/transactions/${(await createCharge(ctx)).id}`, { token: ctx.tokens.other })).status === 200,
  },
  {
    fault: 'gw-sandbox-simulation-in-production-allowed',
    async observe(ctx) {
      const { id } = await createCharge(ctx, {}, ctx.tokens.production);
      return (await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.production })).status !== 403;
    },
  },
  // Issue 15: documents and keys
  { fault: 'gw-pixin-cnpj-check-digit-ignored', observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cnpj', document: '11222333000182' } })) === 200 },
  { fault: 'gw-pixin-alphanumeric-cnpj-check-digit-ignored', observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cnpj', document: '12ABC34501DE36' } })) === 200 },
  {
    fault: 'gw-document-repeated-digits-accepted',
    observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cpf', document: '00000000000' } })) === 200 && (await transferStatus(ctx, { pixKey: '11111111111' })) === 200,
  },
  { fault: 'gw-pixkey-document-check-digits-ignored', observe: async (ctx) => (await transferStatus(ctx, { pixKey: '52998224726' })) === 200 },
  { fault: 'gw-pixkey-random-key-loose', observe: async (ctx) => (await transferStatus(ctx, { pixKey: '123e4567-e89b-12d3-a456-42661417400' })) === 200 },
  { fault: 'gw-pixkey-phone-any-length', observe: async (ctx) => (await transferStatus(ctx, { pixKey: '+55119876543' })) === 200 },
  { fault: 'gw-pixkey-email-no-length-cap', observe: async (ctx) => (await transferStatus(ctx, { pixKey: `${'a'.repeat(70)}@example.com` })) === 200 },
  { fault: 'gw-pixout-currency-ignored', observe: async (ctx) => (await transferStatus(ctx, { currency: 'USD' })) === 200 },
  // Issue 15: BR Code field limits
  { fault: 'gw-emv-merchant-name-uncut', observe: async (ctx) => (await chargeEmvField(ctx, '59')).length > 25 },
  { fault: 'gw-emv-merchant-city-uncut', observe: async (ctx) => (await chargeEmvField(ctx, '60')).length > 15 },
  { fault: 'gw-emv-amount-column-scale', observe: async (ctx) => (await chargeEmvField(ctx, '54')).length > 13 },
  { fault: 'gw-emv-txid-charge-id', observe: async (ctx) => (await chargeEmvField(ctx, '62.05')).length > 25 },
  { fault: 'gw-emv-fss-in-dynamic', observe: async (ctx) => /^0014br\.gov\.bcb\.pix0308\d{8}25/.test(await chargeEmvField(ctx, '26')) },
  // Issue 15: money
  { fault: 'gw-pixout-balance-check-in-reais', observe: async (ctx) => (await completion(ctx, 1_000, 5_000)).status === 200 },
  {
    fault: 'gw-pixout-complete-no-debit',
    async observe(ctx) {
      const { status, before, after } = await completion(ctx, 10_000, 100);
      return status === 200 && after === before;
    },
  },
  // Issue 15: idempotency scope and fingerprint
  {
    fault: 'gw-idempotency-fingerprint-amount-only',
    async observe(ctx) {
      const key = randomUUID();
      await transferWithKey(ctx, key, transferBody({ amount: 300 }));
      return (await transferWithKey(ctx, key, transferBody({ amount: 300, pixKey: '52998224725' }))).status !== 409;
    },
  },
  {
    fault: 'gw-pixout-lookup-pixkey-masked',
    async observe(ctx) {
      const id = await newTransfer(ctx, 100);
      return pick((await call(ctx.base, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token: ctx.tokens.sandbox })).body, 'data.pixKey') !== pick(transferBody({}), 'pixKey');
    },
  },
  {
    fault: 'gw-timestamps-utc-labelled-brasilia',
    async observe(ctx) {
      const id = await newTransfer(ctx, 100);
      const before = Date.now();
      const createdAt = pick((await call(ctx.base, 'GET', `/api/v1/pix/out/pixkey/${id}`, { token: ctx.tokens.sandbox })).body, 'data.createdAt');
      return typeof createdAt === 'string' && Date.parse(createdAt) - before > 60 * 60_000;
    },
  },
  {
    fault: 'gw-paid-event-own-end-to-end-id',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_paid']);
      const { id } = await createCharge(ctx);
      const paid = await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox });
      const [delivery] = await deliveriesAt(path);
      return pick(JSON.parse(delivery?.body ?? '{}'), 'transaction.pix.endToEndId') !== pick(paid.body, 'data.endToEndId');
    },
  },
  {
    fault: 'gw-transfer-event-amount-whole-reais',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transfer_completed']);
      await paidCharge(ctx, 10_000);
      const id = await newTransfer(ctx, 1_005);
      await call(ctx.base, 'POST', `/api/v1/pix/out/pixkey/${id}/complete`, { token: ctx.tokens.sandbox });
      const [delivery] = await deliveriesAt(path);
      return pick(JSON.parse(delivery?.body ?? '{}'), 'transfer.amount') === 10;
    },
  },
  {
    fault: 'gw-sandbox-simulates-production-resource',
    async observe(ctx) {
      const { id } = await createCharge(ctx, {}, ctx.tokens.production);
      return (await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox })).status !== 403;
    },
  },
  {
    fault: 'gw-idempotency-fingerprint-ignores-description',
    async observe(ctx) {
      const key = randomUUID();
      await transferWithKey(ctx, key, transferBody({ amount: 300, description: 'first' }));
      return (await transferWithKey(ctx, key, transferBody({ amount: 300, description: 'second' }))).status !== 409;
    },
  },
  {
    fault: 'gw-idempotency-cache-ignores-account',
    async observe(ctx) {
      const key = randomUUID();
      const mine = await transferWithKey(ctx, key, transferBody());
      const theirs = await transferWithKey(ctx, key, transferBody(), ctx.tokens.other);
      return theirs.id === mine.id;
    },
  },
  // Issue 15: isolation of environments and accounts
  {
    fault: 'gw-webhook-dispatch-ignores-environment',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_created'], ctx.tokens.production);
      await createCharge(ctx);
      return arrivesWithin(path, 300);
    },
  },
  {
    fault: 'gw-webhook-dispatch-by-event-only',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_created'], ctx.tokens.other);
      await createCharge(ctx);
      return arrivesWithin(path, 300);
    },
  },
  {
    fault: 'gw-simulation-checks-ownership-only',
    async observe(ctx) {
      const { id } = await createCharge(ctx, {}, ctx.tokens.production);
      const sandboxCharge = await createCharge(ctx);
      const foreign = await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${sandboxCharge.id}/pay`, { token: ctx.tokens.production });
      return foreign.status === 403 && (await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.production })).status === 200;
    },
  },
  {
    fault: 'gw-balance-shared-across-environments',
    async observe(ctx) {
      const before = await balanceCents(ctx, ctx.tokens.production);
      await paidCharge(ctx, 1_000);
      return (await balanceCents(ctx, ctx.tokens.production)) !== before;
    },
  },
  {
    fault: 'gw-pixin-confirms-itself',
    async observe(ctx) {
      const { id } = await createCharge(ctx);
      const lookups = [];
      for (let i = 0; i < 3; i++) lookups.push(pick((await call(ctx.base, 'GET', `/api/v1/pix/in/qrcode/${id}`, { token: ctx.tokens.sandbox })).body, 'data.status'));
      return lookups.includes('paid');
    },
  },
  { fault: 'gw-error-not-found-without-code', observe: async (ctx) => (await call(ctx.base, 'GET', '/api/v1/pix/out/pixkey/nope', { token: ctx.tokens.sandbox })).body.error !== 'NOT_FOUND' },
  {
    fault: 'gw-error-malformed-json-500',
    observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/pix/in/qrcode', { token: ctx.tokens.sandbox, rawBody: '{"amountInCents"', headers: { 'content-type': 'application/json' } })).status >= 500,
  },
  // Issue 15: PIX charges (reference/gateway/faults-pix-charges.ts)
  { fault: 'gw-pixin-status-enum-name', observe: async (ctx) => pick((await createCharge(ctx)).body, 'data.status') === 'PENDING' },
  {
    fault: 'gw-pixin-orm-row-serialised',
    async observe(ctx) {
      const { body } = await createCharge(ctx);
      return typeof pick(body, 'data.id') === 'number' && typeof pick(body, 'data.fees') === 'string';
    },
  },
  { fault: 'gw-pixin-qrcode-svg', observe: async (ctx) => Buffer.from(pickString((await createCharge(ctx)).body, 'data.pix.qrCode'), 'base64').toString('utf8').includes('<svg') },
  {
    fault: 'gw-pixin-lookup-read-model',
    async observe(ctx) {
      const { id } = await createCharge(ctx);
      await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${id}/pay`, { token: ctx.tokens.sandbox });
      const lookup = (await call(ctx.base, 'GET', `/api/v1/pix/in/qrcode/${id}`, { token: ctx.tokens.sandbox })).body;
      return pick(lookup, 'data.status') === 'pending' && pick(lookup, 'message') === undefined;
    },
  },
  { fault: 'gw-pixin-pay-unknown-crashes', observe: async (ctx) => (await call(ctx.base, 'POST', `/api/v1/pix/in/qrcode/${randomUUID()}/pay`, { token: ctx.tokens.sandbox })).status >= 500 },
  { fault: 'gw-txn-lookup-card-only', observe: async (ctx) => (await call(ctx.base, 'GET', `/api/v1/transactions/${(await createCharge(ctx)).id}`, { token: ctx.tokens.sandbox })).status === 404 },
  {
    fault: 'gw-simulation-events-not-emitted',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_paid']);
      await paidCharge(ctx, 1_000);
      return !(await arrivesWithin(path, 500));
    },
  },
  { fault: 'gw-pixin-optional-fields-required', observe: async (ctx) => (await chargeStatus(ctx, { customer: { documentType: 'cpf', document: '52998224725' } })) === 400 },
  { fault: 'gw-pixin-nested-fields-refused', observe: async (ctx) => (await chargeStatus(ctx, { trackingParameters: { utm_source: 'newsletter' } })) === 400 },
  { fault: 'gw-pixin-postback-query-refused', observe: async (ctx) => (await chargeStatus(ctx, { postbackUrl: `${receiver.url}/${randomUUID()}?order=1` })) === 400 },
  {
    fault: 'gw-pixin-lenient-request',
    async observe(ctx) {
      const statuses = await Promise.all([
        chargeStatus(ctx, { amountInCents: '1000' }),
        chargeStatus(ctx, { customer: undefined }),
        chargeStatus(ctx, { customer: { documentType: 'rg', document: 'CPF52998224725' } }),
      ]);
      return statuses.every((s) => s === 200);
    },
  },
  // PIX transfers and card charges (issue 15 proof)
  ...TRANSFER_CARD_PROBES,
  // Issue 15 (proof): authentication, webhooks, events, errors, general
  {
    fault: 'gw-auth-opaque-session-token',
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const reply = await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: basic(c.clientId, c.clientSecret) } });
      return reply.body.success === undefined && reply.body.tokenType !== 'Bearer' && !String(reply.body.token).includes('.');
    },
  },
  {
    fault: 'gw-auth-scheme-ignored',
    observe: async (ctx) => (await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: basic(ctx.gateway.app.credentials.clientId, ctx.gateway.app.credentials.clientSecret).replace(/^Basic/, 'Bearer') } })).status === 200,
  },
  { fault: 'gw-auth-missing-token-403', observe: async (ctx) => (await call(ctx.base, 'GET', '/api/v1/balance')).status === 403 },
  {
    fault: 'gw-auth-cached-token-reissued',
    tokenTtlMs: 1,
    async observe(ctx) {
      const c = ctx.gateway.app.credentials;
      const first = await login(ctx.base, c.clientId, c.clientSecret);
      const issued = Date.now();
      await eventually(() => Date.now() > issued + 5, 1_000);
      return (await login(ctx.base, c.clientId, c.clientSecret)) === first;
    },
  },
  {
    fault: 'gw-webhook-entity-serializer',
    async observe(ctx) {
      const reply = await call(ctx.base, 'POST', '/api/v1/webhook', { token: ctx.tokens.sandbox, body: { url: `${receiver.url}/x`, events: ['transaction_paid'] } });
      const data = pick(reply.body, 'data') as Record<string, unknown>;
      return typeof data.id === 'string' && typeof data.events === 'string' && typeof data.createdAt === 'number' && data.signatureSecret === undefined;
    },
  },
  {
    fault: 'gw-webhook-list-not-json',
    async observe(ctx) {
      await hook(ctx, ['transaction_paid']);
      return (await call(ctx.base, 'GET', '/api/v1/webhook', { token: ctx.tokens.sandbox })).text.startsWith('[object Object]');
    },
  },
  { fault: 'gw-webhook-events-default-all', observe: async (ctx) => (await call(ctx.base, 'POST', '/api/v1/webhook', { token: ctx.tokens.sandbox, body: { url: `${receiver.url}/x` } })).status === 200 },
  {
    fault: 'gw-webhook-form-encoded',
    async observe(ctx) {
      const { delivery } = await paidDelivery(ctx);
      return String(delivery.headers['content-type']).startsWith('application/x-www-form-urlencoded') && delivery.body.startsWith('payload=');
    },
  },
  {
    fault: 'gw-events-creation-not-emitted',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_created', 'transaction_paid']);
      await paidCharge(ctx, 1_000);
      const [first] = await deliveriesAt(path);
      return (JSON.parse(first?.body ?? '{}') as Record<string, unknown>).event === 'transaction_paid';
    },
  },
  {
    fault: 'gw-events-settled-as-updated',
    async observe(ctx) {
      const { path } = await hook(ctx, ['transaction_paid', 'transaction_updated']);
      await paidCharge(ctx, 1_000);
      const [first] = await deliveriesAt(path);
      return (JSON.parse(first?.body ?? '{}') as Record<string, unknown>).event === 'transaction_updated';
    },
  },
  {
    fault: 'gw-webhook-dispatch-first-match',
    async observe(ctx) {
      await hook(ctx, ['transaction_created']);
      const second = await hook(ctx, ['transaction_created']);
      await createCharge(ctx);
      return !(await arrivesWithin(second.path, 300));
    },
  },
  {
    fault: 'gw-webhook-envelope-outbox-row',
    async observe(ctx) {
      const json = JSON.parse((await paidDelivery(ctx)).delivery.body) as Record<string, unknown>;
      return typeof json.id === 'number' && json.scope === 'USER';
    },
  },
  { fault: 'gw-webhook-event-name-enum-constant', observe: async (ctx) => (JSON.parse((await paidDelivery(ctx)).delivery.body) as Record<string, unknown>).event === 'TRANSACTION_PAID' },
  {
    fault: 'gw-production-pair-refused',
    tokenTtlMs: 60_000,
    observe: async (ctx) => (await call(ctx.base, 'POST', '/api/auth', { headers: { authorization: basic(ctx.gateway.app.credentials.liveClientId, ctx.gateway.app.credentials.liveClientSecret) } })).status === 401,
  },
  {
    fault: 'gw-validation-errors-array',
    async observe(ctx) {
      const reply = await call(ctx.base, 'POST', '/api/v1/pix/in/qrcode', { token: ctx.tokens.sandbox, body: chargeBody({ amountInCents: 99 }) });
      return reply.status === 422 && reply.body.message === undefined && Array.isArray(reply.body.errors);
    },
  },
  { fault: 'gw-balance-route-unversioned', observe: async (ctx) => (await call(ctx.base, 'GET', '/api/v1/balance', { token: ctx.tokens.sandbox })).status === 404 },
];

function basic(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

async function runProbe(probe: Probe, faults: string[]): Promise<boolean> {
  const gateway = await startGateway(faults, { tokenTtlMs: probe.tokenTtlMs });
  try {
    const tokens = probe.tokenTtlMs === undefined ? await tokensOf(gateway) : { sandbox: '', production: '', other: '' };
    return await probe.observe({ gateway, base: gateway.baseUrl, tokens, receiver });
  } finally {
    await gateway.close();
  }
}

describe('gateway faults', () => {
  it('has one probe per catalogued fault, and at least 32 faults', () => {
    expect(GATEWAY_FAULTS.length).toBeGreaterThanOrEqual(32);
    expect(new Set(PROBES.map((p) => p.fault))).toEqual(new Set(GATEWAY_FAULTS.map((f) => f.name)));
  });

  it('every fault names requirement ids and a kebab-case gw- name', () => {
    for (const fault of GATEWAY_FAULTS) {
      expect(fault.name).toMatch(/^gw-[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.requirements.length).toBeGreaterThan(0);
      for (const id of fault.requirements) expect(id).toMatch(/^GW-[A-Z0-9]+(-[A-Z0-9]+)+$/);
    }
  });

  it.each(PROBES.map((p) => [p.fault, p] as const))('%s: shows with the fault on, not without', async (_name, probe) => {
    expect(await runProbe(probe, [probe.fault])).toBe(true);
    expect(await runProbe(probe, [])).toBe(false);
  });
});
