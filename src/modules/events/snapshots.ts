import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, returnItems, returns, shipments, stores } from '../../db/schema.js';
import { findActionsOf } from '../ndr/ndr.repository.js';
import type { CourierCatalogue } from '../rates/catalogue.js';
import { findReturnEventsOf } from '../returns/return-events.repository.js';
import { toReturnElement } from '../returns/returns-listing.js';
import { findPageDetails } from '../shipments/shipments.repository.js';
import { toElement } from '../shipments/shipments.service.js';
import type { TrackUrl } from '../tracking-page/track-links.js';

export type ShipmentSnapshot = ReturnType<typeof toElement>;
export type ReturnSnapshot = ReturnType<typeof toReturnElement>;

/**
 * The shipments as the listing shows them, read inside the caller's transaction so an event carries
 * the state its change committed. The listing's own mapping builds them: one view, not two to keep equal.
 */
export async function shipmentSnapshots(ex: Executor, accountId: string, shipmentIds: string[], catalogue: CourierCatalogue, trackUrl: TrackUrl) {
  const rows = await ex
    .select({ shipment: shipments, order: orders, storeName: stores.storeName })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .leftJoin(stores, eq(stores.id, shipments.storeId))
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.id, shipmentIds)));
  const details = await findPageDetails(
    ex,
    accountId,
    rows.map((r) => r.order.id),
    shipmentIds,
  );
  const actions = await findActionsOf(ex, accountId, shipmentIds);
  return new Map(rows.map((row) => [row.shipment.id, toElement(row, { ...details, actions }, catalogue, trackUrl)]));
}

/** The returns as the returns listing shows them, inside the caller's transaction. */
export async function returnSnapshots(ex: Executor, accountId: string, returnIds: string[], catalogue: CourierCatalogue) {
  const rows = await ex
    .select()
    .from(returns)
    .where(and(eq(returns.accountId, accountId), inArray(returns.id, returnIds)));
  const items = await ex
    .select()
    .from(returnItems)
    .where(and(eq(returnItems.accountId, accountId), inArray(returnItems.returnId, returnIds)))
    .orderBy(asc(returnItems.position));
  const events = await findReturnEventsOf(ex, accountId, returnIds);
  return new Map(rows.map((row) => [row.id, toReturnElement(row, items, events, catalogue)]));
}
