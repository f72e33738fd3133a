/**
 * PIX charges (cash-in). Contract: "POST /api/v1/pix/in/qrcode", "GET …/{transactionId}",
 * "POST …/{transactionId}/pay (sandbox)", "PIX charge" states, "Customer (PIX IN request)",
 * "Item", "Split", "Limits".
 */
import { buildChargeCode } from './charge-code.js';
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { findVisible, ledgerLatency } from './context.js';
import { isValidCnpj, isValidCpf, randomValidCpf } from './documents.js';
import { isPlausibleEmail } from './pix-keys.js';
import type { Personality } from '../personality.js';
import { ApiError, failure, invalidField, notFound } from './errors.js';
import { pixChargeFee } from './fees.js';
import { MAX_AMOUNT_CENTS, MAX_SPLIT_PERCENT_SUM, maximumDescriptionLength, minimumChargeAmount } from './limits.js';
import { discardBody, readJsonObject } from './request-body.js';
import { newEndToEndId, nowIso, scopeOf, type PixCharge } from './store.js';
import { resolveTrackingParameters } from './tracking.js';
import {
  optionalHttpUrl,
  optionalObject,
  optionalString,
  requireBoolean,
  requireInteger,
  requireObject,
  requireString,
  type JsonObject,
} from './validation.js';

/** "document | digits only; must be valid for PIX", for the declared `documentType`. */
function validateCustomerDocument(documentType: string, sent: string, faults: ReadonlySet<string>, p: Personality): void {
  // punctuation ("123.456.789-09") is refused: the text says digits only (DECISIONS.md); the alt
  // personality strips it (the contract README calls this case ambiguous)
  const document = p.gwDocumentPunctuation === 'accept' ? sent.replace(/[.\-/\s]/g, '') : sent;
  if (!/^[0-9A-Z]+$/.test(document)) throw invalidField('customer.document', 'digits only, no punctuation or spaces');
  // fault: the reserved one-digit documents (00000000000, 11111111111111…) pass the check-digit
  // arithmetic, and the validator lacks the blacklist that refuses them
  const repeatedAllowed = faults.has('gw-document-repeated-digits-accepted');
  if (documentType === 'cpf') {
    const valid = faults.has('gw-pixin-cpf-check-digit-ignored') ? /^\d{11}$/.test(document) && !/^(\d)\1*$/.test(document) : isValidCpf(document, { repeatedAllowed });
    if (!valid) throw invalidField('customer.document', 'not a valid CPF');
  } else if (!isValidCnpj(document, { alphanumeric: !faults.has('gw-pixin-alphanumeric-cnpj-rejected') && p.gwAlphanumericCnpj, repeatedAllowed }) && !cnpjPassesLenientCheck(document, faults)) {
    throw invalidField('customer.document', 'not a valid CNPJ');
  }
}

/**
 * What two CNPJ faults let through besides a valid CNPJ. `gw-pixin-cnpj-check-digit-ignored`: the
 * numeric CNPJ is checked for its 14 digits only (the CPF keeps its check digits: a validator
 * written for CPF and "extended" to CNPJ by length). `gw-pixin-alphanumeric-cnpj-check-digit-ignored`:
 * the alphanumeric CNPJ support was added as a pattern, without its check-digit arithmetic.
 */
function cnpjPassesLenientCheck(document: string, faults: ReadonlySet<string>): boolean {
  if (/^(.)\1*$/.test(document)) return false;
  if (faults.has('gw-pixin-cnpj-check-digit-ignored') && /^\d{14}$/.test(document)) return true;
  return faults.has('gw-pixin-alphanumeric-cnpj-check-digit-ignored') && /^[0-9A-Z]{12}\d{2}$/.test(document) && /[A-Z]/.test(document);
}

/**
 * fault `gw-pixin-lenient-request`: documentType is not read but inferred from the document, and a
 * CPF is reduced to its digits first (a mask stripper that also eats letters).
 */
function inferDocument(customer: JsonObject): { documentType: string; document: string } {
  const sent = requireString(customer.document, 'customer.document');
  const digits = sent.replace(/\D/g, '');
  return digits.length === 11 ? { documentType: 'cpf', document: digits } : { documentType: 'cnpj', document: sent };
}

