/**
 * Partner webhook signing and delivery ("Events" and "Authentication", rule 4).
 * Every event is serialised once; those exact bytes are sent on every attempt and signed as
 * `HMAC-SHA256(secret, "<t>.<raw body>")`, hex, in `X-Service-Signature: t=<epoch>,v1=<hex>`.
 * Redelivery: up to 8 attempts per event, the gap doubling per attempt up to a cap, each call
 * bounded by a timeout; after the last failure the event is held for manual resend.
 * Each event has its own timer chain, so one failing event never delays another.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import type { PartnerFaultSwitch } from './faults.js';
import { randomHex } from './store.js';
import { deliveryDelayMs } from '../shared/chaos.js';
import { casedHeaders } from '../shared/http.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';

/** Brasília is UTC−3 (no daylight saving since 2019). */
const BRASILIA_OFFSET_MS = 3 * 3_600_000;

/** "up to 8 attempts per event" (Events). */
export const MAX_DELIVERY_ATTEMPTS = 8;

export type PartnerEventType = 'business.pix.created' | 'business.pix.paid' | 'business.pix.canceled';

/** "Webhook event body: id, type, created_at, data{amount_cents, e2e_id, external_ref}". */
export interface PartnerEvent {
  id: string;
  type: PartnerEventType;
  created_at: string;
  data: { amount_cents: number; e2e_id?: string | null; external_ref?: string | null };
}

