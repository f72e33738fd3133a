/**
 * The ledger behind `GET /v1/business/finance` ("Finance statement"): a capture posts balanced
 * transactions and raises `available_cents` by the merchant's net less any part withheld into
 * `reserve_cents`; the statement shows the last 50 postings, newest first (or oldest first).
 */
import type { PartnerFaultSwitch } from './faults.js';
import type { Ledger, LedgerEntry, LedgerTransaction, PartnerStore, PixChargeView } from './store.js';
import { randomHex } from './store.js';
import { formatTimestamp } from '../shared/time.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';

/** "transactions[] | last 50 ledger postings" (Limits: "finance transactions | last 50"). */
export const STATEMENT_TRANSACTIONS = 50;

/** The sandbox's fee: 0.99 % of the amount rounded down, 1.5 % rounded, or none (personality; the contract shows no fee). */
export function captureFeeCents(amountCents: number, rule: Personality['ptCaptureFee'] = 'percent-0.99-floor'): number {
  if (rule === 'zero') return 0;
  if (rule === 'percent-1.5-round') return Math.round((amountCents * 150) / 10_000);
  return Math.floor((amountCents * 99) / 10_000);
}

/** The fee rate in basis points of a fee rule (0.99 % = 99). */
function feeRateBasisPoints(rule: Personality['ptCaptureFee']): number {
  return rule === 'percent-1.5-round' ? 150 : rule === 'zero' ? 0 : 99;
}

/**
 * "reserve_cents | held in risk reserve, if applicable": the part of a capture's net withheld
 * into the reserve (personality): none, 10 % rounded down, or 5 % rounded up.
 */
export function reserveCents(netCents: number, rule: Personality['ptCaptureReserve'] = 'none'): number {
  if (rule === 'none' || netCents <= 0) return 0;
  if (rule === 'hold-posting-5pct-ceil') return Math.ceil((netCents * 5) / 100);
  return Math.floor((netCents * 10) / 100);
}

export const ACCOUNT_CODES = {
  pspClearing: 'psp_clearing',
  merchantAvailable: 'merchant_available',
  feeRevenue: 'fee_revenue',
} as const;

function posting(eventType: string, description: string, entries: LedgerEntry[], p: Personality): LedgerTransaction {
  return {
    id: `txn_${randomHex(12)}`,
    event_type: eventType,
    description,
    created_at: formatTimestamp(Date.now(), { precision: 'ms', offset: p.ptLedgerCreatedAtOffset }),
    entries,
  };
}

/**
 * Posts the capture of a paid charge to the ledger of the charge's own account and environment.
 * Every posting balances, and the balances move by what the postings say: available_cents by the
 * merchant account's credits minus its debits, reserve_cents by the reserve account's. With a
 * reserve, the part withheld reaches the reserve account in one of three ways (personality): a
 * credit in the capture posting beside a smaller merchant credit (`split`), the same debit and
 * credit pair added to the capture posting after the full merchant credit (`hold-entries`), or a
 * second posting `reserve.hold` naming the charge (`hold-posting`).
 */
export function postCapture(ledger: Ledger, charge: PixChargeView, faults: PartnerFaultSwitch, p: Personality = DEFAULT_PERSONALITY): void {
  if (faults.has('pt-capture-not-posted')) return;
  const fee = captureFeeCents(charge.amount_cents, p.ptCaptureFee);
  const net = charge.amount_cents - fee;
  const withheld = reserveCents(net, p.ptCaptureReserve);
  const codes = p.ptLedgerAccountCodes;
  const rule = withheld > 0 ? p.ptCaptureReserve : 'none';
  // fault pt-pay-race-double-effects: the posting is unique per charge (a duplicate insert is
  // silently skipped), but the balance update beside it is not guarded
  if (faults.has('pt-pay-race-double-effects') && ledger.transactions.some((t) => t.description.includes(charge.id))) {
    ledger.availableCents += net - withheld;
    ledger.reserveCents += withheld;
    return;
  }
  // fault pt-ledger-fee-rounding: the fee line rounded up, the net computed from the fee rounded down
  const feeLine = faults.has('pt-ledger-fee-rounding') ? Math.ceil((charge.amount_cents * feeRateBasisPoints(p.ptCaptureFee)) / 10_000) : fee;
  const entries: LedgerEntry[] = [
    { account_code: codes.clearing, direction: 'debit', amount_cents: charge.amount_cents },
    { account_code: codes.merchant, direction: 'credit', amount_cents: rule === 'split-10pct-floor' ? net - withheld : net },
  ];
  if (rule === 'split-10pct-floor') entries.push({ account_code: codes.reserve, direction: 'credit', amount_cents: withheld });
  // A zero-value entry says nothing; tiny amounts (and a fee-free capture) have no fee line.
  if (feeLine > 0 && !faults.has('pt-ledger-unbalanced')) {
    entries.push({ account_code: codes.fee, direction: 'credit', amount_cents: feeLine });
  }
  const hold: LedgerEntry[] = [
    { account_code: codes.merchant, direction: 'debit', amount_cents: withheld },
    { account_code: codes.reserve, direction: 'credit', amount_cents: withheld },
  ];
  if (rule === 'hold-entries-10pct-floor') entries.push(...hold);
  ledger.transactions.push(posting('payment.captured', `PIX charge ${charge.id} captured`, entries, p));
  if (rule === 'hold-posting-5pct-ceil') ledger.transactions.push(posting('reserve.hold', `PIX charge ${charge.id}: risk reserve withheld`, hold, p));
  if (faults.has('pt-available-balance-stale')) return;
  // fault pt-available-credited-gross: the posting splits the fee (and any reserve) off, the balance ignores it
  const credited = faults.has('pt-available-credited-gross') ? charge.amount_cents : net - withheld;
  // fault pt-capture-debits-available: a sign error, the capture lowers the balance
  ledger.availableCents += faults.has('pt-available-balance-doubled') ? 2 * (net - withheld) : faults.has('pt-capture-debits-available') ? -credited : credited;
  if (!faults.has('pt-available-credited-gross')) ledger.reserveCents += withheld;
}

