/**
 * Webhook registration. Contract: "GET /api/v1/webhook", "POST /api/v1/webhook", "DELETE
 * /api/v1/webhook/{id}", "Webhook" resource. Webhooks belong to one account in one environment
 * ("webhooks are registered separately using the sandbox token"). Delivery: webhook-delivery.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { isVisibleTo } from './context.js';
import { invalidField, notFound } from './errors.js';
import { readJsonObject } from './request-body.js';
import { nowIso, type Webhook } from './store.js';
import { requireHttpUrl } from './validation.js';
import { HIDDEN_EVENTS, PUBLIC_EVENTS } from './webhook-delivery.js';

const SUBSCRIBABLE_EVENTS: ReadonlySet<string> = new Set<string>([...PUBLIC_EVENTS, ...HIDDEN_EVENTS]);

function webhookView(webhook: Webhook, withSecret: boolean, deps: GatewayDeps): Record<string, unknown> {
  // fault: a generic entity serializer (bigint as string, the stored events text, epoch millis, secret column ignored)
  if (deps.faults.has('gw-webhook-entity-serializer')) {
    return { id: String(webhook.id), url: webhook.url, events: webhook.events.join(','), isActive: webhook.isActive, createdAt: Date.parse(webhook.createdAt) };
  }
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    isActive: webhook.isActive,
    // "returned on creation"; lists leave it out (DECISIONS.md)
    ...(withSecret ? { signatureSecret: webhook.signatureSecret } : {}),
    createdAt: deps.time(webhook.createdAt),
  };
}

function validateEvents(value: unknown, emptyAllowed: boolean, faults: ReadonlySet<string>): string[] {
  // fault: a missing events list defaults to every event
  if (value === undefined && faults.has('gw-webhook-events-default-all')) return [...PUBLIC_EVENTS];
  if (value === undefined || value === null) throw invalidField('events', 'is required');
  if (!Array.isArray(value)) throw invalidField('events', 'must be an array of event names');
  // "events array of event names (required)": whether [] is a valid array of names is a choice
  if (value.length === 0 && !emptyAllowed) throw invalidField('events', 'must name at least one event');
  const events: string[] = [];
  value.forEach((event: unknown, index) => {
    if (typeof event !== 'string') throw invalidField(`events[${index}]`, 'must be a string');
    if (!SUBSCRIBABLE_EVENTS.has(event)) throw invalidField(`events[${index}]`, `unknown event "${event}"`);
    // fault: the names were taken from the charge and transfer emitters; infraction comes from the MED module
    if (event === 'infraction' && faults.has('gw-webhook-infraction-event-refused')) throw invalidField(`events[${index}]`, `unknown event "${event}"`);
    if (!events.includes(event)) events.push(event);
  });
  return events;
}

async function listWebhooks(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const p = deps.personality;
  const visible = [...deps.store.webhooks.values()].filter((webhook) => !webhook.deleted && isVisibleTo(webhook, call.principal, deps.faults));
  if (p.gwWebhookListOrder === 'newest-first') visible.reverse();
  const data = visible.map((webhook) => webhookView(webhook, false, deps));
  // fault: `res.send(String(rows))`
  if (deps.faults.has('gw-webhook-list-not-json')) return { status: 200, body: undefined, rawText: { contentType: 'text/html; charset=utf-8', text: String(data) } };
  // "Lists webhooks. Response body: not shown."
  return { status: 200, body: p.gwWebhookListEnvelope ? { success: true, data } : data };
}

async function createWebhook(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const p = deps.personality;
  const body = await readJsonObject(call.req, deps.faults, p.gwNullOptionalFields === 'absent');
  const url = requireHttpUrl(body.url, 'url');
  const events = validateEvents(body.events, p.gwWebhookEmptyEvents, deps.faults);
  const webhook: Webhook = {
    id: deps.store.allocateWebhookId(),
    accountId: call.principal.accountId,
    environment: call.principal.environment,
    url,
    events,
    isActive: true,
    signatureSecret: p.gwWebhookSecretFormat === 'base64' ? randomBytes(33).toString('base64') : `whsec_${randomBytes(24).toString('hex')}`,
    createdAt: nowIso(),
    deleted: false,
  };
  deps.store.webhooks.set(webhook.id, webhook);
  return { status: 200, body: { success: true, message: 'Webhook created', data: webhookView(webhook, true, deps) } };
}

async function deleteWebhook(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const idText = call.params.id ?? '';
  const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : Number.NaN;
  const webhook = deps.store.webhooks.get(id);
  if (!webhook || webhook.deleted || !isVisibleTo(webhook, call.principal, deps.faults)) throw notFound('webhook', deps.faults);
  webhook.deleted = true;
  webhook.isActive = false;
  // "Removes a webhook. Response body: not shown."
  if (deps.personality.gwWebhookDeleteStatus === 204) return { status: 204, body: undefined };
  return { status: 200, body: { success: true, message: 'Webhook removed' } };
}

export function webhookRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [
    { method: 'GET', pattern: '/api/v1/webhook', handle: (call) => listWebhooks(deps, call) },
    { method: 'POST', pattern: '/api/v1/webhook', handle: (call) => createWebhook(deps, call) },
    { method: 'DELETE', pattern: '/api/v1/webhook/:id', handle: (call) => deleteWebhook(deps, call) },
  ];
}
