/**
 * PIX charges: creation (with `Idempotency-Key`), lookup, list, cancel and sandbox pay
 * ("States and transitions", "Endpoints"). Every transition of one charge runs under a per-charge
 * lock, so concurrent confirmations never capture twice ("Transitions are atomic"). Expiry is lazy:
 * a pending charge becomes expired on the first lookup or confirmation attempt after expires_at.
 */
import { buildDynamicBrCode, crc16CcittFalse } from '../shared/brcode.js';
import { keyBesideLocation, merchantFieldsOffByOne, staticBrCode, unformattedCrc } from './brcode-faults.js';
import { KeyedMutex } from '../shared/mutex.js';
import { parseChargeRequest } from './charge-request.js';
import { canonicalJson } from '../shared/json.js';
import type { ChargeRequest } from './charge-request.js';
import type { PartnerFaultSwitch } from './faults.js';
import { postCapture, reverseCapture } from './finance.js';
import { detailText, fail, noContent, ok } from './results.js';
import { createHash, randomUUID } from 'node:crypto';
import { formatTimestamp } from '../shared/time.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';
import type { ApiResult } from './results.js';
import { CHARGE_STATUSES, randomHex } from './store.js';
import type { ChargeStatus, Environment, PartnerStore, PixChargeView, Principal, StoredCharge } from './store.js';
import { newEventId } from './webhooks.js';
import type { PartnerEventType, WebhookDispatcher } from './webhooks.js';

/** "list charges | up to 200 records" (Limits). */
export const LIST_MAX_RECORDS = 200;
/** The default personality's provider label (ptProvider). */
export const PROVIDER_LABEL = 'reference-sandbox';
/** The merchant's random Pix key (EVP) a static BR Code would carry (fault pt-qr-code-static). */
const STATIC_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
/** The merchant's phone key (fault `pt-qr-key-and-location`). */
const MERCHANT_PHONE_KEY = '+5511987654321';
/** Fictitious ISPB of the reference's PSP, used in e2e ids. */
const REFERENCE_ISPB = '99999999';
/** A 1×1 PNG, base64: the image a processor's QR renderer hands back (fault pt-charge-qr-image). */
const QR_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export interface ChargeServiceOptions {
  store: PartnerStore;
  faults: PartnerFaultSwitch;
  dispatcher: WebhookDispatcher;
  /** multiplies expires_in_seconds (tests only; ARCHITECTURE.md, REFERENCE_PARTNER_EXPIRY_SCALE) */
  expiryScale: number;
  /** the free choices taken (reference/personality.ts) */
  personality?: Personality;
}

/**
 * Stands for the processor round trip inside a critical section (registering the charge, settling
 * the capture). It also gives concurrent requests arriving over the wire time to reach the same
 * check, so a missing or split lock (race faults) really races.
 */
export const PROCESSOR_LATENCY_MS = 10;
function processorRoundTrip(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, PROCESSOR_LATENCY_MS));
}

