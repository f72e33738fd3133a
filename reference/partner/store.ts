/**
 * The partner sandbox's in-memory state: accounts and keys, charges, idempotency records and
 * ledgers. No behaviour lives here beyond lookups; the rules are in charges.ts and finance.ts.
 */
import { createHash, randomBytes } from 'node:crypto';

/** "Key prefix `ak_test_` selects sandbox; `ak_live_` selects production" (Authentication, rule 2). */
export type Environment = 'test' | 'live';

/** Who is calling: one account in one environment. Environments never share data. */
export interface Principal {
  accountId: string;
  environment: Environment;
}

/** "status: pending, paid, expired, canceled" (Resources and their fields, PIX charge). */
export const CHARGE_STATUSES = ['pending', 'paid', 'expired', 'canceled'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** The PIX charge exactly as the API shows it (field order follows the contract table). */
export interface PixChargeView {
  id: string;
  status: ChargeStatus;
  amount_cents: number;
  description: string | null;
  external_ref: string | null;
  customer_email: string | null;
  qr_code: string;
  e2e_id: string | null;
  provider: string;
  expires_at: string;
  created_at: string;
}

export interface StoredCharge {
  view: PixChargeView;
  accountId: string;
  environment: Environment;
  expiresAtMs: number;
  /** creation order; `created_at` alone can tie within a millisecond */
  sequence: number;
}

/** The original answer to an `Idempotency-Key`, replayed verbatim (Errors, "Idempotency"). */
export interface IdempotencyRecord {
  canonicalBody: string;
  status: number;
  body: unknown;
}

export interface LedgerEntry {
  account_code: string;
  direction: 'debit' | 'credit';
  amount_cents: number;
}

export interface LedgerTransaction {
  id: string;
  event_type: string;
  description: string;
  created_at: string;
  entries: LedgerEntry[];
}

export interface Ledger {
  /** oldest first; the statement reverses it */
  transactions: LedgerTransaction[];
  availableCents: number;
  reserveCents: number;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** "only its hash is stored" (Authentication, rule 3): keys are looked up by their SHA-256. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface IssuedKeys {
  apiKey: string;
  liveApiKey: string;
  otherApiKey: string;
}

export class PartnerStore {
  /** account A: the one whose sandbox events go to the registered webhook URL */
  readonly primaryAccountId = `mer_${randomHex(8)}`;
  readonly otherAccountId = `mer_${randomHex(8)}`;
  private readonly principalsByKeyHash = new Map<string, Principal>();
  private readonly charges = new Map<string, StoredCharge>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly ledgers = new Map<string, Ledger>();
  private nextSequence = 1;

  /** Issues the three keys of a process run; only their hashes are kept. */
  issueKeys(): IssuedKeys {
    const keys: IssuedKeys = {
      apiKey: `ak_test_${randomHex(12)}`,
      liveApiKey: `ak_live_${randomHex(12)}`,
      otherApiKey: `ak_test_${randomHex(12)}`,
    };
    this.principalsByKeyHash.set(hashApiKey(keys.apiKey), { accountId: this.primaryAccountId, environment: 'test' });
    this.principalsByKeyHash.set(hashApiKey(keys.liveApiKey), { accountId: this.primaryAccountId, environment: 'live' });
    this.principalsByKeyHash.set(hashApiKey(keys.otherApiKey), { accountId: this.otherAccountId, environment: 'test' });
    return keys;
  }

  principalForKey(key: string): Principal | undefined {
    return this.principalsByKeyHash.get(hashApiKey(key));
  }

  addCharge(charge: Omit<StoredCharge, 'sequence'>): StoredCharge {
    const stored: StoredCharge = { ...charge, sequence: this.nextSequence++ };
    this.charges.set(stored.view.id, stored);
    return stored;
  }

  chargeById(id: string): StoredCharge | undefined {
    return this.charges.get(id);
  }

  /** Every charge, oldest first; callers filter by visibility. */
  allCharges(): StoredCharge[] {
    return [...this.charges.values()];
  }

  idempotencyRecord(scopedKey: string): IdempotencyRecord | undefined {
    return this.idempotency.get(scopedKey);
  }

  saveIdempotencyRecord(scopedKey: string, record: IdempotencyRecord): void {
    this.idempotency.set(scopedKey, record);
  }

  ledger(scope: string): Ledger {
    let ledger = this.ledgers.get(scope);
    if (!ledger) {
      ledger = { transactions: [], availableCents: 0, reserveCents: 0 };
      this.ledgers.set(scope, ledger);
    }
    return ledger;
  }
}
