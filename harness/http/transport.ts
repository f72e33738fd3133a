/**
 * The network between the suite and the target: proxies and transport errors.
 *
 * Proxies: `--proxy URL` (exported to the workers as PAYGATE_PROXY) or the usual HTTPS_PROXY /
 * HTTP_PROXY / NO_PROXY variables (upper or lower case), as curl reads them. Every outgoing
 * request to the target goes through undici's EnvHttpProxyAgent when one applies; loopback
 * addresses (our own receiver, a local target) always go direct: a proxy cannot reach our loopback.
 *
 * Transport errors (no HTTP answer: DNS, TLS, connection refused/reset, our timeout, a proxy that
 * refuses the tunnel) say nothing about the target's conformance: {@link describeTransportError}
 * names the cause and what the user can do about it.
 */
import { EnvHttpProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { HarnessError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import { proxyFor, proxySettings } from './network.js';
import type { ProxySettings } from './network.js';

export * from './network.js';

let sharedAgent: { key: string; agent: EnvHttpProxyAgent } | undefined;

/**
 * The dispatcher for requests to `origin` when a proxy applies (one agent per process, keep-alive
 * to the proxy), or undefined: the caller then uses its own direct pool.
 */
export function proxyDispatcher(origin: string, settings: ProxySettings = proxySettings(), connections = 8): Dispatcher | undefined {
  if (proxyFor(new URL(origin), settings) === undefined) return undefined;
  const key = JSON.stringify(settings);
  if (sharedAgent?.key !== key) {
    sharedAgent = {
      key,
      // NO_PROXY was applied above (with loopback); the agent gets it too for redirects to other hosts
      agent: new EnvHttpProxyAgent({ ...settings, connections }),
    };
  }
  return sharedAgent.agent;
}

export type TransportErrorKind = 'dns' | 'tls' | 'refused' | 'reset' | 'timeout' | 'proxy' | 'other';

export interface TransportProblem {
  kind: TransportErrorKind;
  /** the error text as recorded */
  detail: string;
  /** what the user can do, one sentence */
  hint: string;
}

const TLS_CODES = /\b(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_[A-Z_]+|EPROTO)\b/;
const UNTRUSTED = /\b(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED)\b/;

/**
 * Classifies a transport error text (`CODE: message`, as harness/http/client.ts records it) for
 * `host`, with an actionable hint.
 */
export function describeTransportError(detail: string, host: string): TransportProblem {
  const proxied = proxySettings().httpsProxy !== undefined || proxySettings().httpProxy !== undefined;
  if (UNTRUSTED.test(detail)) {
    return { kind: 'tls', detail, hint: `certificate of ${host} not trusted: if it is issued by a private CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem` };
  }
  if (/ERR_TLS_CERT_ALTNAME_INVALID/.test(detail)) {
    return { kind: 'tls', detail, hint: `the certificate of ${host} does not name that host: check the base URL's host name` };
  }
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(detail)) {
    return { kind: 'tls', detail, hint: `the certificate of ${host} is expired or not yet valid (or this machine's clock is wrong)` };
  }
  if (TLS_CODES.test(detail) || /\bTLS\b|\bSSL\b|wrong version number/i.test(detail)) {
    return { kind: 'tls', detail, hint: `TLS handshake with ${host} failed: check that the base URL's scheme (http/https) and port are right` };
  }
  if (/\b(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\b/.test(detail)) {
    return {
      kind: 'dns',
      detail,
      hint: proxied
        ? `DNS failed for host ${host}: check the host name, or add the proxy's reach (HTTPS_PROXY/--proxy) for it (NO_PROXY?)`
        : `DNS failed for host ${host}: check the host name; behind a proxy? set HTTPS_PROXY (or --proxy URL)`,
    };
  }
  if (/Proxy|tunnel/i.test(detail) || /\bUND_ERR_ABORTED\b.*proxy/i.test(detail)) {
    return { kind: 'proxy', detail, hint: `the proxy refused or failed the connection to ${host}: check HTTPS_PROXY/--proxy and NO_PROXY` };
  }
  if (/\bECONNREFUSED\b/.test(detail)) {
    return { kind: 'refused', detail, hint: `connection to ${host} refused: is the target running at that address and port?` };
  }
  if (/timeout/i.test(detail) || /\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)\b/.test(detail)) {
    return { kind: 'timeout', detail, hint: `${host} did not answer in time: is it reachable from here (firewall, proxy)?` };
  }
  if (/\b(ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed|EHOSTUNREACH|ENETUNREACH)\b/i.test(detail)) {
    return { kind: 'reset', detail, hint: `the connection to ${host} was cut: the target went away or something in between dropped it` };
  }
  return { kind: 'other', detail, hint: `no HTTP answer from ${host}` };
}

/**
 * A check could not be judged for a reason on the certifier's side or between the suite and the
 * target (no HTTP answer, a token that could not be had, the check's own time limit): reported
 * "inconclusive" with the cause, never a requirement failure nor a harness error.
 * harness/run/check.ts handles it like NotRunError.
 */
export class InconclusiveError extends HarnessError {
  constructor(message: string) {
    super('inconclusive', message);
  }
}

/** The host (and port) of a recorded URL, for messages. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The cause line of an exchange that got no response: what failed, where, and what to do. */
export function unreachableCause(exchange: Pick<Exchange, 'request' | 'error' | 'operation'>): string {
  const problem = describeTransportError(exchange.error ?? 'no response', hostOf(exchange.request.url));
  return `${exchange.operation ?? `${exchange.request.method} ${exchange.request.url}`} got no response (${problem.detail}): ${problem.hint}`;
}

/** Thrown by the status rule (harness/rules/status.ts) when a request got no HTTP answer at all. */
export class TargetUnreachableError extends InconclusiveError {
  constructor(readonly exchange: Exchange) {
    super(unreachableCause(exchange));
  }
}

