/**
 * Webhook commands. Contract (gateway-api.md): "POST /api/v1/webhook — Body: url string (required),
 * events array (required) … 200: success, data (Webhook, with signatureSecret)"; "DELETE
 * /api/v1/webhook/{id} Removes a webhook. Response body: not shown"; "404 resource not found".
 * Deleting a webhook that is already gone may answer 404 or an idempotent 2xx: both pass.
 */
import { randomUUID } from 'node:crypto';
import { expectStatus } from '../../../harness/rules/index.js';
import { verifyWebhookId } from '../../../harness/rules/gateway/webhooks.js';
import { ModelCommand, abandonOn429, recordAll } from '../../../harness/run/model.js';
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
    if (recordAll(r.it.run, expectStatus(res.exchange, '2xx', { requirements: ['GW-WH-CREATE-200'] }))) return;
    abandonOn429(r, res);
    const data = dataOf(res.json);
    const id = data?.id;
    if (recordAll(r.it.run, verifyWebhookId(id, { exchanges: [res.exchange] }))) return;
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
    if (recordAll(r.it.run, expectStatus(res.exchange, w.deleted ? ['2xx', 404] : '2xx', { requirements: ['GW-WH-DELETE'] }))) return;
    abandonOn429(r, res);
    w.deleted = true;
  }

  toString(): string {
    return `deleteWebhook(#${this.index})`;
  }
}
