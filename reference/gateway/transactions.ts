/**
 * `GET /api/v1/transactions/{transactionId}`: "Generic status lookup for card transactions and PIX
 * charges, using the id returned at creation. Response body: not shown." The shape is the
 * personality's choice (DECISIONS.md): `{success, data{id, method, status, amountInCents, …}}`, or
 * the bare object; the alt personality also finds PIX transfers.
 */
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { findVisible } from './context.js';
import { notFound } from './errors.js';

function found(deps: GatewayDeps, data: Record<string, unknown>): Answer {
  return { status: 200, body: deps.personality.gwTransactionEnvelope ? { success: true, data } : data };
}

async function getTransaction(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const id = call.params.transactionId ?? '';
  // fault: the lookup was written for card sales and never learned of PIX charges
  const charge = deps.faults.has('gw-txn-lookup-card-only') ? undefined : findVisible(deps.store.charges, id, call.principal, deps.faults);
  if (charge) {
    return found(deps, {
      id: charge.id,
      method: 'pix',
      status: charge.status,
      amountInCents: charge.amountInCents,
      fees: charge.fees,
      currency: 'BRL',
      ...(charge.endToEndId ? { endToEndId: charge.endToEndId } : {}),
      trackingParameters: charge.trackingParameters,
      createdAt: deps.time(charge.createdAt),
      updatedAt: deps.time(charge.updatedAt),
    });
  }
  // fault `gw-txn-lookup-pix-only`: the lookup searches PIX charges only
  const sale = deps.faults.has('gw-txn-lookup-pix-only') ? undefined : findVisible(deps.store.cardSales, id, call.principal, deps.faults);
  if (sale) {
    return found(deps, {
      id: sale.id,
      method: 'card',
      status: sale.status,
      amountInCents: sale.amountInCents,
      currency: sale.currency,
      card: { brand: sale.card.brand, last4: sale.card.last4 },
      ...(sale.receivable ? { receivable: { ...sale.receivable, settlesAt: deps.time(sale.receivable.settlesAt) } } : {}),
      trackingParameters: sale.trackingParameters,
      createdAt: deps.time(sale.createdAt),
      updatedAt: deps.time(sale.updatedAt),
    });
  }
  const transfer = deps.personality.gwTransactionFindsTransfers ? findVisible(deps.store.transfers, id, call.principal, deps.faults) : undefined;
  if (transfer) {
    return found(deps, {
      id: transfer.id,
      method: 'pix_out',
      status: transfer.status,
      amount: transfer.amount,
      currency: 'BRL',
      createdAt: deps.time(transfer.createdAt),
      updatedAt: deps.time(transfer.updatedAt),
    });
  }
  throw notFound('transaction', deps.faults);
}

export function transactionRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [{ method: 'GET', pattern: '/api/v1/transactions/:transactionId', handle: (call) => getTransaction(deps, call) }];
}
