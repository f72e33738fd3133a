/**
 * International card charges. Contract: "POST /api/v1/card", "Card charge", "Customer (card
 * request)", "Card charge" and "Card receivable" states, and "What the service does" (approved
 * sales open a receivable settling at D+7; they never become PIX balance).
 */
import type { Personality } from '../personality.js';
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { isValidCnpj, isValidCpf } from './documents.js';
import { failure, invalidField } from './errors.js';
import { minimumCardAmount } from './limits.js';
import { coercedAmount } from './pix-out.js';
import { isPlausibleEmail } from './pix-keys.js';
import { readJsonObject } from './request-body.js';
import { nowIso, scopeOf, type CardSale, type CardStatus } from './store.js';
import { resolveTrackingParameters } from './tracking.js';
import {
  isJsonObject,
  optionalHttpUrl,
  optionalInteger,
  optionalObject,
  optionalString,
  requireInteger,
  requireObject,
  requireString,
  type JsonObject,
} from './validation.js';

/** "default D+7 calendar days" */
const SETTLEMENT_DAYS = 7;
const BILLING_ADDRESS_FIELDS = ['street', 'number', 'neighborhood', 'city', 'state', 'zipCode'] as const;

/**
 * Field names that would carry raw card data: "raw card number, CVV or expiry are never
 * accepted". Compared lower-case with separators removed (card_number, exp-month…).
 */
const RAW_CARD_FIELDS = new Set([
  'number', 'cardnumber', 'pan', 'primaryaccountnumber',
  'cvv', 'cvv2', 'cvc', 'cvc2', 'cid', 'securitycode',
  'expiry', 'expirydate', 'expiration', 'expirationdate', 'exp', 'expdate',
  'expmonth', 'expyear', 'expirymonth', 'expiryyear', 'expirationmonth', 'expirationyear',
]);

