/**
 * The reference gateway's in-memory state. Every resource carries the scope (account +
 * environment) it was created in: the contract isolates sandbox from production ("Sandbox data is
 * isolated") and accounts from each other ("404 resource not found or belongs to another account").
 */
import { randomBytes, randomUUID } from 'node:crypto';

export type Environment = 'sandbox' | 'production';

/** Who is calling: resolved from the Bearer token. */
export interface Principal {
  accountId: string;
  environment: Environment;
  clientId: string;
}

/** The isolation unit: one account in one environment. */
export function scopeOf(owner: { accountId: string; environment: Environment }): string {
  return `${owner.accountId}/${owner.environment}`;
}

export interface Owned {
  accountId: string;
  environment: Environment;
}

export interface PayerInfo {
  name: string;
  document: string;
}

export type ChargeStatus = 'pending' | 'paid' | 'refused' | 'refunded';

export interface PixCharge extends Owned {
  id: string;
  amountInCents: number;
  fees: number;
  status: ChargeStatus;
  emv: string;
  qrCode: string;
  customer: Record<string, unknown>;
  description?: string;
  postbackUrl?: string;
  items: unknown[];
  splits: { email: string; percentage: number }[];
  trackingParameters: Record<string, string>;
  endToEndId?: string;
  payerInfo?: PayerInfo;
  createdAt: string;
  updatedAt: string;
  paidAt?: string;
  /** lookups so far; counted only under fault `gw-pixin-confirms-itself` */
  lookups?: number;
}

export type TransferStatus = 'pending' | 'banking_processing' | 'completed' | 'refused' | 'canceled';

export interface PixTransfer extends Owned {
  id: string;
  status: TransferStatus;
  amount: number;
  netAmount: number;
  fees: number;
  pixKey: string;
  currency: 'BRL';
  description?: string;
  postbackUrl?: string;
  creditorAccount: PayerInfo;
  endToEndId?: string;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
}

export type CardStatus = 'pending' | 'paid' | 'refused' | 'canceled';

export interface CardReceivable {
  status: 'awaiting_advance' | 'pending_balance' | 'available' | 'cancelled';
  amountInCents: number;
  settlesAt: string;
}

export interface CardSale extends Owned {
  id: string;
  status: CardStatus;
  amountInCents: number;
  currency: 'USD' | 'EUR';
  card: { brand: string; last4: string; holderName: string; installments: number };
  description?: string;
  postbackUrl?: string;
  trackingParameters: Record<string, string>;
  refusalReason?: string;
  receivable?: CardReceivable;
  createdAt: string;
  updatedAt: string;
}

export interface Webhook extends Owned {
  id: number;
  url: string;
  events: string[];
  isActive: boolean;
  signatureSecret: string;
  createdAt: string;
  /** set by DELETE; kept only so a fault can keep delivering to it */
  deleted: boolean;
}

/** What `POST /api/v1/pix/out/pixkey` answered for one idempotency key. */
export interface IdempotencyRecord {
  /** canonical JSON of the request body */
  fingerprint: string;
  status: number;
  body: unknown;
}

/** Balances in cents (the balance endpoint renders reais). */
export interface Balances {
  pix: number;
  pixBlocked: number;
  reserve: number;
}

export class GatewayStore {
  readonly charges = new Map<string, PixCharge>();
  readonly transfers = new Map<string, PixTransfer>();
  readonly cardSales = new Map<string, CardSale>();
  readonly webhooks = new Map<number, Webhook>();
  /** keyed by scope + idempotency key */
  readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly balances = new Map<string, Balances>();
  private nextWebhookId: number;
  /** numeric-looking charge ids (personality `gwChargeIdFormat: numeric`) */
  private nextNumericId = 100_000_001;

  constructor(firstWebhookId = 1) {
    this.nextWebhookId = firstWebhookId;
  }

  /** A new id in one of the personality's formats. */
  newId(format: 'uuid' | 'numeric' | 'prefixed', prefix = ''): string {
    if (format === 'numeric') return String(this.nextNumericId++);
    if (format === 'prefixed') return `${prefix}${randomBytes(12).toString('hex')}`;
    return randomUUID();
  }

  balanceOf(scope: string): Balances {
    let balances = this.balances.get(scope);
    if (!balances) {
      // "the sandbox balance starts at zero"
      balances = { pix: 0, pixBlocked: 0, reserve: 0 };
      this.balances.set(scope, balances);
    }
    return balances;
  }

  allocateWebhookId(): number {
    return this.nextWebhookId++;
  }
}

/** ISO 8601 UTC timestamp of now. */
export function nowIso(): string {
  return new Date().toISOString();
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  // 62 symbols: the modulo bias is irrelevant for simulated identifiers
  for (const byte of bytes) text += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return text;
}

/** The reference's simulated participant ISPB (8 digits) used in end-to-end ids. */
const SIMULATED_ISPB = '99999008';

/**
 * A PIX end-to-end id as the central bank formats it: `E` + ISPB (8 digits) + yyyyMMddHHmm (UTC)
 * + 11 alphanumerics = 32 characters.
 */
export function newEndToEndId(at: Date = new Date()): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${SIMULATED_ISPB}${stamp}${randomAlphanumeric(11)}`;
}

/** Cents as reais with exactly 2 decimals, e.g. 1050 → "10.50", -5 → "-0.05". */
export function formatReais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