function validateCustomer(value: unknown, faults: ReadonlySet<string>, p: Personality): JsonObject {
  const customer = requireObject(value, 'customer');
  let documentType: string;
  let document: string;
  if (faults.has('gw-pixin-lenient-request')) {
    ({ documentType, document } = inferDocument(customer));
  } else {
    documentType = requireString(customer.documentType, 'customer.documentType');
    if (documentType !== 'cpf' && documentType !== 'cnpj') throw invalidField('customer.documentType', 'must be cpf or cnpj');
    document = requireString(customer.document, 'customer.document');
  }
  validateCustomerDocument(documentType, document, faults, p);
  // fault: the DTO follows the entity's NOT NULL columns, so the payer's name is required
  if (faults.has('gw-pixin-optional-fields-required')) requireString(customer.name, 'customer.name');
  const name = optionalString(customer.name, 'customer.name');
  const email = optionalString(customer.email, 'customer.email');
  if (email !== undefined && p.gwPixCustomerEmailFormat && !isPlausibleEmail(email)) throw invalidField('customer.email', 'must be an e-mail address');
  const phone = optionalString(customer.phone, 'customer.phone');
  const address = optionalObject(customer.billingAddress, 'customer.billingAddress');
  refuseUndecoratedFields(address, 'customer.billingAddress', faults);
  if (address) {
    for (const field of ['street', 'number', 'neighborhood', 'city', 'state', 'zipCode']) {
      optionalString(address[field], `customer.billingAddress.${field}`);
    }
  }
  return { documentType, document, name, email, phone, billingAddress: address };
}

/**
 * fault `gw-pixin-nested-fields-refused`: a whitelist validator (forbidNonWhitelisted) over nested
 * DTO classes that lack their property decorators refuses every field inside the nested object.
 */
function refuseUndecoratedFields(value: JsonObject | undefined, path: string, faults: ReadonlySet<string>): void {
  if (!faults.has('gw-pixin-nested-fields-refused') || value === undefined) return;
  const [first] = Object.keys(value);
  if (first !== undefined) throw invalidField(`${path}.${first}`, 'property should not exist');
}

function validateItems(value: unknown, faults: ReadonlySet<string>): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidField('items', 'must be an array');
  return value.map((entry: unknown, index) => {
    const path = `items[${index}]`;
    const item = requireObject(entry, path);
    refuseUndecoratedFields(item, path, faults);
    requireString(item.title, `${path}.title`);
    requireBoolean(item.tangible, `${path}.tangible`);
    requireInteger(item.quantity, `${path}.quantity`, { min: 1 });
    requireInteger(item.amountInCents, `${path}.amountInCents`, { min: 0, max: MAX_AMOUNT_CENTS });
    optionalObject(item.shippingAddress, `${path}.shippingAddress`);
    return item;
  });
}

/** Float sums of percentages like 33.33 + 33.33 + 33.34 may land a hair above 100. */
const PERCENT_EPSILON = 1e-9;

/** "email: e-mail of another company on the platform"; "sum over all entries must not exceed 100". */
function validateSplits(value: unknown, ownAccountId: string, deps: GatewayDeps): { email: string; percentage: number }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidField('splits', 'must be an array');
  const splits = value.map((entry: unknown, index) => {
    const path = `splits[${index}]`;
    const split = requireObject(entry, path);
    refuseUndecoratedFields(split, path, deps.faults);
    const email = requireString(split.email, `${path}.email`);
    const recipient = deps.companies.get(email.toLowerCase());
    if (recipient === undefined) throw invalidField(`${path}.email`, 'is not a company on the platform');
    if (recipient === ownAccountId) throw invalidField(`${path}.email`, 'must be another company, not the charging one');
    const percentage = split.percentage;
    if (percentage === undefined || percentage === null) throw invalidField(`${path}.percentage`, 'is required');
    if (typeof percentage !== 'number' || !Number.isFinite(percentage)) throw invalidField(`${path}.percentage`, 'must be a number');
    if (percentage <= 0) throw invalidField(`${path}.percentage`, 'must be greater than 0');
    return { email: email.toLowerCase(), percentage };
  });
  if (!deps.personality.gwDuplicateSplitRecipients) {
    splits.forEach((split, index) => {
      if (splits.findIndex((other) => other.email === split.email) !== index) throw invalidField(`splits[${index}].email`, 'names a recipient already listed');
    });
  }
  const sum = splits.reduce((total, split) => total + split.percentage, 0);
  // fault: the sum is rounded to an integer before the comparison, so 100.01 passes
  const compared = deps.faults.has('gw-pixin-split-sum-over-100-accepted') ? Math.round(sum) : sum;
  if (compared > MAX_SPLIT_PERCENT_SUM + PERCENT_EPSILON) throw invalidField('splits', 'percentages must sum to at most 100');
  return splits;
}

