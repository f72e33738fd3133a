/**
 * Target configuration from the environment (docs: /INTERFACE "Target configuration") and the
 * embedded reference sandbox used when no target is configured.
 *
 * - Neither `GATEWAY_BASE_URL` nor `PARTNER_BASE_URL` set → `embedded: true`; start the reference
 *   with {@link startEmbeddedReference} and build the target with {@link targetFromReference}.
 * - Only one set → the other API is "not run" (reason recorded), never a failure.
 * - A missing optional variable → its capability is "not run" with the reason.
 * - A base URL set without its required credentials, or a malformed value → HarnessError
 *   `config.*` (a misconfigured CI gate must not pass silently).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { HarnessError } from '../core/errors.js';

export interface GatewayCredentials {
  clientId: string;
  clientSecret: string;
}

export interface GatewayTarget {
  /** `{base_url}` without trailing slash; routes `/api/auth`, `/api/v1/...` */
  baseUrl: string;
  /** sandbox pair (required) */
  sandbox: GatewayCredentials;
  /** production pair: only checks that move no money */
  live?: GatewayCredentials;
  /** a second account's sandbox pair: cross-account isolation */
  other?: GatewayCredentials;
  /** e-mail of another company on the platform: valid split checks */
  splitEmail?: string;
}

export interface PartnerTarget {
  /** `{partner_base_url}` ending in `/v1`, without trailing slash */
  baseUrl: string;
  /** `ak_test_` key (required) */
  apiKey: string;
  /** `ak_live_` key */
  liveApiKey?: string;
  /** another account's `ak_test_` key */
  otherApiKey?: string;
  /** endpoint secret of the partner webhook registered at `${callback.publicUrl}/partner` */
  webhookSecret?: string;
}

export interface CallbackConfig {
  host: string;
  port: number;
  /** where the target reaches the receiver, without trailing slash */
  publicUrl: string;
}

/** Capabilities that can be "not run": an API, or an optional part of one. */
export type Capability =
  | 'gateway'
  | 'partner'
  | 'gateway.live'
  | 'gateway.other'
  | 'gateway.split'
  | 'partner.live'
  | 'partner.other'
  | 'partner.webhooks';

export interface NotRun {
  capability: Capability;
  reason: string;
}