/**
 * Fault `pt-cancel-paid-refunds`: the capture of a paid charge reversed by a `refund.reversal`
 * posting (every entry of the capture mirrored) and the balances moved back by it.
 */
export function reverseCapture(ledger: Ledger, charge: PixChargeView, p: Personality = DEFAULT_PERSONALITY): void {
  const capture = ledger.transactions.find((t) => t.event_type === 'payment.captured' && t.description.includes(charge.id));
  if (!capture) return;
  const entries: LedgerEntry[] = capture.entries.map((e) => ({ ...e, direction: e.direction === 'debit' ? 'credit' : 'debit' }));
  ledger.transactions.push(posting('refund.reversal', `PIX charge ${charge.id} refunded`, entries, p));
  const codes = p.ptLedgerAccountCodes;
  for (const e of capture.entries) {
    const sign = e.direction === 'credit' ? -1 : 1;
    if (e.account_code === codes.merchant) ledger.availableCents += sign * e.amount_cents;
    if (e.account_code === codes.reserve) ledger.reserveCents += sign * e.amount_cents;
  }
}

export interface FinanceStatement {
  /** a number only under fault pt-finance-orm-serialised */
  merchant_id: string | number;
  currency?: 'BRL';
  available_cents: number | string;
  reserve_cents: number | string;
  transactions: Array<Omit<LedgerTransaction, 'entries' | 'id'> & { id: string | number; entries: Array<Omit<LedgerEntry, 'amount_cents'> & { amount_cents: number | string }> }>;
}

/** Fault pt-finance-orm-serialised: the integer primary key an ORM gives each merchant, in order of first statement. */
const merchantPrimaryKeys = new Map<string, number>();
function merchantPrimaryKey(merchantId: string): number {
  let pk = merchantPrimaryKeys.get(merchantId);
  if (pk === undefined) merchantPrimaryKeys.set(merchantId, (pk = merchantPrimaryKeys.size + 1));
  return pk;
}

/** The postings a statement shows, oldest first: the last `shown` (fault: the first). */
function lastPostings(ledger: Ledger, shown: number, faults: PartnerFaultSwitch): LedgerTransaction[] {
  return faults.has('pt-finance-first-50') ? ledger.transactions.slice(0, shown) : ledger.transactions.slice(-shown);
}

export function buildStatement(store: PartnerStore, merchantId: string, ledgerScope: string, faults: PartnerFaultSwitch, p: Personality = DEFAULT_PERSONALITY): FinanceStatement {
  const ledger = store.ledger(ledgerScope);
  const shown = faults.has('pt-finance-over-50') ? 2 * STATEMENT_TRANSACTIONS : STATEMENT_TRANSACTIONS;
  const money = (cents: number): number | string => (faults.has('pt-finance-amounts-as-strings') ? String(cents) : cents);
  const statement: FinanceStatement = {
    merchant_id: merchantId,
    currency: 'BRL', // "currency | string | always BRL"
    available_cents: money(ledger.availableCents),
    reserve_cents: money(ledger.reserveCents),
    // "last 50 ledger postings": newest first, or oldest first (personality; the order is not stated)
    // fault pt-finance-first-50: the first postings of the ledger instead of the last
    transactions: (p.ptLedgerOrder === 'newest-first' ? lastPostings(ledger, shown, faults).reverse() : lastPostings(ledger, shown, faults))
      .map((t) => ({ ...t, entries: t.entries.map((e) => ({ ...e, amount_cents: money(e.amount_cents) })) })),
  };
  if (faults.has('pt-finance-currency-missing')) delete statement.currency;
  if (faults.has('pt-finance-orm-serialised')) {
    // fault pt-finance-orm-serialised: rows rendered as the ORM holds them — integer primary keys
    // (the posting's row number in the ledger), a Decimal reserve printed with two places
    const rowNumber = new Map(ledger.transactions.map((t, i) => [t.id, i + 1]));
    statement.merchant_id = merchantPrimaryKey(merchantId);
    statement.reserve_cents = (ledger.reserveCents / 100).toFixed(2);
    statement.transactions = statement.transactions.map((t) => ({ ...t, id: rowNumber.get(String(t.id)) ?? 0 }));
  }
  return statement;
}
