/**
 * Shared helpers of the gateway suites: valid request bodies (fixed and generated), small readers
 * of response bodies, and a balance reader. Suite-side only (never imports reference/).
 *
 * Stable API (other gateway suites import it): {@link pixChargeBody}, {@link pixChargeRequest},
 * {@link cardChargeBody}, {@link cardChargeRequest}, {@link createPendingCharge},
 * {@link readPixBalance}, {@link reaisToCents}, {@link balanceAround}, {@link dataOf}, {@link isRecord},
 * {@link uniqueTag}, {@link freshCpf}. The judging helpers moved to the rulebook:
 * `expectInvalidBodyRejected` → harness/rules/gateway/errors.ts, `effectsAgree` →
 * harness/rules/gateway/pix-charges.ts.
 *
 * Contract (gateway-api.md): "POST /api/v1/pix/in/qrcode" (amountInCents integer, minimum 100;
 * customer documentType cpf|cnpj with a valid document, digits only), "POST /api/v1/card"
 * (currency USD|EUR, card.token/last4/brand/holderName, customer with a complete billingAddress),
 * "Balance" (strings in reais with 2 decimals).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse, CardChargeRequest, GatewayClient, PixChargeRequest } from '../../harness/http/gateway-client.js';
import { expectStatus } from '../../harness/rules/status.js';
import { dataOf, isRecord } from '../../harness/core/json.js';
import { card, cardCustomer, cpfCheckDigits, pixCustomer, trackingParameters } from '../../generators/index.js';
import type { CardOptions, CardCustomerOptions, PixCustomerOptions } from '../../generators/index.js';

export { dataOf, isRecord };

/** A short unique tag for descriptions, ids and callback paths (never collides across workers). */
export function uniqueTag(prefix = 'conf'): string {
  return `${prefix}-${randomUUID().slice(0, 18)}`;
}

/** A fresh valid CPF (digits only), not from fast-check: for fixed bodies outside properties. */
export function freshCpf(): string {
  for (;;) {
    const base = String(Math.floor(Math.random() * 1_000_000_000)).padStart(9, '0');
    if (/^(\d)\1*$/.test(base)) continue;
    return base + cpfCheckDigits(base);
  }
}

/** A minimal valid PIX charge body (CPF customer, R$ 10.00 by default); `overrides` are merged at the top level. */
export function pixChargeBody(overrides: Partial<PixChargeRequest> = {}): PixChargeRequest {
  return {
    amountInCents: 1000,
    customer: { documentType: 'cpf', document: freshCpf(), name: 'Conformance Payer' },
    description: uniqueTag('pix'),
    ...overrides,
  };
}

export interface PixChargeRequestOptions {
  /** amount arbitrary (default 100 … 500 000 cents) */
  amount?: Arbitrary<number>;
  /** customer options (default: CPF or numeric CNPJ, random optional fields) */
  customer?: PixCustomerOptions;
  /** include generated items / trackingParameters / description sometimes (default true) */
  extras?: boolean;
}

const ITEM_TITLE_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -';

/** An item: title, tangible, quantity ≥ 1, amountInCents ≥ 1 (Item table; no item limits are shown). */
function itemArb(): Arbitrary<NonNullable<PixChargeRequest['items']>[number]> {
  return fc.record({
    title: fc.string({ unit: fc.constantFrom(...ITEM_TITLE_CHARS), minLength: 1, maxLength: 30 }).map((s) => `Item ${s}`.trim()),
    tangible: fc.boolean(),
    quantity: fc.integer({ min: 1, max: 5 }),
    amountInCents: fc.integer({ min: 1, max: 100_000 }),
  });
}

/**
 * Valid PIX charge bodies by the contract's words: amount ≥ 100, a valid customer, and optionally
 * an ASCII description ≤ 140, items and trackingParameters. No postbackUrl (it would make the
 * target call out) and no splits (they need a platform e-mail: see pix-charges.test.ts).
 */
export function pixChargeRequest(options: PixChargeRequestOptions = {}): Arbitrary<PixChargeRequest> {
  const extras = options.extras ?? true;
  return fc
    .record({
      amountInCents: options.amount ?? fc.integer({ min: 100, max: 500_000 }),
      customer: pixCustomer(options.customer ?? {}),
      description: extras ? fc.option(fc.string({ unit: fc.constantFrom(...ITEM_TITLE_CHARS), minLength: 1, maxLength: 60 }).map((s) => `d ${s}`.trim()), { nil: undefined }) : fc.constant(undefined),
      items: extras ? fc.option(fc.array(itemArb(), { minLength: 1, maxLength: 3 }), { nil: undefined }) : fc.constant(undefined),
      trackingParameters: extras ? fc.option(trackingParameters(), { nil: undefined }) : fc.constant(undefined),
    })
    .map((r) => {
      const body: PixChargeRequest = { amountInCents: r.amountInCents, customer: r.customer };
      if (r.description !== undefined) body.description = r.description;
      if (r.items !== undefined) body.items = r.items;
      if (r.trackingParameters !== undefined) body.trackingParameters = r.trackingParameters;
      return body;
    });
}

