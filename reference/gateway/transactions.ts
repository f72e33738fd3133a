/**
 * `GET /api/v1/transactions/{transactionId}`: "Generic status lookup for card transactions and PIX
 * charges, using the id returned at creation. Response body: not shown." The shape is the
 * reference's choice (DECISIONS.md): `{success, data{id, method, status, amountInCents, …}}`.
 */
import type { Answer, GatewayCall, GatewayDeps, GatewayRoute } from './context.js';
import { findVisible } from './context.js';
import { notFound } from './errors.js';

async function getTransaction(deps: GatewayDeps, call: GatewayCall): Promise<Answer> {
  const id = call.params.transactionId ?? '';
  const charge = findVisible(deps.store.charges, id, call.principal, deps.faults);
  if (charge) {
    return {
      status: 200,
      body: {
        success: true,
        data: {
          id: charge.id,
          method: 'pix',
          status: charge.status,
          amountInCents: charge.amountInCents,
          fees: charge.fees,
          currency: 'BRL',
          ...(charge.endToEndId ? { endToEndId: charge.endToEndId } : {}),
          trackingParameters: charge.trackingParameters,
          createdAt: charge.createdAt,
          updatedAt: charge.updatedAt,
        },
      },
    };
  }
  const sale = findVisible(deps.store.cardSales, id, call.principal, deps.faults);
  if (sale) {
    return {
      status: 200,
      body: {
        success: true,
        data: {
          id: sale.id,
          method: 'card',
          status: sale.status,
          amountInCents: sale.amountInCents,
          currency: sale.currency,
          card: { brand: sale.card.brand, last4: sale.card.last4 },
          ...(sale.receivable ? { receivable: sale.receivable } : {}),
          trackingParameters: sale.trackingParameters,
          createdAt: sale.createdAt,
          updatedAt: sale.updatedAt,
        },
      },
    };
  }
  throw notFound('transaction', deps.faults);
}

export function transactionRoutes(deps: GatewayDeps): GatewayRoute[] {
  return [{ method: 'GET', pattern: '/api/v1/transactions/:transactionId', handle: (call) => getTransaction(deps, call) }];
}
