/**
 * The reference gateway: every route of gateway-api.md over node:http, state in memory.
 * `createGatewayApp` wires the route modules, authentication and error rendering; server.ts mounts
 * the handler on a port. Choices where the contract is silent: DECISIONS.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, matchRoute, responseStyle, sendEmpty, sendJson, type Handler, type Route } from '../shared/http.js';
import { KeyedMutex } from '../shared/mutex.js';
import { formatTimestamp } from '../shared/time.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';
import { ACCOUNT_A, ACCOUNT_B, Authenticator } from './auth.js';
import { balanceRoutes } from './balance.js';
import { cardRoutes } from './card.js';
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { ApiError, failure, renderError } from './errors.js';
import { pixInRoutes } from './pix-in.js';
import { pixOutRoutes } from './pix-out.js';
import { GatewayStore } from './store.js';
import { transactionRoutes } from './transactions.js';
import { DEFAULT_DELIVERY_OPTIONS, WebhookDispatcher, type DeliveryAttempt, type DeliveryOptions } from './webhook-delivery.js';
import { webhookRoutes } from './webhooks.js';

export interface GatewayOptions {
  /** fault names switched on (reference/gateway/faults.ts); others' names are ignored */
  faults: ReadonlySet<string>;
  /** token lifetime, returned as `expiresIn` */
  tokenTtlMs: number;
  /** webhook delivery timing; defaults from the personality */
  delivery?: Partial<DeliveryOptions>;
  /** the free choices taken (reference/personality.ts); default personality when absent */
  personality?: Personality;
}

export interface GatewayCredentials {
  /** account A, sandbox */
  clientId: string;
  clientSecret: string;
  /** account A, production */
  liveClientId: string;
  liveClientSecret: string;
  /** account B, sandbox */
  otherClientId: string;
  otherClientSecret: string;
  /** a third company on the platform, valid as a split recipient for A and B */
  splitEmail: string;
}

export interface GatewayApp {
  handler: Handler;
  credentials: GatewayCredentials;
  /** what the webhook dispatcher attempted so far (for the reference's own tests) */
  deliveries: readonly DeliveryAttempt[];
  close(): Promise<void>;
}

const SPLIT_COMPANY = 'acc_parceiro_split';
const COMPANY_EMAILS: ReadonlyMap<string, string> = new Map([
  ['financeiro@loja-a.example', ACCOUNT_A],
  ['financeiro@loja-b.example', ACCOUNT_B],
  ['repasse@parceiro-split.example', SPLIT_COMPANY],
]);
const SPLIT_EMAIL = 'repasse@parceiro-split.example';

/** Which personality choice gives a route's status for a broken field rule (400 or 422). */
function invalidStatusOf(method: string, pattern: string, p: Personality): 400 | 422 {
  if (method !== 'POST') return 400;
  if (pattern === '/api/v1/pix/in/qrcode') return p.gwPixChargeInvalidStatus;
  if (pattern === '/api/v1/pix/out/pixkey') return p.gwTransferInvalidStatus;
  if (pattern === '/api/v1/card') return p.gwCardInvalidStatus;
  if (pattern === '/api/v1/webhook') return p.gwWebhookInvalidStatus;
  return 400;
}

