/**
 * Talks to the run's webhook receiver over its control API, from any process (test workers are not
 * the process that started the receiver). A webhook that never arrives is NOT an error here:
 * `waitFor` resolves `undefined` and the caller records the contract finding. Only an unreachable or
 * misbehaving receiver throws, as a {@link HarnessError} (`webhooks.receiver-unreachable`).
 */
import { Agent, fetch } from 'undici';
import type { RequestInit, Response } from 'undici';
import { HarnessError } from '../core/errors.js';
import type { Delivery, DeliveryFilter, DeliveryListing, ScriptSpec, WireDelivery } from './types.js';

export interface WaitOptions {
  /** only deliveries to this exact path */
  path?: string;
  /** only deliveries whose path starts with this */
  pathPrefix?: string;
  /** only deliveries with seq greater than this (default 0: deliveries that arrived before the call count too) */
  afterSeq?: number;
  /** give up after this long; the result is then `undefined` (waitFor) or the partial list (waitForCount) */
  timeoutMs: number;
  /** longest single long-poll request to the receiver (default 1000 ms) */
  pollMs?: number;
}

export function toDelivery(wire: WireDelivery): Delivery {
  const rawBody = Buffer.from(wire.bodyBase64, 'base64');
  const bodyText = rawBody.toString('utf8');
  const { bodyBase64: _unused, ...rest } = wire;
  const delivery: Delivery = { ...rest, rawBody, bodyText };
  try {
    delivery.json = JSON.parse(bodyText) as unknown;
  } catch {
    // not JSON: json stays undefined, rawBody/bodyText still tell what arrived
  }
  return delivery;
}

let direct: Agent | undefined;
/** One keep-alive agent per process that never goes through a proxy (harness/http/transport.ts). */
function directAgent(): Agent {
  direct ??= new Agent();
  return direct;
}

export class ReceiverClient {
  readonly baseUrl: string;

  /** `baseUrl` is the receiver's own address (RunningReceiver.url), not CALLBACK_PUBLIC_URL. */
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      // the receiver is ours, on this machine: always direct, whatever HTTPS_PROXY/HTTP_PROXY say
      const init: RequestInit = { method, dispatcher: directAgent() };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json' };
      }
      const res = await fetch(`${this.baseUrl}${path}`, init);
      if (res.status >= 400) {
        throw new HarnessError('webhooks.receiver-unreachable', `receiver ${method} ${path} answered ${res.status}: ${await res.text()}`);
      }
      return res;
    } catch (err) {
      if (err instanceof HarnessError) throw err;
      throw new HarnessError('webhooks.receiver-unreachable', `webhook receiver at ${this.baseUrl} unreachable (${method} ${path}): ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async listing(filter: DeliveryFilter, waitMs = 0): Promise<DeliveryListing> {
    const q = new URLSearchParams();
    if (filter.path !== undefined) q.set('path', filter.path);
    if (filter.pathPrefix !== undefined) q.set('pathPrefix', filter.pathPrefix);
    if (filter.afterSeq !== undefined) q.set('afterSeq', String(filter.afterSeq));
    if (waitMs > 0) q.set('waitMs', String(Math.ceil(waitMs)));
    const res = await this.call('GET', `/_control/deliveries?${q.toString()}`);
    return (await res.json()) as DeliveryListing;
  }

  /** Every recorded delivery matching the filter, oldest first. */
  async deliveries(filter: DeliveryFilter = {}): Promise<Delivery[]> {
    return (await this.listing(filter)).deliveries.map(toDelivery);
  }

  /** The highest seq recorded so far: pass it as `afterSeq` to see only what arrives from now on. */
  async lastSeq(): Promise<number> {
    return (await this.listing({ path: '/_control/none' })).lastSeq;
  }

  /** Resolves with the first (lowest-seq) matching delivery, or `undefined` after `timeoutMs`. */
  async waitFor(predicate: (d: Delivery) => boolean, options: WaitOptions): Promise<Delivery | undefined> {
    const found = await this.waitForCount(predicate, 1, options);
    return found[0];
  }

  /**
   * Resolves with the matching deliveries (oldest first) as soon as there are at least `n`, or after
   * `timeoutMs` with the fewer found so far (the caller decides what a shortfall means).
   */
  async waitForCount(predicate: (d: Delivery) => boolean, n: number, options: WaitOptions): Promise<Delivery[]> {
    const deadline = Date.now() + options.timeoutMs;
    const pollMs = options.pollMs ?? 1000;
    const filter: DeliveryFilter = { afterSeq: options.afterSeq ?? 0 };
    if (options.path !== undefined) filter.path = options.path;
    if (options.pathPrefix !== undefined) filter.pathPrefix = options.pathPrefix;
    const matched: Delivery[] = [];
    let waitMs = 0;
    for (;;) {
      const listing = await this.listing(filter, waitMs);
      for (const wire of listing.deliveries) {
        filter.afterSeq = Math.max(filter.afterSeq ?? 0, wire.seq);
        const d = toDelivery(wire);
        if (predicate(d)) matched.push(d);
      }
      if (matched.length >= n) return matched;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return matched;
      waitMs = Math.max(1, Math.min(pollMs, remaining));
    }
  }

  /**
   * Answers `spec.status` (after `spec.delayMs`) to the next `spec.failFirst` deliveries to `path`
   * (with `spec.bodyContains`: only to those whose body contains that marker).
   */
  async script(path: string, spec: ScriptSpec): Promise<void> {
    await this.call('PUT', '/_control/scripts', { path, ...spec });
  }

  /** Back to answering 200 on `path` (or, with `bodyContains`, removes only that marker's script). */
  async clearScript(path: string, bodyContains?: string): Promise<void> {
    const marker = bodyContains === undefined ? '' : `&bodyContains=${encodeURIComponent(bodyContains)}`;
    await this.call('DELETE', `/_control/scripts?path=${encodeURIComponent(path)}${marker}`);
  }

  /** True when the receiver answers its health route. */
  async healthy(): Promise<boolean> {
    try {
      await this.call('GET', '/_control/health');
      return true;
    } catch {
      return false;
    }
  }
}