/** A fixed valid card body (USD 25.00, approved `ctoken_` token unique per call); `overrides` merged at the top level. */
export function cardChargeBody(overrides: Partial<CardChargeRequest> = {}): CardChargeRequest {
  return {
    amountInCents: 2500,
    currency: 'USD',
    card: { token: `ctoken_${randomUUID().replace(/-/g, '')}`, last4: '4242', brand: 'visa', holderName: 'JOHN DOE' },
    customer: {
      name: 'John Doe',
      documentType: 'cpf',
      document: '',
      email: 'john.doe@example.com',
      billingAddress: { street: 'Main Street', number: '100', neighborhood: 'Downtown', city: 'Lisbon', state: 'LX', zipCode: '1000-001' },
    },
    description: uniqueTag('card'),
    ...overrides,
  };
}

export interface CardChargeRequestOptions {
  card?: CardOptions;
  customer?: CardCustomerOptions;
  amount?: Arbitrary<number>;
  /** include trackingParameters sometimes (default true) */
  extras?: boolean;
}

/** Valid card bodies: USD or EUR, amount ≥ 100, a `card` (approved token by default) and a complete card customer. */
export function cardChargeRequest(options: CardChargeRequestOptions = {}): Arbitrary<CardChargeRequest> {
  const extras = options.extras ?? true;
  return fc
    .record({
      amountInCents: options.amount ?? fc.integer({ min: 100, max: 500_000 }),
      currency: fc.constantFrom('USD' as const, 'EUR' as const),
      card: card(options.card ?? {}),
      customer: cardCustomer(options.customer ?? {}),
      trackingParameters: extras ? fc.option(trackingParameters(), { nil: undefined }) : fc.constant(undefined),
    })
    .map((r) => {
      const body: CardChargeRequest = { amountInCents: r.amountInCents, currency: r.currency, card: r.card, customer: r.customer };
      if (r.trackingParameters !== undefined) body.trackingParameters = r.trackingParameters;
      return body;
    });
}

export interface CreatedCharge {
  id: string;
  response: ApiResponse;
  data: Record<string, unknown>;
}

/**
 * Creates a PIX charge and returns its id, recording a status finding (200 expected: "200:
 * `success`, `message`, `data`") on `run` when it fails. Returns undefined when no usable charge
 * came back (the caller stops: later steps would be meaningless).
 */
export async function createPendingCharge(gw: GatewayClient, run: CheckRun, body: PixChargeRequest = pixChargeBody()): Promise<CreatedCharge | undefined> {
  const response = await gw.createPixCharge(body);
  const created = run.record(expectStatus(response.exchange, 200, { requirements: ['GW-PIXIN-CREATE-200'] }));
  const data = dataOf(response.json);
  if (!created || !data || typeof data.id !== 'string' || data.id === '') return undefined;
  return { id: data.id, response, data };
}

/** `"10.50"` → 1050, `"-3.00"` → -300; undefined unless a string in reais with exactly 2 decimals. */
export function reaisToCents(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(value);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number(m[3]);
  return m[1] === '-' ? -cents : cents;
}

/**
 * GET /api/v1/balance and `data.pix.balance` in cents (undefined when the call or the value is not
 * usable; the response is validated against the contract by the client's CheckRun anyway).
 */
export async function readPixBalance(gw: GatewayClient): Promise<{ cents: number | undefined; response: ApiResponse }> {
  const response = await gw.getBalance();
  if (response.status !== 200) return { cents: undefined, response };
  const data = dataOf(response.json);
  const pix = data && isRecord(data.pix) ? data.pix : undefined;
  return { cents: reaisToCents(pix?.balance), response };
}

/**
 * The sandbox balance is shared by every test file of the run, and files run in parallel: any read
 * may include other files' credits (paid charges) and debits (completed transfers). A balance
 * check therefore never trusts one before/after pair. {@link balanceAround} reads the balance
 * twice before and twice after an action, each pair `spacingMs` apart (callers pass the action's
 * own duration, so the pairs watch as long as the action takes); the window is `quiet` when both
 * pairs are equal, i.e. nothing else moved the balance just before or just after the action.
 * Callers decide only on quiet windows and need several agreeing ones (see the balance and card
 * suites), so a concurrent credit or debit that lands inside the action's gap cannot fail a
 * correct target: it would have to do so repeatedly, each time mimicking the same deviation.
 */
export interface BalanceWindow<T> {
  result: T;
  /** the two reads before the action, in cents */
  before: [number, number];
  /** the two reads after the action, in cents */
  after: [number, number];
  /** `after[0] − before[1]`: what the action (and anything concurrent in that gap) moved */
  delta: number;
  /** no change within the read pair before nor within the read pair after */
  quiet: boolean;
  /** how long the action took (ms) */
  actionMs: number;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `action` between two pairs of balance reads; undefined when a balance read was unusable. */
export async function balanceAround<T>(gw: GatewayClient, action: () => Promise<T>, options: { spacingMs?: number } = {}): Promise<BalanceWindow<T> | undefined> {
  const spacing = Math.min(Math.max(options.spacingMs ?? 0, 0), 2000);
  const b0 = await readPixBalance(gw);
  if (spacing) await pause(spacing);
  const b1 = await readPixBalance(gw);
  const started = Date.now();
  const result = await action();
  const actionMs = Date.now() - started;
  const a0 = await readPixBalance(gw);
  if (spacing) await pause(spacing);
  const a1 = await readPixBalance(gw);
  if (b0.cents === undefined || b1.cents === undefined || a0.cents === undefined || a1.cents === undefined) return undefined;
  return {
    result,
    before: [b0.cents, b1.cents],
    after: [a0.cents, a1.cents],
    delta: a0.cents - b1.cents,
    quiet: b0.cents === b1.cents && a0.cents === a1.cents,
    actionMs,
  };
}