/** The path of the first raw-card-data field anywhere inside `value`, if any. */
function findRawCardField(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findRawCardField(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (RAW_CARD_FIELDS.has(key.toLowerCase().replace(/[^a-z0-9]/g, ''))) return `${path}.${key}`;
    const found = findRawCardField(inner, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}


interface ValidCard {
  token: string;
  brand: string;
  last4: string;
  holderName: string;
  installments: number;
}

/**
 * Fault `gw-card-validates-money-only`: customer and card are passed to the (simulated) acquirer
 * unchecked, and the sandbox acquirer approves whatever it gets (the raw-card-data guard stays).
 */
function unvalidatedCard(value: unknown): ValidCard {
  const card = isJsonObject(value) ? value : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { token: text(card.token), brand: text(card.brand), last4: text(card.last4), holderName: text(card.holderName), installments: 1 };
}

function validateCard(value: unknown, faults: ReadonlySet<string>, p: Personality): ValidCard {
  if (faults.has('gw-card-validates-money-only')) {
    const rawField = findRawCardField(value, 'card');
    if (rawField) throw invalidField(rawField, 'raw card data is never accepted; send the card.token captured in the browser');
    return unvalidatedCard(value);
  }
  const card = requireObject(value, 'card');
  if (!faults.has('gw-card-raw-number-accepted')) {
    const rawField = findRawCardField(card, 'card');
    if (rawField) throw invalidField(rawField, 'raw card data is never accepted; send the card.token captured in the browser');
  }
  // "format ctoken_..." describes the processor's ids, yet "Sandbox: any token is approved": any
  // non-empty token is taken (DECISIONS.md)
  const token = requireString(card.token, 'card.token', { nonEmpty: true });
  // the other reading of the contradiction: only the processor's `ctoken_...` ids are tokens
  if (p.gwCardTokenPrefix && !token.startsWith('ctoken_')) throw invalidField('card.token', 'must be a ctoken_... id captured in the browser');
  // fault: a pattern written from one sample token (ctoken_ and 6 characters) refuses real ids
  if (faults.has('gw-card-token-pattern-from-sample') && !/^ctoken_[a-z0-9]{6}$/.test(token)) throw invalidField('card.token', 'must match ctoken_xxxxxx');
  // "echoed, not validated; a placeholder is allowed": any string, even empty
  const last4 = requireString(card.last4, 'card.last4');
  const brand = requireString(card.brand, 'card.brand');
  const holderName = requireString(card.holderName, 'card.holderName', { nonEmpty: true });
  // "minimum 1; accepted but without effect; always a single payment"
  const installments = optionalInteger(card.installments, 'card.installments', { min: 1 });
  // fault: "always a single payment" enforced as a rule
  if (installments !== undefined && installments > 1 && faults.has('gw-card-installments-single-only')) throw invalidField('card.installments', 'international cards take a single payment');
  // fault: the BRL card validator, where last4 is the four digits the processor extracted
  if (faults.has('gw-card-domestic-validator') && !/^\d{4}$/.test(last4)) throw invalidField('card.last4', 'must be the last 4 digits of the card');
  if (faults.has('gw-card-brand-last4-normalised')) {
    return { token, brand: brand.trim().toLowerCase(), last4: last4.replace(/\D/g, '').slice(-4), holderName, installments: 1 };
  }
  return { token, brand, last4, holderName, installments: 1 };
}

/**
 * Customer (card request). Returns whether the billing address is complete: without it "the
 * charge is refused before reaching the issuer" (a refused sale, not a 400: DECISIONS.md).
 */
function validateCustomer(value: unknown, faults: ReadonlySet<string>, p: Personality): { billingAddressComplete: boolean } {
  // fault `gw-card-validates-money-only`: the customer goes to the acquirer unchecked
  if (faults.has('gw-card-validates-money-only')) return { billingAddressComplete: true };
  const customer = requireObject(value, 'customer');
  requireString(customer.name, 'customer.name', { nonEmpty: true });
  const documentType = requireString(customer.documentType, 'customer.documentType');
  if (documentType !== 'cpf' && documentType !== 'cnpj') throw invalidField('customer.documentType', 'must be cpf or cnpj');
  // "may be empty for international card": international payments do not require a valid document
  const document = requireString(customer.document, 'customer.document');
  // fault: the BRL card validator ("PIX and BRL card payments require a valid CPF or CNPJ") is reused
  if (faults.has('gw-card-domestic-validator') && !(isValidCpf(document) || isValidCnpj(document))) throw invalidField('customer.document', 'must be a valid CPF or CNPJ');
  const email = requireString(customer.email, 'customer.email');
  if (p.gwCardEmailFormat ? !isPlausibleEmail(email) : email.trim() === '') throw invalidField('customer.email', 'must be an e-mail address');
  optionalString(customer.phone, 'customer.phone');
  const address: JsonObject | undefined = optionalObject(customer.billingAddress, 'customer.billingAddress');
  // alt personality: a missing or incomplete address is an invalid body rather than a refused sale
  const invalidBody = p.gwCardMissingBillingAddress === 'invalid-body';
  if (!address) {
    if (invalidBody) throw invalidField('customer.billingAddress', 'is required');
    return { billingAddressComplete: false };
  }
  let complete = true;
  for (const field of BILLING_ADDRESS_FIELDS) {
    const text = optionalString(address[field], `customer.billingAddress.${field}`);
    if (text === undefined || text.trim() === '') {
      if (invalidBody) throw invalidField(`customer.billingAddress.${field}`, 'is required');
      complete = false;
    }
  }
  return { billingAddressComplete: complete };
}

/** "currency | USD or EUR; missing or BRL gives 400" */
function validateCurrency(value: unknown, faults: ReadonlySet<string>): 'USD' | 'EUR' {
  // "missing or BRL gives 400": always 400, whatever status the personality gives field rules
  if (value === undefined || value === null) throw failure(400, 'currency: is required (USD or EUR)');
  if (typeof value !== 'string') throw failure(400, 'currency: must be USD or EUR');
  const currency = value;
  if (currency === 'USD' || currency === 'EUR') return currency;
  // fault: domestic currency slips through (treated as if it were USD)
  if (currency === 'BRL' && faults.has('gw-card-brl-accepted')) return 'USD';
  throw failure(400, 'currency: must be USD or EUR (BRL cards exist only in the hosted checkout)');
}

/** Fault `gw-card-decline-402`: a declined card answers 402 with an error body, not the refused charge. */
function declinedAs402(status: CardStatus, refusalReason: string | undefined, faults: ReadonlySet<string>): void {
  if (faults.has('gw-card-decline-402') && status === 'refused' && refusalReason === 'card_declined') throw failure(402, 'card declined');
}

function decideStatus(card: ValidCard, billingAddressComplete: boolean, faults: ReadonlySet<string>): { status: CardStatus; refusalReason?: string } {
  if (!billingAddressComplete) return { status: 'refused', refusalReason: 'billing_address_required' };
  // sandbox: "a token containing decline is refused"
  if (card.token.toLowerCase().includes('decline') && !faults.has('gw-card-decline-token-paid')) {
    return { status: 'refused', refusalReason: 'card_declined' };
  }
  return { status: 'paid' };
}

export function cardSaleView(sale: CardSale, faults: ReadonlySet<string>, deps: Pick<GatewayDeps, 'personality' | 'time'>): Record<string, unknown> {
  return {
    id: sale.id,
    // fault: the acquirer's wording leaks through ("approved" is no documented card state)
    status: sale.status === 'paid' && faults.has('gw-card-status-approved') ? 'approved' : sale.status,
    amountInCents: sale.amountInCents,
    currency: sale.currency,
    card: { brand: sale.card.brand, last4: sale.card.last4 },
    installments: sale.card.installments,
    ...(sale.refusalReason ? { refusalReason: sale.refusalReason } : {}),
    ...(deps.personality.gwCardRequiresActionField && { requiresAction: false }),
    createdAt: deps.time(sale.createdAt),
  };
}

async function createCardSale(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const { faults, personality: p } = deps;
  const body = await readJsonObject(call.req, faults, p.gwNullOptionalFields === 'absent');
  const currency = validateCurrency(body.currency, faults);
  const amountInCents = requireInteger(coercedAmount(body.amountInCents, faults), 'amountInCents', { min: minimumCardAmount(faults), max: p.gwMaxAmountCents });
  const description = optionalString(body.description, 'description');
  const postbackUrl = optionalHttpUrl(body.postbackUrl, 'postbackUrl');
  const card = validateCard(body.card, faults, p);
  const { billingAddressComplete } = validateCustomer(body.customer, faults, p);
  // fault: trackingParameters.utm_source read without a guard (a TypeError when the object is absent: 500)
  if (faults.has('gw-card-tracking-unguarded') && !isJsonObject(body.trackingParameters)) throw failure(500, "Cannot read properties of undefined (reading 'utm_source')");
  const trackingParameters = resolveTrackingParameters(body.trackingParameters, call.req, postbackUrl, p.gwTrackingLookupOrder);

  const decision = decideStatus(card, billingAddressComplete, faults);
  declinedAs402(decision.status, decision.refusalReason, faults);
  const now = new Date();
  const sale: CardSale = {
    id: deps.store.newId(p.gwCardIdFormat, 'card_'),
    accountId: call.principal.accountId,
    environment: call.principal.environment,
    status: decision.status,
    amountInCents,
    currency,
    card: { brand: card.brand, last4: card.last4, holderName: card.holderName, installments: card.installments },
    description,
    postbackUrl,
    trackingParameters,
    refusalReason: decision.refusalReason,
    createdAt: now.toISOString(),
    updatedAt: nowIso(),
  };
  if (sale.status === 'paid') {
    // "Each approved international card sale opens a receivable that settles after … D+7"
    sale.receivable = {
      status: 'pending_balance',
      amountInCents,
      settlesAt: new Date(now.getTime() + SETTLEMENT_DAYS * 86_400_000).toISOString(),
    };
    // fault: the sale is credited to the withdrawable PIX balance at once
    if (faults.has('gw-card-sale-credits-pix-balance')) deps.store.balanceOf(scopeOf(sale)).pix += amountInCents;
  }
  deps.store.cardSales.set(sale.id, sale);
  // "the sample success status code is 201" (the alt personality answers 200); `success` of a
  // refused sale is not stated (the alt personality says false)
  const success = sale.status === 'paid' || p.gwCardRefusedSuccessFlag;
  const data = cardSaleView(sale, faults, deps);
  // fault: the acquirer is called after the answer, so every charge is answered pending
  if (faults.has('gw-card-pending-at-creation')) data.status = 'pending';
  // fault: the handler returns the charge itself, without the envelope
  if (faults.has('gw-card-response-unwrapped')) return { status: p.gwCardSuccessStatus, body: data };
  return { status: p.gwCardSuccessStatus, body: { success, message: sale.status === 'paid' ? 'Card charge approved' : 'Card charge refused', data } };
}

export function cardRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [{ method: 'POST', pattern: '/api/v1/card', handle: (call) => createCardSale(deps, call) }];
}
