/**
 * The embedded reference sandbox as a process-level service: the gateway API and the partner API,
 * each on its own port (the contract gives them separate base addresses). Options default from
 * the REFERENCE_* environment variables (docs/ARCHITECTURE.md, "The reference process").
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handler } from './shared/http.js';
import { sendJson } from './shared/http.js';
import { chaosEnabled, withChaos } from './shared/chaos.js';
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

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`reference: ${name} must be a non-negative number, got "${text}"`);
  return value;
}

/** Options as the REFERENCE_* variables give them, with the documented defaults. */
export function referenceOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ReferenceOptions {
  return {
    host: env.REFERENCE_HOST?.trim() || '127.0.0.1',
    gatewayPort: numberFrom(env, 'REFERENCE_GATEWAY_PORT', 0),
    partnerPort: numberFrom(env, 'REFERENCE_PARTNER_PORT', 0),
    faults: parseFaults(env.REFERENCE_FAULTS),
    tokenTtlMs: numberFrom(env, 'REFERENCE_TOKEN_TTL_MS', 60_000),
    partnerWebhookUrl: env.REFERENCE_PARTNER_WEBHOOK_URL?.trim() || undefined,
    partnerWebhookSecret: env.REFERENCE_PARTNER_WEBHOOK_SECRET?.trim() || `whsec_${randomBytes(24).toString('hex')}`,
    partnerRetryBaseMs: numberFrom(env, 'REFERENCE_PARTNER_RETRY_BASE_MS', 1_000),
    partnerRetryCapMs: numberFrom(env, 'REFERENCE_PARTNER_RETRY_CAP_MS', 300_000),
    partnerDeliveryTimeoutMs: numberFrom(env, 'REFERENCE_PARTNER_DELIVERY_TIMEOUT_MS', 10_000),
    partnerExpiryScale: numberFrom(env, 'REFERENCE_PARTNER_EXPIRY_SCALE', 1),
    chaos: chaosEnabled(env),
  };
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
  const options: ReferenceOptions = { ...referenceOptionsFromEnv(), ...overrides };
  // a typo must never run a "faulty" reference that is in fact correct
  parseFaults([...options.faults].join(','));

  const gateway = createGatewayApp({ faults: options.faults, tokenTtlMs: options.tokenTtlMs, delivery: { chaos: options.chaos } });
  const partner = createPartnerApp({
    faults: options.faults,
    webhookUrl: options.partnerWebhookUrl,
    webhookSecret: options.partnerWebhookSecret,
    retryBaseMs: options.partnerRetryBaseMs,
    retryCapMs: options.partnerRetryCapMs,
    deliveryTimeoutMs: options.partnerDeliveryTimeoutMs,
    expiryScale: options.partnerExpiryScale,
    chaos: options.chaos,
  });
  const gatewayServer = serve(options.chaos ? withChaos(gateway.handler, { rateLimitedBody: { success: false, message: 'Too many requests' } }) : gateway.handler);
  const partnerServer = serve(options.chaos ? withChaos(partner.handler, { rateLimitedBody: { detail: 'too many requests' } }) : partner.handler);
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
      partner: { baseUrl: `http://${host}:${partnerPort}/v1`, ...partner.credentials },
    };
    return { info, close };
  } catch (error) {
    await close();
    throw error;
  }
}
