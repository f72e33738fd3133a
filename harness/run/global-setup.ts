/**
 * Vitest global setup of the conformance run (main process, once per run).
 *
 * 1. Starts ONE webhook receiver (CALLBACK_HOST / CALLBACK_PORT; with the embedded reference and
 *    no CALLBACK_PORT, any free port so parallel runs don't clash; the public URL then uses the
 *    bound port).
 * 2. With no target configured, starts the embedded reference sandbox, pointed at the receiver.
 * 3. Exports the target to the workers twice: `project.provide('paygateTarget', …)` (read with
 *    `inject('paygateTarget')`) and environment variables (GATEWAY_BASE_URL…, CALLBACK_*,
 *    PAYGATE_RECEIVER_URL, PAYGATE_EMBEDDED), so worker code can simply call `loadTargetConfig()`.
 *    Workers are separate processes forked after this runs, so they inherit process.env.
 * 4. Serves the run-wide quiet-account lane (harness/run/lane.ts) at PAYGATE_LANE_URL.
 * Teardown stops the reference, then the receiver and the lane.
 */
import type { TestProject } from 'vitest/node';
import type { CallbackConfig, EmbeddedReference, ReferenceInfo, TargetConfig } from '../config/target.js';
import type { RunningReceiver } from '../webhooks/receiver.js';
import type * as ReceiverModule from '../webhooks/receiver.js';
import type * as TargetModule from '../config/target.js';
import { timersFromReferenceEnv } from '../webhooks/redelivery-timers.js';
import { startLaneServer } from './lane.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** the run's target (embedded reference or configured), set by harness/run/global-setup.ts */
    paygateTarget: TargetConfig;
  }
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

async function load<T>(specifier: string, what: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`global-setup: cannot load ${what} (${specifier}): ${detail}`, { cause: error });
  }
}

/** The environment variables that describe a running reference (INTERFACE.md names). */
export function envFromReference(info: ReferenceInfo): Record<string, string> {
  const g = info.gateway;
  const p = info.partner;
  return {
    GATEWAY_BASE_URL: g.baseUrl,
    GATEWAY_CLIENT_ID: g.clientId,
    GATEWAY_CLIENT_SECRET: g.clientSecret,
    GATEWAY_LIVE_CLIENT_ID: g.liveClientId,
    GATEWAY_LIVE_CLIENT_SECRET: g.liveClientSecret,
    GATEWAY_OTHER_CLIENT_ID: g.otherClientId,
    GATEWAY_OTHER_CLIENT_SECRET: g.otherClientSecret,
    GATEWAY_SPLIT_EMAIL: g.splitEmail,
    PARTNER_BASE_URL: p.baseUrl,
    PARTNER_API_KEY: p.apiKey,
    PARTNER_LIVE_API_KEY: p.liveApiKey,
    PARTNER_OTHER_API_KEY: p.otherApiKey,
    PARTNER_WEBHOOK_SECRET: p.webhookSecret,
  };
}

/** Where the receiver listens: embedded runs without CALLBACK_PORT take any free port. */
export function receiverAddress(env: NodeJS.ProcessEnv, embedded: boolean): { host: string; port: number } {
  const host = nonEmpty(env['CALLBACK_HOST']) ? (env['CALLBACK_HOST'] ?? '').trim() : '127.0.0.1';
  const portText = (env['CALLBACK_PORT'] ?? '').trim();
  if (portText === '') return { host, port: embedded ? 0 : 4799 };
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`global-setup: CALLBACK_PORT must be an integer 0-65535, got "${portText}"`);
  return { host, port };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  // a receiver run (--receiver-url) plays the platform against the integrator's endpoint: no API
  // target, no embedded reference, no webhook receiver of our own
  if (env['PAYGATE_TARGET_KIND'] === 'receiver') return async () => undefined;
  const receiverModule = await load<typeof ReceiverModule>('../webhooks/receiver.js', 'the webhook receiver');
  const targetModule = await load<typeof TargetModule>('../config/target.js', 'the target configuration');
  const embedded = targetModule.isEmbeddedTarget(env);

  const address = receiverAddress(env, embedded);
  let receiver: RunningReceiver;
  try {
    receiver = await receiverModule.startReceiver(address);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `global-setup: the webhook receiver could not listen on ${address.host}:${address.port} (${detail}); set CALLBACK_PORT to a free port`,
      { cause: error },
    );
  }
  const bound = new URL(receiver.url);
  const port = Number(bound.port || address.port);
  // the public URL as every other reader works it out, with the port actually bound
  const callback: CallbackConfig = targetModule.loadCallbackConfig({ ...env, CALLBACK_HOST: address.host, CALLBACK_PORT: String(port) });
  const exported: Record<string, string> = {
    CALLBACK_HOST: callback.host,
    CALLBACK_PORT: String(callback.port),
    CALLBACK_PUBLIC_URL: callback.publicUrl,
    PAYGATE_RECEIVER_URL: receiver.url,
    PAYGATE_EMBEDDED: embedded ? '1' : '0',
  };

  let reference: EmbeddedReference | undefined;
  let target: TargetConfig;
  try {
    if (embedded) {
      reference = await targetModule.startEmbeddedReference({
        callbackPublicUrl: callback.publicUrl,
        ...(nonEmpty(env['REFERENCE_FAULTS']) && { faults: env['REFERENCE_FAULTS'] }),
        ...(nonEmpty(env['REFERENCE_PERSONALITY']) && { personality: env['REFERENCE_PERSONALITY'] }),
      });
      Object.assign(exported, envFromReference(reference.info), timersFromReferenceEnv(env));
      target = targetModule.targetFromReference(reference.info, callback);
    } else {
      target = targetModule.loadTargetConfig({ ...env, ...exported });
    }
  } catch (error) {
    await reference?.stop();
    await receiver.close();
    throw error;
  }

  // the run-wide rate cap (--max-rps; the CLI sets PAYGATE_MAX_RPS_TOTAL) is served from here too
  const maxRpsTotal = Number(env['PAYGATE_MAX_RPS_TOTAL']);
  const lane = await startLaneServer(Number.isFinite(maxRpsTotal) && maxRpsTotal > 0 ? { maxRps: maxRpsTotal } : {});
  exported['PAYGATE_LANE_URL'] = lane.url;
  Object.assign(process.env, exported);
  project.provide('paygateTarget', target);

  return async () => {
    try {
      await reference?.stop();
    } finally {
      await receiver.close();
      await lane.close();
    }
  };
}
