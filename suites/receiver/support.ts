/**
 * The receiver suite's acting side: it plays the platform against the integrator's webhook
 * endpoint (the receiver target): builds events from the generators, signs them as each contract
 * says (or deliberately not), delivers them, and polls the optional read-back hook. Judging is the
 * rules' (harness/rules/receiver/); nothing here decides a verdict.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { CheckSpec, CheckTools } from '../../harness/run/check.js';
import { check } from '../../harness/run/check.js';
import { RECEIVER_DUTIES } from '../../harness/rules/receiver/index.js';
import type { DeliveryObservation, ReceiverDuties, ReceiverScheme } from '../../harness/rules/receiver/index.js';
import { loadReceiverTarget } from '../../harness/config/receiver-target.js';
import { ReceiverTargetClient, countFor } from '../../harness/http/receiver-target-client.js';
import { GATEWAY_SIGNATURE_HEADER, PARTNER_SIGNATURE_HEADER, readSignature, signGateway, signPartner } from '../../harness/webhooks/signatures.js';
import { GATEWAY_EVENTS, PARTNER_EVENTS, gatewayEvent, partnerEvent, paymentFacts } from '../../generators/events.js';
import type { PaymentFacts } from '../../generators/events.js';

export const SCHEMES: readonly ReceiverScheme[] = ['gateway', 'partner'];

/** How long the suite waits for the read-back hook to show an event (processing is asynchronous): our patience, not the contract's. */
export const STATE_WAIT_MS = 5_000;
/** After an event shows up, how long the suite keeps reading to catch a late second processing of a duplicate. */
export const STATE_SETTLE_MS = 1_000;
const POLL_MS = 100;

/** The scheme's receiver rules, by duty (harness/rules/receiver/duties.ts), for a check's `rules`. */
export function duties(scheme: ReceiverScheme): ReceiverDuties {
  return RECEIVER_DUTIES[scheme];
}

/** Registers a receiver check for one scheme (`api` is the scheme; runs only in a receiver run of that scheme). */
export function receiverCheck(
  scheme: ReceiverScheme,
  title: string,
  spec: Omit<CheckSpec, 'api' | 'target' | 'area' | 'id'> & { id: string },
  body: (r: ReceiverSteps, t: CheckTools) => Promise<void>,
): void {
  check(`${scheme} receiver: ${title}`, { ...spec, id: `receiver.${scheme}.${spec.id}`, api: scheme, target: 'receiver', area: `Receiver (${scheme})` }, async (t) => {
    const target = loadReceiverTarget();
    if (target === undefined) return t.notRun('receiver', 'no receiver target');
    await body(new ReceiverSteps(t, new ReceiverTargetClient(target, t.run), spec.id), t);
  });
}

export type SignatureEncoding = 'lowercase' | 'uppercase' | 'base64';

export interface SignOptions {
  /** epoch seconds (default now) */
  timestamp?: number;
  /** the text the HMAC covers (default: the raw body) */
  signedOver?: string;
  encoding?: SignatureEncoding;
  /** sign with another secret (a forgery) */
  wrongSecret?: boolean;
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

export class ReceiverSteps {
  readonly scheme: ReceiverScheme;
  private drawn = 0;
  /**
   * The hex case valid events are signed in. Partner "`v1` is the hex HMAC-SHA256" states no case:
   * when the endpoint refuses a lowercase digest and accepts the uppercase one, the suite signs the
   * rest of the check in uppercase, so that the case alone never fails an unrelated duty (the case
   * itself is judged by the digest check). Gateway states lowercase: always lowercase.
   */
  private digestCase: 'lowercase' | 'uppercase' = 'lowercase';

  constructor(
    readonly t: CheckTools,
    readonly client: ReceiverTargetClient,
    private readonly checkId: string,
  ) {
    this.scheme = client.target.scheme;
  }

  /** The scheme's receiver rules, by duty. */
  get duties(): ReceiverDuties {
    return RECEIVER_DUTIES[this.scheme];
  }

  /** Every documented event name of the scheme. */
  get events(): readonly string[] {
    return this.scheme === 'gateway' ? GATEWAY_EVENTS : PARTNER_EVENTS;
  }

  /** The paid event's name. */
  get paidEvent(): string {
    return this.scheme === 'gateway' ? 'transaction_paid' : 'business.pix.paid';
  }

  get createdEvent(): string {
    return this.scheme === 'gateway' ? 'transaction_created' : 'business.pix.created';
  }

  /**
   * A fresh payment: amounts, names and documents follow the run seed and this check (replayable with
   * --seed); its identifiers (event id, resource id, end-to-end id tail, external_ref suffix) are
   * random, because the endpoint keeps state between runs and a replayed run must not find its
   * "first" deliveries already processed.
   */
  facts(): PaymentFacts {
    this.drawn += 1;
    const [facts] = fc.sample(paymentFacts(this.scheme), { seed: (this.t.settings.seed ^ hash(this.checkId)) + this.drawn, numRuns: 1 });
    if (!facts) throw new Error('generator produced nothing');
    const nonce = randomBytes(8).toString('hex');
    return {
      ...facts,
      eventId: this.scheme === 'gateway' ? randomUUID() : `evt_${randomBytes(10).toString('hex')}`,
      resourceId: this.scheme === 'gateway' ? randomUUID() : `ch_${nonce}`,
      // E + ISPB + yyyyMMddHHmm (21 characters) from the generator, then 11 fresh characters
      endToEndId: `${facts.endToEndId.slice(0, 21)}${randomBytes(6).toString('hex').slice(0, 11)}`,
      externalRef: `${facts.externalRef}-${nonce}`,
    };
  }