/** A PIX end-to-end id: "E" + ISPB (8) + yyyyMMddHHmm + 11 alphanumerics (BCB format, 32 chars). */
function newE2eId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${REFERENCE_ISPB}${stamp}${randomHex(6).slice(0, 11)}`;
}

/** The ledger a charge posts to and a principal reads: one per account and environment. */
export function ledgerScope(accountId: string, environment: Environment, faults: PartnerFaultSwitch): string {
  if (faults.has('pt-test-live-data-shared') || faults.has('pt-ledger-keyed-by-account')) return accountId;
  if (faults.has('pt-ledger-keyed-by-environment')) return environment;
  return `${accountId}:${environment}`;
}

function isRecordValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ChargeService {
  private readonly chargeLocks = new KeyedMutex();
  private readonly idempotencyLocks = new KeyedMutex();
  /** fault pt-charge-entity-serialized: the auto-increment key */
  private entityKey = 0;
  /** fault pt-lookup-stale-cache: lookups served from what was cached at creation */
  private readonly lookupCache = new Map<string, Record<string, unknown>>();

  constructor(private readonly options: ChargeServiceOptions) {}

  private get faults(): PartnerFaultSwitch {
    return this.options.faults;
  }

  private get p(): Personality {
    return this.options.personality ?? DEFAULT_PERSONALITY;
  }

  /** The charge as the API shows it: fields without a value null or left out, extra fields (personality). */
  present(charge: StoredCharge): Record<string, unknown> {
    const view: Record<string, unknown> = { ...charge.view };
    if (this.p.ptAbsentOptionalFields === 'omit') {
      for (const [key, value] of Object.entries(view)) if (value === null) delete view[key];
    }
    if (this.p.ptChargeExtraFields) Object.assign(view, { object: 'pix_charge', livemode: charge.environment === 'live' });
    return this.deformed(view);
  }

  /** The charge faults that change how a charge is written out (issue 15, second half). */
  private deformed(view: Record<string, unknown>): Record<string, unknown> {
    if (this.faults.has('pt-charge-entity-serialized')) {
      // the entity, not the DTO: numeric key, enum constant name, BigDecimal amount in reais
      view.id = Number(view.id);
      view.status = String(view.status).toUpperCase();
      view.amount_cents = typeof view.amount_cents === 'number' ? view.amount_cents / 100 : view.amount_cents;
    }
    if (this.faults.has('pt-charge-optional-as-bean')) {
      // Optional<String> without Jackson's Jdk8Module: its getters isPresent()/isEmpty() become the JSON
      for (const key of ['description', 'external_ref', 'customer_email', 'e2e_id', 'provider']) {
        const value = view[key] ?? null;
        view[key] = { present: value !== null, empty: value === null };
      }
    }
    if (this.faults.has('pt-charge-qr-image')) view.qr_code_base64 = QR_PNG_BASE64;
    return view;
  }

  // ── creation ────────────────────────────────────────────────────────────────────────────────

  async create(principal: Principal, rawBody: Buffer, idempotencyKey: string | undefined): Promise<ApiResult> {
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch (error) {
      if (this.faults.has('pt-malformed-json-500')) throw error;
      return fail(422, 'body: must be a JSON object (malformed JSON)');
    }
    // fault pt-text-columns-utf8mb3: a 3-byte UTF-8 column refuses 4-byte characters at INSERT
    if (this.faults.has('pt-text-columns-utf8mb3') && isRecordValue(body)) {
      for (const key of ['description', 'external_ref']) {
        const text = body[key];
        if (typeof text === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(text)) throw new Error(`Incorrect string value for column '${key}'`);
      }
    }

    // fault pt-idempotency-key-required: the payouts middleware (header mandatory there) on this route too
    if (idempotencyKey === undefined && this.faults.has('pt-idempotency-key-required')) return fail(422, 'Idempotency-Key: header is required');
    if (idempotencyKey === undefined || this.faults.has('pt-idempotency-ignored')) {
      const validation = parseChargeRequest(body, this.faults, this.p);
      if (!validation.ok) return fail(422, validation.detail, validation.field, validation.rule);
      const earlier = this.faults.has('pt-dedupe-by-external-ref') ? this.chargeWithExternalRef(principal, validation.request) : undefined;
      return ok(this.present(earlier ?? this.createCharge(principal, validation.request)));
    }

    // One lock per account, environment and key: concurrent requests with one key create one charge.
    let scopedKey = this.faults.has('pt-idempotency-key-global') ? idempotencyKey : `${principal.accountId}:${principal.environment}:${idempotencyKey}`;
    // fault pt-idempotency-cache-by-body-hash: the record is cached under key + hash of the raw bytes
    if (this.faults.has('pt-idempotency-cache-by-body-hash')) scopedKey = `${scopedKey}:${createHash('sha256').update(rawBody).digest('hex')}`;
    // "same body": the same JSON value, or the same bytes (personality)
    // fault pt-idempotency-fingerprint-ignores-customer: the customer's e-mail is left out of "same body"
    const sameBodyKey = this.faults.has('pt-idempotency-fingerprint-amount-only')
      ? `amount:${String(isRecordValue(body) ? body.amount_cents : undefined)}`
      : this.faults.has('pt-idempotency-fingerprint-ignores-customer') && isRecordValue(body)
      ? canonicalJson({ ...body, customer_email: undefined })
      : this.p.ptIdempotencySameBody === 'raw-bytes' ? `raw:${rawBody.toString('utf8')}` : canonicalJson(body);
    const work = () => this.createIdempotently(principal, body, sameBodyKey, scopedKey);
    return this.faults.has('pt-idempotency-race') ? work() : this.idempotencyLocks.run(scopedKey, work);
  }

  /** "same key and same body returns the original response …; same key with a different body gives 409". */
  private async createIdempotently(principal: Principal, body: unknown, canonicalBody: string, scopedKey: string): Promise<ApiResult> {
    const record = this.options.store.idempotencyRecord(scopedKey);
    if (record) {
      if (record.canonicalBody !== canonicalBody && !this.faults.has('pt-idempotency-conflict-accepted')) {
        return fail(409, 'Idempotency-Key was already used with a different body');
      }
      return { kind: 'ok', status: record.status, body: structuredClone(record.body), ...(this.p.ptReplayHeader && { headers: { 'idempotent-replayed': 'true' } }) };
    }
    const validation = parseChargeRequest(body, this.faults, this.p);
    if (!validation.ok) {
      const refused = fail(422, validation.detail, validation.field, validation.rule);
      // default: not remembered, the caller may fix the body; alt: the 422 is this key's original response
      if (this.p.ptIdempotencyRemembers422 && refused.kind === 'error') {
        this.options.store.saveIdempotencyRecord(scopedKey, { canonicalBody, status: 422, body: { detail: detailText(refused, this.p) } });
      }
      return refused;
    }
    await processorRoundTrip();
    const view = this.present(this.createCharge(principal, validation.request));
    this.options.store.saveIdempotencyRecord(scopedKey, { canonicalBody, status: 200, body: structuredClone(view) });
    return ok(view);
  }

  private createCharge(principal: Principal, request: ChargeRequest): StoredCharge {
    const now = Date.now();
    const id = this.faults.has('pt-charge-entity-serialized') ? String(++this.entityKey) : this.p.ptChargeIdFormat === 'uuid' ? randomUUID() : `pix_${randomHex(12)}`;
    const expiresAtMs = now + Math.round(request.expiresInSeconds * this.options.expiryScale * 1000);
    // "returned unchanged on lookups and in webhooks"
    const externalRef = request.externalRef !== null && this.faults.has('pt-external-ref-trimmed') ? request.externalRef.trim() : request.externalRef;
    const view: PixChargeView = {
      id,
      status: 'pending',
      amount_cents: request.amountCents,
      description: request.description,
      external_ref: externalRef,
      customer_email: request.customerEmail,
      qr_code: this.qrCodeFor(id, request.amountCents),
      e2e_id: null,
      provider: this.p.ptProvider,
      expires_at: this.timestamp(expiresAtMs),
      created_at: this.timestamp(now),
    };
    const charge = this.options.store.addCharge({ view, accountId: principal.accountId, environment: principal.environment, expiresAtMs });
    if (this.faults.has('pt-lookup-stale-cache')) this.lookupCache.set(id, this.present(charge));
    if (!this.faults.has('pt-webhook-created-event-missing')) this.emit(charge, 'business.pix.created');
    return charge;
  }

  /** "expires_at | created_at: ISO 8601 UTC" (fraction digits and the way UTC is written: personality) */
  private timestamp(epochMs: number): string {
    if (!this.faults.has('pt-timestamps-local-offset')) return formatTimestamp(epochMs, { precision: this.p.ptTimestampPrecision, offset: this.p.ptUtcDesignator });
    const brasilia = new Date(epochMs - 3 * 3_600_000).toISOString();
    return `${brasilia.slice(0, -1)}-03:00`;
  }

  /** "qr_code | copy-and-paste EMV payload": a dynamic BR Code whose field 54 is the amount in reais. */
  private qrCodeFor(id: string, amountCents: number): string {
    const merchant = this.p.ptEmvMerchant;
    const hex = id.replace(/-/g, '');
    const qrCode = buildDynamicBrCode({
      amountCents: this.faults.has('pt-qr-code-amount-in-reais') ? amountCents * 100 : amountCents,
      location: `${merchant.host}/qr/v2/${hex}`,
      merchantName: merchant.name,
      merchantCity: merchant.city,
      // fault: the charge's own reference, hyphenated, as txid: neither "***" nor letters and digits
      ...(this.faults.has('pt-qr-txid-hyphenated') && { txid: `PT-${hex.slice(0, 28)}` }),
    });
    if (this.faults.has('pt-qr-key-and-location')) return keyBesideLocation(qrCode, MERCHANT_PHONE_KEY, `${merchant.host}/qr/v2/${hex.slice(0, 16)}`);
    if (this.faults.has('pt-qr-merchant-fields-off-by-one')) return merchantFieldsOffByOne(qrCode, `${merchant.name} PAGAMENTOS DIGITAIS LTDA`, 'SAO JOSE DOS CAMPOS');
    if (this.faults.has('pt-qr-code-crc-unformatted')) return unformattedCrc(qrCode);
    if (this.faults.has('pt-qr-code-static')) return staticBrCode(qrCode, STATIC_PIX_KEY);
    if (!this.faults.has('pt-qr-code-bad-crc')) return qrCode;
    const payload = qrCode.slice(0, -4);
    const wrongCrc = (parseInt(crc16CcittFalse(payload), 16) ^ 0x0001).toString(16).toUpperCase().padStart(4, '0');
    return payload + wrongCrc;
  }

  private chargeWithExternalRef(principal: Principal, request: ChargeRequest): StoredCharge | undefined {
    if (request.externalRef === null) return undefined;
    return this.listable(principal).find((c) => c.view.external_ref === request.externalRef);
  }

  // ── lookups ─────────────────────────────────────────────────────────────────────────────────

  /** "404 | resource not found or belongs to another account"; environments never share data. */
  private findVisible(principal: Principal, id: string): StoredCharge | undefined {
    const charge = this.options.store.chargeById(id);
    if (!charge) return undefined;
    const sameAccount = charge.accountId === principal.accountId || this.faults.has('pt-cross-account-lookup');
    const sameEnvironment = charge.environment === principal.environment || this.faults.has('pt-test-live-data-shared');
    return sameAccount && sameEnvironment ? charge : undefined;
  }

  private listable(principal: Principal): StoredCharge[] {
    return this.options.store
      .allCharges()
      .filter((c) => c.accountId === principal.accountId || this.faults.has('pt-list-other-account'))
      .filter((c) => c.environment === principal.environment || this.faults.has('pt-test-live-data-shared'));
  }

  async get(principal: Principal, id: string): Promise<ApiResult> {
    const charge = this.findVisible(principal, id);
    // fault pt-unknown-id-null-200: the missing record is serialised as it is
    if (!charge) return this.faults.has('pt-unknown-id-null-200') ? ok(null) : fail(404, `charge ${id} not found`);
    if (!this.faults.has('pt-lookup-never-expires')) await this.settleExpiry(charge);
    const cached = this.faults.has('pt-lookup-stale-cache') ? this.lookupCache.get(id) : undefined;
    if (cached) return ok(structuredClone(cached));
    if (this.faults.has('pt-lookup-status-only')) return ok({ id: charge.view.id, status: charge.view.status });
    return ok(this.present(charge));
  }

  /** "Lists the account charges, newest first, up to 200 records. Optional query status filters". */
  async list(principal: Principal, statusQuery: string | null, limitQuery: string | null = null): Promise<ApiResult> {
    const wanted = statusQuery === null || statusQuery === '' ? undefined : statusQuery;
    if (wanted !== undefined && !(CHARGE_STATUSES as readonly string[]).includes(wanted)) {
      // fault: the value is cast to the state enum unguarded
      if (this.faults.has('pt-list-unknown-status-500')) throw new Error(`no charge state ${wanted}`);
      // "filters by one of the charge states": another value is refused (listed in the spec), or
      // matches no charge (personality)
      if (this.p.ptListUnknownStatus === 'empty-list') return ok(this.listBody([]));
      return fail(422, `status: must be one of ${CHARGE_STATUSES.join(', ')}`, 'status', `must be one of ${CHARGE_STATUSES.join(', ')}`);
    }
    let charges = this.listable(principal);
    // A list is a lookup too: pending charges past expires_at show as expired.
    if (!this.faults.has('pt-lookup-never-expires') && !this.faults.has('pt-list-no-lazy-expiry')) {
      await Promise.all(charges.map((c) => this.settleExpiry(c)));
    }
    if (wanted !== undefined && !this.faults.has('pt-list-status-filter-ignored')) {
      charges = charges.filter((c) => c.view.status === wanted);
    }
    // fault: the first 200 ever created are cut before the newest-first sort
    if (this.faults.has('pt-list-oldest-200')) charges = charges.slice(0, LIST_MAX_RECORDS);
    if (!this.faults.has('pt-list-oldest-first')) charges.reverse();
    // fault: "ORDER BY id DESC" with random ids
    if (this.faults.has('pt-list-ordered-by-id')) charges.sort((a, b) => (a.view.id < b.view.id ? 1 : a.view.id > b.view.id ? -1 : 0));
    const limit = limitQuery !== null && /^\d+$/.test(limitQuery) ? Number(limitQuery) : undefined;
    // fault: an undocumented ?limit= is honoured without the cap
    if (this.faults.has('pt-list-limit-uncapped') && limit !== undefined) charges = charges.slice(0, limit);
    else if (!this.faults.has('pt-list-unbounded')) charges = charges.slice(0, LIST_MAX_RECORDS);
    return ok(this.listBody(charges.map((c) => this.present(c))));
  }

  /** "Response envelope and pagination: not shown": `{data}`, `{items, count, has_more}` or a bare array (personality). */
  private listBody(items: unknown[]): unknown {
    switch (this.p.ptListEnvelope) {
      case 'data':
        return { data: items };
      case 'items-count':
        return { items, count: items.length, has_more: false };
      case 'bare-array':
        return items;
    }
  }

  // ── transitions ─────────────────────────────────────────────────────────────────────────────

  /** "pending → expired: first lookup or confirmation attempt after expires_at"; caller holds the lock. */
  private expireIfDue(charge: StoredCharge): void {
    if (charge.view.status === 'pending' && Date.now() >= charge.expiresAtMs) charge.view.status = 'expired';
  }

  private async settleExpiry(charge: StoredCharge): Promise<void> {
    if (charge.view.status !== 'pending' || Date.now() < charge.expiresAtMs) return;
    await this.chargeLocks.run(charge.view.id, () => this.expireIfDue(charge));
  }

  /** "POST …/:id/cancel: Cancels a charge that is still pending; otherwise 409." */
  async cancel(principal: Principal, id: string): Promise<ApiResult> {
    const charge = this.findVisible(principal, id);
    if (!charge) return fail(404, `charge ${id} not found`);
    const lockKey = this.faults.has('pt-pay-cancel-not-atomic') ? `cancel:${id}` : id;
    return this.chargeLocks.run(lockKey, async () => {
      if (!this.faults.has('pt-cancel-after-expiry')) this.expireIfDue(charge);
      const cancelable = charge.view.status === 'pending' || (charge.view.status === 'paid' && this.faults.has('pt-cancel-paid-succeeds'));
      if (!cancelable) {
        // fault pt-cancel-paid-refunds: the refund step of "cancel" runs before the state guard, so
        // a paid charge is refunded (its capture reversed) and the cancel still answers 409
        if (charge.view.status === 'paid' && this.faults.has('pt-cancel-paid-refunds')) {
          reverseCapture(this.options.store.ledger(ledgerScope(charge.accountId, charge.environment, this.faults)), charge.view, this.p);
        }
        return fail(409, `charge is ${charge.view.status}; only a pending charge can be canceled`);
      }
      await processorRoundTrip();
      // fault pt-transition-not-persisted: the change is made on a copy that is never saved
      const target = this.faults.has('pt-transition-not-persisted') ? structuredClone(charge) : charge;
      target.view.status = 'canceled';
      if (!this.faults.has('pt-webhook-canceled-event-missing')) this.emit(charge, 'business.pix.canceled');
      // "Response body: not shown"
      return this.transitionAnswer(this.p.ptCancelResponse, target);
    });
  }

  /** "POST …/:id/pay (sandbox only): same effect (capture plus webhook) as a real payment. Production answers 403." */
  async pay(principal: Principal, id: string): Promise<ApiResult> {
    // "Production answers 403": the route itself is unavailable there, before any lookup
    if (principal.environment === 'live' && !this.faults.has('pt-live-pay-allowed')) {
      return fail(403, 'the pay simulation route is not available in production');
    }
    // fault pt-sandbox-pays-live-charge: the simulation looks the charge up by account only, so the
    // sandbox key pays the account's production charge
    const own = this.options.store.chargeById(id);
    const charge = this.faults.has('pt-sandbox-pays-live-charge') && own?.accountId === principal.accountId ? own : this.findVisible(principal, id);
    if (!charge) return fail(404, `charge ${id} not found`);
    const confirm = () => this.confirmPayment(charge);
    if (this.faults.has('pt-pay-not-atomic') || this.faults.has('pt-pay-race-double-effects')) return confirm();
    return this.chargeLocks.run(this.faults.has('pt-pay-cancel-not-atomic') ? `pay:${id}` : id, confirm);
  }

  private async confirmPayment(charge: StoredCharge): Promise<ApiResult> {
    if (!this.faults.has('pt-pay-after-expiry')) this.expireIfDue(charge);
    const status: ChargeStatus = charge.view.status;
    if (status === 'expired') return fail(409, `charge expired at ${charge.view.expires_at}`);
    const payable = status === 'pending' || (status === 'canceled' && this.faults.has('pt-pay-canceled-succeeds'));
    // personality: paying a paid charge again confirms what is already true, without a second capture
    if (status === 'paid' && this.p.ptPayAlreadyPaid === '200-no-effect') return this.paidAnswer(charge);
    if (!payable) {
      // fault pt-pay-canceled-captures: the capture is posted before the state guard, so pay of a
      // canceled charge captures its value and still answers 409
      if (status === 'canceled' && this.faults.has('pt-pay-canceled-captures')) {
        postCapture(this.options.store.ledger(ledgerScope(charge.accountId, charge.environment, this.faults)), { ...charge.view, e2e_id: newE2eId(new Date()) }, this.faults, this.p);
      }
      return fail(409, `charge is ${status}; only a pending charge can be paid`);
    }
    await processorRoundTrip();
    const now = new Date();
    // fault pt-transition-not-persisted: the change is made on a copy that is never saved
    const target = this.faults.has('pt-transition-not-persisted') ? structuredClone(charge) : charge;
    target.view.status = 'paid';
    const e2eId = newE2eId(now);
    // fault pt-paid-e2e-missing: the e2e id goes into the event only, never onto the charge
    if (!this.faults.has('pt-paid-e2e-missing')) target.view.e2e_id = e2eId;
    const ledger = this.options.store.ledger(ledgerScope(charge.accountId, charge.environment, this.faults));
    postCapture(ledger, { ...charge.view, e2e_id: e2eId }, this.faults, this.p);
    if (!this.faults.has('pt-webhook-paid-event-missing')) this.emit(charge, 'business.pix.paid', e2eId);
    return this.paidAnswer(target);
  }

  /** "Response body: not shown": the charge, or `{id, status}`, or no body (personality). */
  private paidAnswer(charge: StoredCharge): ApiResult {
    const answers = { charge: '200-charge', 'id-status': '200-id-status', '204-empty': '204-empty' } as const;
    return this.transitionAnswer(answers[this.p.ptPayResponse], charge);
  }

  /** The answer to a successful cancel or pay ("Response body: not shown"), as the personality writes it. */
  private transitionAnswer(style: '200-charge' | '200-id-status' | '204-empty', charge: StoredCharge): ApiResult {
    if (style === '204-empty') return noContent();
    return ok(style === '200-charge' ? this.present(charge) : { id: charge.view.id, status: charge.view.status });
  }

  // ── events ──────────────────────────────────────────────────────────────────────────────────

  /**
   * "Every state change sends a signed POST to that URL." Only the primary account's sandbox has
   * a registered URL in this reference (DECISIONS.md); expiry has no event name, so sends nothing.
   */
  private emit(charge: StoredCharge, type: PartnerEventType, e2eId: string | null = charge.view.e2e_id): void {
    // fault pt-webhook-dispatch-all-accounts: dispatched by event name, whoever the charge belongs to
    const registered = charge.accountId === this.options.store.primaryAccountId && charge.environment === 'test';
    if (!registered && !this.faults.has('pt-webhook-dispatch-all-accounts')) return;
    const data: { amount_cents: number; e2e_id?: string | null; external_ref?: string | null } = {
      amount_cents: charge.view.amount_cents,
      e2e_id: e2eId,
      external_ref: charge.view.external_ref,
    };
    if (this.faults.has('pt-webhook-external-ref-missing')) delete data.external_ref;
    if (this.p.ptWebhookNullFields === 'omit') {
      if (data.e2e_id === null) delete data.e2e_id;
      if (data.external_ref === null) delete data.external_ref;
    }
    const createdAt = formatTimestamp(Date.now(), { precision: 'ms', offset: this.p.ptEventCreatedAtOffset });
    this.options.dispatcher.enqueue({ id: newEventId(), type, created_at: createdAt, data });
  }
}
