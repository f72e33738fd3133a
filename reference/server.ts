/**
 * The embedded reference sandbox as a process-level service: the gateway API and the partner API,
 * each on its own port (the contract gives them separate base addresses). Options default from
 * the REFERENCE_* environment variables (docs/ARCHITECTURE.md, "The reference process").
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { Handler } from './shared/http.js';
import { responseStyle, sendJson } from './shared/http.js';
import { chaosEnabled, withChaos } from './shared/chaos.js';
import { retryAfterValue, withRateLimit, type TooManyRequests } from './shared/rate-limit.js';
import { parseKeepDefault, parsePersonality, personality, type Personality, type PersonalitySpec } from './personality.js';
import { parseFaults } from './faults.js';
import { createGatewayApp } from './gateway/app.js';
import type { GatewayCredentials } from './gateway/app.js';
import { createPartnerApp } from './partner/app.js';
import type { PartnerCredentials } from './partner/app.js';

export interface ReferenceOptions {
  host: string;
  /** 0 picks an ephemeral port */
  gatewayPort: number;
  partnerPort: number;
  /** switched-on fault names from reference/faults.ts (both APIs) */
  faults: ReadonlySet<string>;
  tokenTtlMs: number;
  partnerWebhookUrl?: string;
  partnerWebhookSecret: string;
  partnerRetryBaseMs: number;
  partnerRetryCapMs: number;
  partnerDeliveryTimeoutMs: number;
  partnerExpiryScale: number;
  /** REFERENCE_CHAOS=1: random 429s, latency, delayed webhooks (reference/shared/chaos.ts) */
  chaos: boolean;
  /** REFERENCE_PERSONALITY: the free choices taken, default, alt or mix:SEED (reference/personality.ts, DECISIONS.md) */
  personality: PersonalitySpec;
  /** REFERENCE_PERSONALITY_KEEP: choices that keep their default value (bisecting) */
  personalityKeep: string[];
}

/** What `reference/main.ts --json` prints on its first stdout line (docs/ARCHITECTURE.md). */
export interface ReferenceInfo {
  gateway: { baseUrl: string } & GatewayCredentials;
  partner: { baseUrl: string } & PartnerCredentials;
}

export interface RunningReference {
  info: ReferenceInfo;
  close(): Promise<void>;
}

function optionalNumberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  return env[name]?.trim() ? numberFrom(env, name, 0) : undefined;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`reference: ${name} must be a non-negative number, got "${text}"`);
  return value;
}

/** Options as the REFERENCE_* variables give them, with the documented defaults. */
export function referenceOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ReferenceOptions {
  const name = parsePersonality(env.REFERENCE_PERSONALITY);
  const keep = parseKeepDefault(env.REFERENCE_PERSONALITY_KEEP);
  const chosen = personality(name, keep);
  return {
    host: env.REFERENCE_HOST?.trim() || '127.0.0.1',
    gatewayPort: numberFrom(env, 'REFERENCE_GATEWAY_PORT', 0),
    partnerPort: numberFrom(env, 'REFERENCE_PARTNER_PORT', 0),
    faults: parseFaults(env.REFERENCE_FAULTS),
    tokenTtlMs: optionalNumberFrom(env, 'REFERENCE_TOKEN_TTL_MS') ?? chosen.gwTokenTtlMs,
    partnerWebhookUrl: env.REFERENCE_PARTNER_WEBHOOK_URL?.trim() || undefined,
    partnerWebhookSecret: env.REFERENCE_PARTNER_WEBHOOK_SECRET?.trim() || `whsec_${randomBytes(24).toString('hex')}`,
    partnerRetryBaseMs: optionalNumberFrom(env, 'REFERENCE_PARTNER_RETRY_BASE_MS') ?? chosen.ptRetryBaseMs,
    partnerRetryCapMs: numberFrom(env, 'REFERENCE_PARTNER_RETRY_CAP_MS', 300_000),
    partnerDeliveryTimeoutMs: numberFrom(env, 'REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS', 10_000),
    partnerExpiryScale: numberFrom(env, 'REFERENCE_PARTNER_EXPIRY_SCALE', 1),
    chaos: chaosEnabled(env),
    personality: name,
    personalityKeep: keep,
  };
}

