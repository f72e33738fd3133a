/**
 * `GET /api/v1/balance`. Contract, "Balance": strings in reais with 2 decimals (the one exception
 * to integer cents); `pix.balance` is the available balance.
 */
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { formatReais, scopeOf } from './store.js';

/** How one balance is rendered; three faults break the type or the precision. */
function renderBalance(cents: number, faults: ReadonlySet<string>): string | number {
  if (faults.has('gw-balance-as-number')) return cents / 100;
  if (faults.has('gw-balance-one-decimal')) return (cents / 100).toFixed(1);
  return formatReais(cents);
}

async function getBalance(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const balances = deps.store.balanceOf(scopeOf(call.principal));
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
  return [{ method: 'GET', pattern: '/api/v1/balance', handle: (call) => getBalance(deps, call) }];
}
