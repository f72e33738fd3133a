/**
 * Sends gateway events. Contract, "Events": HTTP POST with a JSON body "to every active webhook
 * subscribed to the event and also to the postbackUrl given on the charge or transfer"; headers
 * Content-Type, User-Agent `Gateway` and, when the webhook has a signatureSecret,
 * `ServiceGateway-Signature: t=<epoch>,v1=<hmac>` where v1 is the lowercase hex HMAC-SHA256 over
 * `<timestamp>.<JSON of the payload>`. Retry schedule and timeout are not shown: DECISIONS.md.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { GatewayStore, PixCharge, PixTransfer } from './store.js';
import { newEndToEndId } from './store.js';
import { deliveryDelayMs } from '../shared/chaos.js';
import { casedHeaders } from '../shared/http.js';
import { formatTimestamp } from '../shared/time.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';

export type TransactionEvent = 'transaction_created' | 'transaction_paid' | 'transaction_updated';
export type TransferEvent = 'transfer_created' | 'transfer_completed' | 'transfer_updated' | 'transfer_canceled';

/** Public event names a webhook may subscribe to (contract, "Events" table). */
export const PUBLIC_EVENTS = [
  'transaction_created',
  'transaction_paid',
  'transaction_refunded',
  'transaction_updated',
  'infraction',
  'transfer_created',
  'transfer_updated',
  'transfer_completed',
  'transfer_canceled',
] as const;

/** "exist for subscriptions but are hidden from the public event list": accepted on subscription. */
export const HIDDEN_EVENTS = [
  'subscription_created',
  'subscription_charged',
  'subscription_payment_failed',
  'subscription_canceled',
] as const;

export interface DeliveryOptions {
  timeoutMs: number;
  /** gaps before each redelivery after a failed attempt (non-2xx or network error) */
  retryDelaysMs: readonly number[];
  /** REFERENCE_CHAOS: first attempts start 0–1 s late */
  chaos?: boolean;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = { timeoutMs: 5_000, retryDelaysMs: [2_000, 10_000, 60_000] };

interface DeliveryTarget {
  url: string;
  /** absent for postbackUrl deliveries: no webhook, no secret, no signature header */
  signatureSecret?: string;
}

/** One delivery attempt's outcome, kept for the reference's own tests and debugging. */
export interface DeliveryAttempt {
  url: string;
  event: string;
  status: number | 'error';
}

/**
 * The envelope around a resource, as the personality writes it: key order, an extra `createdAt`.
 * `resource` is the key (`transaction`, `transfer`) of `body`.
 */
/** fault `gw-webhook-envelope-outbox-row`: the outbox table's auto-increment */
let outboxSeq = 0;

function envelope(p: Personality, type: string, eventName: string, resource: string, body: Record<string, unknown>, faults: ReadonlySet<string>): Record<string, unknown> {
  // faults: the enum constant's name instead of the event name; the outbox row's integer id and scope constant
  const event = faults.has('gw-webhook-event-name-enum-constant') ? eventName.toUpperCase() : eventName;
  const outbox = faults.has('gw-webhook-envelope-outbox-row');
  const head = { id: outbox ? ++outboxSeq : randomUUID(), type, event, scope: outbox ? 'USER' : 'user' };
  const extra = p.gwWebhookExtraFields ? { createdAt: formatTimestamp(Date.now(), { precision: p.gwTimestampPrecision, offset: p.gwTimestampOffset }) } : {};
  return p.gwWebhookKeyOrder === 'resource-first' ? { [resource]: body, ...extra, scope: head.scope, event, type, id: head.id } : { ...head, ...extra, [resource]: body };
}

function transactionPayload(event: TransactionEvent, charge: PixCharge, faults: ReadonlySet<string>, p: Personality): Record<string, unknown> {
  // values that do not exist yet (before payment): null, or left out (personality)
  const omit = p.gwWebhookUnknownValues === 'omit';
  const payerInfo = charge.payerInfo ? { name: charge.payerInfo.name, document: charge.payerInfo.document } : omit ? undefined : { name: null, document: null };
  return envelope(p, 'transaction', event, 'transaction', {
    id: charge.id,
    amount: faults.has('gw-webhook-amount-in-reais') ? charge.amountInCents / 100 : charge.amountInCents,
    status: charge.status,
    pix: {
      // fault gw-paid-event-own-end-to-end-id: the event builder stamps an end-to-end id of its own
      ...(charge.endToEndId !== undefined ? { endToEndId: faults.has('gw-paid-event-own-end-to-end-id') ? newEndToEndId() : charge.endToEndId } : omit ? {} : { endToEndId: null }),
      ...(payerInfo !== undefined && { payerInfo }),
    },
  }, faults);
}

function transferPayload(event: TransferEvent, transfer: PixTransfer, faults: ReadonlySet<string>, p: Personality): Record<string, unknown> {
  // "Event payload status for a completed transfer is `paid`"
  const status = transfer.status === 'completed' && !faults.has('gw-webhook-transfer-status-completed') ? 'paid' : transfer.status;
  const omit = p.gwWebhookUnknownValues === 'omit';
  return envelope(p, 'transfer', event, 'transfer', {
    id: transfer.id,
    // fault gw-transfer-event-amount-whole-reais: the event's amount column is filled in whole reais
    amount: faults.has('gw-webhook-amount-in-reais') ? transfer.amount / 100 : faults.has('gw-transfer-event-amount-whole-reais') ? Math.round(transfer.amount / 100) : transfer.amount,
    status,
    pix: {
      ...(transfer.endToEndId !== undefined ? { endToEndId: transfer.endToEndId } : omit ? {} : { endToEndId: null }),
      creditorAccount: { name: transfer.creditorAccount.name, document: transfer.creditorAccount.document },
    },
  }, faults);
}

/**
 * Faults `gw-events-creation-not-emitted` (events from a status-change hook: a creation, an insert,
 * emits nothing) and `gw-events-settled-as-updated` (one generic "status changed" event type: a
 * settlement is the `*_updated` event, sent once).
 */
function hookedEvent<E extends string>(event: E, faults: ReadonlySet<string>, updated: E): E | undefined {
  if (faults.has('gw-events-creation-not-emitted') && event.endsWith('_created')) return undefined;
  if (!faults.has('gw-events-settled-as-updated')) return event;
  if (event === updated) return undefined;
  return event.endsWith('_paid') || event.endsWith('_completed') || event.endsWith('_canceled') ? updated : event;
}

export class WebhookDispatcher {
  /** what fault `gw-webhook-signature-wrong-key` signs with: one key for the whole platform */
  private readonly platformKey = randomBytes(32).toString('hex');
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  readonly attempts: DeliveryAttempt[] = [];