export function signPayload(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

export interface DeliveryOptions {
  url: string | undefined;
  secret: string;
  retryBaseMs: number;
  retryCapMs: number;
  deliveryTimeoutMs: number;
  faults: PartnerFaultSwitch;
  /** REFERENCE_CHAOS: first attempts start 0–1 s late */
  chaos?: boolean;
  /** body formatting, header case, hex case, dispatch delay (reference/personality.ts) */
  personality?: Personality;
}

/** An event whose attempts all failed ("After all fail, the event is held for manual resend"). */
export interface HeldEvent {
  event: PartnerEvent;
  attempts: number;
  lastError: string;
}

export class WebhookDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Map<Promise<void>, AbortController>();
  private readonly held: HeldEvent[] = [];
  /** Our own connection pool, so close() also releases the sockets to the receiver. */
  private readonly agent = new Agent({ keepAliveTimeout: 1_000 });
  private closed = false;
  /** fault pt-webhook-signed-once: the signature headers of each event's first attempt */
  private readonly firstSignature = new Map<string, Record<string, string>>();

  constructor(private readonly options: DeliveryOptions) {}

  /** Queues an event; returns at once (deliveries never block an API response). */
  enqueue(event: PartnerEvent): void {
    if (this.closed || this.options.url === undefined) return;
    this.schedule(event, this.serialise(event), 1, this.p.ptDispatchDelayMs + deliveryDelayMs(this.options.chaos ?? false));
  }

  private get p(): Personality {
    return this.options.personality ?? DEFAULT_PERSONALITY;
  }

  /** The bytes of an event: key order and indentation are the personality's; they are signed as sent. */
  private serialise(event: PartnerEvent): string {
    if (this.options.faults.has('pt-webhook-event-bus-format')) {
      // fault pt-webhook-event-bus-format: the bus's own envelope — the enum constant's name as the
      // type, its epoch-seconds clock as created_at
      const busEvent = { id: event.id, type: event.type.toUpperCase().replace(/\./g, '_'), created_at: Math.floor(Date.parse(event.created_at) / 1000), data: event.data };
      return JSON.stringify(busEvent);
    }
    const ordered = this.p.ptWebhookKeyOrder === 'data-first' ? { data: event.data, type: event.type, id: event.id, created_at: event.created_at } : event;
    return JSON.stringify(ordered, null, this.p.ptWebhookJsonIndent || undefined);
  }

  heldEvents(): readonly HeldEvent[] {
    return this.held;
  }

  /** Stops pending redeliveries and aborts calls in flight. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight.values()) controller.abort();
    await Promise.allSettled([...this.inFlight.keys()]);
    await this.agent.destroy();
  }

  private maxAttempts(): number {
    if (this.options.faults.has('pt-webhook-no-redelivery')) return 1;
    if (this.options.faults.has('pt-webhook-too-many-attempts')) return 12;
    return MAX_DELIVERY_ATTEMPTS;
  }

  /** Gap before attempt n+1: base × 2^(n−1), capped ("exponential backoff doubling per attempt with a cap"). */
  private gapAfterAttempt(attempt: number): number {
    const { retryBaseMs, retryCapMs } = this.options;
    if (this.options.faults.has('pt-webhook-backoff-constant')) return retryBaseMs;
    const doubled = retryBaseMs * 2 ** (attempt - 1);
    return this.options.faults.has('pt-webhook-backoff-uncapped') ? doubled : Math.min(doubled, retryCapMs);
  }

  private schedule(event: PartnerEvent, rawBody: string, attempt: number, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const controller = new AbortController();
      const call = this.attempt(event, rawBody, attempt, controller);
      this.inFlight.set(call, controller);
      void call.finally(() => this.inFlight.delete(call));
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(event: PartnerEvent, rawBody: string, attempt: number, controller: AbortController): Promise<void> {
    let failure: string | undefined;
    // fault pt-webhook-no-call-timeout: the HTTP client's default, no timeout on the call
    const timeout = this.options.faults.has('pt-webhook-no-call-timeout') ? undefined : setTimeout(() => controller.abort(), this.options.deliveryTimeoutMs);
    try {
      const response = await request(this.options.url as string, {
        method: 'POST',
        headers: casedHeaders({ 'content-type': 'application/json', ...this.attemptSignature(event.id, rawBody) }, this.p.ptWebhookHeaderCase),
        body: rawBody,
        signal: controller.signal,
        dispatcher: this.agent,
      });
      await response.body.dump(); // drain, within the same timeout, so the connection is reusable
      if (response.statusCode < 200 || response.statusCode > 299) failure = `HTTP ${response.statusCode}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timeout);
    }
    if (failure === undefined || this.closed) return;

    if (attempt >= this.maxAttempts()) {
      this.held.push({ event, attempts: attempt, lastError: failure });
      return;
    }
    let nextEvent = event;
    let nextBody = rawBody;
    if (this.options.faults.has('pt-webhook-redelivery-new-id')) {
      nextEvent = { ...event, id: newEventId() };
      nextBody = this.serialise(nextEvent);
    }
    this.schedule(nextEvent, nextBody, attempt + 1, this.gapAfterAttempt(attempt));
  }

  /** Signed for this attempt; fault pt-webhook-signed-once: the first attempt's headers, reused. */
  private attemptSignature(eventId: string, rawBody: string): Record<string, string> {
    if (!this.options.faults.has('pt-webhook-signed-once')) return this.signatureHeaders(rawBody);
    const first = this.firstSignature.get(eventId) ?? this.signatureHeaders(rawBody);
    this.firstSignature.set(eventId, first);
    return first;
  }

  /** The signature header(s) of one attempt. */
  private signatureHeaders(rawBody: string): Record<string, string> {
    if (this.options.faults.has('pt-webhook-signature-github-format')) {
      // fault pt-webhook-signature-github-format: GitHub's scheme — sha256=<hmac of the body alone>,
      // the timestamp beside it in a header of its own
      const hex = createHmac('sha256', this.options.secret).update(rawBody, 'utf8').digest('hex');
      return { 'x-service-signature': `sha256=${hex}`, 'x-service-timestamp': String(Math.floor(Date.now() / 1000)) };
    }
    return { 'x-service-signature': this.signatureHeader(rawBody) };
  }

  /** Signed fresh on every attempt so a late redelivery still falls inside the receiver's 300 s tolerance. */
  private signatureHeader(rawBody: string): string {
    const { faults } = this.options;
    // fault pt-webhook-timestamp-local-time: Brasília wall-clock time (UTC−3) read as if it were UTC
    const now = faults.has('pt-webhook-timestamp-local-time') ? Date.now() - BRASILIA_OFFSET_MS : Date.now();
    const timestamp = faults.has('pt-webhook-timestamp-ms') ? now : Math.floor(now / 1000);
    const secret = faults.has('pt-webhook-wrong-secret') ? `${this.options.secret}-rotated` : this.options.secret;
    // The contract: "The raw body, not a re-serialized JSON, must be used."
    const signedText = faults.has('pt-webhook-signature-reserialised')
      ? JSON.stringify(JSON.parse(rawBody) as unknown, null, 2)
      : rawBody;
    const hex = signPayload(secret, timestamp, signedText);
    // "v1 is the hex HMAC-SHA256": the case of hex is not stated (personality)
    return `t=${timestamp},v1=${this.p.ptSignatureHexCase === 'upper' ? hex.toUpperCase() : hex}`;
  }
}

export function newEventId(): string {
  return `evt_${randomHex(12)}`;
}
