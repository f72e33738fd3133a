/**
 * The reference gateway: every route of gateway-api.md over node:http, state in memory.
 * `createGatewayApp` wires the route modules, authentication and error rendering; server.ts mounts
 * the handler on a port. Choices where the contract is silent: DECISIONS.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, matchRoute, sendJson, type Handler, type Route } from '../shared/http.js';
import { KeyedMutex } from '../shared/mutex.js';
import { ACCOUNT_A, ACCOUNT_B, Authenticator } from './auth.js';
import { balanceRoutes } from './balance.js';
import { cardRoutes } from './card.js';
import type { GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { ApiError, failure } from './errors.js';
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
  /** webhook delivery timing; defaults in webhook-delivery.ts */
  delivery?: Partial<DeliveryOptions>;
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

export function createGatewayApp(options: GatewayOptions): GatewayApp {
  const faults = options.faults;
  const store = new GatewayStore();
  const webhooks = new WebhookDispatcher(store, faults, { ...DEFAULT_DELIVERY_OPTIONS, ...options.delivery });
  const deps: GatewayDeps = { store, faults, locks: new KeyedMutex(), webhooks, companies: COMPANY_EMAILS };
  const authenticator = new Authenticator(options.tokenTtlMs, faults);

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
  const routes: Route<GatewayCall>[] = gatewayRoutes.map((gatewayRoute) => ({
    method: gatewayRoute.method,
    pattern: gatewayRoute.pattern,
    handle: async (call: GatewayCall) => {
      const answer = await gatewayRoute.handle(call);
      sendJson(call.res, answer.status, answer.body);
    },
  }));

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname === '/api/auth') {
      if (method !== 'POST') throw failure(405, 'use POST /api/auth', { allow: 'POST' });
      sendJson(res, 200, await authenticator.exchange(req));
      return;
    }
    const found = matchRoute(routes, method, url.pathname);
    if (!found.route) {
      if (found.methodMismatch) throw failure(405, `${method} is not allowed on ${url.pathname}`);
      throw new ApiError(404, { error: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` });
    }
    // "All routes except POST /api/auth require Authorization: Bearer <ACCESS_TOKEN>"
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
        sendJson(res, error.status, error.body, error.headers);
      } else if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { success: false, message: 'body too large' });
      } else {
        // a genuine bug of the reference: say so loudly, answer 500
        console.error('reference gateway: unhandled error', error);
        sendJson(res, 500, { success: false, message: 'Internal server error' });
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
