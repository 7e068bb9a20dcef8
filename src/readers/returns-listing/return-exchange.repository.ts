import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { exchanges, refunds, returns, shipments } from '../../base/db/schema.js';

/** What a return shows of the exchange it is the old item's return of: the exchange and its other leg. */
export interface ReturnExchangeLink {
  id: string;
  display_id: string;
  unique_id: string;
  forward_shipment_id: string;
  forward_awb: string | null;
}

/**
 * Returns with their exchange and their refund, if any: left joins on unique keys
 * (exchanges_return_key, the replacement shipment's primary key, refunds_return_key), so the
 * listing's page stays one statement.
 */
export function selectReturnsWithExchange(ex: Executor) {
  return ex
    .select({
      row: returns,
      exchangeId: exchanges.id,
      exchangeDisplayId: exchanges.displayId,
      exchangeUniqueId: exchanges.uniqueId,
      forwardShipmentId: exchanges.forwardShipmentId,
      forwardAwb: shipments.awb,
      refundStatus: refunds.status,
    })
    .from(returns)
    .leftJoin(exchanges, and(eq(exchanges.returnId, returns.id), eq(exchanges.accountId, returns.accountId)))
    .leftJoin(shipments, eq(shipments.id, exchanges.forwardShipmentId))
    .leftJoin(refunds, eq(refunds.returnId, returns.id));
}

export type ReturnWithExchange = Awaited<ReturnType<ReturnType<typeof selectReturnsWithExchange>['execute']>>[number];

export function exchangeLinkOf(row: ReturnWithExchange): ReturnExchangeLink | null {
  if (row.exchangeId === null) return null;
  return {
    id: row.exchangeId,
    display_id: row.exchangeDisplayId!,
    unique_id: row.exchangeUniqueId!,
    forward_shipment_id: row.forwardShipmentId!,
    forward_awb: row.forwardAwb,
  };
}
