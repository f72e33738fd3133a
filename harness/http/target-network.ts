/**
 * What a real sandbox may need on every request to it, beyond the credentials: a time limit of its
 * own (`--request-timeout`), headers (`--header`: a WAF token, a tenant, a trace id) and a client
 * certificate (`--client-cert`/`--client-key` or `--client-pfx`, mTLS). The CLI hands them to the
 * workers as PAYGATE_* variables; the API clients (harness/run/session.ts), the preflight and the
 * bursts read them here. They go to the target only: never to the suite's own receiver.
 */
import { readFileSync } from 'node:fs';
import { HarnessError } from '../core/errors.js';

export interface ClientTls {
  cert?: Buffer;
  key?: Buffer;
  pfx?: Buffer;
  passphrase?: string;
}

export interface TargetNetwork {
  /** per-request time limit (ms); undefined: the client's default (15 s) */
  timeoutMs?: number;
  /** extra headers, in the order given */
  headers: readonly (readonly [string, string])[];
  /** mTLS client certificate, for https targets */
  tls?: ClientTls;
}

/** The redaction kind (and shell variable of curl lines) of an extra header's value: PAYGATE_HEADER_X_TENANT. */
export function headerKind(name: string): string {
  return `PAYGATE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

function read(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new HarnessError('config.client-certificate', `cannot read the ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let cached: { key: string; network: TargetNetwork } | undefined;

/** The target's network settings from the environment the CLI exported (read once per process). */
export function targetNetwork(env: NodeJS.ProcessEnv = process.env): TargetNetwork {
  const names = ['PAYGATE_REQUEST_TIMEOUT_MS', 'PAYGATE_TARGET_HEADERS', 'PAYGATE_CLIENT_CERT', 'PAYGATE_CLIENT_KEY', 'PAYGATE_CLIENT_PFX', 'PAYGATE_CLIENT_KEY_PASSPHRASE'] as const;
  const key = names.map((n) => env[n] ?? '').join('\u0000');
  if (cached?.key === key) return cached.network;
  const timeout = Number(env['PAYGATE_REQUEST_TIMEOUT_MS']);
  const headersText = env['PAYGATE_TARGET_HEADERS'];
  let headers: [string, string][] = [];
  if (headersText !== undefined && headersText !== '') {
    const parsed: unknown = JSON.parse(headersText);
    if (!Array.isArray(parsed) || !parsed.every((h) => Array.isArray(h) && h.length === 2 && h.every((x) => typeof x === 'string'))) {
      throw new HarnessError('config.headers', 'PAYGATE_TARGET_HEADERS must be a JSON array of [name, value] pairs');
    }
    headers = parsed as [string, string][];
  }
  const tls: ClientTls = {};
  const cert = env['PAYGATE_CLIENT_CERT'];
  const keyFile = env['PAYGATE_CLIENT_KEY'];
  const pfx = env['PAYGATE_CLIENT_PFX'];
  if (cert) tls.cert = read(cert, 'client certificate');
  if (keyFile) tls.key = read(keyFile, 'client key');
  if (pfx) tls.pfx = read(pfx, 'client PKCS#12 file');
  const passphrase = env['PAYGATE_CLIENT_KEY_PASSPHRASE'];
  if (passphrase) tls.passphrase = passphrase;
  const network: TargetNetwork = {
    ...(Number.isFinite(timeout) && timeout > 0 && { timeoutMs: timeout }),
    headers,
    ...((tls.cert !== undefined || tls.pfx !== undefined) && { tls }),
  };
  cached = { key, network };
  return network;
}