/** The charge as creation and lookup show it (the alt personality shows only the documented fields). */
function chargeView(charge: PixCharge, deps: GatewayDeps): Record<string, unknown> {
  const { id, status, fees } = rowFields(charge, deps.faults);
  if (!deps.personality.gwChargeExtraFields) {
    return { id, pix: { emv: charge.emv, qrCode: charge.qrCode }, status, fees };
  }
  return {
    id,
    status,
    amountInCents: charge.amountInCents,
    fees,
    pix: { emv: charge.emv, qrCode: charge.qrCode, ...(charge.endToEndId ? { endToEndId: charge.endToEndId } : {}) },
    ...(charge.description !== undefined ? { description: charge.description } : {}),
    createdAt: deps.time(charge.createdAt),
    updatedAt: deps.time(charge.updatedAt),
    ...(charge.paidAt ? { paidAt: deps.time(charge.paidAt) } : {}),
  };
}

/**
 * id, status and fees as the answers write them. Faults: `gw-pixin-status-enum-name` (the enum
 * constant's name, PENDING / PAID), `gw-pixin-orm-row-serialised` (the auto-increment row id as a
 * JSON number, fees as the driver's NUMERIC string).
 */
function rowFields(charge: PixCharge, faults: ReadonlySet<string>): { id: string | number; status: string; fees: number | string } {
  const row = faults.has('gw-pixin-orm-row-serialised');
  return {
    id: row ? Number(charge.id) : charge.id,
    status: faults.has('gw-pixin-status-enum-name') ? charge.status.toUpperCase() : charge.status,
    fees: row ? String(charge.fees) : charge.fees,
  };
}

/** The pay answer: "data{id, status, endToEndId} with status paid". */
function paidAnswer(charge: PixCharge, faults: ReadonlySet<string>): Answer {
  const { id, status } = rowFields(charge, faults);
  return { status: 200, body: { success: true, message: 'PIX charge paid', data: { id, status, endToEndId: charge.endToEndId } } };
}

/** fault `gw-pixin-lookup-read-model`: the lookup's read model, written once at creation. */
const readModels = new WeakMap<PixCharge, Record<string, unknown>>();

/** fault `gw-pixin-postback-query-refused`: scheme, host, optional port and path; no query part. */
const POSTBACK_WITHOUT_QUERY = /^https?:\/\/[\w.-]+(:\d+)?(\/[\w./-]*)?$/;

/** fault `gw-pixin-lenient-request`: the amount is coerced (a string is parsed, a fraction truncated). */
function coercedAmount(value: unknown): unknown {
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Math.trunc(Number(value));
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : value;
}

/** fault `gw-pixin-lenient-request`: a charge without customer is created (the payer's data is asked later). */
const PAYER_ASKED_LATER: JsonObject = { documentType: 'cpf', document: '' };

async function createCharge(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  try {
    return await createValidCharge(deps, call);
  } catch (error) {
    // fault: production validates through another stack, answering 422 where the sandbox answers 400
    if (deps.faults.has('gw-production-validation-422') && call.principal.environment !== 'sandbox' && error instanceof ApiError && error.status === 400) {
      throw new ApiError(422, error.body, error.headers);
    }
    throw error;
  }
}

