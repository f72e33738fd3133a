/**
 * Webhook commands. Contract (gateway-api.md): "POST /api/v1/webhook — Body: url string (required),
 * events array (required) … 200: success, data (Webhook, with signatureSecret)"; "DELETE
 * /api/v1/webhook/{id} Removes a webhook. Response body: not shown"; "404 resource not found".
 * Deleting a webhook that is already gone may answer 404 or an idempotent 2xx: both pass.
 */
import { randomUUID } from 'node:crypto';
import { answerWebhookCreation, removeWebhookOnDelete } from '../../../harness/rules/gateway/webhooks.js';
import { ModelCommand, abandonOn429, judgeFails } from '../../../harness/run/model.js';
import { dataOf } from '../../../harness/core/json.js';
import { OnWebhook } from './model.js';
import type { GatewayModel, GatewayReal, ModelWebhook } from './model.js';

export class CreateWebhook extends ModelCommand<GatewayModel, GatewayReal> {
  constructor(readonly events: string[]) {
    super();
  }

  check(m: Readonly<GatewayModel>): boolean {
    return m.webhooks.length < 3;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const url = r.callbackUrl(`/gw/model-${randomUUID()}`);
    r.log.describe(`register webhook for ${this.events.join(', ')}`);
    const res = await r.gw.createWebhook({ url, events: this.events });
    if (judgeFails(r.it.run, answerWebhookCreation, { answer: res, sent: { url, events: this.events } })) return;
    abandonOn429(r, res);
    const id = dataOf(res.json)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') return;
    m.webhooks.push({ ref: `w${m.webhooks.length + 1}`, id: String(id), deleted: false });
    r.log.outcome(`id ${String(id)}`);
  }

  toString(): string {
    return `createWebhook(${this.events.join(',')})`;
  }
}

export class DeleteWebhook extends OnWebhook {
  protected candidates(m: Readonly<GatewayModel>): readonly ModelWebhook[] {
    return m.webhooks;
  }

  protected async act(m: GatewayModel, r: GatewayReal): Promise<void> {
    const w = this.target(m);
    r.log.describe(`delete webhook ${w.ref} (model: ${w.deleted ? 'deleted' : 'active'})`);
    const res = await r.gw.deleteWebhook(w.id);
    r.log.outcome(`HTTP ${res.status}`);
    // a webhook already removed may answer 404 or an idempotent 2xx: only the first removal is judged
    if (!w.deleted && judgeFails(r.it.run, removeWebhookOnDelete, { kind: 'delete', answer: res })) return;
    abandonOn429(r, res);
    w.deleted = true;
  }

  toString(): string {
    return `deleteWebhook(#${this.index})`;
  }
}
