/**
 * The partner PIX cash-in API (partner-cashin-api.md) as one node:http handler for paths under
 * `/v1`. Authentication, routing and rendering live here; the rules live in charges.ts,
 * finance.ts and webhooks.ts. reference/server.ts mounts `handler`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, matchRoute, readRawBody, responseStyle, sendEmpty, sendJson } from '../shared/http.js';
import { DEFAULT_PERSONALITY, type Personality } from '../personality.js';
import type { Handler, Route, RouteMatch } from '../shared/http.js';
import { ChargeService, ledgerScope } from './charges.js';
import type { PartnerFaultSwitch } from './faults.js';
import { buildStatement } from './finance.js';
import { detailText, fail, ok } from './results.js';
import type { ApiResult } from './results.js';
import { PartnerStore } from './store.js';
import type { Principal } from './store.js';
import { WebhookDispatcher } from './webhooks.js';
import { randomUUID } from 'node:crypto';

export interface PartnerOptions {
  faults: ReadonlySet<string>;
  /** the URL "registered with the integration team" (Events); unset: nothing is delivered */
  webhookUrl?: string;
  webhookSecret: string;
  retryBaseMs: number;
  retryCapMs: number;
  deliveryTimeoutMs: number;
  expiryScale: number;
  /** REFERENCE_CHAOS: webhook first attempts start 0–1 s late */
  chaos?: boolean;
  /** the free choices taken (reference/personality.ts); default personality when absent */
  personality?: Personality;
}

/** The keys of the three partner accounts/environments and the registered webhook's secret. */
export interface PartnerCredentials {
  apiKey: string;
  liveApiKey: string;
  otherApiKey: string;
  webhookSecret: string;
}

export interface PartnerApp {
  handler: Handler;
  credentials: PartnerCredentials;
  close(): Promise<void>;
}

interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  principal: Principal;
}

type Operation = (ctx: RequestContext, match: RouteMatch) => Promise<ApiResult>;