export interface TargetConfig {
  gateway?: GatewayTarget;
  partner?: PartnerTarget;
  callback: CallbackConfig;
  /** true when no target was configured: the embedded reference is (to be) the target */
  embedded: boolean;
  notRun: NotRun[];
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function baseUrl(env: Env, name: string): string | undefined {
  const v = value(env, name);
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new HarnessError('config.base-url', `${name} is not a URL: ${JSON.stringify(v)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('config.base-url', `${name} must be an http(s) URL: ${JSON.stringify(v)}`);
  }
  if (url.search || url.hash) throw new HarnessError('config.base-url', `${name} must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function pair(env: Env, prefix: string): GatewayCredentials | undefined {
  const clientId = value(env, `${prefix}_CLIENT_ID`);
  const clientSecret = value(env, `${prefix}_CLIENT_SECRET`);
  if (clientId && clientSecret) return { clientId, clientSecret };
  return undefined;
}

/** True when no target is configured (neither base URL set): the embedded reference is the target. */
export function isEmbeddedTarget(env: Env = process.env): boolean {
  return value(env, 'GATEWAY_BASE_URL') === undefined && value(env, 'PARTNER_BASE_URL') === undefined;
}

/** The callback receiver's settings (defaults 127.0.0.1, 4799, http://HOST:PORT). */
export function loadCallbackConfig(env: Env = process.env): CallbackConfig {
  const host = value(env, 'CALLBACK_HOST') ?? '127.0.0.1';
  const portText = value(env, 'CALLBACK_PORT') ?? '4799';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new HarnessError('config.callback-port', `CALLBACK_PORT must be an integer 0-65535, got ${JSON.stringify(portText)}`);
  }
  const hostInUrl = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const publicUrl = (value(env, 'CALLBACK_PUBLIC_URL') ?? `http://${hostInUrl}:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new HarnessError('config.callback-url', `CALLBACK_PUBLIC_URL is not a URL: ${JSON.stringify(publicUrl)}`);
  }
  return { host, port, publicUrl };
}

/** Reads the target configuration from environment variables (INTERFACE.md). */
export function loadTargetConfig(env: Env = process.env): TargetConfig {
  const callback = loadCallbackConfig(env);
  if (isEmbeddedTarget(env)) return { callback, embedded: true, notRun: [] };
  const gatewayUrl = baseUrl(env, 'GATEWAY_BASE_URL');
  const partnerUrl = baseUrl(env, 'PARTNER_BASE_URL');

  const config: TargetConfig = { callback, embedded: false, notRun: [] };
  const notRun = (capability: Capability, reason: string): void => {
    config.notRun.push({ capability, reason });
  };

  if (gatewayUrl) {
    const sandbox = pair(env, 'GATEWAY');
    if (!sandbox) {
      throw new HarnessError(
        'config.missing',
        'GATEWAY_BASE_URL is set but GATEWAY_CLIENT_ID and GATEWAY_CLIENT_SECRET are not: the sandbox pair is required to test the gateway',
      );
    }
    const gateway: GatewayTarget = { baseUrl: gatewayUrl, sandbox };
    const live = pair(env, 'GATEWAY_LIVE');
    if (live && live.clientId === sandbox.clientId) {
      // the sandbox pair drives every money-moving check: it must never be the production pair
      throw new HarnessError('config.sandbox-is-production', 'GATEWAY_CLIENT_ID is the production client id (GATEWAY_LIVE_CLIENT_ID): the sandbox pair must be a sandbox pair; nothing was sent');
    }
    if (live) gateway.live = live;
    else notRun('gateway.live', 'GATEWAY_LIVE_CLIENT_ID/GATEWAY_LIVE_CLIENT_SECRET not set: production-credential checks not run');
    const other = pair(env, 'GATEWAY_OTHER');
    if (other) gateway.other = other;
    else notRun('gateway.other', 'GATEWAY_OTHER_CLIENT_ID/GATEWAY_OTHER_CLIENT_SECRET not set: cross-account isolation checks not run');
    const splitEmail = value(env, 'GATEWAY_SPLIT_EMAIL');
    if (splitEmail) gateway.splitEmail = splitEmail;
    else notRun('gateway.split', 'GATEWAY_SPLIT_EMAIL not set: only split checks that need no recipient run');
    config.gateway = gateway;
  } else {
    notRun('gateway', 'GATEWAY_BASE_URL not set (only PARTNER_BASE_URL is): the gateway API is not tested');
  }

  if (partnerUrl) {
    const apiKey = value(env, 'PARTNER_API_KEY');
    if (!apiKey) {
      throw new HarnessError('config.missing', 'PARTNER_BASE_URL is set but PARTNER_API_KEY is not: an ak_test_ key is required to test the partner API');
    }
    const partner: PartnerTarget = { baseUrl: partnerUrl, apiKey };
    const live = value(env, 'PARTNER_LIVE_API_KEY');
    if (apiKey.startsWith('ak_live_') || (live !== undefined && live === apiKey)) {
      // "Key prefix ak_test_ selects sandbox; ak_live_ selects production": never test with a live key
      throw new HarnessError('config.sandbox-is-production', 'PARTNER_API_KEY is a production key (ak_live_ prefix or equal to PARTNER_LIVE_API_KEY): an ak_test_ key is required; nothing was sent');
    }
    if (live) partner.liveApiKey = live;
    else notRun('partner.live', 'PARTNER_LIVE_API_KEY not set: production-key checks not run');
    const other = value(env, 'PARTNER_OTHER_API_KEY');
    if (other) partner.otherApiKey = other;
    else notRun('partner.other', 'PARTNER_OTHER_API_KEY not set: cross-account isolation checks not run');
    const secret = value(env, 'PARTNER_WEBHOOK_SECRET');
    if (secret) partner.webhookSecret = secret;
    else notRun('partner.webhooks', 'PARTNER_WEBHOOK_SECRET not set: partner webhook checks not run');
    config.partner = partner;
  } else {
    notRun('partner', 'PARTNER_BASE_URL not set (only GATEWAY_BASE_URL is): the partner API is not tested');
  }
  return config;
}

/** Why a capability is not run, or undefined when it runs. `gateway.*` is not run when `gateway` is not. */
export function notRunReason(config: TargetConfig, capability: Capability): string | undefined {
  const direct = config.notRun.find((n) => n.capability === capability);
  if (direct) return direct.reason;
  const api = capability.split('.')[0] as Capability;
  if (api !== capability) return config.notRun.find((n) => n.capability === api)?.reason;
  if (!config[api as 'gateway' | 'partner']) return `${api} target not configured`;
  return undefined;
}

/**
 * What `reference/main.ts --json` prints on its first stdout line (docs/ARCHITECTURE.md), as the suite
 * reads it: the suite and the reference share no code, only this line.
 */
export interface ReferenceInfo {
  gateway: {
    baseUrl: string;
    clientId: string;
    clientSecret: string;
    liveClientId: string;
    liveClientSecret: string;
    otherClientId: string;
    otherClientSecret: string;
    splitEmail: string;
  };
  partner: { baseUrl: string; apiKey: string; liveApiKey: string; otherApiKey: string; webhookSecret: string };
}

export interface EmbeddedReference {
  info: ReferenceInfo;
  /** the child's process id */
  pid: number | undefined;
  /** kills the child (SIGTERM, then SIGKILL after 3 s) and waits for it to exit */
  stop(): Promise<void>;
}

export interface StartReferenceOptions {
  /** the receiver's public address; partner events go to `${callbackPublicUrl}/partner` */
  callbackPublicUrl: string;
  /** REFERENCE_FAULTS: comma-separated fault names */
  faults?: string;
  /** REFERENCE_PERSONALITY: default | alt (reference/DECISIONS.md); unset: inherited from the environment */
  personality?: string;
  /** extra environment for the child (wins over ours) */
  env?: Record<string, string>;
  /** how long to wait for the info line (default 30 s) */
  timeoutMs?: number;
  /**
   * the script to run instead of reference/main.ts (tests); else PAYGATE_REFERENCE_SCRIPT (the
   * project's system tests: a bundle of the reference built once, test/fault-matrix/reference-bundle.ts)
   */
  script?: string;
}

/** Starts the reference sandbox as a child process and reads its {@link ReferenceInfo}. */
export async function startEmbeddedReference(options: StartReferenceOptions): Promise<EmbeddedReference> {
  // the built package runs the compiled reference with plain Node; a clone runs the source through tsx
  const compiled = import.meta.url.endsWith('.js');
  const script = options.script ?? (process.env['PAYGATE_REFERENCE_SCRIPT'] || undefined) ?? fileURLToPath(new URL(`../../reference/main.${compiled ? 'js' : 'ts'}`, import.meta.url));
  // tsx as a loader in the reference's own process (its CLI would start a second Node process)
  const runner = script.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const env: Record<string, string | undefined> = {
    ...process.env,
    REFERENCE_PARTNER_WEBHOOK_URL: `${options.callbackPublicUrl.replace(/\/+$/, '')}/partner`,
  };
  if (options.faults !== undefined) env.REFERENCE_FAULTS = options.faults;
  if (options.personality !== undefined) env.REFERENCE_PERSONALITY = options.personality;
  Object.assign(env, options.env ?? {});
  const child = spawn(process.execPath, [...runner, script, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });

  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
  });
  let exited = child.exitCode !== null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });

  const stop = async (): Promise<void> => {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitPromise;
    clearTimeout(killer);
  };

  const timeoutMs = options.timeoutMs ?? 30_000;
  const lines = createInterface({ input: child.stdout });
  try {
    const firstLine = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new HarnessError('reference.start-timeout', `the embedded reference printed nothing within ${timeoutMs} ms${stderrTail ? `; stderr:\n${stderrTail}` : ''}`)),
        timeoutMs,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new HarnessError('reference.spawn', `could not start the embedded reference: ${err.message}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new HarnessError('reference.exited', `the embedded reference exited (${signal ?? `code ${code}`}) before printing its info${stderrTail ? `; stderr:\n${stderrTail}` : ''}`));
      });
    });
    // keep draining stdout so the child never blocks on a full pipe
    lines.on('line', () => undefined);
    let info: ReferenceInfo;
    try {
      info = JSON.parse(firstLine) as ReferenceInfo;
    } catch {
      throw new HarnessError('reference.info', `the embedded reference's first line is not JSON: ${firstLine.slice(0, 200)}`);
    }
    if (!info || typeof info !== 'object' || !info.gateway?.baseUrl || !info.partner?.baseUrl) {
      throw new HarnessError('reference.info', `the embedded reference's info lacks gateway/partner base URLs: ${firstLine.slice(0, 200)}`);
    }
    return { info, pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The target configuration for a running reference: both APIs, every optional capability. */
export function targetFromReference(info: ReferenceInfo, callback: CallbackConfig): TargetConfig {
  const g = info.gateway;
  const p = info.partner;
  return {
    embedded: true,
    callback,
    notRun: [],
    gateway: {
      baseUrl: g.baseUrl.replace(/\/+$/, ''),
      sandbox: { clientId: g.clientId, clientSecret: g.clientSecret },
      live: { clientId: g.liveClientId, clientSecret: g.liveClientSecret },
      other: { clientId: g.otherClientId, clientSecret: g.otherClientSecret },
      splitEmail: g.splitEmail,
    },
    partner: {
      baseUrl: p.baseUrl.replace(/\/+$/, ''),
      apiKey: p.apiKey,
      liveApiKey: p.liveApiKey,
      otherApiKey: p.otherApiKey,
      webhookSecret: p.webhookSecret,
    },
  };
}
