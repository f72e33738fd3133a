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

/** The run's webhook receiver and target (the embedded reference, started pointed at the receiver, or the configured one). */
interface StartedTarget {
  receiver: RunningReceiver;
  reference: EmbeddedReference | undefined;
  target: TargetConfig;
  /** the variables the workers read the target from */
  exported: Record<string, string>;
}

async function startTarget(env: NodeJS.ProcessEnv): Promise<StartedTarget> {
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
  return { receiver, reference, target, exported };
}

async function stopTarget(started: StartedTarget): Promise<void> {
  try {
    await started.reference?.stop();
  } finally {
    await started.receiver.close();
  }
}

/**
 * The target started ahead of vitest by the process that then starts vitest in itself (the CLI,
 * {@link startTargetEarly}): the embedded reference's start (a second Node process) then overlaps
 * vitest's own. On `globalThis`, because vitest loads this file in a module graph of its own.
 */
interface EarlyTarget {
  started: Promise<StartedTarget>;
  /** the environment it was started with (the setup takes it only for the same one) */
  key: string;
  adopted: boolean;
}

const EARLY = Symbol.for('paygate-conformance.early-target');
type WithEarly = typeof globalThis & { [EARLY]?: EarlyTarget };

/** The variables the target is started from: the early start is taken only if they did not change. */
function targetKey(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(Object.entries(env).filter(([k]) => /^(GATEWAY_|PARTNER_|CALLBACK_|REFERENCE_)/.test(k)).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Starts the receiver and the target now, for the global setup of a vitest started later in this
 * process to take over. Call {@link releaseEarlyTarget} after vitest has closed: it stops them
 * when no setup took them (a run that ended before its setup).
 */
export function startTargetEarly(env: NodeJS.ProcessEnv): void {
  const early: EarlyTarget = { started: startTarget(env), key: targetKey(env), adopted: false };
  // a failure is the setup's to report (it starts again and says why); never unhandled here
  early.started.catch(() => undefined);
  (globalThis as WithEarly)[EARLY] = early;
}

/** Stops what {@link startTargetEarly} started if no global setup took it over. */
export async function releaseEarlyTarget(): Promise<void> {
  const holder = globalThis as WithEarly;
  const early = holder[EARLY];
  delete holder[EARLY];
  if (early === undefined || early.adopted) return;
  const started = await early.started.catch(() => undefined);
  if (started !== undefined) await stopTarget(started);
}

/** The early start for this environment, taken over (undefined: none, or one that failed: start again). */
async function adoptEarlyTarget(env: NodeJS.ProcessEnv): Promise<StartedTarget | undefined> {
  const early = (globalThis as WithEarly)[EARLY];
  if (early === undefined || early.adopted) return undefined;
  // started for another environment: stopped (it may hold CALLBACK_PORT), then started again
  if (early.key !== targetKey(env)) return void (await releaseEarlyTarget());
  early.adopted = true;
  return early.started.catch(() => undefined);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  // a receiver run (--receiver-url) plays the platform against the integrator's endpoint: no API
  // target, no embedded reference, no webhook receiver of our own
  if (env['PAYGATE_TARGET_KIND'] === 'receiver') return async () => undefined;
  const started = (await adoptEarlyTarget(env)) ?? (await startTarget(env));
  const { target, exported } = started;

  // the run-wide rate cap (--max-rps; the CLI sets PAYGATE_MAX_RPS_TOTAL) is served from here too
  const maxRpsTotal = Number(env['PAYGATE_MAX_RPS_TOTAL']);
  const trace = env['PAYGATE_LANE_TRACE'];
  const lane = await startLaneServer({ ...(Number.isFinite(maxRpsTotal) && maxRpsTotal > 0 && { maxRps: maxRpsTotal }), ...(trace && { trace }) });
  exported['PAYGATE_LANE_URL'] = lane.url;
  Object.assign(process.env, exported);
  project.provide('paygateTarget', target);

  return async () => {
    try {
      await stopTarget(started);
    } finally {
      await lane.close();
    }
  };
}