/** "Authorization: Bearer <API_KEY>" (Authentication, rule 1). */
function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function createPartnerApp(options: PartnerOptions): PartnerApp {
  const faults: PartnerFaultSwitch = options.faults;
  const p = options.personality ?? DEFAULT_PERSONALITY;
  const style = responseStyle(p);
  const store = new PartnerStore();
  const keys = store.issueKeys();
  const dispatcher = new WebhookDispatcher({
    url: options.webhookUrl,
    secret: options.webhookSecret,
    retryBaseMs: options.retryBaseMs,
    retryCapMs: options.retryCapMs,
    deliveryTimeoutMs: options.deliveryTimeoutMs,
    faults,
    personality: p,
    ...(options.chaos !== undefined && { chaos: options.chaos }),
  });
  const charges = new ChargeService({ store, faults, dispatcher, expiryScale: options.expiryScale, personality: p });

  /** fault pt-auth-session-cookie: session id → the principal that opened it */
  const sessions = new Map<string, Principal>();
  const SESSION_COOKIE = 'pt_session';

  function sessionOf(req: IncomingMessage): Principal | undefined {
    const sid = /(?:^|;\s*)pt_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    return sid === undefined ? undefined : sessions.get(sid);
  }

  function authenticate(req: IncomingMessage): Principal | undefined {
    const key = bearerKey(req.headers.authorization);
    if (key === undefined) {
      if (faults.has('pt-auth-session-cookie')) return sessionOf(req);
      return faults.has('pt-auth-missing-key-accepted') ? { accountId: store.primaryAccountId, environment: 'test' } : undefined;
    }
    const principal = store.principalForKey(key);
    if (!principal && key.startsWith('ak_test_') && faults.has('pt-auth-unknown-key-accepted')) {
      return { accountId: store.primaryAccountId, environment: 'test' };
    }
    // fault pt-env-from-account-default: the environment comes from the account's default (sandbox), not the key prefix
    if (principal && faults.has('pt-env-from-account-default')) return { ...principal, environment: 'test' };
    return principal;
  }

  /** A route whose operation's result is rendered by `send`. */
  function route(method: string, pattern: string, operation: Operation): Route<RequestContext> {
    return { method, pattern, handle: async (ctx, match) => send(ctx.res, await operation(ctx, match)) };
  }

  const routes: Route<RequestContext>[] = [
    route('POST', '/v1/business/pix-charges', async ({ req, principal }) => {
      const rawBody = await readRawBody(req);
      // An empty header carries no key (DECISIONS.md).
      const idempotencyKey = singleHeader(req.headers['idempotency-key'])?.trim() || undefined;
      const result = await charges.create(principal, rawBody, idempotencyKey);
      // fault pt-create-answers-201: the framework's default status for a POST
      return faults.has('pt-create-answers-201') && result.kind === 'ok' && result.status === 200 ? { ...result, status: 201 } : result;
    }),
    route('GET', '/v1/business/pix-charges', ({ url, principal }) => charges.list(principal, url.searchParams.get('status'), url.searchParams.get('limit'))),
    route('GET', '/v1/business/pix-charges/:id', ({ principal }, { params }) => charges.get(principal, params.id ?? '')),
    route('POST', '/v1/business/pix-charges/:id/cancel', ({ principal }, { params }) => charges.cancel(principal, params.id ?? '')),
    route('POST', '/v1/business/pix-charges/:id/pay', ({ principal, url }, { params }) =>
      // fault pt-simulation-route-unmounted: the simulation route exists only in development builds
      faults.has('pt-simulation-route-unmounted') ? Promise.resolve(fail(404, `no route ${url.pathname}`)) : charges.pay(principal, params.id ?? '')),
    route('GET', '/v1/business/finance', async ({ principal }) => {
      const statement = buildStatement(store, principal.accountId, ledgerScope(principal.accountId, principal.environment, faults), faults, p);
      // fault pt-finance-enveloped: the framework's response envelope around the statement
      return ok(faults.has('pt-finance-enveloped') ? { data: statement } : statement);
    }),
    // fault pt-payouts-route-live: the in-development PIX out route left mounted ("has no public route")
    ...(faults.has('pt-payouts-route-live')
      ? [route('POST', '/v1/business/payouts', async ({ req }) => {
          await readRawBody(req);
          return ok({ id: `po_${randomUUID().replace(/-/g, '')}`, status: 'processing' });
        })]
      : []),
  ];

  /** Errors are `{detail}` ("Errors"); two faults deform the 422 answer. */
  function send(res: ServerResponse, result: ApiResult, extraHeaders: Record<string, string> = {}): void {
    if (result.kind === 'ok') {
      if (result.body === undefined) sendEmpty(res, result.status, result.headers, style);
      else sendJson(res, result.status, result.body, result.headers, style);
      return;
    }
    // fault pt-validation-detail-generic: one message for every invalid body
    const detail = result.status === 422 && faults.has('pt-validation-detail-generic') ? 'invalid request body' : detailText(result, p);
    if (result.status === 401 && faults.has('pt-auth-401-plain-text')) {
      // fault pt-auth-401-plain-text: the middleware's default answer (res.sendStatus(401))
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': p.ptWwwAuthenticate });
      res.end('Unauthorized');
      return;
    }
    if (result.status === 422) {
      const status = faults.has('pt-validation-status-400') ? 400 : 422;
      sendJson(res, status, faults.has('pt-error-detail-missing') ? { error: detail } : { detail }, {}, style);
      return;
    }
    const headers: Record<string, string> = result.status === 401 ? { 'www-authenticate': p.ptWwwAuthenticate, ...extraHeaders } : extraHeaders;
    sendJson(res, result.status, { detail }, headers, style);
  }

  const handler: Handler = async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://partner.invalid');
      // fault pt-routes-unversioned: the routes live at the root; the base address handed out has no /v1
      if (faults.has('pt-routes-unversioned')) url.pathname = `/v1${url.pathname}`;
      const found = matchRoute(routes, req.method ?? 'GET', url.pathname);
      // "All routes need Authorization: Bearer <API_KEY>": authentication comes before routing, or
      // (personality) an undocumented path is no route and answers 404 first
      const principal = authenticate(req);
      if (!principal && (found.route || !p.ptUnknownRouteBeforeAuth)) {
        send(res, { kind: 'error', status: 401, detail: 'API key missing, invalid or revoked' });
        return;
      }
      // fault pt-live-key-other-version: production keys reach a deployment that serves /v2 only
      if (principal?.environment === 'live' && faults.has('pt-live-key-other-version')) {
        send(res, { kind: 'error', status: 404, detail: `no route ${url.pathname}` });
        return;
      }
      if (principal && faults.has('pt-auth-session-cookie') && req.headers.authorization !== undefined) {
        // fault pt-auth-session-cookie: every authenticated answer opens a session
        const sid = randomBytes(16).toString('hex');
        sessions.set(sid, principal);
        res.setHeader('set-cookie', `${SESSION_COOKIE}=${sid}; Path=/; HttpOnly`);
      }
      if (!found.route || !principal) {
        if (!found.route && found.methodMismatch) {
          // RFC 9110 §15.5.6: a 405 carries Allow
          send(res, { kind: 'error', status: 405, detail: `method ${req.method ?? ''} not allowed on ${url.pathname}` }, { allow: found.allowed.join(', ') });
        } else {
          send(res, { kind: 'error', status: 404, detail: `no route ${url.pathname}` });
        }
        return;
      }
      await found.route.handle({ req, res, url, principal }, found.match);
    } catch (error) {
      if (res.headersSent) return;
      if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { detail: 'request body too large' }, {}, style);
        return;
      }
      sendJson(res, 500, { detail: 'internal error' }, {}, style);
    }
  };

  return {
    handler,
    credentials: { ...keys, webhookSecret: options.webhookSecret },
    close: () => dispatcher.close(),
  };
}