async function createValidCharge(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const { faults, personality: p } = deps;
  const body = await readJsonObject(call.req, faults, p.gwNullOptionalFields === 'absent');
  const lenient = faults.has('gw-pixin-lenient-request');
  const amountInCents = requireInteger(lenient ? coercedAmount(body.amountInCents) : body.amountInCents, 'amountInCents', { min: minimumChargeAmount(faults), max: p.gwMaxAmountCents });
  const customer = lenient && body.customer === undefined ? PAYER_ASKED_LATER : validateCustomer(body.customer, faults, p);
  const description = optionalString(body.description, 'description', { maxChars: maximumDescriptionLength(faults), utf16Units: p.gwCharacterCount === 'utf16-units' });
  const postbackUrl = optionalHttpUrl(body.postbackUrl, 'postbackUrl');
  if (postbackUrl !== undefined && faults.has('gw-pixin-postback-query-refused') && !POSTBACK_WITHOUT_QUERY.test(postbackUrl)) throw invalidField('postbackUrl', 'must be a valid URL');
  if (faults.has('gw-pixin-optional-fields-required')) {
    // fault: NOT NULL entity columns made into required request fields
    for (const field of ['items', 'trackingParameters', 'splits']) if (body[field] === undefined) throw invalidField(field, 'is required');
  }
  const items = validateItems(body.items, faults);
  refuseUndecoratedFields(optionalObject(body.trackingParameters, 'trackingParameters'), 'trackingParameters', faults);
  const trackingParameters = resolveTrackingParameters(body.trackingParameters, call.req, postbackUrl, p.gwTrackingLookupOrder);
  const splits = validateSplits(body.splits, call.principal.accountId, deps);

  // fault `gw-pixin-orm-row-serialised`: the id is the auto-increment row number
  const id = deps.store.newId(faults.has('gw-pixin-orm-row-serialised') ? 'numeric' : p.gwChargeIdFormat);
  const fees = pixChargeFee(amountInCents, p.gwChargeFee);
  const code = await buildChargeCode(id, amountInCents, fees, faults, { merchant: p.gwEmvMerchant, image: p.gwQrImage });
  const now = nowIso();
  const charge: PixCharge = {
    id,
    accountId: call.principal.accountId,
    environment: call.principal.environment,
    amountInCents,
    fees,
    status: 'pending',
    emv: code.emv,
    qrCode: code.qrCode,
    customer,
    description,
    postbackUrl,
    items,
    splits,
    trackingParameters,
    createdAt: now,
    updatedAt: now,
  };
  deps.store.charges.set(id, charge);
  deps.webhooks.emitTransaction('transaction_created', charge);
  const data = chargeView(charge, deps);
  if (faults.has('gw-pixin-lookup-read-model')) readModels.set(charge, { success: true, data: structuredClone(data) });
  return { status: 200, body: { success: true, message: 'PIX charge created', data } };
}

async function getCharge(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const charge = findVisible(deps.store.charges, call.params.transactionId ?? '', call.principal, deps.faults);
  if (!charge) throw notFound('transaction', deps.faults);
  // fault: a sandbox "auto-payer" meant for demos confirms a pending charge when it is polled again,
  // so "PIX payments never confirm by themselves" holds only at creation and at the first lookup
  if (deps.faults.has('gw-pixin-confirms-itself') && charge.environment === 'sandbox') {
    charge.lookups = (charge.lookups ?? 0) + 1;
    if (charge.lookups >= 2 && charge.status === 'pending') await deps.locks.run(`charge:${charge.id}`, async () => confirmCharge(deps, charge));
  }
  // fault: the lookup reads the read model written at creation ({success, data}, no message; the status then)
  const cached = readModels.get(charge);
  if (cached) return { status: 200, body: cached };
  return { status: 200, body: { success: true, message: 'PIX charge found', data: chargeView(charge, deps) } };
}

/** A simulated payer: the sandbox has no real bank on the other side. */
function simulatedPayer(): { name: string; document: string } {
  return { name: 'PAGADOR SANDBOX', document: randomValidCpf() };
}

/**
 * "A split distributes part of the net amount to the other companies and runs when the payment
 * is confirmed": each recipient gets its percentage of the net (rounded down), the charging
 * account the rest.
 */
function creditPaidCharge(deps: GatewayDeps, charge: PixCharge): void {
  // fault: the fee is taken twice (once at charge, once again at settlement)
  const net = charge.amountInCents - charge.fees * (deps.faults.has('gw-balance-credit-fees-twice') ? 2 : 1);
  let distributed = 0;
  for (const split of charge.splits) {
    const recipient = deps.companies.get(split.email);
    if (recipient === undefined) continue;
    const share = Math.floor((net * split.percentage) / 100);
    deps.store.balanceOf(scopeOf({ accountId: recipient, environment: charge.environment })).pix += share;
    distributed += share;
  }
  deps.store.balanceOf(scopeOf(charge)).pix += net - distributed;
}

