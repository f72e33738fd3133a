/**
 * `GET /api/v1/balance`. Contract, "Balance": strings in reais with 2 decimals (the one exception
 * to integer cents); `pix.balance` is the available balance.
 */
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { formatReais, scopeOf, type Balances } from './store.js';

/** How one balance is rendered; three faults break the type or the precision. */
function renderBalance(cents: number, faults: ReadonlySet<string>): string | number {
  if (faults.has('gw-balance-as-number')) return cents / 100;
  if (faults.has('gw-balance-one-decimal')) return (cents / 100).toFixed(1);
  return formatReais(cents);
}

/**
 * The caller's balances: its account in its environment ("the sandbox balance … is separate from
 * the real balance"). Fault `gw-balance-shared-across-environments`: the ledger query filters by
 * account only, so the production balance also sums the sandbox postings.
 */
function balancesShown(deps: GatewayDeps, call: GatewayCall): Balances {
  const own = deps.store.balanceOf(scopeOf(call.principal));
  if (!deps.faults.has('gw-balance-shared-across-environments') || call.principal.environment === 'sandbox') return own;
  const sandbox = deps.store.balanceOf(scopeOf({ accountId: call.principal.accountId, environment: 'sandbox' }));
  return { pix: own.pix + sandbox.pix, pixBlocked: own.pixBlocked + sandbox.pixBlocked, reserve: own.reserve + sandbox.reserve };
}

async function getBalance(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const balances = balancesShown(deps, call);
  return {
    status: 200,
    body: {
      success: true,
      data: {
        pix: { balance: renderBalance(balances.pix, deps.faults) },
        pixBlocked: { balance: renderBalance(balances.pixBlocked, deps.faults) },
        reserve: { balance: renderBalance(balances.reserve, deps.faults) },
        ...(deps.personality.gwBalanceExtraFields && { currency: 'BRL', updatedAt: deps.time(new Date().toISOString()) }),
      },
    },
  };
}

export function balanceRoutes(deps: GatewayDeps): GatewayRoute[] {
  // fault: the router mounted without the version prefix
  const pattern = deps.faults.has('gw-balance-route-unversioned') ? '/api/balance' : '/api/v1/balance';
  return [{ method: 'GET', pattern, handle: (call) => getBalance(deps, call) }];
}