/** How each API answers 429: its error shape (or the personality's plain text) and Retry-After format. */
function tooManyRequests(api: 'gateway' | 'partner', p: Personality): TooManyRequests {
  const style = responseStyle(p);
  return (res: ServerResponse, seconds: number) => {
    const headers = { 'retry-after': retryAfterValue(seconds, p.retryAfterFormat) };
    if (api === 'gateway' && p.gwRateLimitedBody === 'text') {
      const text = 'Too Many Requests';
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
      res.end(text);
      return;
    }
    sendJson(res, 429, api === 'gateway' ? { success: false, message: 'Too many requests' } : { detail: 'too many requests' }, headers, style);
  };
}

/** Rate limit (personality) outside, chaos inside: both answer before the API sees the request. */
function wrap(handler: Handler, api: 'gateway' | 'partner', options: ReferenceOptions, p: Personality): Handler {
  const tooMany = tooManyRequests(api, p);
  const rateLimitedBody = api === 'gateway' ? { success: false, message: 'Too many requests' } : { detail: 'too many requests' };
  const inner = options.chaos ? withChaos(handler, { rateLimitedBody, tooManyRequests: tooMany }) : handler;
  return withRateLimit(inner, p.rateLimitPerSecond, tooMany);
}

/** Wraps a handler so that nothing escapes as an unhandled rejection; a bug answers 500. */
function serve(handler: Handler): Server {
  return createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      console.error('reference: unhandled error', error);
      if (!res.headersSent) sendJson(res, 500, { success: false, message: 'Internal server error' });
      else res.destroy();
    });
  });
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The host as it goes into a URL: wildcard binds are reached over loopback, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts both APIs; options not given come from the environment. */
export async function startReference(overrides: Partial<ReferenceOptions> = {}): Promise<RunningReference> {
  // a personality given here also picks its defaults (token lifetime, retry base) unless set
  const env = overrides.personality !== undefined ? { ...process.env, REFERENCE_PERSONALITY: overrides.personality } : process.env;
  const options: ReferenceOptions = { ...referenceOptionsFromEnv(env), ...overrides };
  // a typo must never run a "faulty" reference that is in fact correct
  parseFaults([...options.faults].join(','));
  const chosen = personality(parsePersonality(options.personality), options.personalityKeep);

  const gateway = createGatewayApp({ faults: options.faults, tokenTtlMs: options.tokenTtlMs, delivery: { chaos: options.chaos }, personality: chosen });
  const partner = createPartnerApp({
    faults: options.faults,
    webhookUrl: options.partnerWebhookUrl,
    webhookSecret: options.partnerWebhookSecret,
    retryBaseMs: options.partnerRetryBaseMs,
    retryCapMs: options.partnerRetryCapMs,
    deliveryTimeoutMs: options.partnerDeliveryTimeoutMs,
    expiryScale: options.partnerExpiryScale,
    chaos: options.chaos,
    personality: chosen,
  });
  const gatewayServer = serve(wrap(gateway.handler, 'gateway', options, chosen));
  const partnerServer = serve(wrap(partner.handler, 'partner', options, chosen));
  const close = async (): Promise<void> => {
    await Promise.all([stop(gatewayServer), stop(partnerServer)]);
    await Promise.all([gateway.close(), partner.close()]);
  };
  try {
    const gatewayPort = await listen(gatewayServer, options.host, options.gatewayPort);
    const partnerPort = await listen(partnerServer, options.host, options.partnerPort);
    const host = urlHost(options.host);
    const info: ReferenceInfo = {
      gateway: { baseUrl: `http://${host}:${gatewayPort}`, ...gateway.credentials },
      // fault pt-routes-unversioned: the routes are mounted at the root, the base address has no /v1
      partner: { baseUrl: `http://${host}:${partnerPort}${options.faults.has('pt-routes-unversioned') ? '' : '/v1'}`, ...partner.credentials },
    };
    return { info, close };
  } catch (error) {
    await close();
    throw error;
  }
}