  /** An event body of the scheme. */
  body(event: string, facts: PaymentFacts): Record<string, unknown> {
    return this.scheme === 'gateway'
      ? gatewayEvent(event as (typeof GATEWAY_EVENTS)[number], facts)
      : partnerEvent(event as (typeof PARTNER_EVENTS)[number], facts);
  }

  /** The signature header's name. */
  get header(): string {
    return this.scheme === 'gateway' ? GATEWAY_SIGNATURE_HEADER : PARTNER_SIGNATURE_HEADER;
  }

  /** A signature header value for `raw` as the contract describes (or deliberately not). */
  sign(raw: string, options: SignOptions = {}): string {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const secret = options.wrongSecret ? `${this.client.target.secret}-not-the-secret` : this.client.target.secret;
    const over = options.signedOver ?? raw;
    const encoding = options.encoding ?? this.digestCase;
    if (encoding === 'base64') {
      const digest = createHmac('sha256', secret).update(`${timestamp}.`).update(over).digest('base64');
      return `t=${timestamp},v1=${digest}`;
    }
    const input = { secret, timestamp, body: over, uppercase: encoding === 'uppercase' };
    return this.scheme === 'gateway' ? signGateway(input) : signPartner(input);
  }

  /**
   * Delivers `raw` with `headers` (lower-case names) and observes the answer, with the facts of the
   * signature sent, read with the endpoint's secret (what the signature rules expect follows from them).
   */
  async deliver(label: string, raw: string, headers: Record<string, string>): Promise<DeliveryObservation> {
    const signature = readSignature({ header: headers[this.header], rawBody: raw, secret: this.client.target.secret });
    const sentAt = Date.now();
    const started = performance.now();
    const result = await this.client.deliver(raw, headers);
    const durationMs = result.exchange.durationMs || performance.now() - started;
    const o: DeliveryObservation = { label, status: result.status, durationMs, exchange: result.exchange, signature, sentAt };
    if (result.exchange.error !== undefined) o.error = result.exchange.error;
    if (result.status >= 500) this.t.run.note(`${label}: answered ${result.status} (a 5xx makes the platform redeliver)`);
    return o;
  }

  /**
   * Delivers a body serialised compactly and signed correctly (what the platform does). Partner, a
   * valid event refused with 4xx while signed in lowercase: sent again signed in uppercase (see
   * `digestCase`); the observation returned is the second delivery's.
   */
  async deliverSigned(label: string, body: unknown, options: SignOptions = {}): Promise<DeliveryObservation> {
    const raw = JSON.stringify(body);
    const first = await this.deliver(label, raw, { [this.header]: this.sign(raw, options) });
    const plain = options.encoding === undefined && options.signedOver === undefined && options.timestamp === undefined && options.wrongSecret !== true;
    if (!plain || this.scheme !== 'partner' || this.digestCase === 'uppercase' || first.status < 400 || first.status >= 500) return first;
    const again = await this.deliver(`${label} (again, uppercase hex digest)`, raw, { [this.header]: this.sign(raw, { encoding: 'uppercase' }) });
    if (again.status >= 200 && again.status < 300) {
      this.digestCase = 'uppercase';
      this.t.run.note(`${label}: refused with a lowercase hex digest (${first.status}), accepted with uppercase: the rest of this check signs in uppercase ("hex", case not stated)`);
      return again;
    }
    return first;
  }

  /** Needs the read-back hook: otherwise the check is not run, with the reason. */
  requireState(): void {
    if (this.client.target.stateUrl === undefined) {
      this.t.notRun('receiver.state', 'RECEIVER_STATE_URL not set: effects (processed once, paid processed) cannot be observed');
    }
  }

  /**
   * Polls the read-back hook until the events show up (at most {@link STATE_WAIT_MS}), then keeps
   * reading for {@link STATE_SETTLE_MS} to catch a late second processing. Returns the highest
   * total count seen (undefined: never listed) and how long it waited.
   */
  async processedCount(eventIds: readonly string[]): Promise<{ count: number | undefined; waitedMs: number }> {
    const start = performance.now();
    let count: number | undefined;
    let seenAt: number | undefined;
    for (;;) {
      const read = await this.client.readState();
      if (!read.ok) return this.t.notRun('receiver.state', `the read-back hook is unusable: ${read.problem}`);
      const now = countFor(read.entries, eventIds);
      if (now !== undefined && now >= 1) {
        count = Math.max(count ?? 0, now);
        seenAt ??= performance.now();
      } else if (now !== undefined) count ??= now;
      const elapsed = performance.now() - start;
      if (seenAt !== undefined && performance.now() - seenAt >= STATE_SETTLE_MS) break;
      if (seenAt === undefined && elapsed >= STATE_WAIT_MS) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return { count, waitedMs: performance.now() - start };
  }
}
