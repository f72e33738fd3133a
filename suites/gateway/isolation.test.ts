/**
 * Environment and account isolation: gateway-api.md "What the service does" ("Two environments
 * share the same host. The environment is chosen by the credential pair used at `POST /api/auth`.
 * Sandbox data is isolated … webhooks are registered separately using the sandbox token"),
 * "Authentication" 4 ("Simulation routes (`/pay`, `/complete`) work only with sandbox credentials;
 * with production credentials they answer 403."), "Errors" ("404 | resource not found or belongs to
 * another account").
 *
 * Safety: nothing money-moving is ever sent with production credentials (the HTTP layer refuses
 * POST /api/v1/pix/out/pixkey and POST /api/v1/card for the live pair anyway). Resources are created
 * with the sandbox pair; the production pair only reads, lists, and calls the simulation routes,
 * which the contract says it cannot use.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { ensureErrorShapeNotFound, expectStatus, makeFinding, show } from '../../harness/rules/index.js';
import { createCharge, dataOf, is2xx, isRecord, registerWebhook, removeWebhooks, transferBody } from './webhook-steps.js';

const AREA = 'Isolation';

interface SandboxResources {
  chargeId: string;
  transferId: string;
}

/** A pending charge and a banking_processing transfer of the sandbox account (no balance needed). */
async function sandboxResources(t: CheckTools): Promise<SandboxResources | undefined> {
  const gw = t.gateway();
  const charge = await createCharge(gw, t.run, 1_050);
  const transfer = await gw.createTransfer(transferBody(105));
  t.run.record(expectStatus(transfer.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
  const transferId = dataOf(transfer)?.id;
  if (!charge || typeof transferId !== 'string') return undefined;
  return { chargeId: charge.id, transferId };
}

/** The sandbox owner still sees the resources unchanged: nothing done with other credentials took effect. */
async function expectUnchanged(t: CheckTools, resources: SandboxResources, requirements: string[], by: string): Promise<void> {
  const gw = t.gateway();
  const charge = await gw.getPixCharge(resources.chargeId);
  const chargeStatus = dataOf(charge)?.status;
  if (is2xx(charge) && chargeStatus !== 'pending') {
    t.run.record(makeFinding({ requirements, exchanges: [charge.exchange] }, {
      code: 'isolation.state-changed', title: `the sandbox charge changed state after calls ${by}`, severity: 'failure', expected: 'status "pending"', actual: `status ${show(chargeStatus)}`,
    }));
  }
  const transfer = await gw.getTransfer(resources.transferId);
  const transferStatus = dataOf(transfer)?.status;
  if (is2xx(transfer) && transferStatus === 'completed') {
    t.run.record(makeFinding({ requirements, exchanges: [transfer.exchange] }, {
      code: 'isolation.state-changed', title: `the sandbox transfer was completed by calls ${by}`, severity: 'failure', expected: 'not completed', actual: `status ${show(transferStatus)}`,
    }));
  }
}

/**
 * A foreign resource: 404 ("resource not found or belongs to another account") passes, with the
 * `{error: NOT_FOUND, message}` body where the route pins it. 403 ("resource not owned by a sandbox
 * key") is another reading of the Errors table: a pass for production credentials (GW-ENV-ISOLATION
 * ambiguity), a warning for another sandbox account. A 2xx fails.
 */
function expectForeign(t: CheckTools, r: ApiResponse, requirements: string[], options: { allow403: 'pass' | 'warning'; notFoundShape?: string[] }): void {
  if (r.status === 403) {
    if (options.allow403 === 'warning') {
      t.run.record(makeFinding({ requirements, exchanges: [r.exchange] }, {
        code: 'isolation.403-for-other-account', title: `${r.exchange.operation ?? 'request'} answered 403 for another account's resource`, severity: 'warning',
        expected: 'HTTP 404 ("resource not found or belongs to another account")', actual: 'HTTP 403 (the "resource not owned by a sandbox key" reading)',
      }));
    } else {
      t.run.note(`${r.exchange.operation ?? 'request'} answered 403 for a sandbox resource with production credentials`);
    }
    return;
  }
  t.run.record(expectStatus(r.exchange, [404, 403], { requirements }));
  if (r.status === 404 && options.notFoundShape) t.run.record(ensureErrorShapeNotFound(r.json, { requirements: options.notFoundShape, exchanges: [r.exchange] }));
}

check('production credentials: /pay and /complete answer 403 and change nothing', {
  id: 'gateway.isolation.live-simulation-403', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  requirements: ['GW-PIXIN-PAY-PROD-403', 'GW-PIXOUT-COMPLETE-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING'],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const live = t.gateway('live');
  // "403 credentials are not sandbox credentials (production)." / "403 not sandbox credentials."
  const pay = await live.payPixCharge(resources.chargeId);
  t.run.record(expectStatus(pay.exchange, 403, { requirements: ['GW-PIXIN-PAY-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING'] }));
  const complete = await live.completeTransfer(resources.transferId);
  t.run.record(expectStatus(complete.exchange, 403, { requirements: ['GW-PIXOUT-COMPLETE-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING'] }));
  await expectUnchanged(t, resources, ['GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ENV-ISOLATION'], 'with production credentials');
});

check('production credentials never see sandbox charges, transfers or webhooks', {
  id: 'gateway.isolation.live-cannot-see-sandbox', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  requirements: ['GW-ENV-ISOLATION', 'GW-ENV-BY-CREDENTIALS', 'GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-SAME-HOST'],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const sandbox = t.gateway();
  const live = t.gateway('live');
  // "Sandbox data is isolated": 403 or 404 both pass (GW-ENV-ISOLATION ambiguity)
  expectForeign(t, await live.getPixCharge(resources.chargeId), ['GW-ENV-ISOLATION', 'GW-ENV-BY-CREDENTIALS'], { allow403: 'pass', notFoundShape: ['GW-PIXIN-GET-404-SHAPE'] });
  expectForeign(t, await live.getTransfer(resources.transferId), ['GW-ENV-ISOLATION', 'GW-ENV-BY-CREDENTIALS'], { allow403: 'pass', notFoundShape: ['GW-PIXOUT-GET-404-SHAPE'] });
  expectForeign(t, await live.getTransaction(resources.chargeId), ['GW-ENV-ISOLATION'], { allow403: 'pass' });
  // "webhooks are registered separately using the sandbox token": the production list must not show ours
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    const list = await live.listWebhooks();
    t.run.record(expectStatus(list.exchange, '2xx', { requirements: ['GW-WH-LIST'] }));
    const text = JSON.stringify(list.json ?? null);
    const leaked = text.includes(hook.url) ? hook.url : undefined;
    const sameId = findById(list.json, hook.id);
    if (leaked !== undefined || (sameId && sameId.url === hook.url)) {
      t.run.record(makeFinding({ requirements: ['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION'], exchanges: [hook.response.exchange, list.exchange] }, {
        code: 'isolation.webhook-visible', title: 'the production webhook list shows a webhook registered with the sandbox token', severity: 'failure',
        expected: `no webhook with url ${hook.url}`, actual: show(sameId ?? leaked),
      }));
    }
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});

/** A listed object whose id equals `id`, anywhere in a body whose shape is not shown. */
function findById(json: unknown, id: number | string, depth = 0): Record<string, unknown> | undefined {
  if (depth > 4) return undefined;
  if (Array.isArray(json)) {
    for (const item of json) {
      const found = findById(item, id, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  if ('id' in json && String(json.id) === String(id)) return json;
  for (const value of Object.values(json)) {
    const found = findById(value, id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

check("another account gets 404 on this account's charges, transfers and webhooks", {
  id: 'gateway.isolation.other-account', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.other'],
  requirements: ['GW-ERR-404-OTHER-ACCOUNT', 'GW-PIXIN-GET-404-SHAPE', 'GW-PIXOUT-GET-404-SHAPE', 'GW-PIXIN-PAY-404', 'GW-PIXOUT-COMPLETE-404'],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const other = t.gateway('other');
  // "404 | resource not found or belongs to another account"
  expectForeign(t, await other.getPixCharge(resources.chargeId), ['GW-ERR-404-OTHER-ACCOUNT'], { allow403: 'warning', notFoundShape: ['GW-PIXIN-GET-404-SHAPE'] });
  expectForeign(t, await other.getTransfer(resources.transferId), ['GW-ERR-404-OTHER-ACCOUNT'], { allow403: 'warning', notFoundShape: ['GW-PIXOUT-GET-404-SHAPE'] });
  expectForeign(t, await other.getTransaction(resources.chargeId), ['GW-ERR-404-OTHER-ACCOUNT'], { allow403: 'warning' });
  expectForeign(t, await other.payPixCharge(resources.chargeId), ['GW-ERR-404-OTHER-ACCOUNT', 'GW-PIXIN-PAY-404'], { allow403: 'warning' });
  expectForeign(t, await other.completeTransfer(resources.transferId), ['GW-ERR-404-OTHER-ACCOUNT', 'GW-PIXOUT-COMPLETE-404'], { allow403: 'warning' });
  await expectUnchanged(t, resources, ['GW-ERR-404-OTHER-ACCOUNT', 'GW-ENV-ISOLATION'], "with another account's credentials");
  const sandbox = t.gateway();
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    // "DELETE /api/v1/webhook/{id} … Removes a webhook": not another account's
    expectForeign(t, await other.deleteWebhook(hook.id), ['GW-ERR-404-OTHER-ACCOUNT'], { allow403: 'warning' });
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});