/** pending → paid: the payer, the credit and the events ("transaction_paid … credits the customer"). */
function confirmCharge(deps: GatewayDeps, charge: PixCharge): void {
  if (charge.status !== 'pending') return;
  const now = new Date();
  charge.status = 'paid';
  charge.endToEndId = newEndToEndId(now);
  charge.payerInfo = simulatedPayer();
  charge.paidAt = now.toISOString();
  charge.updatedAt = charge.paidAt;
  creditPaidCharge(deps, charge);
  // fault: the simulation sets the status directly, without the domain event the acquirer callback raises
  if (!deps.faults.has('gw-simulation-events-not-emitted')) deps.webhooks.emitTransaction('transaction_paid', charge);
  // personality: a charge "updated to another status" also announces it generically
  if (deps.personality.gwUpdatedEvents) deps.webhooks.emitTransaction('transaction_updated', charge);
}

async function payCharge(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const { faults, personality: p } = deps;
  await discardBody(call.req, p.gwSimulationBody === 'refuse');
  // "Simulation routes (/pay, /complete) work only with sandbox credentials; with production
  // credentials they answer 403": unconditionally, so before the lookup
  if (faults.has('gw-simulation-checks-ownership-only')) {
    // fault: the route checks that the resource belongs to the caller's environment (403 "resource
    // not owned by a sandbox key") instead of that the caller is a sandbox one, so production
    // credentials confirm a production charge
    const any = deps.store.charges.get(call.params.transactionId ?? '');
    if (any && any.accountId === call.principal.accountId && any.environment !== call.principal.environment) throw failure(403, 'resource not owned by a key of this environment');
  } else if (call.principal.environment !== 'sandbox' && !faults.has('gw-sandbox-simulation-in-production-allowed')) {
    throw failure(403, 'simulation routes require sandbox credentials');
  }
  // "403 | … resource not owned by a sandbox key": the account's production charge named with sandbox
  // credentials. Fault `gw-sandbox-simulates-production-resource`: the route looks the charge up by
  // account only, so sandbox credentials confirm a production charge
  const owned = deps.store.charges.get(call.params.transactionId ?? '');
  const notOwned = owned !== undefined && owned.accountId === call.principal.accountId && owned.environment !== call.principal.environment;
  if (notOwned && !faults.has('gw-sandbox-simulates-production-resource')) throw failure(403, 'resource not owned by a sandbox key');
  const charge = notOwned ? owned : findVisible(deps.store.charges, call.params.transactionId ?? '', call.principal, faults);
  // fault: the handler reads the status of the charge it did not find (a TypeError, 500)
  if (!charge && faults.has('gw-pixin-pay-unknown-crashes')) throw new ApiError(500, { success: false, message: 'Internal server error' });
  if (!charge) throw notFound('transaction', faults);

  const transition = async (): Promise<Answer> => {
    if (charge.status !== 'pending') {
      if (charge.status === 'paid' && faults.has('gw-pixin-second-pay-succeeds')) {
        return paidAnswer(charge, faults);
      }
      throw failure(400, `transaction is ${charge.status}, no longer pending`);
    }
    await ledgerLatency();
    confirmCharge(deps, charge);
    return paidAnswer(charge, faults);
  };
  // fault: no lock, so concurrent confirmations all see `pending` and all credit
  return faults.has('gw-pixin-pay-race-double-credit') ? transition() : deps.locks.run(`charge:${charge.id}`, transition);
}

export function pixInRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [
    { method: 'POST', pattern: '/api/v1/pix/in/qrcode', handle: (call) => createCharge(deps, call) },
    { method: 'GET', pattern: '/api/v1/pix/in/qrcode/:transactionId', handle: (call) => getCharge(deps, call) },
    { method: 'POST', pattern: '/api/v1/pix/in/qrcode/:transactionId/pay', handle: (call) => payCharge(deps, call) },
  ];
}