  constructor(
    private readonly store: GatewayStore,
    private readonly faults: ReadonlySet<string>,
    private readonly options: DeliveryOptions = DEFAULT_DELIVERY_OPTIONS,
    private readonly personality: Personality = DEFAULT_PERSONALITY,
  ) {}

  emitTransaction(named: TransactionEvent, charge: PixCharge): void {
    const event = hookedEvent<TransactionEvent>(named, this.faults, 'transaction_updated');
    if (event === undefined) return;
    this.emit(event, charge, charge.postbackUrl, () => transactionPayload(event, charge, this.faults, this.personality));
  }

  emitTransfer(named: TransferEvent, transfer: PixTransfer): void {
    const event = hookedEvent<TransferEvent>(named, this.faults, 'transfer_updated');
    if (event === undefined) return;
    this.emit(event, transfer, transfer.postbackUrl, () => transferPayload(event, transfer, this.faults, this.personality));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  private targetsFor(event: string, owner: { accountId: string; environment: string }, postbackUrl: string | undefined): DeliveryTarget[] {
    const targets: DeliveryTarget[] = [];
    for (const webhook of this.store.webhooks.values()) {
      // faults: webhooks selected by event name only (`gw-webhook-dispatch-by-event-only`: every
      // account's), or by account without the environment (`gw-webhook-dispatch-ignores-environment`)
      const byEventOnly = this.faults.has('gw-webhook-dispatch-by-event-only');
      if (webhook.accountId !== owner.accountId && !byEventOnly) continue;
      // fault `gw-production-events-to-sandbox-webhooks`: a production resource's events go to both environments' webhooks
      const productionToBoth = owner.environment === 'production' && this.faults.has('gw-production-events-to-sandbox-webhooks');
      if (webhook.environment !== owner.environment && !byEventOnly && !productionToBoth && !this.faults.has('gw-webhook-dispatch-ignores-environment')) continue;
      if (webhook.deleted && !this.faults.has('gw-webhook-deleted-still-receives')) continue;
      if (!webhook.isActive && !webhook.deleted) continue;
      if (!webhook.events.includes(event) && !this.faults.has('gw-webhook-unsubscribed-receives')) continue;
      // fault: find() instead of filter(): the first matching webhook only
      if (this.faults.has('gw-webhook-dispatch-first-match') && targets.length > 0) continue;
      targets.push({ url: webhook.url, signatureSecret: webhook.signatureSecret });
    }
    if (postbackUrl !== undefined && !this.faults.has('gw-webhook-postback-ignored')) targets.push({ url: postbackUrl });
    return targets;
  }

  /** `makePayload` runs only when someone receives the event (most charges have no webhook). */
  private emit(event: string, owner: { accountId: string; environment: string }, postbackUrl: string | undefined, makePayload: () => Record<string, unknown>): void {
    if (this.closed) return;
    const targets = this.targetsFor(event, owner, postbackUrl);
    if (targets.length === 0) return;
    const payload = makePayload();
    // the exact bytes sent; the signature covers this text (compact or indented: personality)
    const body = JSON.stringify(payload, null, this.personality.gwWebhookJsonIndent || undefined);
    for (const target of targets) {
      this.schedule(this.personality.gwDispatchDelayMs + deliveryDelayMs(this.options.chaos ?? false), () => this.attempt(event, target, payload, body, 0));
    }
  }

  private schedule(delayMs: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch(() => undefined);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(event: string, target: DeliveryTarget, payload: Record<string, unknown>, json: string, attemptIndex: number): Promise<void> {
    // fault: an HTTP client's form helper posts the payload as a form field
    const form = this.faults.has('gw-webhook-form-encoded');
    const body = form ? `payload=${encodeURIComponent(json)}` : json;
    const headers: Record<string, string> = {
      'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
    };
    if (!this.faults.has('gw-webhook-missing-user-agent')) headers['User-Agent'] = 'Gateway';
    if (target.signatureSecret !== undefined) headers['ServiceGateway-Signature'] = this.signatureHeader(target.signatureSecret, payload, json);
    const sent = this.personality.gwWebhookHeaderCase === 'lower' ? casedHeaders(headers, 'lower') : headers;
    const status = await this.post(target.url, sent, body);
    this.attempts.push({ url: target.url, event, status });
    const delivered = typeof status === 'number' && status >= 200 && status < 300;
    const nextDelay = this.options.retryDelaysMs[attemptIndex];
    if (!delivered && nextDelay !== undefined) {
      this.schedule(nextDelay, () => this.attempt(event, target, payload, json, attemptIndex + 1));
    }
  }

  /** `t=<epoch seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<body>")>` */
  private signatureHeader(secret: string, payload: Record<string, unknown>, body: string): string {
    const now = Date.now();
    // "t=<epoch>": the unit is not stated; seconds, or milliseconds (personality)
    const timestamp = this.personality.gwSignatureTimestampUnit === 'ms' ? now : Math.floor(now / 1000);
    // fault: the header says seconds but the signed text used milliseconds
    const signedTimestamp = this.faults.has('gw-webhook-signed-timestamp-differs') ? now : timestamp;
    const key = this.faults.has('gw-webhook-signature-wrong-key') ? this.platformKey : secret;
    const signedJson = this.faults.has('gw-webhook-signature-over-pretty-json') ? JSON.stringify(payload, null, 2) : body;
    const hex = createHmac('sha256', key).update(`${signedTimestamp}.${signedJson}`, 'utf8').digest('hex');
    return `t=${timestamp},v1=${this.faults.has('gw-webhook-signature-uppercase-hex') ? hex.toUpperCase() : hex}`;
  }

  private post(url: string, headers: Record<string, string>, body: string): Promise<number | 'error'> {
    return new Promise((resolve) => {
      const controller = new AbortController();
      let timeout: NodeJS.Timeout | undefined;
      const finish = (status: number | 'error'): void => {
        clearTimeout(timeout);
        this.inFlight.delete(controller);
        resolve(status);
      };
      try {
        const parsed = new URL(url);
        const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
        this.inFlight.add(controller);
        const req = send(parsed, { method: 'POST', headers, signal: controller.signal }, (res) => {
          res.resume();
          res.on('end', () => finish(res.statusCode ?? 0));
          res.on('error', () => finish('error'));
        });
        timeout = setTimeout(() => controller.abort(), this.options.timeoutMs);
        req.on('error', () => finish('error'));
        req.end(body);
      } catch {
        finish('error');
      }
    });
  }
}
