/**
 * The receiver target: an integrator's webhook endpoint, tested by playing the platform
 * (`--receiver-url URL --receiver-scheme gateway|partner`, suites/receiver/).
 *
 * The CLI exports the flags to the workers as PAYGATE_TARGET_KIND=receiver,
 * PAYGATE_RECEIVER_TARGET_URL and PAYGATE_RECEIVER_SCHEME; the integrator sets
 * RECEIVER_SIGNATURE_SECRET (the endpoint's secret: gateway signatureSecret, partner endpoint secret)
 * and optionally RECEIVER_STATE_URL, a test-only read-back hook (README "Receiver conformance"):
 *
 *   GET RECEIVER_STATE_URL → 200 { "processed": [ { "eventId": "…", "endToEndId": "…" | null, "count": 1 } ] }
 *
 * `count` is how many times the endpoint applied that event's effect (0 when it recognised it as a
 * duplicate of an already processed one); an event never processed may be absent.
 */
import { HarnessError } from '../core/errors.js';

export type ReceiverScheme = 'gateway' | 'partner';
export const RECEIVER_SCHEMES: readonly ReceiverScheme[] = ['gateway', 'partner'];

export interface ReceiverTarget {
  url: string;
  scheme: ReceiverScheme;
  secret: string;
  /** the read-back hook; undefined: checks that need it are not run */
  stateUrl?: string;
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** True in a receiver run (the CLI got --receiver-url). */
export function isReceiverRun(env: Env = process.env): boolean {
  return value(env, 'PAYGATE_TARGET_KIND') === 'receiver';
}

function httpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HarnessError('config.receiver-url', `${name} is not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessError('config.receiver-url', `${name} must be an http(s) URL: ${JSON.stringify(text)}`);
  return url.href;
}

/** Problems that stop a receiver run before it starts (exit 2), from the flags and the environment. */
export function receiverConfigProblems(url: string, scheme: string, env: Env): string[] {
  const problems: string[] = [];
  try {
    httpUrl('--receiver-url', url);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  if (!(RECEIVER_SCHEMES as readonly string[]).includes(scheme)) problems.push(`--receiver-scheme must be gateway or partner, got "${scheme}"`);
  if (value(env, 'RECEIVER_SIGNATURE_SECRET') === undefined) problems.push('RECEIVER_SIGNATURE_SECRET is not set: the suite signs every event with the endpoint\'s secret');
  const state = value(env, 'RECEIVER_STATE_URL');
  if (state !== undefined) {
    try {
      httpUrl('RECEIVER_STATE_URL', state);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return problems;
}

/** The receiver target of this run, or undefined outside a receiver run. Throws HarnessError config.* when misconfigured. */
export function loadReceiverTarget(env: Env = process.env): ReceiverTarget | undefined {
  if (!isReceiverRun(env)) return undefined;
  const url = value(env, 'PAYGATE_RECEIVER_TARGET_URL');
  const scheme = value(env, 'PAYGATE_RECEIVER_SCHEME');
  const secret = value(env, 'RECEIVER_SIGNATURE_SECRET');
  if (url === undefined || scheme === undefined || secret === undefined) {
    throw new HarnessError('config.receiver', 'receiver run without PAYGATE_RECEIVER_TARGET_URL, PAYGATE_RECEIVER_SCHEME and RECEIVER_SIGNATURE_SECRET');
  }
  if (!(RECEIVER_SCHEMES as readonly string[]).includes(scheme)) throw new HarnessError('config.receiver', `unknown receiver scheme ${JSON.stringify(scheme)}`);
  const stateUrl = value(env, 'RECEIVER_STATE_URL');
  return { url: httpUrl('--receiver-url', url), scheme: scheme as ReceiverScheme, secret, ...(stateUrl !== undefined && { stateUrl: httpUrl('RECEIVER_STATE_URL', stateUrl) }) };
}

/**
 * Why a check is not run in this run, or undefined when it runs. Receiver checks run only in a
 * receiver run of their scheme; API checks never run in a receiver run.
 */
export function receiverNotRunReason(spec: { api: ReceiverScheme; target?: 'receiver' }, env: Env = process.env): string | undefined {
  const receiverRun = isReceiverRun(env);
  if (spec.target !== 'receiver') return receiverRun ? 'receiver run: the APIs are not tested' : undefined;
  if (!receiverRun) return 'no receiver target (run with --receiver-url URL --receiver-scheme gateway|partner)';
  const scheme = value(env, 'PAYGATE_RECEIVER_SCHEME');
  if (scheme !== spec.api) return `receiver scheme is ${scheme ?? '(unset)'}: ${spec.api} receiver checks are not run`;
  return undefined;
}
