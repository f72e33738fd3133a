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
import { expectStatus } from '../../harness/rules/index.js';
import {
  hideOtherAccountsResources,
  isolateSandboxData,
  refuseSimulationWithProductionCredentials,
  selectEnvironmentByCredentials,
  type SandboxStateAfter,
} from '../../harness/rules/gateway/isolation.js';
import { answerWebhookList } from '../../harness/rules/gateway/webhooks.js';
import { createCharge, dataOf, is2xx, registerWebhook, REGISTERS_WEBHOOKS, removeWebhooks, transferBody } from './webhook-steps.js';
import { settle, taken } from '../../harness/run/parallel.js';
import type { CreatedCharge } from './webhook-steps.js';

const AREA = 'Isolation';

interface SandboxResources {
  chargeId: string;
  transferId: string;
}

/** A pending charge and a banking_processing transfer of the sandbox account (no balance needed). */
async function sandboxResources(t: CheckTools): Promise<SandboxResources | undefined> {
  const gw = t.gateway();
  // two fresh resources, independent: sent together; the charge is judged as it comes back
  // (createCharge), the transfer after both, as when they went out one after the other
  const sends: (() => Promise<unknown>)[] = [() => createCharge(gw, t.run, 1_050), () => gw.createTransfer(transferBody(105))];
  const [charge, transfer] = (await t.all(sends, (send) => send())) as [CreatedCharge | undefined, ApiResponse];
  t.run.record(expectStatus(transfer.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
  const transferId = dataOf(transfer)?.id;
  if (!charge || typeof transferId !== 'string') return undefined;
  return { chargeId: charge.id, transferId };
}

/** The sandbox owner re-reads its resources, to see that nothing done with other credentials took effect. */
async function readAgain(t: CheckTools, resources: SandboxResources, by: string): Promise<SandboxStateAfter> {
  const gw = t.gateway();
  // two reads of two resources: together
  const [charge, transfer] = (await t.all([() => gw.getPixCharge(resources.chargeId), () => gw.getTransfer(resources.transferId)], (read) => read())) as [ApiResponse, ApiResponse];
  return {
    by,
    ...(is2xx(charge) ? { charge: { answer: charge, status: dataOf(charge)?.status } } : {}),
    ...(is2xx(transfer) ? { transfer: { answer: transfer, status: dataOf(transfer)?.status } } : {}),
  };
}

/** Notes which of the statuses the contract allows the target chose for a foreign resource. */
function noteForeign(t: CheckTools, r: ApiResponse, by: 'production' | 'other-account'): void {
  if (r.status === 403 || r.status === 404) t.run.note(`${r.exchange.operation ?? 'request'} for a sandbox resource with ${by === 'production' ? 'production credentials' : "another account's credentials"}: HTTP ${r.status}`);
}

check('production credentials: /pay and /complete answer 403 and change nothing', {
  id: 'gateway.isolation.live-simulation-403', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [refuseSimulationWithProductionCredentials],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const live = t.gateway('live');
  // "403 credentials are not sandbox credentials (production)." / "403 not sandbox credentials."
  // the two calls name two different resources: sent together, judged in order
  const [pay, complete] = (await t.all([() => live.payPixCharge(resources.chargeId), () => live.completeTransfer(resources.transferId)], (send) => send())) as [ApiResponse, ApiResponse];
  t.judge(refuseSimulationWithProductionCredentials, { kind: 'call', route: 'pay', answer: pay });
  t.judge(refuseSimulationWithProductionCredentials, { kind: 'call', route: 'complete', answer: complete });
  t.judge(refuseSimulationWithProductionCredentials, { kind: 'after', state: await readAgain(t, resources, 'with production credentials') });
});

check('production credentials never see sandbox charges, transfers or webhooks', {
  id: 'gateway.isolation.live-cannot-see-sandbox', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [selectEnvironmentByCredentials, isolateSandboxData, ...REGISTERS_WEBHOOKS, answerWebhookList],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const sandbox = t.gateway();
  const live = t.gateway('live');
  // "Two environments share the same host. The environment is chosen by the credential pair used at
  // POST /api/auth": both pairs get a token at the one host the target is configured with
  // POST /api/auth twice and three reads with production credentials: nothing here changes
  // anything another one reads, so they are sent together and judged in order. The reads need a
  // production token: when none can be had they throw (AuthFailedError), and they throw where they
  // did one after the other, after the two exchanges are judged (settled, then taken in order)
  const [sandboxAuth, liveAuth, charge, transfer, txn] = await t.all(
    [() => sandbox.auth(), () => live.auth(), () => live.getPixCharge(resources.chargeId), () => live.getTransfer(resources.transferId), () => live.getTransaction(resources.chargeId)],
    (send) => settle(send()),
  );
  t.judge(selectEnvironmentByCredentials, { sandbox: taken(sandboxAuth), live: taken(liveAuth) });
  // "Sandbox data is isolated": 403 or 404 both pass
  for (const [r, pin] of [[taken(charge), 'charge-lookup'], [taken(transfer), 'transfer-lookup'], [taken(txn), undefined]] as const) {
    noteForeign(t, r, 'production');
    t.judge(isolateSandboxData, { kind: 'read', answer: r, ...(pin !== undefined ? { pin } : {}) });
  }
  // "webhooks are registered separately using the sandbox token": the production list must not show ours
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    const list = await live.listWebhooks();
    t.judge(answerWebhookList, list);
    if (is2xx(list)) t.judge(isolateSandboxData, { kind: 'webhook-list', list, hook: { id: hook.id, url: hook.url, exchange: hook.response.exchange } });
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});

check("another account gets 404 on this account's charges, transfers and webhooks", {
  id: 'gateway.isolation.other-account', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.other'],
  rules: [hideOtherAccountsResources, ...REGISTERS_WEBHOOKS],
}, async (t) => {
  const resources = await sandboxResources(t);
  if (!resources) return;
  const other = t.gateway('other');
  // "404 | resource not found or belongs to another account"
  // the three reads together, then the two writes (one per resource) together: the reads still see
  // the resources before any foreign write; each batch is judged in order
  const [charge, transfer, txn] = (await t.all([() => other.getPixCharge(resources.chargeId), () => other.getTransfer(resources.transferId), () => other.getTransaction(resources.chargeId)], (read) => read())) as [ApiResponse, ApiResponse, ApiResponse];
  const foreign = (r: ApiResponse, pin?: 'charge-lookup' | 'transfer-lookup'): void => {
    noteForeign(t, r, 'other-account');
    t.judge(hideOtherAccountsResources, { kind: 'request', answer: r, ...(pin !== undefined ? { pin } : {}) });
  };
  foreign(charge, 'charge-lookup');
  foreign(transfer, 'transfer-lookup');
  foreign(txn);
  const [pay, complete] = (await t.all([() => other.payPixCharge(resources.chargeId), () => other.completeTransfer(resources.transferId)], (send) => send())) as [ApiResponse, ApiResponse];
  foreign(pay);
  foreign(complete);
  t.judge(hideOtherAccountsResources, { kind: 'after', state: await readAgain(t, resources, "with another account's credentials") });
  const sandbox = t.gateway();
  const hook = await registerWebhook(sandbox, t.run, t.callbackUrl, ['transaction_paid']);
  try {
    if (!hook) return;
    // "DELETE /api/v1/webhook/{id} … Removes a webhook": not another account's
    foreign(await other.deleteWebhook(hook.id));
  } finally {
    await removeWebhooks(sandbox, [hook]);
  }
});
