/**
 * PIX transfers (cash-out). Contract: "POST /api/v1/pix/out/pixkey" (mandatory
 * `x-idempotency-key`, replay and 409 `IDEMPOTENCY_CONFLICT`), "GET …/{transferId}",
 * "POST …/{transferId}/complete (sandbox)", "PIX transfer" states.
 */
import { randomUUID } from 'node:crypto';
import type { Personality } from '../personality.js';
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { findVisible, ledgerLatency } from './context.js';
import { randomValidCpf } from './documents.js';
import { ApiError, failure, invalidField, notFound, renderError } from './errors.js';
import { pixTransferFee } from './fees.js';
import { maximumDescriptionLength, minimumTransferAmount } from './limits.js';
import { classifyPixKey, type PixKeyKind } from './pix-keys.js';
import { discardBody, readJsonObject } from './request-body.js';
import { newEndToEndId, nowIso, scopeOf, type IdempotencyRecord, type PayerInfo, type PixTransfer } from './store.js';
import { canonicalJson } from '../shared/json.js';
import { optionalHttpUrl, optionalString, requireInteger, requireString, type JsonObject } from './validation.js';

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idempotencyKeyOf(call: GatewayCall, faults: ReadonlySet<string>, p: Personality): string {
  const header = call.req.headers['x-idempotency-key'];
  const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (key === '') {
    // fault: a missing key is replaced by a fresh one, so retries without it duplicate transfers
    if (faults.has('gw-idempotency-key-optional')) return randomUUID();
    throw failure(400, 'x-idempotency-key: header is required');
  }
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw failure(400, `x-idempotency-key: at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  // "a unique value (UUID) per operation": the alt personality holds clients to the UUID
  if (p.gwIdempotencyKeyUuid && !UUID_PATTERN.test(key)) throw failure(400, 'x-idempotency-key: must be a UUID');
  return key;
}

/** The account behind the key, as the simulated DICT lookup returns it. */
function simulatedCreditor(pixKey: string, kind: PixKeyKind): PayerInfo {
  if (kind === 'cpf' || kind === 'cnpj') return { name: 'FAVORECIDO SANDBOX', document: pixKey };
  return { name: 'FAVORECIDO SANDBOX', document: randomValidCpf() };
}

/**
 * Fault `gw-amount-numeric-coerced` (transfers and cards): amounts go through a shared
 * `Math.round(Number(x))` helper, so a numeric string or a fractional number passes as integer cents.
 */
export function coercedAmount(value: unknown, faults: ReadonlySet<string>): unknown {
  if (!faults.has('gw-amount-numeric-coerced')) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Math.round(Number(value));
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : value;
}

/** Fault `gw-pixout-status-enum-name`: the status enum serialised by its constant's name. */
function statusOut(status: PixTransfer['status'], faults: ReadonlySet<string>): string {
  return faults.has('gw-pixout-status-enum-name') ? status.toUpperCase() : status;
}

/** Fault `gw-pixout-fees-numeric-strings`: NUMERIC columns read back as strings by the driver. */
function moneyOut(transfer: PixTransfer, faults: ReadonlySet<string>): { netAmount: number | string; fees: number | string } {
  if (faults.has('gw-pixout-fees-numeric-strings')) return { netAmount: String(transfer.netAmount), fees: String(transfer.fees) };
  return { netAmount: transfer.netAmount, fees: transfer.fees };
}

/** Fault `gw-pixout-post-201`: the POST routes answer the framework's default status for POST. */
function postStatus(faults: ReadonlySet<string>): number {
  return faults.has('gw-pixout-post-201') ? 201 : 200;
}

function validateTransfer(body: JsonObject, faults: ReadonlySet<string>, p: Personality): { pixKey: string; kind: PixKeyKind; amount: number; description?: string; postbackUrl?: string } {
  const pixKey = requireString(body.pixKey, 'pixKey');
  const classified = classifyPixKey(pixKey, {
    phoneWithoutCountryCode: faults.has('gw-pixkey-phone-without-plus55-accepted'),
    looseEmail: faults.has('gw-pixkey-malformed-email-accepted'),
    documentShapeOnly: faults.has('gw-pixkey-document-check-digits-ignored'),
    repeatedDigitsAllowed: faults.has('gw-document-repeated-digits-accepted'),
    looseRandomKey: faults.has('gw-pixkey-random-key-loose'),
    phoneAnyLength: faults.has('gw-pixkey-phone-any-length'),
    emailLengthUnchecked: faults.has('gw-pixkey-email-no-length-cap'),
  });
  if ('error' in classified) throw invalidField('pixKey', classified.error);
  // "amount | integer | yes | cents, minimum 1"
  const amount = requireInteger(coercedAmount(body.amount, faults), 'amount', { min: minimumTransferAmount(faults), max: p.gwMaxAmountCents });
  const currency = optionalString(body.currency, 'currency');
  // fault: the schema marks currency required, without the documented default
  if (currency === undefined && faults.has('gw-pixout-currency-required')) throw invalidField('currency', 'is required');
  // fault: the field is read for its type only (a copy of the card route's currency field, where
  // USD and EUR are the valid values) and the transfer goes out in BRL whatever was asked
  if (currency !== undefined && currency !== 'BRL' && !(faults.has('gw-pixout-currency-ignored') && /^[A-Z]{3}$/.test(currency))) throw invalidField('currency', 'only BRL is accepted');
  const description = optionalString(body.description, 'description', { maxChars: maximumDescriptionLength(faults), utf16Units: p.gwCharacterCount === 'utf16-units' });
  // fault: the URL is parsed outside the validator, so a non-URI string throws past the error mapping (500)
  if (faults.has('gw-pixout-postback-url-500') && typeof body.postbackUrl === 'string' && !URL.canParse(body.postbackUrl)) throw failure(500, 'TypeError: Invalid URL');
  const postbackUrl = optionalHttpUrl(body.postbackUrl, 'postbackUrl');
  return { pixKey, kind: classified.kind, amount, description, postbackUrl };
}

/** 409 for a reused key with another body, or what one of the idempotency faults answers instead. */
function conflictAnswer(existing: IdempotencyRecord, faults: ReadonlySet<string>): Answer {
  const message = 'x-idempotency-key was already used with a different body';
  if (faults.has('gw-idempotency-conflict-returns-200')) return { status: existing.status, body: existing.body };
  if (faults.has('gw-idempotency-conflict-returns-400')) throw failure(400, message);
  if (faults.has('gw-error-conflict-without-code')) throw failure(409, message);
  throw new ApiError(409, { error: 'IDEMPOTENCY_CONFLICT', message });
}

/**
 * Where a key's first answer is remembered. Correct: per account and environment (scopeOf), since a
 * key is "a unique value (UUID) per operation" of one client. Faults: a cache keyed by the key alone
 * (`gw-idempotency-cache-ignores-account`: one key space for the whole platform, so another account
 * reusing a key gets the first account's transfer). (A cache shared by sandbox and production is not a
 * fault here: observing it would take a transfer request with production credentials, which the
 * suite never sends.)
 */
function idempotencyRecordKey(call: GatewayCall, key: string, faults: ReadonlySet<string>): string {
  if (faults.has('gw-idempotency-cache-ignores-account')) return `*:${key}`;
  return `${scopeOf(call.principal)}:${key}`;
}

/**
 * What "the same body" compares: the canonical JSON of the whole body. Fault
 * `gw-idempotency-fingerprint-amount-only`: the fingerprint is taken over the amount alone (the
 * field a double-payment guard cares about), so the same key with another pixKey is a "replay".
 */
function idempotencyFingerprint(body: JsonObject, faults: ReadonlySet<string>): string {
  if (faults.has('gw-idempotency-fingerprint-amount-only')) return canonicalJson({ amount: body.amount });
  // fault `gw-idempotency-fingerprint-ignores-description`: the fingerprint leaves out the free text
  // (a label, "not part of the payment"), so the same key with another description is a "replay"
  if (faults.has('gw-idempotency-fingerprint-ignores-description')) return canonicalJson({ ...body, description: undefined });
  return canonicalJson(body);
}

/** A key shown the way statements mask documents: the first three and last two characters kept. */
function maskKey(key: string): string {
  return key.length <= 5 ? '*'.repeat(key.length) : `${key.slice(0, 3)}${'*'.repeat(key.length - 5)}${key.slice(-2)}`;
}

function transferView(transfer: PixTransfer, deps: GatewayDeps): Record<string, unknown> {
  const { personality: p, faults } = deps;
  // fault `gw-pixout-timestamps-epoch-ms`: a serialiser writing dates as epoch milliseconds
  const time = (iso: string): unknown => (faults.has('gw-pixout-timestamps-epoch-ms') ? Date.parse(iso) : deps.time(iso));
  // fault `gw-pixout-lookup-no-end-to-end`: the settlement record holding the endToEndId is not joined
  const endToEndId = faults.has('gw-pixout-lookup-no-end-to-end') ? undefined : transfer.endToEndId;
  return {
    id: transfer.id,
    status: statusOut(transfer.status, faults),
    amount: transfer.amount,
    ...moneyOut(transfer, faults),
    // fault `gw-pixout-lookup-pixkey-masked`: the lookup masks the destination key as the creditor's document is masked
    pixKey: faults.has('gw-pixout-lookup-pixkey-masked') ? maskKey(transfer.pixKey) : transfer.pixKey,
    currency: transfer.currency,
    ...(transfer.description !== undefined ? { description: transfer.description } : {}),
    // "endToEndId … on lookup; present once completed": before that absent, or null (personality)
    ...(endToEndId ? { endToEndId } : p.gwTransferEndToEndBeforeCompletion === 'null' ? { endToEndId: null } : {}),
    createdAt: time(transfer.createdAt),
    updatedAt: time(transfer.updatedAt),
    processedAt: time(transfer.processedAt),
  };
}

async function createTransfer(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const { faults, store, personality: p } = deps;
  const key = idempotencyKeyOf(call, faults, p);
  const body = await readJsonObject(call.req, faults, p.gwNullOptionalFields === 'absent');
  const fingerprint = idempotencyFingerprint(body, faults);
  const recordKey = idempotencyRecordKey(call, key, faults);

  const createOnce = async (): Promise<Answer> => {
    const existing = store.idempotency.get(recordKey);
    if (existing && !faults.has('gw-idempotency-replay-creates-new-transfer')) {
      // "Resending with the same key and body returns the original response"
      if (existing.fingerprint === fingerprint) {
        return { status: existing.status, body: existing.body, ...(p.gwIdempotentReplayHeader && { headers: { 'idempotent-replayed': 'true' } }) };
      }
      return conflictAnswer(existing, faults);
    }
    let input: ReturnType<typeof validateTransfer>;
    try {
      input = validateTransfer(body, faults, p);
    } catch (error) {
      if (!(error instanceof ApiError) || !p.gwIdempotencyRemembersFailures) throw error;
      // personality: the refusal is "the original response" of this key, replayed like a success
      const refused = renderError(error, p, p.gwTransferInvalidStatus);
      store.idempotency.set(recordKey, { fingerprint, status: refused.status, body: refused.body });
      return refused;
    }
    await ledgerLatency();
    const now = nowIso();
    const fees = pixTransferFee(input.amount, p.gwTransferFee);
    // "sandbox credentials; no manual review → banking_processing": at or above the personality's
    // threshold a transfer is held for manual review and stays pending
    const review = p.gwManualReviewAboveCents > 0 && input.amount >= p.gwManualReviewAboveCents;
    const transfer: PixTransfer = {
      id: store.newId(p.gwTransferIdFormat, 'pixout_'),
      accountId: call.principal.accountId,
      environment: call.principal.environment,
      // sandbox transfers wait in banking_processing until /complete; production ones stay pending here
      status: call.principal.environment === 'sandbox' && !review ? 'banking_processing' : 'pending',
      amount: input.amount,
      netAmount: input.amount - fees,
      fees,
      pixKey: input.pixKey,
      currency: 'BRL',
      description: input.description,
      postbackUrl: input.postbackUrl,
      creditorAccount: simulatedCreditor(input.pixKey, input.kind),
      createdAt: now,
      updatedAt: now,
      processedAt: now,
    };
    store.transfers.set(transfer.id, transfer);
    const answer: Answer = {
      status: postStatus(faults),
      body: {
        success: true,
        message: 'PIX transfer created',
        data: { id: transfer.id, status: statusOut(transfer.status, faults), amount: transfer.amount, ...moneyOut(transfer, faults), pixKey: transfer.pixKey },
      },
    };
    store.idempotency.set(recordKey, { fingerprint, status: answer.status, body: answer.body });
    deps.webhooks.emitTransfer('transfer_created', transfer);
    return answer;
  };
  // fault: check-then-act without the lock; concurrent first uses of one key create several transfers
  return faults.has('gw-idempotency-race-creates-two') ? createOnce() : deps.locks.run(`idempotency:${recordKey}`, createOnce);
}

async function getTransfer(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const transfer = findVisible(deps.store.transfers, call.params.transferId ?? '', call.principal, deps.faults);
  if (!transfer) throw notFound('transfer', deps.faults);
  const message = deps.personality.gwTransferLookupMessage ? { message: 'PIX transfer found' } : {};
  // fault: the handler returns the entity itself, without the envelope
  if (deps.faults.has('gw-pixout-lookup-unwrapped')) return { status: 200, body: transferView(transfer, deps) };
  return { status: 200, body: { success: true, ...message, data: transferView(transfer, deps) } };
}

async function completeTransfer(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const { faults, store, personality: p } = deps;
  await discardBody(call.req, p.gwSimulationBody === 'refuse');
  if (faults.has('gw-simulation-checks-ownership-only')) {
    // fault: ownership of the resource by the caller's environment is checked, not the caller's environment
    const any = store.transfers.get(call.params.transferId ?? '');
    if (any && any.accountId === call.principal.accountId && any.environment !== call.principal.environment) throw failure(403, 'resource not owned by a key of this environment');
  } else if (call.principal.environment !== 'sandbox' && !faults.has('gw-sandbox-simulation-in-production-allowed')) {
    throw failure(403, 'simulation routes require sandbox credentials');
  }
  // "403 | … resource not owned by a sandbox key": the account's production transfer named with sandbox credentials
  const owned = store.transfers.get(call.params.transferId ?? '');
  if (owned !== undefined && owned.accountId === call.principal.accountId && owned.environment !== call.principal.environment) throw failure(403, 'resource not owned by a sandbox key');
  const transfer = findVisible(store.transfers, call.params.transferId ?? '', call.principal, faults);
  // fault: no not-found guard; the handler dereferences the missing transfer (a TypeError: 500)
  if (!transfer && faults.has('gw-pixout-complete-unknown-500')) throw failure(500, "Cannot read properties of undefined (reading 'status')");
  if (!transfer) throw notFound('transfer', faults);

  const completedAnswer = (shown: PixTransfer = transfer): Answer => ({
    status: postStatus(faults),
    body: { success: true, message: 'PIX transfer completed', data: { id: shown.id, status: statusOut(shown.status, faults), endToEndId: shown.endToEndId } },
  });
  const transition = async (): Promise<Answer> => {
    if (transfer.status === 'completed' && faults.has('gw-pixout-second-complete-succeeds')) return completedAnswer();
    // "400 already completed or canceled"
    if (transfer.status !== 'banking_processing') throw failure(400, `transfer is ${transfer.status}, cannot be completed`);
    const balance = store.balanceOf(scopeOf(transfer));
    // "sandbox balance covers the amount" (fees come out of the amount, so the amount is the debit)
    // fault `gw-pixout-balance-check-in-reais`: units mixed up, the balance in cents is compared with
    // the amount in reais, so a transfer up to 100 times the balance passes the check
    const needed = faults.has('gw-pixout-balance-check-in-reais') ? Math.ceil(transfer.amount / 100) : transfer.amount;
    if (balance.pix < needed && !faults.has('gw-pixout-complete-without-balance')) {
      if (p.gwInsufficientBalanceRefuses) {
        // personality: the transfer is refused for good ("transfer_canceled | transfer canceled or refused")
        transfer.status = 'refused';
        transfer.updatedAt = nowIso();
        transfer.processedAt = transfer.updatedAt;
        deps.webhooks.emitTransfer('transfer_canceled', transfer);
        throw failure(400, 'insufficient sandbox balance: the transfer was refused');
      }
      throw failure(400, 'insufficient sandbox balance to complete the transfer');
    }
    await ledgerLatency();
    const now = new Date();
    // fault: the debit is posted to a pending ledger that is never settled, so the balance never moves
    if (!faults.has('gw-pixout-complete-no-debit')) balance.pix -= transfer.amount;
    // fault `gw-pixout-complete-not-saved`: the completed state is built on a copy that is never
    // saved; the answer, the debit and the event happen, the stored transfer stays banking_processing
    const target: PixTransfer = faults.has('gw-pixout-complete-not-saved') ? { ...transfer } : transfer;
    target.status = 'completed';
    target.endToEndId = newEndToEndId(now);
    target.updatedAt = now.toISOString();
    target.processedAt = target.updatedAt;
    // fault: the simulation sets the status directly, without the domain event the settlement callback raises
    if (!faults.has('gw-simulation-events-not-emitted')) deps.webhooks.emitTransfer('transfer_completed', target);
    if (p.gwUpdatedEvents) deps.webhooks.emitTransfer('transfer_updated', target);
    return completedAnswer(target);
  };
  // fault: no lock, so concurrent completions all pass the checks and all debit
  return faults.has('gw-pixout-complete-race-double-debit') ? transition() : deps.locks.run(`transfer:${transfer.id}`, transition);
}

export function pixOutRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [
    { method: 'POST', pattern: '/api/v1/pix/out/pixkey', handle: (call) => createTransfer(deps, call) },
    { method: 'GET', pattern: '/api/v1/pix/out/pixkey/:transferId', handle: (call) => getTransfer(deps, call) },
    { method: 'POST', pattern: '/api/v1/pix/out/pixkey/:transferId/complete', handle: (call) => completeTransfer(deps, call) },
  ];
}