export function createGatewayApp(options: GatewayOptions): GatewayApp {
  const faults = options.faults;
  const p = options.personality ?? DEFAULT_PERSONALITY;
  const style = responseStyle(p);
  const timestampStyle = { precision: p.gwTimestampPrecision, offset: p.gwTimestampOffset } as const;
  const store = new GatewayStore(p.gwWebhookFirstId);
  const webhooks = new WebhookDispatcher(store, faults, {
    ...DEFAULT_DELIVERY_OPTIONS,
    timeoutMs: p.gwDeliveryTimeoutMs,
    retryDelaysMs: p.gwRetryDelaysMs,
    ...options.delivery,
  }, p);
  const deps: GatewayDeps = {
    store, faults, locks: new KeyedMutex(), webhooks, companies: COMPANY_EMAILS, personality: p,
    // fault gw-timestamps-utc-labelled-brasilia: the UTC wall clock with the Brasília offset appended
    time: (iso) => (faults.has('gw-timestamps-utc-labelled-brasilia') ? formatTimestamp(iso, { ...timestampStyle, offset: 'Z' }).replace(/Z$/, '-03:00') : formatTimestamp(iso, timestampStyle)),
  };
  const authenticator = new Authenticator(options.tokenTtlMs, faults, p);

  const sandboxA = authenticator.issuePair(ACCOUNT_A, 'sandbox');
  const productionA = authenticator.issuePair(ACCOUNT_A, 'production');
  const sandboxB = authenticator.issuePair(ACCOUNT_B, 'sandbox');

  const gatewayRoutes: GatewayRoute[] = [
    ...pixInRoutes(deps),
    ...pixOutRoutes(deps),
    ...cardRoutes(deps),
    ...balanceRoutes(deps),
    ...transactionRoutes(deps),
    ...webhookRoutes(deps),
  ];
  // handlers return their answer; mounting writes it
  function write(res: ServerResponse, answer: Answer): void {
    if (answer.rawText !== undefined) {
      res.writeHead(answer.status, { 'content-type': answer.rawText.contentType, 'content-length': String(Buffer.byteLength(answer.rawText.text)) });
      res.end(answer.rawText.text);
    } else if (answer.body === undefined) sendEmpty(res, answer.status, answer.headers, style);
    else sendJson(res, answer.status, answer.body, answer.headers, style);
  }

  // handlers return their answer; mounting writes it (errors rendered with the route's 400/422 choice)
  const routes: Route<GatewayCall>[] = gatewayRoutes.map((gatewayRoute) => ({
    method: gatewayRoute.method,
    pattern: gatewayRoute.pattern,
    handle: async (call: GatewayCall) => {
      try {
        write(call.res, await gatewayRoute.handle(call));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // fault: the validator library's default answer for a broken field rule
        if (error.meta.field !== undefined && faults.has('gw-validation-errors-array')) {
          write(call.res, { status: 422, body: { errors: [{ type: 'field', msg: 'Invalid value', path: error.meta.field, location: 'body' }] } });
          return;
        }
        write(call.res, renderError(error, p, invalidStatusOf(gatewayRoute.method, gatewayRoute.pattern, p)));
      }
    },
  }));

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname === '/api/auth') {
      if (method !== 'POST') throw failure(405, 'use POST /api/auth', { allow: 'POST' });
      write(res, { status: 200, body: await authenticator.exchange(req) });
      return;
    }
    const found = matchRoute(routes, method, url.pathname);
    // "All routes except POST /api/auth require Authorization: Bearer <ACCESS_TOKEN>": whether an
    // undocumented path is a "route" that needs the token first is the personality's choice
    if (!found.route && !p.gwUnknownRouteBeforeAuth) authenticator.authenticate(req.headers.authorization);
    if (!found.route) {
      // RFC 9110 §15.5.6: a 405 carries Allow
      if (found.methodMismatch) throw failure(405, `${method} is not allowed on ${url.pathname}`, { allow: found.allowed.join(', ') });
      throw new ApiError(404, { error: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` });
    }
    const principal = authenticator.authenticate(req.headers.authorization);
    const call: GatewayCall = { req, res, url, principal, params: found.match.params };
    await found.route.handle(call, found.match);
  }

  const handler: Handler = async (req, res) => {
    try {
      await route(req, res);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ApiError) {
        write(res, renderError(error, p));
      } else if (error instanceof BodyTooLargeError) {
        write(res, renderError(failure(413, 'body too large'), p));
      } else {
        // a genuine bug of the reference: say so loudly, answer 500
        console.error('reference gateway: unhandled error', error);
        sendJson(res, 500, { success: false, message: 'Internal server error' }, {}, style);
      }
    }
  };

  return {
    handler,
    credentials: {
      clientId: sandboxA.clientId,
      clientSecret: sandboxA.clientSecret,
      liveClientId: productionA.clientId,
      liveClientSecret: productionA.clientSecret,
      otherClientId: sandboxB.clientId,
      otherClientSecret: sandboxB.clientSecret,
      splitEmail: SPLIT_EMAIL,
    },
    deliveries: webhooks.attempts,
    close: () => webhooks.close(),
  };
}
